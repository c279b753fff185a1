"""The PettingZoo AEC environments: PettingZoo's own API and seed tests for every game and player count, the
secrecy of commit decisions, and the seeded polling order of races."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from oakwood.engine import Decision
from oakwood.rl import pettingzoo as oz

TABLES = [("squarrels", n) for n in range(2, 7)] + [("barrell", n) for n in range(2, 5)]
TABLES += [("nutty", n) for n in range(1, 7)]


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_pettingzoo_api_and_seed_tests_pass(game: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's advice for Box observations does not apply to Dict ones
        api_test(oz.env(game, players=players), num_cycles=400)
        seed_test(lambda: oz.env(game, players=players), num_cycles=200)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("squarrels", 4, {"hoard_race": "random"}),  # the Hoard race as a commit
        ("squarrels", 3, {"hoard_drawer_may_race": True}),
        ("barrell", 3, {"mulligan_mode": "simultaneous", "heart_gift": "split_per_card"}),
    ],
)
def test_pettingzoo_api_and_seed_tests_pass_with_commit_variants(
    game: str, players: int, options: dict[str, Any]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(oz.env(game, players=players, **options), num_cycles=300)
        seed_test(lambda: oz.env(game, players=players, **options), num_cycles=100)


def test_metadata_spaces_and_masks() -> None:
    env = oz.env("squarrels", players=3, render_mode="ansi")
    env.reset(seed=5)
    assert env.metadata["name"] == "squarrels_v0"
    assert env.metadata["render_modes"] == ["ansi"]
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.action_space("player_0").n == env.unwrapped.game.num_actions
    obs, _, _, _, info = env.last()
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert (obs["action_mask"] == info["action_mask"]).all() and obs["action_mask"].any()
    for agent in env.agents:
        if agent != env.agent_selection:
            assert not env.observe(agent)["action_mask"].any()
    seat = int(env.agent_selection.removeprefix("player_"))
    game = env.unwrapped.game
    assert env.render() == game.render(env.unwrapped.state.observe(seat))
    assert oz.raw_env("nutty", 1).metadata["name"] == "nutty_v0"
    assert oz.raw_env("barrell", 4).metadata["name"] == "barrell_v0"


def test_the_environment_is_order_enforced_as_pettingzoo_enforces_it() -> None:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = oz.env("barrell", players=2)
    assert isinstance(env, OrderEnforcingWrapper)
    for name in ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos", "num_agents"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(env, name)
    with pytest.raises(AssertionError, match="reset"):
        env.last()
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    env.reset(seed=3)
    raw = env.unwrapped
    assert env.agent_selection == raw.agent_selection and env.agents == raw.agents and env.num_agents == 2
    assert env.infos is raw.infos and env.terminations is raw.terminations and env.rewards is raw.rewards
    observation, reward, terminated, truncated, info = env.last()
    assert (observation["action_mask"] == info["action_mask"]).all() and observation["action_mask"].any()
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert env.last(observe=False)[0] is None
    iterator = iter(env.agent_iter())
    next(iterator)
    with pytest.raises(AssertionError, match="step"):
        next(iterator)  # two agents without a step between them


def test_an_illegal_action_is_refused_by_name() -> None:
    env = oz.env("squarrels", players=2)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} "):
        env.step(illegal)
    with pytest.raises(ValueError, match="outside"):
        env.step(10_000)


def test_rewards_are_the_returns_at_the_end_and_zero_before() -> None:
    env = oz.raw_env("barrell", 3)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if not (terminated or truncated):
            assert reward == 0.0
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert [totals[a] for a in env.possible_agents] == env.state.returns()
    assert sum(totals.values()) == pytest.approx(1.0)


def test_truncation_after_the_step_cap() -> None:
    env = oz.raw_env("squarrels", 2, max_steps=10)
    env.reset(seed=0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env._steps == 10 and not env.state.is_terminal()


# ---------------------------------------------------------------------- commit decisions stay secret
def random_prefix(make: Callable[[], Any], seed: int, until: Callable[[Any], bool], limit: int = 20_000) -> list[int]:
    """Random legal actions from ``reset(seed)`` until ``until(env)`` holds: the actions played."""
    env = make()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    played: list[int] = []
    for _ in range(limit):
        if until(env):
            return played
        obs, _, terminated, truncated, _ = env.last()
        assert not (terminated or truncated), "the game ended before the position was found"
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        played.append(action)
    raise AssertionError("position not found")


def replayed(make: Callable[[], Any], seed: int, actions: list[int]) -> Any:
    env = make()
    env.reset(seed=seed)
    for action in actions:
        env.step(action)
    return env


def first_asked_in_commit(phase: str) -> Callable[[Any], bool]:
    """The first seat of a commit of ``phase`` with a real choice is being asked, another seat still to come."""

    def holds(env: Any) -> bool:
        state = env.state
        if state.is_terminal() or state.decision is not Decision.COMMIT or len(state.to_act()) < 2:
            return False
        seat = int(env.agent_selection.removeprefix("player_"))
        return (
            state.observe(None)["phase"] == phase
            and seat == env._queue[0]
            and len(env._queue) == len(state.to_act())
            and len(state.legal_actions(seat)) >= 2
        )

    return holds


@pytest.mark.parametrize(
    ("game", "players", "options", "phase", "applying_shows"),
    [
        ("squarrels", 2, {}, "quarrel", True),
        ("squarrels", 4, {}, "quarrel", True),
        ("barrell", 4, {}, "hearts", True),
        ("barrell", 2, {"mulligan_mode": "simultaneous"}, "mulligan", False),  # the game hides who is done
    ],
)
def test_a_pending_commit_choice_is_never_seen(
    game: str, players: int, options: dict[str, Any], phase: str, applying_shows: bool
) -> None:
    def make() -> Any:
        return oz.raw_env(game, players, render_mode="ansi", **options)

    for seed in range(40):
        try:
            prefix = random_prefix(make, seed, first_asked_in_commit(phase))
        except AssertionError:
            continue
        break
    else:
        pytest.fail(f"no {phase} commit found")
    env = replayed(make, seed, prefix)
    first = int(env.agent_selection.removeprefix("player_"))
    state = env.state
    choices = [int(i) for i in np.flatnonzero(env.last()[0]["action_mask"])]
    seen_after: list[tuple[Any, ...]] = []
    for choice in choices:
        after = replayed(make, seed, [*prefix, choice])
        second = after.agent_selection
        assert second != env.agent_selection  # the next seat of the commit is asked
        views = tuple(after.observe(agent)["observation"].tobytes() for agent in after.possible_agents)
        masks = tuple(after.observe(agent)["action_mask"].tobytes() for agent in after.possible_agents)
        seen_after.append((second, views, masks, after.render(), after.state.observe(int(second[7:]))))
        assert after.state.to_notation() == state.to_notation()  # stored, not applied
    assert all(seen == seen_after[0] for seen in seen_after)
    # The test means something: applying the choice at once would show the next seat that it was made.
    applied = state.clone()
    applied.apply(first, env.game.decode(choices[0]))
    second_seat = int(seen_after[0][0][7:])
    assert (applied.observe(second_seat) != state.observe(second_seat)) is applying_shows


def test_a_commit_is_resolved_with_every_choice_once_all_are_in() -> None:
    def make() -> Any:
        return oz.raw_env("squarrels", 2)

    prefix = random_prefix(make, 0, first_asked_in_commit("quarrel"))
    env = replayed(make, 0, prefix)
    truth = env.state.clone()
    answers = []
    for _ in range(2):
        seat = int(env.agent_selection[7:])
        action = int(np.flatnonzero(env.last()[0]["action_mask"])[-1])
        answers.append((seat, action))
        env.step(action)
    for seat, action in answers:
        truth.apply(seat, env.game.decode(action))
    assert env.state.to_notation() == truth.to_notation()


# ---------------------------------------------------------------------- races are polled in a seeded order
def race_polls(seed: int, answer: str) -> list[tuple[tuple[int, ...], list[int]]]:
    """Each race of a 4-player S'Quarrels game: the seats listed when it began and the seats asked, in order.
    Every racer answers ``answer`` (``pass`` or ``slap``); other decisions are random."""
    env = oz.raw_env("squarrels", 4)
    env.reset(seed=seed)
    game = env.game
    rng = np.random.default_rng(seed)
    races: list[tuple[tuple[int, ...], list[int]]] = []
    current: list[int] | None = None
    for agent in env.agent_iter(3000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = int(agent[7:])
        if env.state.decision is Decision.RACE:
            racing = set(env.state.to_act())
            if current is None or not racing <= set(races[-1][0]) - set(current):
                current = []
                races.append((env.state.to_act(), current))
            current.append(seat)
            legal = [str(a) for a in env.state.legal_actions(seat)]
            env.step(game.encode(env.state.legal_actions(seat)[legal.index(answer)]))
        else:
            current = None
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return races


def test_race_polls_each_listed_seat_once_in_a_seeded_random_order() -> None:
    races = race_polls(7, "pass") + race_polls(8, "pass")
    assert len(races) >= 5
    for listed, asked in races:
        assert sorted(asked) == sorted(listed)  # everyone passed: each asked exactly once
    assert any(asked != list(listed) for listed, asked in races)  # not the seats' own order
    assert len({asked[0] for _, asked in races}) > 1
    assert race_polls(7, "pass") == race_polls(7, "pass")  # the order comes from the seeded generator


def test_the_first_slap_wins_and_the_other_racers_are_skipped() -> None:
    races = race_polls(7, "slap")
    assert races
    for _, asked in races:
        assert len(asked) == 1
