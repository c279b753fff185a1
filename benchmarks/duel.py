"""Two bots on duplicate deals: how much stronger the first is than the second, with the luck of the cards out.

One seat of the first bot, every other seat the second; each deal is played once with the first bot at every
seat (``SimulationSpec(duplicate=True)``), so both bots play the same cards and the comparison needs far fewer
games than independent deals. Prints the first bot's win share with its 95 % interval over deals, against the
equal share, and its mean score. This is how the strategists were tuned (``games/*/strategist.py``): a
change is kept when it moves this share beyond its interval, confirmed on a second seed.

    python benchmarks/duel.py squarrels strategist heuristic --players 2 --deals 4000 -o single_round=true
    python benchmarks/duel.py nutty strategist heuristic --players 4 --deals 500 --seed 2
"""

from __future__ import annotations

import argparse
import statistics
import time

import checkout  # noqa: F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)

from oakwood.arena.simulate import simulate
from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import deal_summary
from oakwood.cli.common import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("first", help="the bot under test (a level or a bot name)")
    parser.add_argument("second", help="the bot at every other seat")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE, as in oakwood play")
    args = parser.parse_args()
    game = load_game(args.game, args.option)
    lineup = (args.first,) + (args.second,) * (args.players - 1)
    spec = SimulationSpec(
        game.name,
        lineup,
        games=args.deals * args.players,
        seed=args.seed,
        rotate=True,
        duplicate=True,
        options=game.options.to_dict(),
    )
    started = time.perf_counter()
    records = simulate(spec, workers=args.workers)
    summary = deal_summary(records, 0, args.first)
    score = statistics.fmean(r.scores[r.seating.index(0)] for r in records)
    print(
        f"{args.game} at {args.players}: {args.first} against {args.second}: win share {summary.win_rate:.4f} "
        f"[{summary.ci_low:.4f}, {summary.ci_high:.4f}] over {summary.deals} deals ({summary.games} games; "
        f"equal share {1 / args.players:.3f}); its mean score {score:.2f}; {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
