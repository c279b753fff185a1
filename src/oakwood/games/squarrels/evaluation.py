"""A cheap evaluation of who is ahead in a S'Quarrels position, for search (``Game.estimate_returns``).

ISMCTS stops its random playouts long before Winter, so it needs a guess at each seat's chance to win from an
unfinished position. The guess projects each seat's round score — stored sets (SQ-16), the Golden and the
Rotten in hand (+5 / −5), and what its hand may still store (pairs and singles toward sets of three) — adds
it to the totals of a match, and turns the projected scores into win shares with a softmax whose softness
shrinks as the target comes near (early leads count for less than late ones).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from .cards import GOLDEN, ROTTEN, SET_SIZE, SPECIAL_BONUS

if TYPE_CHECKING:
    from .state import SQuarrelsState

#: How much of a set's value a hand's cards of one value are worth: 0, 1 or 2 cards toward a set (three or
#: more are a set ready to store, worth nearly its full value; more than three count again from one).
_TOWARD_SET: Final = (0.0, 0.12, 0.4, 0.9)
#: The Golden and the Rotten in hand are likely but not sure to be there at Winter (a Quarrel, an Ambush or a
#: Whirlwind can move them; the Rotten can be dumped as a last card).
_SPECIAL_WEIGHT: Final = 0.8
#: The softness (points) of the round-score softmax: a lead of this many points takes about 73 % of two seats.
_ROUND_SOFTNESS: Final = 3.0
#: In a match, each point still to go to the target adds this much softness: far from the target, today's
#: lead is worth little.
_SOFTNESS_PER_POINT_TO_GO: Final = 0.2


def projected_round_score(state: SQuarrelsState, seat: int) -> float:
    """The seat's round score if Winter came now, plus the stored value its hand may still reach."""
    per_card = state.opts.set_scoring == "per_card"
    scale = SET_SIZE if per_card else 1
    total = 0.0
    for entry in state.storage[seat]:
        total += entry % 10
    hand = state.hands[seat]
    toward = _TOWARD_SET
    for value in range(1, GOLDEN):
        count = hand[value]
        if count:
            sets, rest = divmod(count, SET_SIZE)
            total += value * (sets * toward[SET_SIZE] + toward[rest])
    total *= scale
    if hand[GOLDEN]:
        total += SPECIAL_BONUS * _SPECIAL_WEIGHT
    if hand[ROTTEN]:
        total -= SPECIAL_BONUS * _SPECIAL_WEIGHT
    return total


def estimate_returns(state: SQuarrelsState) -> list[float]:
    """Each seat's win share in [0, 1] (they sum to 1): exactly ``returns()`` once the match is over."""
    n = state.num_players
    if state.is_terminal():
        returns = state.returns()
        total = sum(returns)
        return [r / total for r in returns] if total > 0 else [1.0 / n] * n
    projected = [projected_round_score(state, s) for s in range(n)]
    softness = _ROUND_SOFTNESS
    if not state.opts.single_round:
        totals = state.totals
        projected = [p + t for p, t in zip(projected, totals, strict=True)]
        to_go = state.opts.target_score - max(projected)
        if to_go > 0:
            softness += _SOFTNESS_PER_POINT_TO_GO * to_go
    top = max(projected)
    weights = [math.exp((p - top) / softness) for p in projected]
    whole = sum(weights)
    return [w / whole for w in weights]
