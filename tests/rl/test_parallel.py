"""The PettingZoo parallel environments: PettingZoo's own parallel API test, commits and races answered by every
seat asked from the same state, refusals, and seeded determinism."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_api_test

from oakwood.engine import Decision
from oakwood.rl.parallel import parallel_env
from oakwood.rl.tensors import action_mask

TABLES = [
    ("squarrels", 2, {"single_round": True}),
    ("squarrels", 5, {"single_round": True}),
    ("barrell", 2, {}),
    ("barrell", 4, {}),
    ("nutty", 1, {"solo_max_actions": 200}),
    ("nutty", 3, {"max_rounds": 2}),
]


@pytest.mark.parametrize(("game", "players", "options"), TABLES)
def test_pettingzoos_parallel_api_test_passes(game: str, players: int, options: dict[str, Any]) -> None:
    env = parallel_env(game, players, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a live agent given no observation, reward… would warn: fail instead
        parallel_api_test(env, num_cycles=5000)


def random_actions(observations: dict[str, Any], rng: np.random.Generator) -> dict[str, int]:
    """A random legal action for every agent asked; 0 (ignored) for the others."""
    return {
        agent: int(rng.choice(np.flatnonzero(obs["action_mask"]))) if obs["action_mask"].any() else 0
        for agent, obs in observations.items()
    }


@pytest.mark.parametrize(("game", "players", "options"), TABLES)
def test_every_seat_asked_answers_from_the_same_state_and_only_they_have_masks(
    game: str, players: int, options: dict[str, Any]
) -> None:
    env = parallel_env(game, players, **options)
    observations, infos = env.reset(seed=players)
    rng = np.random.default_rng(players)
    together = 0
    while env.agents:
        state = env.state
        to_act = set(state.to_act())
        for agent, obs in observations.items():
            seat = int(agent.removeprefix("player_"))
            assert infos[agent]["to_act"] == (seat in to_act)
            expected = action_mask(env.game, state, seat) if seat in to_act else np.zeros_like(obs["action_mask"])
            assert np.array_equal(obs["action_mask"], expected) and np.array_equal(
                infos[agent]["action_mask"], expected
            )
            assert np.array_equal(obs["observation"], env.encoder.encode(state.observe(seat)))
        together += len(to_act) > 1
        observations, rewards, terminations, truncations, infos = env.step(random_actions(observations, rng))
    assert all(terminations.values()) and not any(truncations.values())
    assert rewards == {f"player_{s}": r for s, r in enumerate(env.state.returns())}
    if game == "squarrels" or (game == "barrell" and players > 2):  # quarrels, races, Barrell's commits
        assert together > 0  # several seats answered in one step (Barrell 2p has no simultaneous choice)


def test_a_commit_is_applied_only_once_every_seat_has_chosen() -> None:
    env = parallel_env("squarrels", 3)
    observations, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    commits = 0
    while env.agents and commits < 5:
        if env.state.decision is Decision.COMMIT and len(env.state.to_act()) > 1:
            asked = [f"player_{s}" for s in env.state.to_act()]
            partial = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in asked[:-1]}
            before = env.state.to_notation()
            with pytest.raises(ValueError, match=f"no action for {asked[-1]}"):
                env.step(partial)  # one seat has not chosen: nothing is applied
            assert env.state.to_notation() == before
            commits += 1
        observations, *_ = env.step(random_actions(observations, rng))
    assert commits == 5


def test_illegal_actions_are_refused_and_unasked_agents_actions_ignored() -> None:
    env = parallel_env("barrell", 2)
    observations, infos = env.reset(seed=3)
    asked = [a for a in env.agents if infos[a]["to_act"]]
    illegal = {a: int(np.flatnonzero(observations[a]["action_mask"] == 0)[0]) for a in asked}
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    rng = np.random.default_rng(3)
    while env.agents:
        actions = random_actions(observations, rng)
        actions.update({a: 10**6 for a in env.agents if not infos[a]["to_act"]})  # nonsense, but not asked
        observations, _, _, _, infos = env.step(actions)
    with pytest.raises(ValueError, match="reset"):
        env.step({})


def test_same_seed_same_match_race_orders_included() -> None:
    def match() -> list[str]:
        env = parallel_env("squarrels", 4)
        observations, _ = env.reset(seed=11)
        rng = np.random.default_rng(11)
        seen = []
        while env.agents:
            observations, *_ = env.step(random_actions(observations, rng))
            seen.append(env.state.to_notation())
        return seen

    first = match()
    assert first == match() and len(first) > 200


def test_truncation_after_max_steps() -> None:
    env = parallel_env("barrell", 2, max_steps=4)
    observations, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for step in range(4):
        observations, _, terminations, truncations, _ = env.step(random_actions(observations, rng))
        assert not any(terminations.values()) and all(truncations.values()) == (step == 3)
    assert env.agents == []


def test_in_a_race_every_racer_answers_at_once_and_the_first_slap_in_a_drawn_order_wins() -> None:
    env = parallel_env("squarrels", 4)
    observations, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    slap = env.game.encode(next(a for a in env.game.codec.actions if str(a) == "slap"))
    winners_by_rank = set()
    races = 0
    while env.agents and races < 25:
        state = env.state
        if state.decision is Decision.RACE and len(state.to_act()) > 1:
            racers = sorted(state.to_act())
            before = state.to_notation()
            alone = {}  # the state after only seat s's slap: what the env must reach if s is drawn first
            for seat in racers:
                copy = env.game.from_notation(before)
                copy.record_events = False
                copy.apply(seat, env.game.decode(slap))
                alone[seat] = copy.to_notation()
            observations, *_ = env.step({f"player_{s}": slap for s in racers})
            won = [s for s in racers if alone[s] == env.state.to_notation()]
            assert len(won) == 1  # one slap landed, the others belonged to a race that was over
            winners_by_rank.add(racers.index(won[0]))
            races += 1
        else:
            observations, *_ = env.step(random_actions(observations, rng))
        if not env.agents:
            observations, _ = env.reset()
    assert races == 25 and len(winners_by_rank) > 1  # not always the lowest seat: the order is drawn
