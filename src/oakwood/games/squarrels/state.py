"""S'Quarrels rules, top to bottom like the rulebook (RULINGS §1.2 state machine; ruling ids cited).

Hands, the Hoard Pile and Discard are count vectors over card kinds: identical cards are interchangeable.
The Deck is a list whose end is its top. Seats are 0-based here; people see them as P1…Pn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Self, cast

from oakwood.engine import Decision, InvariantError, Rng, State
from oakwood.engine.native import mypyc_attr

from . import actions as A
from . import knowledge as K
from .actions import DISCARD, DRAW, END, PASS, PLAY, SLAP, STORE, Action
from .cards import (
    ALL_KINDS,
    COMPOSITION_MAX_CARDS,
    GOLDEN,
    HAND_KINDS,
    HAND_LIMIT,
    NAMES,
    ROTTEN,
    SET_SIZE,
    SPECIAL_BONUS,
    WINTER,
)
from .cards import AMBUSH as AMBUSH_CARD
from .cards import HOARD as HOARD_CARD
from .cards import QUARREL as QUARREL_CARD

if TYPE_CHECKING:
    from .game import SQuarrels
    from .options import SQuarrelsOptions

# Phases of the state machine.
MUST_DRAW: Final = "must_draw"  # the mandatory first draw of a turn (SQ-3)
DRAWING: Final = "drawing"  # optional draws while the hand holds fewer than 7; store or discard end drawing
STORING: Final = "storing"  # drawing closed: store sets, then discard
QUARREL: Final = "quarrel"  # commit decision among the Quarrel's live players
RACE: Final = "race"  # the Hoard race (a race, or a commit in the random / seat_order modes)
OVER: Final = "over"
PHASES: Final = (MUST_DRAW, DRAWING, STORING, QUARREL, RACE, OVER)

_SEATS: Final = tuple((s,) for s in range(8))
_ONLY: Final = tuple(frozenset((s,)) for s in range(8))  # event audiences of one seat, built once
_PAIRS: Final = tuple(tuple(frozenset((a, b)) for b in range(8)) for a in range(8))  # audiences of two seats
#: ``_CLOCKWISE[n][seat]``: the n seats of an n-player table clockwise from ``seat`` (itself first).
_CLOCKWISE: Final = tuple(tuple(tuple((seat + i) % n for i in range(n)) for seat in range(n)) for n in range(9))
_DRAW_ONLY: Final = (A.DRAW_ACTION,)
_TURN_PHASES: Final = frozenset((MUST_DRAW, DRAWING, STORING))
#: The cards shown from every hand at Winter (SQ-25), by the name events use.
_SPECIALS: Final = (("golden", GOLDEN), ("rotten", ROTTEN))
# The most frequent events are built once and shared by every state (logged events are never mutated).
_TURN_EVENTS: Final = tuple(("turn", {"seat": s}, None, None) for s in range(8))
_DRAW_EVENTS: Final = tuple(
    tuple(("draw", {"seat": s}, {"card": NAMES[c]}, _ONLY[s]) for c in range(HAND_KINDS)) for s in range(8)
)
_DISCARD_EVENTS: Final = tuple(
    tuple(("discard", {"seat": s}, {"card": NAMES[c]}, _ONLY[s]) for c in range(HAND_KINDS)) for s in range(8)
)
_COMMIT_EVENTS: Final = tuple(
    tuple(("quarrel_commit", {"seat": s}, {"card": NAMES[c]}, _ONLY[s]) for c in range(HAND_KINDS)) for s in range(8)
)
_DRAW_ACTION_EVENTS: Final = tuple(
    tuple(("draw_action", {"seat": s, "card": NAMES[c]}, None, None) for c in range(ALL_KINDS)) for s in range(8)
)
_STORE_EVENTS: Final = tuple(
    tuple(tuple(("store", {"seat": s, "value": v, "with_golden": wild}, None, None) for v in range(GOLDEN))
          for s in range(8))
    for wild in (False, True)
)  # fmt: skip
#: Knowledge events of a stored set, by (wild, seat, value), built once (knowledge.py ``replay``).
_STORE_KNOWLEDGE: Final = tuple(
    tuple(tuple(("store", s, v, wild) for v in range(GOLDEN)) for s in range(8)) for wild in (False, True)
)
_PASS_EVENTS: Final = tuple(("race_pass", {"seat": s}, None, None) for s in range(8))
_SEAT_KEYS: Final = tuple(str(s) for s in range(8))  # seats as JSON object keys
_MEMO_LIMIT: Final = 100_000  # exact hands memoised per (phase, whirlwind flag): bounded memory in long simulations
# Legality sees a hand only through a summary: the Rotten and Golden counts (0 or 1), each Number's count up
# to three (sets of three; two with the Golden), and whether it holds seven cards or more (drawing stops).
# The small sizes the rules also ask about (an empty hand, the Rotten as one of the last two cards) follow
# from those counts: a hand of two cards or fewer has no count above two.
_NUMBER_LEVEL: Final = tuple(min(count, SET_SIZE) for count in range(COMPOSITION_MAX_CARDS + 1))  # any deck
_SLAP_OR_PASS: Final = (A.SLAP_ACTION, A.PASS_ACTION)


#: The fused path's "no seat cached" marker: an object no caller can pass (``seat is -1`` would hold for -1).
NO_SEAT: object = object()


class LegalMemo:
    """Legal-action tuples of one (phase, Whirlwind flag), shared by every state of one game object.

    ``exact`` maps a hand (its count tuple, the cheapest key to build) to its tuple; on a miss the tuple is
    found under the hand's coarse summary in ``by_summary``, which stays small and fills within a few games,
    so a new hand costs a summary instead of a computation.
    """

    __slots__ = ("by_summary", "exact")

    def __init__(self) -> None:
        self.exact: dict[tuple[int, ...], tuple[Action, ...]] = {}
        self.by_summary: dict[tuple[int, ...], tuple[Action, ...]] = {}


def new_legal_memos() -> dict[str, LegalMemo]:
    """One memo per phase that has hand-dependent legal actions."""
    return {phase: LegalMemo() for phase in (DRAWING, STORING, QUARREL)}


# See State: compiled by mypyc, ``_clone``'s ``cls.__new__(cls)`` skips ``__init__`` only with this.
@mypyc_attr(allow_interpreted_subclasses=True)
class SQuarrelsState(State):
    """One S'Quarrels match: rounds until a player reaches the target score (or a single round)."""

    __slots__ = (
        "_act_cache", "_cache", "_cache_seat", "action_discard", "active", "dealer", "deck", "golden_out",
        "hand_sizes", "hands", "hoard", "known_base", "known_log", "last_round", "opts", "phase", "q_commits",
        "q_drawer", "q_live",
        "q_pot", "r_commits", "r_drawer", "r_eligible", "r_passed", "round_no", "storage", "totals",
        "whirl_forced", "winners_",
    )  # fmt: skip

    # ``game`` keeps the base's type ``Game[Any]``: mypyc gives an attribute one type in every class (a
    # subclass may not narrow it), so the readers of S'Quarrels' own game fields cast.
    opts: SQuarrelsOptions

    # -- zones
    hands: list[list[int]]  # per seat: count of each hand kind (ROTTEN..GOLDEN)
    hand_sizes: list[int]
    storage: list[list[int]]  # per seat: stored sets; value v, or v + 10 for a set completed by the Golden
    deck: list[int]  # top is the end
    hoard: list[tuple[int, int]]  # (card, seat that discarded it), face down
    action_discard: list[int]  # counts by card (face up): drawn Action cards and a lost Golden (SQ-20)
    golden_out: bool  # lost for the rest of the match (golden_lost_scope = match)
    # What each seat knows of the other hands (knowledge.py, SQ-24): a settled dict, plus the chain of
    # knowledge events since, folded in only when someone asks (``knowledge()``). Both are replaced, never
    # mutated, so clones share them, and the rules pay one small tuple per revealing event.
    known_base: K.Known
    known_log: K.Log
    # -- match
    totals: list[int]
    last_round: list[int] | None
    round_no: int
    dealer: int
    winners_: list[int]
    # -- turn
    phase: str
    active: int
    whirl_forced: bool
    # -- quarrel (phase QUARREL)
    q_drawer: int
    q_live: tuple[int, ...]
    q_commits: dict[int, int]
    q_pot: list[tuple[int, int]]  # (card, seat) of every revealed play
    # -- hoard race (phase RACE)
    r_drawer: int
    r_eligible: tuple[int, ...]
    r_passed: list[int]
    r_commits: dict[int, bool]  # commit modes: seat → slapped

    # ================================================================== construction
    def __init__(self, game: SQuarrels, num_players: int, seed: int, *, deal: bool = True) -> None:
        self._init_base(game, num_players, seed)
        self.opts = game.options
        n = num_players
        self.hands = [[0] * HAND_KINDS for _ in range(n)]
        self.hand_sizes = [0] * n
        self.storage = [[] for _ in range(n)]
        self.deck = []
        self.hoard = []
        self.action_discard = [0] * ALL_KINDS
        self.golden_out = False
        self.known_base = {}
        self.known_log = None
        self.totals = [0] * n
        self.last_round = None
        self.round_no = 0
        self.dealer = 0
        self.winners_ = []
        self.phase = MUST_DRAW
        self.active = 0
        self.whirl_forced = False
        self._clear_quarrel()
        self._clear_race()
        self._cache_seat: object = NO_SEAT
        self._cache: tuple[Action, ...] = ()
        self._act_cache: tuple[int, ...] | None = None
        if deal:
            self.dealer = self.rng.randbelow(n)  # SQ-19: the first dealer is random
            self.emit("match_start", {"players": n, "dealer": self.dealer})
            self._start_round()

    def _clear_quarrel(self) -> None:
        self.q_drawer = -1
        self.q_live = ()
        self.q_commits = {}
        self.q_pot = []

    def _clear_race(self) -> None:
        self.r_drawer = -1
        self.r_eligible = ()
        self.r_passed = []
        self.r_commits = {}

    def _clone(self) -> Self:
        # Lists that the rules only ever *replace* (storage rows, totals, last_round, winners_, q_live,
        # r_eligible) are shared with the twin; lists mutated in place are copied. Cloning is the inner loop
        # of search, so it copies as little as is safe.
        twin = self.__class__.__new__(self.__class__)
        self._copy_base_into(twin)
        twin.opts = self.opts
        twin.hands = [h[:] for h in self.hands]
        twin.hand_sizes = self.hand_sizes[:]
        twin.storage = self.storage[:]
        twin.deck = self.deck[:]
        twin.hoard = self.hoard[:]
        twin.action_discard = self.action_discard[:]
        twin.golden_out = self.golden_out
        twin.known_base = self.known_base  # never changed in place (knowledge.py): shared
        twin.known_log = self.known_log
        twin.totals = self.totals
        twin.last_round = self.last_round
        twin.round_no = self.round_no
        twin.dealer = self.dealer
        twin.winners_ = self.winners_
        twin.phase = self.phase
        twin.active = self.active
        twin.whirl_forced = self.whirl_forced
        twin.q_drawer = self.q_drawer
        twin.q_live = self.q_live
        twin.q_commits = dict(self.q_commits) if self.q_commits else {}
        twin.q_pot = self.q_pot[:] if self.q_pot else []
        twin.r_drawer = self.r_drawer
        twin.r_eligible = self.r_eligible
        twin.r_passed = self.r_passed[:] if self.r_passed else []
        twin.r_commits = dict(self.r_commits) if self.r_commits else {}
        twin._cache_seat = self._cache_seat
        twin._cache = self._cache
        twin._act_cache = self._act_cache
        return twin

    def knowledge(self) -> K.Known:
        """What each seat knows of the other hands now (knowledge.py; SQ-24), the event chain folded in."""
        log = self.known_log
        if log is not None:
            self.known_base = K.replay(self.known_base, log, self.num_players)
            self.known_log = None
        return self.known_base

    # ================================================================== small helpers
    def _left(self, seat: int) -> int:
        return (seat + 1) % self.num_players

    def _give(self, seat: int, card: int) -> None:
        self.hands[seat][card] += 1
        self.hand_sizes[seat] += 1

    def _hand_list(self, seat: int) -> list[int]:
        return [card for card, count in enumerate(self.hands[seat]) for _ in range(count)]

    def _clockwise_from(self, seat: int) -> tuple[int, ...]:
        return _CLOCKWISE[self.num_players][seat]

    # ================================================================== ROUND_SETUP (rulebook "GAME SETUP")
    def _start_round(self) -> None:
        """Whole deck (SQ-17, SQ-26), shuffle, deal 7 from the dealer's left, replace Action cards (SQ-2)."""
        n = self.num_players
        self.round_no += 1
        game = cast("SQuarrels", self.game)  # the deck of the game's options (SQ-26): the standard 120 cards by default
        self.deck = list(game.deck_without_golden if self.golden_out else game.full_deck)
        self.rng.shuffle(self.deck)
        self.storage = [[] for _ in range(n)]
        self.hoard = []
        self.action_discard = [0] * ALL_KINDS
        self.known_base = {}  # SQ-24 (b): a new deal, nothing known
        self.known_log = None
        order = _CLOCKWISE[n][(self.dealer + 1) % n]
        deck = self.deck
        # The top 7n cards, in the order they are dealt: card i goes to order[i % n].
        dealt = deck[-HAND_LIMIT * n :]
        del deck[-HAND_LIMIT * n :]
        dealt.reverse()
        aside = [card for card in dealt if card >= HAND_KINDS]  # in dealing order
        hands = self.hands = [[0] * HAND_KINDS for _ in range(n)]
        sizes = self.hand_sizes = [0] * n
        for i, seat in enumerate(order):
            hand = hands[seat]
            for card in dealt[i::n]:
                if card < HAND_KINDS:
                    hand[card] += 1
                    sizes[seat] += 1
        for seat in order:  # the replacement loop, in seat order
            hand = hands[seat]
            while sizes[seat] < HAND_LIMIT:
                card = deck.pop()
                if card < HAND_KINDS:
                    hand[card] += 1
                    sizes[seat] += 1
                else:
                    aside.append(card)
        reshuffled = WINTER in aside
        set_aside = [NAMES[c] for c in sorted(aside)]
        to_deck: list[str] = []  # the set-aside cards shuffled back into the Deck, for the log
        if reshuffled:
            if self.opts.setup_winter_reshuffle == "all_setup_discards":  # SQ-2 (a)
                self.deck.extend(aside)
                to_deck = set_aside[:]
            else:  # SQ-2 (b): only Winter goes back
                self.deck.append(WINTER)
                to_deck = [NAMES[WINTER]]
                for card in aside:
                    if card != WINTER:
                        self.action_discard[card] += 1
            self.rng.shuffle(self.deck)
        else:
            for card in aside:
                self.action_discard[card] += 1
        self.emit(
            "round_start",
            {
                "round": self.round_no,
                "dealer": self.dealer,
                "set_aside": set_aside,
                "winter_reshuffle": reshuffled,
                "to_deck": to_deck,
            },
        )
        self._begin_turn(self._left(self.dealer))

    # ================================================================== TURN
    def _begin_turn(self, seat: int) -> None:
        self.active = seat
        self.phase = MUST_DRAW
        self.whirl_forced = False
        if self.record_events:
            self._log = (_TURN_EVENTS[seat], self._log)

    def _end_turn(self) -> None:
        self._begin_turn(self._left(self.active))

    def _enter_storing(self, seat: int) -> None:
        """Drawing is closed: ``seat`` may store, then discards. An empty hand has nothing to do."""
        self.active = seat
        self.phase = STORING
        self.whirl_forced = False
        if self.hand_sizes[seat] == 0:  # nothing to store or discard
            self._end_turn()  # "You do not have to discard IF you have no cards left in your hand."

    def _draw(self, seat: int, _card: int = -1) -> None:
        """Draw the top card: Number/Special to hand; an Action goes to Discard and resolves (SQ-4)."""
        card = self.deck.pop()
        if card < HAND_KINDS:
            self.hands[seat][card] += 1
            self.hand_sizes[seat] += 1
            if self.record_events:  # emit() inlined: this is the most frequent event
                self._log = (_DRAW_EVENTS[seat][card], self._log)
            if self.phase == MUST_DRAW:
                self.phase = DRAWING
            self._act_cache = _SEATS[seat]  # still this seat's turn
            return
        self.action_discard[card] += 1
        if self.record_events:
            self._log = (_DRAW_ACTION_EVENTS[seat][card], self._log)
        if card == WINTER:  # SQ-15: the round ends at once
            self._end_round()
        elif card == QUARREL_CARD:
            self._start_quarrel(seat)
        elif card == HOARD_CARD:
            self._start_hoard(seat)
        elif card == AMBUSH_CARD:
            self._ambush(seat)
        else:
            self._whirlwind(seat)

    def _store_set(self, seat: int, value: int) -> None:
        self._store(seat, value, wild=False)

    def _store_wild_set(self, seat: int, value: int) -> None:
        self._store(seat, value, wild=True)

    def _store(self, seat: int, value: int, wild: bool) -> None:
        """Lay down a set of three equal Number cards (or two and the Golden under SQ-8's variant)."""
        hand = self.hands[seat]
        if wild:
            hand[value] -= 2
            hand[GOLDEN] -= 1
            self.storage[seat] = [*self.storage[seat], value + 10]
        else:
            hand[value] -= SET_SIZE
            self.storage[seat] = [*self.storage[seat], value]
        self.hand_sizes[seat] -= SET_SIZE
        self.known_log = (_STORE_KNOWLEDGE[wild][seat][value], self.known_log)  # SQ-24 (b): cards left in sight
        if self.record_events:
            self._log = (_STORE_EVENTS[wild][seat][value], self._log)
        self.phase = STORING  # SQ-3: storing closes drawing
        self.whirl_forced = False  # …and with it any duty to draw to 7 (SQ-4 variant)
        if self.hand_sizes[seat] == 0:
            self._end_turn()

    def _discard_to_hoard(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.hand_sizes[seat] -= 1
        self.hoard.append((card, seat))
        # Knowledge is untouched (SQ-24 b): a known card of this seat is now in its hand or among its own
        # face-down Hoard discards, which is what knowledge.py says a known card means.
        # The next turn begins here, inlined (as _end_turn would): discards are a third of all steps.
        nxt = seat + 1 if seat + 1 < self.num_players else 0
        self.active = nxt
        self.phase = MUST_DRAW
        self.whirl_forced = False
        self._act_cache = _SEATS[nxt]  # what to_act and legal_actions will be asked next
        self._cache_seat = nxt
        self._cache = _DRAW_ONLY
        if self.record_events:
            self._log = (_TURN_EVENTS[nxt], (_DISCARD_EVENTS[seat][card], self._log))

    # ================================================================== QUARREL (SQ-5, SQ-6, SQ-7)
    def _start_quarrel(self, drawer: int) -> None:
        self._clear_quarrel()
        self.q_drawer = drawer
        self.whirl_forced = False  # drawing is over (SQ-4): no duty to draw to 7 survives the Quarrel
        sizes = self.hand_sizes
        self.q_live = tuple([s for s in _CLOCKWISE[self.num_players][drawer] if sizes[s]])
        self.phase = QUARREL
        if not self.q_live:  # nobody holds a card: nothing to fight over
            self._quarrel_drawn()

    def _quarrel_commit(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.hand_sizes[seat] -= 1
        commits = self.q_commits
        commits[seat] = card
        if self.record_events:
            self._log = (_COMMIT_EVENTS[seat][card], self._log)
        if len(commits) == len(self.q_live):
            self._quarrel_reveal()

    def _quarrel_reveal(self) -> None:
        commits = self.q_commits
        self.q_commits = {}
        pot = self.q_pot
        shown: dict[str, str] = {}
        best = -1
        top: list[int] = []
        for seat in self.q_live:
            card = commits[seat]
            pot.append((card, seat))
            shown[_SEAT_KEYS[seat]] = NAMES[card]
            if card > best:
                best = card
                top = [seat]
            elif card == best:
                top.append(seat)
        # SQ-24 (b): the revealed cards are no longer in their players' hands
        self.known_log = (("reveal", tuple(pot[-len(self.q_live) :])), self.known_log)
        if len(top) == 1:
            self.emit("quarrel_reveal", {"plays": shown, "tied": False})  # "again" and "out" come with a tie
            self._quarrel_won(top[0])
            return
        mode = self.opts.quarrel_exhaustion
        sizes = self.hand_sizes
        holding: list[int] = []  # tied players who still hold cards…
        out: list[int] = []  # …and those who do not
        for seat in top:
            (holding if sizes[seat] else out).append(seat)
        drawn = not holding or (mode == "any_out_draws" and len(out) > 0)
        survivor_wins = not drawn and len(holding) == 1 and mode == "drop_out"  # SQ-6 (a): wins without playing
        # The event says how the tie goes on: who plays again, and which tied players are out of cards.
        again = [] if drawn or survivor_wins else holding
        self.emit("quarrel_reveal", {"plays": shown, "tied": True, "again": again, "out": out})
        if drawn:
            self._quarrel_drawn()
        elif survivor_wins:
            self._quarrel_won(holding[0])
        else:
            self.q_live = tuple(holding)  # the tied play again (a lone survivor too, under survivor_plays)

    def _quarrel_won(self, winner: int) -> None:
        # The Golden always wins the comparison it is played in, so if it is in the pot its player is the
        # winner and played it in this final comparison; an empty hand now means it was their last card.
        golden_was_last = self.hand_sizes[winner] == 0
        hand = self.hands[winner]
        won = 0
        for card, _ in self.q_pot:
            if card == GOLDEN and not golden_was_last:
                self.action_discard[GOLDEN] += 1  # SQ-7: the played Golden is lost…
                if self.opts.golden_lost_scope == "match":
                    self.golden_out = True
            else:
                hand[card] += 1  # …unless it was its player's last card
                won += 1
        # SQ-24 (a): every seat saw the cards the winner takes
        self.known_log = (("won", winner, tuple(self.q_pot), won < len(self.q_pot)), self.known_log)
        self.hand_sizes[winner] += won
        taken = sorted([NAMES[c] for c, _ in self.q_pot])  # the cards the winner takes…
        golden_lost = won < len(self.q_pot)
        if golden_lost:
            taken.remove("golden")  # …which do not include a Golden lost to Discard
        self.emit("quarrel_won", {"seat": winner, "cards": taken, "golden_to_discard": golden_lost})
        self._clear_quarrel()
        if self.opts.quarrel_winner_may_draw:  # SQ-5 variant
            self.active = winner
            self.phase = DRAWING
            self.whirl_forced = False  # SQ-4: only the drawer's own post-Whirlwind draws can be mandatory
        else:
            self._enter_storing(winner)

    def _quarrel_drawn(self) -> None:
        """SQ-6: every card goes back to its owner; the drawer stores and discards."""
        for card, seat in self.q_pot:
            self._give(seat, card)
        self.known_log = (("drawn", tuple(self.q_pot)), self.known_log)  # SQ-24 (a): seen going back
        self.emit("quarrel_drawn", {"returned": len(self.q_pot)})
        drawer = self.q_drawer
        self._clear_quarrel()
        self._enter_storing(drawer)

    # ================================================================== HOARD (SQ-11, SQ-12, SQ-12b)
    def _start_hoard(self, drawer: int) -> None:
        self.whirl_forced = False  # drawing is over for the drawer (SQ-4, SQ-11)
        if not self.hoard and self.opts.hoard_empty_skips:
            self.emit("hoard_skipped", {})
            self._enter_storing(drawer)
            return
        clockwise = _CLOCKWISE[self.num_players][drawer]
        # Clockwise from the drawer's left, the drawer last (when allowed to race at all).
        eligible = clockwise[1:] + clockwise[:1] if self.opts.hoard_drawer_may_race else clockwise[1:]
        self._clear_race()
        self.r_drawer = drawer
        self.r_eligible = eligible
        if len(eligible) == 1:  # two players: the single eligible player wins automatically
            self._hoard_won(eligible[0])
            return
        self.phase = RACE
        self.emit("race_open", {"drawer": drawer, "eligible": list(eligible), "mode": self.opts.hoard_race})

    def _slap(self, seat: int, _card: int) -> None:
        self._race_answer(seat, slap=True)

    def _pass(self, seat: int, _card: int) -> None:
        self._race_answer(seat, slap=False)

    def _race_answer(self, seat: int, slap: bool) -> None:
        if self.opts.hoard_race == "realtime":
            if slap:
                self._hoard_won(seat)
                return
            self.r_passed.append(seat)
            if self.record_events:
                self._log = (_PASS_EVENTS[seat], self._log)
            if len(self.r_passed) == len(self.r_eligible):
                self._hoard_declined()
            return
        self.r_commits[seat] = slap
        self.emit("race_commit", {"seat": seat}, {"slap": slap}, _ONLY[seat])
        if len(self.r_commits) < len(self.r_eligible):
            return
        slappers = [s for s in self.r_eligible if self.r_commits[s]]
        if not slappers:
            self._hoard_declined()
        elif self.opts.hoard_race == "random":
            self._hoard_won(self.rng.choice(slappers))
        else:  # seat_order: the first slapper clockwise from the drawer's left
            self._hoard_won(slappers[0])

    def _hoard_won(self, winner: int) -> None:
        """The winner takes the whole pile (only they see it), then may draw while under 7 cards."""
        taken = self.hoard
        hand = self.hands[winner]
        for card, _ in taken:
            hand[card] += 1
        # SQ-24: each seat knows its own discards went to the winner; others' known cards may have gone too
        self.known_log = (("hoard", winner, tuple(taken)), self.known_log)
        self.hand_sizes[winner] += len(taken)
        self.hoard = []
        self.emit(
            "hoard_won",
            {"seat": winner, "count": len(taken)},
            {"cards": sorted([NAMES[c] for c, _ in taken])},
            _ONLY[winner],
        )
        self._clear_race()
        self.active = winner
        self.phase = DRAWING
        # SQ-4/SQ-11: the winner's draws are optional ("may select to continue drawing"); a Whirlwind the
        # drawer met earlier in the turn must not force them to draw to 7 (whirlwind_draw = mandatory_to_7).
        self.whirl_forced = False

    def _hoard_declined(self) -> None:
        """SQ-12b: nobody slapped; the drawer stores and discards as after a drawn Quarrel."""
        self.emit("race_declined", {})
        drawer = self.r_drawer
        self._clear_race()
        self._enter_storing(drawer)

    # ================================================================== AMBUSH (SQ-13) and WHIRLWIND (SQ-14)
    def _ambush(self, taker: int) -> None:
        """SQ-13: a random card from each other player's hand, clockwise from the taker's left."""
        hands, sizes, rng = self.hands, self.hand_sizes, self.rng
        loot = hands[taker]
        for victim in _CLOCKWISE[self.num_players][taker][1:]:
            size = sizes[victim]
            if size == 0:
                continue
            pick = rng.randbelow(size)
            hand = hands[victim]
            card = 0
            while pick >= hand[card]:
                pick -= hand[card]
                card += 1
            hand[card] -= 1
            sizes[victim] = size - 1
            loot[card] += 1
            sizes[taker] += 1
            self.known_log = (("ambush", taker, victim, card), self.known_log)  # SQ-24 (a), (b)
            self.emit("ambush", {"seat": taker, "victim": victim}, {"card": NAMES[card]}, _PAIRS[taker][victim])
        self._enter_storing(taker)

    def _whirlwind(self, drawer: int) -> None:
        """SQ-14: every hand card is shuffled together and dealt out from the drawer, one at a time."""
        pool: list[int] = []
        for hand in self.hands:
            for card, count in enumerate(hand):
                if count:
                    pool.extend([card] * count)
        self.rng.shuffle(pool)
        n = self.num_players
        hands = [[0] * HAND_KINDS for _ in range(n)]
        sizes = [0] * n
        for offset in range(n):  # card i goes to seat (drawer + i) % n
            seat = (drawer + offset) % n
            dealt = pool[offset::n]
            hand = hands[seat]
            for card in dealt:
                hand[card] += 1
            sizes[seat] = len(dealt)
        self.hands = hands
        self.hand_sizes = sizes
        self.known_base = {}  # SQ-24 (b): every hand card was mixed; each seat knows only its new hand
        self.known_log = None
        self.emit("whirlwind", {"seat": drawer, "hand_sizes": sizes[:]})
        self.active = drawer
        self.phase = DRAWING  # drawing stays open after a Whirlwind (SQ-4)
        self.whirl_forced = self.opts.whirlwind_draw == "mandatory_to_7"

    # ================================================================== ROUND_END and MATCH_END (SQ-16…19)
    def round_score(self, seat: int) -> int:
        """The seat's score for the current round if Winter came now."""
        per_card = self.opts.set_scoring == "per_card"
        total = 0
        for entry in self.storage[seat]:
            value = entry % 10
            total += value * SET_SIZE if per_card else value
        hand = self.hands[seat]
        if hand[GOLDEN]:
            total += SPECIAL_BONUS
        if hand[ROTTEN]:
            total -= SPECIAL_BONUS
        return total

    def _end_round(self) -> None:
        n = self.num_players
        self.whirl_forced = False  # Winter ends the turn too (SQ-15)
        scores = [self.round_score(s) for s in range(n)]
        self.last_round = scores
        self.totals = [t + r for t, r in zip(self.totals, scores, strict=True)]
        # SQ-25: the Golden and Rotten Acorns held are shown, since they count (the rest of a hand stays hidden)
        held = [[name for name, kind in _SPECIALS if self.hands[s][kind]] for s in range(n)]
        self.emit("round_end", {"round": self.round_no, "scores": scores, "totals": self.totals[:], "held": held})
        if self.opts.single_round:
            best = max(scores)
            self._end_match([s for s in range(n) if scores[s] == best])
            return
        best_total = max(self.totals)
        if best_total >= self.opts.target_score:  # SQ-18
            leaders = [s for s in range(n) if self.totals[s] == best_total]
            if len(leaders) == 1 or self.opts.target_tie == "shared_win":
                self._end_match(leaders)
                return
        self.dealer = self._next_dealer(scores)
        self._start_round()

    def _next_dealer(self, scores: list[int]) -> int:
        """SQ-19: the round winner; then the highest total; then nearest clockwise from the dealer's left."""
        best = max(scores)
        tied = [s for s in range(self.num_players) if scores[s] == best]
        if len(tied) > 1:
            best_total = max(self.totals[s] for s in tied)
            tied = [s for s in tied if self.totals[s] == best_total]
        order = self._clockwise_from(self._left(self.dealer))
        return min(tied, key=order.index)

    def _end_match(self, winners: list[int]) -> None:
        self.winners_ = winners
        self.phase = OVER
        self.emit("match_end", {"winners": winners, "totals": self.totals[:]})

    # ================================================================== engine hooks
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (no check needed: the fast path, see below)."""
        cached = self._act_cache
        if cached is None:
            cached = _SEATS[self.active] if self.phase in _TURN_PHASES else self._compute_to_act()
            self._act_cache = cached
        return cached

    def _compute_to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == QUARREL:
            commits = self.q_commits
            return tuple([s for s in self.q_live if s not in commits])
        if phase == RACE:
            answered = self.r_passed if self.opts.hoard_race == "realtime" else self.r_commits
            return tuple([s for s in self.r_eligible if s not in answered])
        if phase == OVER:
            return ()
        return _SEATS[self.active]

    def _decision(self) -> Decision:
        phase = self.phase
        if phase == QUARREL:
            return Decision.COMMIT
        if phase == RACE:
            return Decision.RACE if self.opts.hoard_race == "realtime" else Decision.COMMIT
        if phase == OVER:
            return Decision.NONE
        return Decision.TURN

    def _memo_miss(self, memo: LegalMemo, seat: int) -> tuple[Action, ...]:
        """Legal actions for a hand the exact memo has not seen: found under the hand's summary, computed
        only for a summary not seen before."""
        hand = self.hands[seat]
        rotten, one, two, three, four, five, golden = hand
        level = _NUMBER_LEVEL
        summary = (
            rotten, level[one], level[two], level[three], level[four], level[five], golden,
            self.hand_sizes[seat] >= HAND_LIMIT,
        )  # fmt: skip
        legal = memo.by_summary.get(summary)
        if legal is None:
            legal = memo.by_summary[summary] = self._compute_legal(seat)
        if len(memo.exact) >= _MEMO_LIMIT:  # bound the memory of a very long simulation
            memo.exact.clear()
        memo.exact[tuple(hand)] = legal
        return legal

    def _compute_legal(self, seat: int) -> tuple[Action, ...]:
        phase = self.phase
        hand = self.hands[seat]
        if phase == QUARREL:
            return tuple(A.PLAY_ACTIONS[c] for c in range(HAND_KINDS) if hand[c])
        if phase == RACE:
            return (A.SLAP_ACTION, A.PASS_ACTION)
        if phase == MUST_DRAW:
            return (A.DRAW_ACTION,)
        size = self.hand_sizes[seat]
        out: list[Action] = []
        if phase == DRAWING and size < HAND_LIMIT:
            out.append(A.DRAW_ACTION)
            if self.whirl_forced:  # whirlwind_draw = mandatory_to_7 (SQ-4)
                return tuple(out)
        for value in range(1, GOLDEN):
            if hand[value] >= SET_SIZE:
                out.append(A.STORE_ACTIONS[value - 1])
        if self.opts.golden_wild_in_sets and hand[GOLDEN]:
            for value in range(1, GOLDEN):
                if hand[value] >= 2:
                    out.append(A.STORE_WILD_ACTIONS[value - 1])
        if size:
            for card in self._discardable(seat):
                out.append(A.DISCARD_ACTIONS[card])
        else:
            out.append(A.END_ACTION)
        return tuple(out)

    def _discardable(self, seat: int) -> list[int]:
        """SQ-10: the Rotten only as the last card, or beside the Golden as the only two cards."""
        hand = self.hands[seat]
        size = self.hand_sizes[seat]
        out = [c for c in range(1, HAND_KINDS) if hand[c]]
        if hand[ROTTEN] and (size == 1 or (size == 2 and hand[GOLDEN] == 1)):
            out.insert(0, ROTTEN)
        return out

    def _why_illegal(self, seat: int, action: Any) -> str:
        if not isinstance(action, Action):
            return f"{action!r} is not a S'Quarrels action"
        verb, phase, hand = action.verb, self.phase, self.hands[seat]
        if phase == MUST_DRAW and verb != A.DRAW:
            return "you must draw one card at the start of your turn before anything else (SQ-3)"
        if verb == A.DRAW:
            if phase == STORING:
                return "drawing is over for this turn: storing (or an Ambush, Quarrel or Hoard) closed it (SQ-3)"
            if self.hand_sizes[seat] >= HAND_LIMIT:
                return "you may draw more only while you hold fewer than 7 cards"
        if verb in (A.STORE, A.STORE_WILD) and phase in (DRAWING, STORING):
            if verb == A.STORE_WILD and not self.opts.golden_wild_in_sets:
                return "the Golden Acorn is not wild in sets (SQ-8; option golden_wild_in_sets)"
            return f"you need three {NAMES[action.card]}s in hand to store that set"
        if verb == A.DISCARD and phase in (DRAWING, STORING):
            if hand[action.card] == 0:
                return f"you hold no {NAMES[action.card]} card"
            if action.card == ROTTEN:
                return "the Rotten Acorn may be discarded only as your last card, or beside the Golden (SQ-10)"
        if verb == A.END:
            return "you must discard a card to end your turn (only an empty hand ends without one)"
        if verb == A.PLAY:
            if phase != QUARREL:
                return "cards are played only during a Quarrel"
            return f"you hold no {NAMES[action.card]} card to play"
        if verb in (A.SLAP, A.PASS):
            return "there is no Hoard race now"
        if self.whirl_forced:
            return "after this Whirlwind you must draw up to 7 cards first (option whirlwind_draw)"
        return f"{action} is not possible in the {phase.replace('_', ' ')} phase"

    def _apply(self, seat: int, action: Any) -> None:
        self._cache_seat = NO_SEAT
        self._act_cache = None
        handler: Any = _HANDLERS[action[0]]
        handler(self, seat, action[1])

    def _end_turn_empty_handed(self, seat: int, _card: int) -> None:
        """END: an empty hand ends the turn without a discard."""
        self.emit("end_turn", {"seat": seat})
        self._end_turn()

    def is_terminal(self) -> bool:
        """Whether the match is over (no check needed: the fast path, see below)."""
        return self.phase == OVER

    # ------------------------------------------------------------------ the fast checked path
    # Simulation and search call these public methods millions of times, and the generic wrappers cost
    # about twenty Python calls per step. These overrides make exactly the same checks with a few calls,
    # and hand every refusal to the generic State method so errors stay identical (benchmarks/README.md).
    # ``to_act`` and ``is_terminal`` are the hooks themselves (above), and the hooks call them. They were class
    # attribute aliases (``to_act = _to_act``), which mypyc cannot compile (an alias of a method in a class
    # body crashes its vtable builder or the class's creation): defined under the public name, the hot path
    # still costs one call.
    def _to_act(self) -> tuple[int, ...]:
        return self.to_act()

    def _is_terminal(self) -> bool:
        return self.is_terminal()

    def legal_actions(self, seat: object) -> tuple[Action, ...]:
        """The legal actions of ``seat`` now, in codec order; empty if the seat is not to act."""
        # ``is``, not ``==``: 1.0 and True equal seat 1 but are not seats; small ints are unique objects, so the
        # identity test is the equality test for real seats and costs nothing.
        if seat is self._cache_seat:  # only ever set for a seat that is to act
            return self._cache
        acting = self._act_cache
        if acting is None:
            acting = self._act_cache = self._compute_to_act()
        if type(seat) is not int or seat not in acting:
            State.legal_actions(self, seat)  # validates the seat number (raises for a seat that does not exist)
            return ()
        phase = self.phase
        if phase == MUST_DRAW:
            legal: tuple[Action, ...] = _DRAW_ONLY
        elif phase == RACE:
            legal = _SLAP_OR_PASS
        else:
            # Legality depends only on the phase, the Whirlwind flag and the hand, so tuples are memoised per
            # game (per options): computing them afresh was a third of a simulation step.
            game = cast("SQuarrels", self.game)
            memo = (game.forced_legal_memo if self.whirl_forced else game.legal_memo)[phase]
            found = memo.exact.get(tuple(self.hands[seat]))
            legal = self._memo_miss(memo, seat) if found is None else found
        self._cache_seat = seat
        self._cache = legal
        return legal

    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        # The hook: for a seat that is to act, the checks of ``legal_actions`` always pass. (Not an alias
        # ``_legal_actions = legal_actions``: mypyc cannot compile one.)
        return self.legal_actions(seat)

    def apply(self, seat: object, action: Any) -> None:
        """Validate and perform ``seat``'s ``action`` (the same checks and errors as ``State.apply``)."""
        if seat is self._cache_seat:  # only ever set for a seat that is to act (``is``: see legal_actions)
            legal = self._cache
        else:
            acting = self._act_cache
            if acting is None:
                acting = self._act_cache = self._compute_to_act()
            if type(seat) is not int or seat not in acting:
                State.apply(self, seat, action)  # raises GameOverError / NotYourTurnError
                return
            legal = self._legal_actions(seat)
        if action not in legal:
            State.apply(self, seat, action)  # raises InvalidActionError / IllegalActionError
            return
        # Handlers that know who acts next (a drawn hand card, a discard) refill these caches.
        self._cache_seat = NO_SEAT
        self._act_cache = None
        # ``_HANDLERS``' dispatch written out, the frequent verbs first: compiled, each branch is a native call
        # (the table's entries are Python-level callables, called with boxed arguments); pure, it costs what
        # the table's lookup and call did. ``_apply`` (the generic path) keeps the table.
        verb: str = action[0]
        player: int = seat  # type: ignore[assignment]  # a seat to act: checked above
        if verb == DRAW:
            self._draw(player)
        elif verb == DISCARD:
            self._discard_to_hoard(player, action[1])
        elif verb == PLAY:
            self._quarrel_commit(player, action[1])
        elif verb == PASS:
            self._pass(player, -1)
        elif verb == SLAP:
            self._slap(player, -1)
        elif verb == STORE:
            self._store_set(player, action[1])
        elif verb == END:
            self._end_turn_empty_handed(player, -1)
        else:
            handler: Any = _HANDLERS[verb]  # STORE_WILD (a variant's)
            handler(self, player, action[1])
        self._history = ((seat, action), self._history)

    def _scores(self) -> list[float]:
        return [float(t) for t in self.totals]

    def _winners(self) -> list[int]:
        return list(self.winners_)

    # ================================================================== information
    def _observe(self, seat: int | None) -> dict[str, Any]:
        from .observation import observe

        return observe(self, seat)

    def _determinize(self, seat: int, rng: Rng) -> Self:
        """Re-deal every card ``seat`` cannot see or deduce (SQ-24): other hands beyond the cards the seat
        knows are there, others' pending commits, the unseen part of the Hoard Pile and the Deck (Action
        cards can only be in the Deck). Hidden cards are drawn uniformly from what remains possible."""
        world = self.clone()
        n = self.num_players
        others = [s for s in range(n) if s != seat]
        known = self.knowledge()
        # A known card of another seat stays with that seat (in its hand, its pending play or its discards).
        fixed: dict[int, tuple[int, ...]] = {}
        if known:
            for s in others:
                vector = K.held(known, seat, s)
                if any(vector):
                    fixed[s] = vector
        pool: list[int] = []
        for s in others:
            pool.extend(world._hand_list(s))
        pending = [s for s in others if s in world.q_commits]
        pool.extend(world.q_commits[s] for s in pending)
        unseen_hoard = [i for i, (_, owner) in enumerate(world.hoard) if owner != seat]
        pool.extend(world.hoard[i][0] for i in unseen_hoard)
        deck_actions = sorted(c for c in world.deck if c >= HAND_KINDS)
        pool.extend(c for c in world.deck if c < HAND_KINDS)
        # Sorted before shuffling, so the world depends only on what the seat knows (and ``rng``), not on the
        # order the hidden cards happen to lie in.
        pool.sort()
        for vector in fixed.values():
            for card, count in enumerate(vector):
                for _ in range(count):
                    pool.remove(card)
        rng.shuffle(pool)
        it = iter(pool)
        hoard = world.hoard
        for s in others:
            held = fixed.get(s)
            if held is None:  # nothing known: the hand, the play and the discards are drawn as they come
                hand = world.hands[s] = [0] * HAND_KINDS
                for _ in range(world.hand_sizes[s]):
                    hand[next(it)] += 1
                if s in world.q_commits:
                    world.q_commits[s] = next(it)
                continue
            # The known cards lie anywhere among the seat's hand, its secret play and its own Hoard discards
            # (knowledge.py): place them and the rest of the pool at random over those places.
            discards = [i for i in unseen_hoard if hoard[i][1] == s]
            cards = [card for card in range(HAND_KINDS) for _ in range(held[card])]
            slots = world.hand_sizes[s] + (1 if s in world.q_commits else 0) + len(discards)
            while len(cards) < slots:
                cards.append(next(it))
            # The hand is a count vector, so only the secret play and the discards need drawing at random.
            if s in world.q_commits:
                world.q_commits[s] = cards.pop(rng.randbelow(len(cards)))
            for i in discards:
                hoard[i] = (cards.pop(rng.randbelow(len(cards))), s)
            hand = world.hands[s] = [0] * HAND_KINDS
            for card in cards:
                hand[card] += 1
        for i in unseen_hoard:
            owner = hoard[i][1]
            if owner not in fixed:
                hoard[i] = (next(it), owner)
        # The rest of the pool is the deck, already in a uniform order; each Action card goes in at a uniform
        # place of it, which keeps the whole deck's order uniform (a random permutation grown by insertion) at a
        # fraction of a second shuffle (sorting some 80 keys was a fifth of a search's iteration; issue 36).
        deck = list(it)
        for card in deck_actions:
            deck.insert(rng.randbelow(len(deck) + 1), card)
        world.deck = deck
        # What other seats learnt in private is unknown to ``seat``: the world keeps only the public part.
        world.known_base = K.world_view(known, seat, n) if known else {}
        world.known_log = None
        # Other seats' secret race answers (commit modes) are unknown too: each is re-chosen at random.
        for s in others:
            if s in world.r_commits:
                world.r_commits[s] = rng.randbelow(2) == 1
        # The clone shares lists the rules only replace; a world shares nothing with the state it came from.
        world.storage = [sets[:] for sets in world.storage]
        world.totals = world.totals[:]
        world.winners_ = world.winners_[:]
        if world.last_round is not None:
            world.last_round = world.last_round[:]
        world._cache_seat = NO_SEAT
        world._act_cache = None
        return world

    def _check_invariants(self) -> None:
        counts = [0] * ALL_KINDS
        for hand, size in zip(self.hands, self.hand_sizes, strict=True):
            if sum(hand) != size or min(hand) < 0:
                raise InvariantError(f"hand {hand} does not match its size {size}")
            for card in range(HAND_KINDS):
                counts[card] += hand[card]
        for card in self.deck:
            counts[card] += 1
        for card, _ in self.hoard:
            counts[card] += 1
        for card in range(ALL_KINDS):
            counts[card] += self.action_discard[card]
        for sets in self.storage:
            for entry in sets:
                if entry > 10:
                    counts[entry - 10] += 2
                    counts[GOLDEN] += 1
                else:
                    counts[entry] += SET_SIZE
        for card in self.q_commits.values():
            counts[card] += 1
        for card, _ in self.q_pot:
            counts[card] += 1
        expected = list(self.opts.cards)
        if self.golden_out:  # lost for the match: in Discard until the round ends, then out of play
            expected[GOLDEN] = min(self.action_discard[GOLDEN], 1)
        if counts != expected:
            raise InvariantError(f"card counts {counts} differ from the deck {expected}")
        if WINTER not in self.deck and self.phase != OVER and self.action_discard[WINTER] == 0:
            raise InvariantError("Winter left the Deck without ending the round")
        self._check_knowledge()

    def knowable_cards(self, holder: int) -> list[int]:
        """Per card kind, how many cards others can know to be ``holder``'s (SQ-24): its hand, its pending
        Quarrel play and its own discards in the Hoard Pile."""
        have = self.hands[holder][:]
        if holder in self.q_commits:
            have[self.q_commits[holder]] += 1
        for card, owner in self.hoard:
            if owner == holder:
                have[card] += 1
        return have

    def _check_knowledge(self) -> None:
        """SQ-24: a seat knows only cards really in the hand (or its pending play or Hoard discards), and at
        least what every seat knows."""
        for holder, row in self.knowledge().items():
            if not 0 <= holder < self.num_players or len(row) != self.num_players:
                raise InvariantError(f"knowledge about seat {holder} is malformed")
            have = self.knowable_cards(holder)
            public = row[holder]
            for observer, vector in enumerate(row):
                if len(vector) != HAND_KINDS or any(not 0 <= vector[c] <= have[c] for c in range(HAND_KINDS)):
                    raise InvariantError(f"P{observer + 1} knows cards that P{holder + 1} does not hold")
                if any(vector[c] < public[c] for c in range(HAND_KINDS)):
                    raise InvariantError(f"P{observer + 1} knows less of P{holder + 1}'s hand than everyone does")
            if not any(any(vector) for vector in row):
                raise InvariantError(f"an empty knowledge row for P{holder + 1}")

    def to_notation(self) -> str:
        from .notation import write

        return write(self)


# How each action verb is carried out (``_apply`` dispatches on the verb).
_HANDLERS: Final = {
    A.DRAW: SQuarrelsState._draw,
    A.DISCARD: SQuarrelsState._discard_to_hoard,
    A.STORE: SQuarrelsState._store_set,
    A.STORE_WILD: SQuarrelsState._store_wild_set,
    A.PLAY: SQuarrelsState._quarrel_commit,
    A.SLAP: SQuarrelsState._slap,
    A.PASS: SQuarrelsState._pass,
    A.END: SQuarrelsState._end_turn_empty_handed,
}
