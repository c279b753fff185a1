"""The Gymnasium single-agent environments: Gymnasium's checker, opponents, illegal actions, commits played as in
arena/match.py, and the vectorised form."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils import env_checker, passive_env_checker  # noqa: E402

from oakwood.engine import Decision  # noqa: E402
from oakwood.rl import gymnasium as og  # noqa: E402

TABLES = [
    ("oakwood/Squarrels-v0", {"players": 4}),
    ("oakwood/Squarrels-v0", {"players": 2, "opponents": "medium"}),
    ("oakwood/Barrell-v0", {"players": 3, "opponents": ["random", "heuristic"]}),
    ("oakwood/Nutty-v0", {"players": 1}),
    ("oakwood/Nutty-v0", {"players": 3, "seat": 2}),
]


def legal_random(mask: Any, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize(("env_id", "kwargs"), TABLES)
def test_check_env_passes(env_id: str, kwargs: dict[str, Any]) -> None:
    # check_env steps, after a seeded reset, an action it sampled before that reset: in the default mode that
    # action is refused (ValueError), so the full checker runs with illegal actions ending the episode as a loss.
    env = gymnasium.make(env_id, illegal_action="lose", **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box, no render fps: advice, not failures
        env_checker.check_env(env.unwrapped)


@pytest.mark.parametrize(("env_id", "kwargs"), TABLES)
def test_the_default_env_passes_every_check_that_plays_legal_actions(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, **kwargs).unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env_checker.check_action_space(env.action_space)
        env_checker.check_observation_space(env.observation_space)
        env_checker.check_reset_return_type(env)
        env_checker.check_reset_seed_determinism(env)
        env_checker.check_reset_options(env)
        passive_env_checker.env_reset_passive_checker(env)
        passive_env_checker.env_step_passive_checker(env, env.action_space.sample())  # a legal action
        env_checker.check_returned_data_not_reused(env)
        env.render_mode = "ansi"
        passive_env_checker.env_render_passive_checker(env)
    # Step determinism with an action legal after the seeded reset.
    first, _ = env.reset(seed=123)
    action = int(np.flatnonzero(first["action_mask"])[-1])
    outcome = env.step(action)
    env.reset(seed=123)
    assert env_checker.data_equivalence(env.step(action), outcome)


EVERY_TABLE = [("squarrels", n) for n in range(2, 7)] + [("barrell", n) for n in range(2, 5)]
EVERY_TABLE += [("nutty", n) for n in range(1, 7)]


@pytest.mark.parametrize(("game", "players"), EVERY_TABLE)
def test_a_whole_episode_at_every_table_size(game: str, players: int) -> None:
    options = {"single_round": True} if game == "squarrels" else {"max_rounds": 3} if game == "nutty" else {}
    env = og.OakwoodEnv(game, players=players, seat=players - 1, options=options)
    rng = np.random.default_rng(players)
    observation, info = env.reset(seed=players)
    steps = 0
    while True:
        assert env.observation_space.contains(observation)
        assert np.array_equal(observation["action_mask"], info["action_mask"]) and observation["action_mask"].any()
        observation, reward, terminated, truncated, info = env.step(legal_random(observation["action_mask"], rng))
        steps += 1
        if terminated or truncated:
            break
    assert terminated and not truncated and steps > 0
    assert reward == env.unwrapped.state.returns()[players - 1]


def test_an_illegal_action_raises_a_value_error_naming_it() -> None:
    env = og.OakwoodEnv("squarrels", players=3)
    obs, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} \\("):
        env.step(illegal)
    with pytest.raises(ValueError, match="outside"):
        env.step(-1)
    with pytest.raises(ValueError, match="not a codec index"):
        env.step(1.5)
    env.step(legal_random(info["action_mask"], np.random.default_rng(0)))  # the env still plays on


def test_lose_mode_ends_the_episode_without_playing_another_action() -> None:
    env = og.OakwoodEnv("barrell", players=2, illegal_action="lose")
    obs, _ = env.reset(seed=1)
    before = env.state.to_notation()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert f"action {illegal}" in info["illegal_action"] and not obs["action_mask"].any()
    assert env.state.to_notation() == before
    with pytest.raises(ValueError, match="call reset"):
        env.step(0)


def test_unknown_opponents_and_seats_are_refused() -> None:
    with pytest.raises(Exception, match="no agent"):
        og.OakwoodEnv("squarrels", players=2, opponents="grandmaster")
    with pytest.raises(ValueError, match="opponents"):
        og.OakwoodEnv("squarrels", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        og.OakwoodEnv("nutty", players=2, seat=2)


@pytest.mark.parametrize(("game", "players", "opponents"), [("squarrels", 3, "easy"), ("barrell", 2, "medium")])
def test_an_episode_ends_with_the_seats_return(game: str, players: int, opponents: str) -> None:
    env = og.OakwoodEnv(game, players=players, opponents=opponents, seat=1)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    rewards = []
    terminated = truncated = False
    while not (terminated or truncated):
        assert 1 in env.state.to_act() and (obs["action_mask"] == info["action_mask"]).all()
        obs, reward, terminated, truncated, info = env.step(legal_random(obs["action_mask"], rng))
        rewards.append(reward)
    assert terminated and rewards[-1] == env.state.returns()[1] and not any(rewards[:-1])


def test_same_seed_same_episode() -> None:
    def episode() -> list[bytes]:
        env = gymnasium.make("oakwood/Squarrels-v0", players=4, opponents="medium")
        obs, _ = env.reset(seed=3)
        rng = np.random.default_rng(3)
        seen = [obs["observation"].tobytes()]
        for _ in range(60):
            obs, _, terminated, truncated, _ = env.step(legal_random(obs["action_mask"], rng))
            seen.append(obs["observation"].tobytes())
            if terminated or truncated:
                break
        return seen

    assert episode() == episode()


def test_at_a_commit_no_opponent_answer_lands_before_the_learners() -> None:
    env = og.OakwoodEnv("squarrels", players=2)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    commits = 0
    for _ in range(2000):
        if env.state.decision is Decision.COMMIT:
            assert env.state.observe(None)["quarrel"]["committed"] == []  # the opponent's card is not in yet
            commits += len(env.state.to_act()) == 2
        obs, _, terminated, truncated, _ = env.step(legal_random(obs["action_mask"], rng))
        if terminated or truncated:
            obs, _ = env.reset()
    assert commits > 0


def test_vectorised_batch_rollouts() -> None:
    envs = og.make_vector("barrell", 3, players=2, opponents="random")
    obs, _ = envs.reset(seed=0)
    assert obs["observation"].shape == (3, envs.single_observation_space["observation"].shape[0])
    rng = np.random.default_rng(0)
    finished: list[float] = []
    for _ in range(400):
        masks = obs["action_mask"]
        actions = np.array([legal_random(m, rng) for m in masks])  # same-step auto-reset: every mask has one
        obs, rewards, terminated, _, _ = envs.step(actions)
        finished += [float(r) for r, done in zip(rewards, terminated, strict=True) if done]
        if len(finished) >= 6:
            break
    assert len(finished) >= 6 and set(finished) <= {0.0, 0.5, 1.0}
    envs.close()


def test_make_vec_through_the_registry() -> None:
    envs = gymnasium.make_vec("oakwood/Nutty-v0", num_envs=2, vectorization_mode="sync", players=2)
    obs, _ = envs.reset(seed=1)
    assert obs["action_mask"].shape == (2, envs.single_action_space.n)
    assert obs["action_mask"].any(axis=1).all()
    envs.close()


def test_mask_cache_marks_the_legal_codec_indices_whoever_built_the_actions() -> None:
    import copy

    import oakwood
    from oakwood.rl.gymnasium import MaskCache
    from oakwood.rl.tensors import action_mask

    game = oakwood.load("barrell")
    state = game.new_state(3, 4)
    seat = state.to_act()[0]
    cache = MaskCache()
    mask = cache.mask(state, seat)
    assert np.array_equal(mask, action_mask(game, state, seat)) and mask.sum() == len(state.legal_actions(seat))
    assert not mask.flags.writeable  # shared between steps: a caller must copy it

    class Rebuilt:
        """A state whose legal actions are equal copies of the codec's objects, not the objects themselves."""

        def __init__(self) -> None:
            self.game = game

        def legal_actions(self, seat: int) -> tuple[object, ...]:
            return tuple(copy.copy(action) for action in state.legal_actions(seat))

    rebuilt = Rebuilt()
    assert all(a is not b for a, b in zip(rebuilt.legal_actions(seat), state.legal_actions(seat), strict=True))
    assert np.array_equal(cache.mask(rebuilt, seat), mask)  # type: ignore[arg-type]
