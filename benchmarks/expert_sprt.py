"""Is a variant of ``expert`` stronger than ``expert``? Self-play on duplicate deals, decided by an SPRT.

A variant is ``expert`` with some of its ISMCTS settings changed (``--variant KEY=VALUE``, any keyword of
``ISMCTSAgent``: ``confirm=20``, ``guide_z=3``, ``iterations=4000`` …). Each deal is played once with the variant at
every seat and ``expert`` at the others (``strength.py``'s cases and options), each deal's games averaged first;
the variant's per-deal win share feeds the GSPRT of ``oakwood.arena.sprt`` after every batch, and the run stops
when the test accepts a hypothesis or after ``--max-deals`` deals ("undecided"). Budgets are iterations, so a
run gives the same deals and moves on any machine and at any load (fair on a shared VM); the seconds a move of
both bots are printed too (a ratio, since the VM's speed drifts). ``--base KEY=VALUE`` changes both bots (the
test plays tiny budgets this way). ``--value-net WEIGHTS`` gives the variant a learned leaf evaluation, the
network ``value_net.py train`` wrote, in place of the game's ``estimate_returns``.

    python benchmarks/expert_sprt.py squarrels-2 --variant confirm=20 --h0 0.5 --h1 0.58
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Hashable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
import checkout  # noqa: E402, F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)
from strength import CASES, parse_settings  # noqa: E402

from oakwood.agents import make_agent  # noqa: E402
from oakwood.arena.match import play_match  # noqa: E402
from oakwood.arena.sprt import Sprt  # noqa: E402
from oakwood.engine import load  # noqa: E402
from oakwood.engine.agent import Choice, PlayerView  # noqa: E402


class Timed:
    """A bot wrapper that adds up the seconds its searched moves take (its one-move answers are not counted)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "bot")
        self.searches = getattr(bot, "searches", False)
        self.reads_observation = getattr(bot, "reads_observation", True)
        self.seconds = 0.0
        self.moves = 0

    def act(self, view: PlayerView) -> Hashable | Choice:
        """The wrapped bot's answer, timed."""
        started = time.perf_counter()
        result = self.bot.act(view)
        if len(view.legal_actions) > 1:
            self.seconds += time.perf_counter() - started
            self.moves += 1
        return result  # type: ignore[no-any-return]


def value_net_evaluator(game: Any, players: int, weights: str) -> Any:
    """The leaf evaluation of ``value_net.py``'s network in ``weights`` (a file it wrote) for ``game``."""
    from value_net import NetEvaluator, ValueNet

    return NetEvaluator(game, players, ValueNet.read(weights))


def play_deal(job: tuple[str, int, dict[str, Any], dict[str, Any], str | None]) -> tuple[float, float, int, float, int]:
    """One duplicate deal: the variant at each seat in turn, ``expert`` at the others, both with the ``base``
    settings first, the variant's leaves scored by the network in ``weights`` if given. (The variant's mean
    return, its seconds and searched moves, the experts' seconds and searched moves.)"""
    case, deal, variant, base, weights = job
    name, players, options, _ = CASES[case]
    game = load(name, **options)
    if weights is not None:
        variant = {**variant, "evaluate": value_net_evaluator(game, players, weights)}
    share, mine, theirs = 0.0, [0.0, 0], [0.0, 0]
    for seat in range(players):
        bots = []
        for other in range(players):
            seed = deal * 16 + seat * 4 + other  # a seed of its own for every bot of every game
            bot = make_agent(game, "expert", seed=seed, **{**base, **(variant if other == seat else {})})
            bots.append(Timed(bot))
        result = play_match(game, bots, seed=deal, record_events=False)
        share += result.returns[seat] / players
        for other, bot in enumerate(bots):
            tally = mine if other == seat else theirs
            tally[0] += bot.seconds
            tally[1] += bot.moves
    return share, mine[0], int(mine[1]), theirs[0], int(theirs[1])


def per_move(totals: list[float]) -> str:
    """The mean seconds of a searched move of either bot so far (a ratio, on a VM whose speed drifts)."""
    variant, expert = (1000 * totals[i] / max(totals[i + 1], 1) for i in (0, 2))
    return f"a searched move: variant {variant:.0f} ms, expert {expert:.0f} ms"


def main() -> None:
    """Run the test and print its progress after every batch, then a summary line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument(
        "--base", action="append", default=[], metavar="KEY=VALUE", help="settings of both bots (the variant on top)"
    )
    parser.add_argument("--value-net", metavar="WEIGHTS", help="the variant's leaf evaluation: value_net.py's network")
    parser.add_argument("--h0", type=float, default=0.5)
    parser.add_argument("--h1", type=float, default=0.58)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-deals", type=int, default=400)
    parser.add_argument("--batch", type=int, default=2, help="deals between two looks of the test")
    parser.add_argument("--seed", type=int, default=1, help="the first deal")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    try:
        variant, base = parse_settings(args.variant), parse_settings(args.base)
    except ValueError as error:
        parser.error(str(error))
    if not variant and args.value_net is None:
        parser.error("a variant needs --variant KEY=VALUE or --value-net WEIGHTS")
    if args.value_net is not None:
        args.variant.append(f"value_net={Path(args.value_net).name}")
    sprt = Sprt(args.h0, args.h1, args.alpha, args.beta)
    started = time.perf_counter()
    deals = 0
    totals: list[float] = [0.0, 0, 0.0, 0]
    label = f"{args.case} expert({', '.join(args.variant)}) vs expert({', '.join(args.base)})"
    with ProcessPoolExecutor(args.workers) as pool:
        while deals < args.max_deals and sprt.verdict() is None:
            upto = min(deals + args.batch, args.max_deals)
            jobs = [(args.case, args.seed + d, variant, base, args.value_net) for d in range(deals, upto)]
            for share, ms, mn, ts, tn in pool.map(play_deal, jobs):
                sprt.add(share)
                totals[0] += ms
                totals[1] += mn
                totals[2] += ts
                totals[3] += tn
            deals = upto
            print(
                f"  {label}: {sprt.describe()}, {deals} deals, {time.perf_counter() - started:.0f} s, "
                f"{per_move(totals)}",
                flush=True,
            )
    print(
        f"{label}, H0 {args.h0} / H1 {args.h1}, alpha {args.alpha}, beta {args.beta}: "
        f"{sprt.verdict() or 'undecided'} after {deals} deals, mean share {sprt.mean:.3f}, LLR {sprt.llr:.2f} "
        f"[{sprt.lower:.2f}, {sprt.upper:.2f}], {time.perf_counter() - started:.0f} s, {per_move(totals)}"
    )


if __name__ == "__main__":
    main()
