"""What a bot simulation pays for its agents' views: this tree against another, counted by Valgrind.

The match runner hands every agent a ``PlayerView`` at every decision. Views are snapshots that hold no
reference to the live state (issue 8); this script measures what that costs a bulk simulation — the loop of
``oakwood simulate``: ``play_match`` with the event log off — as machine instructions per step under
``valgrind --tool=callgrind`` (warm-up only, then warm-up plus measured games; the difference over the measured
steps), for this source tree and for a baseline tree given with ``--baseline``, side by side. Instruction
counts are identical run to run, where this VM's wall clock drifts by a third.

    git worktree add /tmp/oakwood-base <commit>
    python benchmarks/view_cost.py --baseline /tmp/oakwood-base/src
    python benchmarks/view_cost.py --baseline /tmp/oakwood-base/src --games barrell --agents heuristic
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent / "src"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
#: game → (players, options)
CASES: dict[str, tuple[int, dict[str, Any]]] = {
    "squarrels": (4, {"single_round": True}),
    "barrell": (4, {}),
    "nutty": (4, {}),
}


def child(source: str, game_name: str, agent: str, warmup: int, measured: int) -> None:
    """Run inside Valgrind with ``source`` first on the path: play the games, print the measured steps."""
    sys.path.insert(0, source)
    import oakwood
    from oakwood.arena.match import play_match

    players, options = CASES[game_name]
    game = oakwood.load(game_name, **options)
    try:
        from oakwood.agents import make_agent
    except ImportError:  # a tree from before agents were built by oakwood.agents.make_agent
        make_agent = type(game).make_agent  # type: ignore[attr-defined]

    def play(games: int, first_seed: int) -> int:
        steps = 0
        for seed in range(first_seed, first_seed + games):
            agents = [make_agent(game, agent, seed=seed * 10 + s) for s in range(players)]
            steps += play_match(game, agents, seed, record_events=False).steps
        return steps

    play(warmup, 10_000)
    print(play(measured, 0) if measured else 0)


def count(source: str, game_name: str, agent: str, warmup: int, measured: int) -> tuple[int, int]:
    """(instructions, measured steps) of one child run under callgrind."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
        "--child", source, game_name, agent, str(warmup), str(measured),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": source}
    run = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    found = _COLLECTED.search(run.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no instruction count:\n{run.stderr[-2000:]}")
    return int(found.group(1)), int(run.stdout.strip().splitlines()[-1])


def per_step(source: str, game_name: str, agent: str, warmup: int, measured: int) -> tuple[float, int]:
    """Instructions per measured step, and the number of measured steps."""
    base, _ = count(source, game_name, agent, warmup, 0)
    total, steps = count(source, game_name, agent, warmup, measured)
    return (total - base) / steps, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=False, help="the src/ directory of the tree to compare with")
    parser.add_argument("--games", default="squarrels,barrell,nutty")
    parser.add_argument("--agents", default="random", help="the agent every seat plays (random, heuristic)")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--measured", type=int, default=30)
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        source, game_name, agent, warmup, measured = args.child
        child(source, game_name, agent, int(warmup), int(measured))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install -y valgrind)")
    print(f"instructions per simulation step under callgrind ({args.agents} agents, event log off)")
    for game_name in args.games.split(","):
        mine, steps = per_step(str(SOURCE), game_name, args.agents, args.warmup, args.measured)
        line = f"{game_name:10} this tree {mine:>9,.0f}"
        if args.baseline:
            theirs, _ = per_step(args.baseline, game_name, args.agents, args.warmup, args.measured)
            line += f"   baseline {theirs:>9,.0f}   change {100 * (mine / theirs - 1):+6.1f} %"
        print(f"{line}   ({steps:,} steps)", flush=True)


if __name__ == "__main__":
    main()
