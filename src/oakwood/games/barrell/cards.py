"""Barrell components: the 54-card deck (52 standard cards and two Jokers) and per-card facts.

A card is an integer id. Ids 0–51 are ``suit * 13 + rank index`` with suits in the order clubs, diamonds,
hearts, spades and ranks A, 2–10, J, Q, K; 52 and 53 are the red and the black Joker. Every card is unique,
so actions and notation name cards directly (``7S``, ``10H``, ``QD``, ``RJ``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

from oakwood.engine import InvalidNotationError, InvalidOptionError

SUITS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
DECK_SIZE: Final = 54
HAND_SIZE: Final = 10  # dealt once per game (BR-2)
NO_SUIT: Final = -1


def card_id(rank: str, suit: str) -> int:
    """The id of a standard card from its rank text and suit letter."""
    return SUITS.index(suit) * 13 + RANKS.index(rank)


RED_JOKER: Final = 52
BLACK_JOKER: Final = 53
JOKERS: Final = (RED_JOKER, BLACK_JOKER)

NAMES: Final = tuple([f"{r}{s}" for s in SUITS for r in RANKS] + ["RJ", "BJ"])
PRETTY: Final = tuple([f"{r}{s}" for s in SUIT_SYMBOLS for r in RANKS] + ["Red Joker", "Black Joker"])
BY_NAME: Final = {name: i for i, name in enumerate(NAMES)}

#: Suit index per card (-1 for the Jokers).
SUIT: Final = tuple([c // 13 for c in range(52)] + [NO_SUIT, NO_SUIT])
#: Rank 1 (Ace) … 13 (King) per card; 0 for the Jokers.
RANK: Final = tuple([c % 13 + 1 for c in range(52)] + [0, 0])

IS_NUMBERED: Final = tuple(1 <= RANK[c] <= 10 for c in range(DECK_SIZE))  # A–10 have a value
IS_ACE: Final = tuple(RANK[c] == 1 for c in range(DECK_SIZE))
IS_JACK: Final = tuple(RANK[c] == 11 for c in range(DECK_SIZE))
IS_QUEEN: Final = tuple(RANK[c] == 12 for c in range(DECK_SIZE))
IS_KING: Final = tuple(RANK[c] == 13 for c in range(DECK_SIZE))
IS_FACE: Final = tuple(RANK[c] >= 11 for c in range(DECK_SIZE))  # J, Q, K; a Joker is not a face card (BR-11)
IS_JOKER: Final = tuple(c in JOKERS for c in range(DECK_SIZE))
#: Numbered hearts (A♥–10♥): the cards given away at E3 and scored negatively (BR-5).
IS_NUMBERED_HEART: Final = tuple(IS_NUMBERED[c] and SUIT[c] == HEARTS for c in range(DECK_SIZE))

JACK_OF_CLUBS: Final = card_id("J", "C")
JACK_OF_DIAMONDS: Final = card_id("J", "D")
JACK_OF_HEARTS: Final = card_id("J", "H")
JACK_OF_SPADES: Final = card_id("J", "S")
KING_OF_CLUBS: Final = card_id("K", "C")
KING_OF_DIAMONDS: Final = card_id("K", "D")
KING_OF_HEARTS: Final = card_id("K", "H")
KING_OF_SPADES: Final = card_id("K", "S")
QUEENS: Final = tuple(card_id("Q", s) for s in SUITS)
#: The cards that go to the Queen Zone at E4 (BR-7): the Queens and the King of Diamonds.
IS_QUEEN_OR_KOD: Final = tuple(IS_QUEEN[c] or c == KING_OF_DIAMONDS for c in range(DECK_SIZE))
QUEEN_ZONE_CARDS: Final = sum(1 << c for c in range(DECK_SIZE) if IS_QUEEN_OR_KOD[c])
JOKERS_MASK: Final = (1 << RED_JOKER) | (1 << BLACK_JOKER)
NUMBERED_HEARTS: Final = tuple(c for c in range(DECK_SIZE) if IS_NUMBERED_HEART[c])

BIT: Final = tuple(1 << c for c in range(DECK_SIZE))
ALL_CARDS_MASK: Final = (1 << DECK_SIZE) - 1
JACKS_MASK: Final = sum(BIT[c] for c in range(DECK_SIZE) if IS_JACK[c])
FACE_MASK: Final = sum(BIT[c] for c in range(DECK_SIZE) if IS_FACE[c])
NUMBERED_HEARTS_MASK: Final = sum(BIT[c] for c in NUMBERED_HEARTS)


def cards_of(mask: int) -> list[int]:
    """The card ids in a bit mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def parse_card(text: str, *, field: str = "card") -> int:
    """A card id from its name (``7S``, ``10h``, ``RJ``); :class:`InvalidNotationError` names the field."""
    card = BY_NAME.get(text.strip().upper())
    if card is None:
        raise InvalidNotationError("unknown card", field=field, text=text)
    return card


# ---------------------------------------------------------------------------------------------- deck as data
# The deck is an option (BR-24): a named deck, or a JSON object of card name: count. Every Barrell card is
# unique (the rules name cards, and the state holds zones as bit masks), so a count is 0 or 1: a custom deck
# is a subset of the 54 cards. The counts are the option's value, so the deck travels with the options.

#: The rulebook's 54-card deck ("a 54 card deck including jokers"), the only named deck.
STANDARD: Final = "standard"
DECKS: Final[dict[str, int]] = {STANDARD: ALL_CARDS_MASK}
#: The longest composition text an option may hold (a pretty-printed file of all 54 cards fits easily).
COMPOSITION_MAX_TEXT: Final = 4096
_FIELD: Final = "option 'deck_composition'"


def short(value: object, limit: int = 60) -> str:
    """``repr`` of a value cut to about ``limit`` characters, so a bad input is never echoed back whole."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def composition(value: str) -> int:
    """The cards a ``deck_composition`` value holds, as a bit mask: ``standard`` (all 54), or a JSON object of
    card name: count (``{"AC": 1, "2C": 1, …}``, cards left out counting 0). Raises
    :class:`InvalidOptionError`."""
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
            card = BY_NAME.get(key.strip().upper())
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


def validate_composition(data: object) -> int:
    """Check a composition mapping (card name: count) and return its cards as a bit mask.

    Refused, each in one line: unknown cards; a count other than 0 or 1 (every card is unique, BR-24); fewer
    than 20 cards (two hands of 10, BR-2). The table size is checked when a game is dealt (:func:`check_table`).
    """
    if not isinstance(data, Mapping):
        raise InvalidOptionError(f"{_FIELD} must be a JSON object of card: count")
    mask = 0
    for key, count in data.items():
        card = BY_NAME.get(str(key).strip().upper())
        if card is None:
            raise InvalidOptionError(f"{_FIELD}: unknown card {short(key)} (cards: AC … KS by rank and suit, RJ, BJ)")
        if type(count) is not int or count not in (0, 1):
            raise InvalidOptionError(
                f"{_FIELD}: the count of {NAMES[card]} must be 0 or 1 (every Barrell card is unique), "
                f"got {short(count)}"
            )
        if count:
            mask |= BIT[card]
    check_table(mask, 2)
    return mask


def check_table(mask: int, players: int) -> None:
    """Refuse a deck too small to deal a hand of 10 to each of ``players`` (BR-2)."""
    need = HAND_SIZE * players
    have = mask.bit_count()
    if have < need:
        cards = "1 card is" if have == 1 else f"{have} cards are"
        raise InvalidOptionError(
            f"{_FIELD}: {cards} too few to deal {HAND_SIZE} to each of {players} players (need {need})"
        )


def canonical_composition(value: str) -> str:
    """The one text of a composition: the deck's name for a named deck, else compact JSON of the cards it
    holds, in card order (``{"AC":1,"2C":1,…}``)."""
    mask = composition(value)
    for name, named in DECKS.items():
        if mask == named:
            return name
    return json.dumps({NAMES[c]: 1 for c in cards_of(mask)}, separators=(",", ":"))
