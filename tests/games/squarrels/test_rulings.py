"""One scenario test per S'Quarrels ruling SQ-1 … SQ-20 (RULINGS.md §1.3), default rules and named variants.

Positions are written in the game's notation through ``helpers.position`` (unplaced cards fill the bottom of
the Deck; ``deck=`` stacks the next draws, last symbol first).
"""

from __future__ import annotations

import pytest

import oakwood
from oakwood.engine import (
    GameOverError,
    InvalidActionError,
    InvalidNotationError,
    InvalidOptionError,
    NotYourTurnError,
)
from tests.games.squarrels.helpers import (
    GAME,
    SINGLE,
    discard_pile,
    fields,
    hand,
    hands,
    last_events,
    legal,
    notation,
    play,
    position,
    rejects,
    storage,
    turn,
)


# ---------------------------------------------------------------------------------------------- SQ-1
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_sq1_two_to_six_players_are_dealt(players: int) -> None:
    state = GAME.new_state(players, seed=11)
    obs = state.observe(None)
    assert obs["players"] == players
    assert obs["hand_sizes"] == [7] * players
    assert obs["deck_size"] + sum(obs["hand_sizes"]) + sum(obs["action_discard"].values()) == 120


def test_sq1_player_count_outside_two_to_six_is_refused() -> None:
    for players in (1, 7):
        with pytest.raises(InvalidOptionError, match="2–6 players"):
            GAME.new_state(players, seed=0)
    text = notation(2, "1/2").replace("players=2", "players=7")
    with pytest.raises(InvalidNotationError, match="between 2 and 6") as info:
        GAME.from_notation(text)
    assert info.value.field == "players"


# ---------------------------------------------------------------------------------------------- SQ-2
# Setup tests through new_state live in test_setup_and_rounds.py (they need seeds found by search).


# ---------------------------------------------------------------------------------------------- SQ-3
def test_sq3_mandatory_draw_then_optional_draws_up_to_seven() -> None:
    state = position(2, "1234/5", deck="5432")
    assert legal(state, 1) == ["draw"]
    rejects(state, "P1 discard 1", match="must draw one card")
    play(state, "P1 draw")
    assert turn(state) == ("P1", "drawing")
    assert "draw" in legal(state, 1) and "discard 1" in legal(state, 1)  # further draws are a choice
    play(state, "P1 draw", "P1 draw")
    assert hand(state, 1) == "1223344"
    assert "draw" not in legal(state, 1)
    rejects(state, "P1 draw", match="fewer than 7 cards")
    play(state, "P1 discard 1")
    assert turn(state) == ("P2", "must_draw")


def test_sq3_storing_closes_drawing_and_six_of_a_kind_makes_two_sets() -> None:
    state = position(2, "11111/5", deck="31")
    play(state, "P1 draw")
    assert legal(state, 1)[:3] == ["draw", "store 1", "discard 1"]
    play(state, "P1 store 1")
    assert turn(state) == ("P1", "storing")
    rejects(state, "P1 draw", match="drawing is over")
    play(state, "P1 store 1")  # the second set of the six 1s
    assert storage(state) == "11/-"
    assert turn(state) == ("P2", "must_draw")  # an empty hand ends the turn without a discard


def test_sq3_storing_is_optional_and_only_in_your_own_turn() -> None:
    state = position(2, "111/222", deck="5")
    play(state, "P1 draw")
    rejects(state, "P2 store 2", NotYourTurnError, match="waiting for P1")
    play(state, "P1 discard 1")  # keeping the set in hand is allowed
    assert storage(state) == "-/-" and hand(state, 1) == "115"
    assert turn(state) == ("P2", "must_draw")
    rejects(state, "P2 store 2", match="must draw")


# ---------------------------------------------------------------------------------------------- SQ-4
def test_sq4_drawn_action_goes_to_discard_and_stops_drawing() -> None:
    state = position(3, "12/34/5", deck="A5")
    play(state, "P1 draw", "P1 draw")  # 5, then the Ambush
    assert discard_pile(state) == {"ambush": 1}
    assert turn(state) == ("P1", "storing")
    rejects(state, "P1 draw", match="drawing is over")


def test_sq4_whirlwind_keeps_drawing_open_and_optional() -> None:
    state = position(2, "12/34", deck="5V")
    play(state, "P1 draw")
    assert discard_pile(state) == {"whirlwind": 1}
    assert state.observe(None)["hand_sizes"] == [2, 2]
    assert turn(state) == ("P1", "drawing")
    assert legal(state, 1)[0] == "draw" and any(a.startswith("discard") for a in legal(state, 1))
    play(state, "P1 draw")  # drawing continues after the Whirlwind
    assert state.observe(None)["hand_sizes"] == [3, 2]


def test_sq4_whirlwind_mandatory_to_7_variant() -> None:
    game = oakwood.load("squarrels", whirlwind_draw="mandatory_to_7")
    state = position(2, "12/34", deck="11111V", game=game)
    play(state, "P1 draw")
    assert legal(state, 1) == ["draw"]
    rejects(state, f"P1 discard {hand(state, 1)[0]}", match="must draw up to 7")
    play(state, "P1 draw", "P1 draw", "P1 draw", "P1 draw", "P1 draw")
    assert state.observe(None)["hand_sizes"] == [7, 2]
    assert "draw" not in legal(state, 1)
    assert "store 1" in legal(state, 1)


# ---------------------------------------------------------------------------------------------- SQ-5
def test_sq5_quarrel_ranks_golden_over_five_over_rotten() -> None:
    # Six players play Rotten, 1, 2, 3, 4 and 5: the 5 wins everything, Rotten included.
    state = position(6, "R1/12/23/34/45/5", deck="Q")
    play(state, "P1 draw")
    assert state.decision == "commit" and state.to_act() == (0, 1, 2, 3, 4, 5)
    play(state, "P1 play rotten", "P2 play 1", "P3 play 2", "P4 play 3", "P5 play 4", "P6 play 5")
    assert hand(state, 6) == "R12345"
    assert turn(state) == ("P6", "storing")
    # The Golden beats a 5.
    state = position(2, "5/G1", deck="Q")
    play(state, "P1 draw", "P1 play 5", "P2 play golden")
    assert hand(state, 2) == "15" and discard_pile(state) == {"golden": 1, "quarrel": 1}


def test_sq5_empty_hands_sit_out_and_everyone_else_must_play() -> None:
    state = position(3, "4/-/2", deck="Q")
    play(state, "P1 draw")
    assert state.to_act() == (0, 2)
    assert state.observe(None)["quarrel"]["live"] == [0, 2]
    rejects(state, "P2 play 1", NotYourTurnError)
    rejects(state, "P1 play 1", match="no 1 card to play")
    assert legal(state, 1) == ["play 4"]  # no way to stay out while holding a card
    play(state, "P1 play 4")
    rejects(state, "P1 play 4", NotYourTurnError, match="waiting for P3")
    play(state, "P3 play 2")
    assert hands(state) == "24/-/-"


def test_sq5_winner_stores_and_discards_without_drawing_and_drawer_is_skipped() -> None:
    state = position(4, "12/13/5442/42", deck="1Q")
    play(state, "P1 draw", "P1 play 1", "P2 play 3", "P3 play 5", "P4 play 4")
    assert turn(state) == ("P3", "storing")
    rejects(state, "P3 draw", match="drawing is over")
    play(state, "P3 store 4", "P3 discard 1")
    assert turn(state) == ("P4", "must_draw")
    assert hands(state) == "2/1/235/2"
    assert fields(state)["hoard"] == "1@3"


def test_sq5_quarrel_winner_may_draw_variant() -> None:
    game = oakwood.load("squarrels", quarrel_winner_may_draw=True)
    state = position(3, "12/5/3", deck="2Q", game=game)
    play(state, "P1 draw", "P1 play 1", "P2 play 5", "P3 play 3")
    assert turn(state) == ("P2", "drawing")
    assert legal(state, 2)[0] == "draw"
    play(state, "P2 draw")
    assert hand(state, 2) == "1235"


# ---------------------------------------------------------------------------------------------- SQ-6
def test_sq6_tied_player_out_of_cards_drops_out() -> None:
    state = position(3, "5/53/2", deck="Q")
    play(state, "P1 draw", "P1 play 5", "P2 play 5", "P3 play 2")
    # P1 is out of cards: P2 is the lone tied player still holding cards and wins without playing again.
    assert hands(state) == "-/2355/-"
    assert turn(state) == ("P2", "storing")
    assert last_events(state, "quarrel_reveal")[0]["tied"] is True


def test_sq6_no_tied_player_holds_cards_is_a_draw() -> None:
    state = position(3, "5/5/23", deck="Q")
    play(state, "P1 draw", "P1 play 5", "P2 play 5", "P3 play 2")
    assert last_events(state, "quarrel_drawn")
    assert hands(state) == "5/5/23"  # every card back to its owner
    assert turn(state) == ("P1", "storing")  # the drawer stores and discards
    play(state, "P1 discard 5")
    assert turn(state) == ("P2", "must_draw")


def test_sq6_any_out_draws_variant() -> None:
    game = oakwood.load("squarrels", quarrel_exhaustion="any_out_draws")
    state = position(3, "5/53/2", deck="Q", game=game)
    play(state, "P1 draw", "P1 play 5", "P2 play 5", "P3 play 2")
    assert last_events(state, "quarrel_drawn")
    assert hands(state) == "5/35/2"
    assert turn(state) == ("P1", "storing")


def test_sq6_survivor_plays_variant() -> None:
    game = oakwood.load("squarrels", quarrel_exhaustion="survivor_plays")
    state = position(3, "5/53/2", deck="Q", game=game)
    play(state, "P1 draw", "P1 play 5", "P2 play 5", "P3 play 2")
    assert state.to_act() == (1,)  # the lone survivor must still play one more card
    rejects(state, "P1 play 5", NotYourTurnError)
    play(state, "P2 play 3")
    assert hands(state) == "-/2355/-"
    assert turn(state) == ("P2", "storing")


def test_sq6_repeated_ties_put_every_card_in_the_pot() -> None:
    state = position(3, "543/543/51", deck="Q")
    play(state, "P1 draw", "P1 play 5", "P2 play 5", "P3 play 5")
    assert state.to_act() == (0, 1, 2)
    play(state, "P1 play 4", "P2 play 4", "P3 play 1")
    assert state.to_act() == (0, 1)
    play(state, "P1 play 3", "P2 play 3")  # tied again and both are out of cards: a draw
    assert hands(state) == "345/345/15"
    assert turn(state) == ("P1", "storing")


# ---------------------------------------------------------------------------------------------- SQ-7
def test_sq7_played_golden_is_discarded_unless_last_card() -> None:
    state = position(3, "43/5/G11", deck="WQ")
    play(state, "P1 draw", "P1 play 4", "P2 play 5", "P3 play golden")
    assert hand(state, 3) == "1145" and discard_pile(state) == {"quarrel": 1, "golden": 1}
    state = position(3, "43/5/G", deck="WQ")
    play(state, "P1 draw", "P1 play 4", "P2 play 5", "P3 play golden")
    assert hand(state, 3) == "45G" and discard_pile(state) == {"quarrel": 1}


def test_sq7_golden_lost_for_the_match_variant() -> None:
    game = oakwood.load("squarrels", golden_lost_scope="match")
    state = position(3, "43/5/G11", deck="WQ", game=game)
    play(state, "P1 draw", "P1 play 4", "P2 play 5", "P3 play golden", "P3 discard 1", "P1 draw")  # Winter
    obs = state.observe(None)
    assert obs["round"] == 2 and obs["golden_out_of_match"] is True
    assert obs["deck_size"] + sum(obs["hand_sizes"]) + sum(obs["action_discard"].values()) == 119
    assert "G" not in fields(state)["deck"] + hands(state) + fields(state)["discard"]
    state.check_invariants()
    # Under the default the Golden is back in the next round's deck.
    state = position(3, "43/5/G11", deck="WQ")
    play(state, "P1 draw", "P1 play 4", "P2 play 5", "P3 play golden", "P3 discard 1", "P1 draw")
    assert "G" in fields(state)["deck"] + hands(state)


# ---------------------------------------------------------------------------------------------- SQ-8
def test_sq8_golden_is_not_wild_by_default() -> None:
    state = position(2, "22G/1", deck="5", phase="must_draw")
    play(state, "P1 draw")
    assert "store 2+golden" not in legal(state, 1)
    rejects(state, "P1 store 2+golden", match="not wild in sets")
    rejects(state, "P1 store 2", match="three 2s")


def test_sq8_golden_wild_in_sets_variant() -> None:
    game = oakwood.load("squarrels", golden_wild_in_sets=True, single_round=True)
    state = position(2, "22G/1", deck="W5", game=game)
    play(state, "P1 draw")
    assert "store 2+golden" in legal(state, 1)
    play(state, "P1 store 2+golden")
    assert storage(state) == "2*/-" and hand(state, 1) == "5"
    assert state.observe(None)["storage_with_golden"] == [[2], []]
    play(state, "P1 discard 5", "P2 draw")
    assert state.scores() == [2.0, 0.0]  # the set scores its face value, and no +5 for the Golden


# ---------------------------------------------------------------------------------------------- SQ-9
def test_sq9_there_is_no_lead_acorn() -> None:
    with pytest.raises(InvalidActionError, match="no action is written"):
        GAME.parse_action("discard lead")
    with pytest.raises(InvalidNotationError, match="unknown card symbol") as info:
        GAME.from_notation(notation(2, "1/2").replace("hands=1/2", "hands=L/2"))
    assert info.value.field == "hands"
    # The Rotten Acorn is the card the rule means: one in the deck, discardable only as the last card.
    state = position(2, "R/1", phase="storing")
    assert legal(state, 1) == ["discard rotten"]


# ---------------------------------------------------------------------------------------------- SQ-10
@pytest.mark.parametrize(
    ("cards", "allowed"),
    [
        ("R2", ["discard 2"]),
        ("R", ["discard rotten"]),
        ("RG", ["discard rotten", "discard golden"]),
        ("RRG", None),  # impossible (one Rotten): checked separately below
        ("R1G", ["discard 1", "discard golden"]),
        ("1G", ["discard 1", "discard golden"]),
    ],
)
def test_sq10_rotten_discard_restrictions(cards: str, allowed: list[str] | None) -> None:
    if allowed is None:
        with pytest.raises(InvalidNotationError, match="do not add up"):
            position(2, f"{cards}/1", phase="storing")
        return
    state = position(2, f"{cards}/1", phase="storing")
    assert legal(state, 1) == allowed
    if "R" in cards and "discard rotten" not in allowed:
        rejects(state, "P1 discard rotten", match="only as your last card")
    play(state, f"P1 {allowed[0]}")
    assert turn(state) == ("P2", "must_draw")


def test_sq10_rotten_reaching_a_hand_through_the_hoard_pile() -> None:
    state = position(3, "R/12/3", deck="H", hoard="2@3", phase="storing")
    play(state, "P1 discard rotten")  # the mandatory discard of a lone Rotten
    assert fields(state)["hoard"] == "2@3,R@1"
    play(state, "P2 draw", "P3 slap")  # P2 drew the Hoard; P3 takes the Rotten with the pile
    assert hand(state, 3) == "R23"


# ---------------------------------------------------------------------------------------------- SQ-11
def test_sq11_drawer_cannot_race_and_makes_no_discard() -> None:
    state = position(4, "12/3/44/5", deck="H", hoard="4@2,1@4")
    play(state, "P1 draw")
    assert state.decision == "race" and state.to_act() == (1, 2, 3)
    rejects(state, "P1 slap", NotYourTurnError, match="waiting for P2, P3, P4")
    play(state, "P3 slap")
    assert hands(state) == "12/3/1444/5" and fields(state)["hoard"] == "-"
    assert turn(state) == ("P3", "drawing")


def test_sq11_drawer_may_race_variant() -> None:
    game = oakwood.load("squarrels", hoard_drawer_may_race=True)
    state = position(3, "12/3/4", deck="H", hoard="5@2", game=game)
    play(state, "P1 draw")
    assert state.to_act() == (1, 2, 0)
    play(state, "P1 slap")
    assert hand(state, 1) == "125" and turn(state) == ("P1", "drawing")


def test_sq11_empty_hoard_pile_still_races() -> None:
    state = position(3, "12/3/4", deck="H")
    play(state, "P1 draw")
    assert state.decision == "race" and state.observe(None)["hoard_pile_size"] == 0
    play(state, "P2 slap")
    assert turn(state) == ("P2", "drawing") and hand(state, 2) == "3"


def test_sq11_hoard_empty_skips_variant() -> None:
    game = oakwood.load("squarrels", hoard_empty_skips=True)
    state = position(3, "12/3/4", deck="H", game=game)
    play(state, "P1 draw")
    assert last_events(state, "hoard_skipped")
    assert turn(state) == ("P1", "storing")
    # A pile with cards is still raced for under this variant.
    state = position(3, "12/3/4", deck="H", hoard="5@2", game=game)
    play(state, "P1 draw")
    assert state.decision == "race"


# ---------------------------------------------------------------------------------------------- SQ-12
def test_sq12_realtime_first_slap_wins_and_early_slaps_are_refused() -> None:
    state = position(3, "12/3/4", deck="H", hoard="5@2", phase="drawing")
    rejects(state, "P1 slap", match="no Hoard race now")
    rejects(state, "P2 slap", NotYourTurnError)
    play(state, "P1 draw")
    play(state, "P3 slap")
    assert hand(state, 3) == "45"
    rejects(state, "P2 slap", NotYourTurnError, match="waiting for P3")


def test_sq12_two_players_hoard_goes_to_the_other_player() -> None:
    state = position(2, "12/3", deck="H", hoard="5@1")
    play(state, "P1 draw")
    assert turn(state) == ("P2", "drawing") and hand(state, 2) == "35"


def test_sq12_random_mode_is_a_commit_and_picks_a_slapper_with_the_rng() -> None:
    game = oakwood.load("squarrels", hoard_race="random")
    winners = set()
    for seed in range(24):
        state = position(3, "12/3/4", deck="H", hoard="5@1", game=game, rng=f"{seed}:0")
        play(state, "P1 draw")
        assert state.decision == "commit" and state.to_act() == (1, 2)
        play(state, "P3 slap")
        assert state.to_act() == (1,)
        assert state.observe(None)["race"]["committed"] == [2]
        play(state, "P2 slap")
        winners.add(turn(state)[0])
    assert winners == {"P2", "P3"}


def test_sq12_seat_order_mode_first_slapper_clockwise_from_drawer() -> None:
    game = oakwood.load("squarrels", hoard_race="seat_order")
    state = position(4, "1/2/3/4", deck="H", hoard="5@1", active=2, game=game)
    play(state, "P2 draw", "P1 slap", "P3 pass", "P4 slap")
    assert turn(state) == ("P4", "drawing") and hand(state, 4) == "45"


# ---------------------------------------------------------------------------------------------- SQ-12b
def test_sq12b_everyone_declines_and_the_drawer_stores_and_discards() -> None:
    state = position(3, "12/3/4", deck="H", hoard="5@2")
    play(state, "P1 draw", "P2 pass")
    assert state.to_act() == (2,)
    rejects(state, "P2 slap", NotYourTurnError)
    play(state, "P3 pass")
    assert last_events(state, "race_declined")
    assert fields(state)["hoard"] == "5@2"
    assert turn(state) == ("P1", "storing")
    play(state, "P1 discard 1")
    assert turn(state) == ("P2", "must_draw")


def test_sq12b_a_pass_does_not_stop_others_slapping() -> None:
    state = position(3, "12/3/4", deck="H", hoard="5@2")
    play(state, "P1 draw", "P3 pass", "P2 slap")
    assert hand(state, 2) == "35"


def test_sq12b_declining_in_commit_modes() -> None:
    for mode in ("random", "seat_order"):
        game = oakwood.load("squarrels", hoard_race=mode)
        state = position(3, "12/3/4", deck="H", hoard="5@2", game=game)
        play(state, "P1 draw", "P2 pass", "P3 pass")
        assert turn(state) == ("P1", "storing") and fields(state)["hoard"] == "5@2"
    game = oakwood.load("squarrels", hoard_race_window_s=2.5)
    state = position(3, "12/3/4", deck="H", game=game)
    play(state, "P1 draw")
    assert state.observe(1)["race"]["window_s"] == 2.5


# ---------------------------------------------------------------------------------------------- SQ-13
def test_sq13_ambush_takes_one_random_card_from_each_other_holder() -> None:
    state = position(4, "1/234/-/55", deck="A")
    play(state, "P1 draw")
    sizes = state.observe(None)["hand_sizes"]
    assert sizes == [3, 2, 0, 1]
    assert turn(state) == ("P1", "storing")
    assert [(e["seat"], e["victim"]) for e in last_events(state, "ambush")] == [(0, 1), (0, 3)]


def test_sq13_ambush_is_uniform_and_can_take_golden_or_rotten() -> None:
    taken = set()
    for seed in range(40):
        state = position(2, "1/R4G", deck="A", rng=f"{seed}:0")
        play(state, "P1 draw")
        taken.add(last_events(state, "ambush", 0)[0]["card"])
    assert taken == {"rotten", "4", "golden"}


# ---------------------------------------------------------------------------------------------- SQ-14
def test_sq14_whirlwind_deals_from_the_drawer_including_empty_hands() -> None:
    state = position(3, "1122/-/345", deck="V", active=2)
    play(state, "P2 draw")
    assert state.observe(None)["hand_sizes"] == [2, 3, 2]  # 7 cards: P2, P3, P1, P2, P3, P1, P2
    assert sorted("".join(hands(state).split("/"))) == sorted("1122345")
    assert turn(state) == ("P2", "drawing")


# ---------------------------------------------------------------------------------------------- SQ-15
def test_sq15_winter_ends_the_round_at_once_during_optional_draws() -> None:
    state = position(2, "111/3", deck="W2", storage="4/-", game=SINGLE)
    play(state, "P1 draw", "P1 draw")
    assert state.is_terminal()
    assert storage(state) == "4/-" and hand(state, 1) == "1112"  # no store and no discard
    assert state.scores() == [4.0, 0.0] and state.winners() == [0]
    rejects(state, "P1 discard 1", GameOverError, match="game is over")
    rejects(state, "P2 draw", GameOverError)


# ---------------------------------------------------------------------------------------------- SQ-16
def test_sq16_set_scores_face_value_and_round_can_go_negative() -> None:
    state = position(2, "G/R", deck="W", storage="1135/-", game=SINGLE)
    play(state, "P1 draw")
    assert last_events(state, "round_end")[0]["scores"] == [15, -5]


def test_sq16_per_card_variant() -> None:
    game = oakwood.load("squarrels", single_round=True, set_scoring="per_card")
    state = position(2, "G/R", deck="W", storage="1135/-", game=game)
    play(state, "P1 draw")
    assert state.scores() == [35.0, -5.0]


# ---------------------------------------------------------------------------------------------- SQ-25
def test_sq25_winter_shows_who_holds_the_golden_and_the_rotten_and_nothing_else() -> None:
    state = position(3, "G22/R3/14", deck="W", storage="-/-/-", game=SINGLE)
    play(state, "P1 draw")
    end = last_events(state, "round_end")[0]
    assert end["held"] == [["golden"], ["rotten"], []]
    assert end["scores"] == [5, -5, 0]
    for seat in (None, 0, 1, 2):  # every seat sees the same public event: no other card of a hand
        view = next(v for v in state.events_seen_by(seat, 0) if v["kind"] == "round_end")
        assert view == {"kind": "round_end", **{k: end[k] for k in ("round", "scores", "totals", "held")}}


def test_sq25_both_special_cards_in_one_hand_are_both_shown() -> None:
    state = position(2, "RG1/2", deck="W", storage="-/-", game=SINGLE)
    play(state, "P1 draw")
    assert last_events(state, "round_end")[0]["held"] == [["golden", "rotten"], []]


# ---------------------------------------------------------------------------------------------- SQ-17 … SQ-19
# Between-rounds rulings are tested in test_setup_and_rounds.py.


# ---------------------------------------------------------------------------------------------- SQ-20
def test_sq20_discard_pile_and_hoard_pile_are_distinct() -> None:
    state = position(3, "12/3/4", deck="2A")
    play(state, "P1 draw")
    obs = state.observe(None)
    assert obs["action_discard"] == {"ambush": 1} and obs["hoard_pile_size"] == 0  # drawn Actions: the Discard
    play(state, "P1 discard 1")  # the act of discarding goes face down to the Hoard Pile
    obs = state.observe(None)
    assert obs["action_discard"] == {"ambush": 1} and obs["hoard_pile_size"] == 1
    assert "Hoard Pile" in GAME.describe_action(GAME.parse_action("discard 1"))
    text = GAME.render(obs)
    assert "Hoard Pile 1" in text and "Discard: Ambush×1" in text


def test_sq4_mandatory_whirlwind_draws_do_not_pass_to_a_hoard_or_quarrel_winner() -> None:
    # The drawer met a Whirlwind (must draw to 7), then drew a Hoard: P3 wins the race and may stop drawing.
    game = oakwood.load("squarrels", whirlwind_draw="mandatory_to_7")
    state = position(3, "12/34/5", deck="HV", hoard="5@2", game=game)
    play(state, "P1 draw", "P1 draw", "P3 slap")
    assert turn(state) == ("P3", "drawing")
    assert legal(state, 3)[0] == "draw" and any(a.startswith("discard") for a in legal(state, 3))
    assert fields(state)["whirl"] == "0"
    game = oakwood.load("squarrels", whirlwind_draw="mandatory_to_7", quarrel_winner_may_draw=True)
    state = position(3, "12/34/5", deck="QV", game=game)
    play(state, "P1 draw", "P1 draw")
    play(state, *(f"P{s + 1} play {max(hand(state, s + 1))}" for s in state.to_act()))  # the redealt hands
    winner, phase = turn(state)
    assert phase == "drawing"  # quarrel_winner_may_draw: the winner may draw, but need not
    assert any(a.startswith("discard") for a in legal(state, int(winner[1:])))
