"""What one seat sees: ``observe(state, seat)`` builds the JSON observation from per-card knowledge.

A card is shown to a seat only when it is face up, public, or its ``known`` mask includes that seat; a
spectator sees what every seat knows. Hidden commits (heart recipients, a simultaneous mulligan) show only
whether each seat has committed, never what — except to that seat itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import BIT, NAMES, cards_of
from .phases import HEARTS, MULLIGAN_PHASE, OVER

if TYPE_CHECKING:
    from .state import BarrellState


def observe(state: BarrellState, seat: int | None) -> dict[str, Any]:
    """The observation of ``seat`` (``None``: a spectator)."""
    n = state.num_players
    options = state.game.options
    viewer = state.all_seats if seat is None else 1 << seat
    known = state.known
    simultaneous_mulligan = state.phase == MULLIGAN_PHASE and options.mulligan_mode == "simultaneous"

    def sees(card: int) -> bool:
        return known[card] & viewer == viewer

    hand_sizes = []
    known_in_hands = []
    aside_sizes: list[int | None] = []
    for p in range(n):
        held = state.hands[p]
        if simultaneous_mulligan and p != seat:
            held |= state.aside[p]  # the cards set aside are still hidden among the hand
            aside_sizes.append(None)
        else:
            aside_sizes.append(state.aside[p].bit_count())
        hand_sizes.append(held.bit_count())
        known_in_hands.append([NAMES[c] for c in cards_of(held) if sees(c)])
    fields = []
    for field in state.fields:
        slots = []
        for card in field:
            up = bool(state.face_up & BIT[card])
            slots.append({"card": NAMES[card] if up or sees(card) else None, "face_up": up})
        fields.append(slots)
    decision = state.decision
    committed = None
    if state.need:
        committed = [bool(state.committed >> p & 1) if state.need >> p & 1 else None for p in range(n)]
    obs: dict[str, Any] = {
        "game": "barrell",
        "seat": seat,
        "players": n,
        "decision": str(decision),
        "to_act": list(state.to_act()),
        "phase": state.phase,
        "scores": state._scores(),
        "terminal": state.phase == OVER,
        "winners": state._winners() if state.phase == OVER else [],
        "battle": state.battle,
        "first_player": state.first,
        "active": state.active if state.active >= 0 else None,
        "wins": state.wins[:],
        "drawn_streak": state.drawn_streak,
        "passed": [bool(state.passed >> p & 1) for p in range(n)],
        "hand": None if seat is None else [NAMES[c] for c in cards_of(state.hands[seat])],
        "aside": None if seat is None else [NAMES[c] for c in cards_of(state.aside[seat])],
        "hand_sizes": hand_sizes,
        "aside_sizes": aside_sizes,
        "known_in_hands": known_in_hands,
        # BR-23: what everyone knows is in each hand or among its player's face-down cards, not which.
        "recalled": [[NAMES[c] for c in cards_of(m)] for m in state.recall],
        "fields": fields,
        "queen_zone": [NAMES[c] for c in state.queen_zone],
        "deck_size": len(state.deck),
        "discard": [NAMES[c] for c in state.discard],
        "jack_of_diamonds": state.jd_active,
        "cancelled": [NAMES[c] for c in cards_of(state.jacks_void)],
        "committed": committed,
        "to_give": [[NAMES[c] for c in cards_of(m)] for m in state.to_give] if state.phase == HEARTS else None,
        "provisional_scores": None if state.provisional_scores is None else state.provisional_scores[:],
        "battle_scores": None if state.battle_scores is None else state.battle_scores[:],
        "battle_winners": state.battle_winners[:],
    }
    if options.jod_scope == "cards_on_table_only" and state.jd_active:
        # Which slots were already on the table when the J♦ came is public (the identities are not).
        obs["before_jack_of_diamonds"] = [[bool(state.jd_cover & BIT[c]) for c in f] for f in state.fields]
    if seat is not None and state.phase == HEARTS:
        if state.gift_target[seat] >= 0:
            obs["my_gift"] = state.gift_target[seat]
        mine = {NAMES[c]: t for c, t in state.card_target.items() if state.to_give[seat] & BIT[c]}
        if mine:
            obs["my_gifts"] = mine
    return obs
