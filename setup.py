"""Oakwood's build hook: a regular install compiles the engines with mypyc; an editable one stays pure (issue 36).

Everything about the package is in ``pyproject.toml``; this file only decides, when the extensions are built,
whether Oakwood is compiled:

- ``pip install .`` (a wheel) with a C compiler and Python's headers: the modules ``oakwood/form.py`` lists are
  compiled by mypyc from the same sources, beside which they are installed, with ``oakwood/compiled.json`` (the
  hashes of those sources; ``oakwood --version`` says the form). Any failure of the build falls back to the pure
  form with one message saying why: the same behaviour, slower.
- ``pip install -e .`` (what ``make test`` and ``make run`` use): never compiled, so that an edited ``.py`` is
  always what runs. The compiled form for development is ``build/compiled`` (``scripts/build_compiled.py``).
- ``OAKWOOD_PURE=1`` forces the pure form; ``MYPYC_OPT_LEVEL`` sets mypyc's optimisation level (default 3).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
#: Stands for the compiled modules until build_ext knows whether to compile (so that mypyc, which takes seconds,
#: runs only for a build that compiles, and the wheel is marked as holding extensions).
PLACEHOLDER = Extension("oakwood._compiled_placeholder", sources=[])


def _form() -> ModuleType:
    """``src/oakwood/form.py`` loaded by path: what to compile and how the manifest is written."""
    spec = importlib.util.spec_from_file_location("oakwood_form", HERE / "src" / "oakwood" / "form.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["oakwood_form"] = module
    spec.loader.exec_module(module)
    return module


def _why_pure(editable: bool) -> str | None:
    """Why this build stays pure (None: compile)."""
    if editable:
        return "an editable install runs the sources themselves"
    if os.environ.get("OAKWOOD_PURE"):
        return "OAKWOOD_PURE is set"
    if importlib.util.find_spec("mypyc") is None:
        return "mypy (which ships mypyc) is not installed in the build environment"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]  # CC: as setuptools
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) is installed"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "Python's C headers (Python.h; Debian: python3-dev) are not installed"
    return None


def compile_in_parallel(compiler: Any, jobs: int) -> None:
    """Make ``compiler`` (a setuptools C compiler) compile one extension's C files on ``jobs`` threads.

    mypyc puts every module in one shared library of many C files (``multi_file``), and setuptools compiles the
    files of one extension one after the other (its ``-j`` runs extensions in parallel): on two cores, this halves
    the build.
    """

    def compile_all(
        sources: list[str],
        output_dir: str | None = None,
        macros: Any = None,
        include_dirs: Any = None,
        debug: bool = False,
        extra_preargs: Any = None,
        extra_postargs: Any = None,
        depends: Any = None,
    ) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            src, ext = build[obj]
            compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(max(1, jobs)) as pool:
            list(pool.map(one, objects))  # list(): raise the first failure
        return list(objects)

    compiler.compile = compile_all


class BuildCompiled(build_ext):
    """Compile Oakwood with mypyc when it can and should; otherwise (or on any failure) build nothing."""

    def finalize_options(self) -> None:
        # Decided before setuptools prepares the extensions: a pure build has none (not even the placeholder).
        self.why_pure = _why_pure(bool(getattr(self, "editable_mode", False)) or bool(self.inplace))
        self.distribution.ext_modules = []
        if self.why_pure is None:
            form = _form()
            paths = [str(path.relative_to(HERE)) for path in form.compiled_sources(HERE / "src" / "oakwood")]
            try:
                from mypyc.build import mypycify

                self.distribution.ext_modules = mypycify(
                    paths,
                    opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
                    multi_file=True,
                    target_dir=str(HERE / "build" / "mypyc-c"),
                )
            except (Exception, SystemExit) as error:  # mypyc refused: the pure form, which behaves the same
                self.why_pure = f"mypyc failed ({type(error).__name__}: {error})"
        super().finalize_options()
        self.jobs = self.parallel if isinstance(self.parallel, int) else len(os.sched_getaffinity(0))
        self.parallel = None  # one extension: its C files compile in parallel instead (build_extension)

    def run(self) -> None:
        if self.why_pure is not None:
            print(f"oakwood: installing the pure Python form: {self.why_pure}", file=sys.stderr)
            return
        try:
            super().run()
        except (Exception, SystemExit) as error:  # the C compiler failed: the pure form, which behaves the same
            print(
                f"oakwood: compiling with mypyc failed ({type(error).__name__}: {error});"
                " installing the pure Python form instead (same behaviour, slower)",
                file=sys.stderr,
            )
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            self.extensions = []
            return
        _form().write_manifest(Path(self.build_lib) / "oakwood")
        print(f"oakwood: compiled {len(self.extensions)} extension modules with mypyc", file=sys.stderr)

    def build_extension(self, ext: Extension) -> None:
        compile_in_parallel(self.compiler, self.jobs)
        super().build_extension(ext)

    def get_outputs(self) -> list[str]:
        outputs = super().get_outputs()
        manifest = Path(self.build_lib) / "oakwood" / "compiled.json"
        return [*outputs, str(manifest)] if manifest.exists() else outputs


if __name__ == "__main__":  # setuptools runs this file as __main__; scripts/build_compiled.py imports it
    setup(ext_modules=[PLACEHOLDER], cmdclass={"build_ext": BuildCompiled})
