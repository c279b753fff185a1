"""Comparing a variant with the base game by game: paired differences and their intervals, the equivalence test
(TOST) on data whose answer is known, the bootstrap intervals of a length's spread, and a grid's interaction on
constructed games."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pytest
from scipy import stats as sps

from oakwood.analysis.features import GameFeatures
from oakwood.analysis.figures import grid_comparison, variant_comparison
from oakwood.analysis.findings import findings
from oakwood.analysis.measure import MeasuredGame
from oakwood.analysis.plan import BASE, Cell, Plan, Variant, combine
from oakwood.analysis.report import adjust, adjust_equivalence
from oakwood.analysis.statistics import (
    equivalence_bound,
    p_is,
    paired_difference,
    spread,
    spread_difference,
    tost,
    welch_difference,
)

# --- paired and unpaired differences -------------------------------------------------------------------------


def test_a_paired_difference_is_the_paired_t_interval_and_test() -> None:
    base = [3.0, 5.0, 4.0, 6.0, 2.0, 7.0, 5.0, 4.0]
    other = [4.0, 5.5, 5.0, 6.0, 3.5, 8.0, 5.0, 6.0]
    d = paired_difference(base, other)
    diffs = np.array(other) - np.array(base)
    se = diffs.std(ddof=1) / math.sqrt(len(diffs))
    half = sps.t.ppf(0.975, len(diffs) - 1) * se
    assert d.paired and d.count == 8
    assert d.value == pytest.approx(diffs.mean())
    assert (d.low, d.high) == pytest.approx((diffs.mean() - half, diffs.mean() + half))
    assert d.p == pytest.approx(sps.ttest_rel(other, base).pvalue)


def test_an_unpaired_difference_is_welchs() -> None:
    base, other = [1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 9.0, 11.0]
    d = welch_difference(base, other)
    assert not d.paired
    assert d.value == pytest.approx(np.mean(other) - np.mean(base))
    assert d.p == pytest.approx(sps.ttest_ind(other, base, equal_var=False).pvalue)
    ci = sps.ttest_ind(other, base, equal_var=False).confidence_interval(0.95)
    assert (d.low, d.high) == pytest.approx((ci.low, ci.high))


def test_games_moved_by_the_same_amount_give_that_difference_exactly() -> None:
    same = paired_difference([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert (same.value, same.low, same.high, same.p) == (0.0, 0.0, 0.0, 1.0)
    shifted = paired_difference([1.0, 2.0, 3.0], [3.0, 4.0, 5.0])
    assert (shifted.value, shifted.low, shifted.high, shifted.p) == (2.0, 2.0, 2.0, 0.0)
    assert tost(same, 0.5) == 0.0 and tost(shifted, 0.5) == 1.0 and tost(shifted, 2.5) == 0.0
    with pytest.raises(ValueError, match="differ in number"):
        paired_difference([1.0], [1.0, 2.0])


# --- equivalence: TOST ----------------------------------------------------------------------------------------


def _around(centre: float, spread_: float, count: int) -> tuple[list[float], list[float]]:
    """Paired values whose differences alternate ``centre ± spread_`` (mean ``centre``)."""
    base = [float(i % 5) for i in range(count)]
    return base, [b + centre + (spread_ if i % 2 else -spread_) for i, b in enumerate(base)]


def test_tost_is_the_larger_one_sided_p_value_known_by_hand() -> None:
    base, other = _around(0.01, 0.1, 100)
    d = paired_difference(base, other)
    se = 0.1 * math.sqrt(100 / 99) / 10  # the differences' sd over sqrt(n)
    assert d.value == pytest.approx(0.01) and d.se == pytest.approx(se)
    # H0 d >= +0.03 is the harder one to reject (the estimate leans towards it): p = P(t_99 > 0.02 / se)
    assert tost(d, 0.03) == pytest.approx(sps.t.sf(0.02 / se, 99))
    assert tost(d, 0.03) == pytest.approx(0.0247, abs=1e-4)  # t = 1.990 on 99 degrees of freedom
    assert tost(d, 0.01) == pytest.approx(0.5)  # a margin equal to the estimate: a coin toss, never shown
    with pytest.raises(ValueError, match="positive"):
        tost(d, 0.0)


def test_tost_shows_equivalence_exactly_when_the_90_percent_interval_is_inside_the_margin() -> None:
    base, other = _around(-0.4, 3.0, 60)
    d = paired_difference(base, other)
    bound = equivalence_bound(d)
    half = sps.t.ppf(0.95, 59) * d.se
    assert bound == pytest.approx(0.4 + half)
    assert tost(d, bound) == pytest.approx(0.05)
    assert tost(d, bound * 1.01) < 0.05 < tost(d, bound * 0.99)


def test_p_values_are_never_written_as_zero() -> None:
    assert p_is(0.0) == "p < 1e-300"
    assert p_is(2.5e-7) == "p = 2.5e-07"
    assert p_is(0.31) == "p = 0.31"


# --- the spread of a length -----------------------------------------------------------------------------------


def test_a_lengths_spread_carries_reproducible_bootstrap_intervals() -> None:
    values = [float(v) for v in np.random.default_rng(4).integers(30, 90, size=200)]
    found = spread(values)
    q25, q50, q75 = np.percentile(values, [25, 50, 75])
    assert found["median"]["value"] == pytest.approx(q50)  # type: ignore[index]
    assert found["iqr"]["value"] == pytest.approx(q75 - q25)  # type: ignore[index]
    assert found["sd"]["value"] == pytest.approx(np.std(values, ddof=1))  # type: ignore[index]
    assert found["p10"] == pytest.approx(np.percentile(values, 10))
    for name in ("median", "sd", "iqr"):
        figure = found[name]
        assert isinstance(figure, dict)
        assert figure["low"] <= figure["value"] <= figure["high"] and figure["low"] < figure["high"]
    assert spread(values) == found  # seeded: the same games, the same intervals


def test_the_spread_of_a_variant_is_compared_on_the_same_games() -> None:
    base = [float(v) for v in np.random.default_rng(5).integers(30, 90, size=300)]
    longer = [v * 1.5 for v in base]  # every game half as long again: the sd and IQR grow by half, exactly
    found = spread_difference(base, longer)
    assert found["sd"]["value"] == pytest.approx(0.5 * np.std(base, ddof=1))
    assert found["median"]["low"] > 0 and found["iqr"]["low"] > 0
    assert spread_difference(base, base)["median"] == {"value": 0.0, "low": 0.0, "high": 0.0}


# --- a grid's interaction on constructed games ----------------------------------------------------------------


@dataclass(frozen=True)
class _Extractor:
    """The names of what the constructed games hold (they are made, not replayed: no ``extract``)."""

    game: str = "constructed"
    version: int = 1
    endings: Mapping[str, str] = field(default_factory=lambda: {"short": "ended early", "long": "ran long"})
    numbers: Mapping[str, str] = field(default_factory=lambda: {"rounds": "rounds played"})
    seat_facts: Mapping[str, str] = field(default_factory=dict)


def _game(index: int, steps: int, first_wins: bool) -> MeasuredGame:
    returns = (1.0, 0.0) if first_wins else (0.0, 1.0)
    ending = "short" if steps < 60 else "long"
    return MeasuredGame(
        index, returns, returns, (0,) if first_wins else (1,), steps, GameFeatures(ending, {"rounds": steps / 10})
    )


GAMES = 40


def _constructed() -> tuple[Plan, dict[Cell, list[MeasuredGame]]]:
    """Two options x and y at two seats: x adds 3 actions, y adds 5, and both together 10 ± 1 (an interaction of
    +2 actions); seat 1 wins the even games in the base and alone, and three games in four with both."""
    base = Variant(BASE, {"x": 0, "y": 0})
    x = Variant("x=1", {"x": 1, "y": 0}, option="x", shown="1")
    y = Variant("y=1", {"x": 0, "y": 1}, option="y", shown="1")
    both = combine((x, y), {"x": 1, "y": 1})
    plan = Plan("constructed", (2,), ("bot",), GAMES, 0, base, (("x", (x,)), ("y", (y,))), (both,))
    start = [50 + (i % 7) for i in range(GAMES)]
    cells = {
        Cell(2, "bot", base): [_game(i, start[i], i % 2 == 0) for i in range(GAMES)],
        Cell(2, "bot", x): [_game(i, start[i] + 3, i % 2 == 0) for i in range(GAMES)],
        Cell(2, "bot", y): [_game(i, start[i] + 5, i % 2 == 0) for i in range(GAMES)],
        Cell(2, "bot", both): [_game(i, start[i] + 10 + (1 if i % 2 else -1), i % 4 != 3) for i in range(GAMES)],
    }
    return plan, cells


def test_a_grid_plays_every_combination_and_measures_the_interaction() -> None:
    plan, cells = _constructed()
    assert [v.label for v in plan.variants()] == ["base", "x=1", "y=1", "x=1 · y=1"]
    assert plan.pairs() == [("x", "y")]
    grid = grid_comparison(plan, "x", "y", "bot", 2, cells, _Extractor(), {"length": 4.0})  # type: ignore[arg-type]
    assert [r["variant"] for r in grid["rows"]] == ["base", "x=1", "y=1", "x=1 · y=1"]
    assert {c["variant"] for c in grid["comparisons"]} == {"x=1 · y=1"}  # the one-option variants are compared apart
    length, first = (
        next(r for r in grid["interactions"] if r["measure"] == name)
        for name in ("mean length (actions)", "first player's win share")
    )
    # length: (10 ± 1) - 3 - 5 = 2 ± 1, game by game
    d = np.array([2.0 + (1 if i % 2 else -1) for i in range(GAMES)])
    half = sps.t.ppf(0.975, GAMES - 1) * d.std(ddof=1) / math.sqrt(GAMES)
    assert (length["alone_a"], length["alone_b"], length["together"]) == pytest.approx((3.0, 5.0, 10.0))
    assert length["interaction"]["value"] == pytest.approx(2.0)
    assert (length["interaction"]["low"], length["interaction"]["high"]) == pytest.approx((2.0 - half, 2.0 + half))
    assert length["p"] == pytest.approx(sps.ttest_1samp(d, 0.0).pvalue)
    # seat 1's share: neither option alone changes it; together it wins games 1 and 2 of every 4 as well
    wins = np.array([float(i % 4 != 3) - float(i % 2 == 0) for i in range(GAMES)])
    assert first["interaction"]["value"] == pytest.approx(wins.mean()) == pytest.approx(0.25)
    assert first["p"] == pytest.approx(sps.ttest_1samp(wins, 0.0).pvalue)
    # the combination against the base: +10 actions, far outside a 4-action margin
    together = next(c for c in grid["comparisons"] if c["measure"] == "mean length (actions)")
    assert together["difference"]["value"] == pytest.approx(10.0) and together["tost"]["p_tost"] > 0.5


def test_the_findings_lead_with_each_variant_its_difference_and_the_interaction() -> None:
    plan, cells = _constructed()
    extractor = _Extractor()
    margins = {"share": 0.05, "length": 4.0}
    section = {
        "players": 2,
        "agents": {},
        "variants": [variant_comparison(plan, o, "bot", 2, cells, extractor, margins) for o in ("x", "y")],  # type: ignore[arg-type]
        "grids": [grid_comparison(plan, "x", "y", "bot", 2, cells, extractor, margins)],  # type: ignore[arg-type]
    }
    tree = {"sections": [section], "plan": {"agents": ["bot"]}}
    assert adjust(tree) > 0 and adjust_equivalence(tree) > 0
    found = findings(tree)
    by_key = {(f["kind"], f["key"]): f for f in found}
    x = by_key[("variant", "x=1")]
    assert x["significant"] and "mean length (actions) 52.88 → 55.88 (+3.00 actions [+3.00, +3.00]" in x["text"]
    # seat 1's share is unchanged game by game by x alone: equivalence within 5 points is shown
    assert "No change larger than 5.0 pt in every seat's win share" in x["text"]
    assert "equivalence shown, TOST p < 1e-300 after correction" in x["text"]
    interaction = by_key[("grid", "x=1 · y=1")]
    assert interaction["significant"] and "the two options interact" in interaction["text"]
    assert "mean length (actions) +2.00 actions [" in interaction["text"]
    assert all(f["kind"] in ("variant", "grid") for f in found)
