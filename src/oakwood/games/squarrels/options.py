"""S'Quarrels options: every default of RULINGS §1.3 and every named variant."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from oakwood.engine import InvalidOptionError, Options, option

from .cards import (
    ACTIONS,
    COMPOSITION_MAX_CARDS,
    DECKS,
    GOLDEN,
    HAND_LIMIT,
    NUMBERS,
    ROTTEN,
    SYMBOLS,
    TITLES,
    WINTER,
    canonical_composition,
    composition,
)


@dataclass(frozen=True)
class SQuarrelsOptions(Options):
    """The ruleset of a S'Quarrels match. Defaults are Oakwood's rulings; every variant is named."""

    deck_composition: str = option(
        "standard",
        ruling="SQ-26",
        help=(
            "The deck: standard (the rulebook's 120 cards), or a JSON object of card: count such as "
            '{"1": 24, "2": 24, "3": 18, "4": 12, "5": 9, "Q": 8, "H": 8, "A": 6, "V": 2, "W": 1} '
            "(cards R 1-5 G Q H A V W, or their names; from a file: -o deck_composition=@deck.json)."
        ),
    )
    target_score: int = option(50, minimum=1, maximum=1000, help="Total score that ends the match.")
    single_round: bool = option(False, help="Play one round only; the highest round score wins.")
    setup_winter_reshuffle: str = option(
        "all_setup_discards",
        choices=("all_setup_discards", "winter_only"),
        ruling="SQ-2",
        help="Winter drawn in setup: reshuffle every set-aside Action card, or only Winter.",
    )
    whirlwind_draw: str = option(
        "optional",
        choices=("optional", "mandatory_to_7"),
        ruling="SQ-4",
        help="After a Whirlwind the drawer may draw up to 7, or must.",
    )
    quarrel_winner_may_draw: bool = option(
        False, ruling="SQ-5", help="The Quarrel winner may draw up to 7 before storing."
    )
    quarrel_exhaustion: str = option(
        "drop_out",
        choices=("drop_out", "any_out_draws", "survivor_plays"),
        ruling="SQ-6",
        help="Tied Quarrel players out of cards: drop out; the Quarrel is drawn; or a lone survivor plays again.",
    )
    golden_lost_scope: str = option(
        "round", choices=("round", "match"), ruling="SQ-7", help="A played Golden is lost for the round or match."
    )
    golden_wild_in_sets: bool = option(
        False, ruling="SQ-8", help="The Golden may complete a set of two equal Number cards."
    )
    hoard_drawer_may_race: bool = option(False, ruling="SQ-11", help="The player who drew the Hoard may race.")
    hoard_empty_skips: bool = option(
        False, ruling="SQ-11", help="An empty Hoard Pile triggers no race (the drawer just stores and discards)."
    )
    hoard_race: str = option(
        "realtime",
        choices=("realtime", "random", "seat_order"),
        ruling="SQ-12",
        help="realtime: first slap wins (a race decision); random / seat_order: everyone commits slap or pass "
        "and a random slapper, or the first clockwise from the drawer, wins.",
    )
    hoard_race_window_s: float = option(
        5.0, minimum=0.5, maximum=60.0, ruling="SQ-12b", help="Real-time race window before silence counts as pass."
    )
    set_scoring: str = option(
        "face_value", choices=("face_value", "per_card"), ruling="SQ-16", help="A stored set scores its face value."
    )
    target_tie: str = option(
        "extra_round",
        choices=("extra_round", "shared_win"),
        ruling="SQ-18",
        help="Equal highest totals at the target: play another round, or share the win.",
    )

    def _validate(self) -> None:
        # One text per composition, so equal decks give equal options (and the option round-trips through
        # to_dict, JSON and repr); this also checks a custom deck now, so a bad one fails at load time.
        object.__setattr__(self, "deck_composition", canonical_composition(self.deck_composition))
        if self.single_round and self.target_score != 50:
            raise InvalidOptionError("target_score has no effect with single_round=true; set only one of them")

    @classmethod
    def editors(cls) -> dict[str, dict[str, Any]]:
        """The deck is edited as counts of each card, starting from a named deck (SQ-26)."""

        def group(card: int) -> str:
            return "number" if card in NUMBERS else "action" if card in ACTIONS else "special"

        def limits(card: int) -> dict[str, int]:
            # What the deck's check enforces card by card, so a form (or a search) offers only those counts.
            if card == WINTER:
                return {"min": 1, "max": 1}
            return {"max": 1} if card in (GOLDEN, ROTTEN) else {}

        return {
            "deck_composition": {
                "kind": "counts",
                "presets": {name: {SYMBOLS[c]: n for c, n in enumerate(counts)} for name, counts in DECKS.items()},
                "items": [
                    {"code": code, "name": TITLES[c], "group": group(c), **limits(c)} for c, code in enumerate(SYMBOLS)
                ],
                "min_total": 2 * HAND_LIMIT + 1,  # two hands of 7 Number cards and the Winter
                "max_total": COMPOSITION_MAX_CARDS,
            }
        }

    @cached_property
    def cards(self) -> tuple[int, ...]:
        """The count of each card (indexed by card, ``cards.py``) in the deck these options select."""
        return composition(self.deck_composition)
