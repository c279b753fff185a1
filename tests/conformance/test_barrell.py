"""The conformance kit over Barrell: hundreds of seeded random games for 2, 3 and 4 players, under the
default rules and under every named variant (RULINGS §2)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import oakwood
from oakwood.games.barrell.cards import NAMES
from tests.conformance.kit import KitReport, check_game, check_same_seed

#: Every variant switched on at least once (two option sets cover all of them together).
VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "variants_a": {
        "mulligan_mode": "simultaneous",
        "discard_recycle": "every_battle",
        "heart_gift": "split_per_card",
        "queen_zone_order": "seat_order",
        "kod_scope": "global",
        "kh_timing": "before_scoring",
        "kh_given_with_hearts": True,
        "jos_initiator_may_look": True,
        "jod_scope": "cards_on_table_only",
        "joker_timing": "after_provisional_score",
        "battle_tie": "all_tied_win",
    },
    "variants_b": {
        "heart_gift_timing": "seat_order",
        "heart_gift": "split_per_card",
        "kod_ignores_hearts": True,
        "kc_after_queen": False,
        "jos_mode": "rotate_all",
        "jod_suppresses_ace_bonus": True,
        "max_consecutive_drawn_battles": 1,
    },
    # BR-24: a 44-card subset (every face card and both Jokers kept, ten numbered cards left out): the deal,
    # conservation, worlds and the notation reader follow the option's deck.
    "custom_deck": {
        "deck_composition": json.dumps(
            {name: 1 for name in NAMES if name not in ("2C", "3C", "4C", "5C", "6D", "7D", "8H", "9H", "10S", "AS")}
        ),
    },
}
#: (variant, games per player count, deep-check rate): 3 × (80 + 25 + 25 + 12) = 426 games.
PLAN = [("default", 80, 12), ("variants_a", 25, 8), ("variants_b", 25, 8), ("custom_deck", 12, 8)]
CHUNKS = 2


def _sweep(variant: str, players: int, chunk: int) -> list[KitReport]:
    name, games, deep_every = next(p for p in PLAN if p[0] == variant)
    game = oakwood.load("barrell", **VARIANTS[name])
    seeds = range(chunk, games, CHUNKS)
    return [check_game(game, players, 1000 * players + seed, deep_every=deep_every) for seed in seeds]


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", [p[0] for p in PLAN])
def test_conformance_sweep(variant: str, players: int, chunk: int) -> None:
    reports = _sweep(variant, players, chunk)
    assert all(r.terminal for r in reports)
    assert sum(r.deep_checks for r in reports) > len(reports)  # deep checks really ran
    assert sum(r.hidden_resampled for r in reports) > len(reports)  # determinize really re-sampled
    decisions = set().union(*(r.decisions for r in reports))
    assert "turn" in decisions
    if players > 2 and variant != "variants_b":
        assert "commit" in decisions  # heart gifts (and the simultaneous mulligan) are commits


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_same_seed(variant: str, players: int) -> None:
    check_same_seed(oakwood.load("barrell", **VARIANTS[variant]), players, 11)
