"""S'Quarrels' direct tensor path: ``observe(seat)``'s tensor read straight from the state (issue 34).

Split from ``squarrels.py`` so that mypyc compiles it (issue 36; ``oakwood/form.py`` lists it): a native
attribute read from interpreted code goes through a getter slower than the interpreter's own slot read, and this
path reads dozens of the state's fields a step. Compiled beside the state, each read is a native field load. The
module imports neither numpy nor anything of ``oakwood.rl`` that does (the isolated build of ``pip install .``
has no numpy): the tensor arrives as a ``memoryview`` of the encoder's float32 array, written through the buffer
protocol as the pure form always did, so both forms store the same float32 values. ``squarrels.py``'s layout
defines the offsets; ``tests/conformance/test_direct_tensors.py`` proves the path equal to
``encode(observe(seat))``.
"""

from __future__ import annotations

from typing import Any, Final

from oakwood.games.squarrels.cards import FIVE, GOLDEN, HAND_KINDS, HAND_LIMIT, NUMBERS, ONE, SET_SIZE
from oakwood.games.squarrels.knowledge import held
from oakwood.games.squarrels.state import QUARREL, RACE, SQuarrelsState

ROUND_SCALE: Final = 10  # rounds are counted in tens (a 50-point match lasts a handful of rounds)
HOARD_SCALE: Final = 10  # Hoard Pile size in tens
NUMBER_KINDS: Final = len(NUMBERS)


class SQuarrelsDirect:
    """The encoder's tables the direct path reads, held natively (built once per encoder)."""

    def __init__(
        self,
        players: int,
        at: dict[str, int],
        score_scale: float,
        deck_total: int,
        counts: tuple[int, ...],
        per_card: bool,
        phase_slot: dict[str, int],
        decision_slot: dict[str, int],
        discard_of_card: list[tuple[int, int] | None],
        blocks: list[list[int]],
    ) -> None:
        self.players = players
        self.at = at
        self.score_scale = score_scale
        self.deck_total = deck_total
        self.counts = counts
        self.per_card = per_card
        self.phase_slot = phase_slot
        self.decision_slot = decision_slot
        self.discard_of_card = discard_of_card
        self.blocks = blocks
        self.golden_at = at.get("seat_stored_golden", -1)  # -1: no such field (sets without the Golden)

    def fill(self, state: SQuarrelsState, seat: int | None, out: Any) -> None:
        """Write the tensor of ``state.observe(seat)`` into the zeroed float32 buffer ``out`` (a memoryview),
        each value read from the field of the state that ``oakwood.games.squarrels.observation.observe`` reads it
        from (the same stores, in the same order, as ``SQuarrelsEncoder.fill``)."""
        at = self.at
        n = self.players
        scale = self.score_scale
        rel = self.blocks[0 if seat is None else seat]
        v: Any = out
        phase = state.phase

        v[self.phase_slot[phase]] = 1.0
        v[self.decision_slot[state.decision.value]] = 1.0
        if phase == "over":
            v[at["terminal"]] = 1.0
        v[at["round"]] = min(state.round_no / ROUND_SCALE, 1.0)
        v[at["deck_size"]] = len(state.deck) / self.deck_total
        hoard = state.hoard
        if hoard:
            v[at["hoard_pile_size"]] = len(hoard) / HOARD_SCALE
        discard_of_card = self.discard_of_card
        action_discard = state.action_discard
        for card in range(len(action_discard)):
            count = action_discard[card]
            if count:
                found = discard_of_card[card]
                if found is not None:
                    v[found[0]] = count / found[1]
        golden_out = state.golden_out
        if golden_out:
            v[at["golden_out_of_match"]] = 1.0
        if phase == "must_draw" or phase == "drawing":
            v[at["drawing_open"]] = 1.0
        if state.whirl_forced:
            v[at["must_draw_to_7"]] = 1.0

        hand = [0] * HAND_KINDS if seat is None else state.hands[seat][:]
        hand_at = at["hand"]
        levels_at = at["hand_levels"]
        for kind in range(len(hand)):
            count = hand[kind]
            if count:
                v[hand_at + kind] = count
                if ONE <= kind <= FIVE:
                    first = levels_at + (kind - ONE) * SET_SIZE
                    for level in range(first, first + min(count, SET_SIZE)):
                        v[level] = 1.0
        v[at["hand_size"]] = sum(hand) / HAND_LIMIT
        if seat is not None:
            round_score = state.round_score(seat)
            if round_score:
                v[at["your_round_score"]] = round_score / scale
        placed = hand
        if seat is not None and hoard:
            hoard_at = at["hoard_yours"]
            for card, owner in hoard:
                if owner == seat:
                    v[hoard_at + card] += 1
                    placed[card] += 1
        placed[GOLDEN] += action_discard[GOLDEN]

        for s in state.to_act():
            v[at["seat_to_act"] + rel[s]] = 1.0
        v[at["seat_active"] + rel[state.active]] = 1.0
        v[at["seat_dealer"] + rel[state.dealer]] = 1.0
        for s in state.winners_:
            v[at["seat_winner"] + rel[s]] = 1.0
        last_round = state.last_round
        if last_round is not None:
            v[at["last_round_known"]] = 1.0
        sizes_at = at["seat_hand_size"]
        totals_at = at["seat_total"]
        last_at = at["seat_last_round"]
        stored_at = at["seat_stored"]
        golden_at = self.golden_at
        points_at = at["seat_stored_points"]
        known_at = at["seat_known"]
        per_card = self.per_card
        hand_sizes = state.hand_sizes
        totals = state.totals
        storage = state.storage
        known = state.knowledge()
        for s in range(n):
            r = rel[s]
            if hand_sizes[s]:
                v[sizes_at + r] = hand_sizes[s] / HAND_LIMIT
            if totals[s]:
                v[totals_at + r] = totals[s] / scale
            if last_round is not None and last_round[s]:
                v[last_at + r] = last_round[s] / scale
            stored = storage[s]
            if stored:
                points = 0
                for entry in stored:
                    value = entry % 10
                    v[stored_at + r * NUMBER_KINDS + value - 1] += 1
                    placed[value] += SET_SIZE
                    points += value * SET_SIZE if per_card else value
                v[points_at + r] = points / scale
                for entry in stored:
                    if entry > 10:  # a set completed by the Golden
                        value = entry % 10
                        if golden_at >= 0:
                            v[golden_at + r * NUMBER_KINDS + value - 1] += 1
                        placed[value] -= 1
                        placed[GOLDEN] += 1
            if s in known:
                block = known_at + r * HAND_KINDS
                counts = held(known, s if seat is None else seat, s)
                for kind in range(len(counts)):
                    count = counts[kind]
                    if count:
                        v[block + kind] = count
                        if s != seat:  # the observer's own block is part of its hand, already counted
                            placed[kind] += count

        if phase == QUARREL:
            v[at["quarrel_on"]] = 1.0
            v[at["quarrel_drawer"] + rel[state.q_drawer]] = 1.0
            for s in state.q_live:
                v[at["quarrel_live"] + rel[s]] = 1.0
            commits = state.q_commits
            for s in commits:
                v[at["quarrel_committed"] + rel[s]] = 1.0
            for card, s in state.q_pot:
                v[at["quarrel_pot"] + rel[s] * HAND_KINDS + card] += 1
                placed[card] += 1
            if seat is not None and seat in commits:
                card = commits[seat]
                v[at["quarrel_your_play"] + card] = 1.0
                placed[card] += 1
        deck = self.counts
        if golden_out:
            placed[GOLDEN] = deck[GOLDEN]
        unseen_at = at["unseen"]
        for kind in range(HAND_KINDS):
            if placed[kind] < deck[kind]:
                v[unseen_at + kind] = (deck[kind] - placed[kind]) / deck[kind]

        if phase == RACE:
            v[at["race_on"]] = 1.0
            v[at["race_drawer"] + rel[state.r_drawer]] = 1.0
            for s in state.r_eligible:
                v[at["race_eligible"] + rel[s]] = 1.0
            for s in state.r_passed:
                v[at["race_passed"] + rel[s]] = 1.0
            answers = state.r_commits
            for s in answers:
                v[at["race_committed"] + rel[s]] = 1.0
            if seat is not None and seat in answers:
                v[at["race_your_answer"] + (0 if answers[seat] else 1)] = 1.0
