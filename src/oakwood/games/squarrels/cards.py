"""S'Quarrels components (rulebook "EQUIPMENT", RULINGS §1.1).

Cards are small integers. Hand cards (Number and Special) are 0–6 so a hand is a 7-slot count vector;
Action cards are 7–11 and never enter a hand.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

from oakwood.engine import InvalidOptionError

ROTTEN: Final = 0
ONE, TWO, THREE, FOUR, FIVE = 1, 2, 3, 4, 5
GOLDEN: Final = 6
QUARREL: Final = 7
HOARD: Final = 8
AMBUSH: Final = 9
WHIRLWIND: Final = 10
WINTER: Final = 11

HAND_KINDS: Final = 7  # ROTTEN..GOLDEN: the cards a hand, the Hoard Pile or a Quarrel can hold
ALL_KINDS: Final = 12
NUMBERS: Final = (ONE, TWO, THREE, FOUR, FIVE)
ACTIONS: Final = (QUARREL, HOARD, AMBUSH, WHIRLWIND, WINTER)

#: How many of each card the 120-card deck holds, indexed by card.
COUNTS: Final = (1, 30, 24, 18, 12, 9, 1, 8, 8, 6, 2, 1)
DECK_SIZE: Final = 120

#: One-character symbols used by the notation. Quarrel rank order is ROTTEN < 1 < … < 5 < GOLDEN (SQ-5).
SYMBOLS: Final = "R12345GQHAVW"
NAMES: Final = ("rotten", "1", "2", "3", "4", "5", "golden", "quarrel", "hoard", "ambush", "whirlwind", "winter")
TITLES: Final = (
    "Rotten Acorn",
    "1",
    "2",
    "3",
    "4",
    "5",
    "Golden Acorn",
    "Quarrel",
    "Hoard",
    "Ambush",
    "Whirlwind",
    "Winter",
)
SYMBOL_TO_CARD: Final = {s: i for i, s in enumerate(SYMBOLS)}
NAME_TO_CARD: Final = {n: i for i, n in enumerate(NAMES)}

HAND_LIMIT: Final = 7  # drawing is open only while a hand holds fewer than seven cards
SET_SIZE: Final = 3
SPECIAL_BONUS: Final = 5  # +5 Golden / −5 Rotten held at Winter


def is_action(card: int) -> bool:
    """Whether a card is an Action card (goes to Discard when drawn)."""
    return card >= QUARREL


def full_deck(include_golden: bool = True) -> list[int]:
    """The deck in a fixed order (shuffled by the caller); without the Golden if it is lost for the match."""
    deck: list[int] = []
    for card, count in enumerate(COUNTS):
        if card == GOLDEN and not include_golden:
            continue
        deck.extend([card] * count)
    return deck


# ---------------------------------------------------------------------------------------------- deck as data
# The deck is an option (SQ-26): a named deck, or a JSON object of card symbol: count. The counts are the
# option's value, so a game's deck travels with its options in notation headers, replays and the store.

#: The rulebook's deck, the only named deck (the rulebook suggests no other), by card symbol.
STANDARD: Final = "standard"
DECKS: Final[dict[str, tuple[int, ...]]] = {STANDARD: COUNTS}
#: The longest composition text an option may hold (a pretty-printed file of every kind fits easily).
COMPOSITION_MAX_TEXT: Final = 4096
#: The most cards of one kind, and in all (the rulebook has 120; the bound keeps decks and notations small).
COMPOSITION_MAX_CARDS: Final = 300
_FIELD: Final = "option 'deck_composition'"
#: Symbols and names both name a kind in a composition (``{"W": 1}`` or ``{"winter": 1}``).
_KIND_WORDS: Final = {**{n: i for i, n in enumerate(NAMES)}, **{s.lower(): i for i, s in enumerate(SYMBOLS)}}


def short(value: object, limit: int = 60) -> str:
    """``repr`` of a value cut to about ``limit`` characters, so a bad input is never echoed back whole."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _label(card: int) -> str:
    """A card as an error names it: ``'W' (Winter)``, or ``'3'`` where the symbol is the name."""
    return repr(SYMBOLS[card]) if TITLES[card] == SYMBOLS[card] else f"{SYMBOLS[card]!r} ({TITLES[card]})"


def composition(value: str) -> tuple[int, ...]:
    """The count of each card (indexed by card) a ``deck_composition`` value names: ``standard``, or a JSON
    object of card symbol (or name): count, kinds left out counting 0. Raises :class:`InvalidOptionError`."""
    if value in DECKS:
        return DECKS[value]
    if not isinstance(value, str):
        raise InvalidOptionError(f"{_FIELD} must be text, not {short(value)}")
    if len(value) > COMPOSITION_MAX_TEXT:
        raise InvalidOptionError(f"{_FIELD}: a composition is at most {COMPOSITION_MAX_TEXT} characters")
    if not value.lstrip().startswith("{"):
        named = " or ".join(DECKS)
        raise InvalidOptionError(f"{_FIELD} must be {named} or a JSON object of card: count, got {short(value)}")
    seen: set[int] = set()

    def refuse_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
        for key, _ in pairs:
            card = _KIND_WORDS.get(key.strip().lower())
            if card is not None and card in seen:
                raise InvalidOptionError(f"{_FIELD}: card {short(key)} is given twice")
            if card is not None:
                seen.add(card)
        return dict(pairs)

    try:
        data = json.loads(value, object_pairs_hook=refuse_duplicates)
    except InvalidOptionError:
        raise
    except ValueError as exc:
        raise InvalidOptionError(f"{_FIELD}: not valid JSON ({short(str(exc), 80)[1:-1]})") from None
    return validate_composition(data)


def validate_composition(data: object) -> tuple[int, ...]:
    """Check a composition mapping (card symbol or name: count) and return the count of each card.

    Refused, each in one line: unknown cards; counts that are not whole numbers from 0 to 300; a Winter count
    other than 1 (one Winter ends each round, SQ-15); more than one Golden or Rotten Acorn (the ±5 in hand
    and the last-card rules of SQ-7 and SQ-10 are about *the* Golden and *the* Rotten); no Number kind with 3
    cards (no set could ever be stored); fewer than 14 Number and Rotten cards (two hands of 7, SQ-1); more
    than 300 cards. The table size is checked when a game is dealt (:func:`check_table`).
    """
    if not isinstance(data, Mapping):
        raise InvalidOptionError(f"{_FIELD} must be a JSON object of card: count")
    out = [0] * ALL_KINDS
    for key, count in data.items():
        card = _KIND_WORDS.get(str(key).strip().lower())
        if card is None:
            raise InvalidOptionError(f"{_FIELD}: unknown card {short(key)} (cards: {' '.join(SYMBOLS)})")
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= COMPOSITION_MAX_CARDS:
            raise InvalidOptionError(
                f"{_FIELD}: the count of {_label(card)} must be a whole number from 0 to "
                f"{COMPOSITION_MAX_CARDS}, got {short(count)}"
            )
        out[card] = count
    total = sum(out)
    if out[WINTER] != 1:
        raise InvalidOptionError(
            f"{_FIELD}: a deck holds exactly 1 Winter (it ends the round, SQ-15), not {out[WINTER]}"
        )
    for card in (GOLDEN, ROTTEN):
        if out[card] > 1:
            raise InvalidOptionError(
                f"{_FIELD}: a deck holds at most 1 {TITLES[card]} (its rules speak of one card, SQ-26), not {out[card]}"
            )
    if max(out[card] for card in NUMBERS) < SET_SIZE:
        raise InvalidOptionError(f"{_FIELD}: no Number card has {SET_SIZE} copies, so no set could ever be stored")
    if total > COMPOSITION_MAX_CARDS:
        raise InvalidOptionError(f"{_FIELD}: {total} cards are more than {COMPOSITION_MAX_CARDS}")
    check_table(tuple(out), 2)
    return tuple(out)


def dealable(counts: tuple[int, ...]) -> int:
    """The cards a deal can always put into hands: the Number cards and the Rotten (not the Golden, which may
    be out of the match, SQ-7)."""
    return sum(counts[card] for card in NUMBERS) + counts[ROTTEN]


def check_table(counts: tuple[int, ...], players: int) -> None:
    """Refuse a deck too small to deal 7 hand cards to each of ``players`` (the setup replaces every Action
    card dealt, so Number and Rotten cards must cover every hand)."""
    need = HAND_LIMIT * players
    have = dealable(counts)
    if have < need:
        raise InvalidOptionError(
            f"{_FIELD}: {have} Number and Rotten cards are too few to deal {HAND_LIMIT} to each of {players} players "
            f"(need {need})"
        )


def canonical_composition(value: str) -> str:
    """The one text of a composition: the deck's name for a named deck, else compact JSON of the non-zero
    counts in card order, keyed by symbol (``{"R":1,"1":30,…}``)."""
    counts = composition(value)
    for name, named in DECKS.items():
        if counts == named:
            return name
    return json.dumps({SYMBOLS[c]: n for c, n in enumerate(counts) if n}, separators=(",", ":"))


def deck_of(counts: tuple[int, ...], include_golden: bool = True) -> list[int]:
    """The deck a composition holds, in card order (shuffled by the caller); without the Golden if it is lost
    for the match. ``deck_of(COUNTS)`` is :func:`full_deck`'s deck, card for card."""
    deck: list[int] = []
    for card, count in enumerate(counts):
        if card == GOLDEN and not include_golden:
            continue
        deck.extend([card] * count)
    return deck
