"""``Nutty.estimate_returns``: normalised, exact at the end, the same in every world, and it sees who leads."""

from __future__ import annotations

import oakwood
from oakwood.engine import Rng, State

from .helpers import board, load, play, position
from .test_scenarios import tree

LIMB = "~1,~1,~1,~2,~BB"  # the leaves the padding leaves over, and a Broken Branch


def random_play(state: State, steps: int, seed: int) -> State:
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randbelow(len(legal))])
    return state


def test_shares_are_normalised_and_exact_at_the_end() -> None:
    game = oakwood.load("nutty")
    for players in (1, 2, 4, 6):
        for seed in range(4):
            state = game.new_state(players, seed)
            while not state.is_terminal():
                values = game.estimate_returns(state)
                assert len(values) == players and all(0.0 <= v <= 1.0 for v in values)
                if players > 1:
                    assert abs(sum(values) - 1.0) < 1e-9
                random_play(state, 37, seed)
            final = game.estimate_returns(state)
            returns = state.returns()
            if players == 1:
                assert final == returns
            else:
                assert final == [r / sum(returns) for r in returns]


def test_the_same_in_every_world() -> None:
    """It reads only what every seat sees, so every world of a position scores alike."""
    game = oakwood.load("nutty")
    for players in (1, 3):
        state = random_play(game.new_state(players, 11), 60, 11)
        truth = game.estimate_returns(state)
        for k in range(10):
            world = state.determinize(0, Rng(k))
            assert game.estimate_returns(world) == truth


def test_the_leader_gets_the_larger_share() -> None:
    ahead = position(tree(LIMB), [board(burrow="4.1", nest="2.0", powers="LA"), board(burrow="3.0")])
    behind = position(tree(LIMB), [board(burrow="1.0"), board(burrow="3.0", cheeks="0.1")])
    game = oakwood.load("nutty")
    lead = game.estimate_returns(load(ahead))
    trail = game.estimate_returns(load(behind))
    assert lead[0] > 0.75 > 0.25 > lead[1]  # a lead of about nine points early on
    assert trail[0] < trail[1]


def test_banked_acorns_count_more_than_carried_ones() -> None:
    game = oakwood.load("nutty")
    nest = game.estimate_returns(load(position(tree(LIMB), [board(nest="0.1"), board(cheeks="0.1")])))
    buried = game.estimate_returns(load(position(tree(LIMB), [board(burrow="0.1"), board(nest="0.1")])))
    assert nest[0] > nest[1] and buried[0] > buried[1]


def test_solo_chance_grows_with_the_points_in_hand() -> None:
    game = oakwood.load("nutty")
    chances = []
    for nest in ("0.0", "5.0", "0.2", "4.3"):
        text = position(tree(LIMB), [board(nest=nest)], solo=True)
        chances.append(game.estimate_returns(load(text))[0])
    assert chances == sorted(chances) and chances[0] < 0.5 < chances[-1] < 1.0
    won = play(load(position(tree(LIMB), [board(nest="4.3")], solo=True)), "end game")
    assert game.estimate_returns(won) == [0.0]  # ended below 20: a loss, whatever the estimate said
