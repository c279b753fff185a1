"""Our ``expert`` against OpenSpiel's ISMCTS bot, at equal time per move, on each game at two players.

Both play the OpenSpiel game in its turn-based form (``oakwood.rl.openspiel``, ``turn_based=True``). OpenSpiel's
bot is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` as the library ships it (random-rollout evaluator,
``uct_c`` 2, the most visited action), resampling its worlds with our ``determinize`` (``Resampler``) and given
a time budget per move (``TimedISMCTSBot``). Our ``expert`` is ``make_agent(game, "expert")`` with its iteration
budget replaced by the same time budget. It reads only its seat's ``PlayerView`` of the engine state, as in the
arena. Each deal is played twice with the seats swapped; deals are played until the time budget of the game is
spent (a pair that has started is finished). A game longer than ``--max-steps`` nodes is stopped and counted
as unfinished (no share to either side).

Reported per game: games played, the expert's win share (a shared win counts as a fraction) with its 95 %
Wilson interval, the mean seconds per searched move of each side and OpenSpiel's mean simulations per move.

Measured on 2026-12-01 (2 shared cores, ``nice``; 0.2 s a move, about 5 minutes a game):

| game | games | unfinished | expert's share | 95 % Wilson | expert s/move | OpenSpiel s/move | OpenSpiel sims/move |
|---|---|---|---|---|---|---|---|
| barrell | 46 | 0 | 0.67 | [0.53, 0.79] | 0.20 | 0.20 | 91 |
| nutty | 12 | 0 | 1.00 | [0.76, 1.00] | 0.20 | 0.21 | 13 |
| squarrels | 8 | 0 | 1.00 | [0.68, 1.00] | 0.20 | 0.21 | 34 |

OpenSpiel's bot rolls every simulation out at random to the end of the game through the Python game, so it runs
few simulations in the long games; ours searches with the game's heuristic and short playouts.

    nice -n 10 python benchmarks/openspiel_match.py                       # all three, 0.2 s a move, 5 min each
    nice -n 10 python benchmarks/openspiel_match.py --games barrell --budget 60 --seconds 0.1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
import checkout  # noqa: E402, F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)
import numpy as np  # noqa: E402

from oakwood.agents import make_agent  # noqa: E402
from oakwood.arena.stats import wilson_interval  # noqa: E402
from oakwood.engine import Rng  # noqa: E402
from oakwood.engine.agent import PlayerView, as_choice  # noqa: E402
from oakwood.rl.openspiel import OakwoodGame, ismcts_bot, load_game  # noqa: E402


@dataclass
class Tally:
    """What one game's matches measured."""

    games: int = 0
    unfinished: int = 0
    expert_share: float = 0.0
    expert_times: list[float] = field(default_factory=list)
    openspiel_times: list[float] = field(default_factory=list)
    simulations: list[int] = field(default_factory=list)


def play(game: OakwoodGame, deal: int, expert_seat: int, seconds: float, max_steps: int, tally: Tally) -> None:
    """One game from deal ``deal``, ``expert`` at ``expert_seat`` and OpenSpiel's ISMCTS at the other seat."""
    oakwood_game = game.oakwood
    expert = make_agent(oakwood_game, "expert", iterations=None, seconds=seconds, seed=deal * 2 + expert_seat)
    bot = ismcts_bot(game, seed=deal * 2 + expert_seat, max_simulations=10**9, seconds=seconds)
    world_rng = Rng(deal ^ 0x3A7D)  # the expert's worlds: never the game's own generator
    chance_rng = np.random.RandomState(deal)
    state = game.new_initial_state()
    state.apply_action(deal % game.num_seeds)  # the deal: the root chance node's outcome
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            tally.unfinished += 1
            return
        steps += 1
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance_rng.choice(outcomes, p=probabilities)))
            continue
        seat = state.current_player()
        searched = len(state.legal_actions()) > 1
        started = time.perf_counter()
        if seat == expert_seat:
            view = PlayerView.for_agent(state.oakwood_state, seat, expert, world_rng)
            action = oakwood_game.encode(as_choice(expert.act(view), 0.0).action)
            if searched:
                tally.expert_times.append(time.perf_counter() - started)
        else:
            action = int(bot.step(state))
            if searched:
                tally.openspiel_times.append(time.perf_counter() - started)
                tally.simulations.append(bot.simulations)
        state.apply_action(action)
    tally.games += 1
    tally.expert_share += state.returns()[expert_seat]


def run(name: str, seconds: float, budget: float, max_steps: int, options: dict[str, Any]) -> Tally:
    """Seat-rotated pairs of games on ``name`` until ``budget`` seconds have passed."""
    game = load_game(name, players=2, turn_based=True, **options)
    tally = Tally()
    started = time.perf_counter()
    deal = 0
    while time.perf_counter() - started < budget:
        for expert_seat in (0, 1):
            play(game, deal, expert_seat, seconds, max_steps, tally)
        deal += 1
        low, high = wilson_interval(tally.expert_share, tally.games) if tally.games else (0.0, 1.0)
        print(
            f"  {name}: {tally.games} games, expert {tally.expert_share:g} [{low:.2f}, {high:.2f}], "
            f"{time.perf_counter() - started:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=["squarrels", "barrell", "nutty"])
    parser.add_argument("--seconds", type=float, default=0.2, help="time per move for both sides")
    parser.add_argument("--budget", type=float, default=300.0, help="seconds of play per game")
    parser.add_argument("--max-steps", type=int, default=5000, help="nodes after which a game counts as unfinished")
    args = parser.parse_args()
    rows = []
    for name in args.games:
        tally = run(name, args.seconds, args.budget, args.max_steps, {})
        low, high = wilson_interval(tally.expert_share, tally.games) if tally.games else (0.0, 1.0)
        share = tally.expert_share / tally.games if tally.games else float("nan")
        expert_time = statistics.fmean(tally.expert_times or [0])
        openspiel_time = statistics.fmean(tally.openspiel_times or [0])
        rows.append(
            f"| {name} | {tally.games} | {tally.unfinished} | {share:.2f} | [{low:.2f}, {high:.2f}] | "
            f"{expert_time:.2f} | {openspiel_time:.2f} | {statistics.fmean(tally.simulations or [0]):.0f} |"
        )
    print(f"Our expert against OpenSpiel's ISMCTS, 2 players, {args.seconds:g} s a move, seats rotated\n")
    print(
        "| game | games | unfinished | expert's win share | 95 % Wilson | expert s/move | OpenSpiel s/move "
        "| OpenSpiel simulations/move |"
    )
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
