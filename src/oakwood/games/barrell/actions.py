"""Barrell actions and their codec order. Actions name cards, which are all unique in Barrell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import DECK_SIZE, KING_OF_HEARTS, NAMES, NUMBERED_HEARTS

MAX_SEATS: Final = 4


@dataclass(frozen=True, slots=True)
class Action:
    """One Barrell action: a verb, optionally the card it names and the seat it targets (0-based)."""

    verb: str
    card: int = -1
    target: int = -1

    def __str__(self) -> str:
        parts = [self.verb]
        if self.card >= 0:
            parts.append(NAMES[self.card])
        if self.target >= 0:
            parts.append(f"P{self.target + 1}")
        return " ".join(parts)


PLAY: Final = "play"  # play a card: face down, or a Jack face up (BR-3)
PASS: Final = "pass"  # final for the battle (BR-3)
MULLIGAN: Final = "mulligan"  # set a card aside for the mulligan (BR-4)
KEEP: Final = "keep"  # end the mulligan
SWAP: Final = "swap"  # the Jack of Spades target (BR-11)
GIFT: Final = "gift"  # all hearts to one opponent (BR-5)
GIVE: Final = "give"  # one heart to an opponent (BR-5 variant split_per_card)
JOKER_KEEP_VERB: Final = "joker keep"  # the Joker returns to hand (BR-12)
JOKER_FIELD_VERB: Final = "joker field"  # every other card of the field returns to hand (BR-12)
RETURN: Final = "return"  # King of Hearts: a field card back to hand (BR-10)
TAKE: Final = "take"  # King of Spades: a Discard card to hand (BR-10)

PLAY_ACTIONS: Final = tuple(Action(PLAY, c) for c in range(DECK_SIZE))
PASS_ACTION: Final = Action(PASS)
MULLIGAN_ACTIONS: Final = tuple(Action(MULLIGAN, c) for c in range(DECK_SIZE))
KEEP_ACTION: Final = Action(KEEP)
SWAP_ACTIONS: Final = tuple(Action(SWAP, target=p) for p in range(MAX_SEATS))
GIFT_ACTIONS: Final = tuple(Action(GIFT, target=p) for p in range(MAX_SEATS))
GIFTABLE_CARDS: Final = (*NUMBERED_HEARTS, KING_OF_HEARTS)
#: ``give`` actions by (card, seat), in codec order (card, then seat).
GIVE_ACTIONS: Final = {(c, p): Action(GIVE, c, p) for c in GIFTABLE_CARDS for p in range(MAX_SEATS)}
JOKER_KEEP: Final = Action(JOKER_KEEP_VERB)
JOKER_FIELD: Final = Action(JOKER_FIELD_VERB)
RETURN_ACTIONS: Final = tuple(Action(RETURN, c) for c in range(DECK_SIZE))
TAKE_ACTIONS: Final = tuple(Action(TAKE, c) for c in range(DECK_SIZE))

#: Every action in codec order.
ALL_ACTIONS: Final = (
    *PLAY_ACTIONS,
    PASS_ACTION,
    *MULLIGAN_ACTIONS,
    KEEP_ACTION,
    *SWAP_ACTIONS,
    *GIFT_ACTIONS,
    *GIVE_ACTIONS.values(),
    JOKER_KEEP,
    JOKER_FIELD,
    *RETURN_ACTIONS,
    *TAKE_ACTIONS,
)


#: Suit symbols as the screen shows them, and the letters the canonical text uses.
_SUIT_LETTERS: Final = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
_JOKERS: Final = {"red joker": "RJ", "black joker": "BJ"}


def normalise_move(text: str) -> str:
    """A move typed as the screen shows it, in canonical text: ``play 9♥`` → ``play 9H``, ``give 10♥ p2`` →
    ``give 10H p2``, ``take Red Joker`` → ``take RJ``. Case and spacing are left to the codec (it ignores
    them); anything else passes through unchanged."""
    out = " ".join(text.split())
    for symbol, letter in _SUIT_LETTERS.items():
        out = out.replace(symbol, letter)
    lowered = out.lower()
    for name, code in _JOKERS.items():
        at = lowered.find(name)
        if at >= 0:
            out = out[:at] + code + out[at + len(name) :]
            lowered = out.lower()
    return out
