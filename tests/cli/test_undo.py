"""Undo is allowed only for one's own last moves, before anyone else acts and before anything random."""

from __future__ import annotations

import pytest

from oakwood.cli.undo import UndoTracker
from oakwood.engine import IllegalActionError, State, load
from tests.cli.toygame import TOY_NAME


def _apply(tracker: UndoTracker, state: State, seat: int, text: str) -> None:
    tracker.apply(state, seat, state.game.parse_action(text))


def test_nothing_to_undo() -> None:
    state = load(TOY_NAME).new_state(2, 1)
    assert UndoTracker().why_not(state, 0) == "there is nothing to undo"


def test_undo_own_moves_in_a_row_rebuilds_the_earlier_positions() -> None:
    state = load(TOY_NAME).new_state(2, 1)
    start = state.to_notation()
    tracker = UndoTracker()
    _apply(tracker, state, 0, "stay")
    after_stay = state.to_notation()
    hand = state.observe(0)["hand"]
    _apply(tracker, state, 0, f"play {hand[0]}")  # P1 commits first: nobody else has acted
    assert tracker.why_not(state, 0) is None
    state = tracker.undo(state)
    assert state.to_notation() == after_stay and len(state.history) == 1
    assert tracker.why_not(state, 0) is None
    state = tracker.undo(state)
    assert state.to_notation() == start and state.history == []
    assert tracker.why_not(state, 0) == "there is nothing to undo"


def test_no_undo_after_a_chance_event() -> None:
    state = load(TOY_NAME).new_state(2, 1)
    tracker = UndoTracker()
    _apply(tracker, state, 0, "draw")
    reason = tracker.why_not(state, 0)
    assert reason is not None and "random" in reason


def test_no_undo_after_another_seat_acted() -> None:
    state = load(TOY_NAME).new_state(2, 1)
    tracker = UndoTracker()
    _apply(tracker, state, 0, "stay")
    state.apply(1, state.legal_actions(1)[0])  # P2 (a bot) commits
    reason = tracker.why_not(state, 0)
    assert reason is not None and "anyone else" in reason
    assert tracker.why_not(state, 1) is not None  # and P2 never recorded a move


def test_a_refused_move_leaves_nothing_to_undo() -> None:
    state = load(TOY_NAME).new_state(2, 1)
    tracker = UndoTracker()
    _apply(tracker, state, 0, "stay")
    with pytest.raises(IllegalActionError):
        _apply(tracker, state, 0, "draw")
    assert tracker.why_not(state, 0) is None  # the stay can still be taken back
    assert tracker.undo(state).history == []
