"""Barrell rules, top to bottom like RULINGS §2.2: setup, battle start (dice, mulligan), play, end of battle.

Zones: ``hands`` and ``aside`` (mulligan cards set aside) are bit masks per seat; ``fields`` are lists in play
order; ``queen_zone``, ``deck`` (bottom → top) and ``discard`` are lists. ``known[card]`` is the bit mask of
seats that know where that card is (per-card ``known_to``, RULINGS §5); face-up and public cards are known to
every seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Self

from oakwood.engine import Decision, Event, InvariantError, Rng, State

from . import scoring
from .actions import (
    GIFT,
    GIFT_ACTIONS,
    GIVE,
    GIVE_ACTIONS,
    JOKER_FIELD,
    JOKER_KEEP,
    KEEP,
    KEEP_ACTION,
    MULLIGAN,
    PASS,
    PLAY,
    RETURN,
    RETURN_ACTIONS,
    SWAP,
    SWAP_ACTIONS,
    TAKE,
    TAKE_ACTIONS,
    Action,
)
from .cards import (
    BIT,
    DECK_SIZE,
    HAND_SIZE,
    IS_FACE,
    IS_JACK,
    IS_JOKER,
    IS_NUMBERED_HEART,
    IS_QUEEN,
    JACK_OF_CLUBS,
    JACK_OF_DIAMONDS,
    JACK_OF_HEARTS,
    JACK_OF_SPADES,
    KING_OF_DIAMONDS,
    KING_OF_HEARTS,
    KING_OF_SPADES,
    NAMES,
    cards_of,
)

if TYPE_CHECKING:
    from .game import Barrell

QUEENS_AND_KINGS: Final = sum(BIT[c] for c in range(DECK_SIZE) if IS_FACE[c] and not IS_JACK[c])
MULLIGAN_LIMIT: Final = 3  # BR-4

# Phases. The end-of-battle phases are named after their stage (RULINGS §2.2 E2, E3, E7, E9).
MULLIGAN_PHASE: Final = "mulligan"
PLAY_PHASE: Final = "play"
SWAP_PHASE: Final = "swap"
JOKERS: Final = "jokers"
HEARTS: Final = "hearts"
KING_OF_HEARTS_PHASE: Final = "kh"
KING_OF_SPADES_PHASE: Final = "ks"
OVER: Final = "over"
TURN_PHASES: Final = frozenset({PLAY_PHASE, SWAP_PHASE, JOKERS, KING_OF_HEARTS_PHASE, KING_OF_SPADES_PHASE})


def names(cards: Sequence[int]) -> list[str]:
    """Card names, for events."""
    return [NAMES[c] for c in cards]


class BarrellState(State):
    """One Barrell match."""

    game: Barrell
    hands: list[int]
    aside: list[int]
    fields: list[list[int]]
    face_up: int
    known: list[int]
    queen_zone: list[int]
    deck: list[int]
    discard: list[int]
    wins: list[int]
    drawn_streak: int
    battle: int
    first: int
    phase: str
    active: int
    passed: int
    need: int  # seats taking part in the current commit decision
    committed: int  # seats done with the current mulligan / commit
    jd_active: bool
    jd_cover: int  # cards on the table when the Jack of Diamonds was played (variant cards_on_table_only)
    jacks_void: int  # Jacks played while the Jack of Diamonds was in force (they did nothing)
    to_give: list[int]  # hearts each seat gives at E3 (fixed when E3 starts: no re-gifting, BR-5)
    gift_target: list[int]
    card_target: dict[int, int]
    jokers_done: int
    battle_scores: list[int] | None
    provisional_scores: list[int] | None
    battle_winners: list[int]
    _ks_seat: int

    # ------------------------------------------------------------------ construction
    @classmethod
    def empty(cls, game: Barrell, num_players: int, seed: int, start: str | None = None) -> Self:
        """A state with empty zones (the notation parser and the deal fill it)."""
        state = cls.__new__(cls)
        state._init_base(game, num_players, seed, start)
        n = num_players
        state.all_seats = (1 << n) - 1
        state.hands = [0] * n
        state.aside = [0] * n
        state.fields = [[] for _ in range(n)]
        state.face_up = 0
        state.known = [0] * DECK_SIZE
        state.queen_zone = []
        state.deck = []
        state.discard = []
        state.wins = [0] * n
        state.drawn_streak = 0
        state.battle = 0
        state.first = 0
        state.phase = MULLIGAN_PHASE
        state.active = -1
        state.passed = 0
        state.need = 0
        state.committed = 0
        state.jd_active = False
        state.jd_cover = 0
        state.jacks_void = 0
        state.to_give = [0] * n
        state.gift_target = [-1] * n
        state.card_target = {}
        state.jokers_done = 0
        state.battle_scores = None
        state.provisional_scores = None
        state.battle_winners = []
        state._ks_seat = -1
        return state

    all_seats: int

    def deal(self) -> None:
        """GAME_SETUP: shuffle the 54 cards and deal 10 to each player, once per game (BR-2)."""
        self.deck = list(range(DECK_SIZE))
        self.rng.shuffle(self.deck)
        for seat in range(self.num_players):
            drawn = self.deck[-HAND_SIZE:]
            del self.deck[-HAND_SIZE:]
            for card in drawn:
                self.hands[seat] |= BIT[card]
                self.known[card] = 1 << seat
            self.log(
                Event("deal", {"seat": seat, "count": HAND_SIZE}, {"cards": names(sorted(drawn))}, frozenset({seat}))
            )
        self._start_battle()

    def _clone(self) -> Self:
        twin = type(self).__new__(type(self))
        self._copy_base_into(twin)
        twin.all_seats = self.all_seats
        twin.hands = self.hands[:]
        twin.aside = self.aside[:]
        twin.fields = [f[:] for f in self.fields]
        twin.face_up = self.face_up
        twin.known = self.known[:]
        twin.queen_zone = self.queen_zone[:]
        twin.deck = self.deck[:]
        twin.discard = self.discard[:]
        twin.wins = self.wins[:]
        twin.drawn_streak = self.drawn_streak
        twin.battle = self.battle
        twin.first = self.first
        twin.phase = self.phase
        twin.active = self.active
        twin.passed = self.passed
        twin.need = self.need
        twin.committed = self.committed
        twin.jd_active = self.jd_active
        twin.jd_cover = self.jd_cover
        twin.jacks_void = self.jacks_void
        twin.to_give = self.to_give[:]
        twin.gift_target = self.gift_target[:]
        twin.card_target = dict(self.card_target)
        twin.jokers_done = self.jokers_done
        twin.battle_scores = None if self.battle_scores is None else self.battle_scores[:]
        twin.provisional_scores = None if self.provisional_scores is None else self.provisional_scores[:]
        twin.battle_winners = self.battle_winners[:]
        twin._ks_seat = self._ks_seat
        return twin

    # ------------------------------------------------------------------ small helpers
    def seat_order(self) -> list[int]:
        """Seats clockwise from the battle's first player."""
        n = self.num_players
        return [(self.first + i) % n for i in range(n)]

    def void_mask(self) -> int:
        """Face cards cancelled by the Jack of Diamonds (BR-11): every other Q/K for the rest of the battle,
        or (``cards_on_table_only``) the Q/K already on the table, plus Jacks played while it was in force."""
        if not self.jd_active:
            return self.jacks_void
        if self.game.options.jod_scope == "rest_of_battle":
            return QUEENS_AND_KINGS | self.jacks_void
        return (self.jd_cover & QUEENS_AND_KINGS) | self.jacks_void

    def _field_owner(self, card: int) -> int:
        for seat, field in enumerate(self.fields):
            if card in field:
                return seat
        return -1

    def _recycle_discard(self) -> None:
        """Shuffle the battle Discard pile into the Deck (BR-4; BR-11: an empty Deck reshuffles Discard)."""
        if not self.discard:
            return
        for card in self.discard:
            self.known[card] = 0
        self.deck = self.discard + self.deck
        self.discard = []
        self.rng.shuffle(self.deck)
        self.log(Event("recycle", {"deck": len(self.deck)}))

    def _draw(self, seat: int, count: int, fallback: list[int] | None = None) -> list[int]:
        """Draw up to ``count`` cards; an empty Deck first takes the Discard, then the ``fallback`` cards
        (mulligan cards set aside, BR-17). Stops early if nothing is left anywhere."""
        drawn = []
        for _ in range(count):
            if not self.deck:
                self._recycle_discard()
            if not self.deck and fallback:
                for card in fallback:
                    self.known[card] = 0
                self.deck = fallback[:]
                fallback.clear()
                self.rng.shuffle(self.deck)
            if not self.deck:
                break
            card = self.deck.pop()
            self.hands[seat] |= BIT[card]
            self.known[card] = 1 << seat
            drawn.append(card)
        return drawn

    def _forget_hand(self, seat: int) -> None:
        """Only ``seat`` still knows which cards are in its hand (after it hid or exchanged some of them)."""
        bit = 1 << seat
        for card in cards_of(self.hands[seat] | self.aside[seat]):
            self.known[card] = bit

    # ------------------------------------------------------------------ BATTLE_START
    def _start_battle(self) -> None:
        """A new battle: reset the battle state, roll for the first player, then the mulligan (BR-2, BR-4)."""
        self.battle += 1
        self.passed = 0
        self.jd_active = False
        self.jd_cover = 0
        self.jacks_void = 0
        self.jokers_done = 0
        self.to_give = [0] * self.num_players
        self.gift_target = [-1] * self.num_players
        self.card_target = {}
        self.provisional_scores = None
        self.log(Event("battle", {"battle": self.battle}))
        if self.game.options.discard_recycle == "every_battle":
            self._recycle_discard()  # BR-4 variant
        self.first = self._roll_for_first()
        self._begin_mulligan()

    def _roll_for_first(self) -> int:
        """ROLL: one d6 per player; the players tied for highest re-roll (BR-2). Every roll is logged."""
        rolling = list(range(self.num_players))
        while True:
            rolls = {seat: 1 + self.rng.randbelow(6) for seat in rolling}
            self.log(Event("dice", {"rolls": {f"P{s + 1}": r for s, r in rolls.items()}}))
            top = max(rolls.values())
            rolling = [s for s, r in rolls.items() if r == top]
            if len(rolling) == 1:
                self.log(Event("first_player", {"seat": rolling[0]}))
                return rolling[0]

    # ------------------------------------------------------------------ MULLIGAN (BR-4)
    def _mulligan_cap(self, seat: int) -> int:
        """How many cards ``seat`` may set aside in all: up to 3, and no more than it holds (BR-4)."""
        return min(MULLIGAN_LIMIT, (self.hands[seat] | self.aside[seat]).bit_count())

    def _begin_mulligan(self) -> None:
        self.phase = MULLIGAN_PHASE
        self.committed = 0
        self.aside = [0] * self.num_players
        if self.game.options.mulligan_mode == "simultaneous":
            self.need = sum(1 << s for s in range(self.num_players) if self.hands[s])
            self.active = -1
            if not self.need:
                self._begin_play()
            return
        self.need = 0
        self._next_mulligan_seat()

    def _next_mulligan_seat(self) -> None:
        """Sequential mulligan: the next seat from the first player that holds cards and has not decided."""
        for seat in self.seat_order():
            if not self.committed >> seat & 1 and self.hands[seat]:
                self.active = seat
                return
        self._begin_play()

    def _apply_mulligan(self, seat: int, action: Action) -> None:
        simultaneous = self.game.options.mulligan_mode == "simultaneous"
        if action.verb == MULLIGAN:
            self.hands[seat] &= ~BIT[action.card]
            self.aside[seat] |= BIT[action.card]
            if not simultaneous:
                self._forget_hand(seat)  # the others see a card set aside, not which one
                self.log(Event("mulligan_aside", {"seat": seat}, {"card": NAMES[action.card]}, frozenset({seat})))
            done = self.aside[seat].bit_count() >= self._mulligan_cap(seat) or not self.hands[seat]
        else:
            done = True
        if not done:
            return
        self.committed |= 1 << seat
        if simultaneous:
            if self.committed & self.need == self.need:
                self._resolve_simultaneous_mulligan()
            return
        self._finish_mulligan([seat])
        self._next_mulligan_seat()

    def _finish_mulligan(self, seats: list[int]) -> None:
        """Draw replacements for the cards set aside, then shuffle those cards into the Deck (BR-4)."""
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
                self.log(
                    Event(
                        "mulligan",
                        {"seat": seat, "count": count},
                        {"discarded": names(discarded), "drawn": names(sorted(drawn))},
                        frozenset({seat}),
                    )
                )
            else:
                self.log(Event("mulligan", {"seat": seat, "count": 0}))
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
                self.log(Event("pass", {"seat": seat, "automatic": True}))
                self.active = (seat + 1) % self.num_players
                continue
            return

    def _next_turn(self) -> None:
        self.active = (self.active + 1) % self.num_players
        self._settle_turn()

    def _apply_play(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~BIT[card]
        self.fields[seat].append(card)
        if not IS_JACK[card]:
            # Face down: nobody else knows it, nor which of the seat's hand cards it was.
            self._forget_hand(seat)
            self.known[card] = 1 << seat
            self.log(Event("play", {"seat": seat, "face_up": False}, {"card": NAMES[card]}, frozenset({seat})))
            self._next_turn()
            return
        # BR-3: Jacks are played face up and take effect at once.
        self.face_up |= BIT[card]
        self.known[card] = self.all_seats
        self.log(Event("play", {"seat": seat, "face_up": True, "card": NAMES[card]}))
        if self.jd_active and self.game.options.jod_scope == "rest_of_battle":
            self.jacks_void |= BIT[card]  # BR-11: the Jack of Diamonds cancels later Jacks
            self.log(Event("cancelled", {"card": NAMES[card]}))
            self._next_turn()
            return
        if card == JACK_OF_CLUBS:
            self.log(Event("battle_ends", {"by": NAMES[card]}))  # BR-11: the battle ends at once
            self._end_battle()
            return
        if card == JACK_OF_HEARTS:
            drawn = self._draw(seat, 2)  # BR-11: draw 2
            self.log(Event("draw", {"seat": seat, "count": len(drawn)}, {"cards": names(drawn)}, frozenset({seat})))
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
        self.log(Event("swap", {"seat": seat, "target": target}))

    def _rotate_fields(self, seat: int) -> None:
        """BR-11 variant ``rotate_all``: every field moves one seat to the left (clockwise)."""
        self.fields = [self.fields[-1], *self.fields[:-1]]
        if self.game.options.jos_initiator_may_look:
            self._look_at_field(seat)
        self.log(Event("rotate", {"seat": seat}))

    def _look_at_field(self, seat: int) -> None:
        bit = 1 << seat
        for card in self.fields[seat]:
            self.known[card] |= bit

    # ------------------------------------------------------------------ END_OF_BATTLE (RULINGS §2.2)
    def _end_battle(self) -> None:
        self.active = -1
        self._run_stages(0)

    def _run_stages(self, index: int) -> None:
        """Run the end-of-battle stages from ``index`` until one needs a decision or the battle is over."""
        stages = self.game.stages
        while index < len(stages):
            if getattr(self, "_stage_" + stages[index])():
                return
            index += 1

    def _continue_after(self, stage: str) -> None:
        self._run_stages(self.game.stages.index(stage) + 1)

    def _stage_reveal(self) -> bool:
        """E1: reveal every card."""
        for field in self.fields:
            for card in field:
                self.face_up |= BIT[card]
                self.known[card] = self.all_seats
        self.log(Event("reveal", {"fields": [names(f) for f in self.fields]}))
        return False

    def _stage_jokers(self) -> bool:
        """E2 (BR-12): each Joker's controller, in seat order from the first player, decides it."""
        if self.game.options.joker_timing == "after_provisional_score" and self.provisional_scores is None:
            self.provisional_scores = self._compute_scores()
            self.log(Event("provisional_scores", {"scores": self.provisional_scores}))
        for seat in self.seat_order():
            if any(IS_JOKER[c] and not self.jokers_done >> c & 1 for c in self.fields[seat]):
                self.phase = JOKERS
                self.active = seat
                return True
        return False

    def _apply_joker(self, seat: int, action: Action) -> None:
        field = self.fields[seat]
        joker = next(c for c in field if IS_JOKER[c] and not self.jokers_done >> c & 1)
        if action is JOKER_KEEP:
            field.remove(joker)
            self._to_hand(seat, [joker])
            self.log(Event("joker", {"seat": seat, "joker": NAMES[joker], "choice": "keep"}))
        else:
            self.jokers_done |= BIT[joker]
            others = [c for c in field if c != joker]
            self.fields[seat] = [joker]
            self._to_hand(seat, others)  # a second Joker goes back too (BR-12)
            self.log(Event("joker", {"seat": seat, "joker": NAMES[joker], "choice": "field", "cards": names(others)}))
        self.active = -1
        self._run_stages(self.game.stages.index(JOKERS))  # the next Joker, or the next stage

    def _to_hand(self, seat: int, cards: list[int]) -> None:
        """Revealed cards return to a hand: everyone saw them go."""
        for card in cards:
            self.hands[seat] |= BIT[card]
            self.known[card] = self.all_seats
            self.face_up &= ~BIT[card]

    def _giftable(self, seat: int) -> int:
        mask = 0
        for card in self.fields[seat]:
            if IS_NUMBERED_HEART[card] or (card == KING_OF_HEARTS and self.game.options.kh_given_with_hearts):
                mask |= BIT[card]
        return mask

    def _stage_hearts(self) -> bool:
        """E3 (BR-5): every player with numbered hearts names the opponent(s) who receive them."""
        n = self.num_players
        self.to_give = [self._giftable(s) for s in range(n)]
        self.need = sum(1 << s for s in range(n) if self.to_give[s])
        self.committed = 0
        if not self.need:
            return False
        if n == 2:  # a single opponent: nothing to decide
            for seat in range(n):
                if self.to_give[seat]:
                    self._transfer(seat, cards_of(self.to_give[seat]), 1 - seat)
            self.need = 0
            return False
        self.phase = HEARTS
        if self.game.options.heart_gift_timing == "seat_order":
            return self._next_gifting_seat()
        self.active = -1
        return True

    def _next_gifting_seat(self) -> bool:
        for seat in self.seat_order():
            if self.need >> seat & 1 and not self.committed >> seat & 1:
                self.active = seat
                return True
        self.need = 0
        self.active = -1
        return False

    def _transfer(self, seat: int, cards: list[int], target: int) -> None:
        for card in cards:
            self.fields[seat].remove(card)
            self.fields[target].append(card)
        self.log(Event("gift", {"seat": seat, "target": target, "cards": names(cards)}))

    def _apply_gift(self, seat: int, action: Action) -> None:
        seat_order = self.game.options.heart_gift_timing == "seat_order"
        if action.verb == GIFT:
            self.gift_target[seat] = action.target
            done = True
        else:
            self.card_target[action.card] = action.target
            done = all(c in self.card_target for c in cards_of(self.to_give[seat]))
        if seat_order:
            if action.verb == GIFT:
                self._transfer(seat, cards_of(self.to_give[seat]), action.target)
            else:
                self._transfer(seat, [action.card], action.target)
        if not done:
            return
        self.committed |= 1 << seat
        if seat_order:
            if not self._next_gifting_seat():
                self._continue_after(HEARTS)
            return
        if self.committed & self.need != self.need:
            return
        # The last commit is in: every gift is revealed and made at once (exactly one transfer, BR-5).
        for giver in self.seat_order():
            if not self.need >> giver & 1:
                continue
            cards = cards_of(self.to_give[giver])
            if self.gift_target[giver] >= 0:
                self._transfer(giver, cards, self.gift_target[giver])
            else:
                for target in range(self.num_players):
                    chosen = [c for c in cards if self.card_target[c] == target]
                    if chosen:
                        self._transfer(giver, chosen, target)
        self.need = 0
        self._continue_after(HEARTS)

    def _stage_queens(self) -> bool:
        """E4 (BR-7, BR-9): Queens and the King of Diamonds move to the Queen Zone and take effect."""
        options = self.game.options
        void = self.void_mask()
        order = self.seat_order()
        placements: list[tuple[int, int]] = []
        if options.queen_zone_order == "queens_then_kod":
            placements = [(s, c) for s in order for c in self.fields[s] if IS_QUEEN[c]]
            placements += [(s, c) for s in order for c in self.fields[s] if c == KING_OF_DIAMONDS]
        else:
            placements = [(s, c) for s in order for c in self.fields[s] if IS_QUEEN[c] or c == KING_OF_DIAMONDS]
        if not placements:
            return False
        bonus = scoring.ace_bonus_suits(self.fields, self.queen_zone, void, options.jod_suppresses_ace_bonus)
        reduced = 0
        for seat, card in placements:
            self.fields[seat].remove(card)
            self.queen_zone.append(card)
            self.face_up &= ~BIT[card]
            if void >> card & 1:
                self.log(Event("queen_zone", {"card": NAMES[card], "cancelled": True}))
                continue
            self.log(Event("queen_zone", {"card": NAMES[card], "cancelled": False}))
            if IS_QUEEN[card]:
                reduced |= BIT[0] << (card // 13)
                continue
            victims = scoring.kod_victims(
                self.fields, reduced, bonus, scope=options.kod_scope, ignore_hearts=options.kod_ignores_hearts
            )
            for target, cards in enumerate(victims):
                for victim in cards:
                    self.fields[target].remove(victim)
                    self.discard.append(victim)
                    self.face_up &= ~BIT[victim]
                if cards:
                    self.log(Event("destroy", {"seat": target, "cards": names(cards)}))
        return False

    def _compute_scores(self) -> list[int]:
        """E5: every player's score for this battle."""
        options = self.game.options
        void = self.void_mask()
        bonus = scoring.ace_bonus_suits(self.fields, self.queen_zone, void, options.jod_suppresses_ace_bonus)
        reduced = scoring.reduced_suits_of(self.queen_zone, void)
        return [
            scoring.field_score(
                field, reduced, bonus, scoring.has_active_king_of_clubs(field, void), options.kc_after_queen
            )
            for field in self.fields
        ]

    def _stage_score(self) -> bool:
        """E5–E6: score; the unique highest score wins (BR-14 on a tie); E11 when the game is decided."""
        scores = self._compute_scores()
        self.battle_scores = scores
        top = max(scores)
        tied = [s for s in range(self.num_players) if scores[s] == top]
        if len(tied) == 1:
            self.battle_winners = tied
            self.drawn_streak = 0
        else:
            self.battle_winners = tied if self.game.options.battle_tie == "all_tied_win" else []
            self.drawn_streak += 1  # BR-15 counts every battle without a sole winner
        for seat in self.battle_winners:
            self.wins[seat] += 1
        self.log(Event("battle_result", {"scores": scores, "winners": self.battle_winners, "wins": self.wins[:]}))
        if self._game_decided():
            self._discard_table()
            self._finish_game()
            return True
        return False

    def _game_decided(self) -> bool:
        """E11: a sole leader with 2 wins, or BR-15's drawn-battle guard."""
        top = max(self.wins)
        if top >= 2 and self.wins.count(top) == 1:
            return True
        return self.drawn_streak >= self.game.options.max_consecutive_drawn_battles

    def _finish_game(self) -> None:
        self.phase = OVER
        self.active = -1
        self.need = 0
        self.log(Event("game_over", {"wins": self.wins[:], "winners": self._winners()}))

    def _stage_kh(self) -> bool:
        """E7 (BR-10): an active King of Hearts returns one card of its controller's field to hand."""
        owner = self._field_owner(KING_OF_HEARTS)
        if owner < 0 or self.void_mask() >> KING_OF_HEARTS & 1:
            return False
        if len(self.fields[owner]) == 1:
            self._return_card(owner, KING_OF_HEARTS)
            return False
        self.phase = KING_OF_HEARTS_PHASE
        self.active = owner
        return True

    def _return_card(self, seat: int, card: int) -> None:
        self.fields[seat].remove(card)
        self._to_hand(seat, [card])
        self.log(Event("return", {"seat": seat, "card": NAMES[card]}))

    def _discard_table(self) -> None:
        for field in self.fields:
            self.discard.extend(field)
            field.clear()
        self.discard.extend(self.queen_zone)
        self.queen_zone.clear()
        self.face_up = 0
        for card in self.discard:
            self.known[card] = self.all_seats

    def _stage_discard(self) -> bool:
        """E8: every field and Queen Zone card goes to Discard (noting who controls an active K♠)."""
        owner = self._field_owner(KING_OF_SPADES)
        self._ks_seat = owner if owner >= 0 and not self.void_mask() >> KING_OF_SPADES & 1 else -1
        self._discard_table()
        self.log(Event("discard", {"discard": len(self.discard)}))
        return False

    def _stage_ks(self) -> bool:
        """E9 (BR-10): the King of Spades' controller takes any card from Discard (the K♠ itself included)."""
        seat, self._ks_seat = self._ks_seat, -1
        if seat < 0 or not self.discard:
            return False
        if len(self.discard) == 1:
            self._take_card(seat, self.discard[0])
            return False
        self.phase = KING_OF_SPADES_PHASE
        self.active = seat
        return True

    def _take_card(self, seat: int, card: int) -> None:
        self.discard.remove(card)
        self._to_hand(seat, [card])
        self.log(Event("take", {"seat": seat, "card": NAMES[card]}))

    def _stage_draw(self) -> bool:
        """E10–E11: the winner draws 1; the game ends if nobody holds a card (BR-15), else a new battle."""
        for seat in self.battle_winners:
            drawn = self._draw(seat, 1)
            self.log(Event("draw", {"seat": seat, "count": len(drawn)}, {"cards": names(drawn)}, frozenset({seat})))
        if not any(self.hands):
            self._finish_game()
            return True
        self._start_battle()
        return True

    # ------------------------------------------------------------------ engine hooks
    def _to_act(self) -> tuple[int, ...]:
        if self.active >= 0:
            return (self.active,)
        if self.need:
            pending = self.need & ~self.committed
            return tuple(s for s in range(self.num_players) if pending >> s & 1)
        return ()

    def _decision(self) -> Decision:
        if self.phase == OVER:
            return Decision.NONE
        return Decision.TURN if self.active >= 0 else Decision.COMMIT

    def _legal_actions(self, seat: int) -> Sequence[Action]:
        phase = self.phase
        if phase == PLAY_PHASE:
            return self.game.play_actions(self.hands[seat])
        if phase == MULLIGAN_PHASE:
            if self.aside[seat].bit_count() >= self._mulligan_cap(seat):
                return (KEEP_ACTION,)
            return self.game.mulligan_actions(self.hands[seat])
        if phase == SWAP_PHASE:
            return [SWAP_ACTIONS[t] for t in range(self.num_players) if t != seat]
        if phase == HEARTS:
            if self.game.options.heart_gift == "split_per_card":
                others = [t for t in range(self.num_players) if t != seat]
                return [
                    GIVE_ACTIONS[(c, t)]
                    for c in cards_of(self.to_give[seat])
                    if c not in self.card_target
                    for t in others
                ]
            return [GIFT_ACTIONS[t] for t in range(self.num_players) if t != seat]
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
            self.log(Event("pass", {"seat": seat, "automatic": False}))
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

    def _why_illegal(self, seat: int, action: Any) -> str:
        from .explain import why_illegal

        return why_illegal(self, seat, action)

    def _is_terminal(self) -> bool:
        return self.phase == OVER

    def _scores(self) -> list[float]:
        return [float(w) for w in self.wins]

    def _winners(self) -> list[int]:
        """The most battle wins; equal wins share the result (BR-15)."""
        top = max(self.wins)
        return [s for s in range(self.num_players) if self.wins[s] == top]

    def _observe(self, seat: int | None) -> dict[str, Any]:
        from .view import observe

        return observe(self, seat)

    def _determinize(self, seat: int, rng: Rng) -> Self:
        from .hidden import determinize

        return determinize(self, seat, rng)  # type: ignore[return-value]

    def to_notation(self) -> str:
        """The position in Barrell notation (see ``notation.py``)."""
        from .notation import write

        return write(self)

    def _check_invariants(self) -> None:
        """Every one of the 54 cards is in exactly one zone; knowledge and phase bookkeeping agree."""
        seen = 0
        count = 0

        def add(card: int, zone: str) -> None:
            nonlocal seen, count
            if not 0 <= card < DECK_SIZE:
                raise InvariantError(f"no card {card} ({zone})")
            if seen >> card & 1:
                raise InvariantError(f"{NAMES[card]} is in two zones (again in {zone})")
            seen |= BIT[card]
            count += 1

        for seat in range(self.num_players):
            if self.hands[seat] & self.aside[seat]:
                raise InvariantError(f"P{seat + 1} has a card both in hand and set aside")
            for card in cards_of(self.hands[seat]):
                add(card, f"hand {seat}")
                if not self.known[card] >> seat & 1:
                    raise InvariantError(f"P{seat + 1} does not know its own {NAMES[card]}")
            for card in cards_of(self.aside[seat]):
                add(card, f"aside {seat}")
            for card in self.fields[seat]:
                add(card, f"field {seat}")
                if not self.face_up >> card & 1 and IS_JACK[card]:
                    raise InvariantError(f"{NAMES[card]} lies face down")
        on_fields = sum(BIT[c] for field in self.fields for c in field)
        if self.face_up & ~on_fields:
            raise InvariantError("a card off the fields is marked face up")
        for zone, cards in (("queen zone", self.queen_zone), ("deck", self.deck), ("discard", self.discard)):
            for card in cards:
                add(card, zone)
        if count != DECK_SIZE or seen != (1 << DECK_SIZE) - 1:
            raise InvariantError(f"{count} cards in play instead of {DECK_SIZE}")
        for card in self.deck:
            if self.known[card]:
                raise InvariantError(f"{NAMES[card]} in the Deck is known to someone")
        for card in (*self.discard, *self.queen_zone):
            if self.known[card] != self.all_seats:
                raise InvariantError(f"{NAMES[card]} is public but not known to all")
        if self.phase != OVER and not self._to_act():
            raise InvariantError(f"nobody to act in phase {self.phase}")
