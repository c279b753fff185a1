"""Undo is allowed only for one's own last moves, before anyone else acts, and never across anything that
revealed a hidden card or a random result: per game, in its notation."""

from __future__ import annotations

import pytest

from oakwood.engine import IllegalActionError, State, load
from oakwood.engine.undo import UndoTracker
from tests.cli.toygame import TOY_NAME, ToySnap
from tests.games.barrell.helpers import position as barrell_position
from tests.games.barrell.helpers import state_of as barrell_state
from tests.games.nutty.helpers import board as nutty_board
from tests.games.nutty.helpers import load as nutty_load
from tests.games.nutty.helpers import position as nutty_position
from tests.games.squarrels.helpers import position as squarrels_position


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


# ---------------------------------------------------------------------- every game: quiet moves only
def _undo_check(state: State, seat: int, text: str) -> tuple[UndoTracker, str | None]:
    """``seat`` plays ``text`` through a tracker; the tracker and its verdict on undoing it."""
    tracker = UndoTracker()
    _apply(tracker, state, seat, text)
    return tracker, tracker.why_not(state, seat)


def test_squarrels_a_draw_is_never_taken_back_though_no_generator_ran() -> None:
    state = squarrels_position(3, "1122/5/5", deck="3")  # P1 must draw; the Deck was shuffled long ago
    counter = state.rng.counter
    _, reason = _undo_check(state, 0, "draw")
    assert state.rng.counter == counter, "the RNG counter alone cannot see this draw"
    assert reason is not None and "revealed something new (draw)" in reason


def test_squarrels_storing_a_set_can_be_taken_back() -> None:
    state = squarrels_position(3, "111225/5/5", phase="drawing")
    before = state.to_notation()
    tracker, reason = _undo_check(state, 0, "store 1")
    assert reason is None
    assert tracker.undo(state).to_notation() == before


def test_barrell_a_pass_that_ends_the_battle_reveals_every_field() -> None:
    text = barrell_position(3, hands=["2C", "2D", "3C"], fields=["4H.9H.10S", "2H.10C", "8H.10D"], active="2")
    state = barrell_state(text)
    for seat in (1, 2):  # P2 and P3 pass first (as bots would: nothing tracked)
        state.apply(seat, state.game.parse_action("pass"))
    _, reason = _undo_check(state, 0, "pass")  # P1's pass ends the battle: E1 turns every card face up
    assert state.phase == "hearts", "the battle stopped at the hearts decision, before anything random"
    assert reason is not None and "reveal" in reason


def test_barrell_a_card_played_face_down_can_be_taken_back() -> None:
    state = barrell_state(barrell_position(2, hands=["2C.3C", "2D"]))
    before = state.to_notation()
    tracker, reason = _undo_check(state, 0, "play 2C")
    assert reason is None
    assert tracker.undo(state).to_notation() == before


NUTTY_PAD = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]


def test_nutty_a_flip_is_never_taken_back() -> None:
    state = nutty_load(nutty_position(["~2,~LA,~BP,~1,~1", *NUTTY_PAD], [nutty_board(at="L1c1"), nutty_board()]))
    _, reason = _undo_check(state, 0, "flip")
    assert reason is not None and "flip" in reason


def test_nutty_solo_a_move_onto_a_face_down_card_flips_it_and_is_never_taken_back() -> None:
    state = nutty_load(nutty_position(["~2,~ST,~BB,~1,~1", *NUTTY_PAD], [nutty_board()], solo=True))
    _, reason = _undo_check(state, 0, "move L1c1")
    assert reason is not None and "flip" in reason


def test_nutty_a_move_onto_a_revealed_card_can_be_taken_back() -> None:
    state = nutty_load(nutty_position(["2,~LA,~BP,~1,~1", *NUTTY_PAD], [nutty_board(), nutty_board()]))
    before = state.to_notation()
    tracker, reason = _undo_check(state, 0, "move L1c1")
    assert reason is None
    assert tracker.undo(state).to_notation() == before


def test_an_unlisted_event_kind_refuses_undo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ToySnap, "quiet_events", frozenset())  # a game that declares nothing quiet
    state = load(TOY_NAME).new_state(2, 1)
    tracker = UndoTracker()
    _apply(tracker, state, 0, "stay")
    reason = tracker.why_not(state, 0)
    assert reason is not None and "revealed something new (stay)" in reason
