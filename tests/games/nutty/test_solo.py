"""NS-17: the solo rules, written in notation."""

from __future__ import annotations

import pytest

import oakwood
from oakwood.engine import IllegalActionError

from .helpers import board, legal, load, obs, play, position

# The solo deck: leaves, the Owl, Sticky Fingers and Broken Branches (36 cards; 6 stay in the Leaf Deck).
SOLO_PAD = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]


def solo(first: str, players: list[str], **kw: object) -> str:
    """A solo position: a custom first limb and padding."""
    return position([first, *SOLO_PAD], players, solo=True, **kw)  # type: ignore[arg-type]


def test_a_setup_keeps_only_leaves_owl_sticky_and_broken_branches() -> None:
    state = oakwood.load("nutty").new_state(1, seed=4)
    view = obs(state)
    assert view["mode"] == "solo" and view["deck"] == 6
    assert view["market"] == ["SW", "FL", "BP", "LA"]
    assert all(card["brown"] == 0 for row in view["tree"] for card in row)  # no setup acorns
    kinds = state.to_notation().split("tree=")[1].split(" box=")[0]
    assert not any(code in kinds for code in ("WG", "FG", "SF", "AR", "SR", "SP", "DO"))
    state.check_invariants()
    events = oakwood.load("nutty", solo_keep_events=True).new_state(1, seed=4)
    assert obs(events)["deck"] == 6 + 7  # the eleven events stay in the deck


def test_b_movement_costs() -> None:
    state = load(solo("1,1,~BB,~2,~1", [board(at="L1c1", cheeks="2.0")]))
    play(state, "move L1c2")  # outward onto a revealed card: 1 point
    assert state.wealth() == 1  # type: ignore[attr-defined]
    play(state, "move L1c1", "move trunk")  # inward: free
    assert state.wealth() == 1  # type: ignore[attr-defined]
    play(state, "move L1c1")  # from the trunk onto a revealed card is outward too
    assert state.wealth() == 0 and "move L1c2" not in legal(state)  # type: ignore[attr-defined]
    play(state, "move trunk", "move L2c1")  # onto a face-down card: free, flipped at once
    assert obs(state)["tree"][1][0] == {"card": "1", "brown": 1, "golden": 0, "squirrels": [0]}
    fall = load(solo("1,~BB,~BB,~2,~1", [board(at="L1c1", cheeks="1.0")]))
    play(fall, "move L1c2")  # a Broken Branch: the squirrel falls, carried acorns lost
    assert obs(fall)["boards"][0]["at"] == "trunk" and fall.wealth() == 0  # type: ignore[attr-defined]
    swing = load(solo("1,BB*1.0,~2,~1,~1", [board(at="L1c1", powers="SW", nest="1.0")]))
    assert "move L1c2" in legal(swing)  # only Swinging Squirrel crosses Broken Branches
    plain = load(solo("1,BB*1.0,~2,~1,~1", [board(at="L1c1", nest="1.0")]))
    assert "move L1c2" not in legal(plain)
    with pytest.raises(IllegalActionError, match="NS-17"):
        play(plain, "move L1c2")
    flyer = load(solo("1,~1,~1", [board(at="L1c1", powers="FL")]))
    assert "move L2c1" in legal(flyer) and "move L6c1" in legal(flyer)  # sideways: free with Flying


def test_c_payment_from_the_nest_anywhere() -> None:
    state = load(solo("1,1,~BB,~2,~ST", [board(at="L1c1", nest="0.1")]))
    play(state, "move L1c2")
    assert obs(state)["boards"][0]["nest"] == {"brown": 4, "golden": 0}  # a golden paid 5: 4 brown change


def test_d_score_is_nest_and_burrow_and_20_wins() -> None:
    state = load(solo("1,~BB,~BB,~2,~ST", [board(cheeks="0.1", nest="0.2", burrow="0.1")]))
    assert state.scores() == [15.0]
    play(state, "stash golden")
    assert state.is_terminal() and state.winners() == [0] and obs(state)["result"] == "won"


def test_e_owl_bribe() -> None:
    broke = load(solo("~OW,~1,~1,~1,~BB", [board(cheeks="2.0")]))
    play(broke, "move L1c1")
    assert broke.is_terminal() and broke.winners() == [] and obs(broke)["result"] == "lost"
    rich = load(solo("~OW,~1,~1,~1,~BB", [board(cheeks="2.0", nest="1.0")]))
    play(rich, "move L1c1")
    assert not rich.is_terminal() and rich.wealth() == 0  # type: ignore[attr-defined]


def test_f_sticky_fingers_stays_and_picks_pockets() -> None:
    state = load(solo("1*2.0,~ST,~1,~1,~BB", [board(at="L1c1", cheeks="0.1")]))
    play(state, "gather brown", "move L1c2")
    assert obs(state)["boards"][0]["cheeks"] == {"brown": 0, "golden": 1}  # lost the lowest-valued acorn
    assert obs(state)["tree"][0][1]["card"] == "ST"  # it stays on the tree
    play(state, "move L1c1", "gather brown", "move L1c2")  # landing again (costs 1: the brown just gathered)
    assert obs(state)["boards"][0]["cheeks"] == {"brown": 0, "golden": 0}


def test_g_end_game_and_automatic_end() -> None:
    state = load(solo("1,~BB,~BB,~2,~ST", [board()]))
    assert "end game" in legal(state)
    play(state, "end game")
    assert state.is_terminal() and obs(state)["result"] == "ended"
    revealed = ["1,1,1", "2,2,2,2,2", "3,3,3,3,3", "G,G,G,G,G", "0,0,0,2,2", "1,1,1,1*1.0"]
    done = load(position(revealed, [board(at="L6c3", nest="3.0")], solo=True))
    play(done, "move L6c4", "gather brown")  # the last acorn on the tree, carried
    assert not done.is_terminal()
    play(done, "move L6c3", "move L6c2", "move L6c1", "move trunk", "stash brown")
    assert done.is_terminal() and obs(done)["result"] == "ended"  # nothing is left to gain


def test_h_market() -> None:
    state = load(solo("1,~BB,~BB,~2,~ST", [board(powers="SW,FL,BP", nest="3.0", pack="b")]))
    buys = [a for a in legal(state) if a.startswith("buy")]
    plain = ["buy lasso return swinging", "buy lasso return flying", "buy lasso return backpack"]
    assert buys == plain + [f"{a} with 3 nest brown" for a in plain]  # the usual payment first (NS-17k)
    play(state, "buy lasso return backpack")
    view = obs(state)
    assert view["boards"][0]["powers"] == ["SW", "FL", "LA"] and view["market"] == ["BP"]
    assert view["boards"][0]["backpack"] is None  # its acorn paid first: carried acorns before the nest
    assert view["boards"][0]["nest"] == {"brown": 1, "golden": 0}


def test_g_automatic_end_when_nothing_is_within_reach() -> None:
    # Face-down cards remain, but only beyond Broken Branches; Swinging Squirrel would leave too little to pay.
    blocked = ["1,BB,~1,~1,~1", "2,BB,~2,~2,~2", "3,BB,~3,~3,~3", "G,BB,~G,~G,~G", "0,0,0,1,~2", "2,2,ST"]
    state = load(position(blocked, [board(at="L5c4", nest="2.0")], solo=True))
    play(state, "move L5c5", "gather brown", "gather brown")  # the last reachable face-down card
    play(state, "move L5c4", "move L5c3", "move L5c2", "move L5c1", "move trunk", "stash brown")
    assert not state.is_terminal()  # an acorn is still carried
    play(state, "stash brown")
    assert state.is_terminal() and obs(state)["result"] == "ended" and state.scores() == [4.0]
