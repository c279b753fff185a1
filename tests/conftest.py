"""Every test stores its games in a database of its own, never in the user's (``OAKWOOD_DB``); tests that
take ``store_url`` run once against SQLite and once against PostgreSQL, each in a database of its own.
Ctrl-C reaches the tests' processes as a terminal delivers it, however the suite was started."""

from __future__ import annotations

import itertools
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from oakwood.store import ENV_VARIABLE
from tests.store import postgres

_numbers = itertools.count()

# A suite started in the background (``make test &``, ``nohup``) inherits SIGINT ignored, and so would every
# command the tests start: then ``simulate`` rightly ignores the Ctrl-C the stop tests send it. Python's own
# handler here makes each started command begin with the default, as in a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A SQLite file under the test's temporary directory, through the environment (so that commands run in
    subprocesses use it too); the path is returned for tests that read it."""
    path = tmp_path / "oakwood-test.db"
    monkeypatch.setenv(ENV_VARIABLE, f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[postgres.Cluster]:
    """One PostgreSQL server for the whole session (a worker's own under pytest-xdist)."""
    try:
        cluster = postgres.start()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield cluster
    cluster.stop()


def fresh_postgres_database(cluster: postgres.Cluster) -> str:
    """A new, empty database on the server; its URL."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"oakwood_test_{worker}_{os.getpid()}_{next(_numbers)}"
    admin = create_engine(cluster.url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return make_url(cluster.url).set(database=name).render_as_string(hide_password=False)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database: a SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return fresh_postgres_database(request.getfixturevalue("postgres_cluster"))


# ---------------------------------------------------------------------- browsers (Playwright)
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, quiet: no sandbox (containers), no GPU, no network of its own. Without it the
    browser tests fail and say what to install (as the PostgreSQL store tests do), never skip."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM}: apt-get install -y chromium")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A desktop-sized window unless a test asks for another."""
    return {**browser_context_args, "viewport": {"width": 1366, "height": 768}}
