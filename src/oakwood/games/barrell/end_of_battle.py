"""Barrell end of battle, stage by stage (RULINGS §2.2 E1–E11): reveal, Jokers, hearts, Queens, scoring,
the Kings of Hearts and Spades, discard, the winner's draw. ``Barrell.stages`` gives the order the options
choose; a stage returns True when it waits for a decision (or the battle is over), and the decision's action
picks the stages up again after it.

From the reveal (E1) to the discard (E8) every field card lies face up (consistency rule Z2), so ``face_up``
is exactly the set of cards on the fields: the stages read it to skip a walk over the fields when the card
they look for is not on the table.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, cast

from oakwood.engine.native import mypyc_attr

from . import scoring
from .actions import GIFT, JOKER_KEEP, Action
from .cards import (
    BIT,
    BLACK_JOKER,
    IS_JOKER,
    IS_QUEEN,
    IS_QUEEN_OR_KOD,
    JOKERS_MASK,
    KING_OF_CLUBS,
    KING_OF_DIAMONDS,
    KING_OF_HEARTS,
    KING_OF_SPADES,
    NAMES,
    QUEEN_ZONE_CARDS,
    RED_JOKER,
    cards_of,
)
from .phases import HEARTS, JOKERS, KING_OF_HEARTS_PHASE, KING_OF_SPADES_PHASE, OVER
from .table import AUDIENCE, SEAT_ORDERS, BarrellTable, names

if TYPE_CHECKING:
    from .game import Barrell


@mypyc_attr(allow_interpreted_subclasses=True)  # see State: clones and loaded positions skip __init__
class EndOfBattle(BarrellTable):
    """The end-of-battle stages and the decisions they ask for (jokers, hearts, King of Hearts / Spades)."""

    __slots__ = ()

    @abstractmethod
    def _start_battle(self) -> None:
        """BATTLE_START, the next battle after E10 (in ``state.py``)."""

    def _end_battle(self) -> None:
        self.active = -1
        self._run_stages(0)

    def _run_stages(self, index: int) -> None:
        """Run the end-of-battle stages from ``index`` until one needs a decision or the battle is over."""
        stages = cast("Barrell", self.game).stage_steps
        while index < len(stages):
            if stages[index](self):
                return
            index += 1

    def _continue_after(self, stage: str) -> None:
        self._run_stages(cast("Barrell", self.game).stages.index(stage) + 1)

    def _stage_reveal(self) -> bool:
        """E1: reveal every card (and with them where the recalled cards are, BR-23)."""
        everyone = self.all_seats
        known = self.known
        face_up = self.face_up
        for field in self.fields:
            for card in field:
                face_up |= BIT[card]
                known[card] = everyone
        self.face_up = face_up
        self._settle_recall()
        if self.record_events:
            self._log = (("reveal", {"fields": [[NAMES[c] for c in f] for f in self.fields]}, None, None), self._log)
        return False

    def _stage_jokers(self) -> bool:
        """E2 (BR-12): each Joker's controller, in seat order from the first player, decides it."""
        if self.game.options.joker_timing == "after_provisional_score" and self.provisional_scores is None:
            self.provisional_scores = self._compute_scores()
            self.emit("provisional_scores", {"scores": self.provisional_scores})
        if not self.face_up & JOKERS_MASK & ~self.jokers_done:
            return False  # no undecided Joker on the table
        undecided_red = not self.jokers_done >> RED_JOKER & 1
        undecided_black = not self.jokers_done >> BLACK_JOKER & 1
        fields = self.fields
        for seat in SEAT_ORDERS[self.num_players][self.first]:
            field = fields[seat]
            if (undecided_red and RED_JOKER in field) or (undecided_black and BLACK_JOKER in field):
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
            self.emit("joker", {"seat": seat, "joker": NAMES[joker], "choice": "keep"})
        else:
            self.jokers_done |= BIT[joker]
            others = [c for c in field if c != joker]
            self.fields[seat] = [joker]
            self._to_hand(seat, others)  # a second Joker goes back too (BR-12)
            self.emit("joker", {"seat": seat, "joker": NAMES[joker], "choice": "field", "cards": names(others)})
        self.active = -1
        self._run_stages(cast("Barrell", self.game).stages.index(JOKERS))  # the next Joker, or the next stage

    def _stage_hearts(self) -> bool:
        """E3 (BR-5): every player with numbered hearts names the opponent(s) who receive them."""
        n = self.num_players
        giftable = cast("Barrell", self.game).giftable
        to_give = []
        need = 0
        for seat, field in enumerate(self.fields):
            mask = 0
            for card in field:
                if giftable >> card & 1:
                    mask |= BIT[card]
            if mask:
                need |= 1 << seat
            to_give.append(mask)
        self.to_give = to_give
        self.need = need
        self.committed = 0
        if not need:
            return False
        if n == 2:  # a single opponent: nothing to decide
            for seat in range(n):
                if to_give[seat]:
                    self._transfer(seat, cards_of(to_give[seat]), 1 - seat)
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
        giver = self.fields[seat]
        receiver = self.fields[target]
        for card in cards:
            giver.remove(card)
            receiver.append(card)
        if self.record_events:
            self._log = (("gift", {"seat": seat, "target": target, "cards": names(cards)}, None, None), self._log)

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
        if not self.face_up & QUEEN_ZONE_CARDS:
            return False
        options = self.game.options
        fields = self.fields
        # One walk over the fields in seat order.
        placements: list[tuple[int, int]] = []
        kod_placement: list[tuple[int, int]] = []
        queens_first = options.queen_zone_order == "queens_then_kod"
        for seat in SEAT_ORDERS[self.num_players][self.first]:
            for card in fields[seat]:
                if IS_QUEEN_OR_KOD[card]:
                    if queens_first and card == KING_OF_DIAMONDS:
                        kod_placement.append((seat, card))
                    else:
                        placements.append((seat, card))
        if kod_placement:
            placements += kod_placement
        if not placements:
            return False
        void = self.void_mask()
        bonus = scoring.ace_bonus_suits(self.fields, self.queen_zone, void, options.jod_suppresses_ace_bonus)
        reduced = 0
        for seat, card in placements:
            self.fields[seat].remove(card)
            self.queen_zone.append(card)
            self.face_up &= ~BIT[card]
            if void >> card & 1:
                self.emit("queen_zone", {"card": NAMES[card], "cancelled": True})
                continue
            self.emit("queen_zone", {"card": NAMES[card], "cancelled": False})
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
                    self.emit("destroy", {"seat": target, "cards": names(cards)})
        return False

    def _compute_scores(self) -> list[int]:
        """E5: every player's score for this battle."""
        options = self.game.options
        void = self.void_mask()
        bonus = scoring.ace_bonus_suits(self.fields, self.queen_zone, void, options.jod_suppresses_ace_bonus)
        reduced = scoring.reduced_suits_of(self.queen_zone, void)
        # scoring.has_active_king_of_clubs per field, with the cancellation tested once
        kc_live = not void >> KING_OF_CLUBS & 1
        after = options.kc_after_queen
        field_score = scoring.field_score
        return [field_score(field, reduced, bonus, kc_live and KING_OF_CLUBS in field, after) for field in self.fields]

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
        self.emit("battle_result", {"scores": scores, "winners": self.battle_winners, "wins": self.wins[:]})
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
        return self.drawn_streak >= cast("Barrell", self.game).options.max_consecutive_drawn_battles

    def _finish_game(self) -> None:
        self.phase = OVER
        self.active = -1
        self.need = 0
        self.emit("game_over", {"wins": self.wins[:], "winners": self._winners()})

    def _stage_kh(self) -> bool:
        """E7 (BR-10): an active King of Hearts returns one card of its controller's field to hand."""
        if not self.face_up >> KING_OF_HEARTS & 1:
            return False  # not on the table
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
        self.emit("return", {"seat": seat, "card": NAMES[card]})

    def _stage_discard(self) -> bool:
        """E8: every field and Queen Zone card goes to Discard (noting who controls an active K♠)."""
        owner = self._field_owner(KING_OF_SPADES) if self.face_up >> KING_OF_SPADES & 1 else -1
        self._ks_seat = owner if owner >= 0 and not self.void_mask() >> KING_OF_SPADES & 1 else -1
        self._discard_table()
        self.emit("discard", {"discard": len(self.discard)})
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
        self.emit("take", {"seat": seat, "card": NAMES[card]})

    def _stage_draw(self) -> bool:
        """E10–E11: the winner draws 1; the game ends if nobody holds a card (BR-15), else a new battle."""
        for seat in self.battle_winners:
            drawn = self._draw(seat, 1)
            self.emit("draw", {"seat": seat, "count": len(drawn)}, {"cards": names(drawn)}, AUDIENCE[seat])
        if not any(self.hands):
            self._finish_game()
            return True
        self._start_battle()
        return True
