"""The compiled modules import only the standard library and Oakwood (issue 36).

``pip install .`` compiles them in an isolated build environment holding setuptools and mypy alone: mypyc
type-checks every module it compiles and what they import, so a compiled module importing numpy (as the RL
encoders do) would fail the build there and silently install the pure form. The encoders' direct paths are
compiled for that reason as separate numpy-free modules (``rl/encoders/*_direct.py``).
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "oakwood"
spec = importlib.util.spec_from_file_location("oakwood_form_for_imports", SOURCE / "form.py")
assert spec is not None and spec.loader is not None
form = importlib.util.module_from_spec(spec)
sys.modules["oakwood_form_for_imports"] = form
spec.loader.exec_module(form)

#: What the isolated build environment has besides the standard library (mypy brings mypy_extensions).
BUILD_ENVIRONMENT = {"oakwood", "mypy_extensions", "typing_extensions"}


def imported_roots(path: Path) -> set[str]:
    """The top-level packages a module imports (relative imports are Oakwood's own)."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_compiled_modules_import_nothing_the_isolated_build_lacks() -> None:
    sources = form.compiled_sources(SOURCE)
    assert any(path.name == "nutty_direct.py" for path in sources)
    assert any(path.name == "squarrels_direct.py" for path in sources)
    outside = {
        path.relative_to(SOURCE).as_posix(): sorted(
            root for root in imported_roots(path) if root not in sys.stdlib_module_names | BUILD_ENVIRONMENT
        )
        for path in sources
    }
    assert {name: roots for name, roots in outside.items() if roots} == {}


def test_the_check_sees_a_third_party_import(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text("import numpy as np\nfrom gymnasium import spaces\nfrom . import cards\nimport os.path\n")
    assert imported_roots(module) == {"numpy", "gymnasium", "os"}
