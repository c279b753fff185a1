"""The fast checked path (``BarrellState.legal_actions`` / ``apply``) refuses exactly what ``State`` refuses,
with the same errors, and accepts an equal copy of a legal action like the generic path."""

from __future__ import annotations

import pytest

from oakwood.engine import IllegalActionError, InvalidActionError, NotYourTurnError, State
from oakwood.games.barrell.actions import Action

from .helpers import position, state_of


def _error(call: object) -> tuple[type[BaseException], str] | None:
    try:
        call()  # type: ignore[operator]
    except Exception as exc:  # compared below, whatever it is
        return type(exc), str(exc)
    return None


@pytest.mark.parametrize("seat", [1.0, True, -1, 5, "0"])
def test_non_seats_are_refused_like_the_generic_path(seat: object) -> None:
    state = state_of(position(hands=["5C.6C", "5D"], fields=["", ""]))
    generic = _error(lambda: State.legal_actions(state, seat))  # type: ignore[arg-type]
    assert _error(lambda: state.legal_actions(seat)) == generic  # type: ignore[arg-type]
    legal = state.legal_actions(0)[0]
    generic_apply = _error(lambda: State.apply(state, seat, legal))  # type: ignore[arg-type]
    assert generic_apply is not None
    assert _error(lambda: state.apply(seat, legal)) == generic_apply  # type: ignore[arg-type]


def test_refusals_and_equal_copies() -> None:
    state = state_of(position(hands=["5C.6C", "5D"], fields=["", ""]))
    with pytest.raises(IllegalActionError):
        state.apply(0, Action("play", 0))  # the A♣ is not in P1's hand
    with pytest.raises(InvalidActionError):
        state.apply(0, "play 5C")
    with pytest.raises(NotYourTurnError):
        state.apply(1, Action("pass"))
    state.apply(0, Action("play", 4))  # an equal copy of ``play 5C``, not the canonical object
    assert state.fields[0] == [4] and state.to_act() == (1,)
    state.apply(1, Action("pass"))
    assert state.passed == 0b10
