"""The Barrell table: every zone, who knows which card where, and the card movements between zones.

Zones: ``hands`` and ``aside`` (mulligan cards set aside) are bit masks per seat; ``fields`` are lists in play
order; ``queen_zone``, ``deck`` (bottom → top) and ``discard`` are lists. ``known[card]`` is the bit mask of
seats that know where that card is (per-card ``known_to``, RULINGS §5); face-up and public cards are known to
every seat. ``recall[seat]`` holds the cards every seat knows to be in that seat's hand, among the cards it
set aside in the mulligan or among the cards it played face down this battle, without knowing which (BR-23):
they were known in its hand when it set a card aside or played one face down. The Deck takes the cards set
aside (mixed: recall ends), and the reveal (E1) shows which of them stayed in hand. The rules that move
cards live in ``state.py`` and ``end_of_battle.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Self, cast

from oakwood.engine import InvariantError, State
from oakwood.engine.native import mypyc_attr

from .actions import MAX_SEATS
from .cards import BIT, DECK_SIZE, IS_FACE, IS_JACK, NAMES, cards_of
from .phases import MULLIGAN_PHASE, OVER

if TYPE_CHECKING:
    from .game import Barrell

QUEENS_AND_KINGS: Final = sum(BIT[c] for c in range(DECK_SIZE) if IS_FACE[c] and not IS_JACK[c])
#: ``AUDIENCE[seat]``: the audience of an event only ``seat`` sees (shared: logged events are never modified).
AUDIENCE: Final = tuple(frozenset({seat}) for seat in range(MAX_SEATS))
#: ``SEATS_IN[mask]``: the seats of a mask of seats, ascending.
SEATS_IN: Final = tuple(tuple(s for s in range(MAX_SEATS) if mask >> s & 1) for mask in range(1 << MAX_SEATS))
#: ``SEAT_LABELS[seat]``: the seat as events name it (``P1`` for seat 0).
SEAT_LABELS: Final = tuple(f"P{seat + 1}" for seat in range(MAX_SEATS))
#: ``SEAT_ORDERS[n][first]``: the seats of an ``n``-player game clockwise from ``first`` (built once).
SEAT_ORDERS: Final = tuple(
    tuple(tuple((first + i) % n for i in range(n)) for first in range(n)) for n in range(MAX_SEATS + 1)
)


def names(cards: Sequence[int]) -> list[str]:
    """Card names, for events."""
    return [NAMES[c] for c in cards]


@mypyc_attr(allow_interpreted_subclasses=True)  # see State: clones and loaded positions skip __init__
class BarrellTable(State):
    """The zones and bookkeeping of one Barrell match; :class:`~.state.BarrellState` adds the rules."""

    __slots__ = (
        "_ks_seat",
        "active",
        "all_seats",
        "aside",
        "battle",
        "battle_scores",
        "battle_winners",
        "card_target",
        "committed",
        "deck",
        "discard",
        "drawn_streak",
        "face_up",
        "fields",
        "first",
        "gift_target",
        "hands",
        "jacks_void",
        "jd_active",
        "jd_cover",
        "jokers_done",
        "known",
        "need",
        "passed",
        "phase",
        "private_hands",
        "provisional_scores",
        "queen_zone",
        "recall",
        "to_give",
        "wins",
    )

    # ``game`` keeps the base's type ``Game[Any]``: mypyc gives an attribute one type in every class (a subclass
    # may not narrow it), so the few readers of Barrell's own game fields cast.
    hands: list[int]
    aside: list[int]
    fields: list[list[int]]
    face_up: int
    known: list[int]
    recall: list[int]  # per seat: publicly known to be in its hand or among its face-down cards (BR-23)
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
    all_seats: int
    # A cache, not part of the position (notation, loaders and worlds start it empty): the seats whose hand
    # and cards set aside are known to that seat alone, card by card, so hiding them again (a face-down play,
    # a card set aside) changes nothing. Set by the deal and by the walk that hides a hand; cleared for a seat
    # when a card of its hand becomes known to others (returned to hand, or recalled at the reveal) and for
    # everyone when a simultaneous mulligan ends (its replacement cards come from the cards set aside).
    private_hands: int

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
        state.recall = [0] * n
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
        state.private_hands = 0
        return state

    def _clone(self) -> Self:
        twin = type(self).__new__(type(self))
        self._copy_base_into(twin)
        twin.all_seats = self.all_seats
        twin.hands = self.hands[:]
        twin.aside = self.aside[:]
        twin.fields = [f[:] for f in self.fields]
        twin.face_up = self.face_up
        twin.known = self.known[:]
        twin.recall = self.recall[:]
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
        twin.private_hands = self.private_hands
        return twin

    # ------------------------------------------------------------------ seats, the Jack of Diamonds, card movements
    def seat_order(self) -> tuple[int, ...]:
        """Seats clockwise from the battle's first player."""
        return SEAT_ORDERS[self.num_players][self.first]

    def void_mask(self) -> int:
        """Face cards cancelled by the Jack of Diamonds (BR-11): every other Q/K for the rest of the battle,
        or (``cards_on_table_only``) the Q/K already on the table, plus Jacks played while it was in force."""
        if not self.jd_active:
            return self.jacks_void
        if cast("Barrell", self.game).options.jod_scope == "rest_of_battle":
            return QUEENS_AND_KINGS | self.jacks_void
        return (self.jd_cover & QUEENS_AND_KINGS) | self.jacks_void

    def _field_owner(self, card: int) -> int:
        for seat, field in enumerate(self.fields):
            if card in field:
                return seat
        return -1

    def player_of(self, card: int, owner: int) -> int:
        """Who played the face-down ``card`` lying in ``owner``'s field: a face-down card is known to the player
        who played it, and to the field's owner besides only when that owner received it in the battle's one
        J♠ trade (BR-11), so a seat other than the owner that knows it is the player."""
        other = self.known[card] & ~(1 << owner)
        return other.bit_length() - 1 if other else owner

    def face_down_played_by(self, seat: int) -> int:
        """The mask of face-down cards on the table that ``seat`` played (wherever a J♠ trade put them)."""
        mask = 0
        for owner, field in enumerate(self.fields):
            for card in field:
                if not self.face_up & BIT[card] and self.player_of(card, owner) == seat:
                    mask |= BIT[card]
        return mask

    def _recycle_discard(self) -> None:
        """Shuffle the battle Discard pile into the Deck (BR-4; BR-11: an empty Deck reshuffles Discard)."""
        if not self.discard:
            return
        for card in self.discard:
            self.known[card] = 0
        self.deck = self.discard + self.deck
        self.discard = []
        self.rng.shuffle(self.deck)
        self.emit("recycle", {"deck": len(self.deck)})

    def _draw(self, seat: int, count: int, fallback: list[int] | None = None) -> list[int]:
        """Draw up to ``count`` cards; an empty Deck first takes the Discard, then the ``fallback`` cards
        (mulligan cards set aside, BR-17). Stops early if nothing is left anywhere."""
        deck = self.deck
        if len(deck) >= count:  # the usual case: the Deck suffices
            drawn = deck[len(deck) - count :]
            drawn.reverse()  # drawn from the top, one by one
            del deck[len(deck) - count :]
            hand = self.hands[seat]
            known = self.known
            own = 1 << seat
            for card in drawn:
                hand |= BIT[card]
                known[card] = own
            self.hands[seat] = hand
            return drawn
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

    def _hide_aside(self, seat: int) -> None:
        """``seat`` sets a card aside in the sequential mulligan: the cards everyone knew in its hand are now in
        its hand or set aside, nobody else knows which (BR-23), until the cards set aside go into the Deck."""
        own = 1 << seat
        if self.private_hands & own:
            return  # already hidden from everyone else: the walk below would change nothing
        everyone = self.all_seats
        known = self.known
        recall = self.recall[seat]
        mask = self.hands[seat] | self.aside[seat]
        while mask:  # the bits walked inline: once per card set aside, on the hot path
            low = mask & -mask
            held = low.bit_length() - 1
            mask ^= low
            if known[held] == everyone:
                recall |= low
            known[held] = own
        self.recall[seat] = recall
        self.private_hands |= own

    def _settle_recall(self) -> None:
        """E1: every face-down card is revealed, so the recalled cards not on the table are still in their
        hands, and everyone knows it again (BR-23)."""
        everyone = self.all_seats
        recall = self.recall
        for seat in range(self.num_players):
            if recall[seat]:
                for card in cards_of(recall[seat] & self.hands[seat]):
                    self.known[card] = everyone
                    self.private_hands &= ~(1 << seat)
                recall[seat] = 0

    def _to_hand(self, seat: int, cards: list[int]) -> None:
        """Revealed cards return to a hand: everyone saw them go."""
        self.private_hands &= ~(1 << seat)
        for card in cards:
            self.hands[seat] |= BIT[card]
            self.known[card] = self.all_seats
            self.face_up &= ~BIT[card]

    def _look_at_field(self, seat: int) -> None:
        """``seat`` looks at the field it now holds (BR-11 variant ``jos_initiator_may_look``)."""
        bit = 1 << seat
        for card in self.fields[seat]:
            self.known[card] |= bit

    def _discard_table(self) -> None:
        """Every field and Queen Zone card to the Discard pile, face up for all (E8, and at the end of the game)."""
        everyone = self.all_seats
        known = self.known
        discard = self.discard
        for zone in self.fields:
            for card in zone:
                known[card] = everyone  # (the cards already in Discard are public: only the new ones change)
            discard.extend(zone)
            zone.clear()
        for card in self.queen_zone:
            known[card] = everyone
        discard.extend(self.queen_zone)
        self.queen_zone.clear()
        self.face_up = 0

    # ------------------------------------------------------------------ conservation
    def _check_invariants(self) -> None:
        """Every card of the deck (the 54, or ``deck_composition``'s) is in exactly one zone; knowledge and
        phase bookkeeping agree."""
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
        deck = cast("Barrell", self.game).deck_mask  # all 54 cards, or the subset of ``deck_composition`` (BR-24)
        if seen != deck:
            raise InvariantError(f"{count} cards in play instead of {deck.bit_count()}")
        for card in self.deck:
            if self.known[card]:
                raise InvariantError(f"{NAMES[card]} in the Deck is known to someone")
        for card in (*self.discard, *self.queen_zone):
            if self.known[card] != self.all_seats:
                raise InvariantError(f"{NAMES[card]} is public but not known to all")
        for seat in range(self.num_players):
            recalled = self.recall[seat]
            held = self.hands[seat] | self.aside[seat]
            if recalled & ~(held | self.face_down_played_by(seat)):
                raise InvariantError(f"P{seat + 1}'s recalled cards left its hand and face-down cards")
            if any(self.known[c] != 1 << seat for c in cards_of(recalled & held)):
                raise InvariantError(f"P{seat + 1}'s recalled cards are known exactly")
        for seat in range(self.num_players):
            if self.private_hands >> seat & 1 and any(
                self.known[c] != 1 << seat for c in cards_of(self.hands[seat] | self.aside[seat])
            ):
                raise InvariantError(f"P{seat + 1}'s hand is cached as private but is not")
        if self.phase != OVER and not self._to_act():
            raise InvariantError(f"nobody to act in phase {self.phase}")
