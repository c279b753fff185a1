"""A killed server loses nothing: play into a game over real sockets, SIGKILL the server, start it again on
the same database, reconnect with the seat's token and finish the game."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from oakwood.store import open_store

pytestmark = pytest.mark.timeout(120)
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(database: str, port: int) -> subprocess.Popen[str]:
    """``oakwood serve`` as a subprocess, once it answers HTTP."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "oakwood.cli.main", "serve", "--port", str(port), "--db", database]
    server = subprocess.Popen(
        [*command, "--bot-pace", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert server.poll() is None, server.communicate()
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
            return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise AssertionError("the server did not start")


def next_update(ws: ClientConnection) -> dict[str, Any]:
    """The next update (errors fail the test)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        assert message["type"] != "error", message
        if message["type"] == "update":
            return message


def play(ws: ClientConnection, update: dict[str, Any], moves: int | None) -> dict[str, Any]:
    """Play the first legal move ``moves`` times (None: to the end); the last update."""
    played = 0
    while not update["observation"]["terminal"] and (moves is None or played < moves):
        if update["legal"]:
            time.sleep(0.06)  # a person's pace: the server refuses more than 20 messages a second
            ws.send(json.dumps({"type": "act", "seq": update["seq"], "action": update["legal"][0]["index"]}))
            played += 1
        update = next_update(ws)
    return update


def test_a_server_killed_mid_game_resumes_the_table_with_nothing_lost(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'web.db'}"
    port = free_port()
    server = start_server(database, port)
    try:
        body = {"game": "barrell", "players": 2, "seats": ["human", "medium"], "name": "Ann"}
        answer = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=body).json()
        table_id, token = answer["table"]["id"], answer["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            before = play(ws, next_update(ws), moves=6)
            seen = before["observation"]
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)

        server = start_server(database, port)
        listed = httpx.get(f"http://127.0.0.1:{port}/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [table_id]
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            again = next_update(ws)
            assert again["seat"] == 0 and again["seq"] >= before["seq"]
            if again["seq"] == before["seq"]:
                assert again["observation"] == seen  # exactly where it stopped
            last = play(ws, again, moves=None)
        assert last["table"]["status"] == "finished"
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    with open_store(database) as store:
        stored = store.get_game(answer["table"]["game_id"])
        assert stored.finished and stored.replay().play().observe(0) == last["observation"]
