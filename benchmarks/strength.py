"""How strong each difficulty level is: matches on duplicate deals per game and table size, and the time per move.

Each case is a game at a table size. At several seats it plays duplicate deals: every deal once with the level
under test at each seat, so no level is favoured by position and the luck of the cards cancels out,

- ``medium`` (the heuristic) against ``easy`` (random), and ``hard`` and ``expert`` against ``medium``: one
  seat of the level under test, the other seats its opponent; the level's share of the wins (ties as
  fractional wins) with its 95 % interval over deals (each deal's games averaged first, since they share the
  cards) against the equal share ``1 / players``;

and alone (a solo game) each level's win rate with its interval and mean score. Then it plays one game of
``expert`` (alone, or against ``medium``) in this process, timing every search: the median seconds per move of
``expert``, that of ``hard`` (scaled by the ratio of budgets) and the iterations per second.

``--write`` stores the figures in ``src/oakwood/agents/strength.json`` (shown by ``oakwood games``);
``--table`` prints the stored figures as the Markdown table of ``benchmarks/README.md``. ``--seconds S`` caps
every search of ``hard`` and ``expert`` at ``S`` seconds as well as their iterations (whichever ends first):
the strength at a time a move on this machine, not the levels' own, so it cannot be written.

    python benchmarks/strength.py                                   # every case, the default number of games
    python benchmarks/strength.py --cases barrell-2 --matches 60 --write
    python benchmarks/strength.py --cases nutty-4 --levels expert --seconds 1      # expert at 1 s a move at most
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from oakwood.agents import make_agent  # noqa: E402
from oakwood.agents.ismcts import ISMCTSAgent  # noqa: E402
from oakwood.agents.levels import LEVELS  # noqa: E402
from oakwood.arena.match import play_match  # noqa: E402
from oakwood.arena.simulate import simulate  # noqa: E402
from oakwood.arena.spec import SimulationSpec  # noqa: E402
from oakwood.arena.stats import Z95, deal_summary, wilson_interval  # noqa: E402
from oakwood.engine import load  # noqa: E402

STRENGTH_FILE = HERE.parent / "src" / "oakwood" / "agents" / "strength.json"

#: case → (game, players, options, what the options mean)
CASES: dict[str, tuple[str, int, dict[str, Any], str]] = {
    # A full S'Quarrels match is several rounds of about a hundred moves; one round keeps two-player runs
    # affordable. At four players one round shows too little of the play to measure (the strategist, with no
    # search, is 0.276 [0.268, 0.284] against the heuristic over 2,000 duplicate deals): the match to 50,
    # where a better player's edge adds up round after round, shows it in a few hundred games.
    "squarrels-2": ("squarrels", 2, {"single_round": True}, "one round"),
    "squarrels-4": ("squarrels", 4, {}, "a match to 50"),
    "barrell-2": ("barrell", 2, {}, "best of three battles"),
    "barrell-4": ("barrell", 4, {}, "best of three battles"),
    "nutty-2": ("nutty", 2, {}, "the proposed deck"),
    "nutty-4": ("nutty", 4, {}, "the proposed deck"),
    "nutty-solo": ("nutty", 1, {}, "solo"),
}

#: (level, opponent) pairs, in the order they are played (the opponent fills every other seat).
PAIRS = (("medium", "easy"), ("hard", "medium"), ("expert", "medium"))


def commit() -> str:
    """The measured code's commit (``unknown`` outside a git checkout)."""
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE)
    except OSError:
        return "unknown"
    return done.stdout.strip() or "unknown"


def interval(share: float, low: float, high: float, games: int) -> dict[str, Any]:
    """A measured share as stored in the strength file."""
    return {"games": games, "win_share": round(share, 3), "ci95": [round(low, 3), round(high, 3)]}


def capped(level: str, seconds: float | None) -> dict[str, dict[str, float]]:
    """The spec's settings that cap ``level``'s searches at ``seconds`` (none without a cap)."""
    return {} if seconds is None or level not in ("hard", "expert") else {level: {"seconds": seconds}}


def against(
    case: str, level: str, opponent: str, games: int, workers: int, seed: int, seconds: float | None = None
) -> dict[str, Any]:
    """``level`` at one seat, ``opponent`` at the others, on duplicate deals: every deal played once with the
    level at each seat (``games`` rounded up to whole deals). The level's share of the wins, with its interval
    over deals (``deal_summary``). ``seconds`` caps the level's searches."""
    name, players, options, _ = CASES[case]
    lineup = (level,) + (opponent,) * (players - 1)
    deals = -(-games // players)
    spec = SimulationSpec(
        name,
        lineup,
        games=deals * players,
        seed=seed,
        rotate=True,
        duplicate=True,
        options=options,
        settings=capped(level, seconds),
    )
    mine = deal_summary(simulate(spec, workers=workers), 0)
    return {
        "opponent": opponent,
        **interval(mine.win_rate, mine.ci_low, mine.ci_high, mine.games),
        "deals": mine.deals,
    }


def alone(case: str, level: str, games: int, workers: int, seed: int, seconds: float | None = None) -> dict[str, Any]:
    """``level`` playing solo: its win rate and mean score; above ``medium``, also what it gains over
    ``medium`` on the same deals (``paired_gain``). ``seconds`` caps the level's searches."""
    name, _, options, _ = CASES[case]
    spec = SimulationSpec(name, (level,), games=games, seed=seed, options=options, settings=capped(level, seconds))
    records = simulate(spec, workers=workers)
    wins = sum(record.returns[0] for record in records)
    low, high = wilson_interval(wins, len(records))
    mean_score = statistics.fmean(record.scores[0] for record in records)
    result = {"opponent": None, **interval(wins / len(records), low, high, len(records)), "mean_score": mean_score}
    if level in ("hard", "expert"):
        # The same seeds deal the same games: medium plays them too (cheap), and the gains are paired by deal.
        medium = simulate(SimulationSpec(name, ("medium",), games=games, seed=seed, options=options), workers=workers)
        result["over_medium"] = {
            "score": paired_gain([r.scores[0] for r in records], [r.scores[0] for r in medium]),
            "wins": paired_gain([r.returns[0] for r in records], [r.returns[0] for r in medium]),
        }
    return result


def paired_gain(mine: list[float], theirs: list[float]) -> dict[str, Any]:
    """The mean of ``mine[i] - theirs[i]`` (two players of the same deals) with its 95 % normal interval."""
    gains = [a - b for a, b in zip(mine, theirs, strict=True)]
    mean = statistics.fmean(gains)
    half = Z95 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
    return {"mean": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)]}


def search_times(case: str, seed: int, seconds: float | None = None) -> dict[str, float]:
    """Seconds per move of ``hard`` and ``expert`` and iterations per second, from one timed game
    (``expert``'s searches capped at ``seconds``)."""
    name, players, options, _ = CASES[case]
    game = load(name, **options)
    expert = make_agent(game, "expert", seed=seed, **capped("expert", seconds).get("expert", {}))
    assert isinstance(expert, ISMCTSAgent)
    searches: list[tuple[int, float]] = []
    search = expert.search

    def timed_search(view: Any) -> Any:
        report = search(view)
        searches.append((report.iterations, report.seconds))
        return report

    expert.search = timed_search  # type: ignore[method-assign]
    others = [make_agent(game, "medium", seed=seed + seat) for seat in range(1, players)]
    play_match(game, [expert, *others], seed, record_events=False)
    assert game.level_iterations is not None
    hard, full = game.level_iterations
    expert_seconds = statistics.median(seconds for _, seconds in searches)
    return {
        "searches": len(searches),
        "iterations_per_second": round(statistics.median(n / seconds for n, seconds in searches)),
        "expert_seconds_per_move": round(expert_seconds, 3),
        "hard_seconds_per_move": round(expert_seconds * hard / full, 3),
    }


def measure(
    case: str,
    matches: int,
    baseline: int,
    workers: int,
    seed: int,
    only: tuple[str, ...] = LEVELS,
    seconds: float | None = None,
) -> dict[str, Any]:
    """Every level of one case (or those in ``only``), printed as it goes; ``seconds`` caps the searches."""
    name, players, _, meaning = CASES[case]
    game = load(name)
    figures: dict[str, Any] = {
        "game": name,
        "players": players,
        "settings": f"{players} player{'s' if players > 1 else ''}, {meaning}" if players > 1 else meaning,
        "iterations": dict(zip(("hard", "expert"), game.level_iterations or (), strict=False)),
        "measured": datetime.date.today().isoformat(),
        "commit": commit(),
        "levels": {},
    }
    levels = [("easy", None), *PAIRS] if players == 1 else list(PAIRS)
    if game.level_iterations is None:  # hard and expert are the heuristic: nothing more to measure
        levels = [(level, opponent) for level, opponent in levels if level in ("easy", "medium")]
    levels = [(level, opponent) for level, opponent in levels if level in only]
    for level, opponent in levels:
        games = baseline if level in ("easy", "medium") else matches
        started = time.perf_counter()
        if players == 1:
            result = alone(case, level, games, workers, seed, seconds)
        else:
            result = against(case, level, str(opponent), games, workers, seed, seconds)
        figures["levels"][level] = {**result, "commit": figures["commit"], "measured": figures["measured"]}
        low, high = result["ci95"]
        versus = f"vs {opponent:6}" if players > 1 else "solo     "
        print(
            f"{case:11} {level:>6} {versus}: {result['win_share']:.2f} [{low:.2f}, {high:.2f}] over "
            f"{result['games']} games (equal share {1 / players:.2f}){_score(result)} "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    searched = game.level_iterations is not None and ("hard" in only or "expert" in only)
    figures["time"] = search_times(case, seed, seconds) if searched else {}
    print(f"{case:11} time: {figures['time']}", flush=True)
    return figures


def merged(before: dict[str, Any] | None, now: dict[str, Any]) -> dict[str, Any]:
    """A case's new figures over its stored ones: levels not measured this time keep theirs (each level
    records the commit and date it was measured at), and the search times are replaced only if measured."""
    if before is None:
        return now
    stamp = {"commit": before.get("commit"), "measured": before.get("measured")}  # levels stored before stamps
    levels = {**{lv: {**stamp, **r} for lv, r in before.get("levels", {}).items()}, **now["levels"]}
    return {**before, **now, "levels": levels, "time": now["time"] or before.get("time", {})}


def _score(result: dict[str, Any]) -> str:
    """A solo level's mean score, and its gains over medium on the same deals where measured."""
    if "mean_score" not in result:
        return ""
    text = f", mean score {result['mean_score']:.1f}"
    gains = result.get("over_medium")
    if gains:
        score, wins = gains["score"], gains["wins"]
        text += (
            f" ({score['mean']:+.1f} [{score['ci95'][0]:+.1f}, {score['ci95'][1]:+.1f}] points and "
            f"{wins['mean']:+.0%} [{wins['ci95'][0]:+.0%}, {wins['ci95'][1]:+.0%}] wins over medium)"
        )
    return text


def markdown_table(stored: dict[str, Any]) -> str:
    """The stored figures as a Markdown table, one row per case and level."""
    rows = [
        "| case | level | against | games | win share [95 %] | equal share | s a move | iterations/s | commit |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for case, figures in stored.items():
        players, timing = figures["players"], figures.get("time", {})
        for level in [level for level in LEVELS if level in figures["levels"]]:
            result = figures["levels"][level]
            low, high = result["ci95"]
            seconds = timing.get(f"{level}_seconds_per_move")
            rows.append(
                f"| {case} | {level} | {result['opponent'] or 'solo'}{_score(result)} | {result['games']} "
                f"| {result['win_share']:.2f} [{low:.2f}, {high:.2f}] | {1 / players:.2f} "
                f"| {'' if seconds is None else f'{seconds:.2f}'} "
                f"| {timing.get('iterations_per_second', '') if seconds is not None else ''} "
                f"| {result.get('commit', figures['commit'])} |"
            )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    parser.add_argument("--matches", type=int, default=40, help="games of hard and expert (default 40)")
    parser.add_argument("--baseline-matches", type=int, default=200, help="games of easy and medium (default 200)")
    parser.add_argument("--levels", default=",".join(LEVELS), help="the levels to measure (default: all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="store the figures in the package's strength.json")
    parser.add_argument("--table", action="store_true", help="print the stored figures as Markdown and stop")
    parser.add_argument("--seconds", type=float, help="cap every search of hard and expert at this many seconds")
    args = parser.parse_args()
    if args.seconds is not None and not args.seconds > 0:
        parser.error(f"--seconds must be above 0, not {args.seconds}")
    if args.seconds is not None and args.write:
        parser.error("--seconds measures the levels under a time cap, not as they play: drop --write")
    if args.seconds is not None:
        print(f"every search of hard and expert capped at {args.seconds:g} s", flush=True)
    if args.table:
        print(markdown_table(json.loads(STRENGTH_FILE.read_text())))
        return
    for case in args.cases:
        only = tuple(level.strip() for level in args.levels.split(","))
        figures = measure(case, args.matches, args.baseline_matches, args.workers, args.seed, only, args.seconds)
        if args.write:  # after every case, so an interrupted run keeps what it measured
            stored: dict[str, Any] = json.loads(STRENGTH_FILE.read_text()) if STRENGTH_FILE.exists() else {}
            stored[case] = merged(stored.get(case), figures)
            STRENGTH_FILE.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n")
    if args.write:
        print(f"written to {STRENGTH_FILE}")


if __name__ == "__main__":
    main()
