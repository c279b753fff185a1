"""Helpers for the Nutty Squirrels browser tests (the server and Chromium come from this folder's conftest):
tables made through ``POST /api/tables`` with a chosen deal, the updates a page receives read from its
WebSocket frames, and a bare page that draws updates given to it with the game module."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


class Frames:
    """The messages the page's WebSocket receives, read from its frames (the page keeps no copy for us)."""

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


def create_table(base: str, **body: Any) -> dict[str, Any]:
    """``POST /api/tables`` with ``body`` as given (``seed`` chooses the deal): the answer ``{table, seat,
    token}``."""
    request = urllib.request.Request(
        f"{base}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def open_table(page: Any, base: str, answer: dict[str, Any]) -> Frames:
    """Open the seat's table page ``/t/{table}`` with its token in localStorage (as the lobby leaves it).
    Returns the frames seen from then on."""
    frames = Frames(page)
    table, token = answer["table"]["id"], answer["token"]
    page.add_init_script(f"localStorage.setItem({json.dumps('oakwood-token-' + table)}, {json.dumps(token)})")
    page.goto(f"{base}/t/{table}")
    return frames


#: A page that draws an update given to it and records what the module asks to play (no WebSocket).
DRAW_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>draw</title></head>
<body style="margin:0"><div id="game"></div><script type="module">
import { render, targetOf } from "/static/js/games/nutty.js";
window.__acted = [];
window.__previous = null;
window.draw = (update) => {
  render(document.getElementById("game"), update, {
    act: (index) => window.__acted.push(index), announce: () => {}, seatName: (s) => `Seat ${s + 1}`,
    fourColour: false, previous: window.__previous,
  });
  window.__previous = update;
};
window.targetOf = targetOf;
window.ready = true;
</script></body></html>"""


def open_draw_page(page: Any, base: str) -> None:
    """The bare drawing page on the server's origin (a static file is opened first, then replaced, so the
    module is imported from the server)."""
    page.goto(f"{base}/static/css/nutty.css")
    page.set_content(DRAW_PAGE)
    page.wait_for_function("() => window.ready")
