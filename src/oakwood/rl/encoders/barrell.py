"""Barrell observation tensor: everything ``observe(seat)`` shows, as a fixed-size float32 vector.

Conventions: per-seat fields hold one block per seat, rotated so the observing seat comes first and the others
follow clockwise (block ``r`` is seat ``(seat + r) % players``); a spectator is encoded from seat 0 with an
empty hand. Card sets are 54-wide indicator vectors in card-id order (suits C, D, H, S, ranks A, 2–10, J, Q, K
within each suit, then the red and the black Joker). Sizes and scores are divided by the scale given in each
field's meaning (battle scores may be negative); flags and one-hots are 0 or 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import NDArray

from oakwood.engine import Game, State
from oakwood.games.barrell.actions import GIFTABLE_CARDS
from oakwood.games.barrell.cards import DECK_SIZE, HAND_SIZE, NAMES
from oakwood.games.barrell.phases import (
    HEARTS,
    JOKERS,
    KING_OF_HEARTS_PHASE,
    KING_OF_SPADES_PHASE,
    MULLIGAN_PHASE,
    OVER,
    PLAY_PHASE,
    SWAP_PHASE,
)
from oakwood.rl.encoders.barrell_direct import (
    BATTLE_SCALE,
    HAND_COUNT,
    HAND_COUNTS,
    MULLIGAN_LIMIT,
    RANK_COUNT,
    SCORE_SCALE,
    SUIT_COUNT,
    WINS_TO_WIN,
    BarrellDirect,
)
from oakwood.rl.tensors import DECISIONS, UNBOUNDED, UNIT, Encoder, Layout, relative_seats, seat_blocks

if TYPE_CHECKING:
    from oakwood.games.barrell.state import BarrellState

PHASES = (MULLIGAN_PHASE, PLAY_PHASE, SWAP_PHASE, JOKERS, HEARTS, KING_OF_HEARTS_PHASE, KING_OF_SPADES_PHASE, OVER)
CARDS_TEXT = "54 cards in id order (A–K of clubs, diamonds, hearts, spades; red, black Joker)"
CARDS_PER_SUIT = 13.0  # the most cards of one suit (the two Jokers make a "suit" of 2): a hand's suit count bound
CARDS_PER_RANK = 4.0  # the most cards of one rank (two Jokers): a hand's rank count bound


#: The per-seat fields that are flags (0 or 1), each ``players`` wide.
SEAT_FLAGS = (
    "seat_to_act",
    "seat_active",
    "seat_first",
    "seat_passed",
    "seat_winner",
    "seat_battle_winner",
    "seat_aside_hidden",
    "seat_must_commit",
    "seat_committed",
)
#: The other per-seat fields, in the order ``_entries`` lists their values.
SEAT_NUMBERS = (
    "seat_wins",
    "seat_hand_size",
    "seat_aside_size",
    "seat_provisional",
    "seat_battle_score",
    "seat_field_size",
    "seat_field_face_up",
    "seat_field_hidden",
)
#: A card name's bit in a 54-bit card-set mask (bit = card id); ``None``, a card the observer cannot identify,
#: adds nothing. A card is in one place once, so a set's mask is the sum of its cards' bits.
CARD_BIT: dict[str | None, int] = {name: 1 << card for card, name in enumerate(NAMES)} | {None: 0}
ALL_CARDS = (1 << DECK_SIZE) - 1
_slot_card = itemgetter("card")
_slot_face_up = itemgetter("face_up")


class BarrellEncoder(Encoder):
    """The Barrell tensor at one table size and ruleset (see the module docstring for the conventions)."""

    def __init__(self, game: Game[Any], players: int) -> None:
        n = players
        options = game.options
        self.split_gifts = options.heart_gift == "split_per_card"
        self.covered_slots = options.jod_scope == "cards_on_table_only"
        self.drawn_limit = float(options.max_consecutive_drawn_battles)
        # The cards in play (BR-24): a card left out of a custom deck is never "unseen". Every field keeps its
        # 54 slots and bounds, so any deck (a subset of the 54) encodes within the same space.
        self._deck: int = getattr(game, "deck_mask", ALL_CARDS)
        layout = Layout()
        per = seat_blocks(n)

        def blocks(k: int) -> str:
            return seat_blocks(n, k)

        # -- the position as a whole
        layout.add("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES), UNIT)
        layout.add("decision", len(DECISIONS), "decision one-hot: " + ", ".join(DECISIONS), UNIT)
        layout.add("terminal", 1, "1 when the game is over", UNIT)
        layout.add("battle", 1, f"battle number / {BATTLE_SCALE}, at most 1", UNIT)
        layout.add(
            "drawn_streak", 1, "battles in a row without a sole winner / the limit that ends the game (BR-15)", UNIT
        )
        layout.add("deck_size", 1, f"cards in the Deck / {DECK_SIZE}", UNIT)
        layout.add("jack_of_diamonds", 1, "1 while a Jack of Diamonds cancels face cards (BR-11)", UNIT)
        layout.add("discard", DECK_SIZE, f"Discard pile: {CARDS_TEXT}", UNIT)
        layout.add("queen_zone", DECK_SIZE, f"Queen Zone: {CARDS_TEXT}", UNIT)
        layout.add(
            "cancelled",
            DECK_SIZE,
            f"Jacks played after the Jack of Diamonds, so without effect (BR-11): {CARDS_TEXT}",
            UNIT,
        )
        # -- the observing seat's own cards
        layout.add("hand", DECK_SIZE, f"own hand: {CARDS_TEXT}", UNIT)
        layout.add(
            "hand_suits",
            SUIT_COUNT,
            "own hand: count per suit (clubs, diamonds, hearts, spades, Jokers)",
            (0.0, CARDS_PER_SUIT),
        )
        layout.add(
            "hand_ranks", RANK_COUNT, "own hand: count per rank (A, 2–10, J, Q, K, Joker)", (0.0, CARDS_PER_RANK)
        )
        layout.add("hand_size", 1, f"own hand size / {HAND_SIZE}", (0.0, DECK_SIZE / HAND_SIZE))
        layout.add("aside", DECK_SIZE, f"own cards set aside in the mulligan: {CARDS_TEXT}", UNIT)
        layout.add(
            "unseen",
            DECK_SIZE,
            f"cards the seat cannot see anywhere ({CARDS_TEXT}): not in its hand, set aside, Discard, the Queen "
            "Zone, a field (face up or known), known or recalled in another hand — so in the Deck, unknown in "
            "a hand, or face down unknown",
            UNIT,
        )
        layout.add("my_gift", n, f"{per}: own hidden heart recipient (BR-5), one-hot", UNIT)
        if self.split_gifts:
            layout.add(
                "my_gifts",
                len(GIFTABLE_CARDS) * n,
                f"{len(GIFTABLE_CARDS)} giftable cards (A♥–10♥, K♥), each {per}: "
                "own recipient of that card (split_per_card)",
                UNIT,
            )
        layout.add("provisional_known", 1, "1 when provisional scores are shown (joker_timing variant)", UNIT)
        layout.add("battle_scores_known", 1, "1 once this battle has been scored", UNIT)
        # -- every seat's public facts (rotated)
        layout.add("seat_to_act", n, f"{per}: 1 if the seat is to act", UNIT)
        layout.add("seat_active", n, f"{per}: 1 for the player whose turn it is", UNIT)
        layout.add("seat_first", n, f"{per}: 1 for the first player of this battle", UNIT)
        layout.add("seat_passed", n, f"{per}: 1 for a player who has passed this battle", UNIT)
        layout.add("seat_wins", n, f"{per}: battles won / {WINS_TO_WIN}", UNIT)
        layout.add("seat_winner", n, f"{per}: 1 for a winner of the game", UNIT)
        layout.add("seat_battle_winner", n, f"{per}: 1 for a winner of the last battle scored", UNIT)
        layout.add("seat_hand_size", n, f"{per}: hand size / {HAND_SIZE}", (0.0, DECK_SIZE / HAND_SIZE))
        layout.add(
            "seat_aside_size", n, f"{per}: cards set aside in the mulligan / {MULLIGAN_LIMIT} (0 when hidden)", UNIT
        )
        layout.add("seat_aside_hidden", n, f"{per}: 1 when that count is hidden (simultaneous mulligan)", UNIT)
        layout.add("seat_must_commit", n, f"{per}: 1 for a seat that takes part in the pending hidden choice", UNIT)
        layout.add("seat_committed", n, f"{per}: 1 for a seat that has made its hidden choice (not which)", UNIT)
        layout.add("seat_provisional", n, f"{per}: provisional battle score / {SCORE_SCALE}", UNBOUNDED)
        layout.add("seat_battle_score", n, f"{per}: battle score / {SCORE_SCALE}", UNBOUNDED)
        layout.add("seat_field_size", n, f"{per}: cards in the field / {HAND_SIZE}", (0.0, DECK_SIZE / HAND_SIZE))
        layout.add(
            "seat_field_face_up", n, f"{per}: face-up cards in the field / {HAND_SIZE}", (0.0, DECK_SIZE / HAND_SIZE)
        )
        layout.add(
            "seat_field_hidden",
            n,
            f"{per}: face-down cards the observer cannot identify / {HAND_SIZE}",
            (0.0, DECK_SIZE / HAND_SIZE),
        )
        layout.add(
            "seat_field",
            n * DECK_SIZE,
            f"{blocks(54)}: cards of that field the observer can identify (face up, or face down and known to it)",
            UNIT,
        )
        layout.add(
            "seat_known",
            n * DECK_SIZE,
            f"{blocks(54)}: cards the observer knows in that hand; in its own block, what everyone knows it holds",
            UNIT,
        )
        layout.add(
            "seat_recalled",
            n * DECK_SIZE,
            f"{blocks(54)}: cards everyone knows to be in that hand or among its player's face-down plays (BR-23)",
            UNIT,
        )
        layout.add(
            "seat_to_give",
            n * DECK_SIZE,
            f"{blocks(54)}: hearts that player gives away (hearts phase)",
            UNIT,
        )
        if self.covered_slots:
            layout.add(
                "seat_covered",
                n,
                f"{per}: field slots on the table before the Jack of Diamonds / {HAND_SIZE} (cards_on_table_only)",
                (0.0, DECK_SIZE / HAND_SIZE),
            )
            layout.add(
                "covered",
                DECK_SIZE,
                f"identified cards on the table before the Jack of Diamonds: {CARDS_TEXT}",
                UNIT,
            )
        super().__init__(game, players, layout)
        at = {f.name: f.offset for f in layout.fields}
        self._size = layout.size
        self._bytes = (layout.size + 7) // 8
        # ``encode`` sets every 0/1 entry as a bit of one integer (bit i is entry i): each flag's bit, and the
        # offset each card set's 54-bit mask is shifted by.
        self._phase = {phase: 1 << at["phase"] + i for i, phase in enumerate(PHASES)}
        self._decision = {decision: 1 << at["decision"] + i for i, decision in enumerate(DECISIONS)}
        self._terminal = 1 << at["terminal"]
        self._jack_of_diamonds = 1 << at["jack_of_diamonds"]
        self._provisional_known = 1 << at["provisional_known"]
        self._battle_scores_known = 1 << at["battle_scores_known"]
        self._discard = at["discard"]
        self._queen_zone = at["queen_zone"]
        self._cancelled = at["cancelled"]
        self._hand = at["hand"]
        self._aside = at["aside"]
        self._unseen = at["unseen"]
        self._my_gift = at["my_gift"]
        self._gift_slots = {NAMES[card]: at.get("my_gifts", 0) + i * n for i, card in enumerate(GIFTABLE_CARDS)}
        self._seat_covered = at.get("seat_covered", 0)  # both fields exist only when ``covered_slots``
        self._covered = at.get("covered", 0)
        # Each per-seat flag's bit, by block.
        self._flags = {name: [1 << at[name] + r for r in range(n)] for name in SEAT_FLAGS}
        # Every other number is written at once, in this order: battle, drawn_streak, deck_size, the hand
        # counts, hand_size, then each block's SEAT_NUMBERS.
        self._numbers = np.array(
            [at["battle"], at["drawn_streak"], at["deck_size"]]
            + list(range(at["hand_suits"], at["hand_suits"] + SUIT_COUNT))
            + list(range(at["hand_ranks"], at["hand_ranks"] + RANK_COUNT))
            + [at["hand_size"]]
            + [at[name] + r for r in range(n) for name in SEAT_NUMBERS],
            dtype=np.intp,
        )
        #: ``_blocks[me]``: each seat in block order (block ``r`` is seat ``(me + r) % n``) with the offsets of
        #: its seat_field, seat_known, seat_recalled and seat_to_give blocks.
        self._blocks = [
            [
                (
                    (me + r) % n,
                    at["seat_field"] + r * DECK_SIZE,
                    at["seat_known"] + r * DECK_SIZE,
                    at["seat_recalled"] + r * DECK_SIZE,
                    at["seat_to_give"] + r * DECK_SIZE,
                )
                for r in range(n)
            ]
            for me in range(n)
        ]
        self._rels = [relative_seats(me, n) for me in range(n)]
        #: The direct path's tables, held by the compiled ``barrell_direct`` (see its docstring).
        self._direct = BarrellDirect(
            self.players,
            self._rels,
            self._flags,
            self._phase,
            self._decision,
            self._hand,
            self._discard,
            self._queen_zone,
            self._cancelled,
            self._aside,
            self._terminal,
            self._jack_of_diamonds,
            self._provisional_known,
            self._battle_scores_known,
            self._my_gift,
            self.split_gifts,
            self._gift_slots,
            self.drawn_limit,
            self._blocks,
            self.covered_slots,
            self._covered,
            self._deck,
            self._unseen,
        )

    def encode(self, observation: Mapping[str, Any]) -> NDArray[np.float32]:
        """The tensor of one observation (a new array).

        Every entry that is 0 or 1 (card sets, one-hots, flags) is a bit of one integer, unpacked into the new
        tensor at once; every other number is then written with one indexed assignment.
        """
        return self._tensor(*self._entries(observation))

    def encode_state(self, state: State, seat: int | None) -> NDArray[np.float32]:
        """The tensor of ``state.observe(seat)`` read straight from the state's card masks (the direct path: the
        same entries as :meth:`_entries` finds in the observation, with no observation built; tested equal to
        ``encode(state.observe(seat))`` by ``tests/conformance/test_direct_tensors.py``)."""
        if seat is not None:
            state._check_seat_number(seat)  # the seats observe() accepts, and its refusal of any other
        return self._tensor(*self._state_entries(cast("BarrellState", state), seat))

    def _tensor(self, ones: int, numbers: list[float], covered_slots: list[tuple[int, float]]) -> NDArray[np.float32]:
        """The tensor of the three parts :meth:`_entries` returns (a new array)."""
        out = np.unpackbits(np.frombuffer(ones.to_bytes(self._bytes, "little"), np.uint8), bitorder="little")
        tensor = out[: self._size].astype(np.float32)
        tensor[self._numbers] = numbers
        for r, value in covered_slots:
            tensor[self._seat_covered + r] = value
        return tensor

    def fill(self, observation: Mapping[str, Any], out: NDArray[np.float32]) -> None:
        """Write ``observation`` (a seat's or a spectator's) into the zeroed ``out``."""
        out[:] = self.encode(observation)

    def _entries(self, observation: Mapping[str, Any]) -> tuple[int, list[float], list[tuple[int, float]]]:
        """The tensor of ``observation`` in three parts: the integer whose bit ``i`` is entry ``i`` for every
        entry that is 0 or 1; the values of the other numbers, in ``_numbers`` order; and the seat_covered
        entries (block, value) of the cards_on_table_only variant."""
        obs = observation
        seat = obs["seat"]
        me = 0 if seat is None else seat
        rel = self._rels[me]
        card_bit = CARD_BIT.__getitem__  # name -> the card's bit; None (a card the observer cannot see) -> 0

        # A card set's mask: the sum of its cards' bits (most sets are empty: the test is cheaper than the sum).
        hand_names = obs["hand"] or []
        seen = sum(map(card_bit, hand_names))
        flags = self._flags
        ones = (
            self._phase[obs["phase"]]
            | self._decision[obs["decision"]]
            | flags["seat_first"][rel[obs["first_player"]]]
            | seen << self._hand
        )
        for names, offset in (
            (obs["discard"], self._discard),
            (obs["queen_zone"], self._queen_zone),
            (obs["cancelled"], self._cancelled),
            (obs["aside"], self._aside),
        ):
            if names:
                mask = sum(map(card_bit, names))
                seen |= mask
                ones |= mask << offset
        if obs["terminal"]:
            ones |= self._terminal
        if obs["jack_of_diamonds"]:
            ones |= self._jack_of_diamonds
        provisional = obs["provisional_scores"]
        if provisional is not None:
            ones |= self._provisional_known
        battle_scores = obs["battle_scores"]
        if battle_scores is not None:
            ones |= self._battle_scores_known
        if "my_gift" in obs:
            ones |= 1 << self._my_gift + rel[obs["my_gift"]]
        if self.split_gifts:
            for name, target in obs.get("my_gifts", {}).items():
                ones |= 1 << self._gift_slots[name] + rel[target]
        # The per-seat flags, seat by seat where they hold (most do not).
        to_act = flags["seat_to_act"]
        for s in obs["to_act"]:
            ones |= to_act[rel[s]]
        active = obs["active"]
        if active is not None:
            ones |= flags["seat_active"][rel[active]]
        winner = flags["seat_winner"]
        for s in obs["winners"]:
            ones |= winner[rel[s]]
        battle_winner = flags["seat_battle_winner"]
        for s in obs["battle_winners"]:
            ones |= battle_winner[rel[s]]
        passed = obs["passed"]
        if any(passed):
            passed_flag = flags["seat_passed"]
            for s, flag in enumerate(passed):
                if flag:
                    ones |= passed_flag[rel[s]]
        aside_sizes = obs["aside_sizes"]
        if None in aside_sizes:
            hidden = flags["seat_aside_hidden"]
            for s, size in enumerate(aside_sizes):
                if size is None:
                    ones |= hidden[rel[s]]
        committed = obs["committed"]
        if committed is not None:
            must_commit = flags["seat_must_commit"]
            done = flags["seat_committed"]
            for s, commit in enumerate(committed):
                if commit is not None:
                    ones |= must_commit[rel[s]]
                    if commit:
                        ones |= done[rel[s]]

        numbers: list[float] = [
            min(obs["battle"] / BATTLE_SCALE, 1.0),
            obs["drawn_streak"] / self.drawn_limit,
            obs["deck_size"] / DECK_SIZE,
        ]
        numbers += sum(map(HAND_COUNT.__getitem__, hand_names)).to_bytes(HAND_COUNTS, "little")
        numbers.append(len(hand_names) / HAND_SIZE)
        wins = obs["wins"]
        hand_sizes = obs["hand_sizes"]
        fields = obs["fields"]
        known_in_hands = obs["known_in_hands"]
        recalled = obs["recalled"]
        to_give = obs["to_give"]
        for s, field_at, known_at, recalled_at, to_give_at in self._blocks[me]:
            field = fields[s]
            field_cards = list(map(_slot_card, field))
            field_mask = sum(map(card_bit, field_cards))
            seen |= field_mask
            ones |= field_mask << field_at
            if known_in_hands[s]:
                known = sum(map(card_bit, known_in_hands[s]))
                seen |= known
                ones |= known << known_at
            if recalled[s]:
                recall = sum(map(card_bit, recalled[s]))
                seen |= recall
                ones |= recall << recalled_at
            if to_give is not None:
                giving = sum(map(card_bit, to_give[s]))
                seen |= giving
                ones |= giving << to_give_at
            aside_size = aside_sizes[s]
            numbers += (  # SEAT_NUMBERS
                wins[s] / WINS_TO_WIN,
                hand_sizes[s] / HAND_SIZE,
                0 if aside_size is None else aside_size / MULLIGAN_LIMIT,
                0 if provisional is None else provisional[s] / SCORE_SCALE,
                0 if battle_scores is None else battle_scores[s] / SCORE_SCALE,
                len(field) / HAND_SIZE,
                sum(map(_slot_face_up, field)) / HAND_SIZE,
                field_cards.count(None) / HAND_SIZE,
            )
        covered_slots = []
        if self.covered_slots and "before_jack_of_diamonds" in obs:
            covered_cards = 0
            for s, covered in enumerate(obs["before_jack_of_diamonds"]):
                covered_slots.append((rel[s], sum(covered) / HAND_SIZE))
                covered_cards |= sum(
                    CARD_BIT[slot["card"]] for slot, c in zip(fields[s], covered, strict=True) if c and slot["card"]
                )
            seen |= covered_cards
            ones |= covered_cards << self._covered
        ones |= (self._deck ^ seen) << self._unseen
        return ones, numbers, covered_slots

    def _state_entries(self, state: BarrellState, seat: int | None) -> tuple[int, list[float], list[tuple[int, float]]]:
        """What :meth:`_entries` returns for ``state.observe(seat)``, read from the state's fields by the compiled
        ``barrell_direct``."""
        return self._direct.entries(state, seat)


def encoder(game: Game[Any], players: int) -> Encoder:
    """The Barrell encoder for ``players`` seats under ``game``'s options."""
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"Barrell seats {game.min_players}–{game.max_players} players, not {players}")
    return BarrellEncoder(game, players)
