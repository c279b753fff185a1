"""``PlayerView`` in ``engine/view.py`` (compiled with the engine, re-exported by ``engine/agent.py``)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field, fields

import pytest

import oakwood
from oakwood.engine import Rng, agent
from oakwood.engine.view import PlayerView


@dataclass(frozen=True, slots=True)
class Tagged(PlayerView):
    """A slotted subclass, as ``agents/inference.py``'s ``InferenceView`` is."""

    tag: str = field(default="", compare=False)


def test_the_contract_module_hands_out_the_same_class() -> None:
    assert agent.PlayerView is PlayerView and oakwood.engine.PlayerView is PlayerView


def test_its_fields_are_its_own_slots() -> None:
    """Listed as the class's ``__slots__`` in both forms, so a slotted subclass adds only its own fields (else its
    slots would hide the compiled base's attributes from the base's methods)."""
    assert PlayerView.__slots__ == tuple(f.name for f in fields(PlayerView))
    assert Tagged.__slots__ == ("tag",)


def test_a_slotted_subclass_reaches_the_base_methods() -> None:
    game = oakwood.load("squarrels")
    state = game.new_state(3, 4)
    seat = state.to_act()[0]
    base = PlayerView.of(state, seat, world_rng=Rng(1))
    view = Tagged(
        seat=base.seat,
        legal_actions=base.legal_actions,
        game=base.game,
        decision=base.decision,
        num_players=base.num_players,
        _observation=base.observation,
        _world=base._world,
        tag="x",
    )
    assert view.observation == state.observe(seat) and view.tag == "x"
    worlds = list(view.sample_states(2, Rng(3)))
    assert [w.to_notation() for w in worlds] == [w.to_notation() for w in base.sample_states(2, Rng(3))]
    with pytest.raises(FrozenInstanceError):
        view.seat = 2  # type: ignore[misc]
