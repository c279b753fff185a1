"""Barrell's direct tensor path: ``observe(seat)``'s tensor entries read straight from the state (issue 34).

Split from ``barrell.py`` so that mypyc compiles it (issue 36; ``oakwood/form.py`` lists it): a native attribute
read from interpreted code goes through a getter slower than the interpreter's own slot read, and this path reads
dozens of the state's fields a step. Compiled beside the state, each read is a native field load. The module
imports neither numpy nor anything of ``oakwood.rl`` that does (the isolated build of ``pip install .`` has no
numpy): it returns the entries (the integer of every 0/1 entry, the other numbers, the covered slots) and the
encoder makes the tensor of them with numpy, as it always did. ``barrell.py``'s layout defines the offsets;
``tests/conformance/test_direct_tensors.py`` proves the path equal to ``encode(observe(seat))``.
"""

from __future__ import annotations

from itertools import compress
from typing import Final, cast

from oakwood.games.barrell.cards import BIT, DECK_SIZE, HAND_SIZE, NAMES, RANK, SUIT
from oakwood.games.barrell.game import Barrell
from oakwood.games.barrell.phases import HEARTS, MULLIGAN_PHASE, OVER
from oakwood.games.barrell.state import BarrellState
from oakwood.games.barrell.view import _SEES

WINS_TO_WIN: Final = 2  # the first player to win 2 battles wins (rules "Barrell")
BATTLE_SCALE: Final = 10  # battles are counted in tens
SCORE_SCALE: Final = 40  # a battle score in forties (ten numbered cards, an Ace at 11, a King of Clubs)
MULLIGAN_LIMIT: Final = 3  # at most three cards set aside (BR-4)
SUIT_COUNT: Final = 5  # clubs, diamonds, hearts, spades, and the Jokers as a fifth "suit"
RANK_COUNT: Final = 14  # A … K, and the Jokers
HAND_COUNTS: Final = SUIT_COUNT + RANK_COUNT  # hand_suits, then hand_ranks
#: A card name's share of the hand counts, one byte per count: a 1 in its suit's byte (the Jokers last) and
#: a 1 in its rank's byte (after the suits; the Jokers last). The sum over a hand, as HAND_COUNTS little-endian
#: bytes, is the counts themselves (no count reaches 256).
HAND_COUNT: Final[dict[str, int]] = {
    name: 1 << 8 * (SUIT[card] if SUIT[card] >= 0 else SUIT_COUNT - 1)
    | 1 << 8 * (SUIT_COUNT + (RANK[card] - 1 if RANK[card] else RANK_COUNT - 1))
    for card, name in enumerate(NAMES)
}
#: ``_HAND_COUNTS[k][b]``: the hand counts (as ``HAND_COUNT`` sums them) of the cards ``8k … 8k+7`` whose bits are set
#: in the byte ``b`` (seven bytes hold the 54 cards).
_HAND_COUNTS: Final = tuple(
    tuple(
        sum(HAND_COUNT[NAMES[8 * k + i]] for i in range(8) if b >> i & 1 and 8 * k + i < DECK_SIZE) for b in range(256)
    )
    for k in range(7)
)
_C0: Final = _HAND_COUNTS[0]
_C1: Final = _HAND_COUNTS[1]
_C2: Final = _HAND_COUNTS[2]
_C3: Final = _HAND_COUNTS[3]
_C4: Final = _HAND_COUNTS[4]
_C5: Final = _HAND_COUNTS[5]
_C6: Final = _HAND_COUNTS[6]
_NO_COUNTS: Final = bytes(HAND_COUNTS)


class BarrellDirect:
    """The encoder's tables the direct path reads, held natively (built once per encoder)."""

    def __init__(
        self,
        players: int,
        rels: list[list[int]],
        flags: dict[str, list[int]],
        phase: dict[str, int],
        decision: dict[str, int],
        hand: int,
        discard: int,
        queen_zone: int,
        cancelled: int,
        aside: int,
        terminal: int,
        jack_of_diamonds: int,
        provisional_known: int,
        battle_scores_known: int,
        my_gift: int,
        split_gifts: bool,
        gift_slots: dict[str, int],
        drawn_limit: float,
        blocks: list[list[tuple[int, int, int, int, int]]],
        covered_slots: bool,
        covered: int,
        deck: int,
        unseen: int,
    ) -> None:
        self.players = players
        self._rels = rels
        self._flags = flags
        self._phase = phase
        self._decision = decision
        self._hand = hand
        self._discard = discard
        self._queen_zone = queen_zone
        self._cancelled = cancelled
        self._aside = aside
        self._terminal = terminal
        self._jack_of_diamonds = jack_of_diamonds
        self._provisional_known = provisional_known
        self._battle_scores_known = battle_scores_known
        self._my_gift = my_gift
        self.split_gifts = split_gifts
        self._gift_slots = gift_slots
        self.drawn_limit = drawn_limit
        self._blocks = blocks
        self.covered_slots = covered_slots
        self._covered = covered
        self._deck = deck
        self._unseen = unseen

    def entries(self, state: BarrellState, seat: int | None) -> tuple[int, list[float], list[tuple[int, float]]]:
        """What ``BarrellEncoder._entries`` returns for ``state.observe(seat)``, read from the state's fields as
        ``oakwood.games.barrell.view.observe`` reads them (card ids are the masks' bits, so a card set's mask is
        the state's own mask, or the sum of its cards' bits)."""
        n = self.players
        me = 0 if seat is None else seat
        rel = self._rels[me]
        flags = self._flags
        phase = state.phase
        viewer = state.all_seats if seat is None else 1 << seat
        # The cards the viewer sees: those whose ``known`` mask includes every viewing seat (as observe finds them).
        sees = sum(compress(BIT, bytes(state.known).translate(_SEES[viewer])))
        hands = state.hands
        aside = state.aside
        over = phase == OVER
        hand = 0 if seat is None else hands[seat]
        seen = hand
        ones = (
            self._phase[phase]
            | self._decision["none" if over else "turn" if state.active >= 0 else "commit"]
            | flags["seat_first"][rel[state.first]]
            | hand << self._hand
        )
        discard = state.discard
        if discard:
            mask = sum(map(BIT.__getitem__, discard))
            seen |= mask
            ones |= mask << self._discard
        queen_zone = state.queen_zone
        if queen_zone:
            mask = sum(map(BIT.__getitem__, queen_zone))
            seen |= mask
            ones |= mask << self._queen_zone
        if state.jacks_void:
            seen |= state.jacks_void
            ones |= state.jacks_void << self._cancelled
        if seat is not None and aside[seat]:
            seen |= aside[seat]
            ones |= aside[seat] << self._aside
        if over:
            ones |= self._terminal
        if state.jd_active:
            ones |= self._jack_of_diamonds
        provisional = state.provisional_scores
        if provisional is not None:
            ones |= self._provisional_known
        battle_scores = state.battle_scores
        if battle_scores is not None:
            ones |= self._battle_scores_known
        hearts = phase == HEARTS
        if seat is not None and hearts:
            if state.gift_target[seat] >= 0:
                ones |= 1 << self._my_gift + rel[state.gift_target[seat]]
            if self.split_gifts:
                mine = state.to_give[seat]
                for card, target in state.card_target.items():
                    if mine & BIT[card]:
                        ones |= 1 << self._gift_slots[NAMES[card]] + rel[target]
        to_act = flags["seat_to_act"]
        for s in state.to_act():
            ones |= to_act[rel[s]]
        if state.active >= 0:
            ones |= flags["seat_active"][rel[state.active]]
        if over:
            winner = flags["seat_winner"]
            for s in state._winners():
                ones |= winner[rel[s]]
        battle_winner = flags["seat_battle_winner"]
        for s in state.battle_winners:
            ones |= battle_winner[rel[s]]
        passed = state.passed
        if passed:
            passed_flag = flags["seat_passed"]
            for s in range(n):
                if passed >> s & 1:
                    ones |= passed_flag[rel[s]]
        hidden_aside = phase == MULLIGAN_PHASE and cast(Barrell, state.game).simultaneous_mulligan
        if hidden_aside:
            hidden = flags["seat_aside_hidden"]
            for s in range(n):
                if s != seat:
                    ones |= hidden[rel[s]]
        need = state.need
        if need:
            must_commit = flags["seat_must_commit"]
            done = flags["seat_committed"]
            committed = state.committed
            for s in range(n):
                if need >> s & 1:
                    ones |= must_commit[rel[s]]
                    if committed >> s & 1:
                        ones |= done[rel[s]]

        numbers: list[float] = [
            min(state.battle / BATTLE_SCALE, 1.0),
            state.drawn_streak / self.drawn_limit,
            len(state.deck) / DECK_SIZE,
        ]
        if hand:
            b0, b1, b2, b3, b4, b5, b6 = hand.to_bytes(7, "little")
            counts = _C0[b0] + _C1[b1] + _C2[b2] + _C3[b3] + _C4[b4] + _C5[b5] + _C6[b6]
            numbers += counts.to_bytes(HAND_COUNTS, "little")
        else:
            numbers += _NO_COUNTS
        numbers.append(hand.bit_count() / HAND_SIZE)
        wins = state.wins
        face_up = state.face_up
        shown = face_up | sees
        fields = state.fields
        bit_of = BIT.__getitem__
        recall = state.recall
        to_give = state.to_give
        for s, field_at, known_at, recalled_at, to_give_at in self._blocks[me]:
            field = fields[s]
            in_field = sum(map(bit_of, field))  # a card is in one place once: the sum is the field's mask
            field_mask = in_field & shown
            seen |= field_mask
            ones |= field_mask << field_at
            held = hands[s]
            if hidden_aside and s != seat:
                held |= aside[s]  # the cards set aside are still hidden among the hand
                aside_size = 0.0
            else:
                aside_size = aside[s].bit_count() / MULLIGAN_LIMIT
            known = held & sees
            if known:
                seen |= known
                ones |= known << known_at
            if recall[s]:
                seen |= recall[s]
                ones |= recall[s] << recalled_at
            if hearts and to_give[s]:
                seen |= to_give[s]
                ones |= to_give[s] << to_give_at
            numbers += (  # SEAT_NUMBERS
                wins[s] / WINS_TO_WIN,
                held.bit_count() / HAND_SIZE,
                aside_size,
                0 if provisional is None else provisional[s] / SCORE_SCALE,
                0 if battle_scores is None else battle_scores[s] / SCORE_SCALE,
                len(field) / HAND_SIZE,
                (in_field & face_up).bit_count() / HAND_SIZE,
                (len(field) - field_mask.bit_count()) / HAND_SIZE,
            )
        covered_slots: list[tuple[int, float]] = []
        if self.covered_slots and state.jd_active:
            covered_cards = 0
            cover = state.jd_cover
            for s, field in enumerate(fields):
                before = sum(map(bit_of, field)) & cover
                covered_cards |= before & shown
                covered_slots.append((rel[s], before.bit_count() / HAND_SIZE))
            seen |= covered_cards
            ones |= covered_cards << self._covered
        ones |= (self._deck ^ seen) << self._unseen
        return ones, numbers, covered_slots
