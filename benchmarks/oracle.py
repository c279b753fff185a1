"""How much is knowing the hidden cards worth? A ceiling for inference (issue 37).

The expert's search draws its worlds uniformly from what its seat knows (or, with inference, weighted by what the
opponents did). The best any inference could do is to know the hidden cards. This script plays ``expert`` with
worlds that *are* the truth — every hand, pending play and face-down card as they really lie — except the order of
the Deck and the game's future dice, which are shuffled afresh in every world (nobody can infer those), against
``medium`` on the very deals and seats of ``strength.py``'s duplicate runs (the same seed gives the same games to
the plain expert, whose figure is stored). With ``--plain`` it plays the plain expert on the same deals too and
reports the paired gain.

If even this oracle falls short of a goal, no inference can reach it with the same search: the goal then needs a
better guide or evaluation, or a different measure. A benchmark only: the oracle reads the live state, which no
level may (``docs/ARCHITECTURE.md``, the trust boundary); it runs in this process, a trusted bot by definition.

    PYTHONPATH=build/compiled python benchmarks/oracle.py squarrels-2 --deals 200 --seed 9001 --workers 2 --plain

Games with a ``deck`` list (S'Quarrels, Barrell) are supported: a game keeping the Deck elsewhere is refused.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Hashable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from typing import Any

import checkout  # noqa: F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)
from strength import CASES, parse_settings

from oakwood.agents import make_agent
from oakwood.arena.match import play_match
from oakwood.arena.stats import Z95, derive_seed
from oakwood.engine import Rng, State, load
from oakwood.engine.agent import Choice, PlayerView


def unknowable_redrawn(truth: State, rng: Rng) -> State:
    """A world equal to ``truth`` but for the Deck's order and the generator of its future, drawn from ``rng``."""
    world = truth.clone()
    deck = getattr(world, "deck", None)
    if not isinstance(deck, list):
        raise TypeError(f"{type(truth).__name__} keeps no deck list: the oracle cannot hide its future")
    rng.shuffle(deck)
    world.rng = Rng(rng.next_u64())
    world.record_events = False
    return world


@dataclass(frozen=True, slots=True)
class OracleView(PlayerView):
    """A view whose worlds are the truth with the unknowable redrawn (see the module docstring)."""

    _truth: State | None = field(default=None, repr=False, compare=False)

    def sample_states(self, n: int, rng: Any) -> Iterator[State]:
        """``n`` worlds: the truth, the Deck shuffled and the future redrawn in each."""
        assert self._truth is not None
        source = rng if isinstance(rng, Rng) else Rng.from_random(rng)
        for _ in range(n):
            yield unknowable_redrawn(self._truth, source)


class Oracle:
    """A searching bot handed the live state of its match (``truth``, which the match changes in place) instead of
    its seat's worlds."""

    searches = True  # asks for a world like the plain expert, so the match draws its world generator alike
    reads_observation = True

    def __init__(self, bot: Any, truth: State) -> None:
        self.bot = bot
        self.name = f"oracle {getattr(bot, 'name', 'bot')}"
        self.truth = truth

    def act(self, view: PlayerView) -> Hashable | Choice:
        """The wrapped bot's answer from worlds of the truth."""
        seeing = OracleView(**{f.name: getattr(view, f.name) for f in fields(PlayerView)}, _truth=self.truth)
        return self.bot.act(seeing)  # type: ignore[no-any-return]


def play_deal(job: tuple[str, int, int, bool, dict[str, Any]]) -> float:
    """Deal ``deal`` of ``strength.py``'s duplicate run seeded ``seed``: the expert (an oracle if ``sees``, with
    ``settings`` over its level's) at each seat in turn, ``medium`` at the others, seeded as ``arena/spec.py`` seeds
    them. The expert's mean return."""
    case, seed, deal, sees, settings = job
    name, players, options, _ = CASES[case]
    game = load(name, **options)
    game_seed = derive_seed(seed, deal)
    share = 0.0
    for index in range(deal * players, deal * players + players):
        expert_seat = index % players  # the rotation of SimulationSpec: entry 0 sits at seat index mod players
        state = game.new_state(players, game_seed)
        agents: list[Any] = []
        for seat in range(players):
            level = "expert" if seat == expert_seat else "medium"
            extra = settings if level == "expert" else {}
            bot = make_agent(game, level, seed=derive_seed(game_seed, seat + 1), **extra)
            agents.append(Oracle(bot, state) if sees and seat == expert_seat else bot)
        result = play_match(game, agents, game_seed, state=state, record_events=False)
        share += result.returns[expert_seat] / players
    return share


def summary(shares: list[float]) -> str:
    """The mean of per-deal shares with its normal 95 % interval over deals."""
    mean = statistics.fmean(shares)
    half = Z95 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else math.inf
    return f"{mean:.3f} [{mean - half:.3f}, {mean + half:.3f}]"


def main() -> None:
    """Play the deals and print the oracle's share (and the plain expert's, paired) as they finish."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", choices=sorted(c for c in CASES if CASES[c][1] > 1))
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=9001, help="strength.py's seed: the same deals")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--plain", action="store_true", help="play the plain expert on the same deals too")
    parser.add_argument("--base", action="append", default=[], metavar="KEY=VALUE", help="the expert's settings")
    args = parser.parse_args()
    try:
        settings = parse_settings(args.base)
    except ValueError as error:
        parser.error(str(error))
    started = time.perf_counter()
    kinds = [True, False] if args.plain else [True]
    shares: dict[bool, list[float]] = {kind: [] for kind in kinds}
    jobs = [(args.case, args.seed, deal, kind, settings) for deal in range(args.deals) for kind in kinds]
    with ProcessPoolExecutor(args.workers) as pool:
        for (_, _, deal, kind, _), share in zip(jobs, pool.map(play_deal, jobs), strict=True):
            shares[kind].append(share)
            if not kind or not args.plain:
                line = f"  {deal + 1} deals, {time.perf_counter() - started:.0f} s: oracle {summary(shares[True])}"
                if args.plain:
                    gains = [a - b for a, b in zip(shares[True], shares[False], strict=False)]
                    line += f", plain {summary(shares[False])}, oracle's gain {summary(gains)}"
                if (deal + 1) % 10 == 0 or deal + 1 == args.deals:
                    print(line, flush=True)
    players = CASES[args.case][1]
    print(
        f"{args.case}, seed {args.seed}, {args.deals} deals ({args.deals * players} games a bot), "
        f"{time.perf_counter() - started:.0f} s: oracle expert vs medium {summary(shares[True])}"
        + (f"; plain expert {summary(shares[False])}" if args.plain else "")
    )


if __name__ == "__main__":
    main()
