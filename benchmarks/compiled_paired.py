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
FORMS = {"pure": ROOT / "src", "compiled": ROOT / "build" / "compiled"}

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


def measure(form: str, case: str, repeats: int, cpu: str) -> dict[str, object]:
    """One process of one form: engine_speed's medians for the case."""
    env = dict(os.environ, PYTHONPATH=str(FORMS[form]))
    code = CHILD.format(here=str(HERE), case=case, repeats=repeats)
    output = subprocess.run(
        ["taskset", "-c", cpu, sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, object] = json.loads(output)
    expected = "build/compiled" if form == "compiled" else "/src/"
    assert expected in str(result["file"]), (form, result["file"])  # the form really is the one asked for
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", default="S'Quarrels 4p, single round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    cpu = str(min(os.sched_getaffinity(0)))
    rows: list[dict[str, dict[str, object]]] = []
    for r in range(args.rounds):
        order = ["pure", "compiled"] if r % 2 == 0 else ["compiled", "pure"]
        row = {form: measure(form, args.case, args.repeats, cpu) for form in order}
        rows.append(row)
        ratio = float(row["compiled"]["steps"]) / float(row["pure"]["steps"])  # type: ignore[arg-type]
        print(
            f"round {r + 1}: steps/s pure {row['pure']['steps']:,.0f} compiled {row['compiled']['steps']:,.0f}"
            f" ({ratio:.2f}x)",
            file=sys.stderr,
            flush=True,
        )
    print(f"{args.case}: {args.rounds} rounds (pure and compiled alternating), each the median of {args.repeats}")
    for key, label in (("steps", "steps/s"), ("clones", "clone()/s"), ("worlds", "worlds/s")):
        pure = [float(row["pure"][key]) for row in rows]  # type: ignore[arg-type]
        compiled = [float(row["compiled"][key]) for row in rows]  # type: ignore[arg-type]
        ratios = [c / p for c, p in zip(compiled, pure, strict=True)]
        print(
            f"  {label:10} pure median {statistics.median(pure):>10,.0f}  compiled median"
            f" {statistics.median(compiled):>10,.0f}  ratio median {statistics.median(ratios):.2f}x"
            f" (pairs {' '.join(f'{x:.2f}' for x in ratios)})"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
