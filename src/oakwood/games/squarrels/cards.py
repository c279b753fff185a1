"""S'Quarrels components (rulebook "EQUIPMENT", RULINGS §1.1).

Cards are small integers. Hand cards (Number and Special) are 0–6 so a hand is a 7-slot count vector;
Action cards are 7–11 and never enter a hand.
"""

from __future__ import annotations

from typing import Final

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
