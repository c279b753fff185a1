"""A move's write to the store runs off the event loop: a write that waits (SQLite's file lock held by another
process, a slow PostgreSQL round trip) holds up its own table only, and every move is still stored before
anyone is shown it.

The stuck write here is a store whose ``save_moves`` waits on a gate for one game: the test proves with events,
not timings, that another table's move is stored and answered while that write waits, that nobody at the stuck
table is shown the move before it is stored, and that the stuck table's next request waits its turn."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from oakwood.store import Store, open_store
from oakwood.web.protocol import Act, Hello
from oakwood.web.registry import Registry, join
from oakwood.web.room import Client, Room, RoomSettings
from tests.web.cluster_helpers import run

pytestmark = pytest.mark.timeout(60)

#: how long a stuck write waits for its gate before it goes on anyway (so a failure ends, never hangs)
GATE_SECONDS = 5.0


class GatedStore:
    """Wraps a store's writes of moves: a game in :attr:`stuck` is one whose write would wait (its try here and now,
    ``save_moves_if_free``, answers False as SQLite does while another process holds the file's lock), and its
    write signals :attr:`entered` and waits for :attr:`gate` (in whatever thread runs it) before it writes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.stuck: set[int] = set()
        self.entered = threading.Event()
        self.gate = threading.Event()
        self._save = store.save_moves
        self._save_if_free = store.save_moves_if_free
        store.save_moves = self.save_moves  # type: ignore[method-assign]
        store.save_moves_if_free = self.save_moves_if_free  # type: ignore[method-assign]

    def save_moves_if_free(self, game_id: int, actions: Sequence[tuple[int, int]], **kwargs: Any) -> bool:
        if game_id in self.stuck:
            return False
        return self._save_if_free(game_id, actions, **kwargs)

    def save_moves(self, game_id: int, actions: Sequence[tuple[int, int]], **kwargs: Any) -> None:
        if game_id in self.stuck:
            self.entered.set()
            self.gate.wait(GATE_SECONDS)
        self._save(game_id, actions, **kwargs)


@pytest.fixture
def gated(tmp_path: Path) -> Iterator[GatedStore]:
    """A SQLite store of the test's own with its writes of moves gated; the gate opened and the store closed after,
    whatever happened (a stuck write never outlives its test)."""
    store = open_store(f"sqlite:///{tmp_path / 'web.db'}")
    gated = GatedStore(store)
    try:
        yield gated
    finally:
        gated.gate.set()
        store.close()


class Frames:
    """A connection that keeps what it is sent (the updates, decoded)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send_text(self, data: str) -> None:
        self.messages.append(json.loads(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass

    def seqs(self) -> list[int]:
        return [message["seq"] for message in self.messages if message["type"] == "update"]


async def two_seated(registry: Registry) -> tuple[Room, dict[int, tuple[Client, Frames]]]:
    """A Barrell table of two people, both seated and connected: the room, and each seat's connection."""
    room, first, token = registry.create(
        game_name="barrell", players=2, options={}, seats=["human", "human"], name="Ann", turn_seconds=None
    )
    second = await join(room, "Bob", None)
    connections: dict[int, tuple[Client, Frames]] = {}
    for seat, secret in ((first, token), (second["seat"], second["token"])):
        frames = Frames()
        client = Client(frames)
        await room.connect(client)
        await room.receive(client, Hello(token=secret))
        connections[seat] = (client, frames)
    await asyncio.sleep(0.01)  # the outboxes' writers run
    return room, connections


async def move(room: Room, connections: dict[int, tuple[Client, Frames]]) -> asyncio.Task[None]:
    """The first legal move of the seat to act, sent as a task (it may wait for the store)."""
    seat = room.table.to_act()[0]
    client, frames = connections[seat]
    legal = next(message for message in reversed(frames.messages) if message["type"] == "update")["legal"]
    message = Act(seq=room.table.seq, action=legal[0]["index"])
    return asyncio.get_running_loop().create_task(room.receive(client, message))


def test_a_write_that_waits_holds_up_its_own_table_and_no_other(gated: GatedStore) -> None:
    store = gated.store

    async def scenario() -> None:
        with ThreadPoolExecutor(2) as bots:
            registry = Registry(store, bots, RoomSettings(bot_pace=0), version=None)
            stuck, stuck_connections = await two_seated(registry)
            free, free_connections = await two_seated(registry)
            gated.stuck.add(stuck.table.live.id)
            loop = asyncio.get_running_loop()

            stuck_move = await move(stuck, stuck_connections)
            # the stuck table's write has begun (in a thread) and waits; the loop is free to go on
            assert await loop.run_in_executor(None, gated.entered.wait, GATE_SECONDS)
            assert not stuck_move.done()

            # another table's move is stored and answered meanwhile
            await (await move(free, free_connections))
            await asyncio.sleep(0.01)
            assert free.table.seq == 1
            assert all(frames.seqs()[-1] == 1 for _, frames in free_connections.values())
            assert store.get_game(free.table.live.id).steps == 1

            # nobody at the stuck table has been shown its move: it is not stored yet
            assert not stuck_move.done() and stuck.table.seq == 0
            assert all(max(frames.seqs()) == 0 for _, frames in stuck_connections.values())
            assert store.get_game(stuck.table.live.id).steps == 0

            gated.gate.set()
            await stuck_move
            await asyncio.sleep(0.01)
            assert stuck.table.seq == 1 and store.get_game(stuck.table.live.id).steps == 1
            assert all(frames.seqs()[-1] == 1 for _, frames in stuck_connections.values())
            assert not any(
                message["type"] == "error" for _, frames in stuck_connections.values() for message in frames.messages
            )
            await registry.close()

    run(scenario())


def test_a_table_takes_its_next_request_only_once_the_last_is_stored(gated: GatedStore) -> None:
    """Two moves sent at once to a table whose write waits: the second is checked against the stored position
    once the first has landed (it is then stale, refused), never against the position before it."""
    store = gated.store

    async def scenario() -> None:
        with ThreadPoolExecutor(2) as bots:
            registry = Registry(store, bots, RoomSettings(bot_pace=0), version=None)
            room, connections = await two_seated(registry)
            gated.stuck.add(room.table.live.id)
            loop = asyncio.get_running_loop()
            first = await move(room, connections)
            assert await loop.run_in_executor(None, gated.entered.wait, GATE_SECONDS)
            again = await move(room, connections)  # the same seat, the same seq: sent twice
            await asyncio.sleep(0.01)
            assert not first.done() and not again.done()  # the second waits for the first's write
            gated.gate.set()
            await first
            await again
            await asyncio.sleep(0.01)
            assert room.table.seq == 1 and store.get_game(room.table.live.id).steps == 1
            mover = connections[room.table.state.history[0][0]][1]
            assert [message["code"] for message in mover.messages if message["type"] == "error"] == ["stale"]
            await registry.close()

    run(scenario())


def test_a_change_whose_task_is_cancelled_while_it_is_stored_still_settles_and_is_told(gated: GatedStore) -> None:
    """A task cancelled while its move is being written (a bot whose player came back, a closing room): the write
    lands in its thread regardless, so the table takes the move too, and everyone is told; the store and the
    table never disagree."""
    store = gated.store

    async def scenario() -> None:
        with ThreadPoolExecutor(2) as bots:
            registry = Registry(store, bots, RoomSettings(bot_pace=0), version=None)
            room, connections = await two_seated(registry)
            gated.stuck.add(room.table.live.id)
            loop = asyncio.get_running_loop()
            sent = await move(room, connections)
            assert await loop.run_in_executor(None, gated.entered.wait, GATE_SECONDS)
            sent.cancel()
            await asyncio.sleep(0.01)
            assert not sent.done(), "the task waits for its write to land before it ends"
            gated.gate.set()
            await asyncio.wait({sent})
            assert sent.cancelled()
            await asyncio.sleep(0.05)
            assert room.table.seq == 1 and store.get_game(room.table.live.id).steps == 1
            assert all(frames.seqs()[-1] == 1 for _, frames in connections.values())
            await registry.close()

    run(scenario())
