"""The random agent and the PlayerView it receives."""

from __future__ import annotations

import pytest

from oakwood.agents import Choice, PlayerView, RandomAgent
from oakwood.engine import Decision, Rng, load
from tests.cli.toygame import TOY_NAME
from tests.conformance.kit import check_unreachable, truth_parts


def test_view_holds_only_the_seats_observation_and_legal_actions() -> None:
    state = load(TOY_NAME).new_state(3, 4)
    view = PlayerView.of(state, 0, world_rng=Rng(5))
    assert view.observation == state.observe(0)
    assert view.legal_actions == state.legal_actions(0)
    assert view.decision is Decision.TURN
    worlds = list(view.sample_states(3, Rng(1)))
    assert all(world.observe(0) == state.observe(0) for world in worlds)


def test_a_view_is_a_snapshot_that_cannot_reach_the_state() -> None:
    state = load(TOY_NAME).new_state(3, 4)
    before = state.to_json()
    view = PlayerView.of(state, 0, world_rng=Rng(5))
    check_unreachable(view, truth_parts(state), "a PlayerView")
    view.observation.clear()  # an agent scribbling on its view changes nothing in the match
    for world in view.sample_states(2, Rng(1)):
        while not world.is_terminal():
            seat = world.to_act()[0]
            world.apply(seat, world.legal_actions(seat)[0])
    assert state.to_json() == before


def test_a_view_carries_only_what_its_agent_declared() -> None:
    state = load(TOY_NAME).new_state(3, 4)
    bare = PlayerView.for_agent(state, 0, RandomAgent(), Rng(1))
    with pytest.raises(RuntimeError, match="reads_observation"):
        _ = bare.observation
    with pytest.raises(RuntimeError, match="searches"):
        next(bare.sample_states(1, Rng(1)))

    class Searcher:
        name = "searcher"
        searches = True

    full = PlayerView.for_agent(state, 0, Searcher(), Rng(1))
    assert full.observation == state.observe(0)
    assert next(full.sample_states(1, Rng(2))).observe(0) == state.observe(0)


def test_random_agent_plays_legal_moves_and_states_race_delays() -> None:
    game = load(TOY_NAME)
    state = game.new_state(2, 1)
    agents = [RandomAgent(seed=1), RandomAgent(seed=2)]
    delays = []
    while not state.is_terminal():
        seat = state.to_act()[0]
        answer = agents[seat].act(PlayerView.of(state, seat))
        if state.decision is Decision.RACE:
            assert isinstance(answer, Choice)
            delays.append(answer.delay)
            answer = answer.action
        assert answer in state.legal_actions(seat)
        state.apply(seat, answer)
    assert delays and all(0.25 <= d <= 0.75 for d in delays)


def test_random_agent_is_reproducible_from_its_seed() -> None:
    state = load(TOY_NAME).new_state(2, 1)
    view = PlayerView.of(state, 0)
    first, second = RandomAgent(seed=9), RandomAgent(seed=9)
    assert [first.act(view) for _ in range(5)] == [second.act(view) for _ in range(5)]
