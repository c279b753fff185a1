"""Nutty Squirrels position evaluation for search (``Game.estimate_returns``): who is ahead, cheaply.

ISMCTS stops its random playouts after a few dozen actions, long before a Nutty game ends, and scores the
position it reached with this. It reads only what every seat sees (boards, acorns, face-up cards, how many
cards are still hidden), never a face-down card's identity, so it gives the same number in every world of a
position. It runs once per search iteration: plain loops over a few dozen slots, no allocation beyond a list
per seat.

Multiplayer (NS-14, NS-15): each seat's *worth* is its buried points plus a discounted value of what it may
still bury — nest acorns (safe but for Sticky Fingers, a bury away), carried acorns (lost in a fall, a walk
from the trunk), acorns tracked on Sticky Fingers (buried for free at three), powers held, less Sappy Feet
waiting. Worths become win shares by a softmax whose softness shrinks as the game nears its end (fewer
face-down cards, then the end trigger): early leads are uncertain, late ones decisive. Burying 20 wins at
once, so a worth of 20 or more is a near-certain win and dominates the softmax by itself.

Solo (NS-17 d): the chance to reach 20 points, a logistic curve of the points in hand (nest and burrow), the
acorns carried, the acorns lying on face-up cards, the acorns the face-down cards should hold on average
(from the leaves not yet seen), and the powers held.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from oakwood.engine.game import shares_from_scores

from .cards import LEAF_ACORNS
from .tree import WIN_POINTS

if TYPE_CHECKING:
    from .state import NuttyState
    from .tree import TreeState

# Discounts on acorns not yet buried (multiplayer): how much of their value a seat can expect to bank.
NEST_WEIGHT = 0.85
CARRIED_WEIGHT = 0.6
STICKY_WEIGHT = 0.8
POWER_WORTH = 0.8  # a power held, in points: the heuristic bot and search both gain a little from each
SAPPY_WORTH = 0.5  # a Sappy Feet waiting costs an action point
AP_WORTH = 0.25  # the active seat's unspent action points this turn
# Softness of the win shares, in points: this much plus SOFT_PER_CARD per face-down card on the tree.
SOFT_BASE = 1.5
SOFT_PER_CARD = 0.15
SOFT_TRIGGERED = 1.0  # once the end is triggered only a round or two remains

# Solo: weights of the acorns not yet in the nest, and the spread of the logistic curve (points).
SOLO_CARRIED = 0.9
SOLO_LOOSE = 0.5
SOLO_HIDDEN = 0.35  # calibrated: the heuristic bot wins about 40 % of solo games from the start
SOLO_POWER = 1.0
SOLO_SPREAD = 2.5

#: The points each card kind puts on itself when revealed (leaves only; every other kind 0).
LEAF_POINTS = {kind: brown + 5 * golden for kind, (brown, golden) in LEAF_ACORNS.items()}


def estimate(state: TreeState) -> list[float]:
    """Each seat's expected share of the win (multiplayer), or the chance to win (solo), in [0, 1]."""
    if state.phase == "over":
        returns = state.returns()
        if state.num_players == 1:
            return returns
        total = sum(returns)
        n = state.num_players
        return [r / total for r in returns] if total > 0 else [1.0 / n] * n
    if state.solo:
        return [solo_chance(state)]
    return multiplayer_shares(state)  # type: ignore[arg-type]


def multiplayer_shares(state: NuttyState) -> list[float]:
    """Win shares from each seat's worth (see the module docstring); they sum to 1."""
    face_down = 0
    for limb in state.limbs:
        for slot in limb:
            if not slot[1]:
                face_down += 1
    softness = SOFT_TRIGGERED if state.end_triggered else SOFT_BASE + SOFT_PER_CARD * face_down
    pack_value = {"": 0, "b": 1, "g": 5}
    worths = []
    for s in range(state.num_players):
        worth = state.bur_b[s] + 5 * state.bur_g[s]
        if worth >= WIN_POINTS:  # win_at_20 = finish_round: already past the post
            worths.append(float(worth) + 10.0)
            continue
        nest = state.nest_b[s] + 5 * state.nest_g[s]
        carried = state.cheeks_b[s] + 5 * state.cheeks_g[s] + pack_value[state.pack[s]]
        sticky = state.stick_b[s] + 5 * state.stick_g[s]
        value = worth + NEST_WEIGHT * nest + CARRIED_WEIGHT * carried + STICKY_WEIGHT * sticky
        value += POWER_WORTH * len(state.powers[s]) - SAPPY_WORTH * (state.sappy_next[s] + state.sappy_now[s])
        if s == state.current:
            value += AP_WORTH * state.ap
        worths.append(value)
    return shares_from_scores(worths, softness)


def solo_chance(state: TreeState) -> float:
    """The chance to reach 20 points: a logistic curve of what is banked and what is still to be had."""
    points = state.points(0)
    if points >= WIN_POINTS:
        return 1.0
    carried = state.cheeks_b[0] + 5 * state.cheeks_g[0] + {"": 0, "b": 1, "g": 5}[state.pack[0]]
    loose = 0
    face_down = 0
    seen_leaf_points = 0
    for limb in state.limbs:
        for kind, up, brown, golden in limb:
            loose += brown + 5 * golden
            if up:
                seen_leaf_points += LEAF_POINTS.get(kind, 0)
            else:
                face_down += 1
    for kind in state.out_known:
        seen_leaf_points += LEAF_POINTS.get(kind, 0)
    unseen = face_down + len(state.deck) + len(state.out_hidden)
    hidden = 0.0
    if unseen:
        # The average leaf value of the cards nobody has seen: public, whatever the world.
        hidden = face_down * (leaf_points_total(state) - seen_leaf_points) / unseen
    potential = points + SOLO_CARRIED * carried + SOLO_LOOSE * loose + SOLO_HIDDEN * hidden
    potential += SOLO_POWER * len(state.powers[0])
    return 1.0 / (1.0 + math.exp((WIN_POINTS - potential) / SOLO_SPREAD))


def leaf_points_total(state: TreeState) -> int:
    """The points every leaf of the composition puts on the tree."""
    total = 0
    for kind, count in state.cards.items():
        total += LEAF_POINTS.get(kind, 0) * count
    return total
