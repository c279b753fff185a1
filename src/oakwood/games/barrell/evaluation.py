"""A cheap evaluation of who is ahead in a Barrell match, for search (``Barrell.estimate_returns``).

Search calls it once per iteration on a world it sampled itself, so it may read the whole state (hidden cards
included: they are the searcher's own guesses). The estimate has two parts:

- **The current battle**, if it is still undecided: each field's value as it stands (numbered cards after the
  Queens on the table, Aces 11 beside a face card of their suit, an active King of Clubs doubling; hearts in a
  field are handed to the strongest rival at E3, BR-5), plus, for a player who has not passed, what the best
  cards still in hand could add. A softmax of these values gives each seat's chance to win the battle.
- **The later battles**: hands are never refilled (BR-2), so the cards left in hand decide them. A softmax of
  each hand's worth gives each seat's chance to win one later battle.

The best-of-three structure (BR-15: the first sole leader with 2 wins) then turns these battle chances into
match chances exactly, by a small recursion over the wins still needed. Ties and BR-15's drawn-battle guard
are left out: the estimate only has to rank positions sensibly, and it stays in [0, 1] summing to 1.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from .cards import (
    HEARTS,
    IS_ACE,
    IS_FACE,
    IS_JOKER,
    IS_NUMBERED,
    IS_QUEEN,
    KING_OF_CLUBS,
    RANK,
    SUIT,
    cards_of,
)
from .phases import HEARTS as HEARTS_PHASE
from .phases import JOKERS, KING_OF_HEARTS_PHASE, PLAY_PHASE, SWAP_PHASE

if TYPE_CHECKING:
    from .state import BarrellState

#: Battle values this many points apart give the leader about 73 % of a two-player battle.
BATTLE_SOFTNESS: Final = 6.0
#: Hand worths this many points apart give the richer hand about 73 % of a later two-player battle.
HAND_SOFTNESS: Final = 12.0
#: How many of its best hand cards a player who has not passed is expected to add to the current battle,
#: and how much of their value counts (it may pass instead, and spending them weakens later battles).
FOLLOW_UP_CARDS: Final = 3
FOLLOW_UP_SHARE: Final = 0.5
#: What a card in hand is worth for the later battles: numbered non-hearts their rank (an Ace halfway between
#: 1 and 11), hearts a little (they hurt whoever receives them), face cards and Jokers a few points.
ACE_WORTH: Final = 6.0
HEART_WORTH: Final = 1.5
FACE_WORTH: Final = 4.0
JOKER_WORTH: Final = 3.0
#: Phases in which the current battle's result is not decided yet (a mulligan phase starts a new battle).
_UNDECIDED: Final = frozenset({PLAY_PHASE, SWAP_PHASE, JOKERS, HEARTS_PHASE})


def _softmax(values: list[float], softness: float) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / softness) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def hand_worth(hand: int) -> float:
    """What a hand mask is worth for the battles still to come (see the module constants)."""
    worth = 0.0
    for card in cards_of(hand):
        if IS_NUMBERED[card]:
            if SUIT[card] == HEARTS:
                worth += HEART_WORTH
            else:
                worth += ACE_WORTH if IS_ACE[card] else RANK[card]
        elif IS_JOKER[card]:
            worth += JOKER_WORTH
        elif IS_FACE[card]:
            worth += FACE_WORTH
    return worth


def battle_values(state: BarrellState) -> list[float]:
    """Each seat's expected final value in the current battle (see the module docstring)."""
    n = state.num_players
    void = state.void_mask()
    reduced = 0  # suits a Queen on the table will set to 1 (BR-8)
    bonus = 0  # suits whose Aces are worth 11 (BR-13)
    for zone in (*state.fields, state.queen_zone):
        for card in zone:
            if IS_FACE[card]:
                bonus |= 1 << SUIT[card]
                if IS_QUEEN[card] and not void >> card & 1:
                    reduced |= 1 << SUIT[card]
    own = [0.0] * n
    hearts = [0.0] * n
    for seat in range(n):
        total = 0.0
        given = 0.0
        for card in state.fields[seat]:
            if not IS_NUMBERED[card]:
                continue
            suit = SUIT[card]
            if reduced >> suit & 1:
                value = 1
            elif IS_ACE[card]:
                value = 11 if bonus >> suit & 1 else 1
            else:
                value = RANK[card]
            if suit == HEARTS:
                given += value
            else:
                total += value
        if KING_OF_CLUBS in state.fields[seat] and not void >> KING_OF_CLUBS & 1:
            total *= 2
        if not state.passed >> seat & 1 and state.phase == PLAY_PHASE:
            best = sorted(
                (RANK[c] for c in cards_of(state.hands[seat]) if IS_NUMBERED[c] and SUIT[c] != HEARTS),
                reverse=True,
            )
            total += FOLLOW_UP_SHARE * sum(best[:FOLLOW_UP_CARDS])
        own[seat] = total
        hearts[seat] = given
    values = own[:]
    for giver in range(n):
        if hearts[giver]:
            target = max((p for p in range(n) if p != giver), key=lambda p: own[p])
            values[target] -= hearts[giver]
    return values


def match_shares(wins: list[int], first: list[float], later: list[float]) -> list[float]:
    """Each seat's chance to win the match from ``wins`` when it wins the next battle with chance ``first[s]``
    and every later battle with chance ``later[s]``: the first sole leader with 2 wins wins (BR-15)."""
    n = len(wins)
    memo: dict[tuple[int, ...], list[float]] = {}

    def solve(current: tuple[int, ...], chances: list[float]) -> list[float]:
        top = max(current)
        if top >= 2 and current.count(top) == 1:
            return [1.0 if w == top else 0.0 for w in current]
        cached = memo.get(current) if chances is later else None
        if cached is not None:
            return cached
        out = [0.0] * n
        for seat in range(n):
            if chances[seat] <= 0.0:
                continue
            after = list(current)
            after[seat] += 1
            sub = solve(tuple(after), later)
            for p in range(n):
                out[p] += chances[seat] * sub[p]
        if chances is later:
            memo[current] = out
        return out

    return solve(tuple(wins), first)


def estimate_returns(state: BarrellState) -> list[float]:
    """Each seat's estimated share of the match win from ``state`` (not finished), summing to 1."""
    n = state.num_players
    later = _softmax([hand_worth(state.hands[s] | state.aside[s]) for s in range(n)], HAND_SOFTNESS)
    phase = state.phase
    undecided = phase in _UNDECIDED or (
        phase == KING_OF_HEARTS_PHASE and state.game.options.kh_timing == "before_scoring"
    )
    first = _softmax(battle_values(state), BATTLE_SOFTNESS) if undecided else later
    shares = match_shares(state.wins, first, later)
    total = sum(shares)
    return [s / total for s in shares]
