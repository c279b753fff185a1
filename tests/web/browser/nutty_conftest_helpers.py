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


TARGET = "async ([item, obs]) => (await import('/static/js/games/nutty.js')).targetOf(item, obs)"


def _carried(board: dict[str, Any]) -> int:
    return int(board["cheeks"]["brown"] + board["cheeks"]["golden"] + (1 if board["backpack"] else 0))


def _place(text: str) -> tuple[int, int] | None:
    if not text.startswith("L"):
        return None
    limb, pos = text[1:].split("c")
    return int(limb) - 1, int(pos) - 1


def choose(update: dict[str, Any]) -> dict[str, Any]:
    """A simple squirrel: bury and stash on the trunk, gather what lies here, claim powers, flip, go home when
    carrying, else out to acorns or a face-down card; end the turn when nothing else is worth it."""
    obs = update["observation"]
    legal = update["legal"]
    seat = obs["current"]
    board = obs["boards"][seat]
    solo = obs["mode"] == "solo"
    by_text = {item["notation"]: item for item in legal}

    def first(*texts: str) -> dict[str, Any] | None:
        for text in texts:
            if text in by_text:
                return by_text[text]
        return None

    pick = first("bury golden", "bury brown") if not solo else None
    pick = pick or (first("stash golden", "stash brown") if solo else None)
    pick = pick or first("gather golden", "gather brown", "claim", "flip", "exchange nest", "exchange cheeks")
    if pick:
        return pick
    for verb in ("exchange", "bribe"):
        for item in legal:
            if item["verb"] == verb:
                return item
    moves = [item for item in legal if item["verb"] == "move" and " with " not in item["notation"]]
    full = _carried(board) >= 2 or (solo and _carried(board) >= 1)
    here = _place(board["at"])
    if full and moves:
        home = first("move trunk")
        if home:
            return home
        inward = [m for m in moves if (p := _place(m["notation"].split()[1])) and here and p[1] < here[1]]
        if inward:
            return inward[0]
    outward = []
    for item in moves:
        target = _place(item["notation"].split()[1])
        if target is None:
            continue
        card = obs["tree"][target[0]][target[1]]
        if card["card"] == "BB":
            continue
        value = card["brown"] + 5 * card["golden"]
        worth = 2 if card["card"] is None else int(value >= (2 if solo else 1))  # a solo step out costs 1
        if worth:
            outward.append((worth, item))
    if outward and not full:
        outward.sort(key=lambda pair: -pair[0])
        return outward[0][1]
    if _carried(board) and first("move trunk"):
        return by_text["move trunk"]
    end = first("end")
    if end:
        return end
    plain = [item for item in legal if item["verb"] != "end game" and " with " not in item["notation"]]
    if solo and not plain:
        return by_text["end game"]
    return plain[0] if plain else legal[0]


def click_action(page: Any, item: dict[str, Any], update: dict[str, Any]) -> str:
    """Play ``item`` by clicking the thing it acts on, then its line in the menu if that thing offers several.
    Returns how it was played (``board``, ``menu``)."""
    key = page.evaluate(TARGET, [item, update["observation"]])
    how = "board"
    if key == "turn":
        page.click(f'#game .nt-turn-button[data-index="{item["index"]}"]')
    else:
        page.click(f'#game [data-target="{key}"].nt-actionable')
        menu = page.locator(f'#game .nutty-menu .nt-menu-item[data-index="{item["index"]}"]')
        if menu.count():
            menu.click()
            how = "menu"
    if item.get("warning"):  # the player is asked to confirm a move that ends a solo game short of 20…
        page.click("#confirm-dialog[open] #confirm-yes")
    return how
