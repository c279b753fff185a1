"""The solo game's shortcuts for speed give exactly what the general code gives (benchmarks/README.md)."""

from __future__ import annotations

import random

import oakwood
from oakwood.games.nutty import reach
from oakwood.games.nutty.actions import END_GAME
from oakwood.games.nutty.solo import SoloState


def test_a_fresh_solo_game_lists_what_the_rules_list() -> None:
    for options in ({}, {"solo_keep_events": True}):
        game = oakwood.load("nutty", **options)
        for seed in range(20):
            state = game.new_state(1, seed)
            assert isinstance(state, SoloState)
            expected = tuple(sorted(state._actions(), key=lambda a: game.codec.encode(a)))
            assert state.legal_actions(0) == expected


def test_the_end_check_shortcuts_agree_with_the_walk() -> None:
    # Long random solo games (never ``end game`` while another move remains) under two option sets: at every
    # position the shortcuts of ``can_gain`` answer what the walk answers.
    checked = 0
    for options in ({}, {"solo_keep_events": True, "lasso_lateral_with_flying": True}):
        game = oakwood.load("nutty", **options)
        for seed in range(15):
            chooser = random.Random(seed)
            state = game.new_state(1, seed)
            while not state.is_terminal():
                assert isinstance(state, SoloState)
                assert reach.can_gain(state) == reach.search(state)
                checked += 1
                legal = [a for a in state.legal_actions(0) if a is not END_GAME] or list(state.legal_actions(0))
                state.apply(0, chooser.choice(legal))
    assert checked > 300
