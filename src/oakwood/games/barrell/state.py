"""Barrell rules, top to bottom like RULINGS §2.2: setup, battle start (dice, mulligan), play; the end of a
battle (E1–E11) is in ``end_of_battle.py``, the zones and card movements in ``table.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Self, cast

from oakwood.engine import Decision, Rng, State
from oakwood.engine.native import mypyc_attr

from .actions import (
    GIFT,
    GIFT_ACTIONS,
    GIVE,
    GIVE_ACTIONS,
    JOKER_FIELD,
    JOKER_KEEP,
    KEEP,
    KEEP_ACTION,
    MAX_SEATS,
    MULLIGAN,
    MULLIGAN_ACTIONS,
    PASS,
    PASS_ACTION,
    PLAY,
    PLAY_ACTIONS,
    RETURN,
    RETURN_ACTIONS,
    SWAP,
    SWAP_ACTIONS,
    TAKE,
    TAKE_ACTIONS,
    Action,
    mulligan_actions,
    play_actions,
)
from .cards import (
    BIT,
    DECK_SIZE,
    HAND_SIZE,
    IS_JACK,
    JACK_OF_CLUBS,
    JACK_OF_DIAMONDS,
    JACK_OF_HEARTS,
    JACK_OF_SPADES,
    NAMES,
    cards_of,
)
from .end_of_battle import EndOfBattle
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
from .table import AUDIENCE, SEAT_LABELS, SEAT_ORDERS, SEATS_IN, names
from .view import observe  # imported once here, not on every observation (an import statement costs ~1 µs)

if TYPE_CHECKING:
    from .game import Barrell

MULLIGAN_LIMIT: Final = 3  # BR-4
#: ``SWAP_CHOICES[n][seat]`` and ``GIFT_CHOICES[n][seat]``: one action per opponent of ``seat`` (BR-11, BR-5).
SWAP_CHOICES: Final = tuple(
    tuple(tuple(SWAP_ACTIONS[t] for t in range(n) if t != seat) for seat in range(n)) for n in range(MAX_SEATS + 1)
)
GIFT_CHOICES: Final = tuple(
    tuple(tuple(GIFT_ACTIONS[t] for t in range(n) if t != seat) for seat in range(n)) for n in range(MAX_SEATS + 1)
)

# Prebuilt log entries for the hot path (the tuple ``State.log`` would build from the same ``Event``; logged
# events are never modified, so states may share them): a face-down play, a face-up Jack, a card set aside,
# a pass.
_PLAY_DOWN_EVENTS: Final = tuple(
    tuple(("play", {"seat": s, "face_up": False}, {"card": NAMES[c]}, frozenset({s})) for c in range(DECK_SIZE))
    for s in range(MAX_SEATS)
)
_PLAY_UP_EVENTS: Final = tuple(
    tuple(("play", {"seat": s, "face_up": True, "card": NAMES[c]}, None, None) for c in range(DECK_SIZE))
    for s in range(MAX_SEATS)
)
_ASIDE_EVENTS: Final = tuple(
    tuple(("mulligan_aside", {"seat": s}, {"card": NAMES[c]}, frozenset({s})) for c in range(DECK_SIZE))
    for s in range(MAX_SEATS)
)
_NO_MULLIGAN_EVENTS: Final = tuple(("mulligan", {"seat": s, "count": 0}, None, None) for s in range(MAX_SEATS))
_PASS_EVENTS: Final = tuple(
    (("pass", {"seat": s, "automatic": False}, None, None), ("pass", {"seat": s, "automatic": True}, None, None))
    for s in range(MAX_SEATS)
)
# The canonical play / mulligan actions by identity (they are module constants, alive as long as the module):
# the fast path recognises them with one dict lookup; any other object, an equal copy included, takes the
# generic path, which decides legality by equality as always.
_PLAY_CARD_BY_ID: Final = {id(a): a.card for a in PLAY_ACTIONS}
_MULLIGAN_CARD_BY_ID: Final = {id(a): a.card for a in MULLIGAN_ACTIONS}


@mypyc_attr(allow_interpreted_subclasses=True)  # see State: clones and loaded positions skip __init__
class BarrellState(EndOfBattle):
    """One Barrell match."""

    __slots__ = ()

    # ------------------------------------------------------------------ GAME_SETUP
    def deal(self) -> None:
        """GAME_SETUP: shuffle the 54 cards (the deck of ``deck_composition``, BR-24) and deal 10 to each
        player, once per game (BR-2)."""
        deck = self.deck = list(cast("Barrell", self.game).deck_cards)
        self.rng.shuffle(deck)
        known = self.known
        for seat in range(self.num_players):
            drawn = deck[-HAND_SIZE:]
            del deck[-HAND_SIZE:]
            hand = 0
            own = 1 << seat
            for card in drawn:
                hand |= BIT[card]
                known[card] = own
            self.hands[seat] |= hand
            drawn.sort()
            self.emit("deal", {"seat": seat, "count": HAND_SIZE}, {"cards": names(drawn)}, AUDIENCE[seat])
        self.private_hands = self.all_seats  # each hand is known to its holder alone
        self._start_battle()

    # ------------------------------------------------------------------ BATTLE_START
    def _start_battle(self) -> None:
        """A new battle: reset the battle state, roll for the first player, then the mulligan (BR-2, BR-4)."""
        self.battle += 1
        self.passed = 0
        self.jd_active = False
        self.jd_cover = 0
        self.jacks_void = 0
        self.jokers_done = 0
        self.recall = [0] * self.num_players
        self.to_give = [0] * self.num_players
        self.gift_target = [-1] * self.num_players
        self.card_target = {}
        self.provisional_scores = None
        self.emit("battle", {"battle": self.battle})
        if cast("Barrell", self.game).recycle_every_battle:
            self._recycle_discard()  # BR-4 variant
        self.first = self._roll_for_first()
        self._begin_mulligan()

    def _roll_for_first(self) -> int:
        """ROLL: one d6 per player; the players tied for highest re-roll (BR-2). Every roll is logged."""
        rolling: Sequence[int] = SEAT_ORDERS[self.num_players][0]
        randbelow = self.rng.randbelow
        while True:
            rolls = {}
            top = 0
            best: list[int] = []
            for seat in rolling:
                roll = 1 + randbelow(6)
                rolls[SEAT_LABELS[seat]] = roll
                if roll > top:
                    top = roll
                    best = [seat]
                elif roll == top:
                    best.append(seat)
            self.emit("dice", {"rolls": rolls})
            if len(best) == 1:
                self.emit("first_player", {"seat": best[0]})
                return best[0]
            rolling = best

    # ------------------------------------------------------------------ MULLIGAN (BR-4)
    def _mulligan_cap(self, seat: int) -> int:
        """How many cards ``seat`` may set aside in all: up to 3, and no more than it holds (BR-4)."""
        return min(MULLIGAN_LIMIT, (self.hands[seat] | self.aside[seat]).bit_count())

    def _begin_mulligan(self) -> None:
        self.phase = MULLIGAN_PHASE
        self.committed = 0
        self.aside = [0] * self.num_players
        if cast("Barrell", self.game).simultaneous_mulligan:
            self.need = sum(1 << s for s in range(self.num_players) if self.hands[s])
            self.active = -1
            if not self.need:
                self._begin_play()
            return
        self.need = 0
        self._next_mulligan_seat()

    def _next_mulligan_seat(self) -> None:
        """Sequential mulligan: the next seat from the first player that holds cards and has not decided."""
        committed = self.committed
        hands = self.hands
        for seat in SEAT_ORDERS[self.num_players][self.first]:
            if not committed >> seat & 1 and hands[seat]:
                self.active = seat
                return
        self._begin_play()

    def _apply_mulligan(self, seat: int, action: Action) -> None:
        if not cast("Barrell", self.game).simultaneous_mulligan:
            if action.verb == MULLIGAN:
                self._set_aside(seat, action.card)
            else:
                self._keep(seat)
            return
        if action.verb == MULLIGAN:
            self.hands[seat] &= ~BIT[action.card]
            self.aside[seat] |= BIT[action.card]
            if self.aside[seat].bit_count() < self._mulligan_cap(seat) and self.hands[seat]:
                return
        self.committed |= 1 << seat
        if self.committed & self.need == self.need:
            self._resolve_simultaneous_mulligan()

    def _set_aside(self, seat: int, card: int) -> None:
        """Sequential mulligan: ``seat`` sets ``card`` aside; at its cap (BR-4) its mulligan is over."""
        bit = BIT[card]
        held = self.hands[seat] ^ bit
        aside = self.aside[seat] | bit
        self.hands[seat] = held
        self.aside[seat] = aside
        if not self.private_hands >> seat & 1:
            self._hide_aside(seat)  # the others see a card set aside, not which one (BR-23)
        if self.record_events:
            self._log = (_ASIDE_EVENTS[seat][card], self._log)
        count = aside.bit_count()
        if count >= MULLIGAN_LIMIT or count >= (held | aside).bit_count() or not held:
            self._keep(seat)

    def _keep(self, seat: int) -> None:
        """Sequential mulligan: ``seat`` is done. Draw as many cards as it set aside, then shuffle those into
        the Deck (BR-4); the next seat decides."""
        self.committed |= 1 << seat
        aside = self.aside[seat]
        if aside:
            discarded = cards_of(aside)
            pool = discarded[:]
            self.aside[seat] = 0
            drawn = self._draw(seat, len(discarded), pool)
            self.recall[seat] = 0  # the cards set aside go into the Deck: mixed (BR-23)
            if self.record_events:
                drawn.sort()
                self._log = (
                    (
                        "mulligan",
                        {"seat": seat, "count": len(discarded)},
                        {"discarded": [NAMES[c] for c in discarded], "drawn": [NAMES[c] for c in drawn]},
                        AUDIENCE[seat],
                    ),
                    self._log,
                )
            if pool:
                known = self.known
                for card in pool:
                    known[card] = 0
                self.deck.extend(pool)
                self.rng.shuffle(self.deck)
        elif self.record_events:
            self._log = (_NO_MULLIGAN_EVENTS[seat], self._log)
        self._next_mulligan_seat()

    def _finish_mulligan(self, seats: list[int]) -> None:
        """The simultaneous mulligan's end: draw replacements for the cards set aside, then shuffle those cards
        into the Deck (BR-4)."""
        self.private_hands = 0  # the cards set aside go to the Deck while other seats may still hold theirs
        pool: list[int] = []
        for seat in seats:
            pool.extend(cards_of(self.aside[seat]))
        for seat in seats:
            count = self.aside[seat].bit_count()
            if count:
                discarded = cards_of(self.aside[seat])
                self.aside[seat] = 0
                drawn = self._draw(seat, count, pool)
                self._forget_hand(seat)
                self.recall[seat] = 0  # the cards set aside go into the Deck: mixed (BR-23)
                self.emit(
                    "mulligan",
                    {"seat": seat, "count": count},
                    {"discarded": names(discarded), "drawn": names(sorted(drawn))},
                    frozenset({seat}),
                )
            else:
                self.emit("mulligan", {"seat": seat, "count": 0})
        if pool:
            for card in pool:
                self.known[card] = 0
            self.deck.extend(pool)
            self.rng.shuffle(self.deck)

    def _resolve_simultaneous_mulligan(self) -> None:
        self._finish_mulligan([s for s in self.seat_order() if self.need >> s & 1])
        self._begin_play()

    # ------------------------------------------------------------------ PLAY (BR-3, BR-11)
    def _begin_play(self) -> None:
        self.phase = PLAY_PHASE
        self.need = 0
        self.committed = 0
        self.active = self.first
        self._settle_turn()

    def _settle_turn(self) -> None:
        """Move ``active`` to the next seat that may play; empty hands pass automatically (BR-3); when every
        player has passed, the battle ends."""
        while True:
            if self.passed == self.all_seats:
                self._end_battle()
                return
            seat = self.active
            if self.passed >> seat & 1:
                self.active = (seat + 1) % self.num_players
                continue
            if not self.hands[seat]:
                self.passed |= 1 << seat
                if self.record_events:
                    self._log = (_PASS_EVENTS[seat][1], self._log)
                self.active = (seat + 1) % self.num_players
                continue
            return

    def _next_turn(self) -> None:
        seat = self.active + 1
        if seat == self.num_players:
            seat = 0
        self.active = seat
        # The common case first: that seat is still in and holds cards (then not everyone has passed).
        if self.passed >> seat & 1 or not self.hands[seat]:
            self._settle_turn()

    def _apply_play(self, seat: int, card: int) -> None:
        self.fields[seat].append(card)
        if not IS_JACK[card]:
            # Face down: nobody else knows it, nor which of the seat's hand cards it was. The cards everyone
            # knew in that hand (the played one included) are now in the hand or among this seat's face-down
            # cards (BR-23); the whole hand is known to the seat alone. Bits walked inline: the hot path.
            own = 1 << seat
            if not self.private_hands & own:
                everyone = self.all_seats
                known = self.known
                recall = self.recall[seat]
                mask = self.hands[seat]
                while mask:
                    low = mask & -mask
                    held = low.bit_length() - 1
                    mask ^= low
                    if known[held] == everyone:
                        recall |= low
                    known[held] = own
                self.recall[seat] = recall
                self.private_hands |= own
            self.hands[seat] ^= BIT[card]
            if self.record_events:
                self._log = (_PLAY_DOWN_EVENTS[seat][card], self._log)
            self._next_turn()
            return
        # BR-3: Jacks are played face up and take effect at once.
        self.hands[seat] ^= BIT[card]
        self.face_up |= BIT[card]
        self.known[card] = self.all_seats
        self.recall[seat] &= ~BIT[card]  # seen on the table: no longer in doubt
        if self.record_events:
            self._log = (_PLAY_UP_EVENTS[seat][card], self._log)
        if self.jd_active and self.game.options.jod_scope == "rest_of_battle":
            self.jacks_void |= BIT[card]  # BR-11: the Jack of Diamonds cancels later Jacks
            self.emit("cancelled", {"card": NAMES[card]})
            self._next_turn()
            return
        if card == JACK_OF_CLUBS:
            self.emit("battle_ends", {"by": NAMES[card]})  # BR-11: the battle ends at once
            self._end_battle()
            return
        if card == JACK_OF_HEARTS:
            drawn = self._draw(seat, 2)  # BR-11: draw 2
            self.emit("draw", {"seat": seat, "count": len(drawn)}, {"cards": names(drawn)}, frozenset({seat}))
        elif card == JACK_OF_DIAMONDS:
            self.jd_active = True
            self.jd_cover = 0
            for field in self.fields:
                for other in field:
                    self.jd_cover |= BIT[other]
            self.jd_cover &= ~BIT[JACK_OF_DIAMONDS]
        elif card == JACK_OF_SPADES:
            if self.game.options.jos_mode == "rotate_all":
                self._rotate_fields(seat)
            elif self.num_players == 2:
                self._swap_fields(seat, 1 - seat)
            else:
                self.phase = SWAP_PHASE  # the J♠ player names the opponent (BR-11)
                return
        self._next_turn()

    def _swap_fields(self, seat: int, target: int) -> None:
        """BR-11: the two players trade whole fields; face-down cards stay unknown to their new owner."""
        self.fields[seat], self.fields[target] = self.fields[target], self.fields[seat]
        if self.game.options.jos_initiator_may_look:
            self._look_at_field(seat)
        self.emit("swap", {"seat": seat, "target": target})

    def _rotate_fields(self, seat: int) -> None:
        """BR-11 variant ``rotate_all``: every field moves one seat to the left (clockwise)."""
        self.fields = [self.fields[-1], *self.fields[:-1]]
        if self.game.options.jos_initiator_may_look:
            self._look_at_field(seat)
        self.emit("rotate", {"seat": seat})

    # ------------------------------------------------------------------ END_OF_BATTLE: E1–E11, end_of_battle.py

    # ------------------------------------------------------------------ engine hooks
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (no check needed: the hook itself is the fast path)."""
        if self.active >= 0:
            return (self.active,)
        if self.need:
            return SEATS_IN[self.need & ~self.committed]
        return ()

    def _decision(self) -> Decision:
        if self.phase == OVER:
            return Decision.NONE
        return Decision.TURN if self.active >= 0 else Decision.COMMIT

    def _legal_actions(self, seat: int) -> Sequence[Action]:
        phase = self.phase
        if phase == PLAY_PHASE:
            return play_actions(self.hands[seat])
        if phase == MULLIGAN_PHASE:
            if self.aside[seat].bit_count() >= self._mulligan_cap(seat):
                return (KEEP_ACTION,)
            return mulligan_actions(self.hands[seat])
        if phase == SWAP_PHASE:
            return SWAP_CHOICES[self.num_players][seat]
        if phase == HEARTS:
            if self.game.options.heart_gift == "split_per_card":
                others = [t for t in range(self.num_players) if t != seat]
                return [
                    GIVE_ACTIONS[(c, t)]
                    for c in cards_of(self.to_give[seat])
                    if c not in self.card_target
                    for t in others
                ]
            return GIFT_CHOICES[self.num_players][seat]
        if phase == JOKERS:
            return (JOKER_KEEP, JOKER_FIELD)
        if phase == KING_OF_HEARTS_PHASE:
            return [RETURN_ACTIONS[c] for c in sorted(self.fields[seat])]
        if phase == KING_OF_SPADES_PHASE:
            return [TAKE_ACTIONS[c] for c in sorted(self.discard)]
        return ()

    def _apply(self, seat: int, action: Action) -> None:  # type: ignore[override]
        verb = action.verb
        if verb == PLAY:
            self._apply_play(seat, action.card)
        elif verb == PASS:
            self.passed |= 1 << seat
            if self.record_events:
                self._log = (_PASS_EVENTS[seat][0], self._log)
            self._next_turn()
        elif verb in (MULLIGAN, KEEP):
            self._apply_mulligan(seat, action)
        elif verb == SWAP:
            self.phase = PLAY_PHASE
            self._swap_fields(seat, action.target)
            self._next_turn()
        elif verb in (GIFT, GIVE):
            self._apply_gift(seat, action)
        elif action is JOKER_KEEP or action is JOKER_FIELD:
            self._apply_joker(seat, action)
        elif verb == RETURN:
            self.active = -1
            self._return_card(seat, action.card)
            self._continue_after(KING_OF_HEARTS_PHASE)
        elif verb == TAKE:
            self.active = -1
            self._take_card(seat, action.card)
            self._continue_after(KING_OF_SPADES_PHASE)

    # ------------------------------------------------------------------ the fast checked path
    # Simulation and search call these public methods millions of times. The overrides below make the same
    # checks as the generic ``State`` methods with far fewer calls for a turn (play, sequential mulligan),
    # and hand everything else — commits, every refusal — to the generic methods, so errors stay identical.
    # ``seat is self.active``: ``is``, not ``==``, because 1.0 and True equal seat 1 but are not seats (small
    # ints are unique objects, so for a real seat identity is equality); ``active`` is -1 when nobody has
    # the turn, hence the ``>= 0``.
    def legal_actions(self, seat: object) -> tuple[Action, ...]:
        """The legal actions of ``seat`` now, in codec order; empty if the seat is not to act."""
        if seat is self.active and seat >= 0:
            phase = self.phase
            if phase == PLAY_PHASE:
                return play_actions(self.hands[seat])
            if phase == MULLIGAN_PHASE:  # sequential (a simultaneous mulligan has nobody ``active``)
                held = self.hands[seat]
                aside = self.aside[seat]
                count = aside.bit_count()
                if count >= MULLIGAN_LIMIT or count >= (held | aside).bit_count():
                    return (KEEP_ACTION,)
                return mulligan_actions(held)
            legal = self._legal_actions(seat)
            return legal if type(legal) is tuple else tuple(legal)
        return State.legal_actions(self, seat)  # type: ignore[return-value]  # Barrell's actions are Actions

    def apply(self, seat: object, action: Any) -> None:
        """Validate and perform ``seat``'s ``action`` (the same checks and errors as ``State.apply``)."""
        if seat is self.active and seat >= 0:
            phase = self.phase
            if phase == PLAY_PHASE:
                if action is PASS_ACTION:
                    self.passed |= 1 << seat
                    if self.record_events:
                        self._log = (_PASS_EVENTS[seat][0], self._log)
                    self._next_turn()
                    self._history = ((seat, action), self._history)
                    return
                card = _PLAY_CARD_BY_ID.get(id(action), -1)
                if card >= 0 and self.hands[seat] >> card & 1:
                    if IS_JACK[card] or not self.private_hands >> seat & 1:
                        self._apply_play(seat, card)
                    else:
                        # The most frequent step: ``_apply_play`` for a face-down card from a hand already hidden
                        # from the others (nothing to walk), and ``_next_turn``, inlined.
                        self.fields[seat].append(card)
                        self.hands[seat] ^= BIT[card]
                        if self.record_events:
                            self._log = (_PLAY_DOWN_EVENTS[seat][card], self._log)
                        following = seat + 1
                        if following == self.num_players:
                            following = 0
                        self.active = following
                        if self.passed >> following & 1 or not self.hands[following]:
                            self._settle_turn()
                    self._history = ((seat, action), self._history)
                    return
            elif phase == MULLIGAN_PHASE:  # sequential (a simultaneous mulligan has nobody ``active``)
                if action is KEEP_ACTION:
                    self._keep(seat)
                    self._history = ((seat, action), self._history)
                    return
                card = _MULLIGAN_CARD_BY_ID.get(id(action), -1)
                if card >= 0:
                    held = self.hands[seat]
                    count = self.aside[seat].bit_count()
                    if held >> card & 1 and count < MULLIGAN_LIMIT and count < (held | self.aside[seat]).bit_count():
                        self._set_aside(seat, card)
                        self._history = ((seat, action), self._history)
                        return
        State.apply(self, seat, action)

    def _why_illegal(self, seat: int, action: Any) -> str:
        from .explain import why_illegal

        return why_illegal(self, seat, action)

    def is_terminal(self) -> bool:
        """Whether the match is over (no check needed: the hook itself is the fast path)."""
        return self.phase == OVER

    # The hooks call the public fast paths above. They were class attribute aliases (``to_act = _to_act``), which
    # mypyc cannot compile (a method alias in a class body is not a method to it): the hot path is still one call.
    def _to_act(self) -> tuple[int, ...]:
        return self.to_act()

    def _is_terminal(self) -> bool:
        return self.is_terminal()

    def _scores(self) -> list[float]:
        return [float(w) for w in self.wins]

    def _winners(self) -> list[int]:
        """The most battle wins; equal wins share the result (BR-15)."""
        top = max(self.wins)
        return [s for s in range(self.num_players) if self.wins[s] == top]

    def _observe(self, seat: int | None) -> dict[str, Any]:
        return observe(self, seat)

    def _determinize(self, seat: int, rng: Rng) -> Self:
        from .hidden import determinize

        return determinize(self, seat, rng)  # type: ignore[return-value]

    def to_notation(self) -> str:
        """The position in Barrell notation (see ``notation.py``)."""
        from .notation import write

        return write(self)
