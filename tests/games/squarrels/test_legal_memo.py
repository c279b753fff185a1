"""The memoised legal actions always equal a fresh computation from the rules.

The memo answers from the exact hand, or on a miss from a coarse summary of the hand (state.py). These tests
walk through neighbouring hands on one game object, so later hands are often answered from a summary that an
earlier hand filled: a summary too coarse for the rules would answer wrongly here.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import oakwood
from oakwood.games.squarrels.cards import GOLDEN, HAND_KINDS, ROTTEN
from oakwood.games.squarrels.state import DRAWING, QUARREL, STORING, SQuarrelsState

hands = st.lists(st.integers(0, 6), min_size=HAND_KINDS, max_size=HAND_KINDS).map(
    lambda counts: [min(counts[0], 1), *counts[1:GOLDEN], min(counts[GOLDEN], 1)]  # one Rotten, one Golden
)


def position(game: oakwood.Game[Any], phase: str, forced: bool, hand: list[int]) -> SQuarrelsState:
    """A fresh 3-player deal with seat 0's hand, phase and Whirlwind flag set (only legality is asked)."""
    state = game.new_state(3, seed=0)
    assert isinstance(state, SQuarrelsState)
    state.hands[0] = list(hand)
    state.hand_sizes[0] = sum(hand)
    state.phase = phase
    state.active = 0
    state.whirl_forced = forced
    state.q_live = (0, 1, 2)
    state._act_cache = None
    state._cache_seat = -1
    return state


def nudged(hand: list[int], kind: int, delta: int) -> list[int]:
    """``hand`` with one more or one fewer card of ``kind`` (at most one Rotten and one Golden)."""
    out = list(hand)
    out[kind] = max(0, min(out[kind] + delta, 1 if kind in (ROTTEN, GOLDEN) else 9))
    return out


@settings(max_examples=300, deadline=None)
@given(
    golden_wild=st.booleans(),
    phase=st.sampled_from([DRAWING, STORING, QUARREL]),
    forced=st.booleans(),
    hand=hands,
    nudges=st.lists(st.tuples(st.integers(0, HAND_KINDS - 1), st.sampled_from([-1, 1])), min_size=1, max_size=8),
)
def test_memoised_legal_actions_equal_the_rules(
    golden_wild: bool, phase: str, forced: bool, hand: list[int], nudges: list[tuple[int, int]]
) -> None:
    game = oakwood.load("squarrels", golden_wild_in_sets=golden_wild)
    for kind, delta in [(ROTTEN, 0), *nudges]:
        hand = nudged(hand, kind, delta)
        if phase == QUARREL and sum(hand) == 0:
            continue  # a Quarrel never includes an empty hand
        state = position(game, phase, forced, hand)
        assert state.legal_actions(0) == state._compute_legal(0), hand


def test_a_summary_hit_on_a_new_hand_fills_the_exact_memo() -> None:
    game = oakwood.load("squarrels")
    position(game, DRAWING, False, [0, 3, 1, 0, 0, 0, 0]).legal_actions(0)
    memo = game.legal_memo[DRAWING]
    summaries = len(memo.by_summary)
    second = position(game, DRAWING, False, [0, 4, 1, 0, 0, 0, 0])
    assert second.legal_actions(0) == second._compute_legal(0)
    assert len(memo.by_summary) == summaries  # answered from the summary, nothing computed
    assert (0, 4, 1, 0, 0, 0, 0) in memo.exact


def test_the_seven_card_limit_splits_hands_the_counts_alone_do_not() -> None:
    game = oakwood.load("squarrels")
    for hand in ([0, 3, 3, 0, 0, 0, 0], [0, 4, 3, 0, 0, 0, 0], [0, 3, 3, 0, 0, 0, 0], [0, 5, 3, 0, 0, 0, 0]):
        state = position(game, DRAWING, False, hand)  # 6, 7, 6, 8 cards: drawing is open only for six
        assert state.legal_actions(0) == state._compute_legal(0), hand
