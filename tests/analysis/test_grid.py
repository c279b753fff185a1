"""``oakwood analyze`` with two ``--vary`` (a grid) and ``--margin`` on a small real run: every figure of a
variant's comparison, its equivalence test and the grid's interaction equal a computation by hand from the
stored games; bad margins and grids are refused in one line."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import stats as sps
from typer.testing import CliRunner

from oakwood.cli.main import app
from tests.analysis.test_report import invoke, stored_outcomes

GAMES = 14
GRID = [
    "analyze",
    "barrell",
    "--players",
    "3",
    "--games",
    str(GAMES),
    "--vary",
    "heart_gift_timing=seat_order",
    "--vary",
    "discard_recycle=every_battle",
    "--margin",
    "share=0.3",
    "--margin",
    "length=12",
    "--seed",
    "3",
    "--workers",
    "1",
]


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, str]]:
    """A 2 × 2 grid of Barrell at 3 players: its database, report folder and terminal output."""
    folder = tmp_path_factory.mktemp("grid")
    db, out = folder / "games.db", folder / "report"
    result = CliRunner().invoke(app, [*GRID, "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    yield db, out, result.output


def _figures(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    return data


def _place_shares(games: list[tuple[Any, Any]], place: int) -> list[float]:
    """Each game's win share of whoever sat at ``place`` in the turn order."""
    return [game.returns[features.order.index(place)] for game, features in games]


def _pick(measure: str, games: list[tuple[Any, Any]]) -> list[float]:
    """The length of each game, or the win share of whoever moved first."""
    return [float(g.steps) for g, _ in games] if measure.startswith("mean length") else _place_shares(games, 0)


def _paired(base: list[float], other: list[float]) -> tuple[float, float, float, float]:
    """The paired difference by hand: mean, 95 % t interval, paired t-test p-value."""
    d = np.array(other) - np.array(base)
    se = d.std(ddof=1) / math.sqrt(len(d))
    half = sps.t.ppf(0.975, len(d) - 1) * se
    p = 1.0 if se == 0 and d.mean() == 0 else float(sps.ttest_rel(other, base).pvalue)
    return float(d.mean()), float(d.mean() - half), float(d.mean() + half), p


def test_a_variants_differences_equal_a_paired_computation_from_the_stored_games(grid: tuple[Path, Path, str]) -> None:
    db, out, _ = grid
    data = _figures(out)
    base_options = data["plan"]["options"]
    assert data["plan"]["margins"] == {"share": 0.3, "length": 12.0} and data["plan"]["grid"] is True
    (section,) = data["sections"]
    comparison = next(c for c in section["variants"] if c["option"] == "discard_recycle")
    base = stored_outcomes(db, 3, base_options)
    other = stored_outcomes(db, 3, {**base_options, "discard_recycle": "every_battle"})
    assert [g.seed for g, _ in base] == [g.seed for g, _ in other] and len(base) == GAMES  # the same deals
    assert comparison["paired"] is True
    rows = {r["measure"]: r for r in comparison["comparisons"]}
    checks = {
        "mean length (actions)": ([float(g.steps) for g, _ in base], [float(g.steps) for g, _ in other]),
        **{
            f"{name} player's win share": (_place_shares(base, k), _place_shares(other, k))
            for k, name in enumerate(("first", "second", "third"))
        },
    }
    for measure, (xs, ys) in checks.items():
        row = rows[measure]
        value, low, high, p = _paired(xs, ys)
        assert row["base"] == pytest.approx(np.mean(xs)) and row["value"] == pytest.approx(np.mean(ys))
        assert row["difference"]["value"] == pytest.approx(value, abs=1e-12)
        if high > low:
            assert (row["difference"]["low"], row["difference"]["high"]) == pytest.approx((low, high))
            assert row["p"] == pytest.approx(p)
            # TOST by hand: the larger one-sided p-value against ± the margin
            se = (high - value) / sps.t.ppf(0.975, GAMES - 1)
            margin = 0.3 if "share" in measure else 12.0
            expected = max(sps.t.sf((value + margin) / se, GAMES - 1), sps.t.sf((margin - value) / se, GAMES - 1))
            assert row["tost"]["p_tost"] == pytest.approx(expected)
        assert row["p"] <= row["p_adjusted"] and row["tost"]["p_tost"] <= row["tost"]["p_adjusted"]
    # the whole seat table of each variant, and its length's spread
    table = next(r for r in comparison["rows"] if r["variant"] == "discard_recycle=every_battle")
    for k in range(3):
        assert table["seats"][k]["value"] == pytest.approx(np.mean(_place_shares(other, k)))
    lengths = [g.steps for g, _ in other]
    assert table["length_spread"]["median"]["value"] == pytest.approx(np.median(lengths))
    assert table["length_spread"]["p90"] == pytest.approx(np.percentile(lengths, 90))


def test_the_grid_plays_every_combination_on_the_same_deals_and_its_interaction_is_computed_by_hand(
    grid: tuple[Path, Path, str],
) -> None:
    db, out, output = grid
    data = _figures(out)
    base_options = data["plan"]["options"]
    assert "4 variants in a grid" in output
    (section,) = data["sections"]
    (cells,) = section["grids"]
    assert cells["options"] == ["heart_gift_timing", "discard_recycle"]
    x = {**base_options, "heart_gift_timing": "seat_order"}
    y = {**base_options, "discard_recycle": "every_battle"}
    games = [stored_outcomes(db, 3, options) for options in (base_options, x, y, {**x, **y})]
    assert all([g.seed for g, _ in side] == [g.seed for g, _ in games[0]] for side in games)
    for measure in ("mean length (actions)", "first player's win share"):
        v0, vx, vy, vxy = (np.array(_pick(measure, side)) for side in games)
        row = next(r for r in cells["interactions"] if r["measure"] == measure)
        assert row["together"] == pytest.approx((vxy - v0).mean())
        assert row["alone_a"] == pytest.approx((vx - v0).mean()) and row["alone_b"] == pytest.approx((vy - v0).mean())
        value, low, high, p = _paired(list(vx + vy - v0), list(vxy))
        assert row["interaction"]["value"] == pytest.approx(value, abs=1e-12)
        if high > low:
            assert (row["interaction"]["low"], row["interaction"]["high"]) == pytest.approx((low, high))
            assert row["p"] == pytest.approx(p)
    # the question asked leads: every variant and interaction finding before anything else, on the terminal too
    found = data["findings"]
    asked = [f for f in found if f["kind"] in ("variant", "grid")]
    # two options alone, their combination, the interaction, and the skill ladder of each of the three variants
    assert found[: len(asked)] == asked and len(asked) == 7
    bullets = [line for line in output.splitlines() if line.startswith("• ")]
    assert all(any(line.startswith(f"• {f['text'][:40]}") for line in bullets[: len(asked)]) for f in asked), output
    # the variant tables in short, between those findings and the others
    lines = output.splitlines()
    heading = lines.index("heart_gift_timing × discard_recycle · 3 players · heuristic (95 % intervals)")
    assert lines[heading + 1].startswith("  base options: by turn order ")
    assert "; against the base: length " in lines[heading + 4] and "first player's share " in lines[heading + 4]
    assert lines.index(bullets[len(asked) - 1]) < heading < lines.index(bullets[len(asked)])
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Grid of heart_gift_timing × discard_recycle" in html and "Interaction [95 %]" in html
    assert "(every pair of options also combined: a grid) · equivalence margins: share ± 0.3, length ± 12" in html
    assert (out / "grid-3p-heart_gift_timing-discard_recycle-heuristic.png").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--margin", "share=abc"], "--margin 'share=abc': 'abc' is not a number"),
        (["--margin", "speed=2"], "--margin 'speed=2': no kind 'speed'; the kinds are share, length, score"),
        (["--margin", "share=3"], "a share margin is a fraction below 1 (0.03 is 3 points)"),
        (["--margin", "length=-1"], "a margin is a number above 0"),
        (["--margin", "0.03", "--margin", "share=0.02"], "--margin share is given twice"),
        (
            ["--vary", "heart_gift=split_per_card", "--vary", "heart_gift=one_opponent"],
            "--vary heart_gift is given twice (a grid of an option with itself)",
        ),
    ],
)
def test_bad_margins_and_grids_are_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    out = invoke("analyze", "barrell", *args, "--out", str(tmp_path / "r"), code=2)
    assert out.startswith("error: ") and message in out and len(out.strip().splitlines()) == 1, out


def test_a_grid_of_too_many_cells_is_refused_before_anything_is_played(tmp_path: Path) -> None:
    targets = "--vary", "target_score=10,20,30,40,60,70"
    windows = "--vary", "hoard_race_window_s=1,2,3,4,6,7"
    out = invoke("analyze", "squarrels", *targets, *windows, "--out", str(tmp_path / "r"), code=2)
    assert "--vary: 49 variants per table size and bot" in out and "more than 36" in out, out
    assert len(out.strip().splitlines()) == 1 and not (tmp_path / "r" / "report.html").exists()
