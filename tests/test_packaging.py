"""What an installed Oakwood holds: every data file of the package (rules, the browser client, migrations…) is
named by ``package-data``, so a wheel is as complete as the editable install the tests run on."""

from __future__ import annotations

import tomllib
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "oakwood"


def shipped(path: PurePosixPath, patterns: list[str]) -> bool:
    """Whether ``path`` (relative to the package) matches one of setuptools' ``package-data`` glob patterns."""
    return any(len(path.parts) == len(PurePosixPath(p).parts) and path.match(p) for p in patterns)


def test_every_data_file_of_the_package_goes_into_the_wheel() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["oakwood"]
    data = [
        PurePosixPath(path.relative_to(PACKAGE).as_posix())
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    ]
    assert any(str(path).startswith("web/static/") for path in data)
    missing = [str(path) for path in data if not shipped(path, patterns)]
    assert not missing, f"not in [tool.setuptools.package-data]: {missing}"
