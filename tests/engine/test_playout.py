"""``oakwood.engine.random_playout``: the engine's own random-playout loop (compiled with the engine, issue 36)."""

from __future__ import annotations

import random

import pytest

import oakwood
from oakwood.engine import Rng, State, random_playout

CASES = [("squarrels", 4, {"single_round": True}), ("barrell", 2, {}), ("nutty", 3, {}), ("nutty", 1, {})]


def _caller_loop(state: State, chooser: random.Random) -> int:
    """The loop ``benchmarks/engine_speed.py`` runs, written out by a caller."""
    steps = 0
    while not state.is_terminal():
        seats = state.to_act()
        seat = seats[0] if len(seats) == 1 else seats[int(chooser.random() * len(seats))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[int(chooser.random() * len(legal))])
        steps += 1
    return steps


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_plays_the_callers_games_to_the_end(name: str, players: int, options: dict[str, object]) -> None:
    """Game for game the same moves as a caller's loop with the same chooser, to a finished game."""
    game = oakwood.load(name, **options)
    ours, theirs = random.Random(5), random.Random(5)
    for seed in range(3):
        a, b = game.new_state(players, seed), game.new_state(players, seed)
        steps = random_playout(a, ours)
        assert steps == _caller_loop(b, theirs) == len(a.history) > 0
        assert a.is_terminal() and a.history == b.history and a.returns() == b.returns()


def test_max_steps_stops_early_and_takes_an_rng() -> None:
    """At most ``max_steps`` moves (0: none), and an engine ``Rng`` serves as the chooser too."""
    game = oakwood.load("squarrels")
    state = game.new_state(3, 1)
    assert random_playout(state, Rng(2), max_steps=0) == 0 and not state.history
    assert random_playout(state, Rng(2), max_steps=7) == 7 == len(state.history)
    assert not state.is_terminal()
    twin = game.new_state(3, 1)
    random_playout(twin, Rng(2), max_steps=7)
    assert twin.history == state.history
