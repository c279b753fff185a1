"""What storing every game costs a bulk simulation: ``oakwood simulate`` with and without the store.

Each repeat runs the same simulation twice — once keeping nothing (``--no-store``), once keeping every
action history and writing the games to a fresh SQLite file in batches from the parent process, exactly as
``oakwood simulate`` does — in alternating order (plain first in odd repeats, stored first in even ones), so
the two runs of a pair are seconds apart and the VM's drift cancels in their ratio. It reports, per case, the
median of the per-pair ratios of wall time (the cost of storing, as a share of the simulation's rate) and of
CPU time (this process and its workers: steadier on a VM whose wall clock drifts), and the median rates.

    python benchmarks/store_cost.py                                # the default cases, 2 workers, 7 repeats
    python benchmarks/store_cost.py --cases barrell --repeats 9 --workers 1
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
import checkout  # noqa: E402, F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)

from oakwood.arena.recording import GameWriter  # noqa: E402
from oakwood.arena.simulate import simulate  # noqa: E402
from oakwood.arena.spec import SimulationSpec  # noqa: E402
from oakwood.store import open_store  # noqa: E402

#: name → (game, lineup, options, games per run)
CASES: dict[str, tuple[str, tuple[str, ...], dict[str, Any], int]] = {
    # the README's example: one heuristic bot against three random ones
    "squarrels": ("squarrels", ("heuristic", "random", "random", "random"), {}, 400),
    # the shortest games of all (about 25 actions), so the fixed cost of a stored game weighs the most
    "barrell": ("barrell", ("heuristic", "random"), {}, 3000),
    "nutty": ("nutty", ("heuristic", "heuristic", "heuristic", "heuristic"), {}, 60),
}


def cpu_seconds() -> float:
    """CPU time used so far by this process and its finished workers (user + system)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)  # a pool's workers are joined when it closes
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def timed(case: str, games: int, workers: int, store_in: Path | None, seed: int = 0) -> tuple[float, float]:
    """Wall and CPU seconds of :func:`run`."""
    cpu = cpu_seconds()
    wall = run(case, games, workers, store_in, seed)
    return wall, cpu_seconds() - cpu


def run(case: str, games: int, workers: int, store_in: Path | None, seed: int = 0) -> float:
    """One simulation of ``games`` games of ``case``; its wall time in seconds. With ``store_in`` (a
    directory) every game is stored in a new SQLite file there, as ``oakwood simulate`` stores them."""
    game, lineup, options, _ = CASES[case]
    spec = SimulationSpec(game, lineup, games=games, seed=seed, rotate=True, options=options)
    if store_in is None:
        started = time.perf_counter()
        simulate(spec, workers)
        return time.perf_counter() - started
    spec = SimulationSpec(game, lineup, games=games, seed=seed, rotate=True, options=options, keep_actions=True)
    with open_store(f"sqlite:///{store_in / f'{case}-{time.monotonic_ns()}.db'}") as store:
        started = time.perf_counter()
        writer = GameWriter(store, spec, source="simulate")
        simulate(spec, workers, on_batch=writer.add)
        writer.flush()
        elapsed = time.perf_counter() - started
        assert len(store.list_games(limit=games + 1)) == games
    return elapsed


def measure(case: str, games: int, workers: int, repeats: int) -> dict[str, float]:
    """Alternating pairs of runs; the medians of the cost ratio and of the two rates (games/s)."""
    ratios: list[float] = []
    cpu_ratios: list[float] = []
    plain_rates: list[float] = []
    stored_rates: list[float] = []
    with tempfile.TemporaryDirectory(prefix="oakwood-store-cost") as tmp:
        run(case, min(games, 20), workers, Path(tmp))  # warm-up: imports, the first database, the pool
        for repeat in range(repeats):
            order = (False, True) if repeat % 2 == 0 else (True, False)
            times = {stored: timed(case, games, workers, Path(tmp) if stored else None, repeat) for stored in order}
            ratios.append(times[True][0] / times[False][0])
            cpu_ratios.append(times[True][1] / times[False][1])
            plain_rates.append(games / times[False][0])
            stored_rates.append(games / times[True][0])
    return {
        "cost": statistics.median(ratios) - 1.0,
        "cost_min": min(ratios) - 1.0,
        "cost_max": max(ratios) - 1.0,
        "cpu_cost": statistics.median(cpu_ratios) - 1.0,
        "plain": statistics.median(plain_rates),
        "stored": statistics.median(stored_rates),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="squarrels,barrell", help=f"comma-separated, of {', '.join(CASES)}")
    parser.add_argument("--workers", type=int, default=2, help="processes per simulation (default 2)")
    parser.add_argument("--repeats", type=int, default=7, help="pairs of runs per case (default 7)")
    parser.add_argument("--games", type=int, default=None, help="games per run (default: per case)")
    args = parser.parse_args()
    print(
        f"{'case':<12} {'games':>6} {'plain games/s':>14} {'stored games/s':>15} {'wall cost (median, min–max)':>29}"
        f" {'CPU cost':>9}"
    )
    for case in args.cases.split(","):
        games = args.games or CASES[case][3]
        result = measure(case, games, args.workers, args.repeats)
        spread = f"{100 * result['cost_min']:+.1f}…{100 * result['cost_max']:+.1f}%"
        print(
            f"{case:<12} {games:>6} {result['plain']:>14,.0f} {result['stored']:>15,.0f}"
            f" {100 * result['cost']:>+8.1f}%  ({spread}) {100 * result['cpu_cost']:>+8.1f}%"
        )


if __name__ == "__main__":
    main()
