"""A real ``oakwood serve`` for the tests that need one (a process on a free port of loopback, a database of
its own, its output kept), and reading its WebSockets."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    """A running ``oakwood serve``: its process, port, database and log (stdout and stderr together)."""

    process: subprocess.Popen[bytes]
    port: int
    db: str
    log: Path

    @property
    def base(self) -> str:
        """The server's address on loopback."""
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        """Everything the server printed so far."""
        return self.log.read_bytes().decode(errors="replace")

    def stop(self) -> int:
        """SIGTERM, as systemd or a container runtime stops it; the exit status."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"the server did not stop on SIGTERM:\n{self.output()}") from None


def serve(folder: Path, *flags: str, db: str | None = None, name: str = "serve") -> Served:
    """Start ``oakwood serve`` with ``flags`` (on a free port, bots at once) and wait until it answers."""
    port, log = free_port(), folder / f"{name}.log"
    database = db or f"sqlite:///{folder / 'web.db'}"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "200"}
    command = [sys.executable, "-m", "oakwood.cli.main", "serve", "--port", str(port), "--bot-pace", "0"]
    if "--host" not in flags:
        command += ["--host", "127.0.0.1"]
    with log.open("wb") as out:
        process = subprocess.Popen([*command, "--db", database, *flags], stdout=out, stderr=subprocess.STDOUT, env=env)
    served = Served(process, port, database, log)
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, served.output()
        try:
            httpx.get(f"{served.base}/api/catalog", timeout=1)
            return served
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                process.kill()
                raise AssertionError(f"the server did not start:\n{served.output()}") from None
            time.sleep(0.1)


def next_update(ws: ClientConnection) -> dict[str, Any]:
    """The next update on ``ws`` (errors fail the test)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if message["type"] != "pong":
            assert message["type"] == "update", message
            return message
