"""Finished games of a simulation go to the store in batches, from the parent process.

The workers only play; each finished chunk comes back to the parent, which keeps the records in a buffer and
writes them in one transaction every few hundred games (or every second, so a slow run still lands as it
goes). Writing a game per transaction, or a row per action, would cost a bulk simulation more than its
games do (``benchmarks/store_cost.py`` measures what batching costs).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from oakwood.store import NewGame, Store
from oakwood.store.interrupts import interrupts_deferred

from .spec import SimulationSpec
from .stats import GameRecord

#: Games per write at most, and the longest a finished game waits in the buffer (seconds).
BATCH_GAMES = 500
BATCH_SECONDS = 1.0


class GameWriter:
    """Buffers the records of ``spec``'s games and writes them to ``store`` in batches.

    ``source`` is the command (``simulate`` or ``arena``); ``tournament_id`` ties arena games to their
    tournament, each under its game index. Call :meth:`flush` when the run ends, however it ends.
    """

    def __init__(
        self,
        store: Store,
        spec: SimulationSpec,
        *,
        source: str,
        tournament_id: int | None = None,
        batch_games: int = BATCH_GAMES,
        batch_seconds: float = BATCH_SECONDS,
    ) -> None:
        if not spec.keep_actions:
            raise ValueError("a stored simulation keeps its action histories (SimulationSpec.keep_actions)")
        self.store = store
        self.spec = spec
        self.source = source
        self.tournament_id = tournament_id
        self.batch_games = batch_games
        self.batch_seconds = batch_seconds
        self.pending: list[GameRecord] = []
        self.written = 0
        self._last_write = time.monotonic()

    def add(self, records: Sequence[GameRecord]) -> None:
        """Take finished games; write the buffer once it is big or old enough."""
        self.pending.extend(records)
        if len(self.pending) >= self.batch_games or time.monotonic() - self._last_write >= self.batch_seconds:
            self.flush()

    def flush(self) -> None:
        """Write every buffered game now (a Ctrl-C waits until the batch has landed)."""
        with interrupts_deferred():
            if self.pending:
                self.store.record_games([self.new_game(record) for record in self.pending])
                self.written += len(self.pending)
                self.pending = []
            self._last_write = time.monotonic()

    def new_game(self, record: GameRecord) -> NewGame:
        """What the store keeps of one finished game."""
        spec = self.spec
        return NewGame(
            game=spec.game,
            options=spec.options,
            players=spec.seats,
            seed=record.seed,
            actions=record.actions,
            steps=record.steps,
            scores=record.scores,
            returns=record.returns,
            winners=record.winners,
            agents=[spec.lineup[entry] for entry in record.seating],
            source=self.source,
            tournament_id=self.tournament_id,
            game_index=None if self.tournament_id is None else record.index,
        )
