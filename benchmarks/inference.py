"""Inference (issue 37): how much closer worlds weighted by the opponents' moves are to the truth, and whether the
expert plays better with them.

``measure``: seeded two-player games of ``medium`` against ``medium``. At every decision of either seat, a filter
(``oakwood.agents.inference.Belief``, fed only that seat's views and its own moves, exactly as the bot would be)
gives weighted worlds; ``determinize`` of the truth gives as many uniform worlds. For each true card of the
opponent's hand that the seat does not know to be there (a card in that hand in every uniform world is known and
left out), the probability the worlds give it of being in that hand (the weighted share of worlds that put it
there; a card kind held several times counts each copy: "at least k of them"). Reported per game: the mean
log-likelihood of those cards (probabilities floored at half a world, ``0.5 / particles``, for both), and the
mean probability itself (the expected share of the hidden hand a world places right), weighted and uniform, with
the paired difference's 95 % interval over games. The opponent model is the heuristic with ``--noise``; the
opponent really is the heuristic, so noise measures a model that is sure (small) or unsure (large) of it.

``sprt``: ``expert`` with inference against ``expert`` without, at the expert's own iteration budget (no seconds:
deterministic and fair on a shared machine), on duplicate deals (each deal twice, the bot under test at either
seat), decided by the GSPRT of ``oakwood.arena.sprt`` on the per-deal win share (``--h0``, ``--h1``,
``--alpha``, ``--beta``), stopping when decided or at ``--max-deals``. It also reports the time per move of each.

    python benchmarks/inference.py measure barrell --games 40 --noise 0.1
    python benchmarks/inference.py sprt barrell --h0 0.5 --h1 0.6 --max-deals 200 --workers 2
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter
from collections.abc import Hashable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import checkout  # noqa: F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)

from oakwood.agents import make_agent
from oakwood.agents.inference import Belief, InferenceAgent, NoisyBot
from oakwood.arena.match import play_match
from oakwood.arena.sprt import Sprt
from oakwood.engine import Choice, Game, PlayerView, Rng, State, load

#: The games measured, two players each, with the options the strength cases use.
OPTIONS: dict[str, dict[str, Any]] = {"barrell": {}, "squarrels": {"single_round": True}, "nutty": {}}


def hand_of(world: State, seat: int) -> Counter[str]:
    """The cards of ``seat``'s hand in ``world`` (its own observation's ``hand``), as a multiset."""
    return Counter(str(card) for card in world.observe(seat).get("hand", []))


def probabilities(worlds: list[State], weights: list[float], opponent: int) -> dict[tuple[str, int], float]:
    """For each (card, k): the weighted share of ``worlds`` whose ``opponent`` hand holds at least k of it."""
    out: dict[tuple[str, int], float] = {}
    for world, weight in zip(worlds, weights, strict=True):
        for card, count in hand_of(world, opponent).items():
            for k in range(1, count + 1):
                out[card, k] = out.get((card, k), 0.0) + weight
    return out


def score(
    truth: State, seat: int, weighted: dict[tuple[str, int], float], uniform: dict[tuple[str, int], float], floor: float
) -> list[tuple[float, float, float, float]]:
    """Per hidden true card of the opponent's hand: (log p weighted, log p uniform, p weighted, p uniform)."""
    out = []
    for opponent in range(truth.num_players):
        if opponent == seat:
            continue
        for card, count in hand_of(truth, opponent).items():
            for k in range(1, count + 1):
                pu = uniform.get((card, k), 0.0)
                if pu >= 1.0 - 1e-9:
                    continue  # in that hand in every world: the seat knows it
                pw = weighted.get((card, k), 0.0)
                out.append((math.log(max(pw, floor)), math.log(max(pu, floor)), pw, pu))
    return out


def measure_game(name: str, seed: int, noise: float, particles: int, branch_nodes: int) -> dict[str, Any]:
    """One game of medium against medium with a filter at each seat: the per-card figures of every decision."""
    game = load(name, **OPTIONS[name])
    state = game.new_state(2, seed)
    bots = [make_agent(game, "medium", seed=seed * 10 + s) for s in range(2)]
    beliefs = [
        Belief(
            NoisyBot(model_maker(game), noise, seed=seed * 10 + 5 + s),
            particles=particles,
            seed=seed * 10 + 7 + s,
            branch_nodes=branch_nodes,
        )
        for s in range(2)
    ]
    world_rng = Rng(seed ^ 0x3A7D)
    uniform_rng = Rng(seed ^ 0x51)
    rows: list[tuple[float, float, float, float]] = []
    spent = 0.0
    updates = 0
    while not state.is_terminal():
        seat = state.to_act()[0]
        view = PlayerView.of(state, seat, world_rng=world_rng)
        belief = beliefs[seat]
        started = time.perf_counter()
        belief.update(view)
        spent += time.perf_counter() - started
        updates += 1
        if belief.stats.updates > 1:  # the first decision's worlds are uniform by construction
            worlds = [p.world for p in belief.pool]
            weighted = probabilities(worlds, belief.weights(), 1 - seat)
            uniform_worlds = [state.determinize(seat, uniform_rng) for _ in range(particles)]
            uniform = probabilities(uniform_worlds, [1.0 / particles] * particles, 1 - seat)
            rows.extend(score(state, seat, weighted, uniform, 0.5 / particles))
        chosen = bots[seat].act(view)
        action = chosen.action if isinstance(chosen, Choice) else chosen
        belief.acted(action)
        state.apply(seat, action)
    return {"rows": rows, "ms_per_update": 1000 * spent / max(updates, 1)}


def model_maker(game: Game[Any]) -> Any:
    """The opponent model's bot: the game's heuristic (``medium``) with a seed."""
    return lambda seed: make_agent(game, "medium", seed=seed)


def cmd_measure(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    jobs = [(args.game, args.seed + i, args.noise, args.particles, args.branch_nodes) for i in range(args.games)]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(_measure_job, jobs))
    per_game = [r["rows"] for r in results if r["rows"]]
    cards = sum(len(rows) for rows in per_game)
    columns = list(zip(*[row for rows in per_game for row in rows], strict=True))
    log_w, log_u, p_w, p_u = (statistics.fmean(c) for c in columns)
    gains = [statistics.fmean(r[0] - r[1] for r in rows) for rows in per_game]
    spread = statistics.stdev(gains) / math.sqrt(len(gains)) * 1.96 if len(gains) > 1 else float("nan")
    p_gains = [statistics.fmean(r[2] - r[3] for r in rows) for rows in per_game]
    p_spread = statistics.stdev(p_gains) / math.sqrt(len(p_gains)) * 1.96 if len(p_gains) > 1 else float("nan")
    cost = statistics.fmean(r["ms_per_update"] for r in results)
    print(
        f"{args.game} 2p, {len(per_game)} games, {cards} hidden hand cards scored, noise {args.noise}, "
        f"{args.particles} particles, branch {args.branch_nodes}:\n"
        f"  log-likelihood per card: weighted {log_w:.3f}, uniform {log_u:.3f}, gain {log_w - log_u:+.3f} "
        f"± {spread:.3f} (95 % over games)\n"
        f"  probability per card:    weighted {p_w:.3f}, uniform {p_u:.3f}, gain {p_w - p_u:+.3f} ± {p_spread:.3f}\n"
        f"  filter cost {cost:.0f} ms a decision (mean); {time.perf_counter() - started:.0f} s in all"
    )


def _measure_job(job: tuple[str, int, float, int, int]) -> dict[str, Any]:
    return measure_game(*job)


# ---------------------------------------------------------------------------------------------------- strength
def inference_expert(game: Game[Any], seed: int, noise: float, particles: int, branch_nodes: int) -> InferenceAgent:
    """``expert`` (ISMCTS at its own iteration budget) searching worlds weighted by a heuristic model."""
    inner = make_agent(game, "expert", seed=seed)
    model = NoisyBot(model_maker(game), noise, seed=seed + 1)
    return InferenceAgent(inner, model, particles=particles, seed=seed + 2, branch_nodes=branch_nodes)


class Timed:
    """A bot wrapper that adds up the seconds its moves take."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "bot")
        self.searches = getattr(bot, "searches", False)
        self.reads_observation = getattr(bot, "reads_observation", True)
        self.seconds = 0.0
        self.moves = 0

    def act(self, view: PlayerView) -> Hashable | Choice:
        started = time.perf_counter()
        result = self.bot.act(view)
        self.seconds += time.perf_counter() - started
        self.moves += 1
        return result  # type: ignore[no-any-return]


def duel_deal(job: tuple[str, int, float, int, int]) -> tuple[float, float, int, float, int]:
    """One duplicate deal: the inference expert at seat 0, then at seat 1. (its mean return, its seconds, its
    moves, the plain expert's seconds and moves)."""
    name, deal, noise, particles, branch_nodes = job
    game = load(name, **OPTIONS[name])
    share = 0.0
    mine = [0.0, 0]
    theirs = [0.0, 0]
    for seat in range(2):
        test = Timed(inference_expert(game, deal * 4 + seat, noise, particles, branch_nodes))
        other = Timed(make_agent(game, "expert", seed=deal * 4 + 2 + seat))
        agents = [test, other] if seat == 0 else [other, test]
        result = play_match(game, agents, seed=deal, record_events=False)
        share += result.returns[seat] / 2
        mine[0] += test.seconds
        mine[1] += test.moves
        theirs[0] += other.seconds
        theirs[1] += other.moves
    return share, mine[0], int(mine[1]), theirs[0], int(theirs[1])


def cmd_sprt(args: argparse.Namespace) -> None:
    sprt = Sprt(args.h0, args.h1, args.alpha, args.beta)
    started = time.perf_counter()
    deals = 0
    totals = [0.0, 0, 0.0, 0]
    with ProcessPoolExecutor(args.workers) as pool:
        while deals < args.max_deals and sprt.verdict() is None:
            upto = min(deals + args.batch, args.max_deals)
            jobs = [
                (args.game, args.seed + d, args.noise, args.particles, args.branch_nodes) for d in range(deals, upto)
            ]
            for share, ms, mn, ts, tn in pool.map(duel_deal, jobs):
                sprt.add(share)
                totals[0] += ms
                totals[1] += mn
                totals[2] += ts
                totals[3] += tn
            deals = upto
            print(
                f"  {args.game} expert+inference vs expert: {sprt.describe()}, {deals} deals, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    print(
        f"{args.game} 2p expert+inference (noise {args.noise}, {args.particles} particles) vs expert, H0 {args.h0} / "
        f"H1 {args.h1}, alpha {args.alpha}, beta {args.beta}: {sprt.verdict() or 'undecided'} after {deals} deals "
        f"({2 * deals} games), mean share {sprt.mean:.3f}, LLR {sprt.llr:.2f} [{sprt.lower:.2f}, {sprt.upper:.2f}], "
        f"{time.perf_counter() - started:.0f} s; time a move: with inference "
        f"{1000 * totals[0] / max(totals[1], 1):.0f} ms, without {1000 * totals[2] / max(totals[3], 1):.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for command in ("measure", "sprt"):
        p = sub.add_parser(command)
        p.add_argument("game", choices=sorted(OPTIONS))
        p.add_argument("--noise", type=float, default=0.1, help="the opponent model's noise (0 < noise <= 1)")
        p.add_argument("--particles", type=int, default=64)
        p.add_argument("--branch-nodes", type=int, default=24)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--workers", type=int, default=2)
        if command == "measure":
            p.add_argument("--games", type=int, default=20)
        else:
            p.add_argument("--h0", type=float, default=0.5)
            p.add_argument("--h1", type=float, default=0.6)
            p.add_argument("--alpha", type=float, default=0.05)
            p.add_argument("--beta", type=float, default=0.05)
            p.add_argument("--max-deals", type=int, default=200)
            p.add_argument("--batch", type=int, default=4)
    args = parser.parse_args()
    if not 0 < args.noise <= 1:
        parser.error(f"--noise is a probability above 0, not {args.noise}")
    if args.particles < 1:
        parser.error(f"--particles must be 1 or more, not {args.particles}")
    cmd_measure(args) if args.command == "measure" else cmd_sprt(args)


if __name__ == "__main__":
    main()
