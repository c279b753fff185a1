"""Every figure of a report, computed from measured games alone: a JSON-ready tree the HTML, the plots and
the findings are drawn from (``figures.json`` beside the report holds it whole).

Shares are win shares: a seat's ``returns`` (1 for a win, 1/k for a win shared by k, else 0), so the shares
of a table add up to one. Each test's raw p-value is kept; :func:`adjust` then applies Holm's correction to
every test of the report together.
"""

from __future__ import annotations

import math
import statistics as stdstats
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .features import FeatureExtractor
from .measure import MeasuredGame
from .plan import Cell, Plan, Variant
from .skill import SkillLadder
from .statistics import (
    MEAN_TEST,
    PAIRED_TEST,
    PROPORTION_TEST,
    TOST_TEST,
    UNIFORM_TEST,
    equivalence_bound,
    histogram,
    mean,
    paired_difference,
    proportion_test,
    share,
    spread,
    spread_difference,
    tost,
    uniform_test,
    welch_difference,
)

Json = dict[str, Any]


def cell_figures(games: Sequence[MeasuredGame], players: int, agent: str, extractor: FeatureExtractor) -> Json:
    """The figures of one cell: seats, scores, length, endings, game measures, key facts (and solo)."""
    count = len(games)
    figures: Json = {"games": count, "players": players, "agent": agent, "equal_share": 1 / players}
    if count == 0:
        return figures
    if players > 1:
        figures["seats"] = _wins_by(games, players, lambda g, seat: seat)
        if all(len(g.features.order) == players for g in games):
            figures["order"] = _wins_by(games, players, lambda g, seat: g.features.order[seat])
    else:
        won = [1.0 if g.winners else 0.0 for g in games]
        figures["solo"] = {"win_rate": share(sum(won), count).to_json()}
    figures["scores"] = _scores(games, players)
    lengths = [float(g.steps) for g in games]
    figures["length"] = {"actions": _distribution(lengths)}
    figures["numbers"] = {
        key: {"label": label, **_distribution([g.features.numbers[key] for g in games if key in g.features.numbers])}
        for key, label in extractor.numbers.items()
    }
    figures["endings"] = [
        {"key": key, "label": label, **share(sum(g.features.ending == key for g in games), count).to_json()}
        for key, label in extractor.endings.items()
    ]
    figures["facts"] = _facts(games, players, extractor) if players > 1 else _solo_facts(games, extractor)
    return figures


def _wins_by(games: Sequence[MeasuredGame], players: int, place: Callable[[MeasuredGame, int], int]) -> Json:
    """Win share of each place (a seat number, or a place in the turn order), with the equal-shares test."""
    wins = [0.0] * players
    for g in games:
        for seat in range(players):
            wins[place(g, seat)] += g.returns[seat]
    return {
        "shares": [share(w, len(games)).to_json() for w in wins],
        "test": {"name": UNIFORM_TEST, "p": uniform_test(wins)},
    }


def _scores(games: Sequence[MeasuredGame], players: int) -> Json:
    every = [float(s) for g in games for s in g.scores]
    winners = [float(g.scores[w]) for g in games for w in g.winners[:1]]
    return {
        "per_seat": [mean([float(g.scores[seat]) for g in games]).to_json() for seat in range(players)],
        "all": _distribution(every),
        "winner": _distribution(winners) if winners else None,
        "margin": _distribution(_margins(games)) if players > 1 else None,
    }


def _margins(games: Sequence[MeasuredGame]) -> list[float]:
    """The winner's lead over the best other seat, game by game."""
    margins = []
    for g in games:
        ranked = sorted((float(s) for s in g.scores), reverse=True)
        margins.append(ranked[0] - ranked[1])
    return margins


def _distribution(values: Sequence[float]) -> Json:
    if not values:
        return {"mean": None}
    ordered = sorted(values)
    return {
        "mean": mean(values).to_json(),
        "median": stdstats.median(ordered),
        "p10": ordered[len(ordered) // 10],
        "p90": ordered[min(len(ordered) - 1, (len(ordered) * 9) // 10)],
        "histogram": histogram(values),
    }


def _facts(games: Sequence[MeasuredGame], players: int, extractor: FeatureExtractor) -> list[Json]:
    """Each seat fact: how often a seat has it, and the win share of seats with it against seats without."""
    rows = []
    for key, label in extractor.seat_facts.items():
        with_wins = with_count = without_wins = without_count = 0.0
        for g in games:
            values = g.features.seat_facts.get(key)
            if values is None:
                continue
            for seat in range(players):
                if values[seat]:
                    with_count += 1
                    with_wins += g.returns[seat]
                else:
                    without_count += 1
                    without_wins += g.returns[seat]
        having = share(with_wins, int(with_count))
        lacking = share(without_wins, int(without_count))
        rows.append(
            {
                "key": key,
                "label": label,
                "frequency": share(with_count, int(with_count + without_count)).to_json(),
                "with": having.to_json(),
                "without": lacking.to_json(),
                "difference": having.value - lacking.value if with_count and without_count else None,
                "test": {"name": PROPORTION_TEST, "p": proportion_test(having, lacking)},
            }
        )
    return rows


def _solo_facts(games: Sequence[MeasuredGame], extractor: FeatureExtractor) -> list[Json]:
    """Solo: the win rate of games in which the player had each fact against games without."""
    rows = []
    for key, label in extractor.seat_facts.items():
        having = [g for g in games if g.features.seat_facts.get(key, [0.0])[0]]
        lacking = [g for g in games if not g.features.seat_facts.get(key, [0.0])[0]]
        with_share = share(sum(1.0 for g in having if g.winners), len(having))
        without_share = share(sum(1.0 for g in lacking if g.winners), len(lacking))
        rows.append(
            {
                "key": key,
                "label": label,
                "frequency": share(len(having), len(games)).to_json(),
                "with": with_share.to_json(),
                "without": without_share.to_json(),
                "difference": with_share.value - without_share.value if having and lacking else None,
                "test": {"name": PROPORTION_TEST, "p": proportion_test(with_share, without_share)},
            }
        )
    return rows


def first_place(figures: Json) -> Json | None:
    """The win share of whoever moved first (by turn order when the game draws it, else seat 1)."""
    table = figures.get("order") or figures.get("seats")
    return None if table is None else dict(table["shares"][0])


def variant_comparison(
    plan: Plan,
    option: str,
    agent: str,
    players: int,
    cells: Mapping[Cell, Sequence[MeasuredGame]],
    extractor: FeatureExtractor,
    margins: Mapping[str, float] | None = None,
) -> Json:
    """One option's variants side by side at one table size and agent, each compared with the base game by
    game (the same deals): each measure's difference with its interval and test, and, for each measure whose
    kind has a margin in ``margins``, the equivalence test."""
    variants = list(plan.compared(option))
    return {
        "option": option,
        "file": f"variants-{players}p-{option}-{agent}.png",
        **_comparison(plan, variants, variants[1:], agent, players, cells, extractor, margins or {}),
    }


def grid_comparison(
    plan: Plan,
    first: str,
    second: str,
    agent: str,
    players: int,
    cells: Mapping[Cell, Sequence[MeasuredGame]],
    extractor: FeatureExtractor,
    margins: Mapping[str, float] | None = None,
) -> Json:
    """The grid of two options at one table size and agent: every cell's figures, each combination compared
    with the base (the one-option variants are compared in their own option's comparison), and the interaction
    of each pair of values: how much changing both differs from the two changes added up."""
    variants = plan.grid(first, second)
    combos = [v for v in variants if len(v.changes) == 2]
    compared = _comparison(plan, variants, combos, agent, players, cells, extractor, margins or {})
    base = {g.index: g for g in cells[Cell(players, agent, plan.base)]}
    interactions = []
    for combo in combos:
        x, y = combo.combined
        games = [{g.index: g for g in cells[Cell(players, agent, v)]} for v in (x, y, combo)]
        common = sorted(set(base).intersection(*games))
        for measure in _headline(players):
            v0, vx, vy, vxy = ([measure.pick(side[i]) for i in common] for side in (base, *games))
            # (x and y together - base) - (x alone - base) - (y alone - base), game by game on the same deals
            added = [a + b - c for a, b, c in zip(vx, vy, v0, strict=True)]
            interaction = paired_difference(added, vxy)
            interactions.append(
                {
                    "a": x.label,
                    "b": y.label,
                    "variant": combo.label,
                    "measure": measure.name,
                    "kind": measure.kind,
                    "share": measure.share,
                    "alone_a": _average(vx) - _average(v0),
                    "alone_b": _average(vy) - _average(v0),
                    "together": _average(vxy) - _average(v0),
                    "interaction": interaction.to_json(),
                    "test": PAIRED_TEST,
                    "p": interaction.p,
                }
            )
    return {
        "option": f"{first} × {second}",
        "options": [first, second],
        "file": f"grid-{players}p-{first}-{second}-{agent}.png",
        **compared,
        "interactions": interactions,
    }


def skill_comparison(
    plan: Plan, players: int, ladders: Mapping[str, SkillLadder], margins: Mapping[str, float] | None = None
) -> Json:
    """The skill ladder of every variant at one table size (``ladders``: by variant label, all climbed on the
    same deals): each rung's share of the stronger level, and each variant's rung against the base's, paired
    deal by deal, with its interval, test and (given a ``share`` margin) equivalence test. A rung closer to the
    fair share under a variant means skill counts for less: the game is more random."""
    base = ladders[plan.base.label]
    margin = (margins or {}).get("share")
    rows = [
        {"variant": v.label, "shown": _shown(v), "rungs": [rung.to_json() for rung in ladders[v.label].rungs]}
        for v in plan.variants()
    ]
    comparisons: list[Json] = []
    for variant in plan.variants()[1:]:
        for before, after in zip(base.rungs, ladders[variant.label].rungs, strict=True):
            difference = paired_difference(before.per_deal, after.per_deal)
            toward_fair = difference.value < 0 if before.edge >= 0 else difference.value > 0
            comparisons.append(
                {
                    "variant": variant.label,
                    "measure": f"{after.stronger}'s win share among {after.weaker}",
                    "kind": "share",
                    "share": True,
                    "rung": [after.weaker, after.stronger],
                    "fair": after.fair,
                    "base": before.share,
                    "value": after.share,
                    "toward_fair": toward_fair,
                    "difference": difference.to_json(),
                    "test": PAIRED_TEST,
                    "p": difference.p,
                    "bound": equivalence_bound(difference),
                    "tost": None
                    if margin is None
                    else {"margin": margin, "test": TOST_TEST, "p_tost": tost(difference, margin)},
                }
            )
    first = base.rungs[0]
    return {
        "players": players,
        "levels": [first.weaker, *(rung.stronger for rung in base.rungs)],
        "bots": {r.weaker: r.weaker_bot for r in base.rungs} | {r.stronger: r.stronger_bot for r in base.rungs},
        "deals": first.deals,
        "seed": base.seed,
        "rows": rows,
        "comparisons": comparisons,
    }


def _average(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else math.nan


def _comparison(
    plan: Plan,
    variants: Sequence[Variant],
    compared: Sequence[Variant],
    agent: str,
    players: int,
    cells: Mapping[Cell, Sequence[MeasuredGame]],
    extractor: FeatureExtractor,
    margins: Mapping[str, float],
) -> Json:
    base_games = cells[Cell(players, agent, plan.base)]
    rows = [
        {
            "variant": variant.label,
            "shown": _shown(variant),
            **_variant_measures(cells[Cell(players, agent, variant)], players, extractor),
        }
        for variant in variants
    ]
    comparisons: list[Json] = []
    spreads: list[Json] = []
    for variant in compared:
        games = cells[Cell(players, agent, variant)]
        comparisons.extend(_compare(variant, base_games, games, players, extractor, margins))
        a, b = _paired(base_games, games)
        if a:
            pick = _length().pick
            spreads.append({"variant": variant.label, **spread_difference([pick(g) for g in a], [pick(g) for g in b])})
    return {
        "agent": agent,
        "players": players,
        "paired": all(c["difference"]["paired"] for c in comparisons),
        "rows": rows,
        "comparisons": comparisons,
        "length_spread": spreads,
    }


def _shown(variant: Variant) -> str:
    if variant.is_base:
        return "base options"
    return " and ".join(f"{option} = {shown}" for option, shown in variant.changes)


def _variant_measures(games: Sequence[MeasuredGame], players: int, extractor: FeatureExtractor) -> Json:
    count = len(games)
    lengths = [float(g.steps) for g in games]
    measures: Json = {
        "games": count,
        "length": mean(lengths).to_json(),
        "length_spread": spread(lengths),
        "endings": {
            key: share(sum(g.features.ending == key for g in games), count).to_json() for key in extractor.endings
        },
        "numbers": {
            key: mean([g.features.numbers[key] for g in games if key in g.features.numbers]).to_json()
            for key in extractor.numbers
        },
        "score": mean([float(s) for g in games for s in g.scores]).to_json(),
    }
    if players == 1:
        measures["win_rate"] = share(sum(1.0 for g in games if g.winners), count).to_json()
    else:
        places = [_Measure(*_place(k, players)) for k in range(players)]
        measures["seats"] = [share(math.fsum(m.pick(g) for g in games), count).to_json() for m in places]
        measures["by_order"] = bool(games) and all(len(g.features.order) == players for g in games)
        measures["first"] = measures["seats"][0]
    return measures


class _Measure:
    """One compared measure: its name in the report, its margin kind, whether it is a share, and how to read
    it from a game (``None``: the game does not have it)."""

    def __init__(self, name: str, kind: str, is_share: bool, pick: Callable[[MeasuredGame], float | None]) -> None:
        self.name, self.kind, self.share = name, kind, is_share
        self._pick = pick

    def pick(self, game: MeasuredGame) -> float:
        """The measure of ``game`` (callers pick only games that have it)."""
        value = self._pick(game)
        return math.nan if value is None else value

    def has(self, game: MeasuredGame) -> bool:
        """Whether ``game`` has this measure."""
        return self._pick(game) is not None


def _place(place: int, players: int) -> tuple[str, str, bool, Callable[[MeasuredGame], float | None]]:
    """The win share of whoever sat at ``place`` in the turn order (the seat, when the game has no drawn order)."""

    def pick(g: MeasuredGame) -> float:
        order = g.features.order
        return g.returns[order.index(place) if len(order) == players else place]

    return f"{_ORDINALS[place] if place < len(_ORDINALS) else f'{place + 1}th'} player's win share", "share", True, pick


_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth"]


def _length() -> _Measure:
    return _Measure("mean length (actions)", "length", False, lambda g: float(g.steps))


def _headline(players: int) -> list[_Measure]:
    """The measures a grid's interaction is reported for: who moved first's win share (solo: the win rate),
    and the length."""
    if players == 1:
        return [_Measure("win rate", "share", True, lambda g: 1.0 if g.winners else 0.0), _length()]
    return [_Measure(*_place(0, players)), _length()]


def _measures(players: int, extractor: FeatureExtractor) -> list[_Measure]:
    """Every measure a variant is compared on."""
    found = [_length()]
    if players == 1:
        found.append(_Measure("win rate", "share", True, lambda g: 1.0 if g.winners else 0.0))
        found.append(_Measure("mean score", "score", False, lambda g: float(g.scores[0])))
    else:
        found.extend(_Measure(*_place(k, players)) for k in range(players))
        found.append(_Measure("mean final score", "score", False, lambda g: math.fsum(g.scores) / len(g.scores)))
    for key, label in extractor.endings.items():
        found.append(_Measure(f"ending: {label}", "share", True, _ending(key)))
    for key, label in extractor.numbers.items():
        found.append(_Measure(label, key, False, _number(key)))
    return found


def _ending(key: str) -> Callable[[MeasuredGame], float | None]:
    return lambda g: float(g.features.ending == key)


def _number(key: str) -> Callable[[MeasuredGame], float | None]:
    return lambda g: g.features.numbers.get(key)


def _paired(
    base: Sequence[MeasuredGame], games: Sequence[MeasuredGame]
) -> tuple[list[MeasuredGame], list[MeasuredGame]]:
    """The games of both sides played on the same deals (the same index), in index order."""
    by_index = {g.index: g for g in games}
    common = [g for g in base if g.index in by_index]
    return common, [by_index[g.index] for g in common]


def _compare(
    variant: Variant,
    base: Sequence[MeasuredGame],
    games: Sequence[MeasuredGame],
    players: int,
    extractor: FeatureExtractor,
    margins: Mapping[str, float],
) -> Iterator[Json]:
    """Each measure of ``variant`` against the base: the difference, its interval and test, paired game by game
    when every game of both sides pairs with one of the other on the same deal (else Welch's); and the
    equivalence test when the measure's kind has a margin."""
    same_a, same_b = _paired(base, games)
    pairs_up = len(same_a) == len(base) == len(games)
    for measure in _measures(players, extractor):
        if pairs_up and all(measure.has(g) for g in same_a) and all(measure.has(g) for g in same_b):
            xs, ys = [measure.pick(g) for g in same_a], [measure.pick(g) for g in same_b]
            difference = paired_difference(xs, ys)
        else:
            xs = [measure.pick(g) for g in base if measure.has(g)]
            ys = [measure.pick(g) for g in games if measure.has(g)]
            difference = welch_difference(xs, ys)
        if not xs or not ys or (measure.kind == "share" and not any(xs) and not any(ys)):
            continue  # a measure no game has, or an ending neither side ever reached, says nothing
        margin = margins.get(measure.kind)
        yield {
            "variant": variant.label,
            "measure": measure.name,
            "kind": measure.kind,
            "share": measure.share,
            "base": _average(xs),
            "value": _average(ys),
            "difference": difference.to_json(),
            "test": PAIRED_TEST if difference.paired else MEAN_TEST,
            "p": difference.p,
            "bound": equivalence_bound(difference),
            "tost": None
            if margin is None
            else {"margin": margin, "test": TOST_TEST, "p_tost": tost(difference, margin)},
        }
