"""strength.py's timed game of ``expert`` in the form that runs it: ``make test-compiled`` runs this file on the
compiled build too, where the bot is a native class whose methods cannot be replaced (issue 36)."""

from __future__ import annotations

from oakwood.form import inspect
from tests.benchmarks.test_scripts import load


def test_the_timed_game_notes_every_search_and_names_its_form() -> None:
    strength = load("strength")
    times = strength.search_times("squarrels-2", seed=3, seconds=0.02)  # each search capped: a quick game
    assert times["searches"] >= 1 and times["iterations_per_second"] > 0
    assert 0 < times["expert_seconds_per_move"] < 1.0  # capped at 0.02 s a search
    assert times["form"] == ("compiled" if inspect().compiled else "pure")
