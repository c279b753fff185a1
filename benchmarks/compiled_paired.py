"""Compiled against pure, paired in one run (issue 36): every measure in alternating processes, one per form.

Each round runs, for every measure, one process on the pure sources (``PYTHONPATH=src``) and one on the
compiled build (``PYTHONPATH=build/compiled``, made by ``scripts/build_compiled.py`` / ``make compiled``), in
alternating order, pinned to the same core, so that both forms meet the same load. The measures:

- ``steps``: random playouts through the checked API in every engine_speed.py case (steps/s), with ``clone()``/s
  and worlds/s (``clone`` + ``determinize``) over 200 positions met in those playouts;
- ``ismcts``: ISMCTS iterations/s of the game's ``ismcts`` bot (guided as the levels are) over positions of
  seeded games, at 4 players (Nutty: 2);
- ``aec``: the PettingZoo AEC loop of benchmarks/rl_speed.py (random legal actions from the mask), 4 players;
- ``rlcard``: RLCard's UNO loop (engine_speed.py's baseline, its own venv) once per round, so that each form's
  ratio to it is taken a few seconds apart.

Reports each form's medians and the median of the per-round ratios.

    python benchmarks/compiled_paired.py --rounds 5                  # every measure
    python benchmarks/compiled_paired.py --only steps --rounds 3
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FORMS = {"pure": ROOT / "src", "compiled": ROOT / "build" / "compiled"}  # the default pair (--form to change)

CHILD = """
import json, sys, time
sys.path.insert(0, {here!r})
import oakwood
CLOCK = time.process_time if {cpu!r} else time.perf_counter
kind, arg = {kind!r}, {arg!r}
out = {{"file": sys.modules["oakwood.engine.state"].__file__}}
if kind == "steps":
    import engine_speed
    engine_speed.CLOCK = CLOCK
    case = next(c for c in engine_speed.CASES if c[0] == arg)
    label, name, players, options, games = case
    r = engine_speed.run_case(label, name, players, options, games, {repeats})
    out.update(steps=r.steps_per_s, clones=r.clones_per_s, worlds=r.worlds_per_s)
    if engine_speed.random_playout is not None:  # the same games through the engine's own loop
        game = oakwood.load(name, **options)
        rates = []
        for rep in range({repeats}):
            played, seconds = engine_speed.engine_playouts(game, players, games, seed=rep)
            rates.append(played / seconds)
        out.update(engine_steps=sorted(rates)[len(rates) // 2])
elif kind == "ismcts":
    from oakwood.agents import make_agent
    from oakwood.engine import PlayerView, Rng
    game = oakwood.load(arg)
    players = 2 if arg == "nutty" else 4
    iterations = seconds = 0.0
    for seed in range(3):
        state = game.new_state(players, seed)
        rng = Rng(seed)
        for step in range(24):
            if state.is_terminal():
                break
            seat = state.to_act()[0]
            if step % 8 == 0:
                bot = make_agent(game, "ismcts", iterations=150, seed=step)
                view = PlayerView.for_agent(state, seat, bot, Rng(step))
                start = CLOCK()
                report = bot.search(view)
                if step:  # the first search of a process warms the caches up
                    iterations += report.iterations
                    seconds += CLOCK() - start
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    out.update(iterations=iterations / seconds)
elif kind == "aec":
    import rl_speed
    from oakwood.rl import pettingzoo as oz
    rl_speed.CLOCK = CLOCK
    loop = rl_speed.aec_loop(lambda: oz.env(arg, players=4))
    loop(300)
    out.update(aec=sorted(rl_speed.timed(loop, 4000) for _ in range({repeats}))[{repeats} // 2])
print(json.dumps(out))
"""


#: (kind, argument) of every measure.
def measures(only: str | None) -> list[tuple[str, str]]:
    """Every measure, or those of one kind."""
    sys.path.insert(0, str(HERE))
    import engine_speed

    found = [("steps", case[0]) for case in engine_speed.CASES]
    found += [("ismcts", name) for name in ("squarrels", "barrell", "nutty")]
    if importlib.util.find_spec("pettingzoo") is not None:  # the rl extra
        found += [("aec", name) for name in ("squarrels", "barrell", "nutty")]
    return [m for m in found if only is None or m[0] == only]


def measure(path: Path, kind: str, arg: str, repeats: int, cpu: str, cpu_clock: bool = False) -> dict[str, Any]:
    """One process of one form: one measure (timed by the process's CPU seconds with ``cpu_clock``)."""
    env = dict(os.environ, PYTHONPATH=str(path))
    code = CHILD.format(here=str(HERE), kind=kind, arg=arg, repeats=repeats, cpu=cpu_clock)
    output = subprocess.run(
        ["taskset", "-c", cpu, sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, Any] = json.loads(output)
    assert str(result["file"]).startswith(str(path)), (path, result["file"])  # the form really is the one asked
    return result


def rlcard(cpu_clock: bool = False) -> float:
    """RLCard UNO's random-playout steps/s (engine_speed.py's baseline), one repeat (by CPU seconds with
    ``cpu_clock``, as the forms are timed)."""
    sys.path.insert(0, str(HERE))
    import engine_speed

    if cpu_clock:
        engine_speed.CLOCK = time.process_time

    return float(engine_speed.run_rlcard(1, 200).steps_per_s)


def main() -> None:
    """Run the rounds and print each measure's medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3, help="repeats inside each process (their median)")
    parser.add_argument("--only", choices=("steps", "ismcts", "aec"))
    parser.add_argument("--no-rlcard", action="store_true", help="skip RLCard's UNO baseline")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--form", action="append", metavar="NAME=PATH", help="two forms to pair")
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="time by each process's CPU seconds (default: what other jobs on a shared VM do not inflate) or by"
        " the wall clock",
    )
    args = parser.parse_args()
    forms = {k: Path(v).resolve() for k, v in (f.split("=", 1) for f in args.form)} if args.form else FORMS
    first, second = list(forms)
    cpu = str(min(os.sched_getaffinity(0)))
    chosen = measures(args.only)
    rows: dict[str, list[dict[str, dict[str, Any]]]] = {f"{kind} {arg}": [] for kind, arg in chosen}
    uno: list[float] = []
    for r in range(args.rounds):
        for kind, arg in chosen:
            order = [first, second] if r % 2 == 0 else [second, first]
            row = {form: measure(forms[form], kind, arg, args.repeats, cpu, args.clock == "cpu") for form in order}
            rows[f"{kind} {arg}"].append(row)
            print(f"round {r + 1} {kind} {arg}: {row}", file=sys.stderr, flush=True)
        if not args.no_rlcard and args.only in (None, "steps"):
            uno.append(rlcard(args.clock == "cpu"))
    print(
        f"{args.rounds} rounds, {first} and {second} alternating, each process the median of {args.repeats},"
        f" timed by the {'CPU seconds of each process' if args.clock == 'cpu' else 'wall clock'}"
    )
    summary: dict[str, Any] = {}
    for name, found in rows.items():
        # the keys both forms report (sources older than the engine's loop have no engine_steps)
        for key in [k for k in found[0][first] if k != "file" and all(k in row[f] for row in found for f in forms)]:
            a = [float(row[first][key]) for row in found]
            b = [float(row[second][key]) for row in found]
            ratios = [y / x for x, y in zip(a, b, strict=True)]
            line = (
                f"  {name:38} {key:10} {first} {statistics.median(a):>11,.0f}  {second} {statistics.median(b):>11,.0f}"
                f"  ratio {statistics.median(ratios):.2f}x (pairs {' '.join(f'{x:.2f}' for x in ratios)})"
            )
            if uno and key in ("steps", "engine_steps"):
                ua = statistics.median(x / u for x, u in zip(a, uno, strict=False))
                ub = statistics.median(y / u for y, u in zip(b, uno, strict=False))
                line += f"; / RLCard UNO {first} {ua:.2f}x {second} {ub:.2f}x"
            print(line)
            summary[f"{name} {key}"] = {first: a, second: b, "ratios": ratios}
    if uno:
        print(f"  RLCard UNO 4p steps/s median {statistics.median(uno):,.0f}")
        summary["rlcard"] = uno
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
