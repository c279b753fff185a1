"""Several servers started at the same moment on one new database (``oakwood serve --redis`` on one machine
started by systemd, or a rollout) each open the store, and so each finds no schema and creates it: all of them
start, and the schema is made once. Real processes (Alembic's migration context is one per process): each
imports the store and says it is ready, then all are told to open it in the same instant."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from oakwood.store.database import SCHEMA_REVISION
from tests.conftest import fresh_postgres_database

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
OPENERS = 4
#: One opener: ready once the store is imported, then it opens ``url`` when told to (a line on its input), and
#: prints what became of it.
OPENER = """
import sys
from oakwood.store import open_store
print("ready", flush=True)
sys.stdin.readline()
try:
    open_store(sys.argv[1]).close()
except Exception as exc:
    print(f"{type(exc).__name__}: {exc}", flush=True)
else:
    print("opened", flush=True)
"""


def open_together(url: str) -> list[str]:
    """Open ``url`` from :data:`OPENERS` processes at once; what each one said (``opened``, or its error)."""
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    openers = [
        subprocess.Popen(
            [sys.executable, "-c", OPENER, url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        for _ in range(OPENERS)
    ]
    try:
        for opener in openers:
            assert opener.stdout is not None and opener.stdout.readline().strip() == "ready"
        for opener in openers:  # told one after another within a millisecond or so: all find the database empty
            assert opener.stdin is not None
            opener.stdin.write("go\n")
            opener.stdin.flush()
        return [opener.communicate(timeout=60)[0].strip() for opener in openers]
    finally:
        for opener in openers:
            if opener.poll() is None:
                opener.kill()
                opener.wait()


def test_servers_creating_the_schema_at_once_all_start_and_it_is_made_once(
    store_url: str, request: pytest.FixtureRequest
) -> None:
    for attempt in range(3):  # the race is lost or won by chance: three tries at it, each on a new database
        url = store_url if attempt == 0 else store_url.replace("games.db", f"games{attempt}.db")
        if attempt and "postgresql" in url:
            url = fresh_postgres_database(request.getfixturevalue("postgres_cluster"))
        assert open_together(url) == ["opened"] * OPENERS
        engine = create_engine(url)
        try:
            with engine.connect() as connection:
                versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
        finally:
            engine.dispose()
        assert versions == [SCHEMA_REVISION], "one schema, at the latest revision"
