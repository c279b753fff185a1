"""Fuzzing the S'Quarrels loaders: a mutated notation or saved state is refused, or it is a real position.

``tests/conformance/fuzz.py`` mutates positions met in seeded random playouts and feeds them to
``from_notation`` and ``from_json``; each must raise ``InvalidNotationError`` or load a state that passes the
kit's checks along a random playout to the end. The default run tries a few hundred cases per entry point
over several player counts and option sets; the ``slow`` sweep (``pytest -m slow``) tries 5,000 per entry
point for each option set.
"""

from __future__ import annotations

from typing import Any

import pytest

from oakwood.engine import Game
from tests.conformance.fuzz import FuzzReport, fuzz_json, fuzz_notation, positions
from tests.conformance.test_squarrels import FULL_MATCH, OTHER_VARIANTS, SINGLE_ROUND, VARIANTS

RULESETS: dict[str, Game[Any]] = {
    "single_round": SINGLE_ROUND,
    "full_match": FULL_MATCH,
    "variants": VARIANTS,
    "other_variants": OTHER_VARIANTS,
}
ENTRY_POINTS = {"notation": fuzz_notation, "json": fuzz_json}
#: The default run: one player count per ruleset, every count from 2 to 6 covered.
QUICK = [("single_round", 2), ("full_match", 4), ("variants", 3), ("other_variants", 6), ("single_round", 5)]
QUICK_CASES = {"notation": 160, "json": 80}
SLOW_CASES_PER_COUNT = 1000  # five player counts: 5,000 cases per entry point and ruleset


def _fuzz(entry: str, ruleset: str, players: int, cases: int, seed: int) -> FuzzReport:
    game = RULESETS[ruleset]
    found = positions(game, players, range(seed, seed + 4))
    report = ENTRY_POINTS[entry](game, found, cases, seed)
    assert report.cases == cases
    return report


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize(("ruleset", "players"), QUICK)
def test_mutated_inputs_are_refused_or_real_positions(entry: str, ruleset: str, players: int) -> None:
    report = _fuzz(entry, ruleset, players, QUICK_CASES[entry], seed=players)
    assert report.refused > 0 and report.accepted > 0  # both paths really ran


@pytest.mark.slow
@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_slow_sweep_of_mutated_inputs(entry: str, ruleset: str) -> None:
    total = FuzzReport()
    for players in range(2, 7):
        report = _fuzz(entry, ruleset, players, SLOW_CASES_PER_COUNT, seed=1000 + players)
        total.refused += report.refused
        total.accepted += report.accepted
    assert total.cases >= 5000
    assert total.refused > 0 and total.accepted > 0
