"""Determinization: a world consistent with one seat's observation, everything it cannot see re-sampled.

Hidden from a seat are the cards whose ``known`` mask lacks it: other hands and set-aside cards, face-down
field cards it has not seen (after a J♠ trade too), and the whole Deck. Each hidden card sits in a *slot*
(a zone position with its knowledge mask and J♦ mark); the cards are pooled and dealt back into the same
slots, so sizes and knowledge stay identical. The one public fact about face-down cards is that they are
not Jacks (Jacks are always played face up, BR-3), so face-down slots receive non-Jacks only. Hidden
choices of other seats (heart recipients, a simultaneous mulligan) are re-sampled too; the engine gives the
world a generator (and a past) of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oakwood.engine import Rng

from .cards import BIT, IS_JACK, cards_of
from .phases import HEARTS, MULLIGAN_PHASE

if TYPE_CHECKING:
    from .state import BarrellState


def determinize(state: BarrellState, seat: int, rng: Rng) -> BarrellState:
    """A clone of ``state`` re-sampled for ``seat`` (see the module docstring)."""
    world = state.clone()
    bit = 1 << seat
    if world.phase == MULLIGAN_PHASE and world.game.options.mulligan_mode == "simultaneous":
        # Another seat's cards set aside so far are a secret choice in progress: pooled with its hand, so the
        # world does not depend on how many there are (``_resample_choices`` sets some aside again).
        for p in range(world.num_players):
            if p != seat:
                world.hands[p] |= world.aside[p]
                world.aside[p] = 0
    known = world.known
    jd_cover = world.jd_cover
    face_down_slots: list[tuple[int, int, int, bool]] = []  # (field owner, index, knowledge, J♦ mark)
    pooled: list[int] = []
    hand_slots: list[tuple[int, int]] = []  # (seat, knowledge)
    aside_slots: list[tuple[int, int]] = []
    for p in range(world.num_players):
        if p == seat:
            continue
        for card in cards_of(world.hands[p]):
            if not known[card] & bit:
                hand_slots.append((p, known[card]))
                world.hands[p] &= ~BIT[card]
                pooled.append(card)
        for card in cards_of(world.aside[p]):
            if not known[card] & bit:
                aside_slots.append((p, known[card]))
                world.aside[p] &= ~BIT[card]
                pooled.append(card)
    for p, field in enumerate(world.fields):
        for i, card in enumerate(field):
            if not world.face_up & BIT[card] and not known[card] & bit:
                face_down_slots.append((p, i, known[card], bool(jd_cover & BIT[card])))
                jd_cover &= ~BIT[card]
                pooled.append(card)
    pooled.extend(world.deck)
    # Face-down slots take non-Jacks; every other slot takes any of the rest. Sorted before shuffling, so the
    # world depends only on what the seat knows (and ``rng``), not on where the hidden cards really are.
    pooled.sort()
    rng.shuffle(pooled)
    non_jacks = [c for c in pooled if not IS_JACK[c]]
    down_cards = non_jacks[: len(face_down_slots)]
    chosen = 0
    for card in down_cards:
        chosen |= BIT[card]
    rest = [c for c in pooled if not chosen & BIT[c]]
    for (p, i, who, covered), card in zip(face_down_slots, down_cards, strict=True):
        world.fields[p][i] = card
        known[card] = who
        if covered:
            jd_cover |= BIT[card]
    world.jd_cover = jd_cover
    position = 0
    for p, who in hand_slots:
        card = rest[position]
        position += 1
        world.hands[p] |= BIT[card]
        known[card] = who
    for p, who in aside_slots:
        card = rest[position]
        position += 1
        world.aside[p] |= BIT[card]
        known[card] = who
    world.deck = rest[position:]
    for card in world.deck:
        known[card] = 0
    _resample_choices(world, seat, rng)
    return world


def _resample_choices(world: BarrellState, seat: int, rng: Rng) -> None:
    """Other seats' hidden commits: re-choose them among their legal choices."""
    options = world.game.options
    n = world.num_players
    if world.phase == MULLIGAN_PHASE and options.mulligan_mode == "simultaneous":
        for p in range(n):
            if p == seat or not world.need >> p & 1:
                continue
            held = cards_of(world.hands[p] | world.aside[p])
            cap = min(3, len(held))
            done = bool(world.committed >> p & 1)
            count = rng.randbelow(cap + 1) if done else rng.randbelow(cap)
            rng.shuffle(held)
            world.aside[p] = sum(BIT[c] for c in held[:count])
            world.hands[p] = sum(BIT[c] for c in held[count:])
    elif world.phase == HEARTS and options.heart_gift_timing == "simultaneous":
        for p in range(n):
            if p == seat or not world.need >> p & 1:
                continue
            others = [t for t in range(n) if t != p]
            cards = cards_of(world.to_give[p])
            done = bool(world.committed >> p & 1)
            if options.heart_gift == "one_opponent":
                world.gift_target[p] = rng.choice(others) if done else -1
                continue
            for card in cards:
                world.card_target.pop(card, None)
            assigned = cards if done else cards[: rng.randbelow(len(cards))]
            for card in assigned:
                world.card_target[card] = rng.choice(others)
