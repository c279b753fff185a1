"""The solo game's shortcuts for speed give exactly what the general code gives (benchmarks/README.md)."""

from __future__ import annotations

import oakwood
from oakwood.games.nutty.solo import SoloState


def test_a_fresh_solo_game_lists_what_the_rules_list() -> None:
    for options in ({}, {"solo_keep_events": True}):
        game = oakwood.load("nutty", **options)
        for seed in range(20):
            state = game.new_state(1, seed)
            assert isinstance(state, SoloState)
            expected = tuple(sorted(state._actions(), key=lambda a: game.codec.encode(a)))
            assert state.legal_actions(0) == expected
