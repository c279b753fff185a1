"""Fixtures and helpers for the Nutty Squirrels browser tests: Debian's Chromium, a real ``oakwood serve`` in a
subprocess, tables made through ``POST /api/tables``, and a small harness page that plays the part of the
shell (the WebSocket, the move list) until the real shell (static/table.html) is on main.

Named so as not to clash with the browser tests' ``conftest.py`` the shell's helper adds; the test modules
import these fixtures by name.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
SHELL = ROOT / "src" / "oakwood" / "web" / "static" / "table.html"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: The harness page is fulfilled by a route, so Chromium cannot tell it comes from loopback and would refuse its
#: WebSocket to the server as a public page reaching the local network; the real shell's page needs no such flag.
HARNESS_ARGS = ["--disable-features=LocalNetworkAccessChecks"]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments with Debian's Chromium (``playwright install`` cannot download)."""
    args = CHROMIUM_ARGS if SHELL.exists() else CHROMIUM_ARGS + HARNESS_ARGS
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": args}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def nutty_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``oakwood serve`` on a free port with a database of its own and no bot pause; yields its base URL."""
    port = _free_port()
    db = tmp_path_factory.mktemp("nutty-web") / "serve.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "OAKWOOD_DB": f"sqlite:///{db}"}
    code = "import sys; from oakwood.cli.main import main; sys.argv[0] = 'oakwood'; sys.exit(main())"
    command = [sys.executable, "-c", code, "serve", "--port", str(port), "--db", f"sqlite:///{db}"]
    process = subprocess.Popen(
        [*command, "--bot-pace", "0"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/catalog", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    output = process.stdout.read() if process.stdout else ""
                    pytest.fail(f"oakwood serve did not start: {output}")
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def create_table(base: str, **body: Any) -> dict[str, Any]:
    """``POST /api/tables``: the answer ``{table, seat, token}``."""
    request = urllib.request.Request(
        f"{base}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


#: A stand-in for the shell (static/table.html + js/table.js): the WebSocket of docs/web.md, a move list with
#: every legal action as a button, an ARIA live region, and the game module's render. It keeps the last update
#: in window.__nutty for the tests to read.
HARNESS = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nutty Squirrels harness</title>
<style>
  body { margin: 0; background: #10240f; font-family: sans-serif; color: #eee; }
  #game { margin: 6px; }
  #moves { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px; padding: 0; list-style: none; }
  #moves button { font-size: 12px; }
</style></head>
<body>
<div id="game"></div>
<ul id="moves" aria-label="Moves"></ul>
<div id="live" aria-live="polite" class="sr-only"></div>
<script type="module">
import { render, targetOf } from "/static/js/games/nutty.js";
const params = new URLSearchParams(location.search);
const root = document.getElementById("game");
const moves = document.getElementById("moves");
const state = { updates: 0, errors: [], last: null, targetOf, rendered: -1 };
window.__nutty = state;
let previous = null;
const ws = new WebSocket(`ws://${location.host}/ws/tables/${params.get("table")}`);
ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: params.get("token") }));
ws.onmessage = (message) => {
  const msg = JSON.parse(message.data);
  if (msg.type === "error") { state.errors.push(msg); return; }
  if (msg.type !== "update") return;
  const ctx = {
    act: (index) => ws.send(JSON.stringify({ type: "act", seq: msg.seq, action: index })),
    announce: (text) => { document.getElementById("live").textContent = text; },
    seatName: (seat) => {
      const s = msg.table.seats[seat];
      return s.name || (s.kind === "bot" ? `${s.level[0].toUpperCase()}${s.level.slice(1)} bot` : null);
    },
    fourColour: false,
    previous,
  };
  render(root, msg, ctx);
  moves.textContent = "";
  for (const item of msg.legal) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.textContent = item.label;
    b.dataset.index = String(item.index);
    b.onclick = () => ctx.act(item.index);
    li.append(b);
    moves.append(li);
  }
  previous = msg;
  state.last = msg;
  state.updates += 1;
  state.rendered = msg.seq;
};
</script></body></html>"""


class Frames:
    """The messages the page's WebSocket receives, read from its frames: the same with the shell and the harness."""

    def __init__(self, page: Any) -> None:
        self.updates: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        page.on("websocket", lambda socket: socket.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "update":
            self.updates.append(message)
        elif message.get("type") == "error":
            self.errors.append(message)

    def drawn(self, seq: int) -> dict[str, Any]:
        """The newest update with sequence number ``seq``."""
        return next(u for u in reversed(self.updates) if u["seq"] == seq)


def open_table(page: Any, base: str, answer: dict[str, Any]) -> Frames:
    """Open the seat's table: the real page ``/t/{table}`` once the shell is there (the token in localStorage,
    as the lobby leaves it), else the harness. Returns the frames seen from then on."""
    frames = Frames(page)
    table, token = answer["table"]["id"], answer["token"]
    if SHELL.exists():
        page.add_init_script(f"localStorage.setItem({json.dumps('oakwood-token-' + table)}, {json.dumps(token)})")
        page.goto(f"{base}/t/{table}")
    else:
        open_harness(page, base, table, token)
    return frames


def open_harness(page: Any, base: str, table: str, token: str) -> None:
    """Open the harness page for a seat (served from the server's origin through a route, so the module and
    the WebSocket are the real server's)."""
    page.route(f"{base}/harness*", lambda route: route.fulfill(status=200, content_type="text/html", body=HARNESS))
    page.goto(f"{base}/harness?table={table}&token={token}")
