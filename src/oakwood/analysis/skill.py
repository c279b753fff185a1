"""The skill ladder: how much a better player wins, rung by rung (easy < medium < hard < expert).

Each rung puts one seat of the stronger level at a table of the weaker level and plays every deal once with the
stronger level at each seat (duplicate deals, :class:`~oakwood.arena.spec.SimulationSpec` with ``rotate`` and
``duplicate``), so neither the deal nor the seat favours either level. The rung's figure is the stronger
level's mean win share over the deals, with its 95 % interval over deals
(:func:`~oakwood.arena.stats.deal_summary`); a fair share is ``1 / players``. Every rung, and both option sets
of a comparison, play the same deals (the same seed), so two ladders compare deal by deal: a rule change that
brings a rung closer to the fair share makes skill count for less, the game more random.

The default ladder is the cheap rung, ``easy`` (random moves) against ``medium`` (the game's heuristic);
``hard`` and ``expert`` search (ISMCTS) and cost seconds a game.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from scipy import stats as sps

from oakwood.agents.levels import LEVELS, level_bot
from oakwood.arena.backend import Backend
from oakwood.arena.local import LocalBackend
from oakwood.arena.recording import GameWriter
from oakwood.arena.simulate import SimulationStopped, simulate
from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import Z95, GameRecord, deal_summary
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


@dataclass(frozen=True)
class RungChange:
    """One rung under two option sets: the difference of the stronger level's shares (``other`` less ``base``),
    paired deal by deal, with its 95 % interval and a paired t-test's two-sided p-value."""

    weaker: str
    stronger: str
    base: Rung
    other: Rung
    difference: float
    low: float
    high: float
    p: float

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (for a report's ``figures.json``)."""
        return {
            "weaker": self.weaker,
            "stronger": self.stronger,
            "base": self.base.to_json(),
            "other": self.other.to_json(),
            "difference": self.difference,
            "ci95": [self.low, self.high],
            "p": self.p,
            "flatter": self.flatter,
        }

    @property
    def flatter(self) -> bool:
        """Whether the other option set brings the rung closer to the fair share, beyond the noise (the interval
        of the change in edge excludes 0): skill counts for less, luck for more."""
        if self.base.edge >= 0:
            return self.high < 0
        return self.low > 0


def _check(game: str, options: Mapping[str, Any], players: int, levels: Sequence[str], deals: int) -> None:
    """One-line errors for what a ladder cannot be."""
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
    _check(game, chosen, players, levels, deals)
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


def compare_ladders(base: SkillLadder, other: SkillLadder) -> list[RungChange]:
    """Each rung of ``other`` against the same rung of ``base``, deal by deal (both must be the same game, table
    size, levels, seed and number of deals: the same deals, only the options differ)."""
    same = (base.game, base.players, base.seed) == (other.game, other.players, other.seed)
    rungs_a = [(r.weaker, r.stronger, r.deals) for r in base.rungs]
    rungs_b = [(r.weaker, r.stronger, r.deals) for r in other.rungs]
    if not same or rungs_a != rungs_b:
        raise ValueError("two skill ladders compare only on the same game, table size, levels, seed and deals")
    changes = []
    for a, b in zip(base.rungs, other.rungs, strict=True):
        diffs = [y - x for x, y in zip(a.per_deal, b.per_deal, strict=True)]
        count = len(diffs)
        centre = math.fsum(diffs) / count
        if count < 2:
            low, high, p = -1.0, 1.0, 1.0
        else:
            sd = math.sqrt(math.fsum((d - centre) ** 2 for d in diffs) / (count - 1))
            half = Z95 * sd / math.sqrt(count)
            low, high = centre - half, centre + half
            p = 1.0 if sd == 0 and centre == 0 else 0.0 if sd == 0 else float(sps.ttest_1samp(diffs, 0.0).pvalue)
        changes.append(RungChange(a.weaker, a.stronger, a, b, b.share - a.share, low, high, p))
    return changes


def _pct(value: float) -> str:
    return f"{value * 100:.1f} %"


def _interval(rung: Rung) -> str:
    return f"{_pct(rung.share)} [{rung.low * 100:.1f}–{rung.high * 100:.1f}]"


def _p(p: float) -> str:
    """A p-value as a reader takes it: two figures, scientific notation below 0.001 (never a bare 0)."""
    if p >= 0.001:
        return f"p = {p:.2g}"
    return f"p = {p:.1e}" if p > 0 else "p < 1e-300"


def _rung_name(rung: Rung) -> str:
    bots = f" ({rung.stronger_bot} over {rung.weaker_bot})"
    same = " — the same bot: this rung measures nothing" if rung.stronger_bot == rung.weaker_bot else ""
    return f"{rung.stronger} over {rung.weaker}{bots}{same}"


def _options_text(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{key}={value}" for key, value in sorted(options.items())) or "base options"


def ladder_lines(ladder: SkillLadder, other: SkillLadder | None = None) -> list[str]:
    """The ladder as terminal lines: each rung's share of the stronger level with its interval and the fair
    share; with ``other``, both option sets and the change rung by rung."""
    deals = ladder.rungs[0].deals if ladder.rungs else 0
    lines = [
        f"Skill ladder of {ladder.game} at {ladder.players} players: one seat of the stronger level among the "
        f"weaker, every seat in turn on {deals} deals per rung (fair share {_pct(1 / ladder.players)})"
    ]
    if other is None:
        lines.append(f"  options: {_options_text(ladder.options)}")
        for rung in ladder.rungs:
            lines.append(f"  {_rung_name(rung)}: {_interval(rung)} ({rung.edge * 100:+.1f} pt over fair)")
        return lines
    lines.append(f"  A: {_options_text(ladder.options)}")
    lines.append(f"  B: {_options_text(other.options)}")
    for change in compare_ladders(ladder, other):
        saturated = change.base.share == change.other.share and change.base.share in (0.0, 1.0)
        verdict = (
            "saturated: one level won every deal under both; a closer rung can show a change"
            if saturated
            else "flatter under B: skill counts for less"
            if change.flatter
            else "no flattening shown"
            if change.low <= 0 <= change.high
            else "steeper under B: skill counts for more"
        )
        lines.append(
            f"  {_rung_name(change.base)}: A {_interval(change.base)}, B {_interval(change.other)}; "
            f"B − A {change.difference * 100:+.1f} pt [{change.low * 100:+.1f}, {change.high * 100:+.1f}], "
            f"{_p(change.p)} ({verdict})"
        )
    return lines


def ladder_html(ladder: SkillLadder, other: SkillLadder | None = None) -> str:
    """The ladder as an HTML fragment (a ``section`` with a table), escaped, for a report page."""
    deals = ladder.rungs[0].deals if ladder.rungs else 0
    head = (
        f"<h3>Skill ladder ({ladder.players} players)</h3><p>One seat of the stronger level among the weaker, "
        f"every seat in turn on the same {deals} deals per rung; a fair share is {_pct(1 / ladder.players)}. "
        "A rule change that brings a rung closer to fair makes skill count for less.</p>"
    )
    if other is None:
        header = ["Rung", f"Stronger level's share [95 %] ({escape(_options_text(ladder.options))})", "Over fair"]
        rows = [[_rung_name(r), _interval(r), f"{r.edge * 100:+.1f} pt"] for r in ladder.rungs]
    else:
        header = [
            "Rung",
            f"A: {escape(_options_text(ladder.options))}",
            f"B: {escape(_options_text(other.options))}",
            "B − A [95 %]",
            "Paired t-test",
        ]
        rows = [
            [
                _rung_name(c.base),
                _interval(c.base),
                _interval(c.other),
                f"{c.difference * 100:+.1f} pt [{c.low * 100:+.1f}, {c.high * 100:+.1f}]",
                _p(c.p),
            ]
            for c in compare_ladders(ladder, other)
        ]
    cells = "".join(f"<th>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(v)}</td>" for v in row) + "</tr>" for row in rows)
    table = f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"
    return f'<section class="skill-ladder">{head}{table}</section>'
