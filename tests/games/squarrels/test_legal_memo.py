"""The memoised legal actions always equal a fresh computation from the rules.

The memo answers from the exact hand, or on a miss from a coarse summary of the hand (state.py): these
tests reach the summary path on purpose, with a second hand that shares the first one's summary, so a rule
that came to depend on more than the summary would fail here.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import oakwood
from oakwood.games.squarrels.cards import GOLDEN, HAND_KINDS, ROTTEN
from oakwood.games.squarrels.state import DRAWING, QUARREL, STORING, SQuarrelsState

hands = st.lists(st.integers(0, 6), min_size=HAND_KINDS, max_size=HAND_KINDS).map(
    lambda counts: [min(counts[0], 1), *counts[1:GOLDEN], min(counts[GOLDEN], 1)]  # one Rotten, one Golden
)


def position(golden_wild: bool, phase: str, forced: bool, hand: list[int]) -> SQuarrelsState:
    """A fresh 3-player deal with seat 0's hand, phase and Whirlwind flag set (only legality is asked)."""
    state = oakwood.load("squarrels", golden_wild_in_sets=golden_wild).new_state(3, seed=0)
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


def same_summary(hand: list[int]) -> list[int]:
    """Another hand the memo summarises alike: every Number held three times or more gets one more copy."""
    return [count + 1 if ROTTEN < kind < GOLDEN and count >= 3 else count for kind, count in enumerate(hand)]


@settings(max_examples=300, deadline=None)
@given(
    golden_wild=st.booleans(),
    phase=st.sampled_from([DRAWING, STORING, QUARREL]),
    forced=st.booleans(),
    hand=hands,
)
def test_memoised_legal_actions_equal_the_rules(golden_wild: bool, phase: str, forced: bool, hand: list[int]) -> None:
    if phase == QUARREL and sum(hand) == 0:
        return  # a Quarrel never includes an empty hand
    first = position(golden_wild, phase, forced, hand)
    assert first.legal_actions(0) == first._compute_legal(0)
    twin_hand = same_summary(hand)
    second = position(golden_wild, phase, forced, twin_hand)  # same game object: the memo is shared
    second.game = first.game
    second._cache_seat = -1
    assert second.legal_actions(0) == second._compute_legal(0)


def test_a_summary_hit_on_a_new_hand_fills_the_exact_memo() -> None:
    first = position(False, DRAWING, False, [0, 3, 1, 0, 0, 0, 0])
    first.legal_actions(0)
    memo = first.game.legal_memo[DRAWING]
    summaries = len(memo.by_summary)
    second = position(False, DRAWING, False, [0, 4, 1, 0, 0, 0, 0])
    second.game = first.game
    assert second.legal_actions(0) == second._compute_legal(0)
    assert len(memo.by_summary) == summaries  # answered from the summary, nothing computed
    assert (0, 4, 1, 0, 0, 0, 0) in memo.exact
