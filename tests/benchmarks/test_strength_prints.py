"""Each figure in strength.json still describes the bots of today (issue 37): every result is stored with a moves
print of what its level and opponent played (``strength.py``'s ``moves_print``), checked here against today's
bots, or marked stale by ``strength.py --check --write`` (and ``oakwood games`` says so beside it)."""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

import pytest

from oakwood.agents.levels import measured_strength
from oakwood.cli.tables import sequential_line, strength_line
from tests.benchmarks.test_scripts import load

STORED = measured_strength()
RESULTS = [
    pytest.param(case, where, level, id=f"{case}-{where}-{level}")
    for case, where, level, _ in load("strength").stored_results(STORED)
]


@pytest.mark.parametrize(("case", "where", "level"), RESULTS)
def test_a_stored_figure_describes_the_bots_of_today_or_says_it_is_stale(case: str, where: str, level: str) -> None:
    strength = load("strength")
    result = STORED[case][where][level]
    assert "moves" in result, f"{case} {level} was stored without a moves print: measure it with strength.py --write"
    if "stale" in result:  # shown as stale beside the figure until it is measured again
        return
    assert result["moves"] == strength.moves_print(case, level, result["opponent"]), (
        f"{case}'s {level} against {result['opponent']} plays otherwise than when it was measured at "
        f"{result['commit']}: measure it again (strength.py --cases {case} --levels {level} --write), or mark it "
        "stale until then (strength.py --check --write)"
    )


def test_a_print_tells_the_levels_apart_and_is_the_same_every_time() -> None:
    strength = load("strength")
    expert = strength.moves_print("squarrels-2", "expert", "medium")
    assert expert == strength.moves_print("squarrels-2", "expert", "medium")
    assert len(expert) == 16 and int(expert, 16) >= 0
    # the same moves may open the game (both keep their guide's), but not the same searches
    assert expert != strength.moves_print("squarrels-2", "hard", "medium")
    assert strength.moves_print("squarrels-2", "medium", "easy") != strength.moves_print("squarrels-2", "easy", "easy")


def test_check_marks_a_changed_result_stale_and_unmarks_it_when_it_is_current_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    strength = load("strength")
    today = strength.moves_print("barrell-2", "medium", "easy")
    medium = {"win_share": 0.7, "ci95": [0.6, 0.8], "opponent": "easy", "games": 9, "commit": "aaaaaaa"}
    stored: dict[str, Any] = {"barrell-2": {"game": "barrell", "players": 2, "commit": "aaaaaaa", "settings": "x"}}
    stored["barrell-2"]["levels"] = {"medium": {**medium, "moves": "0123456789abcdef"}}  # as if the bots changed
    stored["barrell-2"]["sequential"] = {"medium": {**medium, "moves": today}}
    path = tmp_path / "strength.json"
    path.write_text(json.dumps(stored))
    monkeypatch.setattr(strength, "STRENGTH_FILE", path)
    monkeypatch.setattr(strength, "commit", lambda: "bbbbbbb")
    monkeypatch.setattr(sys, "argv", ["strength.py", "--check"])
    strength.main()
    out = capsys.readouterr().out
    assert "barrell-2         levels     medium measured at aaaaaaa: stale" in out
    assert "barrell-2         sequential medium measured at aaaaaaa: current" in out
    assert json.loads(path.read_text()) == stored  # without --write nothing is marked
    monkeypatch.setattr(sys, "argv", ["strength.py", "--check", "--write"])
    strength.main()
    marked = json.loads(path.read_text())["barrell-2"]
    assert marked["levels"]["medium"]["stale"] == {"since": "bbbbbbb"} and "stale" not in marked["sequential"]["medium"]
    assert "stale: its bots play otherwise now (found at bbbbbbb)" in strength_line(marked, "medium")
    assert "stale" not in sequential_line(marked, "medium")
    assert "(stale, found at bbbbbbb)" in strength.markdown_table({"barrell-2": marked})
    again = copy.deepcopy(marked)
    again["levels"]["medium"]["moves"] = today  # measured again: the new print is today's
    assert strength.check_prints({"barrell-2": again}, mark="ccccccc")[0].endswith("current")
    assert "stale" not in again["levels"]["medium"]
