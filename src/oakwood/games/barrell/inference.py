"""Barrell's hook for inference (``oakwood.agents.inference``): carry a particle's hidden cards into a fresh world.

A particle is a world the seat thought possible, advanced through what the opponents did; where chance broke
its trail (the seat's own draws, the dice) or a reveal showed it wrong, the filter carries what it believed
into a fresh world of the real position (``determinize``, uniform): ``carry`` moves each card the particle
puts in another seat's hand, among its set-aside cards or in a face-down slot of the table to that same place
in the fresh world, by swapping it with a card there, wherever what the seat knows allows it:

- both cards are hidden from the seat in the fresh world (a card it can see never moves);
- a card lands face down only if it is not a Jack (Jacks are always played face up, BR-3);
- a recalled card (BR-23: known to be in its player's hand, among the cards it set aside or among those it
  played face down) lands only in one of those places of that player;
- knowledge and the J♦ mark belong to the slot, not to the card (as ``determinize`` deals them), so they stay.

So the result is a world ``determinize`` could have dealt: the seat's observation is unchanged (the tests check
it on every carried world of whole games), and only *where the hidden cards lie* comes from the particle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oakwood.engine import State

from .cards import BIT, IS_JACK, cards_of

if TYPE_CHECKING:
    from .state import BarrellState

# A place of a hidden card: (kind, seat or field owner, index). Kinds: a hand, the cards set aside, a face-down
# field slot (index: its position in the field), the Deck (index: its position). Hands and aside are sets: their
# index is 0.
HAND, ASIDE, DOWN, DECK = 0, 1, 2, 3
Place = tuple[int, int, int]


def hidden_places(world: BarrellState, seat: int) -> dict[int, Place]:
    """Where each card hidden from ``seat`` lies in ``world``."""
    bit = 1 << seat
    known = world.known
    places: dict[int, Place] = {}
    for p in range(world.num_players):
        if p == seat:
            continue
        for card in cards_of(world.hands[p]):
            if not known[card] & bit:
                places[card] = (HAND, p, 0)
        for card in cards_of(world.aside[p]):
            if not known[card] & bit:
                places[card] = (ASIDE, p, 0)
    for owner, field in enumerate(world.fields):
        for i, card in enumerate(field):
            if not world.face_up & BIT[card] and not known[card] & bit:
                places[card] = (DOWN, owner, i)
    for i, card in enumerate(world.deck):
        places[card] = (DECK, -1, i)
    return places


def carry(belief: State, world: State, seat: int) -> State:
    """``world`` with the hidden cards moved to where ``belief`` has them, as far as ``seat``'s knowledge allows
    (see the module docstring). ``world`` is a fresh world of the real position; it is not changed."""
    return _carry(belief, world, seat)  # type: ignore[arg-type]


def _carry(belief: BarrellState, world: BarrellState, seat: int) -> BarrellState:
    out = world.clone()
    out.private_hands = 0  # a cache of which hands are private, as determinize resets it
    places = hidden_places(out, seat)
    wanted = hidden_places(belief, seat)
    # Per player, the cards it is recalled to hold (hand, aside or its face-down plays): they may move only there.
    recalled: dict[int, int] = {}
    for p in range(out.num_players):
        for card in cards_of(out.recall[p]):
            if card in places:
                recalled[card] = p
    slot_player: dict[Place, int] = {}
    for card, place in places.items():
        if place[0] == DOWN:
            slot_player[place] = out.player_of(card, place[1])

    def allowed(card: int, place: Place) -> bool:
        kind, who, _ = place
        if kind == DOWN and IS_JACK[card]:
            return False
        holder = recalled.get(card, -1)
        if holder < 0:
            return True
        if kind in (HAND, ASIDE):
            return who == holder
        return kind == DOWN and slot_player[place] == holder

    def settled(card: int) -> bool:
        """Whether ``card`` already lies where the belief has it (it must then stay)."""
        target = wanted.get(card)
        return target is not None and target[0] != DECK and places.get(card) == target

    # The belief's face-down cards first (a slot is one place), then hands and aside; never the Deck (its order
    # is known to nobody: the fresh world's is as good as any).
    targets = sorted(
        ((card, place) for card, place in wanted.items() if place[0] != DECK and card in places),
        key=lambda item: (item[1][0] != DOWN, item[1], item[0]),
    )
    by_place: dict[Place, list[int]] = {}
    for card, place in places.items():
        by_place.setdefault(place, []).append(card)
    for cards in by_place.values():
        cards.sort()
    for card, target in targets:
        here = places[card]
        if here == target or target not in by_place:
            continue  # already there, or the fresh world has no such place (the table has changed)
        if not allowed(card, target):
            continue
        for other in by_place[target]:
            if other == card or settled(other) or not allowed(other, here):
                continue
            _swap(out, card, here, other, target)
            by_place[here].remove(card)
            by_place[here].append(other)
            by_place[target].remove(other)
            by_place[target].append(card)
            places[card], places[other] = target, here
            break
    return out


def _swap(world: BarrellState, card: int, here: Place, other: int, there: Place) -> None:
    """Put ``card`` (now at ``here``) at ``there`` and ``other`` (now at ``there``) at ``here``; the knowledge mask
    and the J♦ mark stay with the slots."""
    _remove(world, card, here)
    _remove(world, other, there)
    _put(world, other, here)
    _put(world, card, there)
    known = world.known
    known[card], known[other] = known[other], known[card]
    cover = world.jd_cover
    card_covered, other_covered = bool(cover & BIT[card]), bool(cover & BIT[other])
    cover &= ~(BIT[card] | BIT[other])
    if card_covered:
        cover |= BIT[other]
    if other_covered:
        cover |= BIT[card]
    world.jd_cover = cover


def _remove(world: BarrellState, card: int, place: Place) -> None:
    kind, who, _ = place
    if kind == HAND:
        world.hands[who] &= ~BIT[card]
    elif kind == ASIDE:
        world.aside[who] &= ~BIT[card]


def _put(world: BarrellState, card: int, place: Place) -> None:
    kind, who, index = place
    if kind == HAND:
        world.hands[who] |= BIT[card]
    elif kind == ASIDE:
        world.aside[who] |= BIT[card]
    elif kind == DOWN:
        world.fields[who][index] = card
    else:
        world.deck[index] = card
