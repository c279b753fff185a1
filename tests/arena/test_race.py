"""Race resolution order: by reaction delay, equal delays in a seeded order that never favours a seat."""

from __future__ import annotations

from oakwood.arena.race import race_order
from oakwood.engine import Rng
from oakwood.engine.agent import Choice


def test_earliest_delay_first() -> None:
    answers = [Choice("pass", 0.9), Choice("slap", 0.2), Choice("slap", 0.5)]
    assert race_order(answers, Rng(1)) == [1, 2, 0]


def test_equal_delays_are_ordered_by_the_seeded_generator() -> None:
    answers = [Choice("slap", 0.3), Choice("slap", 0.3)]
    orders = {tuple(race_order(answers, Rng(seed))) for seed in range(40)}
    assert orders == {(0, 1), (1, 0)}, "seat number must not decide ties"
    assert race_order(answers, Rng(5)) == race_order(answers, Rng(5))


def test_ties_only_among_equal_delays() -> None:
    answers = [Choice("slap", 0.3), Choice("slap", 0.1), Choice("slap", 0.3)]
    for seed in range(20):
        assert race_order(answers, Rng(seed))[0] == 1
