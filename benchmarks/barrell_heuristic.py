"""The Barrell heuristic against an earlier version of itself: duplicate deals with a sequential test, how often
each card is played, and the cost of a decision.

The earlier version is read from git (``--baseline``, default: the heuristic before issue 35 taught it the
Queens, the K♥, the K♦, the J♦ and the Jokers) and loaded in each worker as a module of its own, so ``src/``
keeps one bot. Three commands:

- ``sprt``: at each table size, deals are played once with the current bot at every seat (the baseline at the
  others), so both versions play the same cards. Each deal gives the current bot's mean win share over its
  seatings (ties as fractional wins). A sequential probability ratio test on these per-deal shares
  (``oakwood.arena.sprt``: the normal approximation, variance estimated as it goes) weighs "weaker by
  ``--delta``" (share ``1/n - delta``) against "not weaker" (share ``1/n``), with error rates ``--alpha`` and
  ``--beta``; the first crossing of a bound (after 30 deals) decides, after which the run stops (or goes on
  to ``--min-deals``, only to narrow the interval); it gives up after ``--max-deals``. A second test on the
  same deals, "equal" against "stronger by ``--delta``", is reported beside it (it does not stop the run).
- ``counts``: ``--games`` games at ``--players`` players with the current bot (``--bot baseline``: the other)
  at every seat: for each face card and Joker, in how many games per 1,000 it was played at least once, and
  the plays per 1,000 games.
- ``timing``: the microseconds per decision of each version over the same positions (every decision of
  ``--games`` three-player games played by the current bot): the fastest of ``--passes`` passes, the two
  versions' passes interleaved so that a busy spell of the machine slows both alike.

    python benchmarks/barrell_heuristic.py sprt --players 2 3 4 --workers 2
    python benchmarks/barrell_heuristic.py counts --players 3 --games 1000
    python benchmarks/barrell_heuristic.py timing --games 100
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import time
import types
from collections import Counter
from collections.abc import Hashable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
import checkout  # noqa: E402, F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)

import oakwood  # noqa: E402
from oakwood.arena.match import play_match  # noqa: E402
from oakwood.arena.sprt import H0, H1, Sprt  # noqa: E402
from oakwood.engine import Game  # noqa: E402
from oakwood.engine.agent import PlayerView  # noqa: E402
from oakwood.games.barrell.actions import PLAY, Action  # noqa: E402
from oakwood.games.barrell.cards import IS_FACE, IS_JOKER, NAMES  # noqa: E402
from oakwood.games.barrell.heuristic import BarrellHeuristic  # noqa: E402

MODULE = "src/oakwood/games/barrell/heuristic.py"
#: The last commit whose heuristic ignored the Queens, the K♥, the K♦, the J♦ and the Jokers.
BASELINE = "f22433c"

_baseline_class: Any = None  # set in each worker by _load_baseline


def baseline_source(revision: str) -> str:
    """The heuristic module's text at ``revision``, its relative imports made absolute."""
    text = subprocess.run(
        ["git", "show", f"{revision}:{MODULE}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return text.replace("from .", "from oakwood.games.barrell.")


def _load_baseline(source: str) -> None:
    """Build the baseline bot's class from its source (a pool initialiser: each worker builds its own)."""
    global _baseline_class
    module = types.ModuleType("barrell_heuristic_baseline")
    module.__dict__["__name__"] = module.__name__
    sys.modules[module.__name__] = module
    exec(compile(source, f"<baseline {MODULE}>", "exec"), module.__dict__)
    _baseline_class = module.BarrellHeuristic


def _deal(task: tuple[int, int, dict[str, Any]]) -> float:
    """The current bot's mean win share over the ``players`` seatings of one deal."""
    players, seed, options = task
    game = oakwood.load("barrell", **options)
    share = 0.0
    for hero in range(players):
        agents = [
            BarrellHeuristic(seed=seed * 8 + s) if s == hero else _baseline_class(seed=seed * 8 + s)
            for s in range(players)
        ]
        share += play_match(game, agents, seed, record_events=False).returns[hero]
    return share / players


def _interval(shares: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(shares)
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else float("nan")
    return mean, mean - half, mean + half


def run_sprt(args: argparse.Namespace) -> None:
    source = baseline_source(args.baseline)
    with Pool(args.workers, initializer=_load_baseline, initargs=(source,)) as pool:
        for players in args.players:
            fair = 1 / players
            # No verdict before 30 deals: the variance of a deal's share must settle first.
            weaker = Sprt(fair - args.delta, fair, args.alpha, args.beta, minimum=30)
            stronger = Sprt(fair, fair + args.delta, args.alpha, args.beta, minimum=30)
            shares: list[float] = []
            started = time.perf_counter()
            verdict = None
            decided_at = 0
            seed = args.seed
            while (verdict is None or len(shares) < args.min_deals) and len(shares) < args.max_deals:
                # A batch at a time, so the test stops soon after it decides (a batch is a few seconds of play).
                batch: list[tuple[int, int, dict[str, Any]]]
                batch = [(players, s, {}) for s in range(seed, seed + args.batch)]
                seed += args.batch
                for share in pool.map(_deal, batch, chunksize=4):
                    shares.append(share)
                    weaker.add(share)
                    stronger.add(share)
                if verdict is None:
                    verdict = weaker.verdict()  # the first crossing decides; later deals only narrow the interval
                    decided_at = len(shares)
            mean, low, high = _interval(shares)
            accepted = {H1: "not weaker", H0: "WEAKER", None: "undecided"}[verdict]
            better = {H1: "stronger", H0: "not stronger", None: "undecided"}[stronger.verdict()]
            print(
                f"{players} players: current vs {args.baseline}: win share {mean:.4f} [{low:.4f}, {high:.4f}] "
                f"over {len(shares)} deals ({len(shares) * players} games; fair {fair:.3f}); "
                f"SPRT (delta {args.delta}): {accepted} after {decided_at} deals (LLR now {weaker.llr:.2f}, "
                f"bounds {weaker.lower:.2f} / {weaker.upper:.2f}); "
                f"stronger-by-delta test: {better} (LLR {stronger.llr:.2f}); "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )


class _Counting:
    """A bot, counting the cards it plays."""

    name = "counting"

    def __init__(self, bot: Any, counts: Counter[int], seen: set[int]) -> None:
        self.bot = bot
        self.counts = counts
        self.seen = seen

    def act(self, view: PlayerView) -> Hashable:
        """The bot's action, counted when it plays a card."""
        action: Hashable = self.bot.act(view)
        if isinstance(action, Action) and action.verb == PLAY:
            self.counts[action.card] += 1
            self.seen.add(action.card)
        return action


def run_counts(args: argparse.Namespace) -> None:
    if args.bot == "baseline":
        _load_baseline(baseline_source(args.baseline))
    bot_class = _baseline_class if args.bot == "baseline" else BarrellHeuristic
    game = oakwood.load("barrell")
    for players in args.players:
        plays: Counter[int] = Counter()
        games_with: Counter[int] = Counter()
        for seed in range(args.seed, args.seed + args.games):
            seen: set[int] = set()
            agents = [_Counting(bot_class(seed=seed * 8 + s), plays, seen) for s in range(players)]
            play_match(game, agents, seed, record_events=False)
            games_with.update(seen)
        print(f"{players} players, {args.games} games, the {args.bot} bot at every seat: per 1,000 games")
        print("card  games played in  plays")
        for card in range(len(NAMES)):
            if IS_FACE[card] or IS_JOKER[card]:
                per = 1000 / args.games
                print(f"{NAMES[card]:4}  {games_with[card] * per:15.0f}  {plays[card] * per:5.0f}")


def _views(game: Game[Any], games: int, seed: int) -> list[PlayerView]:
    """Every decision's view in ``games`` three-player games played by the current bot (a simultaneous
    decision is answered by its first seat first)."""
    views: list[PlayerView] = []
    for index in range(games):
        state = game.new_state(3, seed + index)
        bots = [BarrellHeuristic(seed=s) for s in range(3)]
        while not state.is_terminal():
            seat = state.to_act()[0]
            view = PlayerView.of(state, seat)
            views.append(view)
            state.apply(seat, bots[seat].act(view))
    return views


def run_timing(args: argparse.Namespace) -> None:
    _load_baseline(baseline_source(args.baseline))
    game = oakwood.load("barrell")
    views = _views(game, args.games, args.seed)
    bots = {"baseline": _baseline_class(seed=0), "current": BarrellHeuristic(seed=0)}
    passes: dict[str, list[float]] = {label: [] for label in bots}
    for _ in range(args.passes):  # interleaved, so a busy spell of the machine slows both alike
        for label, bot in bots.items():
            started = time.perf_counter()
            for view in views:
                bot.act(view)
            passes[label].append((time.perf_counter() - started) / len(views) * 1e6)
    for label, times in passes.items():
        print(f"{label:8}: {min(times):6.1f} us a decision (min of {args.passes} passes over {len(views)} decisions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("sprt", "counts", "timing"))
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--baseline", default=BASELINE, help=f"git revision of the other bot (default {BASELINE})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--delta", type=float, default=0.02, help="the win share difference the SPRT resolves")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-deals", type=int, default=20000)
    parser.add_argument("--min-deals", type=int, default=0, help="deals to play even after the SPRT decided")
    parser.add_argument("--batch", type=int, default=64, help="deals played between two looks of the SPRT")
    parser.add_argument("--games", type=int, default=1000, help="games for counts and timing")
    parser.add_argument("--bot", choices=("current", "baseline"), default="current", help="the bot counted")
    parser.add_argument("--passes", type=int, default=9, help="timing passes over the decisions (the minimum counts)")
    args = parser.parse_args()
    if any(not 2 <= p <= 4 for p in args.players):
        parser.error("Barrell takes 2 to 4 players")
    if not 0 < args.delta < 0.5 or not 0 < args.alpha < 0.5 or not 0 < args.beta < 0.5:
        parser.error("--delta, --alpha and --beta must lie between 0 and 0.5")
    {"sprt": run_sprt, "counts": run_counts, "timing": run_timing}[args.command](args)


if __name__ == "__main__":
    main()
