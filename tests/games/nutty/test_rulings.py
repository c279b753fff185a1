"""One scenario (or more) per Nutty Squirrels ruling NS-1 … NS-16, written in notation (NS-17: test_solo*.py;
NS-18: test_recall.py)."""

from __future__ import annotations

import json
import re

import pytest

import oakwood
from oakwood.engine import IllegalActionError, InvalidOptionError
from oakwood.games.nutty.cards import PROPOSED_V1

from .helpers import board, legal, load, obs, play, position

PAD = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]


def tree(*limbs: str) -> list[str]:
    """Custom limbs first, then padding up to six limbs."""
    return [*limbs, *PAD[: 6 - len(limbs)]]


def test_ns1_composition_is_an_option_value() -> None:
    assert sum(PROPOSED_V1.values()) == 54
    custom = {"1": 20, "G": 5, "BB": 5, "SW": 3}
    game = oakwood.load("nutty", deck_composition=json.dumps(custom))
    state = game.new_state(2, 1)
    assert obs(state)["deck"] == 3
    state.check_invariants()
    # The JSON text a file holds (the CLI's -o deck_composition=@deck.json) is accepted as it is.
    pretty = oakwood.load("nutty", deck_composition=json.dumps(dict(reversed(custom.items())), indent=2))
    assert pretty == game and pretty.options.deck_composition == '{"1":20,"G":5,"BB":5,"SW":3}'
    # One text per composition: the proposal written out in full is proposed_v1; zero counts vanish.
    assert oakwood.load("nutty", deck_composition=json.dumps({**PROPOSED_V1, "AR": 2, "SP": 1})) == oakwood.load(
        "nutty"
    )
    assert oakwood.load("nutty", deck_composition=json.dumps({**custom, "OW": 0})) == game
    # The option round-trips through to_dict, JSON and repr, and a saved state loads back under it.
    again = oakwood.load("nutty", **json.loads(json.dumps(game.options.to_dict())))
    assert again == game and eval(repr(game), {"oakwood": oakwood}) == game
    assert game.from_json(json.loads(json.dumps(state.to_json()))).to_notation() == state.to_notation()
    with pytest.raises(InvalidOptionError, match="arborist_mode"):
        oakwood.load("nutty", arborist_mode="sometimes")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("custom", "must be proposed_v1 or a JSON object"),
        ("/dev/zero", "must be proposed_v1 or a JSON object"),
        ('{"XX": 40}', "unknown card kind 'XX'"),
        ('{"1": 30, "1": 2}', "card kind '1' is given twice"),
        ('{"1": -1, "2": 30}', "count of '1' must be a whole number from 0 to 300, got -1"),
        ('{"1": 30.0}', "count of '1' must be a whole number"),
        ('{"1": true, "0": 30}', "count of '1' must be a whole number"),
        ('{"0": 301}', "count of '0' must be a whole number from 0 to 300"),
        ('{"0": 200, "BB": 200}', "400 cards are more than 300"),
        ('{"1": 20, "G": 5}', "25 cards are too few to deal a tree of 30"),
        ('{"3": 21, "0": 10}', "the leaves hold 63 brown and 0 golden acorns, more than the supply"),
        ('{"G": 16, "0": 20}', "16 golden acorns, more than the supply"),
        ("[30]", "must be proposed_v1 or a JSON object"),
        ('{"0": 30', "not valid JSON"),
        ("{" + " " * 5000 + "}", "at most 4096 characters"),
    ],
)
def test_ns1_a_bad_composition_is_refused(value: str, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=re.escape(message)) as caught:
        oakwood.load("nutty", deck_composition=value)
    assert "deck_composition" in str(caught.value) and len(str(caught.value)) < 300


def test_ns1_a_long_bad_kind_is_not_echoed_back() -> None:
    with pytest.raises(InvalidOptionError, match="unknown card kind") as caught:
        oakwood.load("nutty", deck_composition=json.dumps({"Q" * 3000: 40}))
    assert "Q" * 80 not in str(caught.value)


def test_ns1_solo_needs_thirty_cards_of_the_solo_kinds() -> None:
    game = oakwood.load("nutty", deck_composition=json.dumps({"1": 20, "SW": 10, "WG": 5}))
    game.new_state(2, 1).check_invariants()
    with pytest.raises(InvalidOptionError, match="20 of them, 30 are needed"):
        game.new_state(1, 1)
    with_events = oakwood.load("nutty", deck_composition=game.options.deck_composition, solo_keep_events=True)
    with pytest.raises(InvalidOptionError, match="25 of them, 30 are needed"):
        with_events.new_state(1, 1)


def test_ns2_setup_acorns_stay_and_short_supply() -> None:
    text = position(tree("~2*1.0,BB*1.0,~1,~1,~1"), [board(at="L1c1", powers="LA"), board()])
    state = play(load(text), "flip")
    assert obs(state)["tree"][0][0]["brown"] == 3  # the setup acorn stays, the leaf adds its own
    play(state, "lasso L1c2 brown")  # an acorn on a Broken Branch is reachable with the Lasso
    assert obs(state)["tree"][0][0]["brown"] == 4
    short = load(position(tree("~2,~1,~1,~1,~BB"), [board(at="L1c1", nest="5.0"), board(nest="54.15")]))
    play(short, "flip")
    assert obs(short)["tree"][0][0]["brown"] == 1  # only one brown was left in the supply
    play(short, "move trunk")
    assert "convert" not in legal(short)  # no golden left in the supply


def test_ns3_shifting() -> None:
    # (i) the last card of a shortened limb: the tokens go to i − 1
    end = load(position(tree("~1,~2,SW"), [board(at="L1c3"), board()], rest_to_out=True))
    play(end, "claim")
    assert obs(end)["boards"][0]["at"] == "L1c2" and len(obs(end)["tree"][0]) == 2
    # (ii) loose acorns follow the tokens; (iii) a revealed Broken Branch underfoot: step inward
    step = load(position(tree("~1,LA*0.1,BB,~2,~1"), [board(at="L1c2"), board()]))
    play(step, "claim")
    row = obs(step)["tree"][0]
    assert row[1]["card"] == "BB" and row[1]["golden"] == 1
    assert obs(step)["boards"][0]["at"] == "L1c1"
    # (iv) removed events shift the limb the same way, carrying the tokens further out
    sappy = load(position(tree("~SF,~2,~1,~1,~BB"), [board(at="L1c1"), board(at="L1c3")]))
    play(sappy, "flip")
    assert [b["at"] for b in obs(sappy)["boards"]] == ["L1c1", "L1c2"]


def test_ns4_shortened_limb_and_empty_deck() -> None:
    # While the Leaf Deck lasts, only a break shortens a limb: this one broke beyond its two Broken Branches.
    short = load(position(tree("~1,LA,BB,BB"), [board(at="L1c2"), board()], out="1"))
    deck = obs(short)["deck"]
    play(short, "claim")
    assert len(obs(short)["tree"][0]) == 3 and obs(short)["deck"] == deck
    empty = load(position(tree("~1,LA,~2,~1,~BB"), [board(at="L1c2"), board()], rest_to_out=True))
    assert obs(empty)["deck"] == 0
    play(empty, "claim")
    assert len(obs(empty)["tree"][0]) == 4


def test_ns5_claiming_is_free_and_optional() -> None:
    text = position(tree("~LA,~2,~1,~1,~BB"), [board(at="L1c1"), board(at="L1c1")])
    state = play(load(text), "flip")
    assert "claim" in legal(state)
    play(state, "end")  # not claimed: it stays face up for anyone
    assert obs(state)["tree"][0][0]["card"] == "LA"
    play(state, "claim")
    assert obs(state)["boards"][1]["powers"] == ["LA"] and obs(state)["ap"] == 3


def test_ns6_limb_break_and_swinging() -> None:
    limb = "1,BB,~BB,~1*1.0,~2"
    text = position(tree(limb), [board(at="L1c3"), board(at="L1c4", cheeks="1.0")])
    state = play(load(text), "flip")
    view = obs(state)
    assert len(view["tree"][0]) == 3  # the cards beyond the pair left play
    assert view["out_of_play"]["face_down"] == 2
    assert [b["at"] for b in view["boards"]] == ["trunk", "trunk"]
    assert view["boards"][1]["cheeks"]["brown"] == 0
    assert view["current"] == 1
    slide = load(position(tree(limb), [board(at="L1c3"), board(at="L1c4", cheeks="1.0")]),
                 break_tokens_beyond="slide_to_break")  # fmt: skip
    play(slide, "flip")
    assert obs(slide)["boards"][1]["at"] == "L1c1" and obs(slide)["boards"][1]["cheeks"]["brown"] == 1
    # Swinging Squirrel discounts only a revealed Broken Branch; a face-down card always costs 1.
    swing = load(position(tree("1,~BB,~1,~1,~2"), [board(at="L1c1"), board()], turn="1.1.1.1"))
    assert "move L1c2" in legal(swing)


def test_ns7_wind_gust() -> None:
    limb = "1,~WG,BB,1,~2"
    text = position(tree(limb), [board(at="L1c2"), board(at="L1c1", cheeks="1.0"), board()])
    state = play(load(text), "flip")
    view = obs(state)
    assert view["boards"][0]["at"] == "L1c3"  # pushed to old c4 over the Broken Branch, which shifted in
    assert view["boards"][1]["at"] == "trunk"  # landed on the Broken Branch: fell
    assert view["current"] == 0  # the revealer did not fall: the turn goes on
    assert "WG" in view["out_of_play"]["cards"]
    always = load(position(tree(limb), [board(at="L1c2"), board(), board()]), wind_gust_turn_end="always")
    play(always, "flip")
    assert obs(always)["current"] == 1
    off = load(position(tree("1,1,~1,~WG,~2"), [board(at="L1c4"), board(at="L1c1"), board()]))
    play(off, "flip")
    assert obs(off)["boards"][0]["at"] == "trunk" and obs(off)["current"] == 1  # pushed off the end


def test_ns8_fools_gold_backpack() -> None:
    players = [board(at="L1c1", powers="BP", pack="g"), board()]
    text = position(tree("~FG,~1,~1,~1,~BB"), players)
    state = play(load(text), "flip")
    assert obs(state)["boards"][0]["backpack"] == "brown"  # the only golden: exchanged at once
    excluded = play(load(text, fools_gold_includes_backpack=False), "flip")
    assert obs(excluded)["boards"][0]["backpack"] == "golden"


def test_ns9_two_sappy_feet_and_sugar_rush() -> None:
    text = position(tree("~1,~1,~1,~BB,~BB"), [board(sappy="2.0"), board()], turn="2.3.1.1")
    state = play(load(text), "end")
    assert obs(state)["ap"] == 1
    sugar = play(load(position(tree("~1,~1,~1,~BB,~BB"), [board(powers="SR", sappy="1.0"), board()],
                               turn="2.3.1.1")), "end")  # fmt: skip
    assert obs(sugar)["ap"] == 3


def test_ns10_arborist() -> None:
    limb = "~AR,~2,~BB,~WG,~LA"
    text = position(tree(limb), [board(at="L1c1"), board(at="L1c3", cheeks="1.0")], deck_top="1,1")
    state = play(load(text), "flip")
    view = obs(state)
    row = view["tree"][0]
    assert [c["card"] for c in row[:3]] == ["2", "BB", "LA"]
    assert row[0]["brown"] == 2 and row[0]["squirrels"] == [0]
    assert view["boards"][1]["at"] == "trunk"  # stood on the revealed Broken Branch
    assert {"AR", "WG"} <= set(view["out_of_play"]["cards"])
    assert view["current"] == 0  # the revealer did not fall
    chain = play(load(text, arborist_mode="chain"), "flip")
    cview = obs(chain)
    assert cview["boards"][0]["at"] == "trunk"  # the chained Wind Gust pushed P1 onto the Broken Branch
    assert cview["boards"][1]["at"] == "L1c3"  # pushed before the Broken Branch under it resolved
    assert cview["current"] == 1


def test_ns11_backpack_spittoon_lasso() -> None:
    text = position(tree("~1,1*2.1,~2,~1,~BB"), [board(at="L1c2", powers="BP,LA,SP", cheeks="2.0"), board()])
    state = load(text)
    assert "gather golden" in legal(state)  # the Backpack holds a third acorn
    play(state, "gather golden")
    assert obs(state)["boards"][0]["backpack"] == "golden"
    assert "gather brown" not in legal(state)
    play(state, "drop brown", "spit L1c2 brown")
    assert obs(state)["boards"][0]["nest"]["brown"] == 1
    assert not any(a.startswith("spit") for a in legal(state))  # once per turn
    assert [a for a in legal(state) if a.startswith("lasso")] == []  # nothing adjacent to pull
    short = tree("~1,1,2*1.0,~1,~BB", "~SW,LA*0.1")  # limb 2 is short: the Leaf Deck has run out
    lasso = load(position(short, [board(at="L1c2", powers="FL,LA"), board()], rest_to_out=True))
    assert [a for a in legal(lasso) if a.startswith("lasso")] == ["lasso L1c3 brown"]
    lateral = load(position(short, [board(at="L1c2", powers="FL,LA"), board()], rest_to_out=True),
                   lasso_lateral_with_flying=True)  # fmt: skip
    assert [a for a in legal(lateral) if a.startswith("lasso")] == ["lasso L1c3 brown", "lasso L2c2 golden"]
    trunk = load(position(tree("1*1.0,1,2*1.0,~1,~BB"), [board(powers="LA"), board()]))
    assert not any(a.startswith("lasso") for a in legal(trunk))
    fall = load(position(tree("~BB,1,2,~1,~SW"), [board(at="L1c1", powers="BP", pack="g"), board()]))
    play(fall, "flip")
    assert obs(fall)["boards"][0]["backpack"] is None and obs(fall)["supply"]["golden"] == 15


def test_ns12_sticky_fingers() -> None:
    players = [board(powers="ST", sticky="2.0"), board(at="L1c1", nest="1.1", powers="BP", pack="g")]
    state = load(position(tree("1,~1,~2,~1,~BB"), players))
    assert [a for a in legal(state) if a.startswith("steal")] == ["steal p2 brown", "steal p2 golden"]
    play(state, "steal p2 golden")
    view = obs(state)
    assert view["boards"][0]["burrow"] == {"brown": 2, "golden": 1}  # three tracked: buried for free
    assert "ST" in view["out_of_play"]["cards"] and view["boards"][0]["powers"] == []
    thief = board(at="L1c1", powers="ST", sticky="1.0")
    victim = board(at="L1c1", cheeks="1.0", powers="BP", pack="g")
    cheeks = load(position(tree("1,~1,~2,~1,~BB"), [thief, victim]))
    steals = [a for a in legal(cheeks) if a.startswith("steal")]
    assert steals == ["steal p2 brown", "steal p2 backpack"]  # the Backpack's acorn is safe
    play(cheeks, "steal p2 backpack")
    view = obs(cheeks)
    assert view["boards"][0]["powers"] == ["BP"] and view["out_of_play"]["brown"] == 1  # tracked loot left play
    assert view["boards"][1]["cheeks"] == {"brown": 1, "golden": 1}  # the Backpack's acorn to the cheeks
    assert not any(a.startswith("steal") for a in legal(cheeks))  # once per turn


def test_ns13_flying_and_single_use_doppelganger() -> None:
    text = position(tree("~1,BB,~2", "~1,~2", "-", "-", "~1,~1", "~1,~1,~2"),
                    [board(at="L6c2", powers="FL"), board()], rest_to_out=True)  # fmt: skip
    moves = [a for a in legal(load(text)) if a.startswith("move")]
    # L1c2 is a revealed Broken Branch (never a landing), L5 has a card 2, the ring wraps L6 → L1.
    assert moves == ["move L5c2", "move L6c1", "move L6c3"]
    ring = tree("~1,1,~2", "~1,~2", "-", "-", "~1", "~1,~1,~BB")
    flyer = load(position(ring, [board(at="L6c2", powers="FL"), board()], rest_to_out=True))
    assert [a for a in legal(flyer) if a.startswith("move")] == ["move L1c2", "move L6c1", "move L6c3"]
    single = load(position(tree("~1,1,2*1.0,1*1.0,~BB"), [board(at="L1c3", powers="DO"), board(powers="LA")]),
                  doppelganger_duration="single_use")  # fmt: skip
    play(single, "copy lasso", "lasso L1c4 brown")
    assert not any(a.startswith("lasso") for a in legal(single))


def test_ns14_end_trigger_and_final_round() -> None:
    revealed = "1,1,1,1,1"
    text = position(["~2,BB,BB", "2,2,2,2,2", "3,3,3,3,3", "G,G,G,G,G", "0,0,0,2,2", revealed],
                    [board(), board(at="L1c1"), board()], turn="2.3.1.1")  # fmt: skip
    state = load(text)
    play(state, "flip")
    view = obs(state)
    assert view["end_triggered"] and view["turns_left"] == 1 + 3  # P3 finishes the round, then three turns
    play(state, "end", "end", "end", "end")
    assert not state.is_terminal()
    play(state, "end")
    assert state.is_terminal()
    variant = load(text, end_trigger="all_cards_revealed")
    play(variant, "flip")
    assert not obs(variant)["end_triggered"]  # the Leaf Deck still holds cards


def test_ns15_tie_breaks() -> None:
    def finish(p1: str, p2: str, **options: object) -> list[int]:
        state = load(position(tree("~1,~1,~1,~BB,~BB"), [p1, p2], turn="2.3.1.1", end="1.0"), **options)
        play(state, "end")
        assert state.is_terminal()
        return state.winners()

    assert finish(board(burrow="5.0"), board(burrow="0.1")) == [1]  # golden buried breaks the tie
    assert finish(board(burrow="5.0", nest="1.0"), board(burrow="5.0")) == [0]  # then unburied value
    assert finish(board(burrow="5.0"), board(burrow="5.0")) == [0, 1]  # shared
    scoped = finish(board(burrow="5.0", nest="0.1"), board(burrow="0.1"), tb_golden_scope="all_possessed")
    assert scoped == [0, 1] or scoped == [0]


def test_ns16_trunk_and_drops() -> None:
    state = load(position(tree("~1,~1,~1,~BB,~BB"), [board(cheeks="1.0"), board()]))
    moves = [a for a in legal(state) if a.startswith("move")]
    assert moves == [f"move L{i}c1" for i in range(1, 7)]
    assert "drop brown" not in legal(state)
    with pytest.raises(IllegalActionError, match="Trunk"):
        play(state, "drop brown")
    play(state, "move L1c1", "end", "end")
    assert obs(state)["ap"] == 3  # unused AP are lost, not saved


def test_ns13_copied_backpack_and_tracked_loot() -> None:
    players = [board(at="L1c2", powers="DO", cheeks="2.0"), board(powers="BP", sticky="0.0"), board()]
    state = load(position(tree("~1,1*0.1,~2,~1,~BB"), players))
    play(state, "copy backpack", "gather golden")
    assert obs(state)["boards"][0]["backpack"] == "golden"
    play(state, "end")  # the copy ends: its acorn lands on the card (the cheeks are full), the card leaves play
    view = obs(state)
    assert view["boards"][0]["backpack"] is None and view["tree"][0][1]["golden"] == 1
    assert "DO" in view["out_of_play"]["cards"]
    loot_players = [board(at="L1c2", powers="DO"), board(powers="ST", sticky="1.1"), board()]
    looter = load(position(tree("~1,1,~2,~1,~BB"), loot_players), doppel_sticky="take_tracked_loot")
    play(looter, "copy sticky")
    assert [a for a in legal(looter) if a.startswith(("steal", "loot"))] == ["loot p2"]
    play(looter, "loot p2")
    assert obs(looter)["boards"][0]["cheeks"] == {"brown": 1, "golden": 1}
    assert obs(looter)["boards"][1]["sticky"] == {"brown": 0, "golden": 0}
