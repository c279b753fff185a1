"""Nutty Squirrels notation: exact round trips, pending effects, and errors that name the field."""

from __future__ import annotations

import pytest

import oakwood
from oakwood.engine import InvalidNotationError, Rng

from .helpers import board, load, obs, play, position

PAD = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]


@pytest.mark.parametrize("players", [1, 2, 5])
def test_round_trip_through_a_game(players: int) -> None:
    game = oakwood.load("nutty")
    state = game.new_state(players, 9)
    rng = Rng(9)
    for _ in range(300):
        if state.is_terminal():
            break
        text = state.to_notation()
        again = game.from_notation(text)
        assert again.to_notation() == text
        assert again.observe(None) == state.observe(None)
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_pending_effects_are_kept() -> None:
    text = position(
        ["~FG,~1,~1,~1,~BB", *PAD],
        [board(at="L1c1", powers="DO", cheeks="0.1", burrow="0.1", sappy="1.0"), board(powers="SR")],
        copy="SR",
        end="1.2",
        turn="1.4.2.3",
        used="1.0",
    )
    state = play(load(text), "flip")
    again = oakwood.load("nutty").from_notation(state.to_notation())
    view = obs(again)
    assert view["phase"] == "fools" and view["copy"] == "SR" and view["sticky_used"]
    assert view["boards"][0]["sappy_next"] == 1 and view["end_triggered"] and view["turns_left"] == 2
    assert again.to_notation() == state.to_notation()


def test_repr_pastes_back_with_options() -> None:
    game = oakwood.load("nutty", arborist_mode="chain")
    state = game.new_state(3, 2)
    again = eval(repr(state), {"oakwood": oakwood})
    assert again.to_notation() == state.to_notation() and again.game == game


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (("players=2", "players=9"), "players"),
        (("tree=~2", "tree=~Q"), "tree"),
        (("supply=", "supply=x"), "supply"),
        (("p1=T|", "p1=L9c1|"), "p1"),
        (("turn=1.3.1.1", "turn=7.3.1.1"), "turn"),
        (("phase=turn", "phase=nap"), "phase"),
        (("rng=5:0", "rng=5"), "rng"),
        (("nutty:multi", "nutty:duo"), "header"),
    ],
)
def test_errors_name_the_field(change: tuple[str, str], field: str) -> None:
    text = position(["~2,~1,~1,~1,~BB", *PAD], [board(), board()])
    bad = text.replace(*change, 1)
    with pytest.raises(InvalidNotationError, match=field):
        oakwood.load("nutty").from_notation(bad)


def test_missing_and_unknown_fields() -> None:
    text = position(["~2,~1,~1,~1,~BB", *PAD], [board(), board()])
    with pytest.raises(InvalidNotationError, match="'win'"):
        oakwood.load("nutty").from_notation(text.replace(" win=-", ""))
    with pytest.raises(InvalidNotationError, match="unknown field"):
        oakwood.load("nutty").from_notation(text + " extra=1")
