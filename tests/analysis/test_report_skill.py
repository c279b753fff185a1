"""The skill ladder in ``oakwood analyze``: every variant's ladder at every table size, equal to one climbed
directly on the same deals, compared with the base deal by deal in the report's Holm family, leading the
findings, in the page and the terminal; and its flags refused in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oakwood.analysis.skill import skill_ladder
from oakwood.analysis.statistics import paired_difference
from oakwood.cli.main import app
from oakwood.engine import load

runner = CliRunner()
DEALS = 6
VARIANT = {"battle_tie": "all_tied_win"}
ANALYSIS = [
    "analyze",
    "barrell",
    "--players",
    "2-3",
    "--games",
    "12",
    "--vary",
    "battle_tie=all_tied_win",
    "--skill-deals",
    str(DEALS),
    "--seed",
    "3",
    "--workers",
    "1",
]


def invoke(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """One small Barrell analysis with a variant and a skill ladder: what it printed and its report folder."""
    folder = tmp_path_factory.mktemp("skill")
    output = invoke(*ANALYSIS, "--db", str(folder / "games.db"), "--out", str(folder / "report"))
    return output, folder / "report"


def figures(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    return data


def test_each_ladder_equals_one_climbed_directly_on_the_same_deals(run: tuple[str, Path]) -> None:
    tree = figures(run[1])
    base_options = load("barrell").options.to_dict()
    assert tree["plan"]["skill"] == {"levels": ["easy", "medium"], "deals": DEALS}
    for section in tree["sections"]:
        players, skill = section["players"], section["skill"]
        base = skill_ladder("barrell", base_options, players, deals=DEALS, seed=3, workers=1)
        other = skill_ladder("barrell", {**base_options, **VARIANT}, players, deals=DEALS, seed=3, workers=1)
        assert [row["variant"] for row in skill["rows"]] == ["base", "battle_tie=all_tied_win"]
        assert skill["rows"][0]["rungs"] == [rung.to_json() for rung in base.rungs]
        assert skill["rows"][1]["rungs"] == [rung.to_json() for rung in other.rungs]
        assert skill["bots"] == {"easy": "random", "medium": "heuristic"}
        (row,) = skill["comparisons"]
        difference = paired_difference(base.rungs[0].per_deal, other.rungs[0].per_deal)
        assert row["difference"] == pytest.approx(difference.to_json(), nan_ok=True)
        assert row["p"] == pytest.approx(difference.p)
        assert (row["base"], row["value"]) == (base.rungs[0].share, other.rungs[0].share)
        assert row["measure"] == "medium's win share among easy" and row["fair"] == 1 / players


def test_the_ladders_tests_join_the_reports_holm_family(run: tuple[str, Path]) -> None:
    tree = figures(run[1])
    rows = [row for section in tree["sections"] for row in section["skill"]["comparisons"]]
    assert all("p_adjusted" in row and row["p_adjusted"] >= row["p"] for row in rows)
    without = figures(run[1])  # the same tree, counted without the ladder's tests
    for section in without["sections"]:
        section["skill"] = None
    from oakwood.analysis.report import adjust

    assert tree["statistics"]["tests"] == adjust(without) + len(rows)


def test_the_ladder_leads_with_the_variants_in_the_findings_page_and_terminal(run: tuple[str, Path]) -> None:
    output, out = run
    tree = figures(out)
    kinds = [f["kind"] for f in tree["findings"]]
    about_skill = [f for f in tree["findings"] if f["key"].endswith(": skill easy<medium")]
    assert len(about_skill) == 2 and all(f["kind"] == "variant" for f in about_skill)
    assert max(kinds.index("variant"), *(tree["findings"].index(f) for f in about_skill)) < kinds.index("advantage")
    assert all(f["text"].startswith("battle_tie = all_tied_win") for f in about_skill)
    assert all("medium's win share among easy" in f["text"] for f in about_skill)
    base = [f for f in tree["findings"] if f["kind"] == "skill"]
    assert [f["players"] for f in base] == [[2, 3]]  # one line for both table sizes
    assert base[0]["text"].startswith("Skill at 2 and 3 players: one medium player (heuristic) among easy players")
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<h3>Skill ladder (2 players)</h3>" in page and "<h3>Skill ladder (3 players)</h3>" in page
    assert "medium among easy [95 %]" in page and "Skill ladder: for each pair of consecutive levels" in page
    lines = output.splitlines()
    ladder = lines.index(f"skill ladder · 3 players · {DEALS} deals (95 % intervals)")
    assert lines[ladder + 1].startswith("  base options: medium among easy ")
    assert "; against the base: " in lines[ladder + 2]
    # the question asked first: the variant's skill findings, the tables, then the ladder under the base options
    asked = output.index("battle_tie = all_tied_win, 2-player games")
    assert asked < output.index("skill ladder · 2 players") < output.index("• Skill at 2 and 3 players")


def test_no_ladder_when_asked_for_none_or_when_every_table_is_solo(tmp_path: Path) -> None:
    invoke(*ANALYSIS[:-6], "--skill-deals", "0", "--db", str(tmp_path / "a.db"), "--out", str(tmp_path / "a"))
    tree = figures(tmp_path / "a")
    assert tree["plan"]["skill"] is None and all(s["skill"] is None for s in tree["sections"])
    assert all(f["kind"] != "skill" for f in tree["findings"])
    assert "Skill ladder" not in (tmp_path / "a" / "report.html").read_text(encoding="utf-8")
    solo = ["analyze", "nutty", "--players", "1", "--games", "4", "--workers", "1"]
    invoke(*solo, "--db", str(tmp_path / "b.db"), "--out", str(tmp_path / "b"))
    assert figures(tmp_path / "b")["sections"][0]["skill"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--skill-levels", "medium,easy"], "--skill-levels 'medium,easy': the levels of a ladder go up"),
        (["--skill-levels", "easy,wizard"], "--skill-levels 'easy,wizard': unknown level 'wizard'"),
        (["--skill-levels", "medium"], "a skill ladder needs at least two levels"),
        (["--skill-deals", "-1"], "--skill-deals"),
    ],
)
def test_bad_ladder_flags_are_refused_in_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    out = invoke("analyze", "barrell", "--games", "4", *args, "--out", str(tmp_path / "r"), code=2)
    assert out.startswith("error: ") and message in out and len(out.strip().splitlines()) == 1, out
