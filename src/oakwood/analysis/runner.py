"""Playing an analysis: each cell's missing games on a backend, stored as they finish; then measuring them.

A cell is a stored tournament. Before playing, the runner looks for every stored tournament with the same
settings but any number of games (game ``i`` depends only on the settings, the seed and ``i``), so the same
game is never played twice: a larger run reuses a smaller one, and an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from oakwood.arena.backend import Backend
from oakwood.arena.recording import GameWriter
from oakwood.arena.simulate import SimulationStopped, simulate
from oakwood.arena.tournament import simulation_spec
from oakwood.store import Store

from .measure import MeasuredGame, measure
from .plan import Cell, Plan

Progress = Callable[[int], None]


@dataclass(frozen=True)
class CellGames:
    """Where a cell's games are: its own tournament first, then others holding the same games."""

    cell: Cell
    tournament_ids: tuple[int, ...]
    missing: tuple[int, ...]


def locate(store: Store, plan: Plan, cell: Cell) -> CellGames:
    """The tournaments that hold a cell's games (its own is created if new) and the game indices none has."""
    settings = plan.settings(cell)
    own, _ = store.tournament_for(settings)
    others = [t.id for t in store.tournaments_like(settings) if t.id != own.id]
    ids = (own.id, *others)
    done: set[int] = set()
    for tournament_id in ids:
        done |= store.finished_indices(tournament_id)
    return CellGames(cell, ids, tuple(i for i in range(plan.games) if i not in done))


def play_missing(store: Store, plan: Plan, where: CellGames, backend: Backend, on_progress: Progress | None) -> None:
    """Play the games of a cell that no stored tournament has, into its own tournament, in batches.

    A run cut short raises :class:`SimulationStopped` once every finished game is stored."""
    if not where.missing:
        return
    settings = plan.settings(where.cell)
    spec = simulation_spec(settings)
    writer = GameWriter(store, spec, source="analyze", tournament_id=where.tournament_ids[0])
    try:
        simulate(spec, backend=backend, indices=where.missing, on_batch=writer.add, on_progress=on_progress)
    except SimulationStopped:
        with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C: the batch landed, and we stop anyway
            writer.flush()
        raise
    writer.flush()


def measured_games(
    store: Store, plan: Plan, where: CellGames, *, workers: int | None = None, on_progress: Progress | None = None
) -> list[MeasuredGame]:
    """Every game of a cell (indices below the plan's count), measured, in index order."""
    games = store.played_games(where.tournament_ids, plan.games)
    cell = where.cell
    return measure(
        store, plan.game, cell.variant.options, cell.players, games, workers=workers, on_progress=on_progress
    )
