"""Play one match between agents, resolving commit and race decisions fairly."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from oakwood.engine import Decision, Game, Rng, State
from oakwood.engine.agent import Agent, PlayerView, as_choice

from .race import race_order

#: Reaction delay assumed for an agent that answers a race without stating one (seconds).
DEFAULT_RACE_DELAY = 0.5


@dataclass(frozen=True)
class MatchResult:
    """The outcome of one match."""

    scores: list[float]
    returns: list[float]
    winners: list[int]
    steps: int
    state: State


def play_match(
    game: Game[Any],
    agents: Sequence[Agent],
    seed: int,
    *,
    state: State | None = None,
    max_steps: int = 1_000_000,
    on_step: Callable[[State, int, Hashable], None] | None = None,
    record_events: bool = True,
) -> MatchResult:
    """Play to the end; ``agents[i]`` plays seat ``i``.

    ``record_events=False`` skips the event log (bulk simulation, where nobody reads it); the action history
    is still kept, so ``state.replay()`` regenerates every event.

    A commit decision asks every listed seat before applying any answer (so no agent sees another's
    choice). A race asks every listed seat at once, then applies the answers in order of reaction delay;
    equal delays are ordered by a generator seeded from ``seed``, never by seat number.
    """
    state = state if state is not None else game.new_state(len(agents), seed)
    state.record_events = record_events
    if len(agents) != state.num_players:
        raise ValueError(f"{len(agents)} agents for a {state.num_players}-player game")
    tie_rng = Rng(seed ^ 0x5EED)
    world_rng = Rng(seed ^ 0x3A7D)  # draws the worlds of agents that search: never the match's own generator
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise RuntimeError(f"match did not finish within {max_steps} steps")
        seats = state.to_act()
        decision = state.decision
        if decision is Decision.TURN or len(seats) == 1:
            seat = seats[0]
            action = as_choice(agents[seat].act(PlayerView.for_agent(state, seat, agents[seat], world_rng)), 0.0).action
            state.apply(seat, action)
            steps += 1
            if on_step:
                on_step(state, seat, action)
            continue
        # All views are taken before any answer lands.
        views = [PlayerView.for_agent(state, seat, agents[seat], world_rng) for seat in seats]
        answers = [as_choice(agents[view.seat].act(view), DEFAULT_RACE_DELAY) for view in views]
        order = race_order(answers, tie_rng)
        for i in order:
            seat = seats[i]
            if state.is_terminal() or state.decision is not decision:
                break  # the race was won: the remaining answers belonged to a decision that is over
            if seat not in state.to_act():
                continue
            state.apply(seat, answers[i].action)
            steps += 1
            if on_step:
                on_step(state, seat, answers[i].action)
    return MatchResult(
        scores=state.scores(), returns=state.returns(), winners=state.winners(), steps=steps, state=state
    )
