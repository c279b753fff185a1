"""A heuristic Barrell bot that plays like a sensible person, from its observation only.

It estimates every field's score (its own cards exactly, an unseen face-down card as an average card),
keeps playing its strongest numbered cards while it is behind, passes once it is safely ahead or has
nothing useful left, sits a battle out while two or more rivals with big hands are still spending theirs
(hands are never refilled, so the cards they burn cannot win the later battles), saves the King of Clubs
for a field worth doubling and the Jack of Clubs for a lead worth locking in, throws hearts at the leader,
and takes back the most useful card when a King lets it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from oakwood.engine import Rng
from oakwood.engine.agent import PlayerView

from .actions import (
    GIFT,
    GIVE,
    JOKER_FIELD,
    JOKER_KEEP,
    KEEP,
    MULLIGAN,
    PASS,
    PLAY,
    RETURN,
    SWAP,
    TAKE,
    Action,
)
from .cards import (
    BY_NAME,
    HEARTS,
    IS_ACE,
    IS_FACE,
    IS_JOKER,
    IS_NUMBERED,
    JACK_OF_CLUBS,
    JACK_OF_HEARTS,
    JACK_OF_SPADES,
    KING_OF_CLUBS,
    KING_OF_SPADES,
    RANK,
    SUIT,
)

UNSEEN_CARD_VALUE = 3.2  # an unseen face-down card's expected non-heart value
UNSEEN_HEART_VALUE = 1.0  # …and its expected heart value (handed to a rival)
#: How much each card is worth keeping for later (higher = play it later or not at all).
KEEP_VALUE = {JACK_OF_HEARTS: 9.0, KING_OF_CLUBS: 8.0, JACK_OF_CLUBS: 7.0, JACK_OF_SPADES: 5.0}
RICH_HAND = 6  # a rival holding this many cards can outspend us in the current battle


def _card(name: str) -> int:
    return BY_NAME[name]


def _value(card: int) -> int:
    """A numbered card's plain value (an Ace counts 1 unless a face card of its suit is around)."""
    return RANK[card] if IS_NUMBERED[card] else 0


def _signed(card: int) -> int:
    value = _value(card)
    return -value if SUIT[card] == HEARTS else value


class BarrellHeuristic:
    """The ``heuristic`` Barrell agent."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    # ------------------------------------------------------------------ estimates
    @staticmethod
    def _bonus_suits(obs: dict[str, Any]) -> int:
        """Suits with a face card in sight on the table (their Aces are worth 11, BR-13)."""
        suits = 0
        for field in obs["fields"]:
            for slot in field:
                if slot["card"] is not None and IS_FACE[_card(slot["card"])]:
                    suits |= 1 << SUIT[_card(slot["card"])]
        for name in obs["queen_zone"]:
            suits |= 1 << SUIT[_card(name)]
        return suits

    def _split(self, obs: dict[str, Any], seat: int) -> tuple[float, float]:
        """(value of the field's own non-heart cards, hearts it will hand out), unseen cards by expectation."""
        bonus = self._bonus_suits(obs)
        own = hearts = 0.0
        doubled = False
        for slot in obs["fields"][seat]:
            name = slot["card"]
            if name is None:
                own += UNSEEN_CARD_VALUE
                hearts += UNSEEN_HEART_VALUE
                continue
            card = _card(name)
            if card == KING_OF_CLUBS:
                doubled = True
            if not IS_NUMBERED[card]:
                continue
            value = 11 if IS_ACE[card] and bonus >> SUIT[card] & 1 else _value(card)
            if SUIT[card] == HEARTS:
                hearts += value
            else:
                own += value
        return (own * 2 if doubled else own), hearts

    def _estimates(self, obs: dict[str, Any], seat: int) -> list[float]:
        """Every seat's expected battle score, assuming each player's hearts go to its strongest rival."""
        n = obs["players"]
        parts = [self._split(obs, p) for p in range(n)]
        scores = [own for own, _ in parts]
        for giver, (_, hearts) in enumerate(parts):
            if not hearts:
                continue
            target = max((p for p in range(n) if p != giver), key=lambda p: parts[p][0])
            scores[target] -= hearts
        return scores

    def _rival(self, obs: dict[str, Any], seat: int) -> int:
        """The opponent to hurt: the best field now, then the most wins."""
        parts = [self._split(obs, p)[0] for p in range(obs["players"])]
        others = [p for p in range(obs["players"]) if p != seat]
        return max(others, key=lambda p: (parts[p], obs["wins"][p], -p))

    # ------------------------------------------------------------------ decisions
    def act(self, view: PlayerView) -> Hashable:
        """Choose an action from the observation and the legal actions only."""
        obs = view.observation
        legal: list[Action] = [a for a in view.legal_actions if isinstance(a, Action)]
        verbs = {a.verb for a in legal}
        if verbs & {MULLIGAN, KEEP}:
            return self._mulligan(obs, legal)
        if PLAY in verbs or PASS in verbs:
            return self._play(obs, view.seat, legal)
        if SWAP in verbs:
            scores = self._estimates(obs, view.seat)
            return max(legal, key=lambda a: scores[a.target])
        if GIFT in verbs or GIVE in verbs:
            rival = self._rival(obs, view.seat)
            return next((a for a in legal if a.target == rival), legal[0])
        if JOKER_KEEP in legal:
            return self._joker(obs, view.seat)
        if RETURN in verbs or TAKE in verbs:
            return max(legal, key=lambda a: self._worth_in_hand(a.card))
        return legal[0]

    def _worth_in_hand(self, card: int) -> float:
        if card in KEEP_VALUE:
            return KEEP_VALUE[card] + 2
        if IS_JOKER[card]:
            return 6.0
        if IS_NUMBERED[card] and SUIT[card] == HEARTS:
            return _value(card) * 0.6
        return float(_value(card)) if IS_NUMBERED[card] else 3.0

    def _mulligan(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Set aside the weakest plain cards (a 2 or 3 that is not a heart), at most three."""
        if len(obs["aside"]) >= 3:
            return next(a for a in legal if a.verb == KEEP)
        weak = [
            a
            for a in legal
            if a.verb == MULLIGAN and IS_NUMBERED[a.card] and SUIT[a.card] != HEARTS and 2 <= RANK[a.card] <= 3
        ]
        if weak and len(obs["hand"]) > 4:
            return min(weak, key=lambda a: RANK[a.card])
        return next(a for a in legal if a.verb == KEEP)

    def _joker(self, obs: dict[str, Any], seat: int) -> Action:
        """Take the field back when the battle looks lost (the cards fight again); otherwise keep the Joker."""
        scores = self._estimates(obs, seat)
        best = max(scores[p] for p in range(obs["players"]) if p != seat)
        own = [s for s in obs["fields"][seat] if s["card"] is not None and not IS_JOKER[_card(s["card"])]]
        return JOKER_FIELD if scores[seat] <= best and len(own) >= 2 else JOKER_KEEP

    def _play(self, obs: dict[str, Any], seat: int, legal: Sequence[Action]) -> Action:
        plays = [a for a in legal if a.verb == PLAY]
        pass_action = next(a for a in legal if a.verb == PASS)
        if self._sit_out(obs, seat):
            return pass_action
        scores = self._estimates(obs, seat)
        others = [p for p in range(obs["players"]) if p != seat]
        live_count = sum(1 for p in others if not obs["passed"][p])
        live = live_count > 0
        lead = scores[seat] - max(scores[p] for p in others)
        jd = obs["jack_of_diamonds"]
        if not live:
            if lead > 0:
                return pass_action  # nobody can answer any more: stop spending cards
        else:
            if lead > 8 + 4 * live_count or (lead > 4 and len(plays) <= 3):
                return pass_action
            jack = next((a for a in plays if a.card == JACK_OF_CLUBS), None)
            if jack is not None and lead > 3 and not jd:
                return jack  # lock the lead in: the battle ends at once
        reach = sum(sorted((self._gain(obs, seat, a.card, lead) for a in plays), reverse=True)[:4])
        if lead + reach < 0 and len(plays) <= 4:
            return pass_action  # hopeless with what is left: keep the cards for a later battle
        best = max(plays, key=lambda a: (self._gain(obs, seat, a.card, lead), -a.card))
        return best if self._gain(obs, seat, best.card, lead) > 0.5 else pass_action

    @staticmethod
    def _sit_out(obs: dict[str, Any], seat: int) -> bool:
        """Whether to let this battle go without spending a card: our field is still empty, at least two rivals
        still playing hold big hands (and not many fewer cards than we do), and no rival is one win from the
        game. Cards are never refilled (BR-2), so what they burn now is missing in the battles we fight."""
        others = [p for p in range(obs["players"]) if p != seat]
        if obs["fields"][seat] or any(obs["wins"][p] >= 1 for p in others):
            return False
        rich = [obs["hand_sizes"][p] for p in others if not obs["passed"][p] and obs["hand_sizes"][p] >= RICH_HAND]
        return len(rich) >= 2 and len(obs["hand"]) <= max(rich) + 2

    def _gain(self, obs: dict[str, Any], seat: int, card: int, lead: float) -> float:
        """How much playing ``card`` now improves this seat's standing (a rough, human-style guess)."""
        jd = obs["jack_of_diamonds"]
        if IS_NUMBERED[card]:
            if IS_ACE[card]:
                return 11.0 if self._bonus_suits(obs) >> SUIT[card] & 1 else 1.0
            return float(_value(card))  # a heart hurts the rival by as much as a plain card helps us
        if jd and IS_FACE[card]:
            return -1.0  # cancelled by the Jack of Diamonds
        if card == JACK_OF_HEARTS:
            return 9.0  # two more cards
        if card == KING_OF_CLUBS:
            own = self._split(obs, seat)[0]
            return own - 4 if own >= 10 else -1.0
        if card == JACK_OF_SPADES:
            return -lead - 4
        if card == KING_OF_SPADES:
            return 2.0  # a card back from Discard after the battle
        return -1.0  # Queens, the other Kings, Jokers, J♣/J♦: kept for the right moment
