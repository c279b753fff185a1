"""S'Quarrels options: every default of RULINGS §1.3 and every named variant."""

from __future__ import annotations

from dataclasses import dataclass

from oakwood.engine import InvalidOptionError, Options, option


@dataclass(frozen=True)
class SQuarrelsOptions(Options):
    """The ruleset of a S'Quarrels match. Defaults are Oakwood's rulings; every variant is named."""

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
        if self.single_round and self.target_score != 50:
            raise InvalidOptionError("target_score has no effect with single_round=true; set only one of them")
