"""Processes of ``oakwood serve --redis`` as apps in one test process (each with its own event loop, as two
servers have) on one SQLite store and a real ``redis-server``, both behind the trusted proxy of the test client
(its peer 127.0.0.1), which names the visitor in ``X-Forwarded-For``.

- The per-address limits hold across the processes: a visitor who spreads its requests over both is held to
  the same limits as at one process; with Redis away each process counts on its own, as a single process does.
- A connection to a table held by a process with an address of its own (``--advertise-url``) is sent there
  (``moved`` and 4010), unless it asks to be relayed (``?relay=1``); without an address it is relayed.
- A relayed connection leaves nothing running once it closes (its writer task waited for ever, and was
  destroyed pending at a stop: "Task was destroyed but it is pending!")."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from oakwood.store import open_store
from oakwood.web import cluster as cluster_module
from oakwood.web.app import ServerSettings, create_app
from oakwood.web.cluster import Cluster, creating_key
from oakwood.web.registry import TableLimits
from oakwood.web.room import RoomSettings
from tests.web.cluster_helpers import RedisServer

pytestmark = pytest.mark.timeout(60)

Make = Callable[..., TestClient]
VISITOR = "203.0.113.7"
OTHER = "198.51.100.9"


@pytest.fixture
def make(tmp_path: Path, redis_server: RedisServer) -> Iterator[Make]:
    """Make a test client of a fresh process of the cluster (one SQLite store and one Redis for all of them);
    ``limits`` its table limits, other keyword arguments its :class:`ServerSettings`."""
    clients: list[TestClient] = []
    database = f"sqlite:///{tmp_path / 'web.db'}"
    open_store(database).close()  # the schema first, as the tests' processes do

    def build(limits: TableLimits | None = None, **settings: Any) -> TestClient:
        config = ServerSettings(
            db=database,
            room=RoomSettings(bot_pace=0.0),
            bot_threads=2,
            bot_processes=0,
            tables=limits or TableLimits(),
            redis=redis_server.url,
            **settings,
        )
        client = TestClient(create_app(config), client=("127.0.0.1", 50000))
        client.__enter__()
        clients.append(client)
        return client

    yield build
    for client in reversed(clients):
        client.__exit__(None, None, None)


def post_table(client: TestClient, address: str, seats: tuple[str, ...] = ("human", "human")) -> Any:
    """``POST /api/tables`` from ``address``, through the trusted proxy."""
    body = {"game": "barrell", "players": len(seats), "seats": list(seats), "name": "Ann"}
    return client.post("/api/tables", json=body, headers={"X-Forwarded-For": address})


def test_tables_waiting_at_either_process_count_against_one_address(make: Make) -> None:
    limits = TableLimits(unstarted_per_client=3, open_per_client=20)
    a, b = make(limits), make(limits)
    answers = [post_table(client, VISITOR) for client in (a, b, a)]
    assert [answer.status_code for answer in answers] == [201, 201, 201]
    for client in (b, a):  # three wait at the two processes together: a fourth is refused at either
        refused = post_table(client, VISITOR)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_waiting", refused.text
    assert post_table(b, OTHER).status_code == 201, "another address is not held by this one's tables"


def test_open_tables_at_either_process_count_against_one_address(make: Make) -> None:
    limits = TableLimits(unstarted_per_client=20, open_per_client=2)
    a, b = make(limits), make(limits)
    assert post_table(a, VISITOR).status_code == 201
    assert post_table(b, VISITOR).status_code == 201
    refused = post_table(a, VISITOR)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_open", refused.text


def test_the_creation_rate_is_one_bucket_across_processes(make: Make) -> None:
    a, b = make(create_burst=3, create_per_minute=1.0), make(create_burst=3, create_per_minute=1.0)
    assert [post_table(client, VISITOR).status_code for client in (a, b, b)] == [201, 201, 201]
    refused = post_table(a, VISITOR)  # a has seen one creation of this address, the cluster three
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited", refused.text
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert post_table(a, OTHER).status_code == 201


def test_one_address_creating_at_two_processes_at_once_gets_one_table_past_a_limit_of_one(make: Make) -> None:
    limits = TableLimits(unstarted_per_client=1, open_per_client=20)
    a, b = make(limits), make(limits)
    start = threading.Barrier(2)

    def create(client: TestClient) -> Any:
        start.wait()
        return post_table(client, VISITOR)

    with ThreadPoolExecutor(2) as threads:
        answers = list(threads.map(create, (a, b)))
    codes = sorted(answer.status_code for answer in answers)
    assert codes == [201, 429], [answer.text for answer in answers]
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert refused.json()["error"]["code"] == "too_many_waiting", refused.text


def test_a_creation_waits_for_another_of_the_same_address_and_is_refused_if_it_never_ends(
    make: Make, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_module, "CREATING_WAIT_SECONDS", 0.3)
    client = make()
    held = redis.Redis.from_url(redis_server.url)
    held.set(creating_key(VISITOR), "another process", px=60_000)  # a creation under way elsewhere
    refused = post_table(client, VISITOR)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited", refused.text
    assert "being created" in refused.json()["error"]["message"]
    assert post_table(client, OTHER).status_code == 201, "another address has its own lock"
    held.delete(creating_key(VISITOR))
    assert post_table(client, VISITOR).status_code == 201
    assert held.get(creating_key(VISITOR)) is None, "the lock is given back after the creation"
    held.close()


def test_with_redis_away_a_process_counts_the_creations_it_saw(make: Make, redis_server: RedisServer) -> None:
    client = make(create_burst=2, create_per_minute=1.0)
    assert post_table(client, VISITOR).status_code == 201
    cluster: Cluster = client.app.state.cluster  # type: ignore[attr-defined]
    redis_server.stop()
    # creating needs Redis (a table's lease is claimed first), so the fallback is asked of the node directly
    portal = client.portal
    assert portal is not None
    shared = portal.call(cluster.creation_wait, VISITOR, 2, 60.0)
    assert shared is None, "Redis is away: the node counts alone"
    limits = TableLimits(unstarted_per_client=1)
    portal.call(cluster.check_client, VISITOR, limits)  # refuses nothing: the node's own count still does
    refused = post_table(client, VISITOR)
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "unavailable", refused.text


async def writers() -> int:
    """The connection writers (``Client._write`` tasks) still running on this event loop."""
    running = [task for task in asyncio.all_tasks() if not task.done()]
    return sum(getattr(task.get_coro(), "__qualname__", "") == "Client._write" for task in running)


def test_a_relayed_connection_leaves_no_writer_running_once_it_closes(make: Make) -> None:
    a, b = make(), make()
    created = post_table(a, VISITOR).json()
    table_id = created["table"]["id"]
    assert b.portal is not None
    before = b.portal.call(writers)
    for _ in range(3):  # the player's socket reaches B, which relays it to A (the table's owner)
        with b.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": created["token"]}))
            assert json.loads(ws.receive_text())["type"] == "update"
        b.portal.call(asyncio.sleep, 0.2)  # B sees the close and ends the relay
    assert b.portal.call(writers) == before, "every relayed connection's writer ended with it"


def test_a_connection_is_sent_to_the_holder_s_own_address_when_it_has_one(make: Make) -> None:
    a = make(advertise_url="https://games.example.org/node/a")
    b = make()
    created = post_table(a, VISITOR)
    table_id, token = created.json()["table"]["id"], created.json()["token"]
    with b.websocket_connect(f"/ws/tables/{table_id}") as ws:  # B does not hold it: the page is sent to A
        assert json.loads(ws.receive_text()) == {
            "type": "moved",
            "url": f"wss://games.example.org/node/a/ws/tables/{table_id}",
        }
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4010
    # a client that could not reach that address asks to be relayed, and is
    with b.websocket_connect(f"/ws/tables/{table_id}?relay=1") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.receive_text())["type"] == "update"
    # B has no address of its own: a connection to its table that reaches A is relayed, as before
    mine = post_table(b, OTHER).json()
    with a.websocket_connect(f"/ws/tables/{mine['table']['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": mine["token"]}))
        assert json.loads(ws.receive_text())["type"] == "update"
