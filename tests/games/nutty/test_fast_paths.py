"""Nutty's shortcuts for speed (the solo game's, the observation's) give exactly what the general code gives
(benchmarks/README.md)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import oakwood
from oakwood.engine import Game
from oakwood.games.nutty import reach
from oakwood.games.nutty.actions import END_GAME
from oakwood.games.nutty.solo import SoloState


def test_a_fresh_solo_game_lists_what_the_rules_list() -> None:
    for options in ({}, {"solo_keep_events": True}):
        game = oakwood.load("nutty", **options)
        for seed in range(20):
            state = game.new_state(1, seed)
            assert isinstance(state, SoloState)
            expected = tuple(sorted(state._compute_legal(), key=lambda a: game.codec.encode(a)))
            assert state.legal_actions(0) == expected


def _long_solo_positions(seeds: int) -> Iterator[tuple[Game[Any], SoloState]]:
    """Every position of long random solo games (never ``end game`` while another move remains), under the
    defaults and under options that reach more branches (events kept, the lateral Lasso)."""
    for options in ({}, {"solo_keep_events": True, "lasso_lateral_with_flying": True}):
        game = oakwood.load("nutty", **options)
        for seed in range(seeds):
            chooser = random.Random(seed)
            state = game.new_state(1, seed)
            while not state.is_terminal():
                assert isinstance(state, SoloState)
                yield game, state
                legal = [a for a in state.legal_actions(0) if a is not END_GAME] or list(state.legal_actions(0))
                state.apply(0, chooser.choice(legal))


def test_the_end_check_shortcuts_agree_with_the_walk() -> None:
    # At every position the shortcuts of ``can_gain`` answer what the walk answers.
    checked = 0
    for _, state in _long_solo_positions(15):
        assert reach.can_gain(state) == reach.search(state)
        checked += 1
    assert checked > 300


def _containers(value: object) -> list[object]:
    """Every list and dict inside an observation, itself included."""
    if isinstance(value, dict):
        return [value, *(c for v in value.values() for c in _containers(v))]
    if isinstance(value, list):
        return [value, *(c for v in value for c in _containers(v))]
    return []


def test_observations_put_each_squirrel_on_its_card_and_share_nothing() -> None:
    # ``observe_tree`` places the squirrels in one pass over the seats: each card lists exactly the seats whose
    # board stands there, in seat order; and no list or dict is shared between two observations (callers mutate).
    checked = 0
    for players in (1, 3, 6):
        game = oakwood.load("nutty")
        for seed in range(3):
            chooser = random.Random(seed)
            state = game.new_state(players, seed)
            for _ in range(150):
                if state.is_terminal():
                    break
                seat = state.to_act()[0]
                view = state.observe(seat)
                for limb, row in enumerate(view["tree"]):
                    for pos, card in enumerate(row):
                        here = f"L{limb + 1}c{pos + 1}"
                        assert card["squirrels"] == [s for s, b in enumerate(view["boards"]) if b["at"] == here]
                        checked += len(card["squirrels"])
                again = {id(c) for c in _containers(state.observe(None))}
                assert not any(id(c) in again for c in _containers(view))
                legal = [a for a in state.legal_actions(seat) if a is not END_GAME] or list(state.legal_actions(seat))
                state.apply(seat, chooser.choice(legal))
    assert checked > 100


def test_solo_legal_actions_come_in_codec_order_without_a_sort() -> None:
    # The solo listing appends in codec order and sorts only after the branches that can break it (Flying, a
    # flip underfoot, the Lasso, paid moves, the market): at every position of long random games it is strictly
    # in codec order (sorted, nothing listed twice).
    checked = 0
    for game, state in _long_solo_positions(25):
        legal = state.legal_actions(0)
        indices = [game.codec.encode(a) for a in legal]
        assert indices == sorted(set(indices)), [str(a) for a in legal]
        checked += 1
    assert checked > 1000
