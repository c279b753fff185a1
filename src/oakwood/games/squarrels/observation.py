"""What one seat of a S'Quarrels match may know: its hand, everything public, its own Hoard discards, and
the cards it knows to be in other hands (SQ-24).

Public (RULINGS §1.2): hand sizes, Storage Piles, Discard, Deck size, Hoard Pile size. Private: hands.
Hidden: the Hoard Pile (except the cards a seat put there itself), Deck order, Quarrel picks until the reveal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from oakwood.engine import Decision

from . import knowledge
from .cards import COUNTS, HAND_KINDS, NAMES
from .state import QUARREL, RACE

if TYPE_CHECKING:
    from .state import SQuarrelsState


def card_names(cards: list[int]) -> list[str]:
    """Card names in rank order (Rotten, 1–5, Golden)."""
    return [NAMES[c] for c in sorted(cards)]


#: ``_NAME_RUNS[card][k]``: ``k`` copies of the card's name, for lists built from per-kind counts (up to the
#: standard deck's counts; a larger custom deck's longer runs are built when met, SQ-26).
_NAME_RUNS: Final = tuple(tuple((NAMES[card],) * k for k in range(max(COUNTS) + 1)) for card in range(HAND_KINDS))
_RUN_LIMIT: Final = max(COUNTS)

#: The text of each decision (``str()`` of the enum, looked up rather than converted on every observation).
_DECISION_TEXT: Final = {decision: decision.value for decision in Decision}


def names_of_counts(counts: Sequence[int]) -> list[str]:
    """Card names in rank order from counts per hand kind (Rotten … Golden): ``[0, 2, 0, 0, 0, 0, 1]`` is
    ``["1", "1", "golden"]``."""
    names: list[str] = []
    for card, count in enumerate(counts):
        if count:
            names += _NAME_RUNS[card][count] if count <= _RUN_LIMIT else (NAMES[card],) * count
    return names


def observe(state: SQuarrelsState, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (None: a spectator, who sees only public facts)."""
    n = state.num_players
    opts = state.opts
    known = state.knowledge()
    storage = state.storage
    view: dict[str, Any] = {
        "game": "squarrels",
        "seat": seat,
        "players": n,
        "decision": _DECISION_TEXT[state.decision],
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
        "hand": None if seat is None else names_of_counts(state.hands[seat]),
        "hand_sizes": state.hand_sizes[:],
        "storage": [[e % 10 for e in sets] for sets in storage],
        "storage_with_golden": [[e % 10 for e in sets if e > 10] if sets else [] for sets in storage],
        "deck_size": len(state.deck),
        "action_discard": {NAMES[c]: count for c, count in enumerate(state.action_discard) if count},
        "golden_out_of_match": state.golden_out,
        "hoard_pile_size": len(state.hoard),
        "hoard_pile_yours": None
        if seat is None
        else card_names([card for card, owner in state.hoard if owner == seat]),
        # SQ-24: per seat, the cards this seat knows to be in that hand (for its own hand: what every seat
        # knows it holds); a spectator sees what every seat knows.
        # A holder nobody knows anything about has no row in ``known`` (knowledge.py): most holders, most of the time.
        "known_in_hands": [
            names_of_counts(knowledge.held(known, s if seat is None else seat, s)) if s in known else []
            for s in range(n)
        ],
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
