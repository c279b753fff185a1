"""Which form of Oakwood runs: the pure Python sources, or modules compiled from them by mypyc (issue 36).

There is one implementation. A compiled build compiles the modules :func:`compiled_sources` lists from the very
same ``.py`` files and writes ``compiled.json`` beside them: a manifest of every file's hash (and, for a
development build in ``build/compiled``, where the sources it was copied from live). On import,
``oakwood`` calls :func:`check`, which refuses a build whose sources changed since it was compiled, so nobody
who edits a ``.py`` ever runs an older compiled module of it: a stale build raises :class:`StaleBuildError`
naming the changed files and the command that rebuilds it.

This module is never compiled (it must be able to judge the compiled ones) and uses the standard library only;
``setup.py`` and ``scripts/build_compiled.py`` load it by path to learn what to compile.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

#: The manifest a compiled build writes beside its modules (absent from the pure form).
MANIFEST = "compiled.json"

#: The packages whose modules are compiled, relative to the ``oakwood`` package directory.
COMPILED_PACKAGES = ("engine", "games/squarrels", "games/barrell", "games/nutty")

#: Single modules compiled besides those packages: the two searches (a time-matched comparison of the expert with
#: PIMC runs both compiled), and the RL encoders' direct paths (``rl/encoders/*_direct.py``), which read the
#: state's fields every step: compiled beside the states they read natively (interpreted, each read of a native
#: field goes through a boxing getter). They import no numpy: ``pip install .`` compiles in an isolated build
#: environment that has none.
COMPILED_MODULES = (
    "agents/ismcts.py",
    "agents/pimc.py",
    "rl/encoders/barrell_direct.py",
    "rl/encoders/nutty_direct.py",
    "rl/encoders/squarrels_direct.py",
)

#: Modules of those packages left interpreted, and why:
#: - ``errors.py`` holds ``InvariantError(RuntimeError)``, and mypyc makes no native class of a RuntimeError
#:   subclass;
#: - ``agent.py``'s ``@runtime_checkable class Agent(Protocol)``: compiled, the class is no longer a protocol to
#:   typing and the decorator raises TypeError on import (``PlayerView``, which every bot's move builds, is in
#:   ``view.py`` for that reason: compiled, re-exported by ``agent.py``);
#: - ``options.py`` (the engine's and every game's): compiled, a frozen dataclass converts or refuses field values
#:   on entry (``target_score=True`` became 1, a float raised TypeError instead of InvalidOptionError), and its
#:   instances no longer unpickle (FrozenInstanceError), so neither did games and states;
#: - ``native.py`` is the decorator's fallback for a machine without mypy_extensions.
INTERPRETED = frozenset({"errors.py", "agent.py", "options.py", "native.py"})


class StaleBuildError(ImportError):
    """A compiled build whose sources changed after it was compiled (it would run older code)."""


def compiled_sources(package: Path) -> list[Path]:
    """The ``.py`` files of ``package`` (an ``oakwood`` package directory) that a compiled build compiles."""
    found = [
        path
        for name in COMPILED_PACKAGES
        for path in sorted((package / name).glob("*.py"))
        if path.name not in INTERPRETED
    ]
    return found + [package / name for name in COMPILED_MODULES]


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def package_files(package: Path) -> list[str]:
    """Every file of a package tree (sources and data) a build is made of, relative to it; no caches, no builds."""
    return sorted(
        path.relative_to(package).as_posix()
        for path in package.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and not any(part.startswith(".") for part in path.relative_to(package).parts)  # editors' and tools' files
        and path.suffix not in {".pyc", ".so", ".pyd"}
        and path.name != MANIFEST
    )


def _signature(path: Path) -> list[int]:
    found = path.stat()
    return [found.st_size, found.st_mtime_ns]


def write_manifest(package: Path, origin: Path | None = None) -> Path:
    """Record every file of ``package`` (its hash, size and time) and, for a copy, of the tree it was copied from.

    Every file counts, not only the compiled modules: an interpreted module or a web page of an older copy would be
    older code too. The sizes and times only make the check quick; the hashes decide.
    """
    files = package_files(package)
    hashes = {name: digest(package / name) for name in files}
    manifest = {
        "files": hashes,
        "compiled": [path.relative_to(package).as_posix() for path in compiled_sources(package)],
        "stat": {name: _signature(package / name) for name in files},
        "origin": str(origin) if origin is not None else None,
        # Only for sources still equal to their copies: one edited while the build ran is found stale at once.
        "origin_stat": {
            name: _signature(origin / name)
            for name in files
            if (origin / name).exists() and digest(origin / name) == hashes[name]
        }
        if origin is not None
        else {},
    }
    target = package / MANIFEST
    target.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return target


@dataclass(frozen=True)
class Form:
    """The form this ``oakwood`` package runs in."""

    compiled: bool
    #: How many modules run compiled (those of the manifest with their extension module present).
    modules: int
    #: Files that differ from (or were added since) those of the build (:func:`check` refuses such a build).
    stale: tuple[str, ...]
    #: Where the package lives.
    location: Path

    def describe(self) -> str:
        """One line for ``oakwood --version``."""
        if not self.compiled:
            return f"pure Python (no compiled modules) from {self.location}"
        state = f"STALE ({', '.join(self.stale)} changed since)" if self.stale else "up to date with its sources"
        return f"compiled by mypyc ({self.modules} modules, {state}) from {self.location}"


def _extension_present(package: Path, relative: str) -> bool:
    source = package / relative
    return any(source.parent.glob(source.stem + ".*.so")) or any(source.parent.glob(source.stem + ".*.pyd"))


def _changed(root: Path, hashes: dict[str, str], signatures: dict[str, list[int]]) -> list[str]:
    """The files under ``root`` that differ from the recorded hashes (a file whose size and time are as
    recorded is taken as unchanged), and those added since."""
    changed = []
    for name, expected in hashes.items():
        path = root / name
        if not path.exists() or (_signature(path) != signatures.get(name) and digest(path) != expected):
            changed.append(str(path))
    changed += [str(root / name) for name in package_files(root) if name not in hashes]
    return changed


def inspect(package: Path | None = None) -> Form:
    """Which form ``package`` (by default this ``oakwood``) is, and whether a compiled one is stale."""
    package = package or Path(__file__).resolve().parent
    manifest_path = package / MANIFEST
    if not manifest_path.exists():
        return Form(compiled=False, modules=0, stale=(), location=package)
    manifest = json.loads(manifest_path.read_text())
    present = [name for name in manifest["compiled"] if _extension_present(package, name)]
    stale = _changed(package, manifest["files"], manifest["stat"])
    origin = manifest.get("origin")
    if origin and Path(origin).is_dir():  # a development build: the sources it was copied from count too
        stale += _changed(Path(origin), manifest["files"], manifest["origin_stat"])
    return Form(compiled=bool(present), modules=len(present), stale=tuple(sorted(set(stale))), location=package)


def check() -> Form:
    """Refuse (:class:`StaleBuildError`) a compiled build older than its sources; return the form otherwise."""
    form = inspect()
    if form.stale:
        raise StaleBuildError(
            f"this compiled Oakwood ({form.location}) is older than its sources: {', '.join(form.stale)} changed"
            " since it was compiled. Rebuild it (make compiled, or pip install . again), or run the pure sources"
            " (unset PYTHONPATH)."
        )
    return form
