"""S'Quarrels' hook for inference (``oakwood.agents.inference``): carry a particle's hidden hands into a fresh world.

Where chance broke a particle's trail (the seat drew a card, a Quarrel was dealt) the filter carries what the
particle believed into a fresh world of the real position (``determinize``, uniform). Here that is the other
seats' hands, which are count vectors of card kinds: ``carry`` moves each other hand of the fresh world towards
the particle's hand of the same seat, kind by kind, by trading one card of the hand for one card of the Deck
(whose order nobody knows, so any card of it may trade), as long as

- a kind the seat knows that hand holds (``knowledge.py``, SQ-24) never falls below what it knows there;
- Action cards (only ever in the Deck) never move;

so the result is a world ``determinize`` could have dealt: hand sizes, the seat's observation and every card's
count are unchanged (the tests check it), only which hidden cards lie in which hand comes from the particle.
The cards of a pending Quarrel play and the Hoard Pile stay as the fresh world dealt them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oakwood.engine import State

from . import knowledge as K
from .cards import HAND_KINDS
from .state import NO_SEAT

if TYPE_CHECKING:
    from .state import SQuarrelsState


def carry(belief: State, world: State, seat: int) -> State:
    """``world`` with each other hand traded towards ``belief``'s, as far as ``seat``'s knowledge allows (see the
    module docstring). ``world`` is a fresh world of the real position; it is not changed."""
    return _carry(belief, world, seat)  # type: ignore[arg-type]


def _carry(belief: SQuarrelsState, world: SQuarrelsState, seat: int) -> SQuarrelsState:
    out = world.clone()  # hands and the Deck are copied by the clone
    known = out.knowledge()
    deck = out.deck
    for s in range(out.num_players):
        if s == seat:
            continue
        hand, wanted = out.hands[s], belief.hands[s]
        floor = K.held(known, seat, s) if known else (0,) * HAND_KINDS
        short = [kind for kind in range(HAND_KINDS) for _ in range(max(wanted[kind] - hand[kind], 0))]
        spare = [kind for kind in range(HAND_KINDS) for _ in range(max(hand[kind] - max(wanted[kind], floor[kind]), 0))]
        for need, give in zip(short, spare, strict=False):
            at = _position(deck, need)
            if at < 0:
                continue  # none of that kind left in the Deck (it lies in another hand or the Hoard Pile)
            deck[at] = give
            hand[need] += 1
            hand[give] -= 1
    out._cache_seat = NO_SEAT  # the legal-move caches describe the hands before the trade
    out._act_cache = None
    return out


def _position(deck: list[int], kind: int) -> int:
    """Where a card of ``kind`` lies in ``deck`` (the first from the top), or -1."""
    for i in range(len(deck) - 1, -1, -1):
        if deck[i] == kind:
            return i
    return -1
