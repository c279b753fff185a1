"""The generic checked API of the engine, exercised through S'Quarrels (any game would do)."""

from __future__ import annotations

import pytest

import oakwood
from oakwood.engine import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    NotYourTurnError,
    Replay,
    UnknownGameError,
)

GAME = oakwood.load("squarrels", single_round=True)


def test_apply_index_plays_the_action_with_that_codec_number() -> None:
    state = GAME.new_state(3, seed=1)
    seat = state.to_act()[0]
    (draw,) = state.legal_actions(seat)
    index = GAME.encode(draw)
    assert state.legal_mask(seat)[index]
    state.apply_index(seat, index)
    assert state.history == [(seat, draw)]
    with pytest.raises(InvalidActionError, match="outside"):
        state.apply_index(seat, GAME.num_actions)


def test_refusals_name_the_problem_and_change_nothing() -> None:
    state = GAME.new_state(3, seed=2)
    before = state.to_notation()
    seat = state.to_act()[0]
    idle = (seat + 1) % 3
    with pytest.raises(NotYourTurnError, match=f"P{idle + 1} may not act now; waiting for P{seat + 1}"):
        state.apply(idle, GAME.parse_action("draw"))
    with pytest.raises(NotYourTurnError, match="no seat 7"):
        state.legal_actions(7)
    with pytest.raises(InvalidActionError, match="not an action"):
        state.apply(seat, "draw")
    with pytest.raises(IllegalActionError, match="must draw"):
        state.apply(seat, GAME.parse_action("discard 1"))
    assert state.to_notation() == before


def test_a_finished_game_accepts_nothing_and_reports_its_result() -> None:
    state = Replay(game="squarrels", options=GAME.options.to_dict(), players=2, seed=3).play()
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    assert state.to_act() == () and state.legal_actions(0) == ()
    assert sum(state.returns()) == pytest.approx(1.0)
    assert set(state.winners()) == {s for s, r in enumerate(state.returns()) if r > 0}
    with pytest.raises(GameOverError):
        state.apply(0, GAME.parse_action("draw"))


def test_loading_explains_unknown_games_options_and_player_counts() -> None:
    with pytest.raises(UnknownGameError, match="did you mean 'squarrels'"):
        oakwood.load("squarels")
    with pytest.raises(InvalidOptionError, match="did you mean target_score"):
        oakwood.load("squarrels", target_scor=30)
    with pytest.raises(InvalidOptionError, match="2–6 players"):
        GAME.new_state(7, seed=0)
    with pytest.raises(InvalidOptionError, match="a seed is a whole number"):
        GAME.new_state(2, seed="x")  # type: ignore[arg-type]


def test_events_show_each_seat_only_its_own_private_parts() -> None:
    state = GAME.new_state(2, seed=4)
    seat = state.to_act()[0]
    state.apply(seat, GAME.parse_action("draw"))
    mine = state.events_seen_by(seat)[-1]
    theirs = state.events_seen_by(1 - seat)[-1]
    spectator = state.events_seen_by(None)[-1]
    assert mine["kind"] == theirs["kind"] == spectator["kind"] == "draw"  # seed 4 draws a Number card
    assert "card" in mine and "card" not in theirs and "card" not in spectator
