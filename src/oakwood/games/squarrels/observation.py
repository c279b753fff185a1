"""What one seat of a S'Quarrels match may know: its hand, everything public, its own Hoard discards, and
the cards it knows to be in other hands (SQ-24).

Public (RULINGS §1.2): hand sizes, Storage Piles, Discard, Deck size, Hoard Pile size. Private: hands.
Hidden: the Hoard Pile (except the cards a seat put there itself), Deck order, Quarrel picks until the reveal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import knowledge
from .cards import ALL_KINDS, NAMES
from .state import QUARREL, RACE

if TYPE_CHECKING:
    from .state import SQuarrelsState


def card_names(cards: list[int]) -> list[str]:
    """Card names in rank order (Rotten, 1–5, Golden)."""
    return [NAMES[c] for c in sorted(cards)]


def _known_cards(vector: tuple[int, ...]) -> list[str]:
    return [NAMES[c] for c in range(len(vector)) for _ in range(vector[c])]


def observe(state: SQuarrelsState, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (None: a spectator, who sees only public facts)."""
    n = state.num_players
    opts = state.opts
    known = state.knowledge()
    view: dict[str, Any] = {
        "game": "squarrels",
        "seat": seat,
        "players": n,
        "decision": str(state.decision),
        "to_act": list(state.to_act()),
        "phase": state.phase,
        "scores": state.totals[:],
        "terminal": state.phase == "over",
        "winners": state.winners_[:],
        "round": state.round_no,
        "dealer": state.dealer,
        "active": state.active,
        "target_score": None if opts.single_round else opts.target_score,
        "last_round_scores": None if state.last_round is None else state.last_round[:],
        # The seat's own round score if Winter came now (its storage and its own Golden/Rotten).
        "your_round_score": None if seat is None else state.round_score(seat),
        "hand": None if seat is None else card_names(state._hand_list(seat)),
        "hand_sizes": state.hand_sizes[:],
        "storage": [[e % 10 for e in sets] for sets in state.storage],
        "storage_with_golden": [[e % 10 for e in sets if e > 10] for sets in state.storage],
        "deck_size": len(state.deck),
        "action_discard": {NAMES[c]: state.action_discard[c] for c in range(ALL_KINDS) if state.action_discard[c]},
        "golden_out_of_match": state.golden_out,
        "hoard_pile_size": len(state.hoard),
        "hoard_pile_yours": None
        if seat is None
        else card_names([card for card, owner in state.hoard if owner == seat]),
        # SQ-24: per seat, the cards this seat knows to be in that hand (for its own hand: what every seat
        # knows it holds); a spectator sees what every seat knows.
        "known_in_hands": [_known_cards(knowledge.held(known, s if seat is None else seat, s)) for s in range(n)],
        "drawing_open": state.phase in ("must_draw", "drawing"),
        "must_draw_to_7": state.whirl_forced,
        "quarrel": None,
        "race": None,
    }
    if state.phase == QUARREL:
        view["quarrel"] = {
            "drawer": state.q_drawer,
            "live": list(state.q_live),
            "committed": sorted(state.q_commits),
            "your_play": None if seat is None or seat not in state.q_commits else NAMES[state.q_commits[seat]],
            "pot": [{"seat": s, "card": NAMES[c]} for c, s in state.q_pot],
        }
    if state.phase == RACE:
        view["race"] = {
            "drawer": state.r_drawer,
            "eligible": list(state.r_eligible),
            "passed": sorted(state.r_passed),
            "committed": sorted(state.r_commits),
            "your_answer": None
            if seat is None or seat not in state.r_commits
            else ("slap" if state.r_commits[seat] else "pass"),
            "mode": opts.hoard_race,
            "window_s": opts.hoard_race_window_s,
        }
    return view
