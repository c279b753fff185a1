"""What a node of ``oakwood serve --redis`` reads and writes at each heartbeat and each move, counted (never
timed): two :class:`~oakwood.web.cluster.Cluster` objects in one process on one SQLite store and a real
``redis-server``.

- A heartbeat reads the store's unfinished tables only when it must: at its first tick, when some table has no
  holder (its owner was killed), and when Redis lost its keys (restarted); while every table is held it reads
  nothing from the store, however many ticks.
- A move writes the lobby entry of its own table only: the other tables' summaries are not made again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from oakwood.store import WebTable, open_store
from oakwood.web import cluster as cluster_module
from oakwood.web.cluster import Cluster, lease_key
from oakwood.web.registry import Registry
from oakwood.web.room import Room
from tests.web.cluster_helpers import RedisServer, registry, run

pytestmark = pytest.mark.timeout(60)

LEASE = 2.0  # A renews every 0.67 s: a lease lapses only if its loop stalls for over 1.3 s
TABLES = 3


def creator(node: Registry) -> Callable[[str], tuple[Room, int, str]]:
    """What :meth:`Cluster.new_table` is given to create a Barrell table of two people at ``node``."""

    def create(table_id: str) -> tuple[Room, int, str]:
        return node.create(
            game_name="barrell",
            players=2,
            options={},
            seats=["human", "human"],
            name="Ann",
            turn_seconds=None,
            table_id=table_id,
        )

    return create


def count_reads(node: Registry) -> list[int]:
    """Count every read of the store's web tables at ``node`` (the one-element list is the count)."""
    reads = [0]
    read = node.store.web_tables

    def counted(**kwargs: Any) -> list[WebTable]:
        reads[0] += 1
        return read(**kwargs)

    node.store.web_tables = counted  # type: ignore[method-assign]
    return reads


async def heartbeats(db: str, url: str) -> dict[str, Any]:
    """Node A creates :data:`TABLES` tables and keeps them; node B ticks by hand while A holds them, then after A
    is killed (its leases left to lapse), then after Redis lost every key. What B read and held at each stage."""
    bots = ThreadPoolExecutor(2)
    a_registry, b_registry = registry(db, bots), registry(db, bots)
    a, b = Cluster(a_registry, url, LEASE), Cluster(b_registry, url, LEASE)
    seen: dict[str, Any] = {}
    try:
        await a.start()
        made = [(await a.new_table(creator(a_registry)))[0].table.id for _ in range(TABLES)]
        reads = count_reads(b_registry)
        await b.start()  # its first tick reads the store once: it knows nothing yet
        for task in b._tasks[1:]:  # B's heartbeat: its ticks are run by hand below
            task.cancel()
        seen["first tick"] = reads[0]
        for _ in range(5):  # A's heartbeat renews its leases meanwhile (a tick is a third of the lease)
            await b.tick()
            await asyncio.sleep(LEASE / 5)
        seen["while A holds"] = reads[0]
        seen["A holds"] = [table_id in a_registry.rooms and a.holds(table_id) for table_id in made]

        for task in a._tasks:  # A is killed: it renews nothing from now on, and releases nothing
            task.cancel()
        await asyncio.wait(a._tasks)
        await a.redis.aclose()
        while any([await b.redis.exists(lease_key(table_id)) for table_id in made]):
            await asyncio.sleep(0.05)
        before = reads[0]
        await b.tick()  # A's tables have no holder: the store is read, once, and they are claimed
        await b.settled()
        seen["after the kill"] = reads[0] - before
        seen["B holds"] = [b.holds(table_id) and table_id in b_registry.rooms for table_id in made]
        before = reads[0]
        for _ in range(3):
            await b.tick()
        seen["while B holds"] = reads[0] - before

        await b.redis.flushall()  # Redis restarted without its keys: the leases and the lobby are gone
        before = reads[0]
        await b.tick()  # B's renewals fail (it lets the tables go) and the store is read to claim them again
        await b.settled()
        seen["after Redis lost its keys"] = reads[0] - before
        seen["B holds again"] = [b.holds(table_id) and table_id in b_registry.rooms for table_id in made]
        return seen
    finally:
        await b.stop()
        await a_registry.close()
        a_registry.store.close()
        b_registry.store.close()
        bots.shutdown()


def test_a_heartbeat_reads_the_store_only_when_a_table_has_no_holder(tmp_path: Path, redis_server: RedisServer) -> None:
    db = f"sqlite:///{tmp_path / 'cluster.db'}"
    open_store(db).close()
    seen = run(heartbeats(db, redis_server.url))
    assert seen["first tick"] == 1
    assert seen["A holds"] == [True] * TABLES
    assert seen["while A holds"] == 1, "five heartbeats while every table was held read nothing from the store"
    assert seen["after the kill"] == 1 and seen["B holds"] == [True] * TABLES
    assert seen["while B holds"] == 0
    assert seen["after Redis lost its keys"] == 1 and seen["B holds again"] == [True] * TABLES


async def lobby_writes(db: str, url: str) -> tuple[dict[str, int], str]:
    """Node A with :data:`TABLES` tables; one of them changes (as a move does): how many times each table's
    summary was made for the lobby write that follows, and which table that was."""
    bots = ThreadPoolExecutor(2)
    a_registry = registry(db, bots)
    a = Cluster(a_registry, url, LEASE)
    try:
        await a.start()
        for task in a._tasks[1:]:  # no heartbeat: it would write (and summarize) every table
            task.cancel()
        rooms = [(await a.new_table(creator(a_registry)))[0] for _ in range(TABLES)]
        made: dict[str, int] = {room.table.id: 0 for room in rooms}
        for room in rooms:
            summary = room.table.summary

            def counted(table_id: str = room.table.id, summary: Callable[[], dict[str, Any]] = summary) -> Any:
                made[table_id] += 1
                return summary()

            room.table.summary = counted  # type: ignore[method-assign]
        moved = rooms[1].table
        moved.take_seat("Bob")  # the table is full: its lobby entry changes (waiting → playing)
        a.lobby_soon(moved.id)
        while a._lobby_due or a._pending:
            await asyncio.sleep(0.01)
        listed = {table["id"]: table for table in await a.lobby()}
        assert listed[moved.id]["seats"][1]["name"] == "Bob", "the entry was written"
        return made, moved.id
    finally:
        await a.stop()
        a_registry.store.close()
        bots.shutdown()


def test_a_move_writes_the_lobby_entry_of_its_own_table_only(tmp_path: Path, redis_server: RedisServer) -> None:
    db = f"sqlite:///{tmp_path / 'cluster.db'}"
    open_store(db).close()
    made, moved = run(lobby_writes(db, redis_server.url))
    assert made[moved] == 1
    assert [count for table_id, count in made.items() if table_id != moved] == [0] * (TABLES - 1)


async def heartbeat_work(db: str, url: str) -> dict[str, Any]:
    """Node A with :data:`TABLES` tables and its heartbeat run by hand: how many lobby summaries each heartbeat
    made, and what its renewal (one command for every lease) did with a lease another node took meanwhile."""
    bots = ThreadPoolExecutor(2)
    a_registry = registry(db, bots)
    a = Cluster(a_registry, url, LEASE)
    seen: dict[str, Any] = {}
    try:
        await a.start()  # its first heartbeat summarizes every table (there are none yet)
        for task in a._tasks[1:]:  # the heartbeat is run by hand below
            task.cancel()
        rooms = [(await a.new_table(creator(a_registry)))[0] for _ in range(TABLES)]
        made = [0]
        for room in rooms:
            summary = room.table.summary

            def counted(summary: Callable[[], dict[str, Any]] = summary) -> Any:
                made[0] += 1
                return summary()

            room.table.summary = counted  # type: ignore[method-assign]

        async def tick() -> int:
            made[0] = 0
            await a.tick()
            return made[0]

        seen["first after creation"] = await tick()  # created since the last heartbeat: summarized once each
        seen["quiet"] = await tick()
        rooms[0].table.seats[0].connections += 1  # someone came: the room says it changed (as a hello does)
        await rooms[0].changed()
        seen["one changed"] = await tick()
        seen["listed"] = {table["id"]: table for table in await a.lobby()}[rooms[0].table.id]["seats"][0]["connected"]
        while a._ticks % cluster_module.LOBBY_FULL_TICKS != 0:
            await tick()
        seen["full"] = await tick()  # the safety net: every table again, changed or not
        await a.redis.set(lease_key(rooms[1].table.id), "another node")  # its lease lapsed and was claimed
        await a.tick()
        seen["held"] = [a.holds(room.table.id) for room in rooms]
        seen["rooms"] = [room.table.id in a_registry.rooms for room in rooms]
        seen["ttl"] = [await a.redis.pttl(lease_key(room.table.id)) for room in rooms]
        return seen
    finally:
        await a.stop()
        a_registry.store.close()
        bots.shutdown()


def test_a_heartbeat_summarizes_the_tables_that_changed_and_renews_every_lease_at_once(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    db = f"sqlite:///{tmp_path / 'cluster.db'}"
    open_store(db).close()
    seen = run(heartbeat_work(db, redis_server.url))
    assert seen["first after creation"] == TABLES
    assert seen["quiet"] == 0, "a heartbeat with nothing changed made no summary"
    assert seen["one changed"] == 1 and seen["listed"] is True
    assert seen["full"] == TABLES
    # the lease another node holds now is neither renewed nor held: the table is let go; the others renewed
    assert seen["held"] == [True, False, True] and seen["rooms"] == [True, False, True]
    assert seen["ttl"][1] == -1 and all(0 < ttl <= LEASE * 1000 for ttl in (seen["ttl"][0], seen["ttl"][2]))
