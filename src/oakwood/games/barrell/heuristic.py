"""A heuristic Barrell bot that plays like a sensible person, from its observation only.

It estimates every field's score (its own cards exactly, an unseen face-down card as an average card),
keeps playing its strongest numbered cards while it is behind, passes once it is safely ahead or has
nothing useful left, sits a battle out while two or more rivals with big hands are still spending theirs
(hands are never refilled, so the cards they burn cannot win the later battles), saves the King of Clubs
for a field worth doubling and the Jack of Clubs for a lead worth locking in, throws hearts at the leader,
and takes back the most useful card when a King lets it.

Every face card and Joker has a use (issue 35: the bot used to hold the Queens, the K♥, the K♦, the J♦ and
the Jokers for ever, so an analysis could say nothing about them):

- **Estimates** know the cards in sight that change scores: an active Queen sets its suit to 1 in every field
  (BR-8), an active K♦ removes each field's highest card (BR-9), a K♣ or Queen the J♦ cancelled does nothing
  (BR-11). Unseen cards are judged from the *unseen pool* (every card of the game's deck, BR-24, that this
  seat cannot place: not in its hand, the fields it sees, Discard, the Queen Zone or a hand known to hold
  it), so a Queen counts for less when this seat holds most of its suit.
- **A Queen or the K♦** is played when the estimated lead after the Queen Zone (BR-7 to BR-9: it hits every
  field, ours included) beats the lead now, and it is the best card to play: a Queen of a suit we do not field
  against rivals with many face-down cards; the K♦ when our field is many small cards and theirs few big ones.
- **Before passing** (for any reason: a safe lead, a hopeless battle, nothing useful left) it may first play
  one card that costs nothing in this battle's score: a **Joker** when the field's other cards are worth more
  than the Joker to take back (at the reveal it keeps the Joker if the battle is won and takes the field back
  if it is lost, BR-12); the **K♥** when the field holds a card worth taking back after the battle (BR-10);
  the **J♦**, with a lead, when the field is worth protecting, none of its own Queens or Kings would be
  cancelled, and a rival could still hold or have played a Queen, the K♦, the K♣ or the J♠ (BR-11).

What each rule is worth was measured with ``benchmarks/barrell_heuristic.py`` (duplicate deals, a sequential
test; figures in ``benchmarks/README.md``): the Jokers most (up to 9 points of win share at two players),
then the Queens and the K♥ (1 to 3 points), the K♦ at two players only, the J♦ nothing measurable either way.
The bot never reads the live state, only its ``PlayerView``.
"""

from __future__ import annotations

import math
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
    CLUBS,
    DECK_SIZE,
    DIAMONDS,
    HEARTS,
    IS_ACE,
    IS_FACE,
    IS_JACK,
    IS_JOKER,
    IS_NUMBERED,
    IS_QUEEN,
    JACK_OF_CLUBS,
    JACK_OF_DIAMONDS,
    JACK_OF_HEARTS,
    JACK_OF_SPADES,
    JOKERS,
    KING_OF_CLUBS,
    KING_OF_DIAMONDS,
    KING_OF_HEARTS,
    KING_OF_SPADES,
    QUEENS,
    RANK,
    SPADES,
    SUIT,
)

UNSEEN_CARD_VALUE = 3.2  # an unseen face-down card's expected non-heart value
UNSEEN_HEART_VALUE = 1.0  # …and its expected heart value (handed to a rival)
#: How much each card is worth keeping for later (higher = play it later or not at all).
KEEP_VALUE = {JACK_OF_HEARTS: 9.0, KING_OF_CLUBS: 8.0, JACK_OF_CLUBS: 7.0, JACK_OF_SPADES: 5.0}
RICH_HAND = 6  # a rival holding this many cards can outspend us in the current battle
#: A card for the Queen Zone (a Queen, the K♦) is played only when it improves the lead by more than this.
#: Measured on duplicate deals: a margin of 1 point (the card spent, a rough estimate) lost 1.6 points of
#: win share at 2 players against no margin; spending a Queen keeps a numbered card for later.
ZONE_MARGIN = 0.0
#: A Joker goes in before passing when the field's other cards are worth more than this to take back (the
#: Joker itself is lost when the field is taken back, BR-12).
JOKER_INSURES = 7.0
#: The King of Hearts goes in before passing when the field holds a card worth at least this to take back.
KH_RETURNS = 5.0
#: The Jack of Diamonds goes in before passing with a lead when the field's own value is at least this.
JD_PROTECTS = 8.0
#: Every card of the rulebook's deck, for a game that does not say which cards are in play.
ALL_CARDS: tuple[int, ...] = tuple(range(DECK_SIZE))
#: The face cards whose effect can turn a battle against a leader, which the Jack of Diamonds cancels
#: (BR-11): the Queens, the Kings of Diamonds and Clubs (a rival's field doubled), the Jack of Spades.
THREATS = frozenset((*QUEENS, KING_OF_DIAMONDS, KING_OF_CLUBS, JACK_OF_SPADES))


def _card(name: str) -> int:
    return BY_NAME[name]


def _value(card: int) -> int:
    """A numbered card's plain value (an Ace counts 1 unless a face card of its suit is around)."""
    return RANK[card] if IS_NUMBERED[card] else 0


def _signed(card: int) -> int:
    value = _value(card)
    return -value if SUIT[card] == HEARTS else value


class _Battle:
    """What the current battle looks like from one seat, built once per decision.

    ``bonus``: suits whose Aces are worth 11 (a face card of the suit in sight, BR-13); ``reduced``: suits an
    active Queen in sight sets to 1 (BR-8); ``kod``: an active King of Diamonds in sight (BR-9); ``void``: the
    face cards in the fields that the Jack of Diamonds cancelled (BR-11). The unseen pool (every card this seat
    cannot place) is built only when a Queen or the King of Diamonds is in question.
    """

    __slots__ = (
        "_losses",
        "_pool",
        "_suits",
        "_tops",
        "bonus",
        "card_value",
        "deck",
        "heart_value",
        "known",
        "kod",
        "obs",
        "reduced",
        "unseen",
        "void",
    )

    def __init__(
        self,
        obs: dict[str, Any],
        deck: Sequence[int] = ALL_CARDS,
        card_value: float = UNSEEN_CARD_VALUE,
        heart_value: float = UNSEEN_HEART_VALUE,
    ) -> None:
        self.obs = obs
        self.deck = deck  # the cards in play (BR-24: a custom deck_composition leaves some out)
        #: What an unseen face-down card is worth on average: its non-heart value and its heart value.
        self.card_value, self.heart_value = card_value, heart_value
        jd = obs["jack_of_diamonds"]
        before = obs.get("before_jack_of_diamonds")  # only under jod_scope=cards_on_table_only
        bonus = reduced = 0
        kod = False
        void: set[int] = set()
        #: Per field, the cards this seat sees (ids) and how many it does not.
        self.known: list[list[int]] = []
        self.unseen: list[int] = []
        for p, field in enumerate(obs["fields"]):
            known: list[int] = []
            self.known.append(known)
            for i, slot in enumerate(field):
                name = slot["card"]
                if name is None:
                    continue
                card = _card(name)
                known.append(card)
                if not IS_FACE[card]:
                    continue
                bonus |= 1 << SUIT[card]
                if jd and (before is None or before[p][i]) and card != JACK_OF_DIAMONDS:
                    void.add(card)
                elif IS_QUEEN[card]:
                    reduced |= 1 << SUIT[card]
                elif card == KING_OF_DIAMONDS:
                    kod = True
        for name in obs["queen_zone"]:
            card = _card(name)
            bonus |= 1 << SUIT[card]
            if not jd:
                if IS_QUEEN[card]:
                    reduced |= 1 << SUIT[card]
                elif card == KING_OF_DIAMONDS:
                    kod = True
        self.bonus, self.reduced, self.kod, self.void = bonus, reduced, kod, void
        self.unseen = [len(field) - len(known) for field, known in zip(obs["fields"], self.known, strict=True)]
        self._pool: list[int] | None = None
        self._suits: tuple[list[int], list[int]] | None = None
        self._losses: dict[int, tuple[float, float]] = {}
        self._tops: dict[tuple[int, int], float] = {}

    @property
    def pool(self) -> list[int]:
        """The cards this seat cannot place: in the Deck, in rivals' hands or face down in rivals' fields."""
        if self._pool is None:
            obs = self.obs
            placed = set(map(_card, obs["hand"] or ()))
            placed.update(map(_card, obs["aside"] or ()))
            placed.update(map(_card, obs["discard"]))
            placed.update(map(_card, obs["queen_zone"]))
            for names in obs["known_in_hands"]:
                placed.update(map(_card, names))
            for known in self.known:
                placed.update(known)
            self._pool = [c for c in self.deck if c not in placed]
        return self._pool

    def magnitude(self, card: int, reduced: int) -> int:
        """A numbered card's value by magnitude under the Queens of ``reduced`` and the Ace rule (0 otherwise)."""
        if not IS_NUMBERED[card]:
            return 0
        if reduced >> SUIT[card] & 1:
            return 1
        if IS_ACE[card]:
            return 11 if self.bonus >> SUIT[card] & 1 else 1
        return RANK[card]

    def unseen_losses(self, reduced: int) -> tuple[float, float]:
        """What a Queen of each ``reduced`` suit takes from an unseen face-down card on average: (non-heart value,
        heart value), in the units of ``card_value`` and ``heart_value``, from the unseen pool."""
        if not reduced:
            return 0.0, 0.0
        cached = self._losses.get(reduced)
        if cached is not None:
            return cached
        if self._suits is None:
            # Per suit: the unseen numbered cards' total value and their count (a Queen leaves 1 of each).
            totals = [0, 0, 0, 0]
            counts = [0, 0, 0, 0]
            bonus = self.bonus
            for card in self.pool:
                if IS_NUMBERED[card]:
                    suit = SUIT[card]
                    totals[suit] += 11 if IS_ACE[card] and bonus >> suit & 1 else RANK[card]
                    counts[suit] += 1
            self._suits = (totals, counts)
        totals, counts = self._suits
        plain = totals[CLUBS] + totals[DIAMONDS] + totals[SPADES]
        lost = [totals[s] - counts[s] if reduced >> s & 1 else 0 for s in range(4)]
        plain_lost = lost[CLUBS] + lost[DIAMONDS] + lost[SPADES]
        losses = (
            self.card_value * plain_lost / plain if plain else 0.0,
            self.heart_value * lost[HEARTS] / totals[HEARTS] if totals[HEARTS] else 0.0,
        )
        self._losses[reduced] = losses
        return losses

    def expected_top(self, unseen: int, reduced: int) -> float:
        """The expected highest magnitude among ``unseen`` cards drawn from the pool (without replacement)."""
        key = (unseen, reduced)
        cached = self._tops.get(key)
        if cached is not None:
            return cached
        values = sorted(self.magnitude(c, reduced) for c in self.pool)
        size = len(values)
        if unseen <= 0 or size == 0:
            return 0.0
        draws = min(unseen, size)
        top = 0.0
        below = 0  # C(i - 1, draws): ways to draw every card from the i - 1 smallest
        for i, value in enumerate(values, start=1):
            if i < draws:
                continue  # C(i, draws) = 0: no way to draw them all from fewer cards
            ways = math.comb(i, draws)
            top += value * (ways - below)
            below = ways
        self._tops[key] = top = top / math.comb(size, draws)
        return top


class BarrellHeuristic:
    """The ``heuristic`` Barrell agent.

    Its rules of thumb are class attributes, so that the strategist (``strategist.py``) can play the same rules
    with other figures."""

    name = "heuristic"
    #: An unseen face-down card's expected non-heart value, and its heart value (handed to a rival).
    card_value: float = UNSEEN_CARD_VALUE
    heart_value: float = UNSEEN_HEART_VALUE
    #: A lead safe enough to pass on: more than ``safe_lead`` + ``safe_lead_per_rival`` per rival still playing,
    #: or more than ``small_lead`` with at most ``small_hand`` cards left to play.
    safe_lead: float = 8.0
    safe_lead_per_rival: float = 4.0
    small_lead: float = 4.0
    small_hand: int = 3
    #: The Jack of Clubs ends the battle when the lead is more than this.
    lock_lead: float = 3.0
    #: A battle is given up when the lead plus what the ``reach_cards`` best cards add is below 0 and at most
    #: ``hopeless_hand`` cards are left to play.
    reach_cards: int = 4
    hopeless_hand: int = 4
    #: The least a card must add to be played rather than passing (the one that adds most is played).
    min_gain: float = 0.5
    #: What the Jack of Hearts (two cards drawn) and the King of Spades (a card back from Discard) add; the King
    #: of Clubs adds the field's value less ``kc_cost`` once the field is worth ``kc_field``; the Jack of Spades
    #: adds what it takes from the lead, less ``js_cost``.
    jh_gain: float = 9.0
    ks_gain: float = 2.0
    kc_field: float = 10.0
    kc_cost: float = 4.0
    js_cost: float = 4.0
    #: The mulligan sets aside plain cards up to this rank while the hand holds more than ``mulligan_hand``.
    mulligan_rank: int = 3
    mulligan_hand: int = 4
    #: Before passing: see ``JOKER_INSURES``, ``KH_RETURNS`` and ``JD_PROTECTS``.
    joker_insures: float = JOKER_INSURES
    kh_returns: float = KH_RETURNS
    jd_protects: float = JD_PROTECTS

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        #: The cards in play in the game being played (the ``deck_composition`` option is public).
        self.deck: Sequence[int] = ALL_CARDS

    def _battle(self, obs: dict[str, Any]) -> _Battle:
        """The current battle as this seat sees it, unseen cards judged by this bot's figures."""
        return _Battle(obs, self.deck, self.card_value, self.heart_value)

    # ------------------------------------------------------------------ estimates
    def _split(
        self, obs: dict[str, Any], seat: int, battle: _Battle, reduced: int, kod: bool, extra: int = -1
    ) -> tuple[float, float]:
        """(value of the field's own non-heart cards, hearts it will hand out), unseen cards by expectation,
        after the Queens of ``reduced`` and, with ``kod``, the King of Diamonds; ``extra`` is a card this seat
        would add to its field."""
        own = hearts = 0.0
        doubled = False
        unseen = battle.unseen[seat]
        top = 0
        top_heart = False
        bonus = battle.bonus
        for card in battle.known[seat]:
            if not IS_NUMBERED[card]:
                if card == KING_OF_CLUBS and card not in battle.void:
                    doubled = True
                continue
            suit = SUIT[card]  # the value as in _Battle.magnitude, inlined: this loop is the bot's hot spot
            value = 1 if reduced >> suit & 1 else (11 if bonus >> suit & 1 else 1) if IS_ACE[card] else RANK[card]
            if value > top:
                top, top_heart = value, suit == HEARTS
            if suit == HEARTS:
                hearts += value
            else:
                own += value
        if extra >= 0 and IS_NUMBERED[extra]:
            value = battle.magnitude(extra, reduced)
            if value > top:
                top, top_heart = value, SUIT[extra] == HEARTS
            if SUIT[extra] == HEARTS:
                hearts += value
            else:
                own += value
        if unseen:
            lost_plain, lost_hearts = battle.unseen_losses(reduced)
            own += unseen * (battle.card_value - lost_plain)
            hearts += unseen * (battle.heart_value - lost_hearts)
        if kod:
            # BR-9: the field's highest card goes; an unseen one is a heart a quarter of the time.
            guess = battle.expected_top(unseen, reduced) if unseen else 0.0
            if top >= guess:
                if top_heart:
                    hearts -= top
                else:
                    own -= top
            else:
                share = battle.heart_value / (battle.card_value + battle.heart_value)
                own -= guess * (1 - share)
                hearts -= guess * share
        return (own * 2 if doubled else own), hearts

    def _estimates(self, obs: dict[str, Any], seat: int, battle: _Battle | None = None, extra: int = -1) -> list[float]:
        """Every seat's expected battle score, assuming each player's hearts go to its strongest rival;
        ``extra``: a card ``seat`` would play (a numbered card, a Queen or the King of Diamonds)."""
        battle = battle or self._battle(obs)
        reduced, kod = battle.reduced, battle.kod
        if extra >= 0 and not obs["jack_of_diamonds"]:
            if IS_QUEEN[extra]:
                reduced |= 1 << SUIT[extra]
            elif extra == KING_OF_DIAMONDS:
                kod = True
        n = obs["players"]
        parts = [self._split(obs, p, battle, reduced, kod, extra if p == seat else -1) for p in range(n)]
        scores = [own for own, _ in parts]
        for giver, (_, hearts) in enumerate(parts):
            if not hearts:
                continue
            target = max((p for p in range(n) if p != giver), key=lambda p: parts[p][0])
            scores[target] -= hearts
        return scores

    def _rival(self, obs: dict[str, Any], seat: int) -> int:
        """The opponent to hurt: the best field now, then the most wins."""
        battle = self._battle(obs)
        parts = [self._split(obs, p, battle, battle.reduced, battle.kod)[0] for p in range(obs["players"])]
        others = [p for p in range(obs["players"]) if p != seat]
        return max(others, key=lambda p: (parts[p], obs["wins"][p], -p))

    # ------------------------------------------------------------------ decisions
    def act(self, view: PlayerView) -> Hashable:
        """Choose an action from the observation, the legal actions and the game's public options only."""
        obs = view.observation
        self.deck = getattr(view.game, "deck_cards", ALL_CARDS)
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
            if a.verb == MULLIGAN
            and IS_NUMBERED[a.card]
            and SUIT[a.card] != HEARTS
            and 2 <= RANK[a.card] <= self.mulligan_rank
        ]
        if weak and len(obs["hand"]) > self.mulligan_hand:
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
        battle = self._battle(obs)
        scores = self._estimates(obs, seat, battle)
        others = [p for p in range(obs["players"]) if p != seat]
        live_count = sum(1 for p in others if not obs["passed"][p])
        live = live_count > 0
        lead = scores[seat] - max(scores[p] for p in others)
        jd = obs["jack_of_diamonds"]
        if not live:
            if lead > 0:
                return self._before_passing(obs, seat, plays, battle, lead, live) or pass_action
        else:
            safe = self.safe_lead + self.safe_lead_per_rival * live_count
            if lead > safe or (lead > self.small_lead and len(plays) <= self.small_hand):
                return self._before_passing(obs, seat, plays, battle, lead, live) or pass_action
            jack = next((a for a in plays if a.card == JACK_OF_CLUBS), None)
            if jack is not None and lead > self.lock_lead and not jd:
                return jack  # lock the lead in: the battle ends at once
        gains = [self._gain(obs, seat, a.card, lead, battle) for a in plays]
        # What the best cards could still add (a card that would hurt us is simply not played).
        reach = sum(sorted((max(g, 0.0) for g in gains), reverse=True)[: self.reach_cards])
        if lead + reach < 0 and len(plays) <= self.hopeless_hand and self._may_give_up(obs, seat):
            # hopeless with what is left: keep the cards for a later battle
            return self._before_passing(obs, seat, plays, battle, lead, live) or pass_action
        gain, _, best = max(zip(gains, [-a.card for a in plays], plays, strict=True))
        if gain > self.min_gain:
            return best
        return self._before_passing(obs, seat, plays, battle, lead, live) or pass_action

    def _may_give_up(self, obs: dict[str, Any], seat: int) -> bool:
        """Whether a hopeless battle may be given up (the heuristic: always)."""
        return True

    def _before_passing(
        self, obs: dict[str, Any], seat: int, plays: Sequence[Action], battle: _Battle, lead: float, live: bool
    ) -> Action | None:
        """A last card that costs nothing in this battle's score but protects what the field holds, played
        instead of passing (the pass comes on a later turn), or ``None``:

        - a **Joker**, when the field's other cards are worth taking back should the battle be lost (BR-12: at
          the reveal the Joker returns to hand if the battle is won, or takes the field back if it is lost);
        - the **King of Hearts**, when the field holds a card worth taking back after the battle (BR-10);
        - the **Jack of Diamonds**, with a lead, when the field is worth protecting, none of its own Queens or
          Kings would be cancelled, and a rival may still hold or have played a face card that turns battles
          (a Queen, the K♦, the K♣, the J♠): it cancels them all for the rest of the battle (BR-11).
        """
        if not plays:
            return None
        held = {a.card: a for a in plays}
        mine = [_card(s["card"]) for s in obs["fields"][seat] if s["card"] is not None]
        jokers = [held[c] for c in JOKERS if c in held]
        worth = [self._worth_in_hand(c) for c in mine if not IS_JOKER[c]]
        if jokers and len(worth) == len(mine) and sum(worth) > self.joker_insures:
            return jokers[0]
        jd = obs["jack_of_diamonds"]
        if KING_OF_HEARTS in held and not jd and max(worth, default=0.0) >= self.kh_returns:
            return held[KING_OF_HEARTS]
        if JACK_OF_DIAMONDS in held and not jd and lead > 0:
            if any(IS_FACE[c] and not IS_JACK[c] for c in mine):
                return None  # it would cancel our own Queen or King
            own = self._split(obs, seat, battle, battle.reduced, battle.kod)[0]
            if own < self.jd_protects:
                return None
            rivals_hidden = any(
                slot["card"] is None for p, field in enumerate(obs["fields"]) if p != seat for slot in field
            )
            if (live or rivals_hidden) and any(c in THREATS for c in battle.pool):
                return held[JACK_OF_DIAMONDS]
        return None

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

    def _gain(self, obs: dict[str, Any], seat: int, card: int, lead: float, battle: _Battle) -> float:
        """How much playing ``card`` now improves this seat's standing (a rough, human-style guess)."""
        jd = obs["jack_of_diamonds"]
        if IS_NUMBERED[card]:
            if battle.reduced >> SUIT[card] & 1:
                return 1.0  # a Queen of its suit is already in play (BR-8)
            if IS_ACE[card]:
                return 11.0 if battle.bonus >> SUIT[card] & 1 else 1.0
            return float(_value(card))  # a heart hurts the rival by as much as a plain card helps us
        if jd and IS_FACE[card]:
            return -1.0  # cancelled by the Jack of Diamonds
        if card == JACK_OF_HEARTS:
            return self.jh_gain  # two more cards
        if card == KING_OF_CLUBS:
            own = self._split(obs, seat, battle, battle.reduced, battle.kod)[0]
            return own - self.kc_cost if own >= self.kc_field else -1.0
        if card == JACK_OF_SPADES:
            return -lead - self.js_cost
        if card == KING_OF_SPADES:
            return self.ks_gain  # a card back from Discard after the battle
        if IS_QUEEN[card] or card == KING_OF_DIAMONDS:
            # The Queen Zone hits every field (BR-7 to BR-9): worth it when the rivals lose more than we do.
            after = self._estimates(obs, seat, battle, extra=card)
            others = [p for p in range(obs["players"]) if p != seat]
            new_lead = after[seat] - max(after[p] for p in others)
            return new_lead - lead - ZONE_MARGIN
        return -1.0  # the other Kings, Jokers, J♣/J♦: kept for the right moment (see _before_passing)
