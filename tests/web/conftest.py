"""Shared pieces of the web tests: an app on a temporary database, tables, and WebSocket helpers."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from oakwood.web.app import ServerSettings, create_app
from oakwood.web.room import RoomSettings
from tests.web.cluster_helpers import RedisServer, start_redis
from tests.web.served import Served

Update = dict[str, Any]


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A fresh ``redis-server`` for one test (the cluster's tests), killed after it."""
    server = start_redis(tmp_path / "redis")
    yield server
    server.stop()


@pytest.fixture
def server(tmp_path: Path) -> Callable[..., TestClient]:
    """Make a test client of a fresh app on its own SQLite file; keyword arguments set :class:`RoomSettings`
    (``rate_limit`` and ``bot_processes`` go to the server: 0 keeps every bot in the server's threads)."""
    clients: list[TestClient] = []
    database = f"sqlite:///{tmp_path / 'web.db'}"

    def make(rate_limit: int = 10_000, bot_processes: int = 2, **room: Any) -> TestClient:
        settings = ServerSettings(
            db=database,
            room=RoomSettings(**{"bot_pace": 0.0, **room}),
            rate_limit=rate_limit,
            bot_threads=2,
            bot_processes=bot_processes,
        )
        client = TestClient(create_app(settings))
        client.__enter__()
        clients.append(client)
        return client

    yield make  # type: ignore[misc]
    for client in reversed(clients):
        client.__exit__(None, None, None)


@pytest.fixture
def client(server: Callable[..., TestClient]) -> TestClient:
    """A test client of a fresh app with default settings (bots move at once)."""
    return server()


def create(client: TestClient, game: str, seats: list[str], name: str = "Ann", **extra: Any) -> dict[str, Any]:
    """Create a table and return the answer (``table``, ``seat``, ``token``)."""
    body = {"game": game, "players": len(seats), "seats": seats, "name": name, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def send(ws: WebSocketTestSession, **message: Any) -> None:
    """Send one message as JSON text."""
    ws.send_text(json.dumps(message))


def receive(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next message, skipping pongs."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] != "pong":
            return message


def hello(ws: WebSocketTestSession, token: str | None) -> Update:
    """Say hello (as a seat, or a spectator with None) and return the first update."""
    send(ws, type="hello", token=token)
    message = receive(ws)
    assert message["type"] == "update", message
    return message


def until(ws: WebSocketTestSession, done: Callable[[Update], bool], limit: int = 5000) -> Update:
    """Read updates until one satisfies ``done`` (errors fail the test)."""
    for _ in range(limit):
        message = receive(ws)
        assert message["type"] == "update", message
        if done(message):
            return message
    raise AssertionError("the expected update never came")


def play_out(ws: WebSocketTestSession, update: Update, pick: Callable[[Update], int] | None = None) -> Update:
    """Play this seat's moves (the first legal one, or ``pick``'s) until the game is over; the last update."""
    choose = pick or (lambda u: u["legal"][0]["index"])
    while not update["observation"]["terminal"]:
        if update["legal"]:
            send(ws, type="act", seq=update["seq"], action=choose(update))
        message = receive(ws)
        while message["type"] == "error":  # only a move that crossed a newer update (a bot's) is refused
            assert message["code"] == "stale", message
            message = receive(ws)
        update = message
    return update


@pytest.fixture
def socket(client: TestClient) -> Callable[[str], Iterator[WebSocketTestSession]]:
    """Open a WebSocket to a table of ``client``."""

    def connect(table_id: str) -> Any:
        return client.websocket_connect(f"/ws/tables/{table_id}")

    return connect  # type: ignore[return-value]


@pytest.fixture
def started() -> Iterator[list[Served]]:
    """The servers a test starts; any still running at its end are killed."""
    servers: list[Served] = []
    yield servers
    for served in servers:
        if served.process.poll() is None:
            served.process.kill()
            served.process.wait()
