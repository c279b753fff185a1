"""A S'Quarrels bot that plays like a sensible person.

It stores every set it can (but draws first, or keeps the set, when storing would leave only the Golden to
discard), keeps pairs and high cards (they win Quarrels), dumps the Rotten Acorn whenever
the rules let it, fights a Quarrel only when its best card is likely to win the pot, and slaps the Hoard
unless the pile probably holds the Rotten. It reads only its observation and legal actions.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from oakwood.engine import Decision, Rng
from oakwood.engine.agent import Choice, PlayerView

from . import actions as A
from .actions import Action
from .cards import COUNTS, GOLDEN, HAND_KINDS, NAME_TO_CARD, ROTTEN, SET_SIZE


class SQuarrelsHeuristic:
    """Stores sets, keeps high cards for Quarrels, dumps the Rotten, slaps unless the Rotten is likely there."""

    name = "heuristic"

    # The figures its rules of thumb weigh (a strategist plays them tuned: ``strategist.py``).
    #: Fight a Quarrel with a card of at least this rank when few cards above it are still out there ...
    fight_rank = 4
    #: ... at most this share of the unseen cards per rival, plus ``fight_margin``.
    fight_share = 0.25
    fight_margin = 1.0
    #: A card of this rank or above is played in a Quarrel even when it is not likely to win (6: never).
    always_play_rank = 5
    #: Play the Golden in a Quarrel (and lose it, unless it is the last card) for a pot of this many cards.
    golden_pot = 4
    #: Slap for the Hoard Pile when its cards at this worth each outweigh the chance it holds the Rotten at
    #: ``slap_rotten_cost``.
    slap_card_value = 0.7
    slap_rotten_cost = 5.0
    #: What keeping a card is worth per copy toward a set, against its rank (a discard keeps pairs first).
    pair_worth = 10.0

    def __init__(self, seed: int = 0, reaction: tuple[float, float] = (0.35, 1.1)) -> None:
        self.rng = Rng(seed)
        self.reaction = reaction  # seconds: a human-like slap delay is drawn from this range
        #: The count of each card in the game's deck (SQ-26), read from the view's game at every decision.
        self.deck: tuple[int, ...] = COUNTS

    def act(self, view: PlayerView) -> Hashable | Choice:
        """Choose an action from ``view.legal_actions``."""
        legal: Sequence[Action] = view.legal_actions  # type: ignore[assignment]
        obs = view.observation
        self.deck = view.game.options.cards
        hand = hand_counts(obs["hand"])
        verbs = {a.verb for a in legal}
        if A.SLAP in verbs:
            action = self._race(obs, hand, legal)
            if view.decision is Decision.RACE:
                low, high = self.reaction
                return Choice(action, delay=low + (high - low) * self.rng.random())
            return action
        if A.PLAY in verbs:
            return self._quarrel(obs, hand, legal)
        return self._turn(obs, hand, legal)

    # ------------------------------------------------------------------ turn
    def _turn(self, obs: dict[str, Any], hand: list[int], legal: Sequence[Action]) -> Action:
        """Store as soon as a set is in hand (the highest first: bank points before Winter can take them),
        else draw while drawing is open (draw is legal only as the mandatory draw or under seven cards), else
        discard the card least worth keeping."""
        stores = _storable(hand, legal)
        if stores:
            return max(stores, key=lambda a: (a.card, a.verb == A.STORE))
        if A.DRAW_ACTION in legal:
            return A.DRAW_ACTION
        return _discard(hand, legal, self.pair_worth)

    # ------------------------------------------------------------------ quarrel
    def _quarrel(self, obs: dict[str, Any], hand: list[int], legal: Sequence[Action]) -> Action:
        """Play the best card when it is likely to win the pot, else lose cheaply (the Rotten first)."""
        quarrel = obs["quarrel"] or {}
        playable = sorted(a.card for a in legal)
        others = max(1, len(quarrel.get("live", [])) - 1)
        pot = len(quarrel.get("pot", [])) + others
        best = playable[-1]
        size = sum(hand)
        if best == GOLDEN:
            # The Golden always wins, but is lost unless it is the last card: worth it only for a big pot.
            if size == 1 or pot >= self.golden_pot:
                return A.PLAY_ACTIONS[GOLDEN]
            best = playable[-2] if len(playable) > 1 else GOLDEN
        seen_high = _unseen_above(obs, hand, best, self.deck)
        share = self.fight_share * _unseen_total(obs, hand) / max(1, others)
        if best >= self.fight_rank and seen_high <= share + self.fight_margin:
            return A.PLAY_ACTIONS[best]
        if ROTTEN in playable:  # lose the Quarrel and hand the winner the −5
            return A.PLAY_ACTIONS[ROTTEN]
        if best >= self.always_play_rank:
            return A.PLAY_ACTIONS[best]
        # Not going to win: give away the least useful card.
        return A.PLAY_ACTIONS[_least_worth(hand, playable, self.pair_worth)]

    # ------------------------------------------------------------------ hoard race
    def _race(self, obs: dict[str, Any], hand: list[int], legal: Sequence[Action]) -> Action:
        size = obs["hoard_pile_size"]
        mine = [NAME_TO_CARD[n] for n in obs["hoard_pile_yours"]]
        if ROTTEN in mine:
            return A.PASS_ACTION
        if size == 0:
            return A.SLAP_ACTION  # an empty pile still wins the turn
        if hand[ROTTEN]:
            p_rotten = 0.0
        else:
            unseen_pile = size - len(mine)
            unknown = unseen_pile + sum(obs["hand_sizes"]) - sum(hand) + obs["deck_size"]
            p_rotten = unseen_pile / max(1, unknown)
        gain = self.slap_card_value * size - self.slap_rotten_cost * p_rotten
        return A.SLAP_ACTION if gain > 0 else A.PASS_ACTION


def hand_counts(names: Sequence[str]) -> list[int]:
    """How many of each card (``ROTTEN`` … ``GOLDEN``, by index) the hand ``names`` holds.

    A list, not a ``collections.Counter``: the bots run compiled (issue 36) and a Counter is interpreted standard
    library, about 8 % of a guided search's time under cProfile; a list is indexed natively in both forms."""
    hand = [0] * HAND_KINDS
    for name in names:
        hand[NAME_TO_CARD[name]] += 1
    return hand


def _storable(hand: list[int], legal: Sequence[Action]) -> list[Action]:
    """The legal stores worth making: none if storing every set would leave the Golden as the only card.

    From 3 3 G and a drawn 3, storing closes drawing and the Golden's +5 would have to be discarded: better
    draw another card first while drawing is open, or, once it is closed, keep the set in hand and discard
    one of its cards.
    """
    stores = [a for a in legal if a.verb in (A.STORE, A.STORE_WILD)]
    return [] if stores and _only_golden_left(hand, stores) else stores


def _discard(hand: list[int], legal: Sequence[Action], pair_worth: float) -> Action:
    """The card least worth keeping (``_keep_value``), or the turn's only action (the forced draw, ``end``)."""
    discards = [a for a in legal if a.verb == A.DISCARD]
    if discards:
        return min(discards, key=lambda a: _keep_value(a.card, hand, pair_worth))
    return legal[0]


def _least_worth(hand: list[int], playable: Sequence[int], pair_worth: float) -> int:
    """The playable card least worth keeping, never the Golden unless it is the only one."""
    return min((c for c in playable if c != GOLDEN), key=lambda c: _keep_value(c, hand, pair_worth), default=GOLDEN)


def _only_golden_left(hand: list[int], stores: Sequence[Action]) -> bool:
    """Whether storing every set on offer would leave the Golden as the hand's only card."""
    if not hand[GOLDEN]:
        return False
    left = list(hand)
    for action in sorted(stores, key=lambda a: (a.card, a.verb == A.STORE), reverse=True):
        if action.verb == A.STORE and left[action.card] >= SET_SIZE:
            left[action.card] -= SET_SIZE
    return sum(left) == left[GOLDEN]


def _keep_value(card: int, hand: list[int], pair_worth: float) -> float:
    """How much a card is worth keeping: the Golden most, the Rotten least, then ``pair_worth`` a copy toward a
    set and one a rank."""
    if card == GOLDEN:
        return 100.0
    if card == ROTTEN:
        return -100.0
    count = hand[card]
    toward_set = min(count, SET_SIZE - 1) * pair_worth
    return toward_set + card


def _unseen_total(obs: dict[str, Any], hand: list[int]) -> int:
    return int(sum(obs["hand_sizes"])) - sum(hand)


def _unseen_above(obs: dict[str, Any], hand: list[int], card: int, deck: Sequence[int] = COUNTS) -> float:
    """How many cards ranked above ``card`` may still be out there (not in my hand, storage or Discard), of
    ``deck``'s counts (the game's deck, SQ-26)."""
    out = 0.0
    stored = [0] * (GOLDEN + 1)  # only the counts of the cards ranked 1..5 are read
    for sets in obs["storage"]:
        for value in sets:
            if value <= GOLDEN:
                stored[value] += 1
    for higher in range(card + 1, GOLDEN + 1):
        if higher == GOLDEN:  # a played Golden lies in the Action discard
            remaining = deck[GOLDEN] - hand[GOLDEN] - obs["action_discard"].get("golden", 0)
        else:
            remaining = deck[higher] - hand[higher] - SET_SIZE * stored[higher]
        out += max(0, remaining)
    return out
