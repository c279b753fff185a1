"""What players read: the exact log lines and table text of S'Quarrels scenarios (issue 8 §4).

Each scenario is a position in notation played a few moves; the test asserts the English a spectator (or a
seat) reads, and that the event data behind it carries the truth (which cards the winner took, where the
Golden went, how a tie went on).
"""

from __future__ import annotations

from typing import Any

import oakwood
from oakwood.engine import State
from oakwood.games.squarrels.cards import NAMES, WINTER
from tests.games.squarrels.helpers import GAME, SINGLE, last_events, play, position
from tests.games.squarrels.test_setup_and_rounds import find_seed, reference_deal

WILD = oakwood.load("squarrels", golden_wild_in_sets=True)
MANDATORY = oakwood.load("squarrels", whirlwind_draw="mandatory_to_7")
SHARED = oakwood.load("squarrels", target_tie="shared_win")


def said(state: State, kind: str, seat: int | None = None) -> list[str]:
    """The log lines of every event of ``kind``, as ``seat`` reads them (None: a spectator)."""
    return [state.game.describe_event(event) for event in last_events(state, kind, seat)]


def log_lines(state: State, seat: int | None = None) -> list[str]:
    return [state.game.describe_event(event) for event in state.events_seen_by(seat)]


def table(state: State, seat: int | None) -> list[str]:
    return state.game.render(state.observe(seat)).splitlines()


# ---------------------------------------------------------------------------------------------- the Quarrel
def test_a_golden_played_with_other_cards_goes_to_discard_not_to_the_winner() -> None:
    state = position(3, "43/5/G11", deck="WQ")
    play(state, "P1 draw", "P1 play 4", "P2 play 5", "P3 play golden")
    event = last_events(state, "quarrel_won")[-1]
    assert event["cards"] == ["4", "5"] and event["golden_to_discard"] is True
    assert said(state, "quarrel_won") == [
        "P3 wins the Quarrel and takes 4, 5; the played Golden Acorn goes to Discard."
    ]


def test_a_golden_played_as_the_last_card_is_kept_sq7() -> None:
    state = position(3, "43/5/G", deck="WQ")
    play(state, "P1 draw", "P1 play 4", "P2 play 5", "P3 play golden")
    assert said(state, "quarrel_won") == ["P3 wins the Quarrel and takes 4, 5, Golden."]


def test_a_lone_player_who_plays_the_golden_takes_nothing() -> None:
    state = position(3, "G1/-/-", deck="WQ")  # SQ-21: P1 alone holds cards and plays alone
    play(state, "P1 draw", "P1 play golden")
    assert said(state, "quarrel_won") == ["P1 wins the Quarrel; the played Golden Acorn goes to Discard."]


def test_a_tie_settled_by_a_drop_out_does_not_say_play_again() -> None:
    state = position(3, "5/53/2", deck="Q")
    play(state, "P1 draw", "P1 play 5", "P2 play 5", "P3 play 2")
    assert last_events(state, "quarrel_reveal")[-1]["again"] == [] and last_events(state, "quarrel_reveal")[-1][
        "out"
    ] == [0]
    assert log_lines(state)[-2:] == [
        "Quarrel reveal: P1 5, P2 5, P3 2 — a tie, but P1 has no cards left.",
        "P2 wins the Quarrel and takes 2, 5, 5.",
    ]


def test_a_tie_settled_by_a_draw_says_so() -> None:
    state = position(3, "5/5/23", deck="Q")
    play(state, "P1 draw", "P1 play 5", "P2 play 5", "P3 play 2")
    assert log_lines(state)[-2:] == [
        "Quarrel reveal: P1 5, P2 5, P3 2 — a tie, but P1 and P2 have no cards left.",
        "The Quarrel is a draw: every card goes back to its owner.",
    ]


def test_a_tie_played_again_names_who_plays() -> None:
    state = position(4, "54/53/2/-", deck="Q")
    play(state, "P1 draw", "P1 play 5", "P2 play 5", "P3 play 2")
    assert said(state, "quarrel_reveal") == ["Quarrel reveal: P1 5, P2 5, P3 2 — a tie! P1 and P2 play again."]
    survivor = position(3, "54/5/2", deck="Q", game=oakwood.load("squarrels", quarrel_exhaustion="survivor_plays"))
    play(survivor, "P1 draw", "P1 play 5", "P2 play 5", "P3 play 2")
    assert said(survivor, "quarrel_reveal") == [
        "Quarrel reveal: P1 5, P2 5, P3 2 — a tie! P1 plays again alone; P2 is out of cards."
    ]


def test_a_quarrel_nobody_can_play() -> None:
    state = position(3, "-/-/-", deck="Q")
    play(state, "P1 draw")
    assert said(state, "quarrel_drawn") == ["Nobody holds a card: the Quarrel is over before it starts."]


def test_a_whirlwind_over_empty_hands_says_so() -> None:
    state = position(3, "-/-/-", deck="V")
    play(state, "P1 draw")
    assert said(state, "whirlwind") == ["Whirlwind! But every hand is empty: there is nothing to shuffle."]
    state = position(3, "12/-/3", deck="V")
    play(state, "P1 draw")
    assert said(state, "whirlwind") == ["Whirlwind! Every hand is shuffled together and dealt again from P1."]


# ---------------------------------------------------------------------------------------------- the Hoard
def test_an_empty_hoard_pile_is_not_listed_as_zero_cards() -> None:
    state = position(3, "1/2/3", deck="H")
    play(state, "P1 draw")
    assert (
        table(state, None)[-2]
        == "Hoard drawn by P1: an empty Hoard Pile, but the winner takes the turn. Racing: P2 and P3"
    )
    play(state, "P3 slap")
    assert said(state, "hoard_won") == ["P3 wins the race for the Hoard Pile, but it is empty."]
    assert said(state, "hoard_won", 2) == ["P3 wins the race for the Hoard Pile, but it is empty."]


def test_one_hoard_card_is_singular() -> None:
    state = position(3, "1/2/3", deck="H", hoard="5@2")
    play(state, "P1 draw")
    assert table(state, None)[-2] == "Hoard drawn by P1: 1 card up for grabs. Racing: P2 and P3"
    play(state, "P3 slap")
    assert said(state, "hoard_won") == ["P3 grabs the Hoard Pile (1 card)."]
    assert said(state, "hoard_won", 2) == ["P3 grabs the Hoard Pile (1 card): 5."]


def test_several_hoard_cards_are_listed_in_rank_order() -> None:
    state = position(3, "1/2/3", deck="H", hoard="5@2,R@1,3@2")
    play(state, "P1 draw", "P3 slap")
    assert said(state, "hoard_won", 2) == ["P3 grabs the Hoard Pile (3 cards): Rotten, 3, 5."]


# ---------------------------------------------------------------------------------------------- the table
ALL_STORED = {  # every Number card stored, every Action but Winter in Discard: one card in the Deck
    "storage": "1111111111333333/222222224444555",
    "discard": "QQQQQQQQHHHHHHHHAAAAAAVV",
}


def test_one_card_is_singular_on_the_table() -> None:
    state = position(2, "G/R", **ALL_STORED)
    lines = table(state, 0)
    assert lines[1] == "Deck 1 card · Hoard Pile 0 face down · Discard: Quarrel×8, Hoard×8, Ambush×6, Whirlwind×2"
    assert lines[3] == (
        "▶ P1 (you) total    0 · hand 1 card · stored [111] [111] [111] [111] [111] [111] [111] [111] [111] [111] "
        "[333] [333] [333] [333] [333] [333]"
    )
    assert lines[4] == (
        "  P2       total    0 · hand 1 card · stored [222] [222] [222] [222] [222] [222] [222] [222] [444] [444] "
        "[444] [444] [555] [555] [555]"
    )


def test_zero_and_several_cards_are_plural() -> None:
    state = position(2, "12/-")
    lines = table(state, None)
    assert " · hand 2 cards · " in lines[3] and " · hand 0 cards · " in lines[4]
    assert lines[1].startswith("Deck 118 cards · ")


def test_a_set_completed_by_the_golden_shows_it() -> None:
    state = position(2, "1/2", storage="2*2/-", game=WILD)
    assert table(state, None)[3].endswith("stored [22G] [222]")
    state = position(2, "1/2", storage="12*/-", game=WILD)
    assert table(state, None)[3].endswith("stored [111] [22G]")


def test_the_drawing_phase_says_what_is_possible() -> None:
    assert table(position(2, "-/2", phase="drawing"), None)[-1] == "P1: drawing (no cards: draw, or end the turn)"
    assert table(position(2, "1234512/2", phase="drawing"), None)[-1] == (
        "P1: 7 cards or more: no more drawing (store sets, or discard to end the turn)"
    )
    forced = position(2, "12/2", phase="drawing", whirl=1, discard="V", game=MANDATORY)
    assert table(forced, None)[-1] == "P1: drawing (after the Whirlwind: must draw up to 7 cards)"


# ---------------------------------------------------------------------------------------------- rounds and the end
def test_round_end_and_a_shared_win() -> None:
    state = position(2, "1/2", deck="W", storage="34/34", round_no=3, last="22,22", totals="45,45", game=SHARED)
    play(state, "P1 draw")
    assert log_lines(state)[-2:] == [
        "Winter ends round 3: P1 +7, P2 +7. Totals: P1 52, P2 52.",
        "The match is over: P1 and P2 share the win. Totals: P1 52, P2 52.",
    ]
    assert table(state, None)[-1] == "Match over — winners: P1 and P2. Final totals: P1 52, P2 52"


def test_a_single_winner_and_a_negative_score() -> None:
    state = position(2, "R/2", deck="W", storage="-/5", game=SINGLE)
    play(state, "P1 draw")
    assert log_lines(state)[-2:] == [
        "Winter ends round 1: P1 -5, P2 +5. Totals: P1 -5, P2 5. P1 shows the Rotten Acorn.",
        "The match is over: P2 wins. Totals: P1 -5, P2 5.",
    ]
    assert table(state, 0)[-1] == "Match over — winner: P2. Final totals: P1 -5, P2 5"


def _round_start(game: Any, seed: int) -> str:
    return str(game.describe_event(last_events(game.new_state(4, seed), "round_start")[0]))


def _counted(cards: list[int]) -> str:
    names = [NAMES[c] for c in sorted(cards)]
    return ", ".join(
        n.capitalize() if names.count(n) == 1 else f"{n.capitalize()} ×{names.count(n)}" for n in dict.fromkeys(names)
    )


def test_the_deal_says_where_the_set_aside_cards_went() -> None:
    seed = find_seed(4, "p2_hoard_winter")
    dealer, _, _, aside = reference_deal(seed, 4)
    head = f"Round 1 is dealt by P{dealer + 1}."
    assert _round_start(GAME, seed) == (
        f"{head} Winter came up in the deal: the set-aside cards ({_counted(aside)}) were shuffled back into the Deck."
    )
    winter_only = oakwood.load("squarrels", setup_winter_reshuffle="winter_only")
    others = [c for c in aside if c != WINTER]
    assert _round_start(winter_only, seed) == (
        f"{head} Winter came up in the deal and was shuffled back into the Deck; "
        f"the other set-aside cards went to Discard: {_counted(others)}."
    )
    seed = find_seed(3, "no_winter")
    dealer, _, _, aside = reference_deal(seed, 3)
    event = last_events(GAME.new_state(3, seed), "round_start")[0]
    assert event["to_deck"] == []
    assert GAME.describe_event(event) == (
        f"Round 1 is dealt by P{dealer + 1}. Dealt Action cards go to Discard and are replaced: {_counted(aside)}."
    )
