"""Which loaded positions are real Barrell positions: the rules ``notation.parse`` checks after reading.

The loader is a trust boundary (positions come from strangers and from search bots), so it refuses every
position the state machine of ``state.py`` / ``end_of_battle.py`` cannot reach, with an
:class:`InvalidNotationError` naming the notation field that is wrong. The checks run once per load, never in
``apply`` or ``legal_actions``. What is checked:

Cards and knowledge
  - C1 Every card of the deck (the 54, or the subset of ``deck_composition``, BR-24) lies in exactly one zone
    (checked while reading, in ``notation.py``).
  - C2 A hand card is known to its holder alone, or to every seat (it went back to hand in view of all,
    BR-23); the same for a card set aside in the mulligan, and in the sequential mulligan a player who has
    set a card aside has hidden its whole hand again (known to itself alone).
  - C3 A face-down field card is known to the player who played it. It is known to another seat than its
    field's owner only after a J♠ trade this battle (the J♠ face up on the table, not cancelled), and then only
    to the seat the field came from: the other seat of the trade (``choose_one``) or the seat to the right
    (``rotate_all``); under ``jos_initiator_may_look`` the J♠ player also knows every card it received, and
    nobody else knows a card it did not play. Jacks never lie face down; Deck cards are known to nobody;
    Discard, Queen Zone and face-up cards to all (how the notation reads them).
  - C4 ``recall`` (BR-23) is empty outside play (the reveal settles it, and it starts empty each battle),
    except for the seat setting cards aside in the sequential mulligan, whose recalled cards lie in its hand or
    among those set aside. During play a seat's recalled cards lie in its hand or face down among the cards
    it played (wherever a J♠ trade put them), and only a seat that has a face-down card of its own on the
    table has any. Once a seat has a face-down card of its own on the table its hand is known to itself
    alone (that play hid it).

Zones per phase
  - Z1 Cards are set aside only during the mulligan; fields and the Queen Zone are empty during the mulligan,
    at the King of Spades' pick (after E8) and in a finished game.
  - Z2 While cards are being played only Jacks lie face up; from the reveal (E1) to the discard (E8) every
    field card lies face up.
  - Z3 The Queen Zone holds only Queens and the K♦, and only between E4 and E8; from E4 on no Queen or K♦
    is left in a field.
  - Z4 Under ``discard_recycle=every_battle`` the Discard pile is empty until E4 (it went into the Deck
    when the battle started).

Who acts (``active``, ``need``, ``committed``, ``passed``)
  - A1 Sequential mulligan: the active seat is the first seat, from the first player, that holds cards and has
    not finished; the seats before it that hold cards have finished (``committed``), nobody else has; only the
    active seat has cards set aside, fewer than it may (3, or its whole hand).
  - A2 Simultaneous mulligan: nobody is ``active`` (a seat named there could only ``keep`` forever); ``need``
    is exactly the seats holding cards; some of them are still to commit; a seat still choosing holds cards
    and has set aside fewer than it may.
  - A3 Play: the active seat has not passed and holds cards. Turns go round from the first player, so unless a
    J♠ traded fields the field sizes follow: a seat still in play before the active one has played one card
    more than it, one after it as many, and a seat that passed no more than the turns it had. ``passed`` is
    empty in the mulligan. A J♣ on the table during play was cancelled (otherwise the battle would have ended).
  - A4 Swap (J♠ choice): 3–4 players under ``jos_mode=choose_one``; the J♠ is the last card of the active
    seat's field and took effect (not cancelled by the J♦); no field has been traded yet this battle, so the
    field sizes follow the turn order as in A3 (the J♠ being the active seat's card of this round).
  - A5 Jokers (E2): the active seat holds an undecided Joker in its field, and no seat before it (from the
    first player) does. A decided Joker lies in a field and never beside an undecided one.
  - A6 Hearts (E3): 3–4 players; ``give`` holds exactly the giftable cards (numbered hearts, and the K♥
    under ``kh_given_with_hearts``) that were in each field, each where it must be now (with the giver, or
    already with its recipient under ``heart_gift_timing=seat_order``); ``need`` is the seats with something
    to give; simultaneous: nobody ``active`` and some seat still to commit; seat order: the active seat is the
    first giver still choosing and exactly the givers before it are done. ``gifts`` (one recipient) are set
    exactly for the seats done, ``targets`` (per card) only for cards to give, never to the giver, all of a
    done seat's cards and not all of a choosing seat's.
  - A7 King of Hearts (E7): the K♥ lies, not cancelled, in the active seat's field with at least one other
    card; after scoring, ``scores`` are the scores of the table as it lies.
  - A8 King of Spades (E9): the K♠, not cancelled, lies in a Discard pile of at least two cards.
  - A9 ``need`` is empty outside a commit; before the hearts ``committed`` is empty outside the mulligan, and
    after them it is the seats that had hearts to give (3–4 players) or empty (2 players). ``give``,
    ``gifts`` and ``targets`` are empty before the hearts, and afterwards agree with each other as above.
  - A10 When the battle ended with seats that had not passed, the J♣ ended it: it was not cancelled, and it is
    not in the Deck, nor in the Discard before E8; a J♣ still on the table that took effect leaves someone
    unpassed.

Marks
  - M1 ``jd``: the J♦ lies face up on a field exactly when ``jd=1`` while the battle is on the table; never
    during the mulligan. ``jdc`` (the cards on the table when it came) needs ``jd=1``, excludes the J♦, and
    while cards are played is the opening stretch of each field, the J♦ right after it. ``jvoid`` (Jacks the J♦
    cancelled) needs ``jd=1`` under ``jod_scope=rest_of_battle``, holds Jacks played after it, and during play
    is exactly the Jacks on the table played after the J♦.
  - M2 ``jokers`` (decided Jokers) only from E2 on (after the Queen Zone under ``after_provisional_score``);
    ``prov`` exactly from that stage on under ``after_provisional_score``, never otherwise.
  - M3 No card played this battle (``jdc``, ``jvoid``, the J♦ in force, decided Jokers, hearts in ``give``, the
    J♣ that ended it) is back in the Deck: only E10 refills it, so only a game that ended for lack of cards
    may hold them there.

Counters
  - N1 ``battle`` is at least 1; battles completed = ``battle`` − 1, plus the current one once it is scored
    (the King of Hearts after scoring, the King of Spades, a finished game).
  - N2 ``scores`` (the last battle's) are present exactly when a battle was completed, and ``bwin`` is what
    they give: the unique highest score, or on a tie nobody (``battle_tie=no_winner``) or every tied seat.
  - N3 ``drawn`` is 0 after a battle with a sole winner and at least 1 after one without; it never exceeds the
    battles completed nor ``max_consecutive_drawn_battles``. Nobody has more wins than battles completed, and
    under ``no_winner`` the wins plus ``drawn`` do not exceed them; a seat in ``bwin`` has a win.
  - N4 The game is over exactly when it is decided: a sole leader with 2 wins who won the last battle, or the
    drawn-battle limit reached by the last battle (BR-15, BR-19), or — with neither — nobody holding a card
    after a battle without a winner. A running game is not decided.

Finally every seat to act has a legal action, somebody acts in a running game, and the table invariants of
``table.py`` hold.

Not checked, because they are history the position no longer shows: whether the hand, Deck and Discard could
have come from the deal and the draws so far (scenario positions name only the cards that matter), the order
of the Deck, the values of ``prov`` and of an earlier battle's ``scores``, and — once the table is revealed
and cards have moved — which cards the J♦ found or cancelled, and who controlled a discarded K♠.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oakwood.engine import InvalidNotationError, InvariantError

from .cards import (
    BIT,
    BLACK_JOKER,
    IS_JOKER,
    IS_NUMBERED_HEART,
    IS_QUEEN,
    JACK_OF_CLUBS,
    JACK_OF_DIAMONDS,
    JACK_OF_SPADES,
    JACKS_MASK,
    KING_OF_DIAMONDS,
    KING_OF_HEARTS,
    KING_OF_SPADES,
    NAMES,
    RED_JOKER,
    cards_of,
)
from .phases import (
    HEARTS,
    JOKERS,
    KING_OF_HEARTS_PHASE,
    KING_OF_SPADES_PHASE,
    MULLIGAN_PHASE,
    OVER,
    PLAY_PHASE,
    SWAP_PHASE,
)
from .state import MULLIGAN_LIMIT

if TYPE_CHECKING:
    from .state import BarrellState

JOKERS_MASK = BIT[RED_JOKER] | BIT[BLACK_JOKER]
QUEEN_ZONE_CARDS = sum(BIT[c] for c in range(52) if IS_QUEEN[c]) | BIT[KING_OF_DIAMONDS]


def _fail(field: str, message: str) -> InvalidNotationError:
    return InvalidNotationError(message, field=field)


def _p(seat: int) -> str:
    return f"P{seat + 1}"


def _mask(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= BIT[card]
    return mask


class _Position:
    """One loaded position and the facts every check needs (computed once)."""

    def __init__(self, state: BarrellState) -> None:
        self.state = state
        self.options = state.game.options
        self.n = state.num_players
        self.phase = state.phase
        self.owner = {card: seat for seat, field in enumerate(state.fields) for card in field}
        self.on_fields = _mask(list(self.owner))
        self.deck = _mask(state.deck)
        self.discard = _mask(state.discard)
        at_reveal = self.options.joker_timing == "at_reveal"
        phase = self.phase
        #: Before E3: nothing about hearts is decided yet.
        self.before_hearts = phase in (MULLIGAN_PHASE, PLAY_PHASE, SWAP_PHASE) or (phase == JOKERS and at_reveal)
        #: After E3 and E4 (no decision lies between them).
        self.after_queens = phase in (KING_OF_HEARTS_PHASE, KING_OF_SPADES_PHASE, OVER) or (
            phase == JOKERS and not at_reveal
        )
        self.playing = phase in (PLAY_PHASE, SWAP_PHASE)
        #: The J♠ moved to the field of the seat it traded with; it traded if it was not cancelled (nor pending).
        self.spade_holder = self.owner.get(JACK_OF_SPADES, -1)
        self.traded = self.spade_holder >= 0 and phase != SWAP_PHASE and not state.jacks_void >> JACK_OF_SPADES & 1
        self.decided = False  # set by check_counters
        self.revealed = phase in (JOKERS, HEARTS, KING_OF_HEARTS_PHASE)  # E1 done, E8 not yet
        self.jokers_started = phase == JOKERS or self.after_queens or (phase == HEARTS and at_reveal)
        scored = phase in (KING_OF_SPADES_PHASE, OVER) or (
            phase == KING_OF_HEARTS_PHASE and self.options.kh_timing == "after_scoring"
        )
        self.completed = state.battle - 1 + scored

    def giftable(self, card: int) -> bool:
        return IS_NUMBERED_HEART[card] or (card == KING_OF_HEARTS and self.options.kh_given_with_hearts)

    def undecided_jokers(self, seat: int) -> list[int]:
        done = self.state.jokers_done
        return [c for c in self.state.fields[seat] if IS_JOKER[c] and not done >> c & 1]

    # ------------------------------------------------------------------ C2, C3
    def check_knowledge(self) -> None:
        state = self.state
        everyone = state.all_seats
        for seat in range(self.n):
            own = 1 << seat
            for zone, mask in (("hands", state.hands[seat]), ("aside", state.aside[seat])):
                for card in cards_of(mask):
                    if state.known[card] not in (own, everyone):
                        raise _fail(zone, f"{_p(seat)}'s {NAMES[card]} must be known to {_p(seat)} alone or to all")
        self.check_face_down_knowledge()
        self.check_recall()

    def check_recall(self) -> None:
        """C4: what everyone recalls is in a hand or among its player's face-down cards, only during play."""
        state = self.state
        for seat in range(self.n):
            recalled = state.recall[seat]
            played = state.face_down_played_by(seat)
            if recalled and self.phase == MULLIGAN_PHASE:
                sequential = self.options.mulligan_mode == "sequential"
                if not (sequential and seat == state.active and state.aside[seat]):
                    raise _fail("recall", "in the mulligan only the seat setting cards aside (sequential) recalls")
                if recalled & ~(state.hands[seat] | state.aside[seat]):
                    raise _fail("recall", f"{_p(seat)}'s recalled cards lie in its hand or among those set aside")
                continue
            if recalled and not self.playing:
                raise _fail("recall", "recalled cards exist only while cards are played (the reveal settles them)")
            if recalled & ~(state.hands[seat] | played):
                raise _fail("recall", f"{_p(seat)}'s recalled cards lie in its hand or among its face-down cards")
            if recalled and not played:
                raise _fail("recall", f"{_p(seat)} recalls cards only after playing one face down")
            if played and any(state.known[c] != 1 << seat for c in cards_of(state.hands[seat])):
                raise _fail("hands", f"{_p(seat)} played face down: its hand is known to itself alone")

    def check_face_down_knowledge(self) -> None:
        """C3: a face-down card is known to the player who played it; after a J♠ trade that may be another seat
        than the field's owner, and under ``jos_initiator_may_look`` the J♠ player also knows what it received."""
        state = self.state
        n = self.n
        holder = self.spade_holder
        traded = self.traded
        face_down = [(c, s) for c, s in self.owner.items() if not state.face_up >> c & 1]
        initiator = -1
        if traded and self.options.jos_mode == "rotate_all":
            initiator = (holder - 1) % n
        elif traded:  # the pair that traded: the J♠'s holder and the seat whose old cards it holds
            for card, seat in face_down:
                foreign = state.known[card] & ~(1 << seat)
                if foreign:
                    initiator = foreign.bit_length() - 1 if seat == holder else seat
                    break
        may_look = self.options.jos_initiator_may_look
        for card, seat in face_down:
            who = state.known[card]
            own = 1 << seat
            player = who & ~own
            if not player:
                if not who:
                    raise _fail("fields", f"face-down {NAMES[card]} must be known to the player who played it")
                continue
            # Known to another seat: the owner received the card in the J♠ trade, from the seat that played it.
            if not traded or player.bit_count() != 1:
                raise _fail("fields", f"face-down {NAMES[card]} is known only to whoever played it (no J♠ trade)")
            source = player.bit_length() - 1
            if self.options.jos_mode == "rotate_all":
                expected = (seat - 1) % n
            else:
                expected = initiator if seat == holder else holder if seat == initiator else -1
            if source != expected:
                raise _fail("fields", f"face-down {NAMES[card]} in {_p(seat)}'s field cannot be known to {_p(source)}")
            if bool(who & own) != (may_look and seat == initiator):
                raise _fail(
                    "fields",
                    f"{_p(seat)} knows the received {NAMES[card]} exactly when it played the J♠ under "
                    "jos_initiator_may_look",
                )

    # ------------------------------------------------------------------ Z1–Z4
    def check_zones(self) -> None:
        state = self.state
        if self.phase != MULLIGAN_PHASE and any(state.aside):
            raise _fail("aside", "cards are set aside only during the mulligan")
        if self.phase in (MULLIGAN_PHASE, KING_OF_SPADES_PHASE, OVER) and self.on_fields:
            raise _fail("fields", f"the fields are empty in phase {self.phase}")
        if self.playing and state.face_up != self.on_fields & JACKS_MASK:
            raise _fail("fields", "while cards are played Jacks lie face up ('^') and every other card face down")
        if self.revealed and state.face_up != self.on_fields:
            raise _fail("fields", "every field card is face up ('^') after the reveal")
        zone = _mask(state.queen_zone)
        if zone & ~QUEEN_ZONE_CARDS:
            raise _fail("queen", "only Queens and the K♦ go to the Queen Zone")
        if zone and not (self.after_queens and self.phase in (JOKERS, KING_OF_HEARTS_PHASE)):
            raise _fail("queen", f"the Queen Zone is empty in phase {self.phase}")
        if self.after_queens and self.on_fields & QUEEN_ZONE_CARDS:
            raise _fail("fields", "every Queen and the K♦ left the fields for the Queen Zone at E4")
        before_e4 = self.before_hearts or self.phase == HEARTS
        if before_e4 and self.options.discard_recycle == "every_battle" and state.discard:
            raise _fail("discard", "under discard_recycle=every_battle the Discard pile is empty until E4")

    # ------------------------------------------------------------------ N1–N4
    def check_counters(self) -> None:
        state = self.state
        options = self.options
        completed = self.completed
        wins = state.wins
        drawn = state.drawn_streak
        scores = state.battle_scores
        winners = _mask_of_seats(state.battle_winners)
        if (scores is None) != (completed == 0):
            raise _fail("scores", "the last battle's scores are given exactly when a battle has been scored")
        if scores is None:
            if any(wins) or drawn or winners:
                raise _fail("wins", "no battle has been scored yet")
        else:
            top = max(scores)
            tied = [s for s in range(self.n) if scores[s] == top]
            sole = len(tied) == 1
            expected = tied if sole or options.battle_tie == "all_tied_win" else []
            if winners != _mask_of_seats(expected):
                raise _fail("bwin", "the battle's winners must be those its scores give")
            if sole == (drawn > 0):
                raise _fail("drawn", "the drawn streak is 0 exactly after a battle with a sole winner")
        if drawn > min(completed, options.max_consecutive_drawn_battles):
            raise _fail("drawn", "more drawn battles in a row than battles scored or than the limit")
        if max(wins) > completed:
            raise _fail("wins", f"more battle wins than the {completed} battle(s) scored")
        if options.battle_tie == "no_winner" and sum(wins) + drawn > completed:
            raise _fail("wins", f"wins and drawn battles add up to more than the {completed} battle(s) scored")
        for seat in state.battle_winners:
            if not wins[seat]:
                raise _fail("wins", f"{_p(seat)} won the last battle but has no win")
        top = max(wins)
        leader = wins.index(top) if top >= 2 and wins.count(top) == 1 else -1
        by_streak = drawn >= options.max_consecutive_drawn_battles
        self.decided = leader >= 0 or by_streak
        if self.phase != OVER:
            if leader >= 0:
                raise _fail("wins", f"{_p(leader)} has {top} battle wins: the game would be over")
            if by_streak:
                raise _fail("drawn", "the drawn-battle limit is reached: the game would be over")
            return
        if leader >= 0 or by_streak:
            if not (by_streak or leader in state.battle_winners):
                raise _fail("phase", "the game was decided before its last battle")
        elif any(state.hands) or winners:
            raise _fail("phase", "a finished game needs a sole leader with 2 wins, the drawn-battle limit, or no cards")

    # ------------------------------------------------------------------ A1–A10
    def check_turn(self) -> None:
        state = self.state
        phase = self.phase
        if phase == MULLIGAN_PHASE:
            if state.passed:
                raise _fail("passed", "nobody has passed before the battle")
            if self.options.mulligan_mode == "simultaneous":
                self.check_simultaneous_mulligan()
            else:
                self.check_sequential_mulligan()
        elif phase == PLAY_PHASE:
            self.check_play_turn()
        elif phase == SWAP_PHASE:
            self.check_swap()
        elif phase == JOKERS:
            self.check_jokers_turn()
        elif phase == HEARTS:
            self.check_hearts()
        elif phase == KING_OF_HEARTS_PHASE:
            self.check_king_of_hearts()
        elif phase == KING_OF_SPADES_PHASE:
            self.check_king_of_spades()
        elif state.active >= 0:
            raise _fail("active", "nobody acts in a finished game")
        if phase not in (MULLIGAN_PHASE, HEARTS) and state.need:
            raise _fail("need", f"no commit decision is open in phase {phase}")
        if self.after_queens:
            self.check_after_hearts()
        if self.revealed or phase == KING_OF_SPADES_PHASE:
            self.check_battle_end()

    def cap(self, seat: int) -> int:
        return min(MULLIGAN_LIMIT, (self.state.hands[seat] | self.state.aside[seat]).bit_count())

    def check_sequential_mulligan(self) -> None:
        state = self.state
        active = state.active
        if active < 0 or not state.hands[active]:
            raise _fail("active", "the sequential mulligan needs an active seat holding cards")
        if state.need:
            raise _fail("need", "the sequential mulligan is not a commit")
        order = state.seat_order()
        before = order[: order.index(active)]
        done = sum(1 << s for s in before if state.hands[s])
        if state.committed != done:
            raise _fail("committed", "exactly the seats before the active one that hold cards have finished")
        for seat in range(self.n):
            if seat != active and state.aside[seat]:
                raise _fail("aside", f"only the active seat has cards set aside, not {_p(seat)}")
        aside = state.aside[active]
        if aside.bit_count() >= self.cap(active):
            raise _fail("aside", f"{_p(active)} has set aside all it may: its mulligan is over")
        if aside and any(state.known[c] != 1 << active for c in cards_of(state.hands[active] | aside)):
            raise _fail("hands", f"after setting a card aside {_p(active)}'s hand is known to it alone")

    def check_simultaneous_mulligan(self) -> None:
        state = self.state
        if state.active >= 0:
            raise _fail("active", "the simultaneous mulligan is a commit: no seat is active ('-')")
        holding = sum(1 << s for s in range(self.n) if state.hands[s] | state.aside[s])
        if state.need != holding or not holding:
            raise _fail("need", "the simultaneous mulligan waits for exactly the seats that hold cards")
        if state.committed & ~state.need or state.committed == state.need:
            raise _fail("committed", "the seats done are some, not all, of the seats in 'need'")
        for seat in range(self.n):
            if not holding >> seat & 1:
                continue
            count = state.aside[seat].bit_count()
            if state.committed >> seat & 1:
                if count > self.cap(seat):
                    raise _fail("aside", f"{_p(seat)} set aside more than it may")
            elif count >= self.cap(seat) or not state.hands[seat]:
                raise _fail("aside", f"{_p(seat)} has set aside all it may: it has committed")

    def check_play_turn(self) -> None:
        state = self.state
        active = state.active
        if active < 0 or state.passed >> active & 1 or not state.hands[active]:
            raise _fail("active", "the active seat must hold cards and not have passed")
        if self.on_fields >> JACK_OF_CLUBS & 1 and not state.jacks_void >> JACK_OF_CLUBS & 1:
            raise _fail("fields", "a J♣ that took effect would have ended the battle")
        if not self.traded:
            self.check_turn_order(active)
        if state.committed:
            raise _fail("committed", "nobody commits while cards are played")

    def check_turn_order(self, active: int, *, just_played: bool = False) -> None:
        """A3: turns go round from the first player, each a card played (it stays in the field) or a final pass.
        The active seat has played in every round so far (``R`` cards, not counting the J♠ it ``just_played``
        while it chooses whom to trade with), so the seats still in play before it (from the first player) have
        played ``R + 1`` cards and those after it ``R``; a seat that passed played no more than the turns it
        had. (Not checked after a J♠ trade, which exchanged the fields' cards.)"""
        state = self.state
        order = state.seat_order()
        position = order.index(active)
        rounds = len(state.fields[active]) - just_played
        for index, seat in enumerate(order):
            if seat == active:
                continue
            played = len(state.fields[seat])
            before = index < position
            if state.passed >> seat & 1:
                if played > (rounds if before else rounds - 1):
                    raise _fail("passed", f"{_p(seat)} played more cards than it had turns before passing")
            elif played != (rounds + 1 if before else rounds):
                raise _fail("fields", f"turn order from the first player gives {_p(seat)} another number of cards")

    def check_swap(self) -> None:
        state = self.state
        active = state.active
        if self.n < 3 or self.options.jos_mode != "choose_one":
            raise _fail("phase", "the J♠ asks for an opponent only with 3–4 players under jos_mode=choose_one")
        if active < 0 or state.passed >> active & 1:
            raise _fail("active", "the J♠ player chooses whom to trade with")
        field = state.fields[active]
        if not field or field[-1] != JACK_OF_SPADES:
            raise _fail("fields", f"the J♠ must be the last card of {_p(active)}'s field")
        if state.jd_active and self.options.jod_scope == "rest_of_battle":
            raise _fail("jd", "the J♦ in force cancels the J♠: no trade to choose")
        if state.committed:
            raise _fail("committed", "nobody commits while cards are played")
        self.check_turn_order(active, just_played=True)

    def check_jokers_turn(self) -> None:
        state = self.state
        active = state.active
        if active < 0 or not self.undecided_jokers(active):
            raise _fail("active", "the active seat must have an undecided Joker in its field")
        order = state.seat_order()
        for seat in order[: order.index(active)]:
            if self.undecided_jokers(seat):
                raise _fail("active", f"{_p(seat)}'s Joker is decided first (seat order from the first player)")
        if self.before_hearts and state.committed:
            raise _fail("committed", "nobody has committed before the hearts")

    def check_hearts(self) -> None:
        state = self.state
        options = self.options
        if self.n < 3:
            raise _fail("phase", "with 2 players the hearts go to the only opponent without a decision")
        giving = 0
        all_given = 0
        for seat, mask in enumerate(state.to_give):
            if mask:
                giving |= 1 << seat
            all_given |= mask
        giftable_on_fields = sum(BIT[c] for c in self.owner if self.giftable(c))
        if all_given != giftable_on_fields:
            raise _fail("give", "'give' lists exactly the giftable cards in the fields (numbered hearts)")
        if state.need != giving or not giving:
            raise _fail("need", "the hearts wait for exactly the seats with hearts to give")
        one_opponent = options.heart_gift == "one_opponent"
        seat_order = options.heart_gift_timing == "seat_order"
        committed = state.committed
        if committed & ~giving or committed == giving:
            raise _fail("committed", "the seats done are some, not all, of the seats in 'need'")
        if seat_order:
            order = state.seat_order()
            pending = [s for s in order if giving >> s & 1 and not committed >> s & 1]
            if state.active != pending[0]:
                raise _fail("active", f"the next giver in seat order is {_p(pending[0])}")
            before = order[: order.index(pending[0])]
            if committed != sum(1 << s for s in before if giving >> s & 1):
                raise _fail("committed", "exactly the givers before the active one are done")
        elif state.active >= 0:
            raise _fail("active", "the simultaneous hearts are a commit: no seat is active ('-')")
        self.check_gift_choices(giving, committed, during=True)
        for giver, mask in enumerate(state.to_give):
            for card in cards_of(mask):
                where = giver
                if seat_order and one_opponent and committed >> giver & 1:
                    where = state.gift_target[giver]
                elif seat_order and not one_opponent and card in state.card_target:
                    where = state.card_target[card]
                if self.owner.get(card) != where:
                    raise _fail("give", f"{NAMES[card]} from {_p(giver)} must lie in {_p(where)}'s field")

    def check_gift_choices(self, giving: int, done: int, *, during: bool) -> None:
        """``gifts``/``targets`` agree with ``give`` and with the seats ``done`` (A6, A9)."""
        state = self.state
        one_opponent = self.options.heart_gift == "one_opponent"
        giver_of = {c: s for s, mask in enumerate(state.to_give) for c in cards_of(mask)}
        for seat, target in enumerate(state.gift_target):
            if target == seat:
                raise _fail("gifts", f"{_p(seat)} cannot give hearts to itself")
            if (target >= 0) != (one_opponent and bool(done >> seat & 1)):
                raise _fail("gifts", f"{_p(seat)} has a recipient exactly when it has chosen one")
        if one_opponent and state.card_target:
            raise _fail("targets", "per-card recipients only under heart_gift=split_per_card")
        for card, target in state.card_target.items():
            if card not in giver_of:
                raise _fail("targets", f"{NAMES[card]} is not a heart to give")
            if giver_of[card] == target:
                raise _fail("targets", f"{_p(target)} cannot give {NAMES[card]} to itself")
        if one_opponent:
            return
        for seat in range(self.n):
            cards = cards_of(state.to_give[seat])
            chosen = sum(c in state.card_target for c in cards)
            if done >> seat & 1:
                if chosen != len(cards):
                    raise _fail("targets", f"{_p(seat)} is done: every one of its hearts has a recipient")
            elif chosen == len(cards) and cards:
                raise _fail("targets", f"{_p(seat)} named a recipient for every heart: it is done")
            elif during and chosen and self.options.heart_gift_timing == "seat_order" and seat != state.active:
                raise _fail("targets", f"{_p(seat)} is not choosing now")

    def check_king_of_hearts(self) -> None:
        state = self.state
        active = state.active
        if active < 0 or self.owner.get(KING_OF_HEARTS) != active or len(state.fields[active]) < 2:
            raise _fail("active", "the K♥'s controller returns a card while the K♥ lies with another in its field")
        if state.void_mask() >> KING_OF_HEARTS & 1:
            raise _fail("jd", "the J♦ cancelled the K♥")
        if self.options.kh_timing == "after_scoring" and state.battle_scores != state._compute_scores():
            raise _fail("scores", "the battle's scores must be those of the table as it lies")

    def check_king_of_spades(self) -> None:
        state = self.state
        if state.active < 0:
            raise _fail("active", "the K♠'s controller picks a Discard card")
        if not self.discard >> KING_OF_SPADES & 1 or len(state.discard) < 2:
            raise _fail("discard", "the K♠ lies in a Discard pile of at least two cards")
        if state.void_mask() >> KING_OF_SPADES & 1:
            raise _fail("jd", "the J♦ cancelled the K♠")

    def check_after_hearts(self) -> None:
        """A9 after the hearts: the seats done and their choices agree with what they had to give."""
        state = self.state
        giving = sum(1 << s for s in range(self.n) if state.to_give[s])
        done = giving if self.n >= 3 else 0
        if state.committed != done:
            raise _fail("committed", "after the hearts exactly the seats that had hearts to give are done")
        if self.n == 2 and (state.card_target or any(t >= 0 for t in state.gift_target)):
            raise _fail("gifts", "with 2 players hearts go to the only opponent: nobody names a recipient")
        if self.n >= 3:
            self.check_gift_choices(giving, done, during=False)

    def check_battle_end(self) -> None:
        """A10: how the battle ended (every seat passed, or the J♣)."""
        state = self.state
        everyone_passed = state.passed == state.all_seats
        club_in_effect = self.on_fields >> JACK_OF_CLUBS & 1 and not state.jacks_void >> JACK_OF_CLUBS & 1
        if everyone_passed and club_in_effect and self.revealed:
            raise _fail("passed", "the J♣ ended the battle, so its player had not passed")
        gone = self.deck if self.phase == KING_OF_SPADES_PHASE else self.deck | self.discard  # E8 discards it
        if not everyone_passed and (gone | state.jacks_void) >> JACK_OF_CLUBS & 1:
            raise _fail("passed", "a battle ends with seats still to pass only by the J♣")

    # ------------------------------------------------------------------ A9 before the hearts, M1, M2
    def check_marks(self) -> None:
        state = self.state
        options = self.options
        if self.before_hearts:
            if any(state.to_give) or any(t >= 0 for t in state.gift_target) or state.card_target:
                raise _fail("give", "nothing is given before the hearts (E3)")
        elif self.phase != HEARTS:
            for mask in state.to_give:
                if any(not self.giftable(c) for c in cards_of(mask)):
                    raise _fail("give", "only numbered hearts (and the K♥ under kh_given_with_hearts) are given")
        total = 0
        for mask in state.to_give:
            if total & mask:
                raise _fail("give", "a card is given by two seats")
            total |= mask
        # M2
        if state.jokers_done & ~JOKERS_MASK:
            raise _fail("jokers", "only Jokers are decided")
        if state.jokers_done and not self.jokers_started:
            raise _fail("jokers", f"no Joker is decided yet in phase {self.phase}")
        if self.revealed:
            if state.jokers_done & ~self.on_fields:
                raise _fail("jokers", "a decided Joker stays in its field until E8")
            for seat in range(self.n):
                field = state.fields[seat]
                if any(state.jokers_done >> c & 1 for c in field) and self.undecided_jokers(seat):
                    raise _fail("jokers", "a decided Joker sent every other card of its field back to hand")
            past_jokers = self.phase == KING_OF_HEARTS_PHASE or (self.phase == HEARTS and self.jokers_started)
            if past_jokers and any(self.undecided_jokers(s) for s in range(self.n)):
                raise _fail("jokers", "every Joker in the fields was decided at E2")
        wants_prov = options.joker_timing == "after_provisional_score" and (self.phase == JOKERS or self.after_queens)
        if (state.provisional_scores is not None) != wants_prov:
            raise _fail("prov", "provisional scores exist exactly from the Joker stage after the Queen Zone")
        # M1
        void = state.jacks_void
        cover = state.jd_cover
        if self.phase == MULLIGAN_PHASE and (state.jd_active or cover or void):
            raise _fail("jd", "the J♦ marks are cleared when a battle starts")
        diamond_on_table = bool(self.on_fields >> JACK_OF_DIAMONDS & 1)
        if self.playing and state.jd_active != diamond_on_table:
            raise _fail("jd", "jd=1 exactly when the J♦ lies on a field")
        if self.revealed and diamond_on_table and not state.jd_active:
            raise _fail("jd", "a J♦ on the table is in force (jd=1)")
        held = any(h >> JACK_OF_DIAMONDS & 1 for h in state.hands)
        if self.revealed and state.jd_active and not (diamond_on_table or held):
            raise _fail("jd", "the J♦ in force lies on a field, or in a hand it went back to")
        if (cover or void) and not state.jd_active:
            raise _fail("jdc" if cover else "jvoid", "needs the J♦ in force (jd=1)")
        if cover & BIT[JACK_OF_DIAMONDS]:
            raise _fail("jdc", "the J♦ is not among the cards it found on the table")
        if void & ~JACKS_MASK or void & BIT[JACK_OF_DIAMONDS] or void & cover:
            raise _fail("jvoid", "only Jacks played after the J♦ are cancelled")
        if void and options.jod_scope != "rest_of_battle":
            raise _fail("jvoid", "later Jacks are cancelled only under jod_scope=rest_of_battle")
        played = cover | void | state.jokers_done | (BIT[JACK_OF_DIAMONDS] if state.jd_active else 0)
        for mask in state.to_give:
            played |= mask
        if state.passed != state.all_seats and not self.playing and self.phase != MULLIGAN_PHASE:
            played |= BIT[JACK_OF_CLUBS]  # A10: the J♣ ended the battle
        if played & self.deck and not (self.phase == OVER and not self.decided):  # only E10 refills the Deck
            raise _fail("deck", "a card played this battle is not back in the Deck before E10")
        if self.playing and state.jd_active:
            self.check_jack_of_diamonds_on_table()

    def check_jack_of_diamonds_on_table(self) -> None:
        """M1 while cards are played: ``jdc`` opens each field, the J♦ follows it; later Jacks are ``jvoid``."""
        state = self.state
        cover = state.jd_cover
        if cover & ~self.on_fields:
            raise _fail("jdc", "the cards the J♦ found stay on the table while cards are played")
        for field in state.fields:
            covered = sum(1 for c in field if cover >> c & 1)
            if any(not cover >> c & 1 for c in field[:covered]):
                raise _fail("jdc", "the cards the J♦ found were played before every later card of their field")
            if JACK_OF_DIAMONDS in field and field.index(JACK_OF_DIAMONDS) != covered:
                raise _fail("jdc", "the J♦ follows the cards of its field that it found")
        later_jacks = self.on_fields & JACKS_MASK & ~cover & ~BIT[JACK_OF_DIAMONDS]
        expected = later_jacks if self.options.jod_scope == "rest_of_battle" else 0
        if state.jacks_void != expected:
            raise _fail("jvoid", "exactly the Jacks played after the J♦ are cancelled (rest_of_battle)")

    # ------------------------------------------------------------------ the engine's own checks
    def check_engine(self) -> None:
        state = self.state
        try:
            state._check_invariants()
        except InvariantError as exc:
            raise _fail("fields", str(exc)) from None
        seats = state._to_act()
        if (state.phase == OVER) == bool(seats):
            raise _fail("active", "somebody acts exactly while the game runs")
        for seat in seats:
            if not state._legal_actions(seat):
                raise _fail("active", f"{_p(seat)} is to act but has no legal action")


def _mask_of_seats(seats: list[int]) -> int:
    return sum(1 << s for s in seats)


def check_position(state: BarrellState) -> None:
    """Refuse ``state`` unless it is a real Barrell position (the rules in the module docstring); the
    :class:`InvalidNotationError` names the notation field at fault."""
    position = _Position(state)
    position.check_counters()
    position.check_zones()
    position.check_knowledge()
    position.check_marks()
    position.check_turn()
    position.check_engine()
