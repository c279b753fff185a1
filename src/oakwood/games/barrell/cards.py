"""Barrell components: the 54-card deck (52 standard cards and two Jokers) and per-card facts.

A card is an integer id. Ids 0–51 are ``suit * 13 + rank index`` with suits in the order clubs, diamonds,
hearts, spades and ranks A, 2–10, J, Q, K; 52 and 53 are the red and the black Joker. Every card is unique,
so actions and notation name cards directly (``7S``, ``10H``, ``QD``, ``RJ``).
"""

from __future__ import annotations

from typing import Final

from oakwood.engine import InvalidNotationError

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
