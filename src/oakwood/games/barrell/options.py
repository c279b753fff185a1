"""Barrell options: every ruling default of RULINGS §2 and every named variant (default listed first)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from oakwood.engine import Options, option

from .cards import DECKS, HAND_SIZE, NAMES, PRETTY, SUITS, canonical_composition, cards_of, composition


@dataclass(frozen=True)
class BarrellOptions(Options):
    """The Barrell ruleset. Each field cites the ruling it implements; see ``rules.md``."""

    deck_composition: str = option(
        "standard",
        help=(
            "the deck: standard (the rulebook's 54 cards), or a JSON object of card: 0 or 1, every card unique, "
            'such as {"AC": 1, "2C": 1, …} (from a file: -o deck_composition=@deck.json)'
        ),
        ruling="BR-24",
    )
    mulligan_mode: str = option(
        "sequential",
        choices=("sequential", "simultaneous"),
        help="mulligan one player at a time from the first player, or all at once as a hidden commit",
        ruling="BR-4",
    )
    discard_recycle: str = option(
        "only_when_deck_empty",
        choices=("only_when_deck_empty", "every_battle"),
        help="when the battle Discard pile is shuffled back into the Deck",
        ruling="BR-4",
    )
    heart_gift: str = option(
        "one_opponent",
        choices=("one_opponent", "split_per_card"),
        help="all your numbered hearts go to one opponent, or each heart to an opponent of your choice",
        ruling="BR-5",
    )
    heart_gift_timing: str = option(
        "simultaneous",
        choices=("simultaneous", "seat_order"),
        help="heart recipients are named as a hidden commit, or openly in seat order from the first player",
        ruling="BR-5",
    )
    queen_zone_order: str = option(
        "queens_then_kod",
        choices=("queens_then_kod", "seat_order"),
        help="apply every Queen before the King of Diamonds, or place Queen Zone cards in seat order",
        ruling="BR-7",
    )
    kod_scope: str = option(
        "per_player",
        choices=("per_player", "global"),
        help="the King of Diamonds destroys each field's highest card(s), or only the table's highest",
        ruling="BR-9",
    )
    kod_ignores_hearts: bool = option(
        False, help="the King of Diamonds never destroys hearts (default: hearts count by magnitude)", ruling="BR-9"
    )
    kc_after_queen: bool = option(
        True, help="the King of Clubs doubles after the Queens (a Queen-reduced 1 counts 2)", ruling="BR-10"
    )
    kh_timing: str = option(
        "after_scoring",
        choices=("after_scoring", "before_scoring"),
        help="when the King of Hearts returns a card from its controller's field to hand",
        ruling="BR-10",
    )
    kh_given_with_hearts: bool = option(
        False, help="the King of Hearts is given away together with its owner's hearts", ruling="BR-10"
    )
    jos_mode: str = option(
        "choose_one",
        choices=("choose_one", "rotate_all"),
        help="the Jack of Spades swaps with one chosen opponent, or every field moves one seat to the left",
        ruling="BR-11",
    )
    jos_initiator_may_look: bool = option(
        False,
        help="the Jack of Spades player may look at the face-down cards of the field it receives",
        ruling="BR-11",
    )
    jod_scope: str = option(
        "rest_of_battle",
        choices=("rest_of_battle", "cards_on_table_only"),
        help="the Jack of Diamonds cancels every other face card for the rest of the battle, or only those "
        "already on the table",
        ruling="BR-11",
    )
    jod_suppresses_ace_bonus: bool = option(
        False, help="face cards cancelled by the Jack of Diamonds no longer make an Ace worth 11", ruling="BR-11"
    )
    joker_timing: str = option(
        "at_reveal",
        choices=("at_reveal", "after_provisional_score"),
        help="the Joker is decided at reveal (E2), or after hearts and the Queen Zone with a provisional score",
        ruling="BR-12",
    )
    battle_tie: str = option(
        "no_winner",
        choices=("no_winner", "all_tied_win"),
        help="a tied battle has no winner, or every tied player wins it",
        ruling="BR-14",
    )
    max_consecutive_drawn_battles: int = option(
        3,
        minimum=1,
        maximum=100,
        help="the game ends after this many battles in a row without a sole winner",
        ruling="BR-15",
    )

    def _validate(self) -> None:
        # One text per composition, so equal decks give equal options (and the option round-trips through
        # to_dict, JSON and repr); this also checks a custom deck now, so a bad one fails at load time.
        object.__setattr__(self, "deck_composition", canonical_composition(self.deck_composition))

    @classmethod
    def editors(cls) -> dict[str, dict[str, Any]]:
        """The deck is edited as a count (0 or 1) of each card, starting from a named deck (BR-24)."""
        groups = [*(f"suit-{s.lower()}" for s in SUITS), "joker"]
        return {
            "deck_composition": {
                "kind": "counts",
                "presets": {name: {NAMES[c]: 1 for c in cards_of(mask)} for name, mask in DECKS.items()},
                "items": [
                    {"code": code, "name": PRETTY[c], "group": groups[min(c // 13, 4)], "max": 1}
                    for c, code in enumerate(NAMES)
                ],
                "min_total": 2 * HAND_SIZE,
                "max_total": len(NAMES),
            }
        }

    @cached_property
    def cards(self) -> int:
        """The cards of the deck these options select, as a bit mask of card ids (``cards.py``)."""
        return composition(self.deck_composition)
