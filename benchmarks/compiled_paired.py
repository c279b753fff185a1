"""Compiled against pure, paired in one run (issue 36): engine_speed.py's measures in alternating processes.

Each round runs one process on the pure sources (``PYTHONPATH=src``) and one on the compiled copy
(``PYTHONPATH=build/compiled``, made by ``scripts/build_compiled.py``), in alternating order, pinned to the
same core; each process measures one case with ``engine_speed.run_case`` (its warm-up, ``--repeats`` timed
repeats, clone()/s and worlds/s). Reports each form's medians and the per-round ratios.

    python benchmarks/compiled_paired.py --rounds 7
    python benchmarks/compiled_paired.py --case "S'Quarrels 4p, single round" --rounds 5 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FORMS = {"pure": ROOT / "src", "compiled": ROOT / "build" / "compiled"}  # the default pair (--form to change)

CHILD = """
import json, sys
sys.path.insert(0, {here!r})
import oakwood, engine_speed
case = next(c for c in engine_speed.CASES if c[0] == {case!r})
label, name, players, options, games = case
r = engine_speed.run_case(label, name, players, options, games, {repeats})
print(json.dumps({{"file": oakwood.engine.State.__module__ and sys.modules["oakwood.engine.state"].__file__,
                  "steps": r.steps_per_s, "clones": r.clones_per_s, "worlds": r.worlds_per_s, "runs": r.runs}}))
"""


def measure(form: str, path: Path, case: str, repeats: int, cpu: str) -> dict[str, object]:
    """One process of one form: engine_speed's medians for the case."""
    env = dict(os.environ, PYTHONPATH=str(path))
    code = CHILD.format(here=str(HERE), case=case, repeats=repeats)
    output = subprocess.run(
        ["taskset", "-c", cpu, sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, object] = json.loads(output)
    assert str(result["file"]).startswith(str(path)), (form, result["file"])  # the form really is the one asked for
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", default="S'Quarrels 4p, single round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--form",
        action="append",
        metavar="NAME=PATH",
        help="two forms to pair (default: pure=src compiled=build/compiled)",
    )
    args = parser.parse_args()
    forms = {k: Path(v).resolve() for k, v in (f.split("=", 1) for f in args.form)} if args.form else FORMS
    first, second = list(forms)
    cpu = str(min(os.sched_getaffinity(0)))
    rows: list[dict[str, dict[str, object]]] = []
    for r in range(args.rounds):
        order = [first, second] if r % 2 == 0 else [second, first]
        row = {form: measure(form, forms[form], args.case, args.repeats, cpu) for form in order}
        rows.append(row)
        ratio = float(row[second]["steps"]) / float(row[first]["steps"])  # type: ignore[arg-type]
        print(
            f"round {r + 1}: steps/s {first} {row[first]['steps']:,.0f} {second} {row[second]['steps']:,.0f}"
            f" ({ratio:.2f}x)",
            file=sys.stderr,
            flush=True,
        )
    print(f"{args.case}: {args.rounds} rounds ({first} and {second} alternating), each the median of {args.repeats}")
    for key, label in (("steps", "steps/s"), ("clones", "clone()/s"), ("worlds", "worlds/s")):
        a = [float(row[first][key]) for row in rows]  # type: ignore[arg-type]
        b = [float(row[second][key]) for row in rows]  # type: ignore[arg-type]
        ratios = [y / x for x, y in zip(a, b, strict=True)]
        print(
            f"  {label:10} {first} median {statistics.median(a):>10,.0f}  {second} median"
            f" {statistics.median(b):>10,.0f}  ratio median {statistics.median(ratios):.2f}x"
            f" (pairs {' '.join(f'{x:.2f}' for x in ratios)})"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
