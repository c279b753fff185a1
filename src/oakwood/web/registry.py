"""Every table a server holds: created from the lobby, rebuilt from the store after a restart.

A table is created in the store first (its game row, then its seats), so it survives the server from the
moment anyone can see it. On start the server rebuilds every unfinished table by replaying its stored
moves through the rules (never trusting a saved position) and carries on from there.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

from oakwood.agents.levels import LEVELS
from oakwood.engine import Game, InvalidOptionError, OakwoodError, game_class, game_names, load
from oakwood.engine.errors import shown
from oakwood.store import LiveGame, Store, StoreError, WebTable
from oakwood.summaries import score_name

from .room import Room, RoomSettings
from .table import BOT, HUMAN, Seat, Table, TableError, display_names

logger = logging.getLogger(__name__)

#: The longest display name a player may take (longer ones are refused, not cut).
MAX_NAME = 40
#: How many tables one server holds open at once (a guard against a script filling memory).
MAX_TABLES = 1000


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


class Registry:
    """The tables of one server, by id."""

    def __init__(self, store: Store, executor: Executor, settings: RoomSettings, version: str | None) -> None:
        self.store = store
        self.executor = executor
        self.settings = settings
        self.version = version
        self.rooms: dict[str, Room] = {}

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
    ) -> tuple[Room, int, str]:
        """A new table (stored before it is returned) with its creator seated: the room, their seat and token."""
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
            id=secrets.token_urlsafe(8),
            game=game,
            state=state,
            seats=[Seat(kind=HUMAN) if entry == HUMAN else Seat(kind=BOT, level=entry) for entry in seats],
            live=live,
            turn_seconds=turn_seconds,
        )
        seat, token = table.take_seat(display)
        room = self._open(table, seed)
        return room, seat, token

    def _forget_finished(self) -> None:
        """Drop finished tables nobody is looking at from memory (their games stay in the store, replayable)."""
        for table_id, room in list(self.rooms.items()):
            if room.table.over and not room.clients:
                del self.rooms[table_id]

    def _open(self, table: Table, seed: int) -> Room:
        room = Room(table, self.executor, self.settings, seed)
        self.rooms[table.id] = room
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

    def _restore(self, stored: WebTable) -> None:
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
            live=LiveGame.resume(self.store, row.id, state),
            turn_seconds=stored.turn_seconds,
            created_at=stored.created_at,
            seq=len(state.history),
            decision_seq=len(state.history),  # an answer sent before the restart is asked again
        )
        self._open(table, row.seed)

    async def start(self) -> None:
        """Plan every restored table (bots to move, clocks to run) once the event loop runs."""
        for room in self.rooms.values():
            await room.changed()

    async def close(self) -> None:
        """Stop every room's bots and clocks."""
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
