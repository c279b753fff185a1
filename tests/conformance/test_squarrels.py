"""The conformance kit on S'Quarrels: hundreds of seeded random games for every player count 2–6."""

from __future__ import annotations

import json

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

#: SQ-26: a custom deck of 98 cards, heavy in Action cards (10 Quarrels, 10 Hoards, 8 Ambushes, 4 Whirlwinds),
#: still dealing 7 Number cards to each of 6 players.
CUSTOM_DECK = oakwood.load(
    "squarrels",
    single_round=True,
    deck_composition=json.dumps(
        {"R": 1, "1": 20, "2": 16, "3": 12, "4": 8, "5": 6, "G": 1, "Q": 10, "H": 10, "A": 8, "V": 4, "W": 1}
    ),
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


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_custom_deck(players: int) -> None:
    reports = _sweep(CUSTOM_DECK, players, range(3000, 3020), deep_every=40)
    assert all(r.terminal for r in reports)
    assert sum(r.deep_checks for r in reports) > len(reports)
    assert sum(r.hidden_resampled for r in reports) > len(reports)
    check_same_seed(CUSTOM_DECK, players, 3000)
