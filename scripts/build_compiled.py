"""Build the compiled form of Oakwood beside the sources, never in them (issue 36): ``build/compiled``.

The package is copied to ``build/compiled/oakwood`` and the modules ``oakwood/form.py`` lists are compiled there
by mypyc, so the ``.so`` files sit next to the copies of their ``.py`` files, never next to the sources in
``src/`` (a compiled module there would shadow its source for every editable install). The copy carries
``compiled.json``: the hashes of the sources it was compiled from and where they live, so that importing it after
any of them changed raises ``StaleBuildError`` instead of running older code (``oakwood/form.py``). Run the
compiled form with ``PYTHONPATH=build/compiled``; ``oakwood --version`` says which form runs.

    python scripts/build_compiled.py              # build (only if a source changed since the last build)
    python scripts/build_compiled.py --force      # build anyway
    python scripts/build_compiled.py --check      # exit 1 (saying why) unless build/compiled is up to date

Exit status 2 (with one line saying why) when no build is possible here: mypy/mypyc, a C compiler or the Python
headers are missing. ``make`` then keeps to the pure form.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "oakwood"
TARGET = ROOT / "build" / "compiled"


def load_by_path(name: str, path: Path) -> ModuleType:
    """A module loaded from its file under ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def load_form(source: Path = SOURCE) -> ModuleType:
    """``oakwood/form.py`` of the sources, loaded by path (importing ``oakwood`` would check the form itself)."""
    return load_by_path("oakwood_form", source / "form.py")


def why_not_buildable() -> str | None:
    """Why this machine cannot compile (None if it can): mypyc, a C compiler and Python's headers are needed."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypy (which ships mypyc) is not installed"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]  # CC: as setuptools
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) is installed"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "Python's C headers (Python.h; Debian: python3-dev) are not installed"
    return None


def is_fresh(target: Path = TARGET) -> tuple[bool, str]:
    """Whether ``target`` holds a compiled build of the current sources, and if not, why."""
    form = load_form()
    package = target / "oakwood"
    if not (package / form.MANIFEST).exists():
        return False, f"no compiled build in {target}"
    found = form.inspect(package)  # every file of the copy and of the sources, against the build's manifest
    if found.stale:
        return False, f"{', '.join(found.stale)} changed since {target} was built"
    if found.modules != len(form.compiled_sources(package)):
        return False, f"{target} lacks compiled modules"
    return True, f"{target} is up to date with the sources"


def stage(target: Path) -> Path:
    """A fresh copy of the package (sources and data, no caches, no compiled files) under ``target``."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(SOURCE, target / "oakwood", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", ".*"))
    return target / "oakwood"


def build(target: Path, opt_level: str, jobs: int) -> None:
    """Copy the sources to ``target`` and compile the listed modules there; write the manifest last."""
    print(
        f"compiling Oakwood with mypyc into {target} (a few minutes on two cores; OAKWOOD_PURE=1 skips it)",
        file=sys.stderr,
    )
    package = stage(target)
    form = load_form(package)
    paths = [str(path.relative_to(target)) for path in form.compiled_sources(package)]
    start = time.perf_counter()
    os.chdir(target)
    from mypyc.build import mypycify  # mypy is only needed to build
    from setuptools import Extension, setup
    from setuptools.command.build_ext import build_ext

    # The generated C goes beside the copy (build/compiled-c), kept for reading and debugging; split into one
    # file per module (multi_file) so that the C compiler runs on ``jobs`` cores.
    extensions = mypycify(paths, opt_level=opt_level, debug_level="1", multi_file=True, target_dir=str(target) + "-c")
    typed = time.perf_counter()
    hooks = load_by_path("oakwood_setup", ROOT / "setup.py")

    class BuildInPlace(build_ext):
        def build_extension(self, ext: Extension) -> None:
            hooks.compile_in_parallel(self.compiler, jobs)  # the group's C files on every core
            super().build_extension(ext)

    setup(
        name="oakwood_compiled",
        ext_modules=extensions,
        cmdclass={"build_ext": BuildInPlace},
        script_args=["build_ext", "--inplace", "--build-temp", str(target / ".temp"), "-j", str(jobs), "--quiet"],
    )
    done = time.perf_counter()
    shutil.rmtree(target / ".temp", ignore_errors=True)
    shutil.rmtree(target / "build", ignore_errors=True)  # setuptools' build_lib: copies of the .so files
    form.write_manifest(package, origin=SOURCE)
    size = sum(path.stat().st_size for path in target.rglob("*.so"))
    print(
        f"compiled {len(paths)} modules into {target}: mypyc {typed - start:.1f} s, C compiler {done - typed:.1f} s"
        f" (-O{opt_level}, {jobs} jobs), {size / 1e6:.1f} MB of .so",
        file=sys.stderr,
    )


def main() -> None:
    """Build, check or refresh the compiled form in ``build/compiled``."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", type=Path, default=TARGET)
    parser.add_argument("--opt-level", default=os.environ.get("MYPYC_OPT_LEVEL", "3"))
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--force", action="store_true", help="build even if the build is up to date")
    parser.add_argument("--check", action="store_true", help="only say whether the build is up to date")
    args = parser.parse_args()
    target = args.target.resolve()
    fresh, why = is_fresh(target)
    if args.check:
        print(why, file=sys.stderr)
        raise SystemExit(0 if fresh else 1)
    if fresh and not args.force:
        print(why, file=sys.stderr)
        return
    reason = why_not_buildable()
    if reason is not None:
        print(f"not compiling Oakwood: {reason}; the pure form runs", file=sys.stderr)
        raise SystemExit(2)
    try:
        build(target, args.opt_level, args.jobs)
    except (Exception, SystemExit) as error:  # mypyc or the C compiler failed: say so in one line, run pure
        shutil.rmtree(target, ignore_errors=True)  # never a half build
        print(f"compiling Oakwood failed ({type(error).__name__}: {error}); the pure form runs", file=sys.stderr)
        raise SystemExit(1) from error


if __name__ == "__main__":
    main()
