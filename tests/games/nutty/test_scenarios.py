"""RULINGS §3.4 test scenarios for Nutty Squirrels, each written in notation."""

from __future__ import annotations

import pytest

import oakwood
from oakwood.engine import IllegalActionError

from .helpers import board, legal, load, obs, play, position

# Padding limbs that use leaves the scenarios do not need (leaves left for scenarios: three 1s and one 2).
PAD = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]


def tree(*limbs: str) -> list[str]:
    """Custom limbs first, then padding up to six limbs."""
    return [*limbs, *PAD[: 6 - len(limbs)]]


def test_1_setup() -> None:
    state = oakwood.load("nutty").new_state(4, seed=3)
    view = obs(state)
    assert [len(row) for row in view["tree"]] == [5] * 6
    assert all(card["card"] is None for row in view["tree"] for card in row)
    for row in view["tree"]:
        assert [card["brown"] for card in row] == [0, 0, 1, 0, 1]  # NS-2: middle and farthest
    assert view["deck"] == 24  # 54 cards − 30; the reference cards are never shuffled in
    assert view["supply"] == {"brown": 48, "golden": 15}
    assert all(b["at"] == "trunk" for b in view["boards"])
    state.check_invariants()


def test_2_action_points() -> None:
    text = position(tree("~2,~LA,~BP,~1,~1"), [board(), board()])
    state = play(load(text), "move L1c1", "flip", "gather brown", "gather brown", "move trunk")
    assert obs(state)["ap"] == 0
    assert "bury brown" not in legal(state)
    with pytest.raises(IllegalActionError, match="AP"):
        play(state, "bury brown")
    play(state, "end", "end")  # P2 passes
    play(state, "bury brown", "bury brown")
    assert state.scores() == [2.0, 0.0]
    assert obs(state)["ap"] == 1


def test_3_broken_branch_reveal() -> None:
    text = position(
        tree("~1,~1,~1,~LA,~BP", "~2,~SW,~BB,~FL,~ST"),
        [board(at="L2c3", cheeks="1.0"), board(at="L2c3", cheeks="0.1")],
    )
    state = play(load(text), "flip")
    view = obs(state)
    assert [b["at"] for b in view["boards"]] == ["trunk", "trunk"]
    assert view["supply"]["golden"] == 15  # the golden P2 carried went back to the supply
    assert view["current"] == 1 and view["ap"] == 3  # P1's remaining AP are lost
    assert view["tree"][1][2]["card"] == "BB"  # the card stays


def test_4_stranding_guard() -> None:
    limb = "1,BB,~1,~LA,~BP"
    no_swing = load(position(tree(limb), [board(at="L1c1"), board()], turn="1.2.1.1"))
    assert "move L1c2" not in legal(no_swing)  # 2 AP onto it, none left to step off
    with pytest.raises(IllegalActionError, match="step off"):
        play(no_swing, "move L1c2")
    swing = load(position(tree(limb), [board(at="L1c1", powers="SW"), board()], turn="1.2.1.1"))
    play(swing, "move L1c2")
    assert obs(swing)["ap"] == 1
    assert "end" not in legal(swing)
    with pytest.raises(IllegalActionError, match="Broken Branch"):
        play(swing, "end")
    assert set(legal(swing)) == {"move L1c1", "move L1c3"}
    one_ap = load(position(tree(limb), [board(at="L1c1", powers="SW"), board()], turn="1.1.1.1"))
    assert "move L1c2" not in legal(one_ap)


def test_5_claim_and_shift() -> None:
    text = position(
        tree("~1,~1,~1,~SW,~FL", "~2,~BP,~ST,~OW,~SR", "~AR,~WG,~SF,~FG,~SP", "~BB,LA,~DO*1.0,~BB,~BB*1.0"),
        [board(at="L4c2"), board(at="L4c3")],
        deck_top="SW",
    )
    state = load(text)
    deck = obs(state)["deck"]
    play(state, "claim")
    view = obs(state)
    assert view["boards"][0]["powers"] == ["LA"]
    row = view["tree"][3]
    assert len(row) == 5
    assert row[1]["squirrels"] == [0, 1] and row[1]["brown"] == 1  # the old c3 became c2, P1 placed on it
    assert view["deck"] == deck - 1
    assert state.to_notation().split("tree=")[1].split("/")[3].endswith(",~SW")  # the new card at c5


def test_6_full_slots_swap_and_duplicates() -> None:
    text = position(tree("~1,LA,~1,~1,~BB"), [board(at="L1c2", powers="SW,FL,BP", pack="b"), board()])
    state = load(text)
    deck = obs(state)["deck"]
    assert "claim" not in legal(state)
    play(state, "claim swap backpack")
    view = obs(state)
    assert view["boards"][0]["powers"] == ["SW", "FL", "LA"]
    assert view["tree"][0][1]["card"] == "BP" and len(view["tree"][0]) == 5
    assert view["deck"] == deck
    assert view["boards"][0]["cheeks"]["brown"] == 1  # the Backpack's acorn went to the cheeks (NS-11)
    dup = load(position(tree("~1,SW,~1,~1,~BB"), [board(at="L1c2", powers="SW"), board()]))
    assert not any(a.startswith("claim") for a in legal(dup))
    with pytest.raises(IllegalActionError, match="duplicates"):
        play(dup, "claim")


def test_7_fools_gold() -> None:
    text = position(tree("~FG,~1,~1,~1,~BB"), [board(at="L1c1", cheeks="0.1", burrow="0.1"), board()])
    state = play(load(text), "flip")
    assert obs(state)["phase"] == "fools"
    assert set(legal(state)) == {"exchange cheeks", "exchange burrow"}
    play(state, "exchange cheeks")
    view = obs(state)
    assert view["boards"][0]["cheeks"] == {"brown": 1, "golden": 0}
    assert view["scores"][0] == 5.0
    assert view["phase"] == "turn" and view["ap"] == 2


def test_8_sappy_feet() -> None:
    for powers, expected in (("-", 2), ("SR", 3)):
        text = position(tree("~SF,~1,~1,~1,~BB"), [board(at="L1c1", powers=powers), board()])
        state = play(load(text), "flip")
        assert obs(state)["boards"][0]["sappy_next"] == 1
        play(state, "end", "end")
        assert obs(state)["ap"] == expected
        assert obs(state)["boards"][0]["sappy_now"] == 1
        play(state, "end")
        assert "SF" in obs(state)["out_of_play"]["cards"]
        assert obs(state)["boards"][0]["sappy_now"] == 0


def test_9_doppelganger_copies_sticky_fingers() -> None:
    text = position(
        tree("~1,1,~2,~1,~BB"),
        [board(at="L1c2", powers="DO"), board(powers="ST"), board(at="L1c2", cheeks="1.0")],
    )
    state = play(load(text), "copy sticky", "steal p3 brown")
    view = obs(state)
    assert view["boards"][0]["cheeks"]["brown"] == 1 and view["boards"][2]["cheeks"]["brown"] == 0
    play(state, "end")
    assert "DO" in obs(state)["out_of_play"]["cards"] and obs(state)["boards"][0]["powers"] == []
    full = position(
        tree("~1,1,~2,~1,~BB"),
        [board(at="L1c2", powers="DO", cheeks="2.0"), board(powers="ST"), board(at="L1c2", cheeks="1.0")],
    )
    state = play(load(full), "copy sticky")
    assert "steal p3 brown" not in legal(state)
    with pytest.raises(IllegalActionError):
        play(state, "steal p3 brown")


def test_10_owl() -> None:
    text = position(
        tree("~BB,~BB,~AR,~WG,~SF", "~2,~SW,~LA,~FL,~ST", "~FG,~SP,~DO,~SR,~BB", "~BB,~AR", "1,1,~BP"),
        [board(powers="OW"), board(at="L5c1", cheeks="1.0"), board(at="L5c3", powers="BP", pack="g")],
        rest_to_out=True,  # short limbs: the Leaf Deck has run out
    )
    state = play(load(text), "owl L5")
    view = obs(state)
    assert [b["at"] for b in view["boards"]] == ["trunk"] * 3
    assert view["current"] == 0 and view["ap"] == 3  # the Owl's user keeps its turn
    assert "OW" in view["out_of_play"]["cards"]
    state = play(load(text), "owl p3 backpack")
    assert obs(state)["boards"][2]["cheeks"] == {"brown": 0, "golden": 1}


def test_11_immediate_win() -> None:
    players = [board(cheeks="0.1", burrow="3.3"), board()]
    state = play(load(position(tree("~1,~1,~1,~BB,~BB"), players)), "bury golden")
    assert state.is_terminal() and state.winners() == [0] and state.scores()[0] == 23.0
    later = play(load(position(tree("~1,~1,~1,~BB,~BB"), players), win_at_20="finish_round"), "bury golden")
    assert not later.is_terminal()
    play(later, "end", "end")
    assert later.is_terminal() and later.winners() == [0]


def test_12_solo_owl_and_costs() -> None:
    solo_tree = ["~OW,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "1,~0,~0,~2,~2", "~2"]
    lost = load(position(solo_tree, [board(cheeks="2.0")], solo=True))
    play(lost, "move L1c1")
    assert lost.is_terminal() and lost.winners() == [] and obs(lost)["result"] == "lost"
    paid = load(position(solo_tree, [board(cheeks="0.1")], solo=True))
    play(paid, "move L1c1")
    view = obs(paid)
    assert not paid.is_terminal()
    assert view["boards"][0]["nest"] == {"brown": 2, "golden": 0}  # 5 − 3 = 2 brown change
    assert view["tree"][0][0]["squirrels"] == [0] and "OW" in view["out_of_play"]["cards"]
    assert len(view["tree"][0]) == 4  # the limb closes inward, not refilled
    mover = load(position(solo_tree, [board(at="T", cheeks="1.0")], solo=True))
    play(mover, "move L5c1")  # outward onto a revealed card: 1 point
    assert mover.wealth() == 0  # type: ignore[attr-defined]
    play(mover, "move trunk")  # inward: free
    assert "move L5c1" not in legal(mover)
