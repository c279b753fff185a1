"""Machine instructions per playout step, counted by Valgrind: the noise-free companion of engine_speed.py.

This VM's wall-clock speed drifts by ±30 % and more from minute to minute, so a 5 % change cannot be timed
reliably. The number of instructions a step executes does not drift: it is the same on every run, so two
versions of the code can be compared exactly. Each case runs the same loop as ``engine_speed.py`` under
``valgrind --tool=callgrind`` twice — warm-up games only, then warm-up plus measured games — and divides the
difference by the measured steps, so start-up, imports and the warm-up cancel out (a fixed hash seed keeps
dict probing identical between runs). The ``floor`` case runs the loop over a state whose methods do nothing:
what the loop itself costs per step.

    python benchmarks/instructions.py                          # S'Quarrels and the floor (about 2 minutes)
    python benchmarks/instructions.py --games squarrels,barrell --warmup 300 --measured 100
    python benchmarks/instructions.py --games nutty:1 --warmup 300 --measured 300   # Nutty Squirrels solo

Instructions are not time (the cost of an instruction varies), but at a fixed interpreter fewer
instructions per step has always meant a faster step here; see benchmarks/README.md.
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
FLOOR = "floor"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


class IdleState:
    """A state whose methods do nothing: 108 steps (a S'Quarrels round's length) of three legal actions."""

    def __init__(self) -> None:
        self.steps = 0
        self.legal = (1, 2, 3)

    def is_terminal(self) -> bool:
        return self.steps >= 108

    def to_act(self) -> tuple[int, ...]:
        return (0,)

    def legal_actions(self, seat: int) -> tuple[int, ...]:
        return self.legal

    def apply(self, seat: int, action: Any) -> None:
        self.steps += 1


class IdleGame:
    """Makes :class:`IdleState` objects, like ``Game.new_state``."""

    def new_state(self, players: int, seed: int) -> IdleState:
        return IdleState()


def child(case: str, warmup: int, measured: int) -> None:
    """Run inside Valgrind: warm up, then play ``measured`` games and print their step count."""
    sys.path.insert(0, str(HERE))
    from engine_speed import CASES, playouts

    if case == FLOOR:
        game: Any = IdleGame()
        players = 4
    else:
        name, _, seats = case.partition(":")  # "nutty:1": the game's case at that many players (else its first)
        _, name, players, options, _ = next(c for c in CASES if c[1] == name and (not seats or c[2] == int(seats)))
        import oakwood

        game = oakwood.load(name, **options)
    playouts(game, players, warmup, seed=999)
    steps = playouts(game, players, measured, seed=1)[0] if measured else 0
    print(steps)


def count(case: str, warmup: int, measured: int) -> tuple[int, int]:
    """(instructions, steps) of one child run under callgrind."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, __file__, "--child", case, str(warmup), str(measured),
    ]  # fmt: skip
    # A fixed hash seed: string hashes decide dict probing, which would otherwise vary the count a little.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    found = _COLLECTED.search(run.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no instruction count:\n{run.stderr[-2000:]}")
    return int(found.group(1)), int(run.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        default="squarrels",
        help="comma-separated engine_speed cases: a game name (its first case) or NAME:PLAYERS, e.g. nutty:1",
    )
    parser.add_argument("--warmup", type=int, default=300, help="untimed games first (fills per-game caches)")
    parser.add_argument("--measured", type=int, default=100, help="games whose instructions are counted")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), int(args.child[2]))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install -y valgrind)")
    print(f"instructions per step under callgrind, Python {sys.version.split()[0]} ({sys.executable})")
    for case in [*args.games.split(","), FLOOR]:
        base, _ = count(case, args.warmup, 0)
        total, steps = count(case, args.warmup, args.measured)
        print(f"{case:12} {(total - base) / steps:>10,.0f} instructions/step over {steps:,} steps", flush=True)


if __name__ == "__main__":
    main()
