"""Every test stores its games in a database of its own, never in the user's (``OAKWOOD_DB``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oakwood.store import ENV_VARIABLE


@pytest.fixture(autouse=True)
def private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A SQLite file under the test's temporary directory, through the environment (so that commands run in
    subprocesses use it too); the path is returned for tests that read it."""
    path = tmp_path / "oakwood-test.db"
    monkeypatch.setenv(ENV_VARIABLE, f"sqlite:///{path}")
    return path
