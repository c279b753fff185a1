"""The notation loader refuses every position the rules cannot reach, naming the field (issue 8).

One test per rule of ``consistency.py`` (and the parsing bounds of ``notation.py``), written in notation: a
reachable position, then the same position changed in one field.
"""

from __future__ import annotations

import json

import pytest

import oakwood
from oakwood.engine import InvalidNotationError

from .helpers import board, load, position

PAD = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]
MULTI = position(["~2,~1,~1,~1,~BB", *PAD], [board(), board()])
SOLO = position(["~2,~1,~1,~1,~BB", *PAD], [board()], solo=True)


def refused(text: str, field: str, message: str, **options: object) -> InvalidNotationError:
    """Load ``text`` expecting a refusal that names ``field`` and says ``message``."""
    with pytest.raises(InvalidNotationError) as caught:
        oakwood.load("nutty", **options).from_notation(text)
    error = caught.value
    assert error.field == field, str(error)
    assert message in str(error), str(error)
    assert len(str(error)) < 400  # a bad value is quoted, not echoed back whole
    return error


def field(text: str, key: str, value: str) -> str:
    """``text`` with one field's value replaced."""
    tokens = text.split(" ")
    at = next(i for i, token in enumerate(tokens) if token.startswith(key + "="))
    tokens[at] = f"{key}={value}"
    return " ".join(tokens)


def test_the_base_positions_load() -> None:
    load(MULTI)
    load(SOLO)


# ---------------------------------------------------------------------- the known cases
def test_a_deck_with_three_extra_owls_is_refused() -> None:
    text = MULTI.replace("deck=", "deck=OW,OW,OW,")
    refused(text, "deck", "3 The Owl (OW) more than deck_composition has")


def test_a_huge_rng_counter_or_seed_is_refused() -> None:
    refused(field(MULTI, "rng", f"1:{2**70}"), "rng", "the counter from 0 to 2**64 - 1")
    refused(field(MULTI, "rng", f"{2**128}:0"), "rng", "the seed runs from -2**127")
    error = refused(field(MULTI, "rng", "7" * 4400 + ":0"), "rng", "expected SEED:COUNTER")
    assert "7" * 81 not in str(error)


def test_numbers_with_thousands_of_digits_are_refused_without_echoing_them() -> None:
    error = refused(field(MULTI, "supply", "9" * 5000 + ".15"), "supply", "expected brown.golden counts")
    assert "9" * 81 not in str(error)
    refused(field(MULTI, "turn", "1.3.1." + "9" * 5000), "turn", "expected a whole number")
    refused(MULTI.replace("tree=~2,", "tree=~2*" + "1" * 5000 + ".0,"), "tree", "bad card on limb 1")


def test_a_long_unknown_field_is_named_shortly() -> None:
    error = refused(MULTI + " " + "x" * 10_000 + "=1", "x" * 80, "unknown field")
    assert len(str(error)) < 300


# ---------------------------------------------------------------------- 1–4: both modes
def test_1_cards_missing_are_refused() -> None:
    refused(MULTI.replace("deck=BB,", "deck="), "tree, deck, out, hidden, box, market, boards", "1 Broken Branch")


def test_1_a_custom_composition_is_the_reference() -> None:
    game = oakwood.load("nutty", deck_composition=json.dumps({"1": 30, "BB": 2, "OW": 1}))
    state = game.new_state(2, 3)
    text = state.to_notation()
    assert game.from_notation(text).to_notation() == text
    with pytest.raises(InvalidNotationError, match="missing: every card of deck_composition"):
        oakwood.load("nutty").from_notation(text)  # the proposal has other cards


def test_2_acorns_are_conserved() -> None:
    refused(field(MULTI, "supply", "59.15"), "supply", "59 brown and 15 golden counted")
    refused(field(MULTI, "gone", "0.1"), "supply", "60 brown and 16 golden counted")


def test_3_boards() -> None:
    refused(field(MULTI, "p1", "T|-|0.0|b|0.0|0.0|0.0|0.0").replace("supply=60", "supply=59"), "p1", "Backpack")
    refused(field(MULTI, "p1", "T|-|2.1|-|0.0|0.0|0.0|0.0"), "p1", "at most two acorns")
    refused(field(MULTI, "p1", "T|SW,SW|0.0|-|0.0|0.0|0.0|0.0"), "p1", "at most three different powers")


def test_4_a_limb_with_two_revealed_broken_branches_has_broken() -> None:
    text = position(["1,BB,BB,~1,~1", *PAD], [board(), board()], rest_to_out=True)
    refused(text, "tree", "limb 1 has two adjacent revealed Broken Branches with cards beyond")
    load(position(["1,BB,BB", *PAD], [board(), board()], rest_to_out=True, hidden="1,1"))


def test_4_a_revealed_event_has_left_the_tree() -> None:
    refused(position(["~2,~1,WG,~1,~BB", *PAD], [board(), board()]), "tree", "a face-up Wind Gust at L1c3")
    load(position(["~2,~1,BB,~1,~BB", *PAD], [board(), board()]))  # a Broken Branch stays


def test_4_unseen_cards_out_of_play_come_from_a_break() -> None:
    refused(position(["~2,~1,~1,~1,~BB", *PAD], [board(), board()], hidden="SW"), "hidden", "no limb has broken")


# ---------------------------------------------------------------------- 5–13: multiplayer
def test_5_box_and_market_are_solo_zones() -> None:
    refused(
        field(MULTI, "market", "SW").replace(
            "deck=BB,BB,BB,WG,WG,FG,SF,SF,AR,AR,SW,", "deck=BB,BB,BB,WG,WG,FG,SF,SF,AR,AR,"
        ),
        "market",
        "solo zones",
    )


def test_6_sticky_fingers_tracks_at_most_two_of_its_own() -> None:
    tracked = position(["~2,~1,~1,~1,~BB", *PAD], [board(powers="ST", sticky="2.0"), board()])
    load(tracked)
    refused(
        tracked.replace("p1=T|ST|0.0|-|0.0|0.0|2.0", "p1=T|ST|0.0|-|0.0|0.0|3.0").replace("supply=58", "supply=57"),
        "p1",
        "at most two acorns",
    )
    refused(
        tracked.replace("p1=T|ST|", "p1=T|-|").replace("deck=", "deck=ST,"),
        "p1",
        "Sticky Fingers the player does not hold",
    )


def test_7_a_short_limb_while_the_deck_lasts_has_broken() -> None:
    short = ["~2,~1,~1,1,1", "~1,~1,~1,~1", *PAD[1:]]
    refused(position(short, [board(), board()]), "tree", "limb 2 has 4 cards while the Leaf Deck has cards")
    load(position(short, [board(), board()], rest_to_out=True))  # the deck ran out: fine


def test_8_rounds_sappy_feet_and_action_points() -> None:
    refused(field(MULTI, "turn", "1.3.1.61"), "turn", "round 61 is past max_rounds=60")
    load(field(MULTI, "turn", "1.3.1.61"), max_rounds=61)
    sappy = position(["~2,~1,~1,~1,~BB", *PAD], [board(), board(sappy="0.1")])
    refused(sappy, "p2", "Sappy Feet are applied only during their owner's turn")
    refused(field(MULTI, "turn", "1.4.1.1"), "turn", "4 AP left, but this turn gave at most 3")
    load(position(["~2,~1,~1,~1,~BB", *PAD], [board(powers="SR"), board()], turn="1.4.1.1"))
    # Swapped onto the tree this turn, or since cut off by a limb break: it counted at the start.
    load(position(["SR,~1,~1,~1,~BB", *PAD], [board(), board()], turn="1.4.1.1"))
    load(position(["~2,~1,~1,~1,~BB", *PAD], [board(), board()], turn="1.4.1.1", out="SR"))
    load(position(["~2,~1,~1,~1,~BB", *PAD], [board(powers="DO"), board(powers="SR")], turn="1.4.1.1", copy="SR"))
    slowed = position(["~2,~1,~1,~1,~BB", *PAD], [board(sappy="0.1"), board()], turn="1.3.1.1")
    refused(slowed, "turn", "3 AP left, but this turn gave at most 2")


def test_9_a_copy_needs_the_doppelganger() -> None:
    refused(position(["~2,~1,~1,~1,~BB", *PAD], [board(), board(powers="SR")], copy="SR"), "copy", "Doppelgänger")
    refused(field(MULTI, "copy", "!"), "copy", "expected - or a copied power code")
    refused(field(MULTI, "copy", "SR!!"), "copy", "expected - or a copied power code")


def test_10_broken_branches_underfoot() -> None:
    limb = "1,BB,~1,~2,~SW"
    refused(position([limb, *PAD], [board(), board(at="L1c2")]), "p2", "nobody rests on a Broken Branch between turns")
    load(position([limb, *PAD], [board(at="L1c2"), board()], turn="1.1.1.1"))
    refused(position([limb, *PAD], [board(at="L1c2"), board()], turn="1.0.1.1"), "turn", "stranded on a Broken Branch")


def test_11_the_end_trigger() -> None:
    revealed = ["2,1,1,1,BB", *(limb.replace("~", "") for limb in PAD)]
    refused(position(revealed, [board(), board()]), "end", "no face-down card is left")
    load(position(revealed, [board(), board()], end="1.3"))
    refused(position(revealed, [board(), board()], end="1.-1"), "end", "a triggered end leaves a number of turns")
    refused(position(revealed, [board(), board()], end="1.2"), "end", "2 turns after P1's is not 1 or 3")
    refused(position(revealed, [board(), board()], end="1.5"), "end", "expected a number from -1 to 4")
    refused(field(MULTI, "end", "0.1"), "end", "only with win_at_20=finish_round")
    load(field(MULTI, "end", "0.1"), win_at_20="finish_round")
    facedown = field(MULTI, "end", "1.1")
    load(facedown)  # a claim refilled the tree after the trigger
    refused(facedown, "end", "face-down cards are left", end_trigger="all_cards_revealed")
    twenty = position(["~2,~1,~1,~1,~BB", *PAD], [board(burrow="0.4"), board()])
    refused(twenty, "end", "P1 has 20 points, so the round is the last", win_at_20="finish_round")


def test_12_fools_gold_waits_for_a_choice_between_two_goldens() -> None:
    players = [board(at="L1c1", cheeks="0.1", nest="0.1"), board()]
    waiting = position(["~2,~1,~1,~1,~BB", *PAD], players, out="FG", phase="fools")
    load(waiting)
    refused(position(["~2,~1,~1,~1,~BB", *PAD], players, phase="fools"), "phase", "Fool's Gold is not out of play")
    one = [board(at="L1c1", cheeks="0.1"), board()]
    refused(position(["~2,~1,~1,~1,~BB", *PAD], one, out="FG", phase="fools"), "phase", "a golden in two places")


def test_13_winners() -> None:
    refused(field(MULTI, "win", "1"), "win", "winners while the game is running")
    over = position(["~2,~1,~1,~1,~BB", *PAD], [board(burrow="0.4"), board(burrow="3.0")], phase="over", win="1")
    load(over)
    refused(field(over, "win", "2"), "win", "the winners by points and tie-breaks are 1")
    refused(field(over, "win", "1,2"), "win", "the winners by points and tie-breaks are 1")
    refused(field(over, "win", "2,1"), "win", "in increasing order")
    refused(field(over, "phase", "turn"), "win", "winners while the game is running")
    running = field(field(over, "phase", "turn"), "win", "-")
    refused(running, "p1", "P1 has 20 points, so the game is over")


# ---------------------------------------------------------------------- 14–16: solo
def test_14_solo_zones() -> None:
    refused(SOLO.replace("box=WG,", "box="), "tree, deck, out, hidden, box, market, boards", "1 Wind Gust")
    refused(SOLO.replace("box=WG,", "box=").replace("deck=", "deck=WG,"), "deck", "Wind Gust is not in the solo deck")
    refused(
        SOLO.replace("box=WG,WG,", "box=WG,SW,").replace("market=SW,", "market=WG,"), "market", "one of each market"
    )
    refused(SOLO.replace("deck=BB,", "deck=").replace("box=", "box=BB,"), "box", "the box holds exactly")
    refused(
        SOLO.replace("box=WG,WG,FG,SF,SF,AR,AR,SW,", "box=WG,WG,FG,SF,SF,AR,AR,").replace(
            "market=SW,FL,BP,LA", "market=SW,SW,FL,BP,LA"
        ),
        "market",
        "one of each market power",
    )
    with_events = position(["~2,~1,~1,~1,~BB", *PAD], [board()], solo=True, keep_events=True)
    load(with_events, solo_keep_events=True)
    refused(with_events, "deck", "is not in the solo deck")


def test_14_no_multiplayer_board_fields_in_solo() -> None:
    sappy = position(["~2,~1,~1,~1,~BB", *PAD], [board(sappy="1.0")], solo=True, keep_events=True)
    refused(sappy, "p1", "no Sticky Fingers track and no Sappy Feet in solo", solo_keep_events=True)
    refused(field(SOLO, "gone", "1.0").replace("supply=60", "supply=59"), "gone", "no acorns leave play in solo")


def test_15_results() -> None:
    refused(SOLO.replace("result=-", "result=won"), "result", "the result is - exactly while the game runs")
    refused(SOLO.replace("phase=play", "phase=over"), "result", "the result is - exactly while the game runs")
    ended = SOLO.replace("phase=play", "phase=over").replace("result=-", "result=ended")
    load(ended)
    refused(ended.replace("result=ended", "result=won"), "result", "won exactly at 20 points, and the score is 0")
    rich = position(
        ["~2,~1,~1,~1,~BB", *PAD], [board(nest="0.4")], solo=True, solo_fields="solo=9 phase=over result=ended"
    )
    refused(rich, "result", "won exactly at 20 points, and the score is 20")
    refused(ended.replace("result=ended", "result=lost"), "result", "lost means a face-up Owl")
    lost = position(
        ["OW,~1,~1,~1,~BB", *PAD],
        [board(at="L1c1", nest="2.0")],
        solo=True,
        solo_fields="solo=4 phase=over result=lost",
    )
    load(lost)
    refused(
        lost.replace("result=lost", "result=ended"), "tree", "a face-up Owl on the tree is bribed or the game is lost"
    )


def test_16_a_running_solo_game() -> None:
    owl = position(["OW,~1,~1,~1,~BB", *PAD], [board(at="L1c1", cheeks="1.0", nest="3.0")], solo=True)
    refused(owl, "tree", "a face-up Owl on the tree must be bribed")
    waiting = owl.replace("phase=play", "phase=bribe")
    load(waiting)  # the cheeks' brown and two from the nest (the usual way), or three from the nest
    refused(SOLO.replace("phase=play", "phase=bribe"), "phase", "no Owl waits on the tree")
    one_way = position(
        ["OW,~1,~1,~1,~BB", *PAD], [board(at="L1c1", nest="3.0")], solo=True, solo_fields="solo=0 phase=bribe result=-"
    )
    refused(one_way, "phase", "waits for a choice between ways to pay")
    refused(SOLO.replace("solo=0", "solo=3000"), "solo", "solo_max_actions=3000 actions taken")
    refused(SOLO.replace("solo=0", "solo=3001"), "solo", "expected a number from 0 to 3000")
    twenty = position(["~2,~1,~1,~1,~BB", *PAD], [board(nest="0.4")], solo=True)
    refused(twenty, "phase", "20 points: the game is won and over")
    bare = ["2,1,1,1,BB", *(limb.replace("~", "") for limb in PAD)]
    refused(position(bare, [board()], solo=True, rest_to_out=True), "phase", "nothing is left within reach")
