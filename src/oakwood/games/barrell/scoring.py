"""End-of-battle arithmetic (RULINGS §2.2 E4–E5): card values, the Queen Zone, the King of Diamonds, scores.

Pure functions over card lists and masks, so the rules in ``state.py`` stay readable and tests can check
the arithmetic directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import (
    DECK_SIZE,
    HEARTS,
    IS_ACE,
    IS_FACE,
    IS_NUMBERED,
    IS_QUEEN,
    KING_OF_CLUBS,
    RANK,
    SUIT,
)

#: Per card, the bit of its suit if it is a face card (J, Q, K), else 0 (BR-13's Ace bonus).
_FACE_SUIT_BIT: Final = tuple(1 << SUIT[c] if IS_FACE[c] else 0 for c in range(DECK_SIZE))


def card_value(card: int, reduced_suits: int, bonus_suits: int) -> int:
    """The magnitude of a numbered card: 1 under a Queen of its suit (BR-8), an Ace 11 with a face card of its
    suit in play (BR-13), otherwise its rank."""
    suit = SUIT[card]
    if reduced_suits >> suit & 1:
        return 1
    if IS_ACE[card]:
        return 11 if bonus_suits >> suit & 1 else 1
    return RANK[card]


def ace_bonus_suits(fields: Sequence[Sequence[int]], queen_zone: Sequence[int], void: int, suppress: bool) -> int:
    """Suits with a J, Q or K in any field or the Queen Zone (BR-13); cancelled ones only count unless
    ``suppress`` (variant ``jod_suppresses_ace_bonus``)."""
    suits = 0
    if not suppress:  # the default: every face card counts, cancelled or not
        for field in fields:
            for card in field:
                suits |= _FACE_SUIT_BIT[card]
        for card in queen_zone:
            suits |= _FACE_SUIT_BIT[card]
        return suits
    for zone in (*fields, queen_zone):
        for card in zone:
            if IS_FACE[card] and not void >> card & 1:
                suits |= 1 << SUIT[card]
    return suits


def reduced_suits_of(queen_zone: Sequence[int], void: int) -> int:
    """Suits reduced to 1 by an active Queen in the Queen Zone (BR-8)."""
    suits = 0
    for card in queen_zone:
        if IS_QUEEN[card] and not void >> card & 1:
            suits |= 1 << SUIT[card]
    return suits


def kod_victims(
    fields: Sequence[Sequence[int]], reduced: int, bonus: int, *, scope: str, ignore_hearts: bool
) -> list[list[int]]:
    """The cards the King of Diamonds destroys, per field (BR-9).

    "Biggest" is the current value after the Queens and the Ace rule, before any King of Clubs doubling; a
    heart counts by its magnitude unless ``ignore_hearts``. ``per_player``: each field's highest card(s);
    ``global``: every card sharing the table's highest value.
    """
    values: list[list[tuple[int, int]]] = []
    for field in fields:
        values.append(
            [
                (card, card_value(card, reduced, bonus))
                for card in field
                if IS_NUMBERED[card] and not (ignore_hearts and SUIT[card] == HEARTS)
            ]
        )
    if scope == "global":
        top = max((v for field in values for _, v in field), default=0)
        return [[c for c, v in field if v == top] for field in values]
    out = []
    for pairs in values:
        best = max((v for _, v in pairs), default=0)
        out.append([c for c, v in pairs if v == best])
    return out


def field_score(field: Sequence[int], reduced: int, bonus: int, kc_active: bool, kc_after_queen: bool) -> int:
    """E5: Σ non-heart values − Σ heart values, doubled by an active King of Clubs in this field (BR-6, BR-10).

    With ``kc_after_queen`` the net total doubles (a Queen-reduced 1 counts 2); without it the King doubles
    the printed values first and the Queens then set their suits to 1.
    """
    total = 0
    double_each = kc_active and not kc_after_queen
    for card in field:
        if not IS_NUMBERED[card]:
            continue  # face cards and Jokers are worth nothing (BR-6)
        # card_value(), inlined: this loop runs for every card on the table at every battle's end
        suit = SUIT[card]
        if reduced >> suit & 1:
            value = 1
        else:
            value = (11 if bonus >> suit & 1 else 1) if IS_ACE[card] else RANK[card]
            if double_each:
                value *= 2
        if suit == HEARTS:
            total -= value
        else:
            total += value
    if kc_active and kc_after_queen:
        total *= 2
    return total


def has_active_king_of_clubs(field: Sequence[int], void: int) -> bool:
    """Whether this field holds the King of Clubs and the Jack of Diamonds has not cancelled it."""
    return KING_OF_CLUBS in field and not void >> KING_OF_CLUBS & 1
