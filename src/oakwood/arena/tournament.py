"""Tournaments: seat-rotated games between agents, stored as they finish, resumable, rated.

A tournament is stored before its first game; each game is stored under its index as its batch finishes.
Running it again (the same settings, or its id) plays only the indices not stored yet, so a run cut short
by Ctrl-C, a lost worker or a closed laptop continues where it stopped, and the report always covers every
finished game.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from oakwood.store import Rating, Store, Tournament, TournamentGame, TournamentSettings

from .backend import Backend
from .ratings import rate
from .recording import GameWriter
from .simulate import SimulationStopped, simulate
from .spec import SimulationSpec
from .stats import EntrySummary, GameRecord, mean_length, summarize


def simulation_spec(settings: TournamentSettings) -> SimulationSpec:
    """The simulation a tournament plays: its agents rotating round the table, histories kept for the store."""
    return SimulationSpec(
        game=settings.game,
        lineup=settings.agents,
        games=settings.games,
        seed=settings.seed,
        rotate=True,
        options=settings.options,
        players=settings.players,
        keep_actions=True,
    )


def missing_games(store: Store, tournament: Tournament) -> list[int]:
    """The game indices of ``tournament`` not played yet, in order."""
    done = store.finished_indices(tournament.id)
    return [i for i in range(tournament.settings.games) if i not in done]


def play_tournament(
    store: Store,
    tournament: Tournament,
    backend: Backend,
    *,
    on_progress: Callable[[int], None] | None = None,
) -> int:
    """Play the missing games of ``tournament`` on ``backend``, storing them in batches as they finish;
    how many were played. A run cut short raises :class:`SimulationStopped` once every finished game is
    stored."""
    spec = simulation_spec(tournament.settings)
    writer = GameWriter(store, spec, source="arena", tournament_id=tournament.id)
    try:
        records = simulate(
            spec,
            backend=backend,
            indices=missing_games(store, tournament),
            on_batch=writer.add,
            on_progress=on_progress,
        )
    except SimulationStopped:
        with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C: the batch landed, and we stop anyway
            writer.flush()
        raise
    try:
        writer.flush()
    except KeyboardInterrupt:  # Ctrl-C while the last batch was written: it landed whole
        raise SimulationStopped(records, interrupted=True, reason="interrupted") from None
    return len(records)


@dataclass(frozen=True)
class Standing:
    """One agent's line of the final table: its results and its rating."""

    summary: EntrySummary
    rating: Rating


@dataclass(frozen=True)
class TournamentReport:
    """The table over every finished game of a tournament."""

    tournament: Tournament
    finished: int
    standings: list[Standing]
    mean_length: float

    @property
    def complete(self) -> bool:
        """Whether every game of the tournament has been played."""
        return self.finished == self.tournament.settings.games


def report(store: Store, tournament: Tournament) -> TournamentReport:
    """Win shares, scores and openskill ratings over every finished game; the ratings are stored too."""
    agents = list(tournament.settings.agents)
    games = store.tournament_games(tournament.id)
    records = [_as_record(game, agents) for game in games]
    ratings = rate(games, agents)
    store.save_ratings(tournament.id, ratings)
    summary = summarize(records, agents)
    standings = [Standing(row, rating) for row, rating in zip(summary, ratings, strict=True)]
    return TournamentReport(tournament, len(games), standings, mean_length(records))


def _as_record(game: TournamentGame, agents: list[str]) -> GameRecord:
    """A stored game as the statistics read it (which lineup entry sat where)."""
    return GameRecord(
        index=game.index,
        seed=game.seed,
        seating=tuple(agents.index(name) for name in game.agents),
        scores=game.scores,
        returns=game.returns,
        winners=game.winners,
        steps=game.steps,
    )
