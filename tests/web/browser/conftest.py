"""Browser tests of the web client: ``oakwood serve`` runs as a subprocess on a free port with a SQLite file of
its own and ``--bot-pace 0``; Playwright drives Debian's Chromium (``playwright install`` cannot download; the
launch settings are in ``tests/conftest.py``, shared with the report tests)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[3]
SCREENS = ROOT / "artifacts" / "screens"


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running ``oakwood serve`` (bots move at once)."""
    db = tmp_path_factory.mktemp("serve") / "oakwood.db"
    port = free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    log = (db.parent / "serve.log").open("wb")
    command = [sys.executable, "-c", "from oakwood.cli.main import main; main()", "serve"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--db", str(db), "--bot-pace", "0"]
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{base}/api/catalog", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"oakwood serve did not start: {(db.parent / 'serve.log').read_text()}")
        time.sleep(0.2)
    yield base
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


@pytest.fixture
def screens() -> Path:
    """Where screenshots go (``artifacts/`` is not committed)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    return SCREENS
