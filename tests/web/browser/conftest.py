"""Browser tests of the web client: ``oakwood serve`` runs as a subprocess on a free port with a SQLite file of
its own and ``--bot-pace 0``; Playwright drives Debian's Chromium (``playwright install`` cannot download)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
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


@pytest.fixture
def screens() -> Path:
    """Where screenshots go (``artifacts/`` is not committed)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    return SCREENS
