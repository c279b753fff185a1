"""Fuzzing Nutty Squirrels' loaders (issue 8): mutated notations and saved states are refused with
``InvalidNotationError`` or load as real positions whose random playouts end with every invariant intact.

The default run tries a few hundred cases per entry point; the ``slow`` sweep (``pytest -m slow``) at least
5,000 per entry point for each player count. Positions come from seeded random playouts of the default
rules and of every variant at once (solo ones also from long games: random solo games stop early).
"""

from __future__ import annotations

import pytest

import oakwood
from oakwood.engine import Game, Rng, State
from tests.conformance.fuzz import FuzzReport, fuzz_json, fuzz_notation, positions
from tests.conformance.test_nutty import VARIANTS

GAME = oakwood.load("nutty")
PLAYERS = [1, 2, 4, 6]
def _found(game: Game, players: int, slow: bool) -> list[State]:
    seeds = range(3 if not slow else 12)
    found = positions(game, players, seeds)
    if players == 1:  # random solo games stop early (``end game`` is always legal): add long ones
        found += _long_solo(game, range(10 if not slow else 40))
    return found


def _long_solo(game: Game, seeds: range, every: int = 5) -> list[State]:
    """Positions of solo games played at random by a player who never chooses ``end game``."""
    found = []
    for seed in seeds:
        rng = Rng(seed * 7 + 3)
        state = game.new_state(1, seed)
        steps = 0
        while not state.is_terminal():
            legal = [a for a in state.legal_actions(0) if str(a) != "end game"] or state.legal_actions(0)
            state.apply(0, rng.choice(legal))
            steps += 1
            if steps % every == 0:
                found.append(state.clone())
        found.append(state)
    return found


def _check(report: FuzzReport, cases: int) -> None:
    assert report.cases == cases
    assert report.refused > 0 and report.accepted > 0  # both paths really ran


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("game", [GAME, VARIANTS], ids=["default", "variants"])
def test_fuzz_notation(game: Game, players: int) -> None:
    _check(fuzz_notation(game, _found(game, players, slow=False), 40, seed=100 + players), 40)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("game", [GAME, VARIANTS], ids=["default", "variants"])
def test_fuzz_json(game: Game, players: int) -> None:
    _check(fuzz_json(game, _found(game, players, slow=False), 40, seed=200 + players), 40)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_fuzz_notation_sweep(players: int) -> None:
    for game, cases in ((GAME, 4000), (VARIANTS, 1000)):
        _check(fuzz_notation(game, _found(game, players, slow=True), cases, seed=1000 + players), cases)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_fuzz_json_sweep(players: int) -> None:
    for game, cases in ((GAME, 4000), (VARIANTS, 1000)):
        _check(fuzz_json(game, _found(game, players, slow=True), cases, seed=2000 + players), cases)
