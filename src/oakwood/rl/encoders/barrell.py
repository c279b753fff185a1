"""Barrell observation tensor: everything ``observe(seat)`` shows, as a fixed-size float32 vector.

Conventions: per-seat fields hold one block per seat, rotated so the observing seat comes first and the others
follow clockwise (block ``r`` is seat ``(seat + r) % players``); a spectator is encoded from seat 0 with an
empty hand. Card sets are 54-wide indicator vectors in card-id order (suits C, D, H, S, ranks A, 2–10, J, Q, K
within each suit, then the red and the black Joker). Sizes and scores are divided by the scale given in each
field's meaning (battle scores may be negative); flags and one-hots are 0 or 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from oakwood.engine import Game
from oakwood.games.barrell.actions import GIFTABLE_CARDS
from oakwood.games.barrell.cards import BY_NAME, DECK_SIZE, HAND_SIZE, RANK, SUIT
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
from oakwood.rl.tensors import DECISIONS, Encoder, Layout, relative_seats, seat_blocks

PHASES = (MULLIGAN_PHASE, PLAY_PHASE, SWAP_PHASE, JOKERS, HEARTS, KING_OF_HEARTS_PHASE, KING_OF_SPADES_PHASE, OVER)
CARDS_TEXT = "54 cards in id order (A–K of clubs, diamonds, hearts, spades; red, black Joker)"
WINS_TO_WIN = 2  # the first player to win 2 battles wins (rules "Barrell")
BATTLE_SCALE = 10  # battles are counted in tens
SCORE_SCALE = 40  # a battle score in forties (ten numbered cards, an Ace at 11, a King of Clubs)
MULLIGAN_LIMIT = 3  # at most three cards set aside (BR-4)
SUIT_COUNT = 5  # clubs, diamonds, hearts, spades, and the Jokers as a fifth "suit"
RANK_COUNT = 14  # A … K, and the Jokers


def _card_ids(names: list[str]) -> list[int]:
    return [BY_NAME[name] for name in names]


class BarrellEncoder(Encoder):
    """The Barrell tensor at one table size and ruleset (see the module docstring for the conventions)."""

    def __init__(self, game: Game[Any], players: int) -> None:
        n = players
        options = game.options
        self.split_gifts = options.heart_gift == "split_per_card"
        self.covered_slots = options.jod_scope == "cards_on_table_only"
        self.drawn_limit = float(options.max_consecutive_drawn_battles)
        layout = Layout()
        per = seat_blocks(n)

        def blocks(k: int) -> str:
            return seat_blocks(n, k)

        # -- the position as a whole
        layout.add("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES))
        layout.add("decision", len(DECISIONS), "decision one-hot: " + ", ".join(DECISIONS))
        layout.add("terminal", 1, "1 when the game is over")
        layout.add("battle", 1, f"battle number / {BATTLE_SCALE}, at most 1")
        layout.add("drawn_streak", 1, "battles in a row without a sole winner / the limit that ends the game (BR-15)")
        layout.add("deck_size", 1, f"cards in the Deck / {DECK_SIZE}")
        layout.add("jack_of_diamonds", 1, "1 while a Jack of Diamonds cancels face cards (BR-11)")
        layout.add("discard", DECK_SIZE, f"Discard pile: {CARDS_TEXT}")
        layout.add("queen_zone", DECK_SIZE, f"Queen Zone: {CARDS_TEXT}")
        layout.add(
            "cancelled", DECK_SIZE, f"Jacks played after the Jack of Diamonds, so without effect (BR-11): {CARDS_TEXT}"
        )
        # -- the observing seat's own cards
        layout.add("hand", DECK_SIZE, f"own hand: {CARDS_TEXT}")
        layout.add("hand_suits", SUIT_COUNT, "own hand: count per suit (clubs, diamonds, hearts, spades, Jokers)")
        layout.add("hand_ranks", RANK_COUNT, "own hand: count per rank (A, 2–10, J, Q, K, Joker)")
        layout.add("hand_size", 1, f"own hand size / {HAND_SIZE}")
        layout.add("aside", DECK_SIZE, f"own cards set aside in the mulligan: {CARDS_TEXT}")
        layout.add(
            "unseen",
            DECK_SIZE,
            f"cards the seat cannot see anywhere ({CARDS_TEXT}): not in its hand, set aside, Discard, the Queen "
            "Zone, a field (face up or known), known or recalled in another hand — so in the Deck, unknown in "
            "a hand, or face down unknown",
        )
        layout.add("my_gift", n, f"{per}: own hidden heart recipient (BR-5), one-hot")
        if self.split_gifts:
            layout.add(
                "my_gifts",
                len(GIFTABLE_CARDS) * n,
                f"{len(GIFTABLE_CARDS)} giftable cards (A♥–10♥, K♥), each {per}: "
                "own recipient of that card (split_per_card)",
            )
        layout.add("provisional_known", 1, "1 when provisional scores are shown (joker_timing variant)")
        layout.add("battle_scores_known", 1, "1 once this battle has been scored")
        # -- every seat's public facts (rotated)
        layout.add("seat_to_act", n, f"{per}: 1 if the seat is to act")
        layout.add("seat_active", n, f"{per}: 1 for the player whose turn it is")
        layout.add("seat_first", n, f"{per}: 1 for the first player of this battle")
        layout.add("seat_passed", n, f"{per}: 1 for a player who has passed this battle")
        layout.add("seat_wins", n, f"{per}: battles won / {WINS_TO_WIN}")
        layout.add("seat_winner", n, f"{per}: 1 for a winner of the game")
        layout.add("seat_battle_winner", n, f"{per}: 1 for a winner of the last battle scored")
        layout.add("seat_hand_size", n, f"{per}: hand size / {HAND_SIZE}")
        layout.add("seat_aside_size", n, f"{per}: cards set aside in the mulligan / {MULLIGAN_LIMIT} (0 when hidden)")
        layout.add("seat_aside_hidden", n, f"{per}: 1 when that count is hidden (simultaneous mulligan)")
        layout.add("seat_must_commit", n, f"{per}: 1 for a seat that takes part in the pending hidden choice")
        layout.add("seat_committed", n, f"{per}: 1 for a seat that has made its hidden choice (not which)")
        layout.add("seat_provisional", n, f"{per}: provisional battle score / {SCORE_SCALE}")
        layout.add("seat_battle_score", n, f"{per}: battle score / {SCORE_SCALE}")
        layout.add("seat_field_size", n, f"{per}: cards in the field / {HAND_SIZE}")
        layout.add("seat_field_face_up", n, f"{per}: face-up cards in the field / {HAND_SIZE}")
        layout.add("seat_field_hidden", n, f"{per}: face-down cards the observer cannot identify / {HAND_SIZE}")
        layout.add(
            "seat_field",
            n * DECK_SIZE,
            f"{blocks(54)}: cards of that field the observer can identify (face up, or face down and known to it)",
        )
        layout.add(
            "seat_known",
            n * DECK_SIZE,
            f"{blocks(54)}: cards the observer knows in that hand; in its own block, what everyone knows it holds",
        )
        layout.add(
            "seat_recalled",
            n * DECK_SIZE,
            f"{blocks(54)}: cards everyone knows to be in that hand or among its player's face-down plays (BR-23)",
        )
        layout.add(
            "seat_to_give",
            n * DECK_SIZE,
            f"{blocks(54)}: hearts that player gives away (hearts phase)",
        )
        if self.covered_slots:
            layout.add(
                "seat_covered",
                n,
                f"{per}: field slots on the table before the Jack of Diamonds / {HAND_SIZE} (cards_on_table_only)",
            )
            layout.add(
                "covered",
                DECK_SIZE,
                f"identified cards on the table before the Jack of Diamonds: {CARDS_TEXT}",
            )
        super().__init__(game, players, layout)
        self._at = {f.name: f.offset for f in layout.fields}
        self._giftable = {card: i for i, card in enumerate(GIFTABLE_CARDS)}

    def fill(self, observation: Mapping[str, Any], out: NDArray[np.float32]) -> None:
        """Write ``observation`` (a seat's or a spectator's) into the zeroed ``out``."""
        at = self._at
        n = self.players
        obs = observation
        seat = obs["seat"]
        me = 0 if seat is None else seat
        rel = relative_seats(me, n)  # seat -> block index
        seen = [False] * DECK_SIZE

        def cards(name: str, names: list[str], block: int = 0) -> None:
            base = at[name] + block * DECK_SIZE
            for card in _card_ids(names):
                out[base + card] = 1
                seen[card] = True

        out[at["phase"] + PHASES.index(obs["phase"])] = 1
        out[at["decision"] + DECISIONS.index(obs["decision"])] = 1
        out[at["terminal"]] = float(obs["terminal"])
        out[at["battle"]] = min(obs["battle"] / BATTLE_SCALE, 1.0)
        out[at["drawn_streak"]] = obs["drawn_streak"] / self.drawn_limit
        out[at["deck_size"]] = obs["deck_size"] / DECK_SIZE
        out[at["jack_of_diamonds"]] = float(obs["jack_of_diamonds"])
        cards("discard", obs["discard"])
        cards("queen_zone", obs["queen_zone"])
        cards("cancelled", obs["cancelled"])

        hand = obs["hand"] or []
        cards("hand", hand)
        for card in _card_ids(hand):
            suit = SUIT[card]
            out[at["hand_suits"] + (suit if suit >= 0 else SUIT_COUNT - 1)] += 1
            rank = RANK[card]
            out[at["hand_ranks"] + (rank - 1 if rank else RANK_COUNT - 1)] += 1
        out[at["hand_size"]] = len(hand) / HAND_SIZE
        cards("aside", obs["aside"] or [])
        if "my_gift" in obs:
            out[at["my_gift"] + rel[obs["my_gift"]]] = 1
        if self.split_gifts:
            for name, target in obs.get("my_gifts", {}).items():
                out[at["my_gifts"] + self._giftable[BY_NAME[name]] * n + rel[target]] = 1

        provisional = obs["provisional_scores"]
        out[at["provisional_known"]] = float(provisional is not None)
        battle_scores = obs["battle_scores"]
        out[at["battle_scores_known"]] = float(battle_scores is not None)
        committed = obs["committed"]
        for s in range(n):
            r = rel[s]
            out[at["seat_to_act"] + r] = float(s in obs["to_act"])
            out[at["seat_active"] + r] = float(s == obs["active"])
            out[at["seat_first"] + r] = float(s == obs["first_player"])
            out[at["seat_passed"] + r] = float(obs["passed"][s])
            out[at["seat_wins"] + r] = obs["wins"][s] / WINS_TO_WIN
            out[at["seat_winner"] + r] = float(s in obs["winners"])
            out[at["seat_battle_winner"] + r] = float(s in obs["battle_winners"])
            out[at["seat_hand_size"] + r] = obs["hand_sizes"][s] / HAND_SIZE
            aside = obs["aside_sizes"][s]
            if aside is None:
                out[at["seat_aside_hidden"] + r] = 1
            else:
                out[at["seat_aside_size"] + r] = aside / MULLIGAN_LIMIT
            if committed is not None and committed[s] is not None:
                out[at["seat_must_commit"] + r] = 1
                out[at["seat_committed"] + r] = float(committed[s])
            if provisional is not None:
                out[at["seat_provisional"] + r] = provisional[s] / SCORE_SCALE
            if battle_scores is not None:
                out[at["seat_battle_score"] + r] = battle_scores[s] / SCORE_SCALE
            field = obs["fields"][s]
            out[at["seat_field_size"] + r] = len(field) / HAND_SIZE
            out[at["seat_field_face_up"] + r] = sum(slot["face_up"] for slot in field) / HAND_SIZE
            out[at["seat_field_hidden"] + r] = sum(slot["card"] is None for slot in field) / HAND_SIZE
            cards("seat_field", [slot["card"] for slot in field if slot["card"] is not None], r)
            cards("seat_known", obs["known_in_hands"][s], r)
            cards("seat_recalled", obs["recalled"][s], r)
            if obs["to_give"] is not None:
                cards("seat_to_give", obs["to_give"][s], r)
        if self.covered_slots and "before_jack_of_diamonds" in obs:
            for s, covered in enumerate(obs["before_jack_of_diamonds"]):
                field = obs["fields"][s]
                out[at["seat_covered"] + rel[s]] = sum(covered) / HAND_SIZE
                cards("covered", [slot["card"] for slot, c in zip(field, covered, strict=True) if c and slot["card"]])
        base = at["unseen"]
        for card in range(DECK_SIZE):
            if not seen[card]:
                out[base + card] = 1


def encoder(game: Game[Any], players: int) -> Encoder:
    """The Barrell encoder for ``players`` seats under ``game``'s options."""
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"Barrell seats {game.min_players}–{game.max_players} players, not {players}")
    return BarrellEncoder(game, players)
