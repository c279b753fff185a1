"""Notation round trips and errors; hidden information after a J♠ trade; determinization of face-down cards."""

from __future__ import annotations

import pytest

import oakwood
from oakwood.engine import IllegalActionError, InvalidNotationError, Rng

from .helpers import act, position, state_of


def test_notation_round_trip_mid_game() -> None:
    game = oakwood.load("barrell")
    state = game.new_state(3, 9)
    rng = Rng(1)
    for _ in range(25):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        text = state.to_notation()
        assert game.from_notation(text).to_notation() == text


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (("n=2", "n=7"), "n"),
        (("phase=play", "phase=dance"), "phase"),
        (("hands=2C|3C", "hands=2C|2C"), "hands"),
        (("hands=2C|3C", "hands=ZZ|3C"), "hands"),
        (("wins=0.0", "wins=0"), "wins"),
        (("rng=7:0", "rng=7"), "rng"),
    ],
)
def test_bad_notation_names_the_field(change: tuple[str, str], field: str) -> None:
    text = position(hands=["2C", "3C"])
    assert change[0] in text
    with pytest.raises(InvalidNotationError, match=field):
        oakwood.load("barrell").from_notation(text.replace(change[0], change[1]))


def test_illegal_actions_explain_themselves() -> None:
    state = state_of(position(hands=["2C", "3C"]))
    with pytest.raises(IllegalActionError, match="do not hold 5S"):
        act(state, 1, "play 5S")
    with pytest.raises(IllegalActionError, match="not possible now"):
        act(state, 1, "joker keep")


def test_jack_of_spades_trade_never_leaks_and_worlds_respect_it() -> None:
    text = position(3, hands=["2C", "JS.2D", "3C"], fields=["KC.8S", "5S", "4D"], active="2")
    state = state_of(text)
    act(state, 2, "play JS", "swap P1")
    view = state.observe(1)
    assert [s["card"] for s in view["fields"][1]] == [None, None]
    truth = state.to_notation()
    differs = 0
    for i in range(30):
        world = state.determinize(1, Rng(i))
        assert world.observe(1) == view and world.observe(None) == state.observe(None)
        world.check_invariants()
        down = world.fields[1]
        assert all(not world.face_up >> c & 1 for c in down)
        assert not any(world.game.parse_action("play JC").card == c for c in down)  # never a Jack face down
        differs += world.fields[1] != state.fields[1]
        # P1 played those cards and still knows them: its worlds keep them in place.
        assert state.determinize(0, Rng(i)).fields[1] == state.fields[1]
    assert differs > 20 and state.to_notation() == truth


def test_hidden_heart_commits_are_resampled() -> None:
    text = position(3, hands=["2C", "2D", "3C"], fields=["4H", "5H", "6H"])
    state = state_of(text)
    for seat in (1, 2, 3):
        act(state, seat, "pass")
    act(state, 1, "gift P2")
    assert state.observe(1)["committed"] == [True, False, False] and "my_gift" not in state.observe(1)
    assert state.observe(0)["my_gift"] == 1
    targets = {state.determinize(1, Rng(i)).gift_target[0] for i in range(30)}
    assert targets == {1, 2}
