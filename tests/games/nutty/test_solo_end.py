"""NS-17 g: the solo game ends by itself exactly when nothing is left within reach (``reach.py``)."""

from __future__ import annotations

from .helpers import board, load, obs, play, position

# Limbs 2–6 revealed and picked clean (six 1-brown leaves, the Owl and the Broken Branches are left for
# the scenarios' first limb, whose face-down cards lie beyond a Broken Branch).
BARE = ["2,2,2,2,2", "3,3,3,3,3", "G,G,G,G,G", "0,0,0,2,2", "1,1,2,ST,ST"]


def solo(first: str, player: str) -> str:
    return position([first, *BARE], [player], solo=True)


def test_the_issues_scenario_goes_on_buy_lasso_and_stash_five() -> None:
    # From the trunk with 4 in the nest and a golden on a revealed Broken Branch at L1c2: the step to L1c1
    # leaves 3 points, enough for the Lasso.
    state = load(solo("1,BB*0.1,1,1,1", board(nest="4.0")))
    play(state, "move L1c1")
    assert not state.is_terminal()
    play(state, "buy lasso", "lasso L1c2 golden", "gather golden", "move trunk")
    assert not state.is_terminal()  # a carried acorn can still be stashed
    play(state, "stash golden")
    assert state.is_terminal() and obs(state)["result"] == "ended" and state.scores() == [5.0]
    assert state.game.describe_event(state.events_seen_by(0)[-1]) == (
        "Game over (nothing left within reach): 5 points, 15 short of 20."
    )


def test_a_wasted_step_ends_it() -> None:
    # The same golden, but the step to L6c1 spends the point the Lasso needed (and nothing else is in reach).
    state = play(load(solo("1,BB*0.1,1,1,1", board(nest="4.0"))), "move L6c1")
    assert state.is_terminal() and obs(state)["result"] == "ended" and state.scores() == [3.0]


def test_the_wrong_purchase_ends_it() -> None:
    # Swinging Squirrel costs 3 of the 4 points: the steps onto L1c1 and onto the Broken Branch need 2.
    state = play(load(solo("1,BB*0.1,1,1,1", board(nest="4.0"))), "buy swinging")
    assert state.is_terminal() and state.scores() == [1.0]


def test_swinging_squirrel_bought_on_the_way_counts() -> None:
    # A golden lying on L1c3, past a revealed Broken Branch: L1c1 (1), Swinging (3), L1c2 (1), L1c3 (1) = 6.
    rich = load(solo("1,BB,1*0.1,~1,~BB", board(nest="6.0")))
    play(rich, "move L1c1")
    assert not rich.is_terminal()
    swing = play(rich.clone(), "buy swinging", "move L1c2", "move L1c3", "gather golden")
    assert obs(swing)["boards"][0]["cheeks"] == {"brown": 0, "golden": 1}
    play(rich, "move trunk")  # free, but stepping back onto L1c1 would cost a point again: 6 > 5
    assert rich.is_terminal() and rich.scores() == [5.0]


def test_flying_around_a_broken_branch_counts() -> None:
    # From L6c1 with 5 points: Flying Squirrel (3), L6c2 (1), L6c3 (1), then sideways to L1c3 for free.
    state = play(load(solo("1,BB,1*0.1,~1,~BB", board(nest="6.0"))), "move L6c1")
    assert not state.is_terminal()
    play(state, "buy flying", "move L6c2", "move L6c3", "move L1c3", "gather golden")
    assert obs(state)["boards"][0]["cheeks"] == {"brown": 0, "golden": 1}


def test_flying_squirrel_bought_on_the_way_counts() -> None:
    # A face-down card at L2c2 behind a Broken Branch at L2c1, reached sideways from L1c2: 1 + 1 + 3 = 5.
    limbs = ["1,1,~1,~1,~1", "BB,~2,~BB,~BB,~2", "3,3,3,3,3", "G,G,G,G,G", "0,0,0,2,2", "2,2,2,2,ST"]
    state = load(position(limbs, [board(nest="5.0")], solo=True))
    play(state, "move L1c1", "move L1c2")
    assert not state.is_terminal()  # the face-down cards of limb 1 and the flight are in reach
    play(state, "buy flying", "move L2c2")
    assert obs(state)["tree"][1][1]["card"] == "2"


def test_the_search_does_not_go_past_a_face_down_card() -> None:
    # Landing on a face-down card flips it: that is something within reach, whatever lies behind it.
    state = load(solo("1,~BB,1*0.1,1,1", board(at="L1c1")))
    assert not state.is_terminal()
    play(state, "move L1c2")  # a Broken Branch: the squirrel falls, and nothing is left
    assert state.is_terminal() and obs(state)["result"] == "ended"
