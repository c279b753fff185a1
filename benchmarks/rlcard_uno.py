"""The baseline loop over RLCard's UNO game object, run inside benchmarks/.rlcard-venv.

Prints one JSON object: steps/s and games/s for each repeat. The loop is the same as Oakwood's: at each
step the player to act, its legal actions, a seeded uniform choice, and the step.
"""

from __future__ import annotations

import json
import random
import sys
import time

import numpy as np
from rlcard.games.uno.game import UnoGame


def playouts(games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` random UNO games; return (steps, seconds)."""
    chooser = random.Random(seed)
    game = UnoGame(num_players=4)
    game.np_random = np.random.RandomState(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            game.get_player_id()
            legal = game.get_legal_actions()
            game.step(legal[int(chooser.random() * len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


def main() -> None:
    """Run the repeats given on the command line: ``rlcard_uno.py REPEATS GAMES``."""
    repeats, games = int(sys.argv[1]), int(sys.argv[2])
    out = []
    playouts(max(1, games // 10), seed=999)  # warm-up, not timed (as for Oakwood)
    for r in range(repeats):
        steps, seconds = playouts(games, seed=r)
        out.append({"steps_per_s": steps / seconds, "games_per_s": games / seconds, "steps": steps})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
