"""A learned leaf evaluation for the search (issue 37): does a small value network, trained on the positions the
search's playouts meet, predict who wins better than the game's hand-written ``estimate_returns``?

The search scores a playout's last position with ``game.estimate_returns`` (``agents/ismcts.py``); in two-player
S'Quarrels (one round) 93 % of the expert's playouts stop before the end (``playout_steps`` = 8), so that
estimate is most of what the search knows. This script:

- ``data``: plays games as the search's playouts do (the game's ``search_guide`` at every seat, a random move at
  the guide's rate of ``guide_epsilon`` 0.1), samples positions, and stores for each sampled position and seat
  the input of the network — the seat's observation tensor and every other seat's, in seat order from it (a
  world of the search is a whole state, so the leaf may read every seat's tensor) — the seat's final return
  and ``estimate_returns``'s figure for it;
- ``train``: fits a small MLP (torch, CPU) to the returns on the positions of some games, and writes its
  weights (a ``.npz`` of float32 arrays, so play needs numpy only);
- ``compare``: on the positions of games never trained on, the log loss, Brier score and accuracy of the
  network's win probability and of ``estimate_returns``, by how far into the game the position is.

    python benchmarks/value_net.py data --game squarrels -o single_round=true --games 20000 --out /tmp/sq.npz
    python benchmarks/value_net.py train --data /tmp/sq.npz --out /tmp/sq-value.npz
    python benchmarks/value_net.py compare --data /tmp/sq-test.npz --weights /tmp/sq-value.npz
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import checkout  # noqa: F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)
import numpy as np
from numpy.typing import NDArray

from oakwood.agents import make_agent
from oakwood.agents.ismcts import _move_of, _pick_seat
from oakwood.cli.common import load_game
from oakwood.engine import Game, Rng
from oakwood.rl.common import observation_encoder

EPSILON = 0.1  # ISMCTSAgent's guide_epsilon: the playouts' rate of random moves


def features(encoder: Any, state: Any, seat: int, players: int) -> NDArray[np.float32]:
    """The network's input for ``seat``: its tensor, then every other seat's in seat order from it."""
    return np.concatenate([encoder.encode_state(state, (seat + r) % players) for r in range(players)])


def play_positions(game: Game[Any], players: int, games: int, seed: int, sample: float) -> dict[str, NDArray[Any]]:
    """Positions of ``games`` playout-like games: inputs, final returns, the hand-written estimate, progress."""
    encoder = observation_encoder(game, players)
    rng = Rng(seed)
    xs: list[NDArray[np.float32]] = []
    meta: list[tuple[int, int, float]] = []  # game, seat, estimate
    steps_of: list[int] = []
    returns_of: list[list[float]] = []
    lengths: list[int] = []
    for number in range(games):
        state = game.new_state(players, rng.randbelow(1 << 62))
        state.record_events = False
        bots: dict[int, Any] = {}
        steps = 0
        while not state.is_terminal():
            if rng.random() < sample:
                estimate = game.estimate_returns(state)
                for seat in range(players):
                    xs.append(features(encoder, state, seat, players))
                    meta.append((number, seat, estimate[seat]))
                    steps_of.append(steps)
            seat = _pick_seat(state.to_act(), rng)
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                action = legal[0]
            elif rng.random() < EPSILON:
                action = game.playout_action(state, seat, legal, rng)
            else:
                bot = bots.get(seat)
                if bot is None:
                    bot = bots[seat] = make_agent(game, game.search_guide, seed=rng.randbelow(1 << 30))
                action = _move_of(bot, state, seat)
            state.apply(seat, action)
            steps += 1
        returns_of.append(list(state.returns()))
        lengths.append(steps)
    games_of = np.array([m[0] for m in meta])
    return {
        "x": np.stack(xs),
        "y": np.array([returns_of[g][s] for g, s, _ in meta], dtype=np.float32),
        "estimate": np.array([m[2] for m in meta], dtype=np.float32),
        "game": games_of,
        "progress": np.array(steps_of, dtype=np.float32) / np.array(lengths, dtype=np.float32)[games_of],
    }


class ValueNet:
    """The trained network in numpy: ``x`` (rows of inputs) → each row's win probability."""

    def __init__(self, weights: dict[str, NDArray[np.float32]]) -> None:
        self.layers = [(weights[f"w{i}"], weights[f"b{i}"]) for i in range(len(weights) // 2)]

    @classmethod
    def read(cls, path: str) -> ValueNet:
        """The network whose weights ``train`` wrote to ``path``."""
        with np.load(path) as loaded:
            return cls(dict(loaded))

    def __call__(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < len(self.layers) - 1:
                x = np.maximum(x, 0.0)
        return 1.0 / (1.0 + np.exp(-x[:, 0]))


class NetEvaluator:
    """A leaf evaluation for ``ISMCTSAgent(evaluate=…)``: each seat's win probability from the network on the
    world's tensors, normalised to shares that sum to 1 (a finished game: the game's own exact figure)."""

    def __init__(self, game: Game[Any], players: int, net: ValueNet) -> None:
        self.encoder = observation_encoder(game, players)
        self.players = players
        self.net = net

    def __call__(self, state: Any) -> list[float]:
        if state.is_terminal():
            return list(state.game.estimate_returns(state))
        n = self.players
        rows = np.stack([features(self.encoder, state, seat, n) for seat in range(n)])
        p = self.net(rows)
        return [float(v) for v in p / p.sum()]


def duel(
    game: Game[Any], players: int, net: ValueNet, iterations: int, deals: int, seed: int, bounds: tuple[float, float]
) -> None:
    """ISMCTS with the network's leaves against ISMCTS with ``estimate_returns``, the same iterations and guide,
    on duplicate deals (the network's bot at every seat of each deal in turn), until an SPRT on the per-deal
    shares decides between ``bounds`` (H0, H1) or ``deals`` are played; a line per deal."""
    from oakwood.arena.match import play_match
    from oakwood.arena.sprt import Sprt

    evaluate = NetEvaluator(game, players, net)
    test = Sprt(*bounds)
    start = time.perf_counter()
    for deal in range(deals):
        total = 0.0
        for hero in range(players):
            agents = [
                make_agent(game, "ismcts", seed=seed * 1000 + deal * 8 + s, iterations=iterations,
                           playout_steps=game.playout_steps, evaluate=evaluate if s == hero else None)
                for s in range(players)
            ]  # fmt: skip
            total += play_match(game, agents, seed * 100_000 + deal, record_events=False).returns[hero]
        test.add(total / players)
        print(f"deal {deal + 1} ({time.perf_counter() - start:.0f} s): {test.describe()}", flush=True)
        if test.verdict() is not None:
            break


def train(data: dict[str, NDArray[Any]], hidden: tuple[int, ...], epochs: int, seed: int) -> dict[str, NDArray[Any]]:
    """An MLP fitted to the returns (binary cross-entropy, Adam), its weights as float32 arrays."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    x = torch.from_numpy(data["x"])
    y = torch.from_numpy(data["y"])
    sizes = (x.shape[1], *hidden, 1)
    layers: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*layers)
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    loss_of = torch.nn.BCEWithLogitsLoss()
    batch = 512
    for epoch in range(epochs):
        order = torch.randperm(len(x))
        total = 0.0
        for start in range(0, len(x), batch):
            index = order[start : start + batch]
            optimiser.zero_grad()
            loss = loss_of(model(x[index])[:, 0], y[index])
            loss.backward()
            optimiser.step()
            total += loss.item() * len(index)
        print(f"epoch {epoch + 1}: training log loss {total / len(x):.4f}", flush=True)
    linear = [m for m in model if isinstance(m, torch.nn.Linear)]
    weights: dict[str, NDArray[Any]] = {}
    for i, m in enumerate(linear):
        weights[f"w{i}"] = m.weight.detach().numpy().T.astype(np.float32).copy()
        weights[f"b{i}"] = m.bias.detach().numpy().astype(np.float32).copy()
    return weights


def scores(p: NDArray[Any], y: NDArray[Any]) -> tuple[float, float, float]:
    """Log loss, Brier score and accuracy (a tie counts half) of win probabilities ``p`` for returns ``y``."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    log_loss = float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))
    brier = float(np.mean((p - y) ** 2))
    accuracy = float(np.mean(np.where(y == 0.5, 0.5, (p > 0.5) == (y > 0.5))))
    return log_loss, brier, accuracy


def compare(data: dict[str, NDArray[Any]], net: ValueNet) -> None:
    """The network against ``estimate_returns`` on ``data``, overall and by quarter of the game."""
    predicted = net(data["x"])
    print("| positions | part of the game | estimate_returns: log loss / Brier / accuracy | network |")
    print("|---|---|---|---|")
    for low, high, label in ((0, 1.01, "all"), (0, 0.25, "first quarter"), (0.25, 0.5, "second"),
                             (0.5, 0.75, "third"), (0.75, 1.01, "last quarter")):  # fmt: skip
        part = (data["progress"] >= low) & (data["progress"] < high)
        base = scores(data["estimate"][part], data["y"][part])
        mine = scores(predicted[part], data["y"][part])
        print(
            f"| {int(part.sum()):,} | {label} | {base[0]:.4f} / {base[1]:.4f} / {base[2]:.3f} "
            f"| {mine[0]:.4f} / {mine[1]:.4f} / {mine[2]:.3f} |"
        )


def load_positions(paths: list[str]) -> dict[str, NDArray[Any]]:
    """The positions of the ``data`` files at ``paths``, joined (files of several seeds make one set)."""
    parts = []
    for path in paths:
        with np.load(path) as loaded:
            parts.append(dict(loaded))
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def main() -> None:
    """Parse the command line and run the step asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("data", "train", "compare", "duel"))
    parser.add_argument("--game", default="squarrels")
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE, as in oakwood play")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--sample", type=float, default=0.1, help="the share of positions kept")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", default="64,32", help="hidden layer sizes")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument(
        "--data", action="append", default=[], help="positions (.npz) to train on or compare with; repeat to join files"
    )
    parser.add_argument("--weights", help="the network's weights (.npz)")
    parser.add_argument("--out", help="where to write positions or weights")
    parser.add_argument("--iterations", type=int, default=300, help="each search's budget in a duel")
    parser.add_argument("--deals", type=int, default=400, help="the most duplicate deals a duel plays")
    parser.add_argument("--sprt", default="0.5,0.55", help="a duel's H0,H1 as the network bot's win share")
    args = parser.parse_args()
    if args.step in ("train", "compare") and not args.data:
        parser.error(f"{args.step} needs --data: the positions a data step wrote")
    start = time.perf_counter()
    if args.step == "data":
        game = load_game(args.game, args.option)
        data = play_positions(game, args.players, args.games, args.seed, args.sample)
        np.savez_compressed(args.out, **data)
        print(f"{len(data['y']):,} positions of {args.games:,} games in {time.perf_counter() - start:.0f} s")
    elif args.step == "train":
        data = load_positions(args.data)
        weights = train(data, tuple(int(h) for h in args.hidden.split(",")), args.epochs, args.seed)
        np.savez(args.out, **weights)
        print(f"trained on {len(data['y']):,} positions in {time.perf_counter() - start:.0f} s")
    elif args.step == "compare":
        compare(load_positions(args.data), ValueNet.read(args.weights))
    else:
        net = ValueNet.read(args.weights)
        h0, h1 = (float(v) for v in args.sprt.split(","))
        duel(load_game(args.game, args.option), args.players, net, args.iterations, args.deals, args.seed, (h0, h1))


if __name__ == "__main__":
    main()
