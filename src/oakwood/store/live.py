"""A game stored while it is played: the row is created before the first move and every move is saved as
soon as it is made, so a game cut short (quit, Ctrl-C, a closed terminal) is a ``running`` row whose moves
replay to exactly where it stopped."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from oakwood.engine import State

from .records import WebTable
from .repository import Store


class LiveGame:
    """The stored row of one game in progress; call :meth:`sync` after every change of the state."""

    def __init__(self, store: Store, game_id: int) -> None:
        self.store = store
        self.id = game_id
        self._saved: list[tuple[int, int]] = []
        self._finished = False
        #: the seats of the game's web table as this object last stored them (None: not known)
        self._seats: list[dict[str, Any]] | None = None
        #: write only over the moves (and the seats) this object saved last (servers sharing a store; see
        #: ``Store.save_moves`` and ``Store.save_web_table``)
        self.guarded = False

    @classmethod
    def start(
        cls, store: Store, state: State, agents: Sequence[str], *, source: str = "play", version: str | None = None
    ) -> LiveGame:
        """Create the ``running`` row of ``state``'s game (``agents``: who plays each seat; ``version``: the
        Oakwood version playing it) and save any moves it already has."""
        replay = state.replay()
        game_id = store.start_game(
            game=replay.game,
            options=replay.options,
            players=replay.players,
            seed=replay.seed,
            agents=agents,
            source=source,
            start=replay.start,
            version=version,
        )
        live = cls(store, game_id)
        live.sync(state)
        return live

    @classmethod
    def resume(
        cls, store: Store, game_id: int, state: State, seats: Sequence[Mapping[str, Any]] | None = None
    ) -> LiveGame:
        """Go on storing the existing row ``game_id``, whose saved moves are ``state``'s history (the state
        was rebuilt from them), and whose web table's stored seats are ``seats`` if it has one: the next
        :meth:`sync` (and :meth:`save_table`) writes only what changes after this."""
        live = cls(store, game_id)
        live._seats = None if seats is None else [dict(seat) for seat in seats]
        encode = state.game.codec.encode
        live._saved = [(seat, encode(action)) for seat, action in state.history]
        live._finished = state.is_terminal()
        return live

    def sync(self, state: State) -> None:
        """Save ``state``'s moves if they changed (one played, or one taken back); at the end, the outcome."""
        write, saved = self._write_for(state)
        if write is not None:
            self.store.save_moves(self.id, **write)
            self._saved, self._finished = saved

    async def sync_off_loop(self, state: State) -> None:
        """:meth:`sync` for an event loop: the write is made here and now if it needs no waiting
        (:meth:`Store.save_moves_if_free`: a SQLite file nobody else is writing), else in one of the store's
        threads (:attr:`Store.writer`), so the loop goes on with other work while it waits (for the file's lock,
        for PostgreSQL). What changed is worked out, and remembered once the write has landed, on the loop. One
        write of this game at a time: the caller awaits each before it starts the next (a server's table holds
        its lock across the write), so they land in order."""
        write, saved = self._write_for(state)
        if write is None:
            return
        if not self.store.save_moves_if_free(self.id, **write):
            save = functools.partial(self.store.save_moves, self.id, **write)
            await asyncio.get_running_loop().run_in_executor(self.store.writer, save)
        self._saved, self._finished = saved

    def _write_for(self, state: State) -> tuple[dict[str, Any] | None, tuple[list[tuple[int, int]], bool]]:
        """The arguments of the store's save of ``state`` over what was saved last (None: nothing changed), and the
        moves and end it stores. Everything the save needs is read from ``state`` now, so it may run in another
        thread while the table goes on."""
        encode = state.game.codec.encode
        actions = [(seat, encode(action)) for seat, action in state.history]
        finished = state.is_terminal()
        saved = (actions, finished)
        if actions == self._saved and finished == self._finished:
            return None, saved
        write: dict[str, Any] = {"actions": actions, "expected_steps": len(self._saved) if self.guarded else None}
        if finished:
            write.update(scores=state.scores(), returns=state.returns(), winners=state.winners())
        return write, saved

    def save_table(self, table: WebTable) -> None:
        """Store the web table this game is played at (its seats); guarded as the moves are: only over the seats
        this object stored last (:class:`GameMoved` if another server changed them since)."""
        expected = self._seats if self.guarded else None
        self.store.save_web_table(table, expected_seats=expected)
        self._seats = [dict(seat) for seat in table.seats]

    def abandon(self) -> None:
        """The players gave the game up before its end: it is stored as ``abandoned`` (never resumed)."""
        self.store.abandon_game(self.id)
        self._finished = True
