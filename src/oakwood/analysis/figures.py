"""Every figure of a report, computed from measured games alone: a JSON-ready tree the HTML, the plots and
the findings are drawn from (``figures.json`` beside the report holds it whole).

Shares are win shares: a seat's ``returns`` (1 for a win, 1/k for a win shared by k, else 0), so the shares
of a table add up to one. Each test's raw p-value is kept; :func:`adjust` then applies Holm's correction to
every test of the report together.
"""

from __future__ import annotations

import statistics as stdstats
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .features import FeatureExtractor
from .measure import MeasuredGame
from .plan import Cell, Plan, Variant
from .statistics import (
    MEAN_TEST,
    PROPORTION_TEST,
    UNIFORM_TEST,
    Share,
    histogram,
    mean,
    mean_test,
    proportion_test,
    share,
    uniform_test,
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
) -> Json:
    """One option's variants side by side at one table size and agent, each tested against the base."""
    variants = plan.compared(option)
    rows: list[Json] = []
    comparisons: list[Json] = []
    base_games = cells[Cell(players, agent, plan.base)]
    for variant in variants:
        games = cells[Cell(players, agent, variant)]
        rows.append(
            {"variant": variant.label, "shown": _shown(variant), **_variant_measures(games, players, extractor)}
        )
        if variant.is_base:
            continue
        comparisons.extend(_compare(variant, base_games, games, players, extractor))
    return {"option": option, "agent": agent, "players": players, "rows": rows, "comparisons": comparisons}


def _shown(variant: Variant) -> str:
    return "base options" if variant.is_base else f"{variant.option} = {variant.shown}"


def _variant_measures(games: Sequence[MeasuredGame], players: int, extractor: FeatureExtractor) -> Json:
    count = len(games)
    measures: Json = {
        "games": count,
        "length": mean([float(g.steps) for g in games]).to_json(),
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
        measures["first"] = _first_share(games, players).to_json()
    return measures


def _first_share(games: Sequence[MeasuredGame], players: int) -> Share:
    wins = 0.0
    for g in games:
        order = g.features.order
        first = order.index(0) if len(order) == players else 0
        wins += g.returns[first]
    return share(wins, len(games))


def _compare(
    variant: Variant,
    base: Sequence[MeasuredGame],
    games: Sequence[MeasuredGame],
    players: int,
    extractor: FeatureExtractor,
) -> Iterator[Json]:
    """Each measure of ``variant`` against the base, with its test."""

    def row(measure: str, before: float, after: float, test: str, p: float) -> Json:
        return {"variant": variant.label, "measure": measure, "base": before, "value": after, "test": test, "p": p}

    lengths_a = [float(g.steps) for g in base]
    lengths_b = [float(g.steps) for g in games]
    yield row(
        "mean length (actions)",
        mean(lengths_a).value,
        mean(lengths_b).value,
        MEAN_TEST,
        mean_test(lengths_a, lengths_b),
    )
    if players == 1:
        a = share(sum(1.0 for g in base if g.winners), len(base))
        b = share(sum(1.0 for g in games if g.winners), len(games))
        yield row("win rate", a.value, b.value, PROPORTION_TEST, proportion_test(a, b))
        scores_a = [float(g.scores[0]) for g in base]
        scores_b = [float(g.scores[0]) for g in games]
        yield row("mean score", mean(scores_a).value, mean(scores_b).value, MEAN_TEST, mean_test(scores_a, scores_b))
    else:
        a, b = _first_share(base, players), _first_share(games, players)
        yield row("first player's win share", a.value, b.value, PROPORTION_TEST, proportion_test(a, b))
    for key, label in extractor.endings.items():
        a = share(sum(g.features.ending == key for g in base), len(base))
        b = share(sum(g.features.ending == key for g in games), len(games))
        if a.successes or b.successes:
            yield row(f"ending: {label}", a.value, b.value, PROPORTION_TEST, proportion_test(a, b))
    for key, label in extractor.numbers.items():
        xs = [g.features.numbers[key] for g in base if key in g.features.numbers]
        ys = [g.features.numbers[key] for g in games if key in g.features.numbers]
        if xs and ys:
            yield row(label, mean(xs).value, mean(ys).value, MEAN_TEST, mean_test(xs, ys))
