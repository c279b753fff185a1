"""Train sb3-contrib's MaskablePPO on Barrell (2 players) against the random bot, in a few minutes of CPU.

The environment is the registered Gymnasium one with the observation as a flat tensor (``obs_type="tensor"``),
so the stock ``"MlpPolicy"`` fits, and MaskablePPO finds the legal actions through the environment's public
``action_masks()``: no wrapper, no custom policy. At the end the trained policy plays fresh deals against the
random and the heuristic bots through sb3-contrib's own ``evaluate_policy`` (masking on); the reward is the win
share, so the mean episode reward is the win share. A uniformly random legal policy is measured the same way as
the baseline.

    pip install 'oakwood[rl,rl-train]'
    python examples/train_maskable_ppo.py                      # 100,000 steps: about 3 minutes on one core
    python examples/train_maskable_ppo.py --game squarrels --timesteps 50000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.logger import Logger

import oakwood.rl.gymnasium  # noqa: F401  (registers oakwood/Barrell-v0 and the others)
from oakwood.arena.stats import wilson_interval

ENV_IDS = {"barrell": "oakwood/Barrell-v0", "squarrels": "oakwood/Squarrels-v0", "nutty": "oakwood/Nutty-v0"}

#: Evaluation deals are seeded far from any training seed.
EVAL_SEED = 10**9


def env_kwargs(players: int, opponents: str) -> dict[str, Any]:
    """The environment's keywords: a flat tensor observation, so sb3's ``MlpPolicy`` takes it as it is (and no
    render mode: sb3's ``make_vec_env`` asks for ``"rgb_array"`` otherwise, and these environments draw text)."""
    return {"players": players, "opponents": opponents, "obs_type": "tensor", "render_mode": None}


def train(
    game: str, players: int, timesteps: int, seed: int, n_steps: int = 2048, batch_size: int = 256
) -> MaskablePPO:
    """MaskablePPO with sb3's defaults but an undiscounted return (the reward comes only at the game's end)."""
    env = gymnasium.make(ENV_IDS[game], **env_kwargs(players, "random"))
    model = MaskablePPO(
        "MlpPolicy", env, gamma=1.0, n_steps=n_steps, batch_size=batch_size, seed=seed, device="cpu", verbose=0
    )
    model.set_logger(Logger(folder=None, output_formats=[]))  # else every learn() makes a /tmp/SB3-<date> folder
    model.learn(total_timesteps=timesteps)
    return model


def win_share(rewards: list[float]) -> dict[str, float]:
    """The mean reward (the win share) of ``rewards`` with its 95 % Wilson interval."""
    wins = float(sum(rewards))
    share = wins / len(rewards)
    low, high = wilson_interval(wins, len(rewards))
    # The interval holds its estimate; at 0 wins float rounding leaves the lower bound a hair above 0.
    return {"games": len(rewards), "win_share": share, "low": min(low, share), "high": max(high, share)}


def evaluate(model: MaskablePPO, game: str, players: int, opponents: str, episodes: int) -> dict[str, float]:
    """The trained policy (greedy, masked) on ``episodes`` fresh deals against ``opponents``."""
    env = make_vec_env(ENV_IDS[game], n_envs=1, seed=EVAL_SEED, env_kwargs=env_kwargs(players, opponents))
    rewards, _ = evaluate_policy(model, env, n_eval_episodes=episodes, deterministic=True, return_episode_rewards=True)
    return win_share([float(r) for r in rewards])  # type: ignore[union-attr]


def random_baseline(game: str, players: int, opponents: str, episodes: int) -> dict[str, float]:
    """A uniformly random legal policy on the same deals: what "beating random" is measured against."""
    env = gymnasium.make(ENV_IDS[game], **env_kwargs(players, opponents))
    rng = np.random.default_rng(EVAL_SEED)
    rewards = []
    for episode in range(episodes):
        env.reset(seed=EVAL_SEED + episode)
        while True:
            masks = env.get_wrapper_attr("action_masks")()
            _, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(masks))))
            if terminated or truncated:
                rewards.append(float(reward))
                break
    return win_share(rewards)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train, evaluate, write the figures (and the model with ``--save``); the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(ENV_IDS), default="barrell")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--timesteps", type=int, default=100_000, help="the learner's decisions to train on")
    parser.add_argument("--n-steps", type=int, default=2048, help="PPO rollout length")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-episodes", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1: a small network runs best so)")
    parser.add_argument("--out", type=Path, default=Path("examples/maskable_ppo_barrell.json"), help="the figures")
    parser.add_argument("--save", type=Path, default=None, help="also save the model there (sb3's .zip)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    started = time.perf_counter()
    model = train(args.game, args.players, args.timesteps, args.seed, args.n_steps, args.batch_size)
    seconds = time.perf_counter() - started
    results: dict[str, Any] = {
        "game": args.game,
        "players": args.players,
        "timesteps": args.timesteps,
        "training_seconds": round(seconds, 1),
        "against_random": evaluate(model, args.game, args.players, "random", args.eval_episodes),
        "against_heuristic": evaluate(model, args.game, args.players, "heuristic", args.eval_episodes),
        "random_policy_against_random": random_baseline(args.game, args.players, "random", args.eval_episodes),
    }
    if args.save is not None:
        model.save(args.save)  # load with MaskablePPO.load(path)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
