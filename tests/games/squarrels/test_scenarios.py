"""RULINGS.md §1.4 test scenarios 2–12 (scenario 1, the Winter-in-setup deal, is in test_setup_and_rounds.py)."""

from __future__ import annotations

import pytest

import oakwood
from oakwood.engine import IllegalActionError, InvalidActionError, NotYourTurnError
from tests.games.squarrels.helpers import (
    SINGLE,
    discard_pile,
    fields,
    hand,
    hands,
    last_events,
    legal,
    play,
    position,
    rejects,
    storage,
    turn,
)


def test_scenario2_mandatory_draw_above_seven() -> None:
    state = position(3, "111222334/5/5", deck="5")
    play(state, "P1 draw")
    assert hand(state, 1) == "1112223345"
    rejects(state, "P1 draw", match="fewer than 7")
    play(state, "P1 store 1", "P1 store 2")
    rejects(state, "P1 end", match="must discard")
    assert legal(state, 1) == ["discard 3", "discard 4", "discard 5"]
    play(state, "P1 discard 4")
    assert storage(state) == "12/-/-" and hand(state, 1) == "335"
    assert turn(state) == ("P2", "must_draw")


def test_scenario3_storing_closes_drawing() -> None:
    state = position(3, "3345/1/1", deck="3")
    rejects(state, "P1 store 3", match="must draw one card")
    play(state, "P1 draw", "P1 store 3")
    rejects(state, "P1 draw", match="drawing is over")
    assert legal(state, 1) == ["discard 4", "discard 5"]
    play(state, "P1 discard 5")
    assert turn(state) == ("P2", "must_draw") and fields(state)["hoard"] == "5@1"


def test_scenario4_quarrel_with_the_rotten() -> None:
    state = position(3, "2244/R3/12", deck="Q")
    play(state, "P1 draw")
    assert state.decision == "commit"
    play(state, "P1 play 4", "P2 play rotten", "P3 play 2")
    assert hands(state) == "R22244/3/1"
    assert last_events(state, "quarrel_won")[0] == {
        "kind": "quarrel_won",
        "seat": 0,
        "cards": ["2", "4", "rotten"],
        "golden_to_discard": False,
    }
    play(state, "P1 store 2")
    rejects(state, "P1 discard rotten", match="only as your last card")
    play(state, "P1 discard 4")
    assert turn(state) == ("P2", "must_draw")
    assert storage(state) == "2/-/-" and hand(state, 1) == "R4"


def test_scenario5_quarrel_won_by_someone_else() -> None:
    state = position(4, "12/13/5442/42", deck="Q")
    play(state, "P1 draw", "P1 play 1", "P2 play 3", "P3 play 5", "P4 play 4")
    assert turn(state) == ("P3", "storing")
    rejects(state, "P1 discard 2", NotYourTurnError)
    play(state, "P3 store 4", "P3 discard 1")
    assert turn(state) == ("P4", "must_draw")  # P1 made no discard; P2 is skipped
    assert fields(state)["hoard"] == "1@3"
    assert hands(state) == "2/1/235/2" and storage(state) == "-/-/4/-"


def test_scenario6_tie_break() -> None:
    state = position(3, "521/541/31", deck="Q")
    play(state, "P1 draw", "P1 play 5", "P2 play 5", "P3 play 3")
    assert state.to_act() == (0, 1)
    rejects(state, "P3 play 1", NotYourTurnError)
    play(state, "P1 play 2", "P2 play 4")
    assert hands(state) == "1/123455/1"  # the player of the 4 takes all five cards
    assert turn(state) == ("P2", "storing")
    play(state, "P2 discard 1")
    assert turn(state) == ("P3", "must_draw")


def test_scenario7_golden_played_with_other_cards_is_lost() -> None:
    state = position(3, "43/5/G11", deck="WQ", game=SINGLE)
    play(state, "P1 draw", "P1 play 4", "P2 play 5", "P3 play golden")
    assert hand(state, 3) == "1145" and discard_pile(state) == {"quarrel": 1, "golden": 1}
    play(state, "P3 discard 1", "P1 draw")  # Winter
    assert state.scores()[2] == 0.0  # no +5


def test_scenario7_golden_as_last_card_is_kept_with_the_winnings() -> None:
    state = position(3, "43/5/G", deck="WQ", game=SINGLE)
    play(state, "P1 draw", "P1 play 4", "P2 play 5", "P3 play golden")
    assert hand(state, 3) == "45G" and discard_pile(state) == {"quarrel": 1}
    play(state, "P3 discard 4", "P1 draw")
    assert state.scores() == [0.0, 0.0, 5.0]


def test_scenario8_hoard_race() -> None:
    state = position(4, "12/3/44/5", deck="325H", hoard="4@2,1@4")
    play(state, "P1 draw")
    rejects(state, "P1 slap", NotYourTurnError)
    play(state, "P3 slap")
    assert hand(state, 3) == "1444" and turn(state) == ("P3", "drawing")
    play(state, "P3 draw", "P3 draw", "P3 draw")  # may draw up to 7 cards: 5, 2, 3
    assert hand(state, 3) == "1234445"
    rejects(state, "P3 draw", match="fewer than 7")
    play(state, "P3 store 4", "P3 discard 1")
    assert turn(state) == ("P4", "must_draw")
    assert hands(state) == "12/3/235/5"  # P1 made no discard
    assert fields(state)["hoard"] == "1@3" and storage(state) == "-/-/4/-"


def test_scenario9_nested_winter_after_the_hoard() -> None:
    state = position(3, "12/3/44", deck="WH", hoard="4@2,R@1", game=SINGLE)
    play(state, "P1 draw", "P3 slap", "P3 draw")
    assert state.is_terminal()
    assert hand(state, 3) == "R444"  # no store and no discard after Winter
    assert state.scores() == [0.0, 0.0, -5.0]


def test_scenario10_ambush() -> None:
    state = position(3, "1/234/-", deck="A")
    play(state, "P1 draw")
    assert state.observe(None)["hand_sizes"] == [2, 2, 0]
    stolen = last_events(state, "ambush", 0)[0]["card"]
    assert stolen in ("2", "3", "4") and hand(state, 1) == "".join(sorted("1" + stolen))
    assert turn(state) == ("P1", "storing")
    rejects(state, "P1 draw", match="drawing is over")


@pytest.mark.parametrize(
    ("cards", "allowed"),
    [("R2", ["discard 2"]), ("R", ["discard rotten"]), ("RG", ["discard rotten", "discard golden"])],
)
def test_scenario11_rotten_discard(cards: str, allowed: list[str]) -> None:
    state = position(3, f"{cards}/1/1", phase="storing")
    assert legal(state, 1) == allowed
    for action in ("discard rotten", "discard 2", "discard golden"):
        if action not in allowed:
            with pytest.raises(IllegalActionError):
                play(state, f"P1 {action}")


def test_scenario12_scoring() -> None:
    state = position(2, "G/R", deck="W", storage="1135/-", game=SINGLE)
    play(state, "P1 draw")
    assert state.scores() == [15.0, -5.0]
    state = position(2, "1/2", deck="W", storage="5/55", round_no=3, last="22,25", totals="47,45", dealer=2)
    play(state, "P1 draw")
    assert state.scores() == [52.0, 55.0] and state.winners() == [1]
    state = position(2, "1/2", deck="W", storage="34/34", round_no=3, last="22,22", totals="45,45")
    play(state, "P1 draw")
    assert not state.is_terminal() and state.observe(None)["round"] == 4
    shared = oakwood.load("squarrels", target_tie="shared_win")
    state = position(2, "1/2", deck="W", storage="34/34", round_no=3, last="22,22", totals="45,45", game=shared)
    play(state, "P1 draw")
    assert state.winners() == [0, 1]


def test_bad_input_gets_the_right_error() -> None:
    state = position(3, "2244/R3/12", deck="Q")
    before = state.to_notation()
    with pytest.raises(InvalidActionError, match="not an action of squarrels"):
        state.apply(0, "draw")  # text is not an action: parse it first
    with pytest.raises(InvalidActionError, match="outside"):
        state.apply_index(0, 10_000)
    with pytest.raises(NotYourTurnError, match="no seat 5"):
        state.apply(5, state.game.parse_action("draw"))
    with pytest.raises(InvalidActionError, match="no action is written 'draw two'"):
        state.game.parse_action("draw two")
    assert state.to_notation() == before
    play(state, "P1 draw", "P1 play 4", "P2 play 3", "P3 play 2")
    rejects(state, "P1 draw", match="drawing is over")  # the drawer who won the Quarrel stores, no draws
