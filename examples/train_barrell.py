"""Train a policy on Barrell (2 players) against the random bot through the Gymnasium environment, on a CPU in
minutes, and plot its learning curve (win share against games played).

The policy is linear in the observation tensor (a softmax over the legal actions only, via the action mask) and
is trained by REINFORCE with a running-mean baseline, in numpy alone: the point is that the environment works
with the tools a researcher already has, not the algorithm. At the end it plays fresh seeds against the random
and the heuristic bots.

    python examples/train_barrell.py --games 6000 --out examples/barrell_learning_curve.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import gymnasium
import matplotlib
import numpy as np
from numpy.typing import NDArray

import oakwood.rl.gymnasium  # noqa: F401  (registers oakwood/Barrell-v0)
from oakwood.arena.stats import wilson_interval

matplotlib.use("Agg")
import matplotlib.pyplot as plt


class LinearPolicy:
    """Logits = W·x + b over every action of the codec; illegal actions are masked out."""

    def __init__(self, inputs: int, actions: int, rng: np.random.Generator) -> None:
        self.weights = np.zeros((actions, inputs))
        self.bias = np.zeros(actions)
        self.rng = rng

    def probabilities(self, x: NDArray[np.float32], mask: NDArray[np.int8]) -> NDArray[np.float64]:
        logits = self.weights @ x + self.bias
        logits = np.where(mask == 1, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return np.asarray(p / p.sum())

    def act(self, observation: dict[str, Any], greedy: bool = False) -> tuple[int, NDArray[np.float64]]:
        p = self.probabilities(observation["observation"], observation["action_mask"])
        action = int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))
        return action, p


def play(
    env: gymnasium.Env[Any, Any], policy: LinearPolicy, seed: int, greedy: bool = False
) -> tuple[float, list[Any]]:
    """One game; its return and the (x, mask, action, probabilities) of every decision."""
    observation, _ = env.reset(seed=seed)
    steps = []
    while True:
        action, p = policy.act(observation, greedy)
        steps.append((observation["observation"], action, p))
        observation, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return float(reward), steps


def train(games: int, rate: float, seed: int) -> tuple[LinearPolicy, list[float]]:
    env = gymnasium.make("oakwood/Barrell-v0", players=2, opponents="random")
    size = env.observation_space["observation"].shape[0]
    policy = LinearPolicy(size, env.action_space.n, np.random.default_rng(seed))
    baseline = 0.5
    returns = []
    for game in range(games):
        reward, steps = play(env, policy, seed=seed * 1_000_003 + game)
        returns.append(reward)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for x, action, p in steps:  # ∇ log π(a|x) = (onehot(a) − π) ⊗ x, over the legal actions
            grad = -p
            grad[action] += 1.0
            policy.weights += rate * advantage * np.outer(grad, x)
            policy.bias += rate * advantage * grad
    return policy, returns


def evaluate(policy: LinearPolicy, opponents: str, games: int) -> dict[str, float]:
    env = gymnasium.make("oakwood/Barrell-v0", players=2, opponents=opponents)
    wins = sum(play(env, policy, seed=10**9 + g)[0] for g in range(games))
    low, high = wilson_interval(wins, games)
    return {"games": games, "win_share": wins / games, "low": low, "high": high}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000, help="training games")
    parser.add_argument("--rate", type=float, default=0.01, help="learning rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=Path("examples/barrell_learning_curve.png"))
    args = parser.parse_args()
    policy, returns = train(args.games, args.rate, args.seed)
    window = max(1, args.games // 30)
    curve = [float(np.mean(returns[i : i + window])) for i in range(0, len(returns) - window + 1, window)]
    results = {
        "training_games": args.games,
        "against_random": evaluate(policy, "random", args.eval_games),
        "against_heuristic": evaluate(policy, "heuristic", args.eval_games),
    }
    figure, ax = plt.subplots(figsize=(7, 3.2))
    ax.plot([window * (k + 1) for k in range(len(curve))], curve, marker="o", markersize=3, label="training, vs random")
    ax.axhline(0.5, color="#555555", linestyle="--", linewidth=1, label="equal share")
    ax.set_xlabel("games played")
    ax.set_ylabel(f"win share (mean of {window} games)")
    ax.set_title("Barrell, 2 players: a linear policy learns against the random bot (REINFORCE)")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.legend(fontsize=8)
    figure.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(args.out, dpi=96)
    args.out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
