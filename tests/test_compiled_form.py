"""The compiled form's guard against stale code (issue 36, oakwood/form.py): a build older than its sources is
refused on import, whichever file changed, and ``oakwood --version`` says which form runs.

The builds here are copies of the package with a manifest and no compiled module: the guard judges files, not
extension modules, so these tests need no C compiler and take a second.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import oakwood
from oakwood import form

SOURCE = Path(oakwood.__file__).resolve().parent


def _copy(target: Path) -> Path:
    shutil.copytree(SOURCE, target, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", ".*", form.MANIFEST))
    return target


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """(sources, build): a copy of the sources and a build copied from them, with its manifest."""
    sources = _copy(tmp_path / "src" / "oakwood")
    build = _copy(tmp_path / "build" / "oakwood")
    form.write_manifest(build, origin=sources)
    return sources, build


def _import(build: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(build.parent))
    code = "import oakwood, oakwood.form as f; print(f.inspect().describe())"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)


def test_a_fresh_build_imports(tree: tuple[Path, Path]) -> None:
    _, build = tree
    assert form.inspect(build).stale == ()
    done = _import(build)
    assert done.returncode == 0, done.stderr
    assert str(build) in done.stdout


@pytest.mark.parametrize("name", ["engine/rng.py", "games/nutty/tree.py", "web/app.py", "games/barrell/rules.md"])
def test_an_edited_source_makes_the_build_refused(tree: tuple[Path, Path], name: str) -> None:
    sources, build = tree
    (sources / name).write_text((sources / name).read_text() + "\n# edited\n")
    assert form.inspect(build).stale == (str(sources / name),)
    done = _import(build)
    assert done.returncode != 0
    assert "StaleBuildError" in done.stderr and name in done.stderr and "Rebuild it" in done.stderr


def test_an_edit_reverted_is_fresh_again(tree: tuple[Path, Path]) -> None:
    sources, build = tree
    path = sources / "engine" / "state.py"
    text = path.read_text()
    path.write_text(text + "# edited\n")
    assert form.inspect(build).stale
    path.write_text(text)  # a new time, the same bytes: the hash decides
    assert form.inspect(build).stale == ()


def test_an_edited_copy_and_an_added_source_are_stale(tree: tuple[Path, Path]) -> None:
    sources, build = tree
    (build / "engine" / "game.py").write_text("# changed in the build itself\n")
    (sources / "games" / "squarrels" / "new_module.py").write_text("X = 1\n")
    stale = form.inspect(build).stale
    assert str(build / "engine" / "game.py") in stale
    assert str(sources / "games" / "squarrels" / "new_module.py") in stale


def test_without_a_manifest_the_form_is_pure(tmp_path: Path) -> None:
    found = form.inspect(_copy(tmp_path / "oakwood"))
    assert not found.compiled and found.stale == ()
    assert found.describe().startswith("pure Python")


def test_the_version_says_the_form() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "oakwood.cli.main", "--version"], capture_output=True, text=True, check=False
    )
    expected = "compiled by mypyc" if form.inspect().compiled else "pure Python"
    assert done.returncode == 0, done.stderr
    assert expected in " ".join(done.stdout.split())


def test_what_is_compiled_exists() -> None:
    names = [path.relative_to(SOURCE).as_posix() for path in form.compiled_sources(SOURCE)]
    assert all((SOURCE / name).exists() for name in names)
    assert "engine/state.py" in names and "agents/ismcts.py" in names and "games/nutty/state.py" in names
    assert not any(name.endswith(("options.py", "errors.py")) for name in names)


def _setup_hooks() -> ModuleType:
    """setup.py loaded by path (it runs ``setup()`` only as ``__main__``)."""
    path = Path(__file__).resolve().parents[1] / "setup.py"
    spec = importlib.util.spec_from_file_location("oakwood_setup_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_install_stays_pure_when_editable_asked_or_unable(monkeypatch: pytest.MonkeyPatch) -> None:
    hooks = _setup_hooks()
    monkeypatch.delenv("OAKWOOD_PURE", raising=False)
    assert "editable" in hooks._why_pure(editable=True)
    monkeypatch.setenv("OAKWOOD_PURE", "1")
    assert "OAKWOOD_PURE" in hooks._why_pure(editable=False)
    monkeypatch.delenv("OAKWOOD_PURE")
    monkeypatch.setattr(hooks.shutil, "which", lambda name: None)
    why = hooks._why_pure(editable=False)
    assert why is not None
    if importlib.util.find_spec("mypyc") is not None:  # else that is the reason given first
        assert "no C compiler" in why
