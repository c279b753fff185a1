"""How a node of ``oakwood serve --redis`` takes over the tables of a node that was killed, in one process: two
:class:`~oakwood.web.cluster.Cluster` objects on one SQLite store and a real ``redis-server``, one of them
"killed" by stopping everything it does without releasing a thing (as SIGKILL leaves its leases in Redis).

What is checked is the order of things, never how long they took: the survivor looks again the moment the
killed node's leases lapse (not up to a heartbeat later), and it rebuilds the killed node's tables side by side
in that one look (not one after another).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from oakwood.store import WebTable, open_store
from oakwood.web.cluster import LAPSE_MARGIN, REBUILDS_AT_ONCE, Cluster, alive_key, lease_key
from oakwood.web.registry import Registry, join
from oakwood.web.room import Room
from oakwood.web.table import Table, TableError, token_digest
from tests.web.cluster_helpers import RedisServer, registry, run

pytestmark = pytest.mark.timeout(60)

#: the lease of both nodes, in seconds (a tick is a third of it)
LEASE = 1.0
TABLES = REBUILDS_AT_ONCE + 2


def creator(node: Registry, seats: list[str]) -> Callable[[str], tuple[Room, int, str]]:
    """What :meth:`Cluster.new_table` is given to create a Barrell table of two at ``node`` (Ann seated)."""

    def create(table_id: str) -> tuple[Room, int, str]:
        return node.create(
            game_name="barrell", players=2, options={}, seats=seats, name="Ann", turn_seconds=None, table_id=table_id
        )

    return create


async def take_over(db: str, url: str) -> tuple[list[str], set[str], float, float, int]:
    """Node A creates :data:`TABLES` tables, renews their leases once and is killed; node B looks at the
    cluster until A's mark of life has less than a tick left, then ticks when its own heartbeat would, and once
    more while the take-over that tick started is under way. The tables A made; those B holds once that
    take-over is done; when B's tick was due and when A's leases lapsed (both ``time.monotonic``); the most
    rebuilds B ran at once."""
    bots = ThreadPoolExecutor(2)
    a_registry, b_registry = registry(db, bots), registry(db, bots)
    a, b = Cluster(a_registry, url, LEASE), Cluster(b_registry, url, LEASE)
    made: list[str] = []
    try:
        await a.start()

        for _ in range(TABLES):
            room, _, _ = await a.new_table(creator(a_registry, ["human", "easy"]))
            made.append(room.table.id)
        # A dies right after a heartbeat: its mark of life and every lease renewed together, then nothing
        for task in a._tasks:
            task.cancel()
        await asyncio.wait(a._tasks)
        await a.tick()
        await a.redis.aclose()

        # B counts the rebuilds running at once: the first ones wait (in their threads) until as many as may
        # run together have started, which never happens if B rebuilds one table after another; then they are
        # held until the test lets them go, so a heartbeat can be run while the take-over is under way
        together = threading.Barrier(REBUILDS_AT_ONCE, timeout=20)
        go = threading.Event()
        calls = running = most = 0
        lock = threading.Lock()
        rebuild = b_registry.rebuild

        def counted(stored: WebTable) -> tuple[Table, int]:
            nonlocal calls, running, most
            with lock:
                calls, running = calls + 1, running + 1
                most, meet = max(most, running), calls <= REBUILDS_AT_ONCE
            try:
                if meet:  # BrokenBarrierError (the take-over fails) if the others never start meanwhile
                    together.wait()
                    go.wait(20)
                return rebuild(stored)
            finally:
                with lock:
                    running -= 1

        b_registry.rebuild = counted  # type: ignore[method-assign]
        await b.start()  # its first tick: every table is A's, and A's leases have a tick or more left
        assert not set(made) & set(b_registry.rooms)
        for task in b._tasks[1:]:  # B's heartbeat: its ticks are run by hand below
            task.cancel()
        probe = b.redis
        while (await probe.pttl(alive_key_of(a))) / 1000 >= b.tick_seconds:
            await asyncio.sleep(0.02)
        lapses_at = time.monotonic() + max(0, await probe.pttl(alive_key_of(a))) / 1000
        await b.tick()  # it sees A's mark about to lapse: its next tick is due then, not a tick from now
        due = b.next_tick_at
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        leases = [await probe.get(lease_key(table_id)) for table_id in made]
        assert leases == [None] * TABLES, "A's leases lapsed by the time B's tick was due"
        await b.tick()  # it claims them all; the rebuilds go on apart from the heartbeat
        assert [await probe.get(lease_key(table_id)) for table_id in made] == [b.node] * TABLES
        while running < REBUILDS_AT_ONCE:  # (bounded by the test's timeout)
            await asyncio.sleep(0.01)
        trusted = [b._valid_until[table_id] for table_id in made]  # until when B trusts each claim
        await b.tick()  # while four rebuilds are held: the heartbeat does not wait for the take-over...
        assert running == REBUILDS_AT_ONCE and not set(made) & set(b_registry.rooms)
        renewed = [b._valid_until[table_id] for table_id in made]  # ...and renewed every one of those leases
        assert all(later > earlier for earlier, later in zip(trusted, renewed, strict=True))
        go.set()
        await b.settled()
        held = {table_id for table_id in made if table_id in b_registry.rooms and b.holds(table_id)}
        assert [await probe.get(lease_key(table_id)) for table_id in made] == [b.node] * TABLES
        return made, held, due, lapses_at, most
    finally:
        await b.stop()
        await a_registry.close()
        a_registry.store.close()
        b_registry.store.close()
        bots.shutdown()


def alive_key_of(node: Cluster) -> str:
    """The key that says ``node`` runs."""
    return alive_key(node.node)


def test_a_killed_node_s_tables_are_taken_over_in_one_look_as_soon_as_its_leases_lapse(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    open_store(db).close()
    made, held, due, lapses_at, most = run(take_over(db, redis_server.url))
    # B's heartbeat was brought forward to just after the lapse, not left a tick (a third of the lease) away
    assert due <= lapses_at + LAPSE_MARGIN + 0.1 < lapses_at + LEASE / 3
    # every table of A is B's after the take-over of that one tick, rebuilt several at once
    assert held == set(made)
    assert most == REBUILDS_AT_ONCE


async def two_joins(db: str, url: str) -> tuple[int, str, TableError, bool, list[dict[str, Any]]]:
    """Node A holds a table of two people (Ann seated) and stalls: its lease lapses while it still trusts it.
    Node B takes the table over and seats Bob; then A, not yet aware, seats Cid at the same seat. Bob's seat
    and token; what A answered Cid; whether A still has the table after that; the seats stored."""
    bots = ThreadPoolExecutor(2)
    a_registry, b_registry = registry(db, bots), registry(db, bots)
    a, b = Cluster(a_registry, url, 30.0), Cluster(b_registry, url, 30.0)  # a long lease: A trusts it throughout
    try:
        for node in (a, b):
            await node.start()
            node._tasks[1].cancel()  # the heartbeats: ticks by hand only

        room, _, _ = await a.new_table(creator(a_registry, ["human", "human"]))
        table_id = room.table.id
        await b.redis.delete(lease_key(table_id))  # A stalled past its lease (it has not noticed)
        await b.tick()
        await b.settled()
        assert table_id in b_registry.rooms and a.holds(table_id)
        bob = await join(b_registry.rooms[table_id], "Bob", None)
        with pytest.raises(TableError) as refused:
            await join(a_registry.rooms[table_id], "Cid", None)
        await asyncio.sleep(0.1)  # A lets the table go once the refused write is done
        seats = next(stored.seats for stored in b_registry.store.web_tables() if stored.id == table_id)
        return bob["seat"], bob["token"], refused.value, table_id in a_registry.rooms, seats
    finally:
        await b.stop()
        await a.stop()
        a_registry.store.close()
        b_registry.store.close()
        bots.shutdown()


def test_a_seat_given_by_the_table_s_new_holder_is_never_written_over_by_the_old_one(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    open_store(db).close()
    seat, token, refused, still_at_a, seats = run(two_joins(db, redis_server.url))
    assert seat == 1
    assert refused.code == "moved" and "try again" in refused.message
    assert not still_at_a  # the old holder let the table go: its clients reconnect to the new one
    assert [s["name"] for s in seats] == ["Ann", "Bob"]
    assert seats[1]["token_hash"] == token_digest(token)


async def locate_held_but_not_open(db: str, url: str) -> tuple[str, str]:
    """Node B holds the lease of a stored, unfinished table it has no room for (a take-over of it given up, or
    lost, between the claim and the opening): what a client reaching B for it is told."""
    bots = ThreadPoolExecutor(2)
    b_registry = registry(db, bots)
    b = Cluster(b_registry, url, 30.0)
    try:
        await b.start()
        room, _, _ = await b.new_table(creator(b_registry, ["human", "easy"]))
        table_id = room.table.id
        b_registry.rooms.pop(table_id)  # the lease is still B's, the room is not there
        with pytest.raises(TableError) as told:
            await b.locate(table_id)
        return told.value.code, told.value.message
    finally:
        await b.stop()
        b_registry.store.close()
        bots.shutdown()


def test_a_table_this_node_holds_but_has_not_opened_is_moving_not_unknown(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    open_store(db).close()
    code, message = run(locate_held_but_not_open(db, redis_server.url))
    # the table exists: the browser is told to try again (4010), never that there is no such table (4404),
    # after which it would stop reconnecting
    assert code == "moved" and "try again" in message
