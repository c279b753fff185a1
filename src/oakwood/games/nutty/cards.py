"""Nutty Squirrels components: card kinds, their names, and the deck composition (RULINGS §3.1, NS-1).

A card is written by its kind code everywhere (state, notation, observations). Identical cards are
interchangeable, so a zone of cards is a list of kind codes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from oakwood.engine import InvalidOptionError

# Acorn leaves: the code is what the leaf puts on itself when revealed.
LEAF_ACORNS: dict[str, tuple[int, int]] = {"0": (0, 0), "1": (1, 0), "2": (2, 0), "3": (3, 0), "G": (0, 1)}
LEAVES = tuple(LEAF_ACORNS)

# Events.
BROKEN = "BB"
WIND = "WG"
FOOLS = "FG"
SAPPY = "SF"
ARBORIST = "AR"
EVENTS = (BROKEN, WIND, FOOLS, SAPPY, ARBORIST)

# Powers, in the order used by the action codec and by every sorted power list.
SWINGING = "SW"
FLYING = "FL"
BACKPACK = "BP"
LASSO = "LA"
STICKY = "ST"
SUGAR = "SR"
SPITTOON = "SP"
DOPPEL = "DO"
OWL = "OW"
POWERS = (SWINGING, FLYING, BACKPACK, LASSO, STICKY, SUGAR, SPITTOON, DOPPEL, OWL)

KINDS = LEAVES + EVENTS + POWERS
KIND_ORDER = {kind: i for i, kind in enumerate(KINDS)}

#: The word a person types for a power (actions use these: ``claim swap backpack``).
POWER_WORD = {
    SWINGING: "swinging",
    FLYING: "flying",
    BACKPACK: "backpack",
    LASSO: "lasso",
    STICKY: "sticky",
    SUGAR: "sugar",
    SPITTOON: "spittoon",
    DOPPEL: "doppelganger",
    OWL: "owl",
}
WORD_POWER = {word: code for code, word in POWER_WORD.items()}

#: Full names, for rendering and event descriptions.
NAME = {
    "0": "empty leaf",
    "1": "1-brown leaf",
    "2": "2-brown leaf",
    "3": "3-brown leaf",
    "G": "golden leaf",
    BROKEN: "Broken Branch",
    WIND: "Wind Gust",
    FOOLS: "Fool's Gold",
    SAPPY: "Sappy Feet",
    ARBORIST: "The Arborist",
    SWINGING: "Swinging Squirrel",
    FLYING: "Flying Squirrel",
    BACKPACK: "Backpack",
    LASSO: "The Lasso",
    STICKY: "Sticky Fingers",
    SUGAR: "Sugar Rush",
    SPITTOON: "Spittoon",
    DOPPEL: "Doppelgänger",
    OWL: "The Owl",
}

# RULINGS §3.1.1: the PROPOSED default composition (54 playable cards; the 6 reference cards are not cards).
PROPOSED_V1: dict[str, int] = {
    "0": 3, "1": 8, "2": 8, "3": 5, "G": 5,
    BROKEN: 4, WIND: 2, FOOLS: 1, SAPPY: 2, ARBORIST: 2,
    SWINGING: 2, FLYING: 2, BACKPACK: 2, LASSO: 2, STICKY: 2, SUGAR: 1, SPITTOON: 1, DOPPEL: 1, OWL: 1,
}  # fmt: skip

LIMBS = 6
LIMB_LENGTH = 5
TREE_SIZE = LIMBS * LIMB_LENGTH
BROWN_TOTAL = 60
GOLDEN_TOTAL = 15

# NS-17: the solo deck keeps the leaves, the Owl, Sticky Fingers and Broken Branches; the market holds these.
SOLO_KEEP = frozenset((*LEAVES, OWL, STICKY, BROKEN))
SOLO_KEEP_WITH_EVENTS = SOLO_KEEP | frozenset(EVENTS)
MARKET = (SWINGING, FLYING, BACKPACK, LASSO)


def composition(name: str) -> dict[str, int]:
    """The deck composition an option names: ``proposed_v1`` or the path of a JSON file ``{kind: count}``."""
    if name == "proposed_v1":
        return dict(PROPOSED_V1)
    path = Path(name)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidOptionError(f"option 'deck_composition': cannot read a composition from {name!r}: {exc}") from None
    return validate_composition(data, name)


def validate_composition(data: object, source: str) -> dict[str, int]:
    """Check a composition mapping (known kinds, counts ≥ 0, at least a full tree) and return it."""
    if not isinstance(data, Mapping):
        raise InvalidOptionError(f"option 'deck_composition': {source!r} must hold a JSON object of kind: count")
    out = {kind: 0 for kind in KINDS}
    for kind, count in data.items():
        if kind not in KIND_ORDER:
            known = ", ".join(KINDS)
            raise InvalidOptionError(f"option 'deck_composition': unknown card kind {kind!r} (kinds: {known})")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise InvalidOptionError(f"option 'deck_composition': count of {kind!r} must be a whole number ≥ 0")
        out[kind] = count
    if sum(out.values()) < TREE_SIZE:
        raise InvalidOptionError(f"option 'deck_composition': {source!r} has fewer than {TREE_SIZE} cards")
    brown = sum(LEAF_ACORNS[k][0] * out[k] for k in LEAVES)
    if brown > BROWN_TOTAL or out["G"] > GOLDEN_TOTAL:
        raise InvalidOptionError(f"option 'deck_composition': {source!r} holds more acorns than the supply")
    return {kind: count for kind, count in out.items() if count}


def expand(counts: Mapping[str, int]) -> list[str]:
    """The composition as a list of card kinds in kind order (before shuffling)."""
    return [kind for kind in KINDS for _ in range(counts.get(kind, 0))]


def sort_kinds(cards: list[str]) -> list[str]:
    """Cards in canonical kind order (for public lists whose order means nothing)."""
    return sorted(cards, key=KIND_ORDER.__getitem__)
