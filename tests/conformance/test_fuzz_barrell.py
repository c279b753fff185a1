"""Fuzzing the Barrell loaders (issue 8): mutated notation and mutated saved JSON either raise the documented
error or load into a state that passes the kit's checks and whose random playout ends with every invariant
intact — for 2, 3 and 4 players, under the default rules and under a variant set that turns the mulligan and
the heart gifts into commits (``tests/conformance/fuzz.py`` does the mutating and the checking).

The default run tries 300 cases per entry point; the ``slow`` sweep (``pytest -m slow``) 12,000."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import oakwood
from oakwood.engine import Game, State
from tests.conformance.fuzz import FuzzReport, fuzz_json, fuzz_notation, positions

VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "commits": {
        "mulligan_mode": "simultaneous",
        "heart_gift": "split_per_card",
        "jos_initiator_may_look": True,
        "joker_timing": "after_provisional_score",
        "kh_given_with_hearts": True,
        "jod_scope": "cards_on_table_only",
        "battle_tie": "all_tied_win",
    },
}
PLAYERS = (2, 3, 4)
DEFAULT_CASES = 50  # per variant and player count: 300 per entry point
SLOW_CASES = 2000  # 12,000 per entry point
ENTRY_POINTS = {"notation": fuzz_notation, "json": fuzz_json}


@cache
def _pool(variant: str, players: int) -> tuple[Game[Any], tuple[State, ...]]:
    """The game and the positions met in a few seeded random games, the mutations' starting points."""
    game = oakwood.load("barrell", **VARIANTS[variant])
    return game, tuple(positions(game, players, range(4)))


def _sweep(entry: str, variant: str, cases: int, seed: int) -> FuzzReport:
    """``cases`` mutated inputs per player count through one entry point; both outcomes must occur."""
    total = FuzzReport()
    for players in PLAYERS:
        game, pool = _pool(variant, players)
        report = ENTRY_POINTS[entry](game, list(pool), cases, seed + players)
        total.refused += report.refused
        total.accepted += report.accepted
    assert total.cases == cases * len(PLAYERS)
    assert total.refused > 0 and total.accepted > 0  # refusals and real positions both really happened
    return total


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_fuzz(entry: str, variant: str) -> None:
    _sweep(entry, variant, DEFAULT_CASES, seed=0)


@pytest.mark.slow
@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_fuzz_sweep(entry: str) -> None:
    refused = accepted = 0
    for variant in VARIANTS:
        report = _sweep(entry, variant, SLOW_CASES, seed=1000)
        refused += report.refused
        accepted += report.accepted
    print(f"\nbarrell {entry}: {refused + accepted} cases, {refused} refused, {accepted} accepted")
    assert refused + accepted >= 5000
