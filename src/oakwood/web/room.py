"""A table on the event loop: its connections, its bots thinking in worker threads, and its clocks.

Every change of the position goes through one path: the :class:`~oakwood.web.table.Table` checks it and plays
it on a copy, the store saves it (in one of the store's threads: the loop serves the other tables meanwhile),
and only then does the table take it, all under the room's lock, so two messages can never interleave; then
:meth:`Room.changed` sends each connection its own update and re-plans who must act next — bots, the turn
clock of a human, the window of a Hoard race, the absence of a player who left.

Bots think off the event loop, in a thread pool shared by every table, on a snapshot view of their seat;
their answer is applied only if it still fits the position (a move chosen for an older position is thrown
away and the bot is asked again). In a race a bot's slap lands after its own human-like reaction delay, so
a quick person can beat it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Coroutine
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Protocol

from oakwood.agents import make_agent
from oakwood.agents.levels import level_bot
from oakwood.engine import Decision, Rng
from oakwood.engine.agent import PlayerView, as_choice
from oakwood.store import StoreError

from .protocol import Act, Back, ClientMessage, Hello, Ping, Undo, encode, error
from .search_pool import BotKey, BotRecipe, SearchPool
from .table import COVER_LEVEL, HUMAN, Change, Table, TableError

logger = logging.getLogger(__name__)

#: A client may send this many messages in any one second; more are refused as ``rate_limited``.
RATE_LIMIT = 20
#: A bot's reaction in a race when it names none (seconds).
DEFAULT_REACTION = 0.8
#: The most frames, and characters, a connection may have waiting for its reader (a frame larger than the
#: whole allowance is still sent when nothing else waits). A reader that falls further behind is hung up on,
#: never waited for: one socket that is not read must not hold up its table. 64 frames are a minute of a
#: fast game; the client reconnects at once and is sent the whole position again.
OUTBOX_FRAMES = 64
OUTBOX_CHARS = 1 << 20
#: The close code of a connection that fell behind (the client reconnects, as after any close but 4404).
FELL_BEHIND = 4008
#: The close code of a connection whose table another server process holds now (``oakwood serve --redis``):
#: the client reconnects and is carried to it.
MOVED = 4010
#: How long the close frame of a connection that fell behind may wait for its reader (seconds).
HANG_UP_SECONDS = 60.0


class Sender(Protocol):
    """What a room needs of a connection: send it a text frame, and close it."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


@dataclass(frozen=True)
class RoomSettings:
    """How a room paces and times things (the same for every table of a server)."""

    #: seconds a bot waits before a move on its turn, so people can follow (0 in tests)
    bot_pace: float = 0.8
    #: seconds without a connection before a bot takes an absent player's seat
    absent_seconds: float = 30.0
    #: seconds a person has to slap or pass in a race before the window closes (a pass), unless the game
    #: has its own window option (S'Quarrels' ``hoard_race_window_s``)
    race_seconds: float = 8.0
    #: the most a searching bot thinks about one move, in seconds (its level's iterations, or less)
    bot_seconds: float = 2.0
    #: the most information sets a searching bot (``hard``, ``expert``) keeps of its tree between moves
    #: (``ISMCTSAgent.keep``: of the nodes its last search reached, the most visited). A bot then holds at most
    #: this many nodes between moves (2–7 KB each: about 0.35 MB) and this plus its level's iterations while it
    #: searches, where a tree kept whole grew all game (four S'Quarrels experts: 620 MB by the end). What the
    #: kept tree gives the next search is the visits its new root already has, and 99.6–100 % of those were in
    #: the 50 most visited nodes in every game measured (docs/web.md, "Memory")
    bot_keep_nodes: int = 50
    #: the bounds of a table's turn clock, in seconds a move
    turn_seconds_range: tuple[float, float] = (10.0, 3600.0)


@dataclass(frozen=True)
class Deadline:
    """A person's clock: when it runs out, its timer, and the question it times (the decision and the
    ``seq`` it began at), so that it never runs on into another one."""

    at: float
    handle: asyncio.TimerHandle
    question: tuple[Decision, int]


@dataclass(eq=False)
class Client:
    """One connection: which seat it plays (None: a spectator, or not yet said hello), what it was sent, and
    its outbox — the frames waiting for its reader, written in order by a task of its own, so that whoever
    sends never waits for a socket."""

    sender: Sender
    seat: int | None = None
    greeted: bool = False
    #: how many of the game's events this client has been sent
    since: int = 0
    #: it fell more than the outbox allows behind: nothing more is sent to it, and it is being hung up on
    behind: bool = False
    _recent: deque[float] = field(default_factory=deque)
    _outbox: deque[str] = field(default_factory=deque)
    _waiting_chars: int = 0
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _writer: asyncio.Task[None] | None = None
    _hang_up: asyncio.Task[None] | None = None

    def post(self, text: str) -> bool:
        """Queue a frame for this connection without waiting; False if it has fallen behind (more than
        :data:`OUTBOX_FRAMES` frames or :data:`OUTBOX_CHARS` characters waiting): it is then hung up on with
        code :data:`FELL_BEHIND`, and is sent nothing more."""
        if self.behind:
            return False
        waiting = self._outbox
        if len(waiting) >= OUTBOX_FRAMES or (waiting and self._waiting_chars + len(text) > OUTBOX_CHARS):
            self._fall_behind()
            return False
        waiting.append(text)
        self._waiting_chars += len(text)
        self._ready.set()
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())
        return True

    async def _write(self) -> None:
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self._outbox:
                text = self._outbox.popleft()
                self._waiting_chars -= len(text)
                try:
                    await self.sender.send_text(text)
                except Exception:  # the connection closed: its reader sees it, and its disconnect cleans up
                    return

    def _fall_behind(self) -> None:
        """Stop writing (a send waiting for the socket is cancelled before it writes anything: the frames are
        whole) and close the connection once its reader takes the close frame, or give up after
        :data:`HANG_UP_SECONDS`."""
        self.stop()
        self._hang_up = asyncio.get_running_loop().create_task(self._close(FELL_BEHIND, "fell behind"))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.sender.close(code, reason), HANG_UP_SECONDS)

    async def hung_up(self) -> None:
        """Wait until the close of a connection that fell behind has gone out (or was given up on)."""
        if self._hang_up is not None:
            await asyncio.wait({self._hang_up})

    def stop(self) -> None:
        """Stop writing to this connection (it is gone, or it fell behind) and send it nothing more."""
        self.behind = True
        self._outbox.clear()
        if self._writer is not None:
            self._writer.cancel()

    def over_rate(self, now: float, limit: int = RATE_LIMIT) -> bool:
        """Count a message; True if this client sent more than ``limit`` in the last second."""
        recent = self._recent
        while recent and now - recent[0] > 1.0:
            recent.popleft()
        recent.append(now)
        return len(recent) > limit


class Room:
    """The live side of one table."""

    def __init__(
        self, table: Table, executor: Executor, settings: RoomSettings, seed: int, searches: SearchPool | None = None
    ) -> None:
        self.table = table
        self.executor = executor
        #: the worker processes searching bots think in (None: they think in ``executor``'s threads too)
        self.searches = searches
        self._searching: set[BotKey] = set()  # the bots of this room that live in ``searches``
        self.settings = settings
        self.clients: set[Client] = set()
        self._world_rng = Rng(seed ^ 0x3A7D)  # the worlds of bots that search: never the game's own generator
        self._agents: dict[tuple[int, str], Any] = {}
        self._seed = seed
        self._race_seconds = race_window(table, settings.race_seconds)
        self._thinking: dict[int, asyncio.Task[None]] = {}
        self._deadlines: dict[int, Deadline] = {}
        self._absent: dict[int, asyncio.TimerHandle] = {}
        self._pending: set[asyncio.Task[None]] = set()
        #: held from a change's check until it is stored and settled (see :meth:`_store`): one change of this
        #: table at a time, checked against the latest stored position, and its writes in order
        self._writing = asyncio.Lock()
        #: how many times :meth:`changed` ran (a server of several writes a table's lobby entry again only when
        #: this moved on since it last did)
        self.changes = 0
        #: closed (the server stops, the game was given up, or another server took the table over): nothing
        #: more is planned, so no bot or clock of this room can act again
        self.closed = False

    # ------------------------------------------------------------------ connections
    async def connect(self, client: Client) -> None:
        """A new connection (it has not said who it is yet)."""
        self.clients.add(client)

    async def disconnect(self, client: Client) -> None:
        """A connection closed: presence changes, and a player gone too long will be covered by a bot."""
        client.stop()
        if self._leave(client):
            await self.changed()

    def _leave(self, client: Client) -> bool:
        """Forget a connection (once: it closed, or it fell behind); whether a seated person's presence changed."""
        if client not in self.clients:
            return False
        self.clients.discard(client)
        seat = client.seat
        if seat is None or not client.greeted:
            return False
        record = self.table.seats[seat]
        record.connections = max(0, record.connections - 1)
        return True

    async def receive(self, client: Client, message: ClientMessage) -> None:
        """Handle one valid message; a refusal goes to this client only."""
        try:
            await self._handle(client, message)
        except TableError as exc:
            self.tell(client, error(exc.code, exc.message))

    async def _handle(self, client: Client, message: ClientMessage) -> None:
        if isinstance(message, Ping):
            self.tell(client, {"type": "pong"})
            return
        if isinstance(message, Hello):
            await self._hello(client, message)
            return
        if not client.greeted:
            raise TableError("malformed", "say hello first")
        seat = client.seat
        if seat is None:
            raise TableError("spectator", "a spectator cannot play")
        if isinstance(message, Back):
            if self.table.seats[seat].covered:
                self._uncover(seat)
                await self.changed()
            return
        if isinstance(message, Act):
            if self.table.seats[seat].covered:  # acting is coming back
                self._uncover(seat)
            async with self._writing:
                await self._store(self.table.prepare_act(seat, message.seq, message.action))
            await self.changed()
            return
        if isinstance(message, Undo):
            async with self._writing:
                await self._store(self.table.prepare_take_back(seat, message.seq))
            for other in self.clients:
                other.since = 0  # the log was rewound: everyone gets it whole again
            await self.changed()
            return

    async def _hello(self, client: Client, hello: Hello) -> None:
        if client.greeted:
            raise TableError("malformed", "hello was already said on this connection")
        seat = None
        if hello.token is not None:
            seat = self.table.seat_of(hello.token)
            if seat is None:
                raise TableError("bad_token", "that seat token is not one of this table's")
        client.seat, client.greeted = seat, True
        if seat is not None:
            record = self.table.seats[seat]
            record.connections += 1
            if record.covered:
                self._uncover(seat)
            await self.changed()
        else:
            self._send_update(client)

    async def _store(self, change: Change) -> None:
        """Store ``change`` (a move or an undo the table has checked, under :attr:`_writing`) and make it the
        table's; :class:`TableError` ``store`` if the store refuses it.

        The write runs in one of the store's threads while the loop goes on: a write that waits (SQLite's file
        lock held by another process, a PostgreSQL round trip) holds up only this table, whose next change
        waits for the lock, never the other tables on this loop. Every move is still stored before anyone is
        shown it: the table shows the position before the change until it settles.

        A task cancelled meanwhile (a bot whose player came back, a room closing) does not cut this short: the
        write goes on in its thread regardless, so the change is settled (or refused) before the lock is let go,
        as if the cancel had come after it, and the next step tells everyone; otherwise the store would hold a
        move the table does not, and a clustered table's next guarded write would be refused."""
        landing = asyncio.ensure_future(self._land(change))
        cancelled = False
        while not landing.done():
            try:
                await asyncio.shield(landing)
            except asyncio.CancelledError:
                cancelled = True
            except TableError:
                break
        if cancelled:
            if landing.exception() is None:
                self._soon(self.changed())
            raise asyncio.CancelledError
        landing.result()  # (a refusal: TableError)

    async def _land(self, change: Change) -> None:
        """Store ``change`` and settle it, or refuse it (see :meth:`_store`)."""
        try:
            await self.table.live.sync_off_loop(change.state)
        except StoreError as exc:
            self.table.refuse(change, exc)
        self.table.settle(change)

    # ------------------------------------------------------------------ after every change
    async def changed(self) -> None:
        """The position or the seats changed: tell everyone, then plan who acts next."""
        self.changes += 1
        self._plan()
        await self.broadcast()

    async def broadcast(self) -> None:
        """Send every greeted connection its own update (into its outbox: nobody waits for a socket)."""
        for client in list(self.clients):
            if client.greeted:
                self._send_update(client)

    def _send_update(self, client: Client) -> None:
        message = self.table.update_for(client.seat, client.since)  # (an undo set every client's since to 0)
        if client.seat is not None and client.seat in self._deadlines:
            message["deadline"] = round(max(0.0, self._deadlines[client.seat].at - time.monotonic()), 1)
        client.since += len(message["events"])
        self.tell(client, message)

    def tell(self, client: Client, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``client``. A client that has fallen behind is let go: it is hung up on (it
        reconnects and is sent the whole position), and if it held a seat, everyone hears that it left."""
        if client.post(encode(message)) or not self._leave(client):
            return
        logger.info("table %s: a connection of seat %s fell behind and was closed", self.table.id, client.seat)
        self._soon(self.changed())

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on the loop after the current step (kept referenced until it is done)."""
        task = asyncio.get_running_loop().create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def _plan(self) -> None:
        """Start the bots that must act, and the clocks of the people who must."""
        if self.closed:
            return
        table = self.table
        if table.over:
            self._release_bots()
        self._watch_presence()
        to_act = set(table.to_act()) if table.status == "playing" else set()  # a table waits until it is full
        race = table.decision is Decision.RACE
        question = (table.decision, table.decision_seq)
        for seat in list(self._deadlines):
            # a clock is for one question: a race window never runs on into the turn after it
            if seat not in to_act or table.seats[seat].played_by_bot or self._deadlines[seat].question != question:
                self._deadlines.pop(seat).handle.cancel()
        for seat in sorted(to_act):
            record = table.seats[seat]
            if record.played_by_bot:
                task = self._thinking.get(seat)
                if task is None or task.done():
                    self._thinking[seat] = asyncio.create_task(self._bot_turn(seat, table.seq))
            elif seat not in self._deadlines and (race or record.connections > 0):
                # a person's clock runs while they are here; one who is away is covered after absent_seconds
                seconds = self._race_seconds if race else table.turn_seconds
                if seconds is not None:
                    handle = asyncio.get_running_loop().call_later(seconds, self._time_up, seat, question)
                    self._deadlines[seat] = Deadline(time.monotonic() + seconds, handle, question)

    def _watch_presence(self) -> None:
        """Start the absence clock of every seated person without a connection; stop it for those back."""
        loop = asyncio.get_running_loop()
        over = self.table.over
        for seat, record in enumerate(self.table.seats):
            away = record.kind == HUMAN and not record.is_free and record.connections == 0 and not over
            if away and not record.covered and seat not in self._absent:
                self._absent[seat] = loop.call_later(self.settings.absent_seconds, self._cover_absent, seat)
            elif not away and seat in self._absent:
                self._absent.pop(seat).cancel()

    # ------------------------------------------------------------------ bots
    def _level(self, seat: int) -> str:
        """The level of the bot playing ``seat`` now: the seat's own, or the cover level for an absent human."""
        record = self.table.seats[seat]
        return record.level if record.kind != HUMAN and record.level else COVER_LEVEL

    @property
    def agents(self) -> dict[tuple[int, str], Any]:
        """The bots this room holds, by seat and level (a copy): built when first needed and kept, so a search
        reuses the part of its tree that ``RoomSettings.bot_keep_nodes`` keeps; their trees are let go when
        the game is over, and the bots with the room."""
        return dict(self._agents)

    def _agent(self, seat: int) -> Any:
        """The bot playing ``seat`` now (built once per seat and level, so a search keeps what it can reuse of
        its tree, at most ``RoomSettings.bot_keep_nodes`` nodes between moves)."""
        level = self._level(seat)
        key = (seat, level)
        if key not in self._agents:
            game = self.table.game
            budget: dict[str, Any] = {}
            if level_bot(game, level) == "ismcts":
                budget = {"seconds": self.settings.bot_seconds, "keep": self.settings.bot_keep_nodes}
            self._agents[key] = make_agent(game, level, seed=self._seed + 7 * (seat + 1), **budget)
        return self._agents[key]

    def _release_bots(self) -> None:
        """The game is over: every searching bot lets go of its tree now, not when the registry forgets the
        table (which it does only once it holds ``MAX_TABLES`` tables); the workers drop this room's bots. The
        bots in process are a few objects, garbage with the room. A bot still thinking (its task cancelled, its
        thread running on) drops the tree of that search when the search ends (``ISMCTSAgent.forget``)."""
        for agent in self._agents.values():
            forget = getattr(agent, "forget", None)
            if callable(forget):
                forget()
        if self.searches is not None and self._searching:
            self.searches.forget(self._searching)
            self._searching.clear()

    async def _bot_turn(self, seat: int, seq: int) -> None:
        try:
            played = await self._bot_move(seat, seq)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot that fails must not stall the table: log it and let the random bot play
            logger.exception("the bot at seat %d of table %s failed; a random move is played", seat, self.table.id)
            self._agents[(seat, self._level(seat))] = make_agent(self.table.game, "random", seed=self._seed + seat)
            played = False
        if self._thinking.get(seat) is asyncio.current_task():
            del self._thinking[seat]  # this bot may have to move again at once: let the plan start it
        if played:
            await self.changed()
        else:
            self._replan_soon()

    async def _bot_move(self, seat: int, seq: int) -> bool:
        """Let the bot at ``seat`` choose for the position ``seq`` and play it if it still fits; whether it did."""
        table = self.table
        decision = table.decision
        if decision is Decision.TURN and self.settings.bot_pace > 0:
            await asyncio.sleep(self.settings.bot_pace)
            if table.seq != seq:
                return False
        action, delay = await self._think(seat)
        if decision is Decision.RACE:
            await asyncio.sleep(max(delay, 0.0))
        async with self._writing:
            if not table.seats[seat].played_by_bot or table.status != "playing" or self.closed:
                return False  # the player came back while their bot thought, or every player left meanwhile
            try:
                # refused if the question changed meanwhile (a turn moved on; a commit or race resolved)
                await self._store(table.prepare_act(seat, seq, action))
            except TableError:
                return False
        return True

    async def _think(self, seat: int) -> tuple[int, float]:
        """The move of the bot at ``seat`` now, as a codec index, and its reaction delay: a searching bot
        thinks in a worker process (handed one of the seat's worlds, see :mod:`.search_pool`), any other in a
        thread (handed a snapshot view)."""
        table, level, searches = self.table, self._level(seat), self.searches
        searching = level_bot(table.game, level) == "ismcts" and (seat, level) not in self._agents
        if searches is not None and searches.usable and searching:
            key = (table.id, seat, level)
            self._searching.add(key)
            world = table.state.determinize(seat, self._world_rng).to_notation()
            try:
                action, delay = await searches.act(key, self._recipe(seat, level), seat, world)
            except BrokenProcessPool:  # no worker would run: this move is thought here, in a thread
                logger.warning("the bot at seat %d of table %s searches in a thread: its worker died", seat, table.id)
            else:
                return action, DEFAULT_REACTION if delay is None else delay
        agent = self._agent(seat)
        view = PlayerView.for_agent(table.state, seat, agent, self._world_rng)
        answer = await asyncio.get_running_loop().run_in_executor(self.executor, agent.act, view)
        choice = as_choice(answer, DEFAULT_REACTION)
        return table.game.encode(choice.action), choice.delay

    def _recipe(self, seat: int, level: str) -> BotRecipe:
        """What a worker builds the searching bot at ``seat`` from (the same bot :meth:`_agent` would build)."""
        game = self.table.game
        options = tuple(sorted(game.options.to_dict().items()))
        settings = self.settings
        return BotRecipe(
            game.name, options, level, self._seed + 7 * (seat + 1), settings.bot_seconds, settings.bot_keep_nodes
        )

    def _replan_soon(self) -> None:
        """A bot's answer no longer fits: plan again once this task has ended."""
        asyncio.get_running_loop().call_soon(self._plan)

    # ------------------------------------------------------------------ clocks and absence
    def _time_up(self, seat: int, question: tuple[Decision, int]) -> None:
        """A person's clock ran out: in a race their window closes (a pass); otherwise a bot covers them."""
        self._deadlines.pop(seat, None)
        table = self.table
        if seat not in table.to_act() or (table.decision, table.decision_seq) != question:
            return  # the clock was for a question that is no longer asked
        if table.decision is Decision.RACE:
            self._soon(self._close_window(seat, question))
            return
        table.seats[seat].covered = True
        self._soon(self.changed())

    async def _close_window(self, seat: int, question: tuple[Decision, int]) -> None:
        """A person's race window closed: their pass, if the race is still the one their clock timed once the
        changes before it are stored."""
        async with self._writing:
            table = self.table
            if seat in table.to_act() and (table.decision, table.decision_seq) == question and not self.closed:
                passes = table.legal_indices(seat, "pass")
                if passes:
                    with contextlib.suppress(TableError):
                        await self._store(table.prepare_act(seat, None, passes[0]))
        await self.changed()

    def _cover_absent(self, seat: int) -> None:
        """A player has been gone for ``absent_seconds``: a bot keeps their seat warm."""
        self._absent.pop(seat, None)
        record = self.table.seats[seat]
        if record.connections == 0 and record.kind == HUMAN and not self.table.over:
            record.covered = True
            self._soon(self.changed())

    def _uncover(self, seat: int) -> None:
        """The player is back: their bot stops (an answer it is still thinking of will not be played)."""
        self.table.seats[seat].covered = False
        task = self._thinking.pop(seat, None)
        if task is not None:
            task.cancel()

    async def abandon(self, token: str) -> None:
        """The player of ``token``'s seat gives the game up (see :meth:`Table.abandon`): everyone is told, and
        the room's bots and clocks stop."""
        seat = self.table.seat_of(token)
        if seat is None:
            raise TableError("bad_token", "that seat token is not one of this table's")
        async with self._writing:  # after the moves being stored (a move stored after it would undo the abandon)
            self.table.abandon(seat)
        await self.changed()
        await self.close()

    async def close(self) -> None:
        """Stop every timer and bot of this room (the server is shutting down, the game was given up, or another
        server holds the table now)."""
        self.closed = True
        for deadline in self._deadlines.values():
            deadline.handle.cancel()
        for handle in self._absent.values():
            handle.cancel()
        for task in self._thinking.values():
            task.cancel()
        self._deadlines.clear()
        self._absent.clear()
        self._release_bots()


def race_window(table: Table, default: float) -> float:
    """How long a race stays open for people: the game's own option (a name ending in ``race_window_s``),
    else ``default``."""
    for name, value in table.game.options.to_dict().items():
        if name.endswith("race_window_s") and isinstance(value, int | float) and value > 0:
            return float(value)
    return default
