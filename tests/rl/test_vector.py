"""The batched vector environment: Gymnasium's vector API, exactly N single environments stepped together
(auto-resets included), never a mask without a legal action, the final observation in ``info``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from oakwood.rl.gymnasium import OakwoodEnv  # noqa: E402
from oakwood.rl.vector import OakwoodVectorEnv  # noqa: E402


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize(
    ("game", "kwargs"),
    [
        ("barrell", {"players": 2}),
        ("squarrels", {"players": 3, "opponents": "easy", "options": {"single_round": True}}),
        ("nutty", {"players": 1, "options": {"solo_max_actions": 40}, "mask_end_game_while_moves_remain": True}),
        ("nutty", {"players": 2, "options": {"max_rounds": 2}, "reward": "zero_sum", "obs_type": "tensor"}),
    ],
)
def test_the_batch_is_exactly_n_single_environments_auto_resets_included(game: str, kwargs: dict[str, Any]) -> None:
    n = 3
    batch = OakwoodVectorEnv(game, n, **kwargs)
    singles = [OakwoodEnv(game, **kwargs) for _ in range(n)]
    obs, info = batch.reset(seed=10)
    firsts = [env.reset(seed=10 + i) for i, env in enumerate(singles)]  # game i is seeded seed + i

    def tensors(o: Any) -> np.ndarray:
        return o if kwargs.get("obs_type") == "tensor" else o["observation"]

    for i, (single_obs, single_info) in enumerate(firsts):
        assert np.array_equal(tensors(obs)[i], tensors(single_obs))
        assert np.array_equal(info["action_mask"][i], single_info["action_mask"])
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(150):
        masks = info["action_mask"]
        assert masks.any(axis=1).all() and np.array_equal(batch.action_masks(), masks.astype(bool))
        if kwargs.get("obs_type") != "tensor":
            assert np.array_equal(obs["action_mask"], masks)
        actions = random_actions(masks, rng)
        obs, rewards, terminated, truncated, info = batch.step(actions)
        for i, env in enumerate(singles):
            single_obs, reward, term, trunc, single_info = env.step(int(actions[i]))
            assert (rewards[i], terminated[i], truncated[i]) == (reward, term, trunc)
            if term or trunc:
                episodes += 1
                assert info["_final_obs"][i]
                final = info["final_obs"][i]
                assert np.array_equal(tensors(final), tensors(single_obs))  # the last observation, in info
                assert not info["final_info"]["action_mask"][i].any()
                single_obs, single_info = env.reset()  # the single env's generator goes on, as the batch's
            else:
                assert "final_obs" not in info or not info["_final_obs"][i]
            assert np.array_equal(tensors(obs)[i], tensors(single_obs))
            assert np.array_equal(info["action_mask"][i], single_info["action_mask"])
    assert episodes >= 3


def test_make_vec_builds_the_batched_env_with_gymnasiums_batched_spaces() -> None:
    envs = gymnasium.make_vec("oakwood/Barrell-v0", num_envs=4, players=2, opponents="random")
    inner = envs.unwrapped
    assert isinstance(inner, OakwoodVectorEnv) and inner.num_envs == 4
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, _ = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    assert envs.single_observation_space["observation"].shape == (obs["observation"].shape[1],)
    assert isinstance(envs.action_space, gymnasium.spaces.MultiDiscrete) and envs.action_space.shape == (4,)
    obs, rewards, terminated, truncated, _ = envs.step(random_actions(obs["action_mask"], np.random.default_rng(0)))
    assert envs.observation_space.contains(obs)
    assert rewards.shape == terminated.shape == truncated.shape == (4,) and terminated.dtype == np.bool_
    envs.close()
    sync = gymnasium.make_vec("oakwood/Barrell-v0", num_envs=2, vectorization_mode="sync", players=2)
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)  # the other modes stay available
    sync.close()


def test_copies_by_default_and_shared_buffers_on_request() -> None:
    copied = OakwoodVectorEnv("barrell", 2, obs_type="tensor")
    first, _ = copied.reset(seed=1)
    second, *_ = copied.step(random_actions(copied.action_masks(), np.random.default_rng(1)))
    assert first is not second and not np.shares_memory(first, second)
    shared = OakwoodVectorEnv("barrell", 2, obs_type="tensor", copy=False)
    first, _ = shared.reset(seed=1)
    before = first.copy()
    second, *_ = shared.step(random_actions(shared.action_masks(), np.random.default_rng(1)))
    assert second is first and not np.array_equal(before, second)  # overwritten in place: the caller copies


def test_a_forfeit_in_lose_mode_is_reported_in_final_info_and_the_game_restarts() -> None:
    envs = OakwoodVectorEnv("barrell", 2, illegal_action="lose")
    obs, _ = envs.reset(seed=2)
    actions = random_actions(obs["action_mask"], np.random.default_rng(2))
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])  # illegal in game 1
    obs, rewards, terminated, _, info = envs.step(actions)
    assert rewards[1] == -1.0 and terminated[1] and "illegal_action" in info["final_info"]
    assert (
        info["final_info"]["_illegal_action"][1] and f"action {actions[1]}" in info["final_info"]["illegal_action"][1]
    )
    assert obs["action_mask"][1].any()  # game 1 started again


def test_refusals_name_what_was_wrong() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        OakwoodVectorEnv("barrell", 0)
    envs = OakwoodVectorEnv("barrell", 2)
    with pytest.raises(ValueError, match="reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="3 seeds for 2"):
        envs.reset(seed=[1, 2, 3])
    envs.reset(seed=[5, None])
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="not legal"):
        envs.step(np.array([int(np.flatnonzero(envs.action_masks()[0] == 0)[0]), 0]))
