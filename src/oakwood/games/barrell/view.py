"""What one seat sees: ``observe(state, seat)`` builds the JSON observation from per-card knowledge.

A card is shown to a seat only when it is face up, public, or its ``known`` mask includes that seat; a
spectator sees what every seat knows. Hidden commits (heart recipients, a simultaneous mulligan) show only
whether each seat has committed, never what — except to that seat itself.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING, Any, Final, cast

from oakwood.engine import Decision

from .actions import MAX_SEATS
from .cards import BIT, DECK_SIZE, NAMES
from .phases import HEARTS, MULLIGAN_PHASE, OVER

if TYPE_CHECKING:
    from .game import Barrell
    from .state import BarrellState

#: ``_BYTE_NAMES[k][b]``: the names of the cards ``8k … 8k+7`` whose bits are set in the byte ``b``, ascending
#: (seven bytes hold the 54 cards).
_BYTE_NAMES: Final = tuple(
    tuple(tuple(NAMES[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < DECK_SIZE) for b in range(256))
    for k in range(7)
)
_B0, _B1, _B2, _B3, _B4, _B5, _B6 = _BYTE_NAMES
#: ``_SEES[viewer]``: a ``bytes.translate`` table mapping a ``known`` mask (a seat mask, below 256) to 1 when it
#: includes every seat of the ``viewer`` mask, else to 0.
_SEES: Final = tuple(bytes(known & viewer == viewer for known in range(256)) for viewer in range(1 << MAX_SEATS))
#: The text of each decision (what ``str`` gives, looked up rather than computed).
_DECISION_TEXT: Final = {decision: str(decision) for decision in Decision}
#: ``_SEAT_FLAGS[n][mask]``: for each of ``n`` seats, whether its bit is set in the seat mask.
_SEAT_FLAGS: Final = tuple(
    tuple(tuple(mask >> p & 1 == 1 for p in range(n)) for mask in range(1 << n)) for n in range(MAX_SEATS + 1)
)


def names_of(mask: int) -> list[str]:
    """The names of the cards in a bit mask, ascending (a new list): one table lookup per byte of the mask."""
    b0, b1, b2, b3, b4, b5, b6 = mask.to_bytes(7, "little")
    return [*_B0[b0], *_B1[b1], *_B2[b2], *_B3[b3], *_B4[b4], *_B5[b5], *_B6[b6]]


def observe(state: BarrellState, seat: int | None) -> dict[str, Any]:
    """The observation of ``seat`` (``None``: a spectator)."""
    n = state.num_players
    viewer = state.all_seats if seat is None else 1 << seat
    phase = state.phase
    simultaneous_mulligan = phase == MULLIGAN_PHASE and cast("Barrell", state.game).simultaneous_mulligan
    # The cards the viewer sees, as a mask: those whose ``known`` mask includes every viewing seat (one byte per
    # card, translated to 1 or 0, picks the cards' bits).
    sees = sum(compress(BIT, bytes(state.known).translate(_SEES[viewer])))

    hands = state.hands
    aside = state.aside
    if simultaneous_mulligan:
        hand_sizes = []
        aside_sizes: list[int | None] = []
        known_in_hands = []
        for p in range(n):
            held = hands[p]
            if p != seat:
                held |= aside[p]  # the cards set aside are still hidden among the hand
                aside_sizes.append(None)
            else:
                aside_sizes.append(aside[p].bit_count())
            hand_sizes.append(held.bit_count())
            known_in_hands.append(names_of(held & sees))
    else:
        hand_sizes = list(map(int.bit_count, hands))
        aside_sizes = list(map(int.bit_count, aside))
        known_in_hands = [names_of(held & sees) if held & sees else [] for held in hands]
    face_up = state.face_up
    shown = face_up | sees
    fields = []
    for field in state.fields:  # loops, not nested comprehensions: each comprehension is a call in 3.11
        slots = []
        for c in field:
            slots.append({"card": NAMES[c] if shown >> c & 1 else None, "face_up": face_up >> c & 1 == 1})
        fields.append(slots)
    committed = None
    if state.need:
        committed = [bool(state.committed >> p & 1) if state.need >> p & 1 else None for p in range(n)]
    obs: dict[str, Any] = {
        "game": "barrell",
        "seat": seat,
        "players": n,
        "decision": _DECISION_TEXT[state._decision()],
        "to_act": list(state.to_act()),
        "phase": phase,
        "scores": state._scores(),
        "terminal": phase == OVER,
        "winners": state._winners() if phase == OVER else [],
        "battle": state.battle,
        "first_player": state.first,
        "active": state.active if state.active >= 0 else None,
        "wins": state.wins[:],
        "drawn_streak": state.drawn_streak,
        "passed": list(_SEAT_FLAGS[n][state.passed]),
        "hand": None if seat is None else names_of(hands[seat]),
        "aside": None if seat is None else names_of(aside[seat]) if aside[seat] else [],
        "hand_sizes": hand_sizes,
        "aside_sizes": aside_sizes,
        "known_in_hands": known_in_hands,
        # BR-23: what everyone knows is in each hand or among its player's face-down cards, not which.
        "recalled": [names_of(m) if m else [] for m in state.recall],
        "fields": fields,
        "queen_zone": list(map(NAMES.__getitem__, state.queen_zone)),
        "deck_size": len(state.deck),
        "discard": list(map(NAMES.__getitem__, state.discard)),
        "jack_of_diamonds": state.jd_active,
        "cancelled": names_of(state.jacks_void) if state.jacks_void else [],
        "committed": committed,
        "to_give": [names_of(m) for m in state.to_give] if phase == HEARTS else None,
        "provisional_scores": None if state.provisional_scores is None else state.provisional_scores[:],
        "battle_scores": None if state.battle_scores is None else state.battle_scores[:],
        "battle_winners": state.battle_winners[:],
    }
    if state.jd_active and state.game.options.jod_scope == "cards_on_table_only":
        # Which slots were already on the table when the J♦ came is public (the identities are not).
        obs["before_jack_of_diamonds"] = [[bool(state.jd_cover & BIT[c]) for c in f] for f in state.fields]
    if seat is not None and phase == HEARTS:
        if state.gift_target[seat] >= 0:
            obs["my_gift"] = state.gift_target[seat]
        mine = {NAMES[c]: t for c, t in state.card_target.items() if state.to_give[seat] & BIT[c]}
        if mine:
            obs["my_gifts"] = mine
    return obs
