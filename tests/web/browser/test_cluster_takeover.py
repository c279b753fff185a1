"""A player in Chromium keeps playing when the process holding their table is killed (``oakwood serve --redis``
on two processes), never reloading the page:

- the page open at one process and its table held by the other (every frame relayed through Redis): the holder
  gets SIGKILL, the process the page talks to takes the table over from the store and closes the page's
  connection with 4010, and the page reconnects and plays on;
- the page open at the holder itself, through a load balancer (a small one here, sending each connection to the
  first process that accepts it, as Caddy's does once a process is down): the holder gets SIGKILL, the page's
  connection is lost, and its reconnections reach the other process, which takes the table over.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from oakwood.store import open_store
from tests.web.browser.helpers import open_seat, play_a_move, play_one, seq, update
from tests.web.cluster_helpers import LoopbackProxy, RedisServer, nodes, pump, stop_all
from tests.web.served import Served

pytestmark = pytest.mark.timeout(120)


class Balancer(LoopbackProxy):
    """A TCP load balancer on loopback: each connection goes to the first of ``ports`` that accepts it, its
    bytes copied both ways until either side closes."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        super().__init__()

    def carry(self, client: socket.socket) -> None:
        upstream = None
        for port in self.ports:
            with contextlib.suppress(OSError):
                upstream = socket.create_connection(("127.0.0.1", port), timeout=2)
                break
        if upstream is None:
            client.close()
            return
        upstream.settimeout(None)
        threading.Thread(target=pump, args=(upstream, client), daemon=True).start()
        pump(client, upstream)


def play_across_the_kill(page: Page, holder: Served, db: str, game_id: int, closed_with: int | None) -> None:
    """The page, at its table, plays a few moves; the table's holder is killed; the page reconnects by itself
    (its first socket closed with ``closed_with``, if given), is sent the position where it left it, and plays
    a move at the table's new process, never reloaded."""
    expect(page.locator("#status")).to_contain_text("playing as Ann", timeout=15_000)
    for _ in range(3):  # a few moves by clicking, each stored at the holder before the page is shown it
        play_one(page)
    page.wait_for_function("() => window.oakwood.update.legal.length > 0", timeout=20_000)
    before = update(page)
    # what would not survive a reload: a mark on the window, and the socket the page has now
    page.evaluate(
        "() => { window.notReloaded = true; window.firstSocket = window.oakwood.ws;"
        " window.firstSocket.addEventListener('close', (e) => { window.closedWith = e.code; }); }"
    )

    holder.process.send_signal(signal.SIGKILL)
    holder.process.wait(10)

    page.wait_for_function("() => window.closedWith !== undefined", timeout=30_000)
    if closed_with is not None:
        assert page.evaluate("() => window.closedWith") == closed_with
    page.wait_for_function(
        "(s) => window.oakwood.ws !== null && window.oakwood.ws !== window.firstSocket"
        " && window.oakwood.ws.readyState === WebSocket.OPEN"
        " && window.oakwood.update.seq >= s && window.oakwood.update.legal.length > 0",
        arg=before["seq"],
        timeout=30_000,
    )
    again = update(page)  # where it left it: nothing it was shown is lost
    assert again["seq"] >= before["seq"]
    if again["seq"] == before["seq"]:
        assert again["observation"] == before["observation"]
    expect(page.locator("#status")).to_contain_text("playing as Ann", timeout=15_000)

    # the page plays on at the table's new process: a click is a move, stored and shown
    at = seq(page)
    play_a_move(page)
    assert page.evaluate("() => window.notReloaded === true")
    with open_store(db) as store:
        assert len(store.get_game(game_id).actions) > at


def new_table(holder: Served) -> tuple[str, int, str]:
    """A table of Ann against an easy bot, made at ``holder``: its id, game id and Ann's token."""
    body = {"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "Ann"}
    made = httpx.post(f"{holder.base}/api/tables", json=body, timeout=10).json()
    return made["table"]["id"], made["table"]["game_id"], made["token"]


def test_the_page_resumes_its_game_by_itself_when_the_process_it_is_relayed_to_is_killed(
    browser: Browser, tmp_path: Path, redis_server: RedisServer
) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    holder, relay = nodes(tmp_path, redis_server.url, db, ["holder", "relay"])
    try:
        table, game_id, token = new_table(holder)
        page = browser.new_context().new_page()
        open_seat(page, relay.base, table, token)  # the page talks to the relay; the holder has the table
        play_across_the_kill(page, holder, db, game_id, closed_with=4010)  # moved by the relay once it has it
    finally:
        stop_all([holder, relay])


def test_the_page_resumes_its_game_by_itself_when_its_own_process_is_killed_behind_a_balancer(
    browser: Browser, tmp_path: Path, redis_server: RedisServer
) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    holder, other = nodes(tmp_path, redis_server.url, db, ["holder", "other"])
    balancer = Balancer([holder.port, other.port])
    try:
        table, game_id, token = new_table(holder)
        page = browser.new_context().new_page()
        open_seat(page, balancer.base, table, token)  # through the balancer, to the holder itself
        play_across_the_kill(page, holder, db, game_id, closed_with=None)  # lost with its process: no code
    finally:
        balancer.close()
        stop_all([holder, other])
