"""expert_sprt.py (issue 37): a variant of expert against expert on duplicate deals, deterministic for a deal."""

from __future__ import annotations

import pytest

from tests.benchmarks.test_scripts import load


def test_settings_are_python_literals() -> None:
    sprt = load("expert_sprt")
    assert sprt.parse_settings(["iterations=3000", "guide_z=2.5", "confirm=None"]) == {
        "iterations": 3000,
        "guide_z": 2.5,
        "confirm": None,
    }
    with pytest.raises(ValueError, match="KEY=VALUE"):
        sprt.parse_settings(["iterations"])
    with pytest.raises(ValueError, match="not a setting of the search"):
        sprt.parse_settings(["iteration=3"])


def test_a_deal_is_played_at_every_seat_and_repeats_exactly() -> None:
    sprt = load("expert_sprt")
    job = ("barrell-2", 3, {"iterations": 12}, {"iterations": 4})
    share, mine, my_moves, theirs, their_moves = sprt.play_deal(job)
    assert 0.0 <= share <= 1.0 and share * 4 == round(share * 4)  # two games, ties as halves
    assert my_moves > 0 and their_moves > 0 and mine > 0 and theirs > 0
    assert sprt.play_deal(job)[0] == share  # budgets in iterations: the same games again
