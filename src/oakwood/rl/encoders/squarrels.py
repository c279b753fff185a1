"""S'Quarrels observation tensor: everything ``observe(seat)`` shows, as a fixed-size float32 vector.

Conventions: per-seat fields hold one block per seat, rotated so the observing seat comes first and the others
follow clockwise (block ``r`` is seat ``(seat + r) % players``); a spectator is encoded from seat 0 with an
empty hand. Card kinds are in rank order (Rotten, 1–5, Golden). Scores are divided by the target score (50 in
``single_round``), so they are small numbers that may be negative; sizes are divided by the natural scale
given in each field's meaning; flags and one-hots are 0 or 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import NDArray

from oakwood.engine import Game, State
from oakwood.games.squarrels.cards import (
    COUNTS,
    FIVE,
    GOLDEN,
    HAND_KINDS,
    HAND_LIMIT,
    NAME_TO_CARD,
    NAMES,
    NUMBERS,
    ONE,
    SET_SIZE,
)
from oakwood.games.squarrels.state import PHASES
from oakwood.rl.encoders.squarrels_direct import SQuarrelsDirect
from oakwood.rl.tensors import (
    DECISIONS,
    NON_NEGATIVE,
    UNBOUNDED,
    UNIT,
    Encoder,
    Layout,
    relative_seats,
    seat_blocks,
)

if TYPE_CHECKING:
    from oakwood.games.squarrels.state import SQuarrelsState

#: The cards Discard can show (the played Golden and the Action cards), in this order.
DISCARD_KINDS = ("golden", "quarrel", "hoard", "ambush", "whirlwind", "winter")
KINDS_TEXT = "Rotten, 1, 2, 3, 4, 5, Golden"
ROUND_SCALE = 10  # rounds are counted in tens (a 50-point match lasts a handful of rounds)
HOARD_SCALE = 10  # Hoard Pile size in tens
#: The standard deck's size (an encoder scales by its own game's deck, ``deck_composition``, SQ-26).
DECK_TOTAL = sum(COUNTS)
#: The most cards of one hand kind the standard deck holds: no pile, hand or count of one kind can exceed it.
MOST_OF_A_KIND = float(max(COUNTS[:HAND_KINDS]))


def _counts(names: list[str]) -> list[int]:
    """A list of hand-card names as counts per kind (Rotten … Golden)."""
    counts = [0] * HAND_KINDS
    for name in names:
        counts[NAME_TO_CARD[name]] += 1
    return counts


class SQuarrelsEncoder(Encoder):
    """The S'Quarrels tensor at one table size and ruleset (see the module docstring for the conventions)."""

    def __init__(self, game: Game[Any], players: int) -> None:
        n = players
        # The deck of the game's options (SQ-26): bounds and scales grow with its counts, so a custom deck
        # encodes within its declared space (the standard deck gives the layout it always had).
        counts = self._counts = tuple(game.options.cards)
        deck_total = self._deck_total = sum(counts)
        most = float(max(counts[:HAND_KINDS]))
        self.wild_sets = bool(game.options.golden_wild_in_sets)
        target = game.options.target_score
        self.score_scale = 50.0 if game.options.single_round else float(target)
        layout = Layout()
        per = seat_blocks(n)

        def blocks(k: int) -> str:
            return seat_blocks(n, k)

        # -- the position as a whole
        layout.add("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES), UNIT)
        layout.add("decision", len(DECISIONS), "decision one-hot: " + ", ".join(DECISIONS), UNIT)
        layout.add("terminal", 1, "1 when the match is over", UNIT)
        layout.add("round", 1, f"round number / {ROUND_SCALE}, at most 1", UNIT)
        layout.add("deck_size", 1, f"cards in the Deck / {deck_total}", UNIT)
        layout.add("hoard_pile_size", 1, f"cards in the Hoard Pile / {HOARD_SCALE}", (0.0, deck_total / HOARD_SCALE))
        layout.add(
            "discard",
            len(DISCARD_KINDS),
            "Discard per kind (" + ", ".join(DISCARD_KINDS) + ") / how many the deck holds",
            UNIT,
        )
        layout.add("golden_out_of_match", 1, "1 when the Golden is lost for the rest of the match (SQ-7 variant)", UNIT)
        layout.add("drawing_open", 1, "1 while the active player may draw", UNIT)
        layout.add(
            "must_draw_to_7", 1, "1 when the active player must draw to 7 after a Whirlwind (SQ-4 variant)", UNIT
        )
        layout.add("last_round_known", 1, "1 once a round has been scored (then `seat_last_round` holds it)", UNIT)
        # -- the observing seat's own cards
        layout.add("hand", HAND_KINDS, f"own hand: count per kind ({KINDS_TEXT})", (0.0, most))
        layout.add(
            "hand_levels",
            len(NUMBERS) * SET_SIZE,
            "own Number cards 1–5, three per number: holds ≥1, ≥2, ≥3 of it (a set is three)",
            UNIT,
        )
        layout.add("hand_size", 1, f"own hand size / {HAND_LIMIT}", (0.0, deck_total / HAND_LIMIT))
        layout.add("your_round_score", 1, "own round score if Winter came now / target score", UNBOUNDED)
        layout.add(
            "hoard_yours",
            HAND_KINDS,
            f"own discards in the current Hoard Pile: count per kind ({KINDS_TEXT})",
            (0.0, most),
        )
        layout.add(
            "unseen",
            HAND_KINDS,
            f"cards the seat cannot place, per kind ({KINDS_TEXT}) / how many the deck holds: not in its hand, "
            "storage, Discard, its Hoard discards, the Quarrel, or known in another hand (so in the Deck, in "
            "others' Hoard discards, or unknown in other hands)",
            UNIT,
        )
        # -- every seat's public facts (rotated)
        layout.add("seat_to_act", n, f"{per}: 1 if the seat is to act", UNIT)
        layout.add("seat_active", n, f"{per}: 1 for the active (drawing / storing) player", UNIT)
        layout.add("seat_dealer", n, f"{per}: 1 for the dealer of this round", UNIT)
        layout.add("seat_hand_size", n, f"{per}: hand size / {HAND_LIMIT}", (0.0, deck_total / HAND_LIMIT))
        layout.add("seat_total", n, f"{per}: match total / target score", UNBOUNDED)
        layout.add("seat_last_round", n, f"{per}: score of the last round played / target score (0 before)", UNBOUNDED)
        layout.add(
            "seat_stored",
            n * len(NUMBERS),
            f"{blocks(5)}: stored sets of 1s … 5s (count)",
            (0.0, deck_total / SET_SIZE),
        )
        if self.wild_sets:
            layout.add(
                "seat_stored_golden",
                n * len(NUMBERS),
                f"{blocks(5)}: of those, sets of 1s … 5s completed by the Golden (count; SQ-8 variant)",
                (0.0, deck_total / SET_SIZE),
            )
        layout.add("seat_stored_points", n, f"{per}: points in stored sets this round / target score", NON_NEGATIVE)
        layout.add(
            "seat_known",
            n * HAND_KINDS,
            f"{blocks(7)}: cards the observer knows in that hand, per kind ({KINDS_TEXT}); in the observer's own "
            "block, what every seat knows it holds (SQ-24)",
            (0.0, most),
        )
        layout.add("seat_winner", n, f"{per}: 1 for a winner of the match", UNIT)
        # -- a Quarrel in progress
        layout.add("quarrel_on", 1, "1 during a Quarrel", UNIT)
        layout.add("quarrel_drawer", n, f"{per}: 1 for the player who drew the Quarrel", UNIT)
        layout.add("quarrel_live", n, f"{per}: 1 for a player still playing in the Quarrel", UNIT)
        layout.add("quarrel_committed", n, f"{per}: 1 for a player who has picked a card (not which)", UNIT)
        layout.add(
            "quarrel_pot",
            n * HAND_KINDS,
            f"{blocks(7)}: cards revealed in earlier tie rounds of this Quarrel, per kind ({KINDS_TEXT})",
            (0.0, most),
        )
        layout.add("quarrel_your_play", HAND_KINDS, f"own hidden Quarrel pick, one-hot ({KINDS_TEXT})", UNIT)
        # -- a Hoard race in progress
        layout.add("race_on", 1, "1 during a Hoard race", UNIT)
        layout.add("race_drawer", n, f"{per}: 1 for the player who drew the Hoard", UNIT)
        layout.add("race_eligible", n, f"{per}: 1 for a player who may race", UNIT)
        layout.add("race_passed", n, f"{per}: 1 for a player who declined (public in realtime races)", UNIT)
        layout.add("race_committed", n, f"{per}: 1 for a player who has answered (commit modes; not what)", UNIT)
        layout.add("race_your_answer", 2, "own answer in the commit modes, one-hot: slap, pass", UNIT)
        super().__init__(game, players, layout)
        self._at = {f.name: f.offset for f in layout.fields}
        at = self._at
        self._per_card = game.options.set_scoring == "per_card"
        # Where each one-hot lands, found once: the hot path does one dict lookup per field.
        self._phase_slot = {phase: at["phase"] + i for i, phase in enumerate(PHASES)}
        self._decision_slot = {decision: at["decision"] + i for i, decision in enumerate(DECISIONS)}
        self._discard_slot = {
            name: (at["discard"] + i, max(1, counts[NAME_TO_CARD[name]])) for i, name in enumerate(DISCARD_KINDS)
        }
        # The Discard slot of each card id (None for a card the Discard field does not show).
        self._discard_of_card = [self._discard_slot.get(name) for name in NAMES]
        # Block of each seat for each observer: ``blocks[me][s]`` (a spectator reads as seat 0).
        self._blocks = [relative_seats(me, n) for me in range(n)]
        #: The direct path's tables, held by the compiled ``squarrels_direct`` (see its docstring).
        self._direct = SQuarrelsDirect(
            n,
            at,
            self.score_scale,
            deck_total,
            counts,
            self._per_card,
            self._phase_slot,
            self._decision_slot,
            self._discard_of_card,
            self._blocks,
        )

    def fill(self, observation: Mapping[str, Any], array: NDArray[np.float32]) -> None:
        """Write ``observation`` (a seat's or a spectator's) into the zeroed ``out``.

        Only non-zero numbers are written (``out`` starts at 0): most fields of a position are empty, and each
        store costs more than the test that skips it. Stores go through a memoryview of ``out``: it rounds a
        number to float32 exactly as numpy's setitem does, at a fraction of the cost (it takes no slices).
        """
        at = self._at
        n = self.players
        obs = observation
        scale = self.score_scale
        seat = obs["seat"]
        rel = self._blocks[0 if seat is None else seat]  # seat -> block index
        out: Any = memoryview(cast(Any, array))  # Any: typeshed's memoryview takes int items only

        out[self._phase_slot[obs["phase"]]] = 1.0
        out[self._decision_slot[obs["decision"]]] = 1.0
        if obs["terminal"]:
            out[at["terminal"]] = 1.0
        out[at["round"]] = min(obs["round"] / ROUND_SCALE, 1.0)
        out[at["deck_size"]] = obs["deck_size"] / self._deck_total
        if obs["hoard_pile_size"]:
            out[at["hoard_pile_size"]] = obs["hoard_pile_size"] / HOARD_SCALE
        discard = obs["action_discard"]
        discard_slot = self._discard_slot
        for name, count in discard.items():
            if name in discard_slot:
                slot, total = discard_slot[name]
                out[slot] = count / total
        if obs["golden_out_of_match"]:
            out[at["golden_out_of_match"]] = 1.0
        if obs["drawing_open"]:
            out[at["drawing_open"]] = 1.0
        if obs["must_draw_to_7"]:
            out[at["must_draw_to_7"]] = 1.0

        hand = _counts(obs["hand"] or [])
        hand_at = at["hand"]
        levels_at = at["hand_levels"]
        for kind, count in enumerate(hand):
            if count:
                out[hand_at + kind] = count
                if ONE <= kind <= FIVE:  # a Number card: its "holds at least k" levels
                    first = levels_at + (kind - ONE) * SET_SIZE
                    for level in range(first, first + min(count, SET_SIZE)):
                        out[level] = 1.0
        out[at["hand_size"]] = sum(hand) / HAND_LIMIT
        if obs["your_round_score"]:
            out[at["your_round_score"]] = obs["your_round_score"] / scale
        # Where every card the seat can place is: the rest are unseen.
        placed = hand
        if obs["hoard_pile_yours"]:
            hoard_at = at["hoard_yours"]
            for name in obs["hoard_pile_yours"]:
                kind = NAME_TO_CARD[name]
                out[hoard_at + kind] += 1
                placed[kind] += 1
        placed[GOLDEN] += discard.get("golden", 0)

        for s in obs["to_act"]:
            out[at["seat_to_act"] + rel[s]] = 1.0
        if obs["active"] is not None:
            out[at["seat_active"] + rel[obs["active"]]] = 1.0
        if obs["dealer"] is not None:
            out[at["seat_dealer"] + rel[obs["dealer"]]] = 1.0
        for s in obs["winners"]:
            out[at["seat_winner"] + rel[s]] = 1.0
        last_round = obs["last_round_scores"]
        if last_round is not None:
            out[at["last_round_known"]] = 1.0
        sizes_at = at["seat_hand_size"]
        totals_at = at["seat_total"]
        last_at = at["seat_last_round"]
        stored_at = at["seat_stored"]
        golden_at = at.get("seat_stored_golden")
        points_at = at["seat_stored_points"]
        known_at = at["seat_known"]
        per_card = self._per_card
        hand_sizes = obs["hand_sizes"]
        scores = obs["scores"]
        storage = obs["storage"]
        storage_with_golden = obs["storage_with_golden"]
        known_in_hands = obs["known_in_hands"]
        for s in range(n):
            r = rel[s]
            if hand_sizes[s]:
                out[sizes_at + r] = hand_sizes[s] / HAND_LIMIT
            if scores[s]:
                out[totals_at + r] = scores[s] / scale
            if last_round is not None and last_round[s]:
                out[last_at + r] = last_round[s] / scale
            if storage[s]:
                points = 0
                for value in storage[s]:
                    out[stored_at + r * len(NUMBERS) + value - 1] += 1
                    placed[value] += SET_SIZE
                    points += value * SET_SIZE if per_card else value
                out[points_at + r] = points / scale
                for value in storage_with_golden[s]:
                    if golden_at is not None:
                        out[golden_at + r * len(NUMBERS) + value - 1] += 1
                    placed[value] -= 1
                    placed[GOLDEN] += 1
            if known_in_hands[s]:
                block = known_at + r * HAND_KINDS
                for name in known_in_hands[s]:
                    kind = NAME_TO_CARD[name]
                    out[block + kind] += 1
                    if s != seat:  # the observer's own block is part of its hand, already counted
                        placed[kind] += 1

        quarrel = obs["quarrel"]
        if quarrel is not None:
            out[at["quarrel_on"]] = 1.0
            out[at["quarrel_drawer"] + rel[quarrel["drawer"]]] = 1.0
            for s in quarrel["live"]:
                out[at["quarrel_live"] + rel[s]] = 1.0
            for s in quarrel["committed"]:
                out[at["quarrel_committed"] + rel[s]] = 1.0
            for play in quarrel["pot"]:
                kind = NAME_TO_CARD[play["card"]]
                out[at["quarrel_pot"] + rel[play["seat"]] * HAND_KINDS + kind] += 1
                placed[kind] += 1
            if quarrel["your_play"] is not None:
                kind = NAME_TO_CARD[quarrel["your_play"]]
                out[at["quarrel_your_play"] + kind] = 1.0
                placed[kind] += 1
        deck = self._counts
        if obs["golden_out_of_match"]:
            placed[GOLDEN] = deck[GOLDEN]
        unseen_at = at["unseen"]
        for kind in range(HAND_KINDS):
            if placed[kind] < deck[kind]:
                out[unseen_at + kind] = (deck[kind] - placed[kind]) / deck[kind]

        race = obs["race"]
        if race is not None:
            out[at["race_on"]] = 1.0
            out[at["race_drawer"] + rel[race["drawer"]]] = 1.0
            for s in race["eligible"]:
                out[at["race_eligible"] + rel[s]] = 1.0
            for s in race["passed"]:
                out[at["race_passed"] + rel[s]] = 1.0
            for s in race["committed"]:
                out[at["race_committed"] + rel[s]] = 1.0
            if race["your_answer"] is not None:
                out[at["race_your_answer"] + ("slap", "pass").index(race["your_answer"])] = 1.0

    def encode_state(self, state: State, seat: int | None) -> NDArray[np.float32]:
        """The tensor of ``state.observe(seat)`` read straight from the state (the direct path; tested equal to
        ``encode(state.observe(seat))`` by ``tests/conformance/test_direct_tensors.py``)."""
        if seat is not None:
            state._check_seat_number(seat)  # the seats observe() accepts, and its refusal of any other
        out = np.zeros(self.size, dtype=np.float32)
        self._fill_state(cast("SQuarrelsState", state), seat, out)
        return out

    def fill_state(self, state: State, seat: int | None, out: NDArray[np.float32]) -> None:
        """Write the tensor of ``state.observe(seat)`` into ``out`` (whatever it held), by the direct path."""
        if seat is not None:
            state._check_seat_number(seat)
        out.fill(0.0)
        self._fill_state(cast("SQuarrelsState", state), seat, out)

    def _fill_state(self, state: SQuarrelsState, seat: int | None, array: NDArray[np.float32]) -> None:
        """:meth:`fill` of ``state.observe(seat)`` read from the state's fields, by the compiled
        ``squarrels_direct``."""
        with memoryview(cast(Any, array)) as view:
            self._direct.fill(state, seat, view)


def encoder(game: Game[Any], players: int) -> Encoder:
    """The S'Quarrels encoder for ``players`` seats under ``game``'s options."""
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"S'Quarrels seats {game.min_players}–{game.max_players} players, not {players}")
    return SQuarrelsEncoder(game, players)
