"""Engine throughput: random playouts through the public, checked API, compared with RLCard's UNO.

At each step: the seats to act (``to_act``), the legal actions of one of them, a seeded uniform choice,
``apply``. Reports steps/s, games/s, ``clone()``/s and worlds/s (a clone and a ``determinize``, what a search
iteration pays before its playout) as the median of several repeats, pinned to one core,
and runs the same loop over RLCard's UNO game object in the same run (RLCard lives in a throwaway venv,
``benchmarks/.rlcard-venv``, created on first use from ``benchmarks/requirements.txt``).

    python benchmarks/engine_speed.py                 # every game, 5 repeats, plus RLCard UNO
    python benchmarks/engine_speed.py --games squarrels --repeats 7 --no-rlcard
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import oakwood
from oakwood.engine import Rng, State

try:
    from oakwood.engine import random_playout
except ImportError:  # sources older than the engine's loop (a before/after pair): engine_playouts is not measured
    random_playout = None  # type: ignore[assignment]

HERE = Path(__file__).resolve().parent
RLCARD_VENV = HERE / ".rlcard-venv"

#: The clock every rate here is timed by: wall-clock seconds. ``compiled_paired.py --clock cpu`` sets it to
#: ``time.process_time`` (the CPU seconds of this process): on a shared VM a wall-clock window of 50 ms (one round
#: of worlds) includes however long other jobs held the core, so its rate swings by 2x from one repeat to the
#: next, while the CPU time of the same loop varies by about 2 %.
CLOCK: Callable[[], float] = time.perf_counter

#: (label, game, players, options, games per repeat)
CASES: list[tuple[str, str, int, dict[str, Any], int]] = [
    ("S'Quarrels 4p, single round", "squarrels", 4, {"single_round": True}, 400),
    ("Barrell 2p", "barrell", 2, {}, 300),
    ("Barrell 4p", "barrell", 4, {}, 200),
    ("Nutty Squirrels 4p", "nutty", 4, {}, 60),
    ("Nutty Squirrels solo", "nutty", 1, {}, 2000),  # four steps a game: 100 games timed only ~10 ms
]


@dataclass
class Result:
    """Medians over the repeats of one case."""

    label: str
    steps_per_s: float
    games_per_s: float
    clones_per_s: float
    steps_per_game: float
    runs: list[float]
    worlds_per_s: float = float("nan")


def pin_to_one_core() -> None:
    """Run on a single core so figures are per-core (Linux only; elsewhere a no-op)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def playouts(game: oakwood.Game, players: int, games: int, seed: int) -> tuple[int, float]:
    """Random playouts through the public API; returns (steps, seconds)."""
    chooser = random.Random(seed)
    steps = 0
    start = CLOCK()
    for g in range(games):
        state = game.new_state(players, seed * 100_003 + g)
        while not state.is_terminal():
            seats = state.to_act()
            seat = seats[0] if len(seats) == 1 else seats[int(chooser.random() * len(seats))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[int(chooser.random() * len(legal))])
            steps += 1
    return steps, CLOCK() - start


def engine_playouts(game: oakwood.Game, players: int, games: int, seed: int) -> tuple[int, float]:
    """The same games as :func:`playouts` (the same choices), played by the engine's own loop
    (``oakwood.engine.random_playout``): compiled in the compiled form, where this script's loop is not."""
    chooser = random.Random(seed)
    steps = 0
    start = CLOCK()
    for g in range(games):
        steps += random_playout(game.new_state(players, seed * 100_003 + g), chooser)
    return steps, CLOCK() - start


def sample_states(game: oakwood.Game, players: int, count: int, seed: int) -> list[State]:
    """Mid-game states for the clone timing, gathered outside the timed loop (one every 7 steps)."""
    chooser = random.Random(seed)
    samples: list[State] = []
    g = 0
    while len(samples) < count:
        state = game.new_state(players, 10**9 + seed * 1000 + g)
        g += 1
        steps = 0
        while not state.is_terminal() and len(samples) < count:
            seats = state.to_act()
            seat = seats[int(chooser.random() * len(seats))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[int(chooser.random() * len(legal))])
            steps += 1
            if steps % 7 == 0:
                samples.append(state.clone())
    return samples


def clone_rate(samples: list[State], rounds: int = 50) -> float:
    """clone() calls per second over a set of mid-game states."""
    start = CLOCK()
    for _ in range(rounds):
        for state in samples:
            state.clone()
    return rounds * len(samples) / (CLOCK() - start)


def world_rate(samples: list[State], rounds: int = 5) -> float:
    """clone() + determinize() pairs per second over a set of mid-game states (what a search step costs before
    its playout), each for the seat to act."""
    rng = Rng(7)
    start = CLOCK()
    for _ in range(rounds):
        for state in samples:
            state.clone().determinize(state.to_act()[0], rng)
    return rounds * len(samples) / (CLOCK() - start)


def run_case(label: str, name: str, players: int, options: dict[str, Any], games: int, repeats: int) -> Result:
    """Median figures for one game configuration."""
    game = oakwood.load(name, **options)
    steps_rates, game_rates, clone_rates, world_rates, lengths = [], [], [], [], []
    playouts(game, players, max(1, games // 10), seed=999)  # warm-up (per-game caches), not timed
    for r in range(repeats):
        gc.collect()  # every repeat starts from the same heap, like timeit (which even turns GC off)
        steps, seconds = playouts(game, players, games, seed=r)
        steps_rates.append(steps / seconds)
        game_rates.append(games / seconds)
        lengths.append(steps / games)
    # The clone timing holds 200 states alive; it runs after the playouts so they do not slow them down.
    samples = sample_states(game, players, 200, seed=0)
    running = [state for state in samples if not state.is_terminal()]
    for _ in range(repeats):
        clone_rates.append(clone_rate(samples))
        world_rates.append(world_rate(running))
    del samples, running
    return Result(
        label,
        statistics.median(steps_rates),
        statistics.median(game_rates),
        statistics.median(clone_rates),
        statistics.median(lengths),
        steps_rates,
        statistics.median(world_rates),
    )


def ensure_rlcard_venv() -> Path:
    """The baseline's interpreter, creating its venv on first use."""
    python = RLCARD_VENV / "bin" / "python"
    if not python.exists():
        print("creating benchmarks/.rlcard-venv with RLCard (first run only)…", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(RLCARD_VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "-r", str(HERE / "requirements.txt")], check=True
        )
    return python


#: Runs a script (the next argument) with ``time.perf_counter`` replaced by ``time.process_time``.
_CPU_CLOCK_RUN = (
    "import runpy, sys, time; time.perf_counter = time.process_time; sys.argv = sys.argv[1:];"
    " runpy.run_path(sys.argv[0], run_name='__main__')"
)


def run_rlcard(repeats: int, games: int) -> Result:
    """Median figures of the same loop over RLCard's UNO, measured in its own venv on one core."""
    python = ensure_rlcard_venv()
    cpu = str(min(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else None
    command = [str(python), str(HERE / "rlcard_uno.py"), str(repeats), str(games)]
    if CLOCK is time.process_time:  # the baseline timed by the same clock: its script reads time.perf_counter
        command[1:2] = ["-c", _CPU_CLOCK_RUN, command[1]]
    if cpu is not None:
        command = ["taskset", "-c", cpu, *command]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    runs = json.loads(output)
    return Result(
        "RLCard UNO 4p (baseline)",
        statistics.median(r["steps_per_s"] for r in runs),
        statistics.median(r["games_per_s"] for r in runs),
        float("nan"),
        statistics.median(r["steps"] / games for r in runs),
        [r["steps_per_s"] for r in runs],
    )


def paired_ratio(case: tuple[str, str, int, dict[str, Any], int], repeats: int, uno_games: int) -> list[float]:
    """A case's per-step rate over RLCard UNO's, from alternating repeats.

    This VM's speed drifts by tens of percent within a minute, so the two loops are run back to back, one
    repeat each in turn, and each ratio compares two measurements taken a few seconds apart.
    """
    _label, name, players, options, games = case
    game = oakwood.load(name, **options)
    playouts(game, players, max(1, games // 10), seed=999)
    ratios = []
    for r in range(repeats):
        gc.collect()
        steps, seconds = playouts(game, players, games, seed=100 + r)
        uno = run_rlcard(1, uno_games)
        ratios.append((steps / seconds) / uno.steps_per_s)
    return ratios


def main() -> None:
    """Parse arguments, run the cases and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5, help="repeats per case (the median is reported)")
    parser.add_argument("--games", nargs="*", default=None, help="only these games (squarrels, barrell, nutty)")
    parser.add_argument("--no-rlcard", action="store_true", help="skip the RLCard UNO baseline")
    parser.add_argument("--rlcard-games", type=int, default=200, help="UNO games per repeat")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    pin_to_one_core()
    results: list[Result] = []
    for label, name, players, options, games in CASES:
        if args.games and name not in args.games:
            continue
        results.append(run_case(label, name, players, options, games, args.repeats))
        print(f"  measured {label}", file=sys.stderr)
    if not args.no_rlcard:
        results.append(run_rlcard(args.repeats, args.rlcard_games))
    header = f"{'case':32} {'steps/s':>10} {'games/s':>9} {'clone()/s':>10} {'worlds/s':>9} {'steps/game':>10}"
    print(f"median of {args.repeats} repeats, one core, Python {sys.version.split()[0]}")
    print(header)
    print("-" * len(header))
    for r in results:
        clones = "-" if r.clones_per_s != r.clones_per_s else f"{r.clones_per_s:,.0f}"
        worlds = "-" if r.worlds_per_s != r.worlds_per_s else f"{r.worlds_per_s:,.0f}"
        print(
            f"{r.label:32} {r.steps_per_s:>10,.0f} {r.games_per_s:>9,.1f} {clones:>10} {worlds:>9}"
            f" {r.steps_per_game:>10,.0f}"
        )
    baseline = next((r for r in results if r.label.startswith("RLCard")), None)
    if baseline:
        for r in results:
            if r is not baseline:
                print(f"{r.label}: {r.steps_per_s / baseline.steps_per_s:.1f}x RLCard UNO's per-step rate")
        print("per-step rate / RLCard UNO's, from alternating repeats:")
        for case in CASES:
            if args.games and case[1] not in args.games:
                continue
            ratios = paired_ratio(case, args.repeats, args.rlcard_games)
            shown = " ".join(f"{x:.2f}" for x in ratios)
            print(f"  {case[0]:30} median {statistics.median(ratios):.2f}x ({shown})", flush=True)
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in results], indent=2))


if __name__ == "__main__":
    main()
