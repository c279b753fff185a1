"""Every game's ``quiet_events`` really are quiet: a step that logs only those kinds draws nothing from the
generator, and the acting seat ends up seeing exactly the same thing in every world consistent with what
it knew before, so the step taught it nothing it could take back with undo."""

from __future__ import annotations

import random

import pytest

import oakwood


@pytest.mark.parametrize(("name", "players"), [("squarrels", 3), ("barrell", 3), ("nutty", 3), ("nutty", 1)])
def test_a_quiet_step_teaches_the_acting_seat_nothing(name: str, players: int) -> None:
    game = oakwood.load(name)
    chooser = random.Random(f"{name}-{players}")
    quiet_steps = 0
    for seed in range(100):  # solo games end quickly under random play: take more of them
        if quiet_steps >= 200:
            break
        state = game.new_state(players, seed)
        for _ in range(300):
            if state.is_terminal():
                break
            seat = state.to_act()[0]
            action = chooser.choice(state.legal_actions(seat))
            before = state.clone()
            logged = len(state.events)
            state.apply(seat, action)
            kinds = {event.kind for event in state.events[logged:]}
            if not kinds <= game.quiet_events:
                continue
            quiet_steps += 1
            assert state.rng.counter == before.rng.counter, (kinds, str(action))
            seen = state.observe(seat)
            for world_seed in range(2):
                world = before.determinize(seat, random.Random(world_seed))
                world.apply(seat, action)
                assert world.observe(seat) == seen, f"{action} ({sorted(kinds)}) revealed something to P{seat + 1}"
    assert quiet_steps >= 30, "the sample must exercise quiet steps"
