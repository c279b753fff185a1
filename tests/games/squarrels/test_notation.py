"""S'Quarrels notation: malformed text names its field, positions round-trip, ``repr`` pastes back."""

from __future__ import annotations

import re

import pytest

import oakwood
from oakwood.engine import InvalidNotationError, Rng
from tests.conformance.kit import random_step
from tests.games.squarrels.helpers import GAME, notation

BASE = notation(3, "12/3/4", hoard="5@2", discard="Q")


def with_field(key: str, value: str, text: str = BASE) -> str:
    """``text`` with one field's value replaced."""
    return re.sub(rf"(?<= ){key}=\S*", f"{key}={value}", text)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("players", "9", "between 2 and 6"),
        ("players", "three", "whole number"),
        ("round", "x", "whole number"),
        ("dealer", "0", "between 1 and 3"),
        ("totals", "1,2", "3 comma-separated"),
        ("totals", "1,x,3", "whole numbers"),
        ("last", "1,2,3,4", "3 comma-separated"),
        ("phase", "flying", "unknown phase"),
        ("active", "4", "between 1 and 3"),
        ("whirl", "2", "0 or 1"),
        ("hands", "12/3", "3 seats"),
        ("hands", "12/3/Q", "Action card"),
        ("hands", "12/3/X", "unknown card symbol"),
        ("storage", "G/-/-", "value 1-5"),
        ("storage", "*/-/-", "must follow a set value"),
        ("deck", "12Z", "unknown card symbol"),
        ("hoard", "5@9", "between 1 and 3"),
        ("hoard", "55@2", "card@seat"),
        ("hoard", "Q@2", "Action card"),
        ("discard", "Q?", "unknown card symbol"),
        ("golden_out", "yes", "0 or 1"),
        ("quarrel", "1|1,2|-|-", "only a quarrel phase"),
        ("race", "1|2,3|-|-", "only a race phase"),
        ("winners", "7", "between 1 and 3"),
        ("rng", "abc", "seed:counter"),
        ("rng", "5", "seed:counter"),
        ("rng", "5:-1", "seed:counter"),
    ],
)
def test_malformed_field_is_named(key: str, value: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message) as info:
        GAME.from_notation(with_field(key, value))
    assert info.value.field == key
    assert f"(in {key!r})" in str(info.value)


def test_pending_decisions_are_checked() -> None:
    quarrel = with_field("phase", "quarrel", with_field("quarrel", "1|1,2|1@3|-"))
    with pytest.raises(InvalidNotationError, match="live players") as info:
        GAME.from_notation(quarrel)
    assert info.value.field == "quarrel"
    race = with_field("phase", "race", with_field("race", "1|2|-|-"))
    with pytest.raises(InvalidNotationError, match="at least two eligible") as info:
        GAME.from_notation(race)
    assert info.value.field == "race"
    race = with_field("phase", "race", with_field("race", "1|2,3|-|hop@2"))
    with pytest.raises(InvalidNotationError, match="slap@seat"):
        GAME.from_notation(race)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "starts with 'squarrels'"),
        ("barrell players=2", "starts with 'squarrels'"),
        (BASE + " colour=red", "unknown field 'colour'"),
        (BASE + " round=2", "given twice"),
        (BASE.replace(" whirl=0", ""), "missing field"),
        (BASE.replace(" whirl=0", " whirl"), "expected key=value"),
        (with_field("hands", "12/3/45"), "do not add up"),  # one 5 too many: card counts no longer add up
        (with_field("discard", "QW"), "do not add up"),  # two Winters
    ],
)
def test_malformed_notation_is_explained(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        GAME.from_notation(text)


def test_non_text_is_refused() -> None:
    with pytest.raises(InvalidNotationError, match="must be text"):
        GAME.from_notation(42)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_round_trip_and_same_future_along_a_game(players: int) -> None:
    game = oakwood.load("squarrels", target_score=20, hoard_race="seat_order")
    state = game.new_state(players, seed=players)
    rng = Rng(players)
    steps = 0
    while not state.is_terminal():
        text = state.to_notation()
        rebuilt = game.from_notation(text)
        assert rebuilt.to_notation() == text
        assert rebuilt.rng.state() == state.rng.state()
        if steps % 7 == 0:
            pasted = eval(repr(state), {"oakwood": oakwood})
            assert pasted.to_notation() == text and pasted.game == game
            probe = state.clone()
            seat, action = random_step(probe, rng.clone())
            rebuilt.apply(seat, action)
            assert rebuilt.to_notation() == probe.to_notation()
        random_step(state, rng)
        steps += 1
    assert game.from_notation(state.to_notation()).to_notation() == state.to_notation()


def test_repr_names_changed_options() -> None:
    game = oakwood.load("squarrels", quarrel_exhaustion="any_out_draws")
    state = game.from_notation(BASE)
    assert repr(state).startswith("oakwood.load('squarrels', quarrel_exhaustion='any_out_draws').from_notation(")
    again = eval(repr(state), {"oakwood": oakwood})
    assert again.game.options.quarrel_exhaustion == "any_out_draws" and again.to_notation() == BASE


def test_written_fields_follow_the_docstring() -> None:
    state = GAME.from_notation(BASE)
    text = state.to_notation()
    assert text == BASE
    assert text.split()[0] == "squarrels"
    assert [p.split("=")[0] for p in text.split()[1:]] == [
        "players",
        "round",
        "dealer",
        "totals",
        "last",
        "phase",
        "active",
        "whirl",
        "hands",
        "storage",
        "deck",
        "hoard",
        "discard",
        "golden_out",
        "quarrel",
        "race",
        "winners",
        "rng",
    ]
