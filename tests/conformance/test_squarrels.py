"""The conformance kit on S'Quarrels: hundreds of seeded random games for every player count 2–6."""

from __future__ import annotations

import pytest

import oakwood
from tests.conformance.kit import KitReport, check_game, check_same_seed

SINGLE_ROUND = oakwood.load("squarrels", single_round=True)
FULL_MATCH = oakwood.load("squarrels", target_score=30)
VARIANTS = oakwood.load(
    "squarrels",
    single_round=True,
    setup_winter_reshuffle="winter_only",
    whirlwind_draw="mandatory_to_7",
    quarrel_winner_may_draw=True,
    quarrel_exhaustion="survivor_plays",
    golden_wild_in_sets=True,
    hoard_drawer_may_race=True,
    hoard_empty_skips=True,
    hoard_race="random",
    set_scoring="per_card",
)
OTHER_VARIANTS = oakwood.load(
    "squarrels",
    target_score=25,
    quarrel_exhaustion="any_out_draws",
    golden_lost_scope="match",
    hoard_race="seat_order",
    target_tie="shared_win",
)


def _sweep(game: oakwood.Game, players: int, seeds: range, deep_every: int) -> list[KitReport]:
    return [check_game(game, players, seed, deep_every=deep_every) for seed in seeds]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_single_round_games(players: int) -> None:
    reports = _sweep(SINGLE_ROUND, players, range(120), deep_every=40)
    assert all(r.terminal for r in reports)
    assert sum(r.deep_checks for r in reports) > 100
    assert sum(r.hidden_resampled for r in reports) > 100
    decisions = set().union(*(r.decisions for r in reports))
    assert {"turn", "commit"} <= decisions
    if players > 2:
        assert "race" in decisions


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_full_matches(players: int) -> None:
    reports = _sweep(FULL_MATCH, players, range(1000, 1020), deep_every=150)
    assert all(r.terminal for r in reports)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_variant_rules(players: int) -> None:
    for game in (VARIANTS, OTHER_VARIANTS):
        reports = _sweep(game, players, range(2000, 2040), deep_every=60)
        assert all(r.terminal for r in reports)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_same_seed_same_game(players: int) -> None:
    for seed in range(10):
        check_same_seed(SINGLE_ROUND, players, seed)
