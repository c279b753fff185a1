"""Nutty Squirrels options: every default of RULINGS §3.3 and every named variant."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from oakwood.engine import Options, option

from .cards import (
    COMPOSITION_MAX_CARDS,
    EVENTS,
    KINDS,
    LEAVES,
    NAME,
    PROPOSED_V1,
    TREE_SIZE,
    canonical_composition,
    composition,
)


@dataclass(frozen=True)
class NuttyOptions(Options):
    """The ruleset of a Nutty Squirrels match. Defaults are Oakwood's rulings; every variant is named."""

    deck_composition: str = option(
        "proposed_v1",
        ruling="NS-1",
        help=(
            "The leaf deck: proposed_v1 (RULINGS §3.1.1), or a JSON object of kind code: count such as "
            '{"1": 20, "G": 5, "BB": 5} (from a file: -o deck_composition=@deck.json).'
        ),
    )
    break_tokens_beyond: str = option(
        "fall",
        choices=("fall", "slide_to_break"),
        ruling="NS-6",
        help="Squirrels beyond a limb break fall, or slide inward to the break keeping their acorns.",
    )
    wind_gust_turn_end: str = option(
        "only_if_active_falls",
        choices=("only_if_active_falls", "always"),
        ruling="NS-7",
        help="A revealed Wind Gust ends the turn only if the revealer fell, or always.",
    )
    fools_gold_includes_backpack: bool = option(
        True, ruling="NS-8", help="Fool's Gold also reaches a golden acorn in the Backpack."
    )
    arborist_mode: str = option(
        "reveal_only",
        choices=("reveal_only", "chain"),
        ruling="NS-10",
        help="The Arborist only reveals the limb, or every revealed card resolves as if flipped.",
    )
    lasso_lateral_with_flying: bool = option(
        False, ruling="NS-11", help="With Flying Squirrel, the Lasso may also pull from the same position next door."
    )
    doppelganger_duration: str = option(
        "rest_of_turn",
        choices=("rest_of_turn", "single_use"),
        ruling="NS-13",
        help="A Doppelgänger copy lasts the rest of the turn, or for one use of the copied power.",
    )
    doppel_sticky: str = option(
        "steal_one",
        choices=("steal_one", "take_tracked_loot"),
        ruling="NS-13",
        help="Copying Sticky Fingers gives one steal, or takes the loot tracked on a thief's card.",
    )
    end_trigger: str = option(
        "tree_all_revealed",
        choices=("tree_all_revealed", "all_cards_revealed"),
        ruling="NS-14",
        help="The end triggers when no face-down card is left on the tree, or also the Leaf Deck is empty.",
    )
    max_rounds: int = option(
        60, minimum=1, maximum=10_000, ruling="NS-14", help="Safety: the game is scored after this many rounds."
    )
    win_at_20: str = option(
        "immediate",
        choices=("immediate", "finish_round"),
        ruling="NS-15",
        help="Burying 20 points wins at once, or ends the game after the current round.",
    )
    tb_golden_scope: str = option(
        "burrow",
        choices=("burrow", "all_possessed"),
        ruling="NS-15",
        help="First tie-break: golden acorns buried, or every golden acorn a player holds.",
    )
    solo_keep_events: bool = option(
        False, ruling="NS-17", help="Solo keeps the other events in the deck (only Broken Branches by default)."
    )
    solo_max_actions: int = option(
        3000, minimum=10, maximum=1_000_000, ruling="NS-17", help="Safety: a solo game ends after this many actions."
    )

    def _validate(self) -> None:
        # One text per composition, so equal decks give equal options (and the option round-trips through
        # to_dict, JSON and repr); this also checks a custom composition now, so a bad one fails at load time.
        object.__setattr__(self, "deck_composition", canonical_composition(self.deck_composition))

    @classmethod
    def editors(cls) -> dict[str, dict[str, Any]]:
        """The deck composition is edited as counts of each card kind, starting from a named deck (NS-1)."""
        groups = {kind: "leaf" if kind in LEAVES else "event" if kind in EVENTS else "power" for kind in KINDS}
        return {
            "deck_composition": {
                "kind": "counts",
                "presets": {"proposed_v1": {kind: PROPOSED_V1.get(kind, 0) for kind in KINDS}},
                "items": [{"code": kind, "name": NAME[kind], "group": groups[kind]} for kind in KINDS],
                "min_total": TREE_SIZE,
                "max_total": COMPOSITION_MAX_CARDS,
            }
        }

    @cached_property
    def cards(self) -> dict[str, int]:
        """The deck composition these options select, as {kind: count}."""
        return composition(self.deck_composition)
