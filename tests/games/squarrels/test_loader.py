"""The S'Quarrels loader refuses every position the game cannot reach, naming the field (``consistency.py``).

Each case is a position written in notation that breaks one rule; the refusal must be an
``InvalidNotationError`` whose ``field`` is the field at fault and whose message says why. The second half
shows the boundary from the other side: reachable positions close to each rule load and play on.
"""

from __future__ import annotations

from typing import Any

import pytest

import oakwood
from oakwood.engine import Game, InvalidNotationError, Rng
from tests.conformance.kit import check_step_basics, play_random
from tests.games.squarrels.helpers import GAME, SINGLE, notation

MANDATORY = oakwood.load("squarrels", whirlwind_draw="mandatory_to_7")
MATCH_GOLDEN = oakwood.load("squarrels", golden_lost_scope="match")
ANY_OUT = oakwood.load("squarrels", quarrel_exhaustion="any_out_draws")
SURVIVOR = oakwood.load("squarrels", quarrel_exhaustion="survivor_plays")
SEAT_ORDER = oakwood.load("squarrels", hoard_race="seat_order")
SKIPS = oakwood.load("squarrels", hoard_empty_skips=True)
DRAWER_RACES = oakwood.load("squarrels", hoard_drawer_may_race=True)
WILD = oakwood.load("squarrels", golden_wild_in_sets=True)
SHARED = oakwood.load("squarrels", target_tie="shared_win")


def refusal(text: str, game: Game[Any] = GAME) -> InvalidNotationError:
    """The error ``game.from_notation(text)`` raises (the test fails if it loads)."""
    with pytest.raises(InvalidNotationError) as info:
        game.from_notation(text)
    return info.value


def with_field(text: str, key: str, value: str) -> str:
    """``text`` with one field's value replaced."""
    parts = [f"{key}={value}" if part.startswith(f"{key}=") else part for part in text.split()]
    return " ".join(parts)


def with_deck(text: str, extra: str) -> str:
    """``text`` with ``extra`` cards put on top of its Deck (the helper's filler would absorb them)."""
    deck = next(part for part in text.split() if part.startswith("deck="))
    return text.replace(deck, deck + extra)


QUARREL_3P: dict[str, Any] = {"discard": "Q", "phase": "quarrel"}  # P1 drew the Quarrel
RACE_3P: dict[str, Any] = {"discard": "H", "phase": "race", "hoard": "5@2"}  # P1 drew the Hoard

REFUSED: list[tuple[str, str, Game[Any], str, str]] = [
    # (id, notation, game, field, message fragment) — the cases issue 8 found first.
    # Winter in Discard with the round running: accepted before, then an IndexError once the Deck ran out.
    ("winter in discard mid-round", notation(3, "12/3/4", discard="W"), GAME, "discard", "at once (SQ-15)"),
    ("three extra 5s in the deck", with_deck(notation(3, "12/3/4"), "555"), GAME, "deck", "12 × 5 in play"),
    ("counter 2**70", notation(3, "12/3/4", rng=f"1:{2**70}"), GAME, "rng", "below 2**64"),
    ("seed above 2**128", notation(3, "12/3/4", rng=f"{2**128}:0"), GAME, "rng", "below 2**128"),
    ("seed of 4400 digits", notation(3, "12/3/4", rng="9" * 4400 + ":0"), GAME, "rng", "seed:counter"),
    ("total of 5000 digits", notation(3, "12/3/4", totals="1,2," + "9" * 5000), GAME, "totals", "whole numbers"),
    # Cards
    ("over without winter", notation(2, "1/2", phase="over", winners="1", last="0,0"), SINGLE, "discard", "Winter"),
    ("golden out by default", notation(2, "1/2", golden_out=1, round_no=2, last="0,0"), GAME, "golden_out", "match"),
    ("golden out in round 1", notation(2, "1/2", golden_out=1), MATCH_GOLDEN, "golden_out", "still in Discard"),
    ("lost golden not out", notation(2, "1/2", discard="GQ"), MATCH_GOLDEN, "golden_out", "out of the match"),
    ("wild set without option", notation(2, "1/2", storage="3*/-"), GAME, "storage", "golden_wild_in_sets"),
    # Match
    ("round 0", notation(2, "1/2", round_no=0), GAME, "round", "between 1"),
    ("single round 2", notation(2, "1/2", round_no=2, last="1,0", dealer=1), SINGLE, "round", "only round 1"),
    ("last in round 1", notation(2, "1/2", last="1,0", totals="1,0"), GAME, "last", "'-'"),
    ("no last in round 2", notation(2, "1/2", round_no=2, totals="1,0"), GAME, "last", "last round's scores"),
    ("totals in round 1", notation(2, "1/2", totals="5,0"), GAME, "totals", "0 finished rounds"),
    ("last round too rich", notation(2, "1/2", round_no=2, last="60,60", totals="60,60"), GAME, "last", "in all"),
    (
        "two negative scores",
        notation(3, "1/2/3", round_no=2, last="-5,-1,9", totals="-5,-1,9", dealer=3),
        GAME,
        "last",
        "at most one",
    ),
    (
        "unique total at target",
        notation(2, "1/2", round_no=3, last="30,20", totals="55,40", dealer=1),
        GAME,
        "totals",
        "the match is over",
    ),
    (
        "already won before",
        notation(2, "1/2", round_no=4, last="0,5", totals="55,50", dealer=2),
        GAME,
        "totals",
        "already been won",
    ),
    (
        "dealer lost the round",
        notation(2, "1/2", round_no=2, last="3,5", totals="3,5", dealer=1),
        GAME,
        "dealer",
        "winner of the last round",
    ),
    ("winners while running", notation(2, "1/2", winners="1"), GAME, "winners", "still running"),
    (
        "wrong winners",
        notation(2, "1/2", phase="over", discard="W", last="5,0", totals="5,0", winners="2"),
        SINGLE,
        "winners",
        "P1",
    ),
    (
        "over below target",
        notation(2, "1/2", phase="over", discard="W", round_no=2, last="5,0", totals="9,4", winners="1"),
        GAME,
        "totals",
        "reached the target",
    ),
    (
        "over on a tie",
        notation(2, "1/2", phase="over", discard="W", round_no=3, last="25,25", totals="50,50", winners="1,2"),
        GAME,
        "totals",
        "another round",
    ),
    (
        "single round totals",
        notation(2, "1/2", phase="over", discard="W", last="5,0", totals="5,1", winners="1"),
        SINGLE,
        "totals",
        "then its round scores",
    ),
    # Turn
    ("whirl by default", notation(2, "1/2", phase="drawing", whirl=1), GAME, "whirl", "mandatory_to_7"),
    ("whirl while storing", notation(2, "1/2", phase="storing", whirl=1), MANDATORY, "whirl", "while drawing"),
    ("whirl without whirlwind", notation(2, "1/2", phase="drawing", whirl=1), MANDATORY, "discard", "Whirlwind"),
    (
        "quarrel never drawn",
        notation(3, "24/R3/12", quarrel="1|1,2,3|-|-", phase="quarrel"),
        GAME,
        "discard",
        "Quarrel",
    ),
    ("race never drawn", notation(3, "1/2/3", race="1|2,3|-|-", phase="race"), GAME, "discard", "Hoard"),
    ("storing empty-handed", notation(2, "-/2", phase="storing"), GAME, "hands", "holds a card"),
    # Quarrel
    ("quarrel drawer idle", notation(3, "24/R3/12", quarrel="2|1,2,3|-|-", **QUARREL_3P), GAME, "quarrel", "active"),
    ("live out of order", notation(3, "24/R3/12", quarrel="1|2,1,3|-|-", **QUARREL_3P), GAME, "quarrel", "clockwise"),
    ("live twice", notation(3, "24/R3/12", quarrel="1|1,1,2,3|-|-", **QUARREL_3P), GAME, "quarrel", "once each"),
    ("commit twice", notation(3, "2/R3/12", quarrel="1|1,2,3|4@1,4@1|-", **QUARREL_3P), GAME, "quarrel", "one card"),
    ("all committed", notation(3, "2/R/12", quarrel="1|1,2|4@1,3@2|-", **QUARREL_3P), GAME, "quarrel", "still to play"),
    ("live with no card", notation(3, "24/R3/-", quarrel="1|1,2,3|-|-", **QUARREL_3P), GAME, "quarrel", "no card"),
    ("holder left out", notation(3, "24/R3/12", quarrel="1|1,2|-|-", **QUARREL_3P), GAME, "quarrel", "P3 hold"),
    ("unique top in pot", notation(3, "24/R/-", quarrel="1|1,2|-|5@1,3@2", **QUARREL_3P), GAME, "quarrel", "unique"),
    ("golden in pot", notation(3, "24/R/-", quarrel="1|1,2|-|G@1,5@2", **QUARREL_3P), GAME, "quarrel", "unique"),
    (
        "untied plays again",
        notation(3, "24/R3/1", quarrel="1|1,3|-|5@1,5@2,2@3", **QUARREL_3P),
        GAME,
        "quarrel",
        "only the tied",
    ),
    (
        "lone survivor plays",
        notation(3, "24/-/1", quarrel="1|1|-|5@1,5@2,2@3", **QUARREL_3P),
        GAME,
        "quarrel",
        "wins at once",
    ),
    (
        "dropped under any_out",
        notation(3, "24/-/1", quarrel="1|1,3|-|5@1,5@2,5@3", **QUARREL_3P),
        ANY_OUT,
        "quarrel",
        "any_out_draws",
    ),
    (
        "dropped seat holds",
        notation(3, "24/3/1", quarrel="1|1|-|5@1,5@2,2@3", **QUARREL_3P),
        SURVIVOR,
        "quarrel",
        "P2 hold",
    ),
    # Hoard race
    ("race drawer idle", notation(3, "1/2/3", race="2|2,3|-|-", **RACE_3P), GAME, "race", "active"),
    ("eligible out of order", notation(3, "1/2/3", race="1|3,2|-|-", **RACE_3P), GAME, "race", "P2,P3"),
    ("drawer racing", notation(3, "1/2/3", race="1|2,3,1|-|-", **RACE_3P), GAME, "race", "P2,P3"),
    ("two-player race", notation(2, "1/2", race="1|2|-|-", **RACE_3P), GAME, "race", "two eligible"),
    ("commit in realtime", notation(3, "1/2/3", race="1|2,3|-|slap@2", **RACE_3P), GAME, "race", "no commits"),
    ("pass in seat_order", notation(3, "1/2/3", race="1|2,3|2|-", **RACE_3P), SEAT_ORDER, "race", "not passes"),
    ("everyone passed", notation(3, "1/2/3", race="1|2,3|2,3|-", **RACE_3P), GAME, "race", "still to answer"),
    ("pass twice", notation(4, "1/2/3/4", race="1|2,3,4|2,2|-", **RACE_3P), GAME, "race", "once"),
    ("answer twice", notation(3, "1/2/3", race="1|2,3|-|pass@2,slap@2", **RACE_3P), SEAT_ORDER, "race", "once"),
    (
        "empty pile race",
        notation(3, "1/2/3", race="1|2,3|-|-", **{**RACE_3P, "hoard": "-"}),
        SKIPS,
        "hoard",
        "hoard_empty_skips",
    ),
    # Text
    ("underscore digits", notation(2, "1/2", round_no=1).replace("round=1", "round=1_0"), GAME, "round", "whole"),
    ("unicode digit", notation(2, "1/2").replace("players=2", "players=\u0662"), GAME, "players", "whole"),
    ("empty hand part", notation(3, "12/3/4").replace("hands=12/3/4", "hands=12//4"), GAME, "hands", "'-'"),
    ("dash as a card", notation(3, "12/3/4", hoard="-@2"), GAME, "hoard", "card@seat"),
]


@pytest.mark.parametrize(("text", "game", "field", "fragment"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_unreachable_position_is_refused_naming_the_field(
    text: str, game: Game[Any], field: str, fragment: str
) -> None:
    error = refusal(text, game)
    assert error.field == field, str(error)
    assert f"(in {field!r})" in str(error)
    assert fragment in str(error)


def test_missing_cards_are_counted_and_belong_in_the_deck() -> None:
    text = with_field(notation(2, "1/2"), "hands", "-/2")  # the 1 is nowhere now
    error = refusal(text)
    assert error.field == "deck"
    assert "29 × 1 in play" in str(error) and "the game has 30" in str(error)


def test_a_huge_value_is_quoted_short() -> None:
    text = with_field(notation(2, "1/2"), "deck", "Z" * 5000)
    error = refusal(text)
    assert error.field == "deck" and len(str(error)) < 200
    huge = notation(2, "1/2") + " " + "x" * 20_000
    assert "at most 10000 characters" in str(refusal(huge))


def test_an_unknown_field_is_quoted_short() -> None:
    error = refusal(notation(2, "1/2") + " " + "k" * 500 + "=1")
    assert len(str(error)) < 400


# ---------------------------------------------------------------------------------------------- reachable ones load
ACCEPTED: list[tuple[str, str, Game[Any]]] = [
    ("whirl while drawing", notation(2, "1/2", phase="drawing", whirl=1, discard="V"), MANDATORY),
    (
        "drawing at 8 cards after a whirlwind",
        notation(2, "11223344/-", phase="drawing", whirl=1, discard="V"),
        MANDATORY,
    ),
    ("empty hand drawing", notation(2, "-/2", phase="drawing"), GAME),
    ("tied leaders play on", notation(2, "1/2", round_no=3, last="22,22", totals="50,50"), GAME),
    (
        "golden out from round 2",
        notation(2, "1/2", golden_out=1, round_no=2, last="0,5", totals="0,5", dealer=2),
        MATCH_GOLDEN,
    ),
    ("golden lost this round", notation(2, "1/2", golden_out=1, discard="GQ"), MATCH_GOLDEN),
    ("wild set", notation(2, "1/2", storage="3*/-"), WILD),
    ("lone player quarrel", notation(3, "24/-/-", quarrel="1|1|-|-", **QUARREL_3P), GAME),
    ("tie-break pending", notation(3, "24/R/-", quarrel="1|1,2|4@1|5@1,5@2,2@3", **QUARREL_3P), GAME),
    ("survivor plays alone", notation(3, "24/-/1", quarrel="1|1|-|5@1,5@2,2@3", **QUARREL_3P), SURVIVOR),
    ("empty pile race", notation(3, "1/2/3", race="1|2,3|-|-", **{**RACE_3P, "hoard": "-"}), GAME),
    ("two-player race", notation(2, "1/2", race="1|2,1|-|-", **RACE_3P), DRAWER_RACES),
    ("some passed", notation(4, "1/2/3/4", race="1|2,3,4|4,2|-", **RACE_3P), GAME),
    ("some committed", notation(3, "1/2/3", race="1|2,3|-|pass@3", **RACE_3P), SEAT_ORDER),
    (
        "single round over",
        notation(3, "1/2/3", phase="over", discard="W", last="5,0,5", totals="5,0,5", winners="1,3"),
        SINGLE,
    ),
    (
        "shared win",
        notation(2, "1/2", phase="over", discard="W", round_no=3, last="25,25", totals="50,50", winners="1,2"),
        SHARED,
    ),
    ("negative totals", notation(3, "1/2/3", round_no=3, last="-5,0,0", totals="-10,0,0", dealer=2), GAME),
]


@pytest.mark.parametrize(("text", "game"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_reachable_position_loads_and_plays_on(text: str, game: Game[Any]) -> None:
    state = game.from_notation(text)
    assert state.to_notation() == text
    if not state.is_terminal():
        check_step_basics(state)
        play_random(state, Rng(1))
    state.check_invariants()
