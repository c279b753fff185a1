"""No layer imports a higher one: the engine and the games reach nothing above them (ARCHITECTURE "Layers")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import oakwood

PACKAGE = Path(oakwood.__file__).parent
HIGHER = ("oakwood.agents", "oakwood.arena", "oakwood.store", "oakwood.cli", "oakwood.rl", "oakwood.web")


def imported_modules(path: Path) -> set[str]:
    """Every absolute module name ``path`` imports, at any depth (lazy imports inside functions included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", ["engine", "games"])
def test_the_lower_layers_import_nothing_above_them(layer: str) -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(name for name in imported_modules(path) if name.startswith(HIGHER))
        for path in sorted((PACKAGE / layer).rglob("*.py"))
    }
    assert {path: names for path, names in offenders.items() if names} == {}
