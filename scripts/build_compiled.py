"""Build a compiled copy of Oakwood with mypyc, beside the sources, never in them (issue 36, a prototype).

The package is copied to ``build/compiled/oakwood`` and the chosen modules are compiled there, so the ``.so``
files sit next to the copies of their ``.py`` files, never next to the sources in ``src/`` (a compiled module
there would shadow its source for every editable install). Run the compiled form with
``PYTHONPATH=build/compiled``; ``oakwood.__file__`` says which one is imported.

    python scripts/build_compiled.py                          # the engine and S'Quarrels
    python scripts/build_compiled.py --games squarrels barrell
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "oakwood"

#: Engine modules left interpreted, neither on a playout's hot path:
#: - errors.py holds InvariantError(RuntimeError), and mypyc cannot make a native class of a RuntimeError
#:   subclass (only of Exception, ValueError, LookupError, IndexError, Warning);
#: - agent.py's ``@runtime_checkable class Agent(Protocol)``: compiled, the class is no longer a protocol to
#:   typing, and the decorator raises TypeError on import;
#: - options.py (here and in every game): compiled, a frozen dataclass converts or refuses its field values on
#:   entry (``target_score=True`` became 1, a float raised TypeError instead of InvalidOptionError), and its
#:   instances no longer unpickle (FrozenInstanceError), so neither did games and states.
ENGINE_SKIPPED = {"agent.py", "errors.py", "options.py"}

#: Modules of every game left interpreted (see above).
GAME_SKIPPED_ALWAYS = {"options.py"}

#: Per game, further modules left interpreted (none so far).
GAME_SKIPPED: dict[str, set[str]] = {}


def stage(target: Path) -> Path:
    """A fresh copy of the package (sources and data, no caches, no compiled files) under ``target``."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(
        SOURCE, target / "oakwood", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", ".mypy_cache")
    )
    return target


def modules(staged: Path, games: list[str]) -> list[str]:
    """The files to compile, relative to the staging directory."""
    chosen = [
        f"oakwood/engine/{path.name}"
        for path in sorted((staged / "oakwood" / "engine").glob("*.py"))
        if path.name not in ENGINE_SKIPPED
    ]
    for game in games:
        skipped = GAME_SKIPPED_ALWAYS | GAME_SKIPPED.get(game, set())
        chosen += [
            f"oakwood/games/{game}/{path.name}"
            for path in sorted((staged / "oakwood" / "games" / game).glob("*.py"))
            if path.name not in skipped
        ]
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=["squarrels"])
    parser.add_argument("--target", type=Path, default=ROOT / "build" / "compiled")
    parser.add_argument("--opt-level", default="3")
    args = parser.parse_args()

    staged = stage(args.target)
    paths = modules(staged, args.games)
    start = time.perf_counter()
    os.chdir(staged)
    from mypyc.build import mypycify  # mypy is only needed to build
    from setuptools import setup

    # The generated C goes beside the copy (build/compiled-c), kept for reading and debugging.
    extensions = mypycify(paths, opt_level=args.opt_level, debug_level="1", target_dir=str(args.target) + "-c")
    typed = time.perf_counter()
    setup(
        name="oakwood_compiled",
        ext_modules=extensions,
        script_args=["build_ext", "--inplace", "--build-temp", str(staged / ".temp"), "--quiet"],
    )
    done = time.perf_counter()
    shutil.rmtree(staged / ".temp", ignore_errors=True)
    shutil.rmtree(staged / "build", ignore_errors=True)  # setuptools' build_lib: copies of the .so files
    size = sum(path.stat().st_size for path in staged.rglob("*.so"))
    print(
        f"compiled {len(paths)} modules into {staged}: mypyc {typed - start:.1f} s, C compiler {done - typed:.1f} s,"
        f" {size / 1e6:.1f} MB of .so",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
