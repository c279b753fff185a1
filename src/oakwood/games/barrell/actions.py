"""Barrell actions and their codec order. Actions name cards, which are all unique in Barrell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import DECK_SIZE, KING_OF_HEARTS, NAMES, NUMBERED_HEARTS, cards_of

MAX_SEATS: Final = 4


@dataclass(frozen=True, slots=True)
class Action:
    """One Barrell action: a verb, optionally the card it names and the seat it targets (0-based)."""

    verb: str
    card: int = -1
    target: int = -1

    def __reduce__(self) -> tuple[type[Action], tuple[str, int, int]]:
        """Pickle as a call of the constructor."""
        # Compiled by mypyc, a frozen dataclass no longer unpickles field by field (its ``__setattr__`` refuses):
        # it is rebuilt from its fields instead, in both forms (the process pool and dask pickle it).
        return (Action, (self.verb, self.card, self.target))

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


# ---------------------------------------------------------------------------------------------- legal tuples
# Whole hands rarely repeat between games, so the legal tuple of a hand is joined from memoised tuples of its
# four 14-card quarters (54 = 3 × 14 + 12), the last one ending with ``pass`` or ``keep``: four list lookups
# and a join instead of a walk over the hand's bits. The tables depend on nothing but the actions, so every
# game shares them; each holds at most 2**14 tuples, filled on first use.
_QUARTER = 14
_QUARTER_MASK = (1 << _QUARTER) - 1
_Quarters = tuple[list[tuple[Action, ...] | None], ...]


def _quarters() -> _Quarters:
    return tuple([None] * (1 << min(_QUARTER, DECK_SIZE - q * _QUARTER)) for q in range(4))


_PLAY_QUARTERS: Final = _quarters()
_MULLIGAN_QUARTERS: Final = _quarters()


def _fill(
    table: list[tuple[Action, ...] | None],
    actions: tuple[Action, ...],
    bits: int,
    offset: int,
    tail: tuple[Action, ...],
) -> tuple[Action, ...]:
    """The actions of the cards in one quarter of a hand (``bits`` shifted down by ``offset``), then ``tail``."""
    found = tuple([actions[offset + c] for c in cards_of(bits)]) + tail
    table[bits] = found
    return found


def play_actions(hand: int) -> tuple[Action, ...]:
    """The legal plays for a hand mask (every card, then ``pass``), in codec order."""
    q0, q1, q2, q3 = _PLAY_QUARTERS
    a = q0[hand & _QUARTER_MASK]
    if a is None:
        a = _fill(q0, PLAY_ACTIONS, hand & _QUARTER_MASK, 0, ())
    b = q1[hand >> 14 & _QUARTER_MASK]
    if b is None:
        b = _fill(q1, PLAY_ACTIONS, hand >> 14 & _QUARTER_MASK, 14, ())
    c = q2[hand >> 28 & _QUARTER_MASK]
    if c is None:
        c = _fill(q2, PLAY_ACTIONS, hand >> 28 & _QUARTER_MASK, 28, ())
    d = q3[hand >> 42]
    if d is None:
        d = _fill(q3, PLAY_ACTIONS, hand >> 42, 42, (PASS_ACTION,))
    return a + b + c + d


def mulligan_actions(hand: int) -> tuple[Action, ...]:
    """The mulligan choices for a hand mask (set any card aside, then ``keep``), in codec order."""
    q0, q1, q2, q3 = _MULLIGAN_QUARTERS
    a = q0[hand & _QUARTER_MASK]
    if a is None:
        a = _fill(q0, MULLIGAN_ACTIONS, hand & _QUARTER_MASK, 0, ())
    b = q1[hand >> 14 & _QUARTER_MASK]
    if b is None:
        b = _fill(q1, MULLIGAN_ACTIONS, hand >> 14 & _QUARTER_MASK, 14, ())
    c = q2[hand >> 28 & _QUARTER_MASK]
    if c is None:
        c = _fill(q2, MULLIGAN_ACTIONS, hand >> 28 & _QUARTER_MASK, 28, ())
    d = q3[hand >> 42]
    if d is None:
        d = _fill(q3, MULLIGAN_ACTIONS, hand >> 42, 42, (KEEP_ACTION,))
    return a + b + c + d
