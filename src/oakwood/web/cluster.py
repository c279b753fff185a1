"""Many ``oakwood serve`` processes as one service: each table owned by one process at a time, through Redis.

``oakwood serve --redis URL`` makes the process a *node* of a cluster sharing one store and one Redis (the
design is in ``docs/ARCHITECTURE.md``, "Many processes"):

- a table's owner holds a lease, the key ``oakwood:table:<id>:owner`` (its node id, ``SET NX PX``), renewed by
  a heartbeat that extends it only while it is still the owner's; a lost lease closes the room;
- a WebSocket reaching a node that does not own its table is relayed over Redis pub/sub: the client's messages
  to the owner's channel, and the owner's frames — each made by its own room for that one connection, as for a
  local socket — back to the relay's channel;
- the lobby is a Redis hash every owner writes its tables' summaries to;
- at every heartbeat a node claims the unfinished tables of the store that nobody holds (their owner was
  killed) and rebuilds them from the store, so they go on, bots and all.

Nothing here changes a rule or a view: the owner's :class:`~oakwood.web.room.Room` and
:class:`~oakwood.web.table.Table` do all of that, as in a single process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from starlette.websockets import WebSocket, WebSocketDisconnect

from oakwood.engine import OakwoodError, State
from oakwood.store import GameMoved, LiveGame, StoreError, WebTable

from .protocol import Ping, ProtocolError, decode, encode, error
from .registry import Registry, TableLimits, check_counts, join, new_table_id, unstarted
from .room import MOVED, Client, Room
from .table import TableError

logger = logging.getLogger(__name__)

PREFIX = "oakwood"
#: The hash of every table's lobby summary (table id → JSON), written by the tables' owners.
LOBBY = f"{PREFIX}:lobby"
#: How long a join or a give-up waits for the owner's answer (seconds).
CALL_SECONDS = 5.0
#: The share of the lease time an owner trusts its last renewal for (measured from when it was sent), so it
#: stops writing before the key can have expired in Redis.
TRUSTED_SHARE = 0.8

#: What starts a frame relayed to a socket on a node's channel (every other message is a JSON object, ``{``),
#: followed by the connection's id of :data:`CONN_CHARS` characters and the frame's text.
FRAME = "F"
CONN_CHARS = 16
#: The most connections a node opens to Redis (its channel's listener has one more of its own).
REDIS_CONNECTIONS = 32
#: How many tables a node rebuilds at once when it takes tables over (the rest wait their turn).
REBUILDS_AT_ONCE = 4
#: How long after another node's leases lapse in Redis the heartbeat looks for its tables (seconds): a
#: margin for the round trip, so the leases are surely gone when they are claimed.
LAPSE_MARGIN = 0.05
#: How often a heartbeat reads every unfinished table of the store when no table is free (seconds): only the
#: tables an owner created and died before listing are found this way (the others are known from Redis)
READ_SECONDS = 60.0
#: The key a node sets once it has read the store's unfinished tables: absent, Redis lost its keys (restarted
#: without them), so the leases and the lobby are gone, and the next heartbeat reads the store again
KNOWN = f"{PREFIX}:known"
#: The longest each step of a stop may take (the listener's end, the hand-over, closing Redis), in seconds.
STOP_SECONDS = 3.0

# Extend the lease only if it is still ours (a lease that lapsed and was claimed by another stays theirs).
RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0"
# The same for many leases at once (KEYS), one answer each: a heartbeat renews all its tables in one command,
# where a script call per table cost the client about as much as the script (redis-py packs every command).
RENEW_ALL = """
local renewed = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then renewed[i] = redis.call('PEXPIRE', key, ARGV[2]) else renewed[i] = 0 end
end
return renewed
"""
#: The most leases one :data:`RENEW_ALL` call renews (Redis runs a script alone: a bounded one stays short).
RENEW_BATCH = 1000
#: Every how many heartbeats the lobby entry of every owned table is summarized again, changed or not (between
#: those, only the tables whose room changed since their entry was written: see :meth:`Cluster._write_lobby`).
LOBBY_FULL_TICKS = 10
# Give the lease up only if it is ours.
RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


# A token bucket per visitor address shared by every node (the creation limit): ARGV the bucket's size, the
# seconds a token takes to come back, and 1 to take a token (0 to look). The seconds to wait before a table may
# be created (0: now), as text (a Lua number returned as such would be cut to an integer). Redis's own clock:
# the nodes' clocks need not agree.
BUCKET = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local burst, interval = tonumber(ARGV[1]), tonumber(ARGV[2])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(held[1]) or burst
local at = tonumber(held[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) / interval)
if ARGV[3] == '1' then
  tokens = math.max(0, tokens - 1)
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil(burst * interval * 1000))
end
if tokens >= 1 then return '0' end
return tostring((1 - tokens) * interval)
"""
#: How long the list of tables a visitor address created is kept after its last creation (seconds): longer
#: than any table stays unstarted, and a game goes on; the lobby says which of them are still open.
CLIENT_TABLES_SECONDS = 7 * 24 * 3600
#: How long one creation of a visitor address may hold that address's creation lock (milliseconds; a lock left
#: by a killed process lapses then), and how long another creation of the address waits for it (seconds).
CREATING_MS = 10_000
CREATING_WAIT_SECONDS = 5.0


def lease_key(table_id: str) -> str:
    """The Redis key whose value is the node id of the table's owner."""
    return f"{PREFIX}:table:{table_id}:owner"


def bucket_key(client: str) -> str:
    """The Redis hash of a visitor address's creation bucket (its tokens and when they were counted)."""
    return f"{PREFIX}:client:{client}:bucket"


def creating_key(client: str) -> str:
    """The Redis lock held while a table of a visitor address is being created (at any node)."""
    return f"{PREFIX}:client:{client}:creating"


def client_tables_key(client: str) -> str:
    """The Redis set of the tables a visitor address created (at any node)."""
    return f"{PREFIX}:client:{client}:tables"


def alive_key(node: str) -> str:
    """The Redis key that exists while ``node`` runs (renewed at each heartbeat, like a lease)."""
    return f"{PREFIX}:node:{node}:alive"


def node_channel(node: str) -> str:
    """The pub/sub channel a node listens on: messages for the tables it owns, frames for the sockets it relays."""
    return f"{PREFIX}:node:{node}"


def check_redis_url(url: str) -> str:
    """``url`` if it is a Redis URL (``redis://``, ``rediss://`` or ``unix://``); ValueError otherwise."""
    scheme = url.partition("://")[0].lower()
    if "://" not in url or scheme not in ("redis", "rediss", "unix"):
        raise ValueError("a Redis URL starts with redis://, rediss:// or unix://")
    return url


@contextlib.contextmanager
def available() -> Iterator[None]:
    """Turn Redis being away into the ``unavailable`` refusal (503): the service degrades, it does not fail."""
    try:
        yield
    except (RedisError, OSError) as exc:
        raise TableError("unavailable", f"the service is briefly unavailable (Redis: {exc})") from None


class HeldGame(LiveGame):
    """The stored game of a table this node owns: every write is refused once the node cannot be sure it still
    holds the table, and guarded in the store against another node's moves and seats (``Store.save_moves``,
    ``Store.save_web_table``)."""

    def __init__(self, live: LiveGame, cluster: Cluster, table_id: str) -> None:
        super().__init__(live.store, live.id)
        self._saved = live._saved
        self._finished = live._finished
        self._seats = live._seats
        self.guarded = True
        self.cluster = cluster
        self.table_id = table_id

    def sync(self, state: State) -> None:
        """Save the moves as :meth:`LiveGame.sync` does, only while this node holds the table."""
        if not self.cluster.holds(self.table_id):
            # the last renewal is too old to trust (this process was slow, or Redis is away): renew now, and
            # let the table go only if the lease turns out to be lost; this move is refused either way
            self.cluster.renew_soon(self.table_id)
            raise StoreError("this server cannot be sure it still holds the table: try again in a moment")
        try:
            super().sync(state)
        except GameMoved:
            self.cluster.lose_soon(self.table_id)
            raise
        self.cluster.lobby_soon(self.table_id)  # a move may change what the lobby shows (a game over leaves it)

    async def sync_off_loop(self, state: State) -> None:
        """:meth:`sync` with the write in one of the store's threads (:meth:`LiveGame.sync_off_loop`); the lease is
        checked, and the outcome acted on, on the loop."""
        if not self.cluster.holds(self.table_id):
            self.cluster.renew_soon(self.table_id)
            raise StoreError("this server cannot be sure it still holds the table: try again in a moment")
        try:
            await super().sync_off_loop(state)
        except GameMoved:
            self.cluster.lose_soon(self.table_id)
            raise
        self.cluster.lobby_soon(self.table_id)

    def save_table(self, table: WebTable) -> None:
        """Save the seats as :meth:`LiveGame.save_table` does, only while this node holds the table; a write the
        store refuses (another node changed the seats: it holds the table now) lets the table go."""
        if not self.cluster.holds(self.table_id):
            self.cluster.renew_soon(self.table_id)
            raise StoreError("this server cannot be sure it still holds the table: try again in a moment")
        try:
            super().save_table(table)
        except GameMoved:
            self.cluster.lose_soon(self.table_id)
            raise


class RemoteSender:
    """A connection relayed by another node, as the owner's room sees it: each frame published to the relay."""

    def __init__(self, cluster: Cluster, node: str, conn: str) -> None:
        self.cluster, self.node, self.conn = cluster, node, conn

    async def send_text(self, data: str) -> None:
        """Publish one frame for the relayed connection."""
        # a frame is most of what crosses Redis: sent as it is behind a marker and the connection's id, never
        # wrapped in (and escaped into) another JSON document
        await self.cluster.redis.publish(node_channel(self.node), f"{FRAME}{self.conn}{data}")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Ask the relay to close the connection with ``code``."""
        await self.cluster.publish(self.node, {"op": "hangup", "conn": self.conn, "code": code})


@dataclass(eq=False)
class Relayed:
    """A WebSocket of this node whose table another node owns: the table, its owner when it was opened, and the
    outbox its frames are written from."""

    table_id: str
    owner: str
    local: Client
    websocket: WebSocket
    #: when a message was forwarded that no frame has answered yet (every message the owner gets is answered
    #: by a frame): a message lost on the way (pub/sub keeps nothing) is noticed, and the socket reconnects
    asked_at: float | None = None


class Cluster:
    """This process as a node of the cluster: its leases, its channel, its relays, and the lobby it writes."""

    def __init__(
        self, registry: Registry, url: str, lease_seconds: float = 5.0, advertise_url: str | None = None
    ) -> None:
        self.registry = registry
        self.url = url
        #: where browsers reach this very process (``--advertise-url``), told to the others with its mark of life
        self.advertise_url = advertise_url
        # a bounded pool whose commands wait for a free connection: hundreds of tables publishing at once must
        # queue, not fail (redis-py's unbounded default refused with "Too many connections" under load)
        pool = aioredis.BlockingConnectionPool.from_url(
            url, decode_responses=True, max_connections=REDIS_CONNECTIONS, timeout=CALL_SECONDS
        )
        self.redis: aioredis.Redis = aioredis.Redis.from_pool(pool)
        self.node = secrets.token_hex(8)
        self.lease_seconds = lease_seconds
        self._lease_ms = max(1, round(lease_seconds * 1000))
        #: per owned table, until when (``time.monotonic``) this node may trust that it holds it
        self._valid_until: dict[str, float] = {}
        #: the connections other nodes relay to tables of this node: (relay node, connection) → (table, client)
        self._remote: dict[tuple[str, str], tuple[str, Client]] = {}
        #: the sockets this node relays to other nodes, by connection id
        self._relayed: dict[str, Relayed] = {}
        #: calls (join, give up) waiting for an owner's answer, by request id
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: the lobby summary last written per owned table
        self._published: dict[str, str] = {}
        self._tasks: list[asyncio.Task[None]] = []
        #: the owned tables whose lobby entry may have changed since it was last written (see :meth:`lobby_soon`)
        self._lobby_due: set[str] = set()
        #: whether this node's channel is subscribed now (a cut is noticed by the listener or by a failed
        #: heartbeat, whichever comes first; the relayed state is dropped once both work again)
        self._listening = False
        self._cut = False
        self._stopping = False
        self._renewing: set[str] = set()
        self._pending: set[asyncio.Task[Any]] = set()
        #: the take-overs rebuilding a table now (the rest wait their turn: see :meth:`_open_claimed`)
        self._rebuilding = asyncio.Semaphore(REBUILDS_AT_ONCE)
        #: the tables this node has claimed and is rebuilding (their leases are renewed with the owned ones)
        self._opening: set[str] = set()
        #: the take-overs under way, apart from the heartbeat (so its renewals never wait for them)
        self._taking_over: set[asyncio.Task[list[str]]] = set()
        #: when (``time.monotonic``) the heartbeat ticks next: a tick apart, or sooner when another node's
        #: leases lapse before that (it stopped renewing them: killed), so its tables are taken over at once
        self.next_tick_at = 0.0
        #: when (``time.monotonic``) the heartbeat reads the store's unfinished tables again (see :data:`READ_SECONDS`)
        self._read_at = 0.0
        self._renew = self.redis.register_script(RENEW)
        self._renew_all = self.redis.register_script(RENEW_ALL)
        #: per owned table, the room's count of changes (``Room.changes``) when its lobby entry was last written
        self._written_at: dict[str, int] = {}
        self._ticks = 0
        self._release = self.redis.register_script(RELEASE)
        self._bucket = self.redis.register_script(BUCKET)

    # ------------------------------------------------------------------ start and stop
    async def start(self) -> None:
        """Listen on this node's channel, claim the tables nobody holds, and start the heartbeat."""
        ready = asyncio.Event()
        self._tasks.append(asyncio.create_task(self._listen(ready), name="oakwood-cluster-listen"))
        await asyncio.wait_for(ready.wait(), 10)
        await self.tick()  # it says when the heartbeat ticks next
        self._tasks.append(asyncio.create_task(self._heartbeat(), name="oakwood-cluster-heartbeat"))

    async def stop(self) -> None:
        """Stop the heartbeat and the listener, close this node's rooms, and give their leases up at once, so
        the other nodes take the tables over at their next heartbeat rather than after the lease time."""
        self._stopping = True
        tasks = [*self._tasks, *self._taking_over]
        for task in tasks:
            task.cancel()
        if tasks:  # bounded: a stop must never hang on a Redis that went away
            await asyncio.wait(tasks, timeout=STOP_SECONDS)
        owned = sorted({*self.registry.rooms, *self._opening})
        await self.registry.close()
        self._valid_until.clear()
        for relay in self._relayed.values():  # their writers end here, not with the loop
            relay.local.stop()
        for _, client in self._remote.values():
            client.stop()
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            await asyncio.wait_for(self._hand_over(owned), STOP_SECONDS)
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            await asyncio.wait_for(self.redis.aclose(), STOP_SECONDS)

    async def _hand_over(self, owned: list[str]) -> None:
        """Say this node is gone, move the connections relayed to it, and release its leases."""
        await self.redis.delete(alive_key(self.node))
        for (node, conn), _ in list(self._remote.items()):
            await self.publish(node, {"op": "hangup", "conn": conn, "code": MOVED})
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in owned:
                await self._release(keys=[lease_key(table_id)], args=[self.node], client=pipe)
            await pipe.execute()

    # ------------------------------------------------------------------ leases
    def holds(self, table_id: str) -> bool:
        """Whether this node may still act for ``table_id`` (its last renewal is recent enough)."""
        return time.monotonic() < self._valid_until.get(table_id, 0.0)

    async def _claim(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` if nobody holds it; whether we got it."""
        sent = time.monotonic()
        claimed = await self.redis.set(lease_key(table_id), self.node, nx=True, px=self._lease_ms)
        if claimed:
            self._valid_until[table_id] = sent + TRUSTED_SHARE * self.lease_seconds
        return bool(claimed)

    async def new_table(self, create: Callable[[str], tuple[Room, int, str]]) -> tuple[Room, int, str]:
        """Create a table under a lease claimed first: ``create`` is handed the id (the registry's ``create``)."""
        table_id = new_table_id()
        with available():
            while not await self._claim(table_id):  # 64 random bits: a clash is as good as never
                table_id = new_table_id()
        try:
            room, seat, token = create(table_id)
        except BaseException:
            self._valid_until.pop(table_id, None)
            with contextlib.suppress(RedisError, OSError):
                await self._release(keys=[lease_key(table_id)], args=[self.node])
            raise
        self._adopt(room)
        await self.publish_summary(room)
        return room, seat, token

    async def address_of(self, node: str) -> str | None:
        """The address browsers reach ``node`` at (its ``--advertise-url``), or None: it has none, it is gone, or
        Redis does not answer (its connections are relayed then)."""
        try:
            mark = await self.redis.get(alive_key(node))
        except (RedisError, OSError):
            return None
        return None if mark is None or mark == "1" else str(mark)

    async def answers(self, timeout: float) -> bool:
        """Whether Redis answers a ping within ``timeout`` seconds (``/healthz``)."""
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), timeout))
        except (RedisError, OSError, TimeoutError):
            return False

    def _adopt(self, room: Room) -> None:
        """Guard the stored game of a room this node now owns."""
        table = room.table
        table.live = HeldGame(table.live, self, table.id)

    def renew_soon(self, table_id: str) -> None:
        """Renew the lease of ``table_id`` once the current step is done; let the table go if it was lost."""
        if table_id not in self._renewing:
            self._renewing.add(table_id)
            self._soon(self._renew_now(table_id))

    async def _renew_now(self, table_id: str) -> None:
        try:
            sent = time.monotonic()
            renewed = await self._renew(keys=[lease_key(table_id)], args=[self.node, self._lease_ms])
        except (RedisError, OSError) as exc:
            logger.warning("the lease of table %s could not be renewed: %s", table_id, exc)
            return
        finally:
            self._renewing.discard(table_id)
        if renewed:
            self._valid_until[table_id] = sent + TRUSTED_SHARE * self.lease_seconds
        else:
            await self._let_go(table_id)

    def lose_soon(self, table_id: str) -> None:
        """This node cannot write ``table_id`` any more: let it go once the current step is done."""
        self._valid_until.pop(table_id, None)
        self._soon(self._let_go(table_id))

    async def _let_go(self, table_id: str) -> None:
        """Another node holds ``table_id`` now (or may): close its room here and hang up its connections, which
        reconnect to wherever it lives."""
        self._valid_until.pop(table_id, None)
        room = self.registry.rooms.pop(table_id, None)
        self._published.pop(table_id, None)
        if room is None:
            return
        logger.info("table %s is no longer held by this server; its connections are moved", table_id)
        await room.close()
        for key, (table, _) in list(self._remote.items()):
            if table == table_id:
                del self._remote[key]
        for client in list(room.clients):
            client.stop()
            self._soon(_quietly(client.sender.close(MOVED, "the table moved to another server")))
        room.clients.clear()

    async def _take_over(self, stored: WebTable) -> Room | None:
        """Claim ``stored`` (an unfinished table nobody holds) and rebuild it from the store; its room, or None
        if another node was quicker or its moves no longer replay."""
        if not await self._claim(stored.id):
            return None
        self._opening.add(stored.id)
        return await self._open_claimed(stored)

    async def _claim_all(self, tables: list[WebTable]) -> list[WebTable]:
        """Claim every table of ``tables`` (unfinished, nobody holds them: their owner was killed) in one round
        trip; the ones claimed, to be opened by :meth:`_open_all`."""
        if not tables:
            return []
        sent = time.monotonic()
        async with self.redis.pipeline(transaction=False) as pipe:
            for stored in tables:
                pipe.set(lease_key(stored.id), self.node, nx=True, px=self._lease_ms)
            claimed = await pipe.execute()
        mine = [stored for stored, ok in zip(tables, claimed, strict=True) if ok]
        for stored in mine:
            self._valid_until[stored.id] = sent + TRUSTED_SHARE * self.lease_seconds
            self._opening.add(stored.id)
        return mine

    async def _open_all(self, claimed: list[WebTable]) -> list[str]:
        """Rebuild the tables this node has just claimed side by side, each opened as soon as it is rebuilt; the
        ids opened. It runs apart from the heartbeat, which goes on renewing this node's leases meanwhile.

        A killed node leaves all its leases lapsing at once: taking its tables one after another (a claim, a
        rebuild, a plan and a lobby write each, every step waiting its turn on a busy loop) made the last one
        wait for all the others, and the heartbeat with it: on a starved machine this node's own leases went
        unrenewed long enough for its tables to refuse moves, or to be lost."""
        rooms = await asyncio.gather(*(self._open_claimed(stored) for stored in claimed))
        taken = [room.table.id for room in rooms if room is not None]
        if taken:
            logger.info("took %d tables over at once: %s", len(taken), " ".join(taken))
        return taken

    async def settled(self) -> None:
        """Wait until the take-overs under way have opened their tables (or given them up)."""
        while self._taking_over:
            await asyncio.wait(set(self._taking_over))

    async def _open_claimed(self, stored: WebTable) -> Room | None:
        """Rebuild ``stored``, whose lease this node has just claimed, and open it here: its bots play on, the
        lobby shows it, and the sockets this node relayed to its former owner are moved to it at once (their
        clients reconnect and find it here). None, and the lease given back, if its moves no longer replay."""
        try:
            async with self._rebuilding:  # a few at a time: the replays share the interpreter with the loop
                table, seed = await asyncio.to_thread(self.registry.rebuild, stored)  # the replay, off the loop
            if stored.id not in self._opening:  # its lease was lost meanwhile (a renewal found it gone)
                return None
            room = self.registry.open(table, seed)  # the registry, on the loop only
        except (OakwoodError, StoreError, ValueError) as exc:
            logger.warning("table %s (game %d) cannot be taken over: %s", stored.id, stored.game_id, exc)
            self._valid_until.pop(stored.id, None)
            with contextlib.suppress(RedisError, OSError):
                await self._release(keys=[lease_key(stored.id)], args=[self.node])
            return None
        finally:
            self._opening.discard(stored.id)
        self._adopt(room)
        logger.info("took table %s over (game %d, %d moves)", stored.id, stored.game_id, room.table.seq)
        for conn, relay in list(self._relayed.items()):
            if relay.table_id == stored.id:
                self._hang_up(conn, MOVED)
        await room.changed()  # plan it: its bots play on, its clocks run
        await self.publish_summary(room)
        return room

    async def locate(self, table_id: str) -> Room | str | None:
        """Where ``table_id`` lives: its room if this node owns it, else the owner's node id; a table nobody
        holds is taken over here first. None if there is no such unfinished table."""
        with available():
            return await self._locate(table_id)

    async def _locate(self, table_id: str) -> Room | str | None:
        room = self.registry.rooms.get(table_id)
        if room is not None and not room.closed and self.holds(table_id):
            return room
        owner = await self.redis.get(lease_key(table_id))
        if owner is not None and owner != self.node:
            return str(owner)
        if owner == self.node:  # this node is taking it over right now (its heartbeat)
            return await self._room_soon(table_id)
        stored = await asyncio.to_thread(self._unfinished, table_id)
        if stored is None:
            return None
        taken = await self._take_over(stored)
        if taken is not None:
            return taken
        owner = await self.redis.get(lease_key(table_id))
        if owner == self.node:  # another task of this node claimed it first
            return await self._room_soon(table_id)
        return None if owner is None else str(owner)

    async def _room_soon(self, table_id: str) -> Room:
        """The room of ``table_id`` once this node's take-over of it has opened it (within 5 s); ``moved`` (the
        client tries again) if it has not by then, or if the take-over was given up: the table exists, and
        saying it does not would make a browser stop reconnecting for good."""
        started = time.monotonic()
        while time.monotonic() < started + CALL_SECONDS:
            room = self.registry.rooms.get(table_id)
            if room is not None and not room.closed:
                return room
            # not being opened here (given up, or lost): the next try finds where it lives; half a second is
            # left for the claim itself (the lease is this node's a moment before the table counts as opening)
            if table_id not in self._opening and time.monotonic() - started > 0.5:
                break
            await asyncio.sleep(0.05)
        raise TableError("moved", "the table is being taken over by this server: try again in a moment")

    def _unfinished(self, table_id: str) -> WebTable | None:
        """The stored table ``table_id`` if its game is unfinished (one row read, not every unfinished table)."""
        found = self.registry.store.web_tables(unfinished_only=True, table_id=table_id)
        return found[0] if found else None

    # ------------------------------------------------------------------ heartbeat
    @property
    def tick_seconds(self) -> float:
        """The heartbeat's period: a third of the lease time (a lease is renewed twice before it could lapse)."""
        return self.lease_seconds / 3

    async def _heartbeat(self) -> None:
        """Run :meth:`tick` every third of the lease time while the server runs, or sooner when another node's
        leases are about to lapse; a failure (Redis or the store away) is logged and the next tick tries again."""
        while not self._stopping:
            await asyncio.sleep(max(0.0, self.next_tick_at - time.monotonic()))
            try:
                await self.tick()
                if self._cut and self._listening:
                    self._cut = False
                    await self._after_cut()
            except (RedisError, OSError) as exc:
                self._cut = True
                self.next_tick_at = time.monotonic() + self.tick_seconds
                logger.warning("cluster heartbeat failed (tried again in %.1f s): %s", self.tick_seconds, exc)
            except StoreError as exc:
                self.next_tick_at = time.monotonic() + self.tick_seconds
                logger.warning("cluster heartbeat failed (tried again in %.1f s): %s", self.tick_seconds, exc)
            except Exception:  # one bad tick must not stop the next ones
                self.next_tick_at = time.monotonic() + self.tick_seconds
                logger.exception("cluster heartbeat failed")

    async def tick(self) -> None:
        """Renew this node's leases (letting go of the lost ones), write the lobby, take over the tables nobody
        holds, and move the relayed sockets whose table changed owner."""
        owned = [*self.registry.rooms, *(self._opening - set(self.registry.rooms))]
        sent = time.monotonic()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(alive_key(self.node), self.advertise_url or "1", px=self._lease_ms)
            for start in range(0, len(owned), RENEW_BATCH):
                keys = [lease_key(table_id) for table_id in owned[start : start + RENEW_BATCH]]
                await self._renew_all(keys=keys, args=[self.node, self._lease_ms], client=pipe)
            renewed = [ok for batch in (await pipe.execute())[1:] for ok in batch]
        for table_id, ok in zip(owned, renewed, strict=True):
            if ok:
                self._valid_until[table_id] = sent + TRUSTED_SHARE * self.lease_seconds
            elif table_id in self._opening:  # lost before it opened: it never will
                self._opening.discard(table_id)
                self._valid_until.pop(table_id, None)
            else:
                await self._let_go(table_id)
        self._ticks += 1
        await self._write_lobby(full=self._ticks % LOBBY_FULL_TICKS == 1)
        # the tables of the others are known from Redis (the lobby every owner writes, and the tables of the
        # sockets relayed from here), and their holders are read there; the store is read only when some table
        # has no holder (its owner was killed: it is taken over from the store), when Redis lost its keys
        # (restarted: every table is claimed again from the store), and once a minute in case an owner died
        # before it listed a table it had just created
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hkeys(LOBBY)
            pipe.exists(KNOWN)
            keys, known_mark = await pipe.execute()
        listed = {str(key) for key in keys}
        relayed = {relay.table_id for relay in self._relayed.values()}
        unfinished: dict[str, WebTable] | None = None
        if not known_mark or time.monotonic() >= self._read_at:
            unfinished = await self._read_unfinished()
        known = listed | relayed | set(unfinished or ())
        owners = await self._owners_of(known)
        lapsed = [table_id for table_id, owner in owners.items() if owner is None]
        if lapsed and unfinished is None:  # somebody's table is free: the store says what it was
            unfinished = await self._read_unfinished()
            owners.update(await self._owners_of(set(unfinished) - set(owners)))
            lapsed = [table_id for table_id, owner in owners.items() if owner is None]
        unfinished = unfinished or {}
        claimed = await self._claim_all([unfinished[t] for t in lapsed if t in unfinished])
        for stored in claimed:
            owners[stored.id] = self.node
        if claimed:  # rebuilt apart from the heartbeat (the relayed sockets below reconnect and wait for them)
            task = asyncio.create_task(self._open_all(claimed), name="oakwood-cluster-take-over")
            self._taking_over.add(task)
            task.add_done_callback(self._taking_over.discard)
        ended = [table_id for table_id in lapsed if table_id not in unfinished]
        if ended:  # over, or gone, and its owner left no lease: nobody will write it again
            await self.redis.hdel(LOBBY, *ended)
        now = time.monotonic()
        for conn, relay in list(self._relayed.items()):
            if relay.table_id in self._opening:  # moved the moment it opens here (see _open_claimed)
                continue
            now_at = owners.get(relay.table_id, self.node if relay.table_id in self.registry.rooms else None)
            unanswered = relay.asked_at is not None and now - relay.asked_at > CALL_SECONDS
            if now_at != relay.owner or unanswered:
                self._hang_up(conn, MOVED)
        await self._forget_dead_relays()
        self.next_tick_at = await self._next_tick(owners)

    async def _next_tick(self, owners: dict[str, str | None]) -> float:
        """When the heartbeat ticks next: a tick from now, or just after the leases of another node lapse, if
        that comes first. A node renews its mark of life and its leases together at every tick, so a mark with
        less than a tick left belongs to a node that missed two renewals (killed, or stalled): its tables are
        looked for the moment they are free, rather than up to a tick later. A node that was only slow renews
        before then, and the early tick claims nothing."""
        now = time.monotonic()
        regular = now + self.tick_seconds
        holders = sorted({owner for owner in owners.values() if owner is not None and owner != self.node})
        if not holders:
            return regular
        async with self.redis.pipeline(transaction=False) as pipe:
            for node in holders:
                pipe.pttl(alive_key(node))
            left = [int(ms) for ms in await pipe.execute()]
        lapsing = [ms / 1000 for ms in left if ms >= 0 and ms / 1000 < self.tick_seconds]
        if not lapsing:  # every holder renewed lately, or has no mark (its leases were claimed since: a tick)
            return regular
        return min(regular, now + min(lapsing) + LAPSE_MARGIN)

    async def _forget_dead_relays(self) -> None:
        """Close the relayed connections of nodes that stopped running (killed: they never said goodbye), so a
        player who was behind one counts as gone and a bot covers their seat after the absence clock."""
        relays = sorted({node for node, _ in self._remote})
        if not relays:
            return
        alive = await self.redis.mget([alive_key(node) for node in relays])
        dead = {node for node, flag in zip(relays, alive, strict=True) if flag is None}
        for key, (table_id, client) in list(self._remote.items()):
            if key[0] in dead:
                del self._remote[key]
                client.stop()
                room = self.registry.rooms.get(table_id)
                if room is not None:
                    await room.disconnect(client)

    async def _read_unfinished(self) -> dict[str, WebTable]:
        """Every unfinished table of the store, by id (read in a thread); Redis is marked as knowing them all
        (:data:`KNOWN`) and the next such read is due in :data:`READ_SECONDS`."""
        tables = await asyncio.to_thread(self.registry.store.web_tables, unfinished_only=True)
        self._read_at = time.monotonic() + READ_SECONDS
        await self.redis.set(KNOWN, "1")
        return {stored.id: stored for stored in tables}

    async def _owners_of(self, tables: set[str]) -> dict[str, str | None]:
        """The holder of each table of ``tables`` that this node neither holds nor is opening (None: nobody)."""
        others = sorted(tables - set(self.registry.rooms) - self._opening)
        found = await self.redis.mget([lease_key(t) for t in others]) if others else []
        return {t: None if o is None else str(o) for t, o in zip(others, found, strict=True)}

    # ------------------------------------------------------------------ the lobby
    async def _write_lobby(self, only: set[str] | None = None, *, full: bool = True) -> None:
        """Write the summary of every owned table that changed since it was last written (or of the tables of
        ``only``); drop the ended and the forgotten ones. Not ``full``: only the tables whose room changed
        (``Room.changes``) since their entry was written are summarized (every change of what a summary shows, a
        move, a seat, a connection, a cover, goes through ``Room.changed``), which spares a heartbeat summarizing
        hundreds of quiet tables; a full pass now and then (:data:`LOBBY_FULL_TICKS`) is the safety net."""
        changed: dict[str, str] = {}
        counts: dict[str, int] = {}
        gone: list[str] = []
        rooms = self.registry.rooms
        written = self._written_at
        if only is not None:
            looked: Iterable[str] = [t for t in only if t in rooms]
        elif full:
            looked = rooms.keys()
        else:
            looked = [t for t, room in rooms.items() if written.get(t) != room.changes]
        for table_id in looked:
            room = rooms[table_id]
            counts[table_id] = room.changes
            if room.table.over:
                if self._published.get(table_id) != "":
                    gone.append(table_id)
                    self._published[table_id] = ""
                continue
            text = self._entry(room)
            if self._published.get(table_id) != text:
                changed[table_id] = text
        if only is None:
            for table_id in [t for t in self._published if t not in rooms]:
                gone.append(table_id)
                del self._published[table_id]
            for table_id in [t for t in written if t not in rooms]:
                del written[table_id]
        if changed:
            await self.redis.hset(LOBBY, mapping=dict(changed.items()))
            self._published.update(changed)
        written.update(counts)  # (a failed write above leaves them unmarked: the next heartbeat tries again)
        if gone:
            await self.redis.hdel(LOBBY, *gone)

    def lobby_soon(self, table_id: str) -> None:
        """Write the lobby entry of ``table_id`` once the current step is done (one write for the moves of one
        step). Only the tables that moved are looked at: summarizing every table at every move cost a third of
        a busy node's CPU (the heartbeat still looks at them all)."""
        if not self._lobby_due:
            self._soon(self._lobby_now())
        self._lobby_due.add(table_id)

    async def _lobby_now(self) -> None:
        due, self._lobby_due = self._lobby_due, set()
        try:
            await self._write_lobby(due)
        except (RedisError, OSError) as exc:
            logger.warning("the lobby waits for the next heartbeat: %s", exc)

    def _entry(self, room: Room) -> str:
        """The lobby entry of an owned table: its summary, its node, and whether it is unstarted (what counts
        against its creator's address: see :meth:`check_client`); the last two are never shown."""
        return json.dumps({**room.table.summary(), "node": self.node, "unstarted": unstarted(room.table)})

    async def publish_summary(self, room: Room) -> None:
        """Write one owned table's summary now (created, joined), not at the next heartbeat (which writes it
        if this one fails)."""
        if room.table.over:
            return
        text = self._entry(room)
        try:
            await self.redis.hset(LOBBY, room.table.id, text)
        except (RedisError, OSError) as exc:
            logger.warning("the lobby entry of table %s waits for the next heartbeat: %s", room.table.id, exc)
            return
        self._published[room.table.id] = text

    async def lobby(self) -> list[dict[str, Any]]:
        """Every unfinished table of every node, as :meth:`Registry.summaries` orders them."""
        with available():
            listed = await self.redis.hgetall(LOBBY)
        tables = [json.loads(text) for text in listed.values()]
        for table in tables:
            table.pop("node", None)
            table.pop("unstarted", None)
        order = {"waiting": 0, "paused": 1, "playing": 2}
        tables = [t for t in tables if t["status"] in order]
        return sorted(tables, key=lambda t: (order[t["status"]], t["created_at"], t["id"]))

    async def summary(self, table_id: str) -> dict[str, Any] | None:
        """The lobby summary of ``table_id`` (any node's), or None."""
        with available():
            text = await self.redis.hget(LOBBY, table_id)
        if text is None:
            return None
        table: dict[str, Any] = json.loads(text)
        table.pop("node", None)
        table.pop("unstarted", None)
        return table

    # ------------------------------------------------------------------ per-address limits, across the nodes
    async def creation_wait(self, client: str, burst: int, interval: float) -> float | None:
        """The seconds ``client`` must wait before it may create a table, counted across every node (a token
        bucket of ``burst`` tokens, one back every ``interval`` seconds); None if Redis does not answer (the
        caller counts on this node alone, as a single process does)."""
        try:
            return float(await self._bucket(keys=[bucket_key(client)], args=[burst, interval, 0]))
        except (RedisError, OSError, ValueError) as exc:
            logger.warning("the creation limit of %s is counted by this server alone: %s", client, exc)
            return None

    @contextlib.asynccontextmanager
    async def creating(self, client: str) -> AsyncIterator[None]:
        """Hold ``client``'s creation lock (across every node) while one of its tables is checked against the
        limits, created and counted, so that two creations of one address at two nodes in the same instant cannot
        both pass the limits. Another creation holding it: wait for it (up to :data:`CREATING_WAIT_SECONDS`),
        then ``rate_limited``. Redis away: no lock (the node counts alone, as a single process does)."""
        key, token = creating_key(client), secrets.token_hex(8)
        deadline = time.monotonic() + CREATING_WAIT_SECONDS
        held = False
        try:
            while not (held := bool(await self.redis.set(key, token, nx=True, px=CREATING_MS))):
                if time.monotonic() >= deadline:
                    raise TableError(
                        "rate_limited", "another table from your address is being created: try again in a moment"
                    )
                await asyncio.sleep(0.05)
        except (RedisError, OSError) as exc:
            logger.warning("the creation of a table for %s is not locked across servers: %s", client, exc)
        try:
            yield
        finally:
            if held:
                with contextlib.suppress(RedisError, OSError):
                    await self._release(keys=[key], args=[token])

    async def check_client(self, client: str, limits: TableLimits) -> None:
        """Refuse a new table to ``client`` if it holds as many as ``limits`` allow at every node together: the
        tables it created (a set in Redis) that the lobby still lists, unstarted or open. Redis away: nothing
        is refused here (the node's own count, :meth:`Registry.create`, still is)."""
        key = client_tables_key(client)
        try:
            tables = sorted(str(t) for t in await self.redis.smembers(key))
            if not tables:
                return
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hmget(LOBBY, tables)
                pipe.mget([lease_key(t) for t in tables])
                entries, holders = await pipe.execute()
        except (RedisError, OSError) as exc:
            logger.warning("the table limits of %s are counted by this server alone: %s", client, exc)
            return
        listed = [json.loads(text) for text in entries if text is not None]
        # a table neither listed nor held has ended (or expired): it counts no more, and is forgotten
        ended = [t for t, text, holder in zip(tables, entries, holders, strict=True) if text is None and holder is None]
        if ended:
            with contextlib.suppress(RedisError, OSError):
                await self.redis.srem(key, *ended)
        check_counts(sum(bool(entry.get("unstarted")) for entry in listed), len(listed), limits)

    async def created_by(self, client: str, table_id: str, burst: int, interval: float) -> None:
        """``client`` created ``table_id``: a token less in its bucket, and the table counted as its own at
        every node. Redis away: the node's own count goes on (the token is taken there too)."""
        key = client_tables_key(client)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                await self._bucket(keys=[bucket_key(client)], args=[burst, interval, 1], client=pipe)
                pipe.sadd(key, table_id)
                pipe.expire(key, CLIENT_TABLES_SECONDS)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            logger.warning("table %s is counted against %s by this server alone: %s", table_id, client, exc)

    # ------------------------------------------------------------------ messages between nodes
    async def publish(self, node: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``node``'s channel."""
        await self.redis.publish(node_channel(node), json.dumps(message))

    async def _listen(self, ready: asyncio.Event) -> None:
        """Read this node's channel for as long as the server runs (resubscribing after Redis comes back)."""
        cut = False
        while not self._stopping:
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(node_channel(self.node))
                    ready.set()
                    if cut:
                        cut = False
                        await self._after_cut()
                    self._listening = True
                    while not self._stopping:
                        message = await pubsub.get_message(timeout=1.0)
                        if message is not None and message.get("type") == "message":
                            data = message["data"]
                            if data.startswith(FRAME):
                                self._frame(data[1 : 1 + CONN_CHARS], data[1 + CONN_CHARS :])
                            else:
                                await self._dispatch(json.loads(data))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                logger.warning("the cluster channel was cut (listening again in 0.5 s): %s", exc)
                cut, self._listening = True, False
                await asyncio.sleep(0.5)
            except Exception:  # a bad message must not stop the node from listening
                logger.exception("a cluster message could not be handled")

    async def _after_cut(self) -> None:
        """This node's channel was cut (Redis restarted, or the network): pub/sub keeps nothing for a listener
        that was away, so a relayed socket may have missed frames and a relayed connection's goodbye may have
        been lost. Every relayed socket is hung up (its client reconnects and is sent the whole position) and
        every connection relayed to this node's tables is let go (its relay hangs it up too)."""
        logger.info("the cluster channel is back: %d relayed sockets reconnect", len(self._relayed))
        for conn in list(self._relayed):
            self._hang_up(conn, MOVED)
        for key, (table_id, client) in list(self._remote.items()):
            del self._remote[key]
            client.stop()
            room = self.registry.rooms.get(table_id)
            if room is not None:
                await room.disconnect(client)

    def _frame(self, conn: str, text: str) -> None:
        """A frame the owner of a table sent to a socket this node relays."""
        relay = self._relayed.get(conn)
        if relay is None:
            return
        relay.asked_at = None
        if not relay.local.post(text):
            logger.info("a relayed connection to table %s fell behind and was closed", relay.table_id)

    async def _dispatch(self, message: dict[str, Any]) -> None:
        op = message.get("op")
        if op == "hangup":
            self._hang_up(message["conn"], int(message["code"]))
        elif op == "reply":
            future = self._calls.pop(message["id"], None)
            if future is not None and not future.done():
                future.set_result(message)
        elif op in ("open", "msg", "close"):
            await self._relayed_message(op, message)
        elif op == "call":
            await self._answer(message)

    async def _relayed_message(self, op: str, message: dict[str, Any]) -> None:
        """A message of a connection another node relays to one of this node's tables."""
        node, conn, table_id = message["from"], message["conn"], message["table"]
        key = (node, conn)
        room = self.registry.rooms.get(table_id)
        if op == "close":
            entry = self._remote.pop(key, None)
            if entry is not None and room is not None:
                await room.disconnect(entry[1])
                self.registry.seen(table_id)
            return
        if room is None or room.closed or not self.holds(table_id):
            await self.publish(node, {"op": "hangup", "conn": conn, "code": MOVED})
            return
        if op == "open":
            client = Client(RemoteSender(self, node, conn))
            self._remote[key] = (table_id, client)
            await room.connect(client)
            return
        entry = self._remote.get(key)
        if entry is None:
            await self.publish(node, {"op": "hangup", "conn": conn, "code": MOVED})
            return
        client = entry[1]
        try:
            decoded = decode(message["data"])
        except ProtocolError as exc:  # the relay checked it already; a node is not trusted blindly either
            room.tell(client, error(exc.code, exc.message))
            return
        await room.receive(client, decoded)

    async def _answer(self, message: dict[str, Any]) -> None:
        """Answer another node's call (join, give up) for one of this node's tables."""
        reply: dict[str, Any] = {"op": "reply", "id": message["id"]}
        room = self.registry.rooms.get(message["table"])
        try:
            if room is None or room.closed or not self.holds(message["table"]):
                raise TableError("moved", "the table is moving to another server: try again in a moment")
            args = message["args"]
            if message["what"] == "join":
                reply["body"] = await join(room, args["name"], args.get("seat"))
                await self.publish_summary(room)
            elif message["what"] == "abandon":
                await room.abandon(args["token"])
                reply["body"] = room.table.summary()
            else:
                raise TableError("bad_request", "no such call")
        except TableError as exc:
            reply["code"], reply["message"] = exc.code, exc.message
        await self.publish(message["from"], reply)

    async def call(self, owner: str, table_id: str, what: str, args: dict[str, Any]) -> dict[str, Any]:
        """Ask ``owner`` to do ``what`` (``join``, ``abandon``) at ``table_id``; its answer, or the
        :class:`TableError` it refused with."""
        request = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[request] = future
        try:
            message = {"op": "call", "id": request, "from": self.node, "table": table_id, "what": what, "args": args}
            with available():
                await self.publish(owner, message)
            answer = await asyncio.wait_for(future, CALL_SECONDS)
        except TimeoutError:
            raise TableError("moved", "the server holding the table did not answer: try again in a moment") from None
        finally:
            self._calls.pop(request, None)
        if "code" in answer:
            raise TableError(answer["code"], answer["message"])
        body: dict[str, Any] = answer["body"]
        return body

    # ------------------------------------------------------------------ relaying a socket
    async def relay(self, websocket: WebSocket, table_id: str, owner: str, rate_limit: int) -> None:
        """Carry an accepted WebSocket to ``table_id``, owned by ``owner``, until either side closes it. The
        client's messages are rate-limited and decoded here (what is refused never crosses); the owner's frames
        are written from an outbox of the same limits as a local connection's."""
        conn = secrets.token_hex(CONN_CHARS // 2)
        local = Client(websocket)
        relay = Relayed(table_id, owner, local, websocket)
        self._relayed[conn] = relay
        opened = False
        try:
            await self.publish(owner, {"op": "open", "table": table_id, "conn": conn, "from": self.node})
            opened = True
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect" or local.behind:
                    break
                text, raw = frame.get("text"), frame.get("bytes")
                data: str | bytes = text if isinstance(text, str) else raw if isinstance(raw, bytes) else b""
                if local.over_rate(time.monotonic(), rate_limit):
                    local.post(encode(error("rate_limited", f"more than {rate_limit} messages a second")))
                    continue
                try:
                    message = decode(data)
                except ProtocolError as exc:
                    local.post(encode(error(exc.code, exc.message)))
                    continue
                if isinstance(message, Ping):
                    local.post(encode({"type": "pong"}))
                    continue
                forwarded = data if isinstance(data, str) else data.decode()
                if relay.asked_at is None:
                    relay.asked_at = time.monotonic()
                await self.publish(owner, {"op": "msg", "table": table_id, "conn": conn, "from": self.node,
                                           "data": forwarded})  # fmt: skip
        except WebSocketDisconnect:
            pass
        except (RedisError, OSError) as exc:  # Redis is away: the client reconnects and tries again
            logger.warning("a relayed connection to table %s was cut: %s", table_id, exc)
            self._relayed.pop(conn, None)
            local.stop()
            with contextlib.suppress(Exception):  # closed here, before the handler ends and drops the socket
                await asyncio.wait_for(websocket.close(MOVED), STOP_SECONDS)
        finally:
            self._relayed.pop(conn, None)
            # its writer ends with the connection: left waiting for frames that never come, it was destroyed
            # pending when the garbage collector found it ("Task was destroyed but it is pending!", at a stop)
            local.stop()
            if opened:
                with contextlib.suppress(RedisError, OSError):
                    await self.publish(owner, {"op": "close", "table": table_id, "conn": conn, "from": self.node})
            await local.hung_up()

    def _hang_up(self, conn: str, code: int) -> None:
        """Close a relayed socket with ``code`` (its table moved, or the owner let it go)."""
        relay = self._relayed.pop(conn, None)
        if relay is None:
            return
        relay.local.stop()
        self._soon(_quietly(relay.websocket.close(code)))

    def _soon(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)


async def _quietly(work: Awaitable[Any]) -> None:
    """Await ``work``, ignoring its failure (closing a socket that is already gone)."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(work, 10)
