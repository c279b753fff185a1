"""Every table a server holds: created from the lobby, rebuilt from the store after a restart.

A table is created in the store first (its game row, then its seats), so it survives the server from the
moment anyone can see it. On start the server rebuilds every unfinished table by replaying its stored
moves through the rules (never trusting a saved position) and carries on from there.

No one client can lock the others out (see :class:`TableLimits`): a client address holds only a few tables
nobody has played at yet and a few more games at once, and a table nobody has played at, left with nobody at it,
expires — given up in the store, so a restart does not bring it back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from oakwood.agents.levels import LEVELS
from oakwood.engine import Game, InvalidOptionError, OakwoodError, game_class, game_names, load
from oakwood.engine.errors import shown
from oakwood.store import LiveGame, Store, StoreError, WebTable
from oakwood.summaries import score_name

from .room import Room, RoomSettings
from .search_pool import SearchPool
from .table import BOT, HUMAN, Seat, Table, TableError, display_names

logger = logging.getLogger(__name__)

#: The longest display name a player may take (longer ones are refused, not cut).
MAX_NAME = 40
#: How many tables one server holds open at once (a guard against a script filling memory; no one client address
#: can reach it, see :class:`TableLimits`).
MAX_TABLES = 1000


@dataclass(frozen=True)
class TableLimits:
    """What one client address may hold of a server's tables, and how long a table nobody plays at lasts.

    The server's cap (:data:`MAX_TABLES`) protects its memory; these keep any one address from reaching it, so
    the cap is no switch a stranger can flip to lock everyone else out. A table counts against the address that
    created it (a table restored after a restart counts against nobody); a table is *unstarted* until its first
    move (a table waiting for players is unstarted), and *open* until its game is over."""

    #: unstarted tables one address may hold at once: a person waits for friends at one or two
    unstarted_per_client: int = 5
    #: open tables (unstarted, paused or playing) one address may hold at once: enough for the several games a
    #: household or a classroom behind one address plays at once; more must be finished or given up first
    open_per_client: int = 20
    #: seconds an unstarted table may sit with nobody connected before it expires (30 minutes: a friend sent
    #: the invite link has time to come; a lobby full of tables nobody will play is not what people see)
    idle_seconds: float = 1800.0

    @property
    def sweep_seconds(self) -> float:
        """How often the registry looks for expired tables: a tenth of ``idle_seconds``, within 0.05 to 60 s
        (an expired table lingers at most that much longer)."""
        return min(60.0, max(0.05, self.idle_seconds / 10))


def unstarted(table: Table) -> bool:
    """Whether nobody has played at ``table`` yet (no move, not over): a table waiting for players, or a full one
    whose first move is still to come."""
    return table.seq == 0 and not table.over


def check_counts(unstarted_count: int, open_count: int, limits: TableLimits) -> None:
    """Refuse a new table (``too_many_waiting``, ``too_many_open``) to an address that holds ``unstarted_count``
    unstarted and ``open_count`` open tables, if that is as many as ``limits`` allow."""
    if unstarted_count >= limits.unstarted_per_client:
        minutes = max(1, round(limits.idle_seconds / 60))
        raise TableError(
            "too_many_waiting",
            f"you have {limits.unstarted_per_client} tables nobody has played at yet: play at one of them, "
            f"or wait until one expires ({minutes} minutes after everybody left it)",
        )
    if open_count >= limits.open_per_client:
        raise TableError(
            "too_many_open",
            f"you have {limits.open_per_client} games going on: finish or give up one of them first",
        )


def new_table_id() -> str:
    """A fresh table id: 64 random bits, URL-safe."""
    return secrets.token_urlsafe(8)


def check_name(name: str) -> str:
    """A display name, trimmed; refused if empty, too long or made of control characters."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise TableError("bad_request", "a display name cannot be empty")
    if len(cleaned) > MAX_NAME:
        raise TableError("bad_request", f"a display name has at most {MAX_NAME} characters")
    if any(not ch.isprintable() for ch in cleaned):
        raise TableError("bad_request", "a display name cannot contain control characters")
    return cleaned


async def join(room: Room, name: str, seat: int | None) -> dict[str, Any]:
    """Seat ``name`` at ``room``'s table (at ``seat`` if given): the answer of ``POST /api/tables/{id}/join``."""
    if seat is not None and not 0 <= seat < len(room.table.seats):
        raise TableError("bad_request", f"there is no seat {seat + 1} at this table")
    number, token = room.table.take_seat(check_name(name), seat)
    await room.changed()
    return {"table": room.table.summary(), "seat": number, "token": token}


class Registry:
    """The tables of one server, by id."""

    def __init__(
        self,
        store: Store,
        executor: Executor,
        settings: RoomSettings,
        version: str | None,
        limits: TableLimits | None = None,
        searches: SearchPool | None = None,
    ) -> None:
        self.store = store
        self.executor = executor
        self.searches = searches
        self.settings = settings
        self.version = version
        self.limits = limits or TableLimits()
        self.rooms: dict[str, Room] = {}
        #: the client address that created each table (those of this run; None: this machine, not limited)
        self._owners: dict[str, str] = {}
        #: when (``time.monotonic``) each table was created or last had somebody at it
        self._seen: dict[str, float] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def get(self, table_id: str) -> Room:
        """The room of ``table_id``; ``unknown_table`` if there is none."""
        room = self.rooms.get(table_id)
        if room is None:
            raise TableError("unknown_table", "there is no such table (it may have finished long ago)")
        return room

    def summaries(self) -> list[dict[str, Any]]:
        """The summary of every table whose game goes on: open ones first, then paused, then in progress."""
        order = {"waiting": 0, "paused": 1, "playing": 2}
        tables = [room.table.summary() for room in self.rooms.values() if not room.table.over]
        return sorted(tables, key=lambda t: (order[t["status"]], t["created_at"], t["id"]))

    def history(self, limit: int = 20) -> list[dict[str, Any]]:
        """The tables whose game ended (finished or abandoned), newest first, as the lobby lists them: when,
        who sat where, the scores and the winners, and who gave it up."""
        out = []
        for ended in self.store.ended_web_tables(limit):
            seats = ended.table.seats
            names = display_names([(seat["kind"], seat.get("level"), seat.get("name")) for seat in seats])
            quitter = next((names[n] for n, seat in enumerate(seats) if seat.get("abandoned")), None)
            out.append(
                {
                    "id": ended.table.id,
                    "game_id": ended.table.game_id,
                    "game": ended.game,
                    "title": game_class(ended.game).title if ended.game in game_names() else ended.game,
                    "players": ended.players,
                    "status": ended.status,
                    "names": names,
                    "scores": ended.scores,
                    "winners": ended.winners,
                    "score_name": score_name(ended.game),
                    "ended_at": None if ended.ended_at is None else ended.ended_at.isoformat(),
                    "abandoned_by": quitter,
                }
            )
        return out

    def create(
        self,
        *,
        game_name: str,
        players: int,
        options: Mapping[str, Any],
        seats: Sequence[str],
        name: str,
        turn_seconds: float | None,
        seed: int | None = None,
        client: str | None = None,
        table_id: str | None = None,
    ) -> tuple[Room, int, str]:
        """A new table (stored before it is returned) with its creator seated: the room, their seat and token.
        ``client`` is the address of whoever asked (None: this machine), which :class:`TableLimits` bound;
        ``table_id`` the table's id if the caller chose it (a server of several claims it first), else a new one."""
        if client is not None:
            self._check_client(client)
        if len(self.rooms) >= MAX_TABLES:
            self._forget_finished()
        if len(self.rooms) >= MAX_TABLES:
            raise TableError("too_many_tables", f"this server holds at most {MAX_TABLES} tables")
        game = _load(game_name, options)
        if not game.min_players <= players <= game.max_players:
            raise TableError(
                "bad_request", f"{game.title} takes {game.min_players} to {game.max_players} players, not {players}"
            )
        if len(seats) != players:
            raise TableError("bad_request", f"give one entry per seat: {players}, not {len(seats)}")
        for entry in seats:
            if entry != HUMAN and entry not in LEVELS:
                raise TableError(
                    "bad_request", f"a seat is {HUMAN!r} or a level ({', '.join(LEVELS)}), not {shown(entry)}"
                )
        if HUMAN not in seats:
            raise TableError("bad_request", "at least one seat must be a person's")
        low, high = self.settings.turn_seconds_range
        if turn_seconds is not None and not low <= turn_seconds <= high:
            raise TableError("bad_request", f"the turn clock is {low:g} to {high:g} seconds a move, or none")
        display = check_name(name)
        if seed is None:
            seed = secrets.randbits(63)
        try:
            state = game.new_state(players, seed)
        except (OakwoodError, ValueError) as exc:
            raise TableError("bad_request", f"bad seed: {exc}") from None
        agents = list(seats)
        try:
            live = LiveGame.start(self.store, state, agents, source="web", version=self.version)
        except StoreError as exc:
            raise TableError("store", f"the table could not be stored: {exc}") from None
        table = Table(
            id=table_id or new_table_id(),
            game=game,
            state=state,
            seats=[Seat(kind=HUMAN) if entry == HUMAN else Seat(kind=BOT, level=entry) for entry in seats],
            live=live,
            turn_seconds=turn_seconds,
        )
        seat, token = table.take_seat(display)
        room = self._open(table, seed)
        if client is not None:
            self._owners[table.id] = client
        return room, seat, token

    def _check_client(self, client: str) -> None:
        """Refuse a new table to ``client`` if it holds as many as :class:`TableLimits` allow."""
        mine = [
            room.table
            for table_id, room in self.rooms.items()
            if self._owners.get(table_id) == client and not room.table.over
        ]
        check_counts(sum(unstarted(table) for table in mine), len(mine), self.limits)

    def seen(self, table_id: str) -> None:
        """Somebody was at ``table_id`` until now (a connection closed): its idle time starts again."""
        if table_id in self.rooms:
            self._seen[table_id] = time.monotonic()

    async def expire_idle(self, now: float | None = None) -> list[str]:
        """Remove every unstarted table that nobody has been at for ``TableLimits.idle_seconds`` (as of ``now``,
        a ``time.monotonic`` time): its game is stored ``abandoned`` and its table row deleted, so neither a
        restart nor the lobby's history brings back a table nobody played. The ids removed."""
        now = time.monotonic() if now is None else now
        idle = self.limits.idle_seconds
        expired: list[Room] = []
        for table_id, room in self.rooms.items():
            if not unstarted(room.table):
                continue
            if room.clients:  # somebody is there, a player or a spectator: the table is not idle
                self._seen[table_id] = now
            elif now - self._seen.setdefault(table_id, now) >= idle:
                expired.append(room)
        if expired:
            # one transaction for them all, with no await between the check above and the removal below, so
            # nobody can connect to a table in between
            try:
                self.store.expire_web_tables([(room.table.id, room.table.live.id) for room in expired])
            except StoreError as exc:
                logger.warning("%d idle tables could not be expired (tried again later): %s", len(expired), exc)
                return []
            for room in expired:
                del self.rooms[room.table.id]
        for table_id in [t for t in (*self._owners, *self._seen) if t not in self.rooms]:
            self._owners.pop(table_id, None)  # tables gone (expired, or finished and forgotten)
            self._seen.pop(table_id, None)
        for room in expired:
            await room.close()
        return [room.table.id for room in expired]

    async def _sweep(self) -> None:
        """Expire idle tables every ``TableLimits.sweep_seconds`` while the server runs."""
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                gone = await self.expire_idle()
            except Exception:  # a sweep that fails must not stop the next ones
                logger.exception("looking for idle tables failed")
                continue
            if gone:
                logger.info("%d tables nobody played at expired", len(gone))

    def _forget_finished(self) -> None:
        """Drop finished tables nobody is looking at from memory (their games stay in the store, replayable)."""
        for table_id, room in list(self.rooms.items()):
            if room.table.over and not room.clients:
                del self.rooms[table_id]

    def _open(self, table: Table, seed: int) -> Room:
        room = Room(table, self.executor, self.settings, seed, self.searches)
        self.rooms[table.id] = room
        # idle since it was created: a table restored after a restart has been idle since then unless somebody
        # comes back (clients reconnect by themselves within seconds, well before the first sweep)
        age = (datetime.now(UTC) - table.created_at).total_seconds()
        self._seen[table.id] = time.monotonic() - max(0.0, age)
        return room

    def restore(self) -> int:
        """Rebuild every unfinished table from the store (after a restart); how many came back. A table
        whose moves no longer replay is left in the store, logged, and not opened."""
        restored = 0
        for stored in self.store.web_tables(unfinished_only=True):
            try:
                self._restore(stored)
                restored += 1
            except (OakwoodError, StoreError, ValueError) as exc:
                logger.warning("table %s (game %d) cannot be resumed: %s", stored.id, stored.game_id, exc)
        return restored

    def rebuild(self, stored: WebTable) -> tuple[Table, int]:
        """One unfinished table rebuilt from the store by replaying its moves, and its seed, without opening it
        (it touches nothing of the registry, so another thread may do it: see :mod:`.cluster`).
        :class:`OakwoodError`, :class:`StoreError` or ``ValueError`` if its moves no longer replay."""
        row = self.store.get_game(stored.game_id)
        state = row.replay().play()
        game = state.game
        table = Table(
            id=stored.id,
            game=game,
            state=state,
            seats=[
                Seat(
                    kind=seat["kind"], level=seat.get("level"), name=seat.get("name"), token_hash=seat.get("token_hash")
                )
                for seat in stored.seats
            ],
            live=LiveGame.resume(self.store, row.id, state, stored.seats),
            turn_seconds=stored.turn_seconds,
            created_at=stored.created_at,
            seq=len(state.history),
            decision_seq=len(state.history),  # an answer sent before the restart is asked again
        )
        return table, row.seed

    def _restore(self, stored: WebTable) -> None:
        self._open(*self.rebuild(stored))

    def open(self, table: Table, seed: int) -> Room:
        """Open a rebuilt table (:meth:`rebuild`): its room, not yet planned."""
        return self._open(table, seed)

    async def start(self) -> None:
        """Plan every restored table (bots to move, clocks to run) once the event loop runs, and start looking
        for idle tables."""
        for room in self.rooms.values():
            await room.changed()
        self._sweeper = asyncio.create_task(self._sweep(), name="oakwood-idle-tables")

    async def close(self) -> None:
        """Stop looking for idle tables, and every room's bots and clocks."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for room in self.rooms.values():
            await room.close()


def _load(game_name: str, options: Mapping[str, Any]) -> Game[Any]:
    """The game with these options, or ``bad_request`` naming what is wrong."""
    if game_name not in game_names():
        raise TableError("bad_request", f"no game named {shown(game_name)} (games: {', '.join(game_names())})")
    try:
        return load(game_name, **dict(options))
    except InvalidOptionError as exc:
        raise TableError("bad_request", str(exc)) from None
    except TypeError as exc:
        raise TableError("bad_request", f"bad options: {exc}") from None
