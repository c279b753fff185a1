"""The environment as sb3-contrib's users meet it: MaskablePPO's own mask helpers find ``action_masks()`` through
Gymnasium's wrappers and sb3's vector env, a model plays only legal actions, a frozen copy of a model is an
opponent, and ``examples/train_maskable_ppo.py`` runs end to end (a short version) and is seeded.

sb3-contrib and torch (CPU) are the ``rl-train`` extra, installed with the dev tools."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
import pytest
import torch
from numpy.typing import NDArray
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_util import make_vec_env

import oakwood.rl.gymnasium  # noqa: F401  (registers the environments)
from oakwood.rl.gymnasium import OakwoodEnv
from oakwood.rl.opponents import Pool

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE = EXAMPLES / "train_maskable_ppo.py"


@pytest.fixture(autouse=True)
def one_thread() -> None:
    torch.set_num_threads(1)  # tiny networks: threads only cost (and the machine is shared)


@pytest.fixture(autouse=True)
def logs_in_tmp_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Every learn() of a model without a logger of its own makes /tmp/SB3-<date>: keep them out of the user's /tmp.
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3-logs"))


def example(path: Path = EXAMPLE) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("env_id", ["oakwood/Barrell-v0", "oakwood/Squarrels-v0", "oakwood/Nutty-v0"])
def test_sb3_contribs_helpers_find_the_masks_through_wrappers_and_vector_envs(env_id: str) -> None:
    env = gymnasium.make(env_id, players=2)  # PassiveEnvChecker and OrderEnforcing wrap it
    env.reset(seed=3)
    assert is_masking_supported(env)
    masks = get_action_masks(env)
    assert masks.dtype == np.bool_ and np.array_equal(masks, env.unwrapped.action_masks()) and masks.any()

    vec = make_vec_env(env_id, n_envs=3, seed=5, env_kwargs={"players": 2, "obs_type": "tensor", "render_mode": None})
    vec.reset()
    assert is_masking_supported(vec)
    stacked = get_action_masks(vec)
    assert stacked.shape == (3, env.action_space.n) and stacked.dtype == np.bool_
    for i, inner in enumerate(vec.envs):  # type: ignore[attr-defined]
        assert np.array_equal(stacked[i], inner.unwrapped.action_masks()) and stacked[i].any()


def test_a_maskable_ppo_model_plays_only_legal_actions() -> None:
    env = OakwoodEnv("squarrels", players=3, obs_type="tensor", options={"single_round": True})  # illegal: ValueError
    model = MaskablePPO("MlpPolicy", env, seed=0, n_steps=64, batch_size=32, device="cpu")
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        steps = 0
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=False)
            obs, _, terminated, truncated, _ = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        assert env.state.is_terminal() and steps > 5


def test_a_frozen_model_in_a_pool_is_an_opponent_for_self_play(tmp_path: Path) -> None:
    learner_env = OakwoodEnv("barrell", players=2, obs_type="tensor")
    model = MaskablePPO("MlpPolicy", learner_env, seed=0, n_steps=64, batch_size=32, device="cpu")
    model.save(tmp_path / "past.zip")
    frozen = MaskablePPO.load(tmp_path / "past.zip", device="cpu")  # a past self, no longer trained
    asked: list[int] = []

    def past_self(observation: NDArray[np.float32], mask: NDArray[np.bool_]) -> Any:
        action, _ = frozen.predict(observation, action_masks=mask, deterministic=True)
        asked.append(int(action))
        return action

    pool = Pool([past_self, "random"], weights=[1.0, 0.0])
    env = OakwoodEnv("barrell", players=2, opponents=pool, obs_type="tensor")
    model.set_env(env)
    model.learn(128)  # MaskablePPO trains against its past self through the pool
    assert len(asked) > 10 and env.agents[1].policy is past_self


def test_the_maskable_ppo_example_trains_evaluates_and_is_seeded(tmp_path: Path) -> None:
    module = example()
    out, saved = tmp_path / "figures.json", tmp_path / "model.zip"
    argv = ["--timesteps", "256", "--n-steps", "128", "--batch-size", "64", "--eval-episodes", "12"]
    results = module.main([*argv, "--out", str(out), "--save", str(saved)])
    assert json.loads(out.read_text(encoding="utf-8")) == results
    assert results["timesteps"] == 256 and results["game"] == "barrell"
    for key in ("against_random", "against_heuristic", "random_policy_against_random"):
        figure = results[key]
        assert figure["games"] == 12 and figure["low"] <= figure["win_share"] <= figure["high"]
    loaded = MaskablePPO.load(saved, device="cpu")
    env = OakwoodEnv("barrell", players=2, obs_type="tensor")
    obs, _ = env.reset(seed=1)
    action, _ = loaded.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]

    first = module.train("barrell", 2, 256, seed=4, n_steps=128, batch_size=64)
    again = module.train("barrell", 2, 256, seed=4, n_steps=128, batch_size=64)
    other = module.train("barrell", 2, 256, seed=5, n_steps=128, batch_size=64)
    weights = [m.policy.state_dict() for m in (first, again, other)]
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])  # seeded: the same run
    assert not all(torch.equal(weights[0][k], weights[2][k]) for k in weights[0])


def test_the_self_play_example_keeps_frozen_past_selves_and_plots_its_curve(tmp_path: Path) -> None:
    module = example(EXAMPLES / "self_play_maskable_ppo.py")
    out = tmp_path / "curve.png"
    argv = ["--generations", "2", "--steps", "128", "--n-steps", "64", "--batch-size", "32", "--eval-games", "4"]
    curve = module.main([*argv, "--out", str(out)])
    assert out.stat().st_size > 0
    results = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert results["curve"] == curve and [point["generation"] for point in curve] == [1, 2]
    assert results["pool"] == 4  # the random bot, generation 0, and a frozen copy after each generation
    for point in curve:
        for key in ("against_generation_0", "against_previous", "against_random"):
            assert point[key]["games"] == 4 and point[key]["low"] <= point[key]["win_share"] <= point[key]["high"]

    model, pool, _ = module.self_play(2, 128, 2, seed=3, n_steps=64, batch_size=32)
    untrained = MaskablePPO("MlpPolicy", OakwoodEnv("barrell", obs_type="tensor"), seed=3, device="cpu")
    snapshots = [member.policy.state_dict() for member in pool.members[1:]]
    now = model.policy.state_dict()

    def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
        return all(torch.equal(a[k], b[k]) for k in a)

    assert pool.members[0] == "random" and len(snapshots) == 3
    assert same(snapshots[0], untrained.policy.state_dict())  # generation 0 stayed as it was made: frozen
    assert not same(snapshots[0], snapshots[1]) and not same(snapshots[1], snapshots[2])  # each generation learnt
    assert same(snapshots[2], now)  # the last copy is the final model
