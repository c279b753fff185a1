"""Conformance sweep for Nutty Squirrels: the generic kit over solo, 2, 4 and 6 players, plus variants.

Random play rarely ends a solo game late (``end game`` is always legal), so long solo games are also played
with the kit's own checks by a random player that seldom stops.
"""

from __future__ import annotations

import pytest

import oakwood
from oakwood.engine import Rng
from tests.conformance.kit import (
    KitReport,
    check_game,
    check_replay,
    check_round_trips,
    check_same_seed,
    check_step_basics,
    check_terminal,
    deep_check,
)

GAME = oakwood.load("nutty")
VARIANTS = oakwood.load(
    "nutty",
    break_tokens_beyond="slide_to_break",
    wind_gust_turn_end="always",
    fools_gold_includes_backpack=False,
    arborist_mode="chain",
    lasso_lateral_with_flying=True,
    doppelganger_duration="single_use",
    doppel_sticky="take_tracked_loot",
    end_trigger="all_cards_revealed",
    max_rounds=25,
    win_at_20="finish_round",
    tb_golden_scope="all_possessed",
    solo_keep_events=True,
)

# (players, first seed, seeds, deep_every): at least a hundred games per player count, about a minute on two cores.
SWEEPS = [
    (1, 0, 150, 4),
    (1, 150, 150, 4),
    (2, 0, 60, 150),
    (2, 60, 60, 150),
    (4, 0, 50, 250),
    (4, 50, 50, 250),
    (6, 0, 35, 300),
    (6, 35, 35, 300),
    (6, 70, 35, 300),
]


def _sweep(game: oakwood.engine.Game, players: int, first: int, count: int, deep_every: int) -> list[KitReport]:
    return [check_game(game, players, seed, deep_every=deep_every) for seed in range(first, first + count)]


@pytest.mark.parametrize(("players", "first", "count", "deep_every"), SWEEPS)
def test_kit_default_rules(players: int, first: int, count: int, deep_every: int) -> None:
    reports = _sweep(GAME, players, first, count, deep_every)
    assert all(r.terminal for r in reports)
    assert sum(r.deep_checks for r in reports) >= count // 2
    assert sum(r.hidden_resampled for r in reports) > 0
    assert {d for r in reports for d in r.decisions} == {"turn"}


@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_kit_variants(players: int) -> None:
    reports = _sweep(VARIANTS, players, 0, 40 if players == 1 else 6, 4 if players == 1 else 100)
    assert all(r.terminal for r in reports)
    assert sum(r.deep_checks for r in reports) > 0
    assert sum(r.hidden_resampled for r in reports) > 0


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_same_seed(players: int) -> None:
    check_same_seed(GAME, players, 11)


def _long_solo(game: oakwood.engine.Game, seed: int, deep_every: int) -> KitReport:
    """A solo game where the random player only ends the game when nothing else is legal."""
    rng = Rng(seed * 31 + 7)
    state = game.new_state(1, seed)
    report = KitReport()
    while not state.is_terminal():
        check_step_basics(state)
        if rng.randbelow(deep_every) == 0:
            deep_check(state, rng, report)
        legal = state.legal_actions(0)
        playable = [a for a in legal if str(a) != "end game"] or legal
        state.apply(0, rng.choice(playable))
        report.steps += 1
        assert report.steps < 20_000
    report.terminal = True
    state.check_invariants()
    check_terminal(state)
    check_round_trips(state, rng)
    check_replay(state)
    return report


@pytest.mark.parametrize("game", [GAME, VARIANTS], ids=["default", "variants"])
def test_long_solo_games(game: oakwood.engine.Game) -> None:
    reports = [_long_solo(game, seed, 20) for seed in range(25)]
    assert sum(r.steps for r in reports) > 25 * 20
    assert sum(r.deep_checks for r in reports) > 10
    assert sum(r.hidden_resampled for r in reports) > 0
