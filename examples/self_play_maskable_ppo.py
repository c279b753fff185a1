"""Self-play with sb3-contrib's MaskablePPO on Barrell (2 players): train against a pool of frozen copies of the
learner's past selves, and plot how each generation does against the generations before it.

Generation 0 is the untrained network. Each generation trains ``--steps`` learner decisions against opponents
drawn from the pool at every episode (the environment's ``Pool``; the random bot is in it too, so the learner
never only meets itself), then a frozen copy of it joins the pool. After every generation the greedy policy
plays ``--eval-games`` fresh deals against generation 0, against the previous generation and against the random
bot; the curve is those win shares by generation.

    pip install 'oakwood[rl,rl-train,analysis]'
    python examples/self_play_maskable_ppo.py          # 8 generations of 12,500 steps: about 10 minutes of one core
"""

from __future__ import annotations

import argparse
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import torch
from numpy.typing import NDArray
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import Logger

from oakwood.arena.stats import wilson_interval
from oakwood.rl.gymnasium import OakwoodEnv
from oakwood.rl.opponents import Pool

matplotlib.use("Agg")
import matplotlib.pyplot as plt

#: Evaluation deals are seeded far from any training seed.
EVAL_SEED = 10**9

PolicyFn = Callable[[NDArray[np.float32], NDArray[np.bool_]], Any]


def frozen_copy(model: MaskablePPO, deterministic: bool = False) -> PolicyFn:
    """The model's policy as it is now, as an opponent: a deep copy, so later training leaves it unchanged."""
    policy = copy.deepcopy(model.policy)
    policy.set_training_mode(False)

    def act(observation: NDArray[np.float32], mask: NDArray[np.bool_]) -> Any:
        action, _ = policy.predict(observation, action_masks=mask, deterministic=deterministic)
        return action

    act.policy = policy  # type: ignore[attr-defined]  # kept reachable, e.g. for a test to compare parameters
    return act


def play(model: MaskablePPO, opponent: Any, games: int, players: int = 2) -> dict[str, float]:
    """The model's greedy win share against ``opponent`` (a bot name or a policy) on ``games`` fresh deals."""
    env = OakwoodEnv("barrell", players=players, opponents=opponent, obs_type="tensor")
    wins = 0.0
    for game in range(games):
        observation, _ = env.reset(seed=EVAL_SEED + game)
        while True:
            action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
            observation, reward, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                wins += float(reward)
                break
    share = wins / games
    low, high = wilson_interval(wins, games)
    # The interval holds its estimate; at 0 wins float rounding leaves the lower bound a hair above 0.
    return {"games": games, "win_share": share, "low": min(low, share), "high": max(high, share)}


def self_play(
    generations: int, steps: int, eval_games: int, seed: int, n_steps: int = 2048, batch_size: int = 256
) -> tuple[MaskablePPO, Pool, list[dict[str, Any]]]:
    """Train ``generations`` generations; the final model, the pool of frozen copies and the curve."""
    pool = Pool(["random"])
    env = OakwoodEnv("barrell", players=2, opponents=pool, obs_type="tensor")
    model = MaskablePPO(
        "MlpPolicy", env, gamma=1.0, n_steps=n_steps, batch_size=batch_size, seed=seed, device="cpu", verbose=0
    )
    model.set_logger(Logger(folder=None, output_formats=[]))  # else every learn() makes a /tmp/SB3-<date> folder
    first = frozen_copy(model, deterministic=True)  # generation 0: the untrained network
    pool.add(frozen_copy(model))
    previous = first
    curve = []
    for generation in range(1, generations + 1):
        model.learn(total_timesteps=steps, reset_num_timesteps=False)
        curve.append(
            {
                "generation": generation,
                "timesteps": generation * steps,
                "against_generation_0": play(model, first, eval_games),
                "against_previous": play(model, previous, eval_games),
                "against_random": play(model, "random", eval_games),
            }
        )
        previous = frozen_copy(model, deterministic=True)
        pool.add(frozen_copy(model))  # sampled opponents play stochastically, as the learner does
    return model, pool, curve


def plot(curve: list[dict[str, Any]], out: Path) -> None:
    """The win shares by generation, with their 95 % intervals."""
    figure, ax = plt.subplots(figsize=(7, 3.4))
    generations = [point["generation"] for point in curve]
    for key, label in (
        ("against_generation_0", "vs generation 0 (untrained)"),
        ("against_previous", "vs the previous generation"),
        ("against_random", "vs the random bot"),
    ):
        shares = [point[key]["win_share"] for point in curve]
        errors = [
            [s - point[key]["low"] for s, point in zip(shares, curve, strict=True)],
            [point[key]["high"] - s for s, point in zip(shares, curve, strict=True)],
        ]
        ax.errorbar(generations, shares, yerr=errors, marker="o", markersize=3, capsize=2, label=label)
    ax.axhline(0.5, color="#555555", linestyle="--", linewidth=1)
    ax.set_xlabel("generation (each trained against the pool of its past selves and the random bot)")
    ax.set_ylabel("win share, greedy")
    ax.set_title("Barrell, 2 players: MaskablePPO self-play against frozen past selves")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.legend(fontsize=8)
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=96)
    plt.close(figure)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Run the self-play, write the curve (PNG) and its figures (JSON beside it); the curve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=8)
    parser.add_argument("--steps", type=int, default=12_500, help="learner decisions per generation")
    parser.add_argument("--n-steps", type=int, default=2048, help="PPO rollout length")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1: a small network runs best so)")
    parser.add_argument("--out", type=Path, default=Path("examples/self_play_barrell.png"))
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    _, pool, curve = self_play(args.generations, args.steps, args.eval_games, args.seed, args.n_steps, args.batch_size)
    plot(curve, args.out)
    results = {"generations": args.generations, "steps_per_generation": args.steps, "pool": len(pool), "curve": curve}
    args.out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    for point in curve:
        print(
            f"generation {point['generation']}: vs generation 0 {point['against_generation_0']['win_share']:.3f}, "
            f"vs previous {point['against_previous']['win_share']:.3f}, "
            f"vs random {point['against_random']['win_share']:.3f}"
        )
    return curve


if __name__ == "__main__":
    main()
