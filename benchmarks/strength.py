"""How strong each difficulty level is, per game: seat-rotated two-player matches and the time per move.

For each game it plays, with seats rotating every game so neither side is favoured by position,

- ``medium`` against ``easy``, ``hard`` against ``medium`` and ``expert`` against ``medium`` (win share of the
  first-named level with its 95 % Wilson interval, ties as half wins), on local worker processes;
- one game of ``expert`` against ``medium`` in this process, timing every ISMCTS search: the median seconds per
  decision of ``hard`` (the same searches, cut at its budget, are not replayed: its time is the expert's time
  scaled by the ratio of budgets) and ``expert``, and the iterations per second.

``--write`` stores the figures in ``src/oakwood/agents/strength.json``, which ``oakwood games`` shows.

    python benchmarks/strength.py                          # every game, the default number of matches
    python benchmarks/strength.py --games barrell --matches 60 --write
"""

from __future__ import annotations

import argparse
import datetime
import json
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
from oakwood.arena.match import play_match  # noqa: E402
from oakwood.arena.simulate import simulate  # noqa: E402
from oakwood.arena.spec import SimulationSpec  # noqa: E402
from oakwood.arena.stats import summarize  # noqa: E402
from oakwood.engine import load  # noqa: E402

STRENGTH_FILE = HERE.parent / "src" / "oakwood" / "agents" / "strength.json"

#: game → (options the matches use, why)
SETTINGS: dict[str, tuple[dict[str, Any], str]] = {
    # A full S'Quarrels match is several rounds of about a hundred moves; one round keeps the runs affordable.
    "squarrels": ({"single_round": True}, "2 players, one round"),
    "barrell": ({}, "2 players, best of three battles"),
    "nutty": ({}, "2 players"),
}

#: (level, opponent) pairs, in the order they are played.
PAIRS = (("medium", "easy"), ("hard", "medium"), ("expert", "medium"))


def commit() -> str:
    """The measured code's commit (``unknown`` outside a git checkout)."""
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE)
    except OSError:
        return "unknown"
    return done.stdout.strip() or "unknown"


def win_share(game: str, level: str, opponent: str, matches: int, workers: int, seed: int) -> dict[str, Any]:
    """``level`` against ``opponent``: seat-rotated matches, the level's share of the wins."""
    options, _ = SETTINGS[game]
    spec = SimulationSpec(game, (level, opponent), games=matches, seed=seed, rotate=True, options=options)
    records = simulate(spec, workers=workers)
    mine = summarize(records, (level, opponent))[0]
    return {
        "opponent": opponent,
        "games": mine.games,
        "win_share": round(mine.win_rate, 3),
        "ci95": [round(mine.ci_low, 3), round(mine.ci_high, 3)],
    }


def search_times(game_name: str, seed: int) -> dict[str, float]:
    """Seconds per decision of ``hard`` and ``expert`` and iterations per second, from one timed game."""
    options, _ = SETTINGS[game_name]
    game = load(game_name, **options)
    expert = make_agent(game, "expert", seed=seed)
    assert isinstance(expert, ISMCTSAgent)
    searches: list[tuple[int, float]] = []
    original = expert.search

    def timed_search(view: Any) -> Any:
        report = original(view)
        searches.append((report.iterations, report.seconds))
        return report

    expert.search = timed_search  # type: ignore[method-assign]
    play_match(game, [expert, make_agent(game, "medium", seed=seed + 1)], seed, record_events=False)
    hard, full = game.level_iterations
    per_second = statistics.median(iterations / seconds for iterations, seconds in searches)
    expert_seconds = statistics.median(seconds for _, seconds in searches)
    return {
        "searches": len(searches),
        "iterations_per_second": round(per_second),
        "expert_seconds_per_move": round(expert_seconds, 3),
        "hard_seconds_per_move": round(expert_seconds * hard / full, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--matches", type=int, default=40, help="matches of hard and expert (default 40)")
    parser.add_argument("--baseline-matches", type=int, default=200, help="matches of medium vs easy (default 200)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="store the figures in the package's strength.json")
    args = parser.parse_args()
    stored: dict[str, Any] = json.loads(STRENGTH_FILE.read_text()) if STRENGTH_FILE.exists() else {}
    for name in args.games:
        game = load(name)
        started = time.perf_counter()
        figures: dict[str, Any] = {
            "settings": SETTINGS[name][1],
            "iterations": {"hard": game.level_iterations[0], "expert": game.level_iterations[1]},
            "measured": datetime.date.today().isoformat(),
            "commit": commit(),
            "levels": {},
        }
        for level, opponent in PAIRS:
            matches = args.baseline_matches if level == "medium" else args.matches
            result = win_share(name, level, opponent, matches, args.workers, args.seed)
            figures["levels"][level] = result
            low, high = result["ci95"]
            print(
                f"{name:10} {level:>6} vs {opponent:6}: {result['win_share']:.2f} [{low:.2f}, {high:.2f}] "
                f"over {result['games']} games",
                flush=True,
            )
        figures["time"] = search_times(name, args.seed)
        print(f"{name:10} time: {figures['time']}  ({time.perf_counter() - started:.0f} s)", flush=True)
        stored[name] = figures
    if args.write:
        STRENGTH_FILE.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n")
        print(f"written to {STRENGTH_FILE}")


if __name__ == "__main__":
    main()
