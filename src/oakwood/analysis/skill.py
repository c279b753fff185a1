"""The skill ladder: how much a better player wins, rung by rung (easy < medium < hard < expert).

Each rung puts one seat of the stronger level at a table of the weaker level and plays every deal once with the
stronger level at each seat (duplicate deals, :class:`~oakwood.arena.spec.SimulationSpec` with ``rotate`` and
``duplicate``), so neither the deal nor the seat favours either level. The rung's figure is the stronger
level's mean win share over the deals, with its 95 % interval over deals
(:func:`~oakwood.arena.stats.deal_summary`); a fair share is ``1 / players``. Every rung, and both option sets
of a comparison, play the same deals (the same seed), so two ladders compare deal by deal (the report's
:func:`~oakwood.analysis.figures.skill_comparison`): a rule change that brings a rung closer to the fair share
makes skill count for less, the game more random.

The default ladder is the cheap rung, ``easy`` (random moves) against ``medium`` (the game's heuristic);
``hard`` and ``expert`` search (ISMCTS) and cost seconds a game.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from oakwood.agents.levels import LEVELS, level_bot
from oakwood.arena.backend import Backend
from oakwood.arena.local import LocalBackend
from oakwood.arena.recording import GameWriter
from oakwood.arena.simulate import SimulationStopped, simulate
from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import GameRecord, deal_summary
from oakwood.engine import load
from oakwood.store import Store

#: The ladder the workbench climbs unless told otherwise: the cheap rung (no search).
DEFAULT_LEVELS: tuple[str, ...] = ("easy", "medium")


@dataclass(frozen=True)
class Rung:
    """One rung: the stronger level's win share, one seat of it among the weaker level, over duplicate deals.

    ``per_deal`` holds its mean share in each deal (the deals in order), what a comparison pairs.
    """

    weaker: str
    stronger: str
    weaker_bot: str
    stronger_bot: str
    deals: int
    games: int
    share: float
    low: float
    high: float
    fair: float
    per_deal: tuple[float, ...] = field(repr=False)

    @property
    def edge(self) -> float:
        """How far the stronger level's share is above the fair share (negative: below it)."""
        return self.share - self.fair

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (the per-deal shares left out)."""
        return {
            "weaker": self.weaker,
            "stronger": self.stronger,
            "weaker_bot": self.weaker_bot,
            "stronger_bot": self.stronger_bot,
            "deals": self.deals,
            "games": self.games,
            "share": self.share,
            "ci95": [self.low, self.high],
            "fair": self.fair,
            "edge": self.edge,
        }


@dataclass(frozen=True)
class SkillLadder:
    """The rungs of one game, option set and table size, climbed on the same deals (``seed``)."""

    game: str
    options: dict[str, Any]
    players: int
    seed: int
    rungs: tuple[Rung, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "game": self.game,
            "options": dict(self.options),
            "players": self.players,
            "seed": self.seed,
            "rungs": [rung.to_json() for rung in self.rungs],
        }


def check_ladder(game: str, options: Mapping[str, Any], players: int, levels: Sequence[str], deals: int) -> None:
    """Refuse, with a one-line ``ValueError``, what a ladder cannot be (a table size the game does not take, no
    deal, unknown or unordered levels)."""
    loaded = load(game, **options)  # an unknown game or option says so itself
    if type(players) is not int or not max(2, loaded.min_players) <= players <= loaded.max_players:
        low = max(2, loaded.min_players)
        raise ValueError(f"a skill ladder of {game} needs {low}–{loaded.max_players} players; got {players!r}")
    if type(deals) is not int or deals < 1:
        raise ValueError(f"a skill ladder needs at least one deal per rung; got {deals!r}")
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        raise ValueError(f"unknown level {unknown[0]!r}: the levels are {', '.join(LEVELS)}")
    if len(levels) < 2:
        raise ValueError("a skill ladder needs at least two levels (a rung is a weaker and a stronger one)")
    order = [LEVELS.index(level) for level in levels]
    if order != sorted(set(order)):
        raise ValueError(f"the levels of a ladder go up, each once ({' < '.join(LEVELS)}); got {', '.join(levels)}")


def skill_ladder(
    game: str,
    options: Mapping[str, Any] | None = None,
    players: int = 2,
    *,
    levels: Sequence[str] = DEFAULT_LEVELS,
    deals: int = 100,
    seed: int = 0,
    workers: int | None = None,
    backend: Backend | None = None,
    store: Store | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> SkillLadder:
    """Climb the ladder ``levels`` (ascending, consecutive pairs are the rungs) of ``game`` with ``options`` at
    ``players`` seats: ``deals`` deals per rung, each played ``players`` times (the stronger level at each seat
    in turn), seeded by ``seed``. Games are played on ``backend`` (default: local processes, ``workers`` of
    them) and, given a ``store``, kept there (source ``analyze``, as the workbench's games are).
    ``on_progress(n)`` is called as games finish.
    Bad input raises ``ValueError`` (or the game's own option error) in one line.
    """
    chosen = dict(options or {})
    check_ladder(game, chosen, players, levels, deals)
    loaded = load(game, **chosen)
    runner = backend if backend is not None else LocalBackend(workers)
    rungs = []
    for weaker, stronger in itertools.pairwise(levels):
        spec = SimulationSpec(
            game=game,
            lineup=(stronger, *[weaker] * (players - 1)),
            games=deals * players,
            seed=seed,
            rotate=True,
            options=chosen,
            players=players,
            keep_actions=store is not None,
            duplicate=True,
        )
        records = _play(spec, runner, store, on_progress)
        rungs.append(_rung(records, weaker, stronger, level_bot(loaded, weaker), level_bot(loaded, stronger), players))
    return SkillLadder(game, chosen, players, seed, tuple(rungs))


def _play(
    spec: SimulationSpec, backend: Backend, store: Store | None, on_progress: Callable[[int], None] | None
) -> list[GameRecord]:
    if store is None:
        return simulate(spec, backend=backend, on_progress=on_progress)
    writer = GameWriter(store, spec, source="analyze")
    try:
        records = simulate(spec, backend=backend, on_batch=writer.add, on_progress=on_progress)
    except SimulationStopped:
        with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C: the batch landed, and we stop anyway
            writer.flush()
        raise
    writer.flush()
    return records


def _rung(
    records: Sequence[GameRecord], weaker: str, stronger: str, weaker_bot: str, stronger_bot: str, players: int
) -> Rung:
    """The stronger level (lineup entry 0) over the deals of one rung's records (``players`` games a deal)."""
    summary = deal_summary(records, 0)
    by_deal: dict[int, list[float]] = {}
    for record in records:
        seat = record.seating.index(0)
        by_deal.setdefault(record.index // players, []).append(record.returns[seat])
    per_deal = tuple(sum(shares) / len(shares) for _, shares in sorted(by_deal.items()))
    return Rung(
        weaker,
        stronger,
        weaker_bot,
        stronger_bot,
        summary.deals,
        summary.games,
        summary.win_rate,
        summary.ci_low,
        summary.ci_high,
        1 / players,
        per_deal,
    )
