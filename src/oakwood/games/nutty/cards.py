"""Nutty Squirrels components: card kinds, their names, and the deck composition (RULINGS §3.1, NS-1).

A card is written by its kind code everywhere (state, notation, observations). Identical cards are
interchangeable, so a zone of cards is a list of kind codes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

from oakwood.engine import InvalidOptionError

# Acorn leaves: the code is what the leaf puts on itself when revealed.
LEAF_ACORNS: Final[dict[str, tuple[int, int]]] = {"0": (0, 0), "1": (1, 0), "2": (2, 0), "3": (3, 0), "G": (0, 1)}
LEAVES: Final = tuple(LEAF_ACORNS)

# Events.
BROKEN: Final = "BB"
WIND: Final = "WG"
FOOLS: Final = "FG"
SAPPY: Final = "SF"
ARBORIST: Final = "AR"
EVENTS: Final = (BROKEN, WIND, FOOLS, SAPPY, ARBORIST)

# Powers, in the order used by the action codec and by every sorted power list.
SWINGING: Final = "SW"
FLYING: Final = "FL"
BACKPACK: Final = "BP"
LASSO: Final = "LA"
STICKY: Final = "ST"
SUGAR: Final = "SR"
SPITTOON: Final = "SP"
DOPPEL: Final = "DO"
OWL: Final = "OW"
POWERS: Final = (SWINGING, FLYING, BACKPACK, LASSO, STICKY, SUGAR, SPITTOON, DOPPEL, OWL)

KINDS: Final = LEAVES + EVENTS + POWERS
KIND_ORDER: Final = {kind: i for i, kind in enumerate(KINDS)}

#: The word a person types for a power (actions use these: ``claim swap backpack``).
POWER_WORD: Final = {
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
WORD_POWER: Final = {word: code for code, word in POWER_WORD.items()}

#: Full names, for rendering and event descriptions.
NAME: Final = {
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
PROPOSED_V1: Final[dict[str, int]] = {
    "0": 3, "1": 8, "2": 8, "3": 5, "G": 5,
    BROKEN: 4, WIND: 2, FOOLS: 1, SAPPY: 2, ARBORIST: 2,
    SWINGING: 2, FLYING: 2, BACKPACK: 2, LASSO: 2, STICKY: 2, SUGAR: 1, SPITTOON: 1, DOPPEL: 1, OWL: 1,
}  # fmt: skip

LIMBS: Final = 6
LIMB_LENGTH: Final = 5
TREE_SIZE: Final = LIMBS * LIMB_LENGTH
BROWN_TOTAL: Final = 60
GOLDEN_TOTAL: Final = 15

# NS-17: the solo deck keeps the leaves, the Owl, Sticky Fingers and Broken Branches; the market holds these.
SOLO_KEEP: Final = frozenset((*LEAVES, OWL, STICKY, BROKEN))
SOLO_KEEP_WITH_EVENTS: Final = SOLO_KEEP | frozenset(EVENTS)
MARKET: Final = (SWINGING, FLYING, BACKPACK, LASSO)


#: The longest composition text an option may hold (a pretty-printed file of every kind fits easily).
COMPOSITION_MAX_TEXT: Final = 4096
#: The most cards a composition may have (the proposal has 54; the bound keeps decks and notations small).
COMPOSITION_MAX_CARDS: Final = 300
_FIELD: Final = "option 'deck_composition'"


def short(value: object, limit: int = 60) -> str:
    """``repr`` of a value cut to about ``limit`` characters, so a bad input is never echoed back whole."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def composition(value: str) -> dict[str, int]:
    """The deck composition an option value names: ``proposed_v1``, or a JSON object ``{kind code: count}``.

    Never reads a file: a custom composition is the option value itself (NS-1). Reading a file is the
    command line's job (``-o deck_composition=@deck.json``).
    """
    if value == "proposed_v1":
        return dict(PROPOSED_V1)
    if len(value) > COMPOSITION_MAX_TEXT:
        raise InvalidOptionError(f"{_FIELD}: a composition is at most {COMPOSITION_MAX_TEXT} characters")
    if not value.lstrip().startswith("{"):
        raise InvalidOptionError(f"{_FIELD} must be proposed_v1 or a JSON object of kind: count, got {short(value)}")
    try:
        data = json.loads(value, object_pairs_hook=_refuse_duplicates)
    except InvalidOptionError:
        raise
    except ValueError as exc:
        raise InvalidOptionError(f"{_FIELD}: not valid JSON ({short(str(exc), 80)[1:-1]})") from None
    return validate_composition(data)


def _refuse_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidOptionError(f"{_FIELD}: card kind {short(key)} is given twice")
        out[key] = value
    return out


def validate_composition(data: object) -> dict[str, int]:
    """Check a composition mapping and return it without zero counts.

    Refused: unknown kinds, counts that are not whole numbers from 0 to 300, fewer cards than a tree
    needs (30) or more than 300, and leaves holding more acorns than the supply (60 brown, 15 golden).
    """
    if not isinstance(data, Mapping):
        raise InvalidOptionError(f"{_FIELD} must be a JSON object of kind: count")
    out = dict.fromkeys(KINDS, 0)
    for kind, count in data.items():
        if kind not in KIND_ORDER:
            known = " ".join(KINDS)
            raise InvalidOptionError(f"{_FIELD}: unknown card kind {short(kind)} (kinds: {known})")
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= COMPOSITION_MAX_CARDS:
            raise InvalidOptionError(
                f"{_FIELD}: the count of {kind!r} must be a whole number from 0 to {COMPOSITION_MAX_CARDS}, "
                f"got {short(count)}"
            )
        out[kind] = count
    total = sum(out.values())
    if total < TREE_SIZE:
        raise InvalidOptionError(f"{_FIELD}: {total} cards are too few to deal a tree of {TREE_SIZE}")
    if total > COMPOSITION_MAX_CARDS:
        raise InvalidOptionError(f"{_FIELD}: {total} cards are more than {COMPOSITION_MAX_CARDS}")
    brown = sum(LEAF_ACORNS[k][0] * out[k] for k in LEAVES)
    if brown > BROWN_TOTAL or out["G"] > GOLDEN_TOTAL:
        raise InvalidOptionError(
            f"{_FIELD}: the leaves hold {brown} brown and {out['G']} golden acorns, more than the supply "
            f"({BROWN_TOTAL} brown, {GOLDEN_TOTAL} golden)"
        )
    return {kind: count for kind, count in out.items() if count}


def canonical_composition(value: str) -> str:
    """The one text of a composition: ``proposed_v1`` for the proposal, else compact JSON in kind order."""
    counts = composition(value)
    if counts == PROPOSED_V1:
        return "proposed_v1"
    return json.dumps(counts, separators=(",", ":"))


def expand(counts: Mapping[str, int]) -> list[str]:
    """The composition as a list of card kinds in kind order (before shuffling)."""
    return [kind for kind in KINDS for _ in range(counts.get(kind, 0))]


def sort_kinds(cards: list[str]) -> list[str]:
    """Cards in canonical kind order (for public lists whose order means nothing)."""
    return sorted(cards, key=KIND_ORDER.__getitem__)
