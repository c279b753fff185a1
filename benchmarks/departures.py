"""How the expert's departures from its guide fare: every move its search preferred to the guide's, checked
on fresh worlds.

The expert (``ismcts.py``) plays its guide's move unless its search is sure of a better one, and where the
game asks for it (``Game.confirm_departures``) unless fresh worlds confirm that one. This plays games with the
expert at seat 0 (``medium`` at the others) and, at every decision where the search preferred another move,
plays both moves on ``--worlds`` worlds drawn from the expert's view, each continued by the guide at every
seat to the end of the game and paired (the same world after either move). It prints each such decision
(the search's margin, whether the move was played, the gain in wins and in score of the preferred move over
the guide's) and, for the departures played and those refused, the mean gains with their 95 % intervals.

    python benchmarks/departures.py --case nutty-solo --games 4 --seed 9100
    python benchmarks/departures.py --case squarrels-2 --games 6 --worlds 100 --seed 9300 --iterations 3000
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Hashable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
import checkout  # noqa: E402, F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)
from strength import CASES  # noqa: E402

from oakwood.agents import make_agent  # noqa: E402
from oakwood.agents.ismcts import ISMCTSAgent  # noqa: E402
from oakwood.arena.stats import Z95  # noqa: E402
from oakwood.engine import Game, Rng, State, load  # noqa: E402
from oakwood.engine.agent import Choice, PlayerView  # noqa: E402


def played_out(game: Game[Any], world: State, seat: int) -> tuple[float, float]:
    """``seat``'s return and score once the guide has played ``world`` to the end at every seat."""
    world.record_events = False
    guides = {s: make_agent(game, game.search_guide, seed=s) for s in range(world.num_players)}
    while not world.is_terminal():
        mover = world.to_act()[0]
        legal = world.legal_actions(mover)
        move = legal[0] if len(legal) == 1 else guides[mover].act(PlayerView.of(world, mover))
        world.apply(mover, move.action if isinstance(move, Choice) else move)
    return world.returns()[seat], world.scores()[seat]


def gains(
    game: Game[Any], view: PlayerView, move: Hashable, guide_move: Hashable, worlds: int, rng: Rng
) -> list[tuple[float, float]]:
    """On each of ``worlds`` fresh worlds, what ``move`` gains over ``guide_move`` in return and in score."""
    found = []
    for world in view.sample_states(worlds, rng):
        after = []
        for action in (move, guide_move):
            branch = world.clone()
            branch.apply(view.seat, action)
            after.append(played_out(game, branch, view.seat))
        found.append((after[0][0] - after[1][0], after[0][1] - after[1][1]))
    return found


def note_departures(expert: ISMCTSAgent) -> list[tuple[Hashable, Hashable, bool]]:
    """Make ``expert`` note each move its search prefers to the guide's: (preferred, guide's move, played)."""
    proposals: list[tuple[Hashable, Hashable, bool]] = []
    confirmed = expert._confirmed

    def noted(view: PlayerView, move: Hashable, guide_move: Hashable) -> bool:
        verdict = confirmed(view, move, guide_move)
        proposals.append((move, guide_move, verdict))
        return verdict

    try:
        expert._confirmed = noted  # type: ignore[method-assign]
    except AttributeError:  # a native class's methods cannot be replaced
        raise SystemExit(
            "departures.py notes the expert's departures by wrapping one of its methods, which the compiled build "
            "does not allow: run it on the pure sources (without PYTHONPATH=build/compiled)"
        ) from None
    return proposals


def mean_with_interval(values: list[float]) -> str:
    """``mean [low, high]`` (95 %, normal) of ``values``."""
    if not values:
        return "none"
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", default="nutty-solo", choices=sorted(CASES))
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--worlds", type=int, default=200, help="fresh worlds per departure")
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--iterations", type=int, help="the expert's budget (default: the level's)")
    args = parser.parse_args()
    name, players, options, _ = CASES[args.case]
    game = load(name, **options)
    verdicts: dict[bool, list[tuple[float, float]]] = {True: [], False: []}  # played: the mean gains
    print("game decision | guide's move -> preferred | margin | played | wins gained | score gained")
    for seed in range(args.seed, args.seed + args.games):
        state = game.new_state(players, seed)
        budget = {} if args.iterations is None else {"iterations": args.iterations}
        expert = make_agent(game, "expert", seed=seed, **budget)
        assert isinstance(expert, ISMCTSAgent)
        others = {s: make_agent(game, "medium", seed=seed + s) for s in range(1, players)}
        world_rng, check_rng = Rng(seed ^ 0x3A7D), Rng(seed * 7 + 1)
        proposals = note_departures(expert)
        decision = 0
        while not state.is_terminal():
            mover = state.to_act()[0]
            bot = expert if mover == 0 else others[mover]
            view = PlayerView.for_agent(state, mover, bot, world_rng)
            proposals.clear()
            chosen = bot.act(view)
            move = chosen.action if isinstance(chosen, Choice) else chosen
            for preferred, guide_move, verdict in proposals:
                root = expert.tree[(0, game.information_key(view.observation))]
                fresh = PlayerView.of(state, 0, world_rng=check_rng)
                found = gains(game, fresh, preferred, guide_move, args.worlds, check_rng)
                wins, score = (statistics.fmean(column) for column in zip(*found, strict=True))
                verdicts[verdict].append((wins, score))
                print(
                    f"{seed} {decision:4} | {guide_move} -> {preferred} | "
                    f"{root.margin(preferred, guide_move):.1f} | {'yes' if verdict else 'no'} | "
                    f"{wins:+.3f} | {score:+.2f}",
                    flush=True,
                )
            state.apply(mover, move)
            decision += 1
        print(f"{seed}: score {state.scores()[0]:g}, return {state.returns()[0]:g}, {decision} decisions", flush=True)
    for verdict, label in ((True, "played"), (False, "refused")):
        found = verdicts[verdict]
        print(
            f"{label}: {len(found)} departures, wins gained {mean_with_interval([w for w, _ in found])}, "
            f"score gained {mean_with_interval([s for _, s in found])}"
        )


if __name__ == "__main__":
    main()
