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
    python benchmarks/instructions.py --measure engine --games squarrels   # the same games, the engine's loop
    python benchmarks/instructions.py --measure worlds --games nutty:4 --measured 5  # a clone + determinize
    python benchmarks/instructions.py --measure ismcts --games squarrels --measured 4  # an ISMCTS iteration

``--measure worlds`` counts ``clone()`` + ``determinize`` over the 200 sample states of ``engine_speed.py``
(``--measured`` rounds over them), ``--measure ismcts`` one iteration of the ``ismcts`` bot in the positions
``compiled_paired.py`` times (``--measured`` searches of 150 iterations after ``--warmup`` of them), ``--measure
engine`` the playout steps of the same games played by ``oakwood.engine.random_playout`` (no floor: the engine's
loop takes real states only). Run either
form: ``PYTHONPATH=build/compiled`` counts the compiled one.

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


def child_worlds(case: str, measured: int) -> None:
    """Run inside Valgrind: gather the sample states, then ``measured`` rounds of clone + determinize over them."""
    sys.path.insert(0, str(HERE))
    from engine_speed import CASES, sample_states

    import oakwood
    from oakwood.engine import Rng

    name, _, seats = case.partition(":")
    _, name, players, options, _ = next(c for c in CASES if c[1] == name and (not seats or c[2] == int(seats)))
    game = oakwood.load(name, **options)
    running = [state for state in sample_states(game, players, 200, seed=0) if not state.is_terminal()]
    rng = Rng(7)
    for state in running:  # warm-up: every state once, counted in both runs
        state.clone().determinize(state.to_act()[0], rng)
    for _ in range(measured):
        for state in running:
            state.clone().determinize(state.to_act()[0], rng)
    print(measured * len(running))


def child_ismcts(name: str, warmup: int, measured: int) -> None:
    """Run inside Valgrind: ``warmup`` searches, then ``measured`` more; print the iterations of the latter.

    The positions are those of ``compiled_paired.py``'s ISMCTS measure: every eighth position of seeded games
    (4 players, Nutty 2), a fresh ``ismcts`` bot of 150 iterations for each."""
    import oakwood
    from oakwood.agents import make_agent
    from oakwood.engine import PlayerView, Rng

    game = oakwood.load(name)
    players = 2 if name == "nutty" else 4
    searches = iterations = 0
    for seed in range(100):
        state = game.new_state(players, seed)
        rng = Rng(seed)
        for step in range(24):
            if state.is_terminal() or searches >= warmup + measured:
                break
            seat = state.to_act()[0]
            if step % 8 == 0:
                bot = make_agent(game, "ismcts", iterations=150, seed=step)
                report = bot.search(PlayerView.for_agent(state, seat, bot, Rng(step)))
                searches += 1
                if searches > warmup:
                    iterations += report.iterations
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if searches >= warmup + measured:
            break
    print(iterations)


def child(case: str, warmup: int, measured: int, measure: str = "steps") -> None:
    """Run inside Valgrind: warm up, then play ``measured`` games and print their step count."""
    if measure == "worlds":
        child_worlds(case, measured)
        return
    if measure == "ismcts":
        child_ismcts(case, warmup, measured)
        return
    sys.path.insert(0, str(HERE))
    from engine_speed import CASES, engine_playouts, playouts

    if measure == "engine":  # the same games played by the engine's loop (compiled in the compiled form)
        playouts = engine_playouts
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


def count(case: str, warmup: int, measured: int, measure: str = "steps") -> tuple[int, int]:
    """(instructions, steps) of one child run under callgrind (steps: worlds or iterations for those measures)."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, __file__, "--child", case, str(warmup), str(measured), "--measure", measure,
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
    parser.add_argument(
        "--warmup", type=int, help="uncounted games first (fills per-game caches): 300; searches for ismcts: 1"
    )
    parser.add_argument("--measured", type=int, default=100, help="games whose instructions are counted")
    parser.add_argument(
        "--measure",
        choices=("steps", "engine", "worlds", "ismcts"),
        default="steps",
        help="what is counted: playout steps (this script's loop, or the engine's random_playout: engine),"
        " clone + determinize (worlds), ISMCTS iterations",
    )
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # (--warmup is given to the child)
        child(args.child[0], int(args.child[1]), int(args.child[2]), args.measure)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install -y valgrind)")
    if args.warmup is None:
        args.warmup = 1 if args.measure == "ismcts" else 300
    unit = {"steps": "step", "engine": "step", "worlds": "world", "ismcts": "iteration"}[args.measure]
    print(f"instructions per {unit} under callgrind, Python {sys.version.split()[0]} ({sys.executable})")
    cases = args.games.split(",") + ([FLOOR] if args.measure == "steps" else [])
    for case in cases:
        base, _ = count(case, args.warmup, 0, args.measure)
        total, steps = count(case, args.warmup, args.measured, args.measure)
        print(f"{case:12} {(total - base) / steps:>10,.0f} instructions/{unit} over {steps:,} {unit}s", flush=True)


if __name__ == "__main__":
    main()
