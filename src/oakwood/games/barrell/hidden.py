"""Determinization: a world consistent with one seat's observation, everything it cannot see re-sampled.

Hidden from a seat are the cards whose ``known`` mask lacks it: other hands and set-aside cards, face-down
field cards it has not seen (after a J♠ trade too), and the whole Deck. Each hidden card sits in a *slot*
(a zone position with its knowledge mask and J♦ mark); the cards are pooled and dealt back into the same
slots, so sizes and knowledge stay identical. The one public fact about face-down cards is that they are
not Jacks (Jacks are always played face up, BR-3), so face-down slots receive non-Jacks only. Hidden
choices of other seats (heart recipients, a simultaneous mulligan) are re-sampled too; the engine gives the
world a generator (and a past) of its own.

Perfect recall (BR-23): a card everyone saw go into a hand stays there in every world while it is known
exactly (``known``); once its holder has played face down, it is in that hand or among the face-down cards
that holder played (``recall``), and worlds keep it there — the rest is drawn uniformly from what remains.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from oakwood.engine import Rng

from .cards import BIT, IS_JACK, cards_of
from .phases import HEARTS, MULLIGAN_PHASE

if TYPE_CHECKING:
    from .state import BarrellState


def determinize(state: BarrellState, seat: int, rng: Rng) -> BarrellState:
    """A clone of ``state`` re-sampled for ``seat`` (see the module docstring)."""
    world = state.clone()
    world.private_hands = 0  # a cache: the world's hands are dealt again below
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
    face_down_slots: list[tuple[int, int, int, bool, int]] = []  # (field owner, index, knowledge, J♦ mark, player)
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
                face_down_slots.append((p, i, known[card], bool(jd_cover & BIT[card]), world.player_of(card, p)))
                jd_cover &= ~BIT[card]
                pooled.append(card)
    pooled.extend(world.deck)
    hand_pins, aside_pins, down_pins = _place_recalled(
        world, seat, hand_slots, aside_slots, face_down_slots, pooled, rng
    )
    pinned = 0
    for card in (*hand_pins.values(), *aside_pins.values(), *down_pins.values()):
        pinned |= BIT[card]
    free = [c for c in pooled if not pinned & BIT[c]] if pinned else pooled
    # Face-down slots take non-Jacks; every other slot takes any of the rest. Sorted before shuffling, so the
    # world depends only on what the seat knows (and ``rng``), not on where the hidden cards really are.
    free.sort()
    rng.shuffle(free)
    non_jacks = [c for c in free if not IS_JACK[c]]
    down_cards = non_jacks[: len(face_down_slots) - len(down_pins)]
    chosen = 0
    for card in down_cards:
        chosen |= BIT[card]
    rest = [c for c in free if not chosen & BIT[c]]
    position = 0
    for index, (p, i, who, covered, _player) in enumerate(face_down_slots):
        card = down_pins.get(index, -1)
        if card < 0:
            card = down_cards[position]
            position += 1
        world.fields[p][i] = card
        known[card] = who
        if covered:
            jd_cover |= BIT[card]
    world.jd_cover = jd_cover
    position = 0
    for index, (p, who) in enumerate(hand_slots):
        card = hand_pins.get(index, -1)
        if card < 0:
            card = rest[position]
            position += 1
        world.hands[p] |= BIT[card]
        known[card] = who
    for index, (p, who) in enumerate(aside_slots):
        card = aside_pins.get(index, -1)
        if card < 0:
            card = rest[position]
            position += 1
        world.aside[p] |= BIT[card]
        known[card] = who
    world.deck = rest[position:]
    for card in world.deck:
        known[card] = 0
    _resample_choices(world, seat, rng)
    return world


def _completions(free: int, free_jacks: int, down: int) -> int:
    """How many ways ``free`` cards (``free_jacks`` of them Jacks) fill ``down`` face-down slots (non-Jacks
    only) and the ``free - down`` other slots."""
    return math.perm(free - free_jacks, down) * math.factorial(free - down)


def _place_recalled(
    world: BarrellState,
    seat: int,
    hand_slots: list[tuple[int, int]],
    aside_slots: list[tuple[int, int]],
    face_down_slots: list[tuple[int, int, int, bool, int]],
    pooled: list[int],
    rng: Rng,
) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """BR-23: place the recalled cards hidden from ``seat`` — each in its player's hand, among the cards it set
    aside in the mulligan, or among the face-down cards it played (Jacks never lie face down) — as (hand slot →
    card, aside slot → card, face-down slot → card), uniformly among all the worlds the seat thinks possible.

    Each player's recalled cards go to its slots uniformly (Jacks first, never face down); a placement that
    puts ``k`` of them face down leaves ``_completions(…, D − k)`` ways to fill the other slots, so it is kept
    with probability proportional to that number (rejection sampling), which makes the whole world uniform."""
    bit = 1 << seat
    known = world.known
    # Per player: its candidate slots as (kind, index) — kind 0 hand, 1 aside, 2 face down — and its cards.
    groups: list[tuple[list[tuple[int, int]], list[tuple[int, int]], list[int], list[int]]] = []
    pinned = 0
    most_down = 0
    for p in range(world.num_players):
        hidden = [c for c in cards_of(world.recall[p]) if not known[c] & bit] if p != seat else []
        if not hidden:
            continue
        jacks = [c for c in hidden if IS_JACK[c]]
        others = [c for c in hidden if not IS_JACK[c]]
        up = [(0, j) for j, slot in enumerate(hand_slots) if slot[0] == p]
        up += [(1, j) for j, slot in enumerate(aside_slots) if slot[0] == p]
        downs = [(2, j) for j, slot in enumerate(face_down_slots) if slot[4] == p]
        groups.append((up, downs, jacks, others))
        most_down += min(len(downs), len(others))
        for card in hidden:
            pinned |= BIT[card]
    if not groups:
        return {}, {}, {}
    free = [c for c in pooled if not pinned & BIT[c]]
    free_jacks = sum(1 for c in free if IS_JACK[c])
    total_down = len(face_down_slots)
    best = _completions(len(free), free_jacks, total_down - most_down)
    while True:
        pins: tuple[dict[int, int], dict[int, int], dict[int, int]] = ({}, {}, {})
        for up, downs, jacks, others in groups:
            open_up = up[:]
            open_slots = up + downs
            for card in jacks:
                kind, index = open_up.pop(rng.randbelow(len(open_up)))
                open_slots.remove((kind, index))
                pins[kind][index] = card
            for card in others:
                kind, index = open_slots.pop(rng.randbelow(len(open_slots)))
                pins[kind][index] = card
        weight = _completions(len(free), free_jacks, total_down - len(pins[2]))
        if weight == best or rng.random() * best < weight:
            return pins


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
