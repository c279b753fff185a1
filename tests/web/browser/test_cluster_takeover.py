"""A player in Chromium keeps playing when the process holding their table is killed: ``oakwood serve --redis``
on two processes, the page open at one of them and its table held by the other (every frame relayed through
Redis); the holder gets SIGKILL, the process the page talks to takes the table over from the store and closes
the page's connection with 4010, and the page reconnects by itself and plays on, never reloaded."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from oakwood.store import open_store
from tests.web.browser.helpers import open_seat, play_one, seq, update
from tests.web.cluster_helpers import RedisServer, nodes, start_redis, stop_all

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A fresh ``redis-server`` for one test, killed after it."""
    server = start_redis(tmp_path / "redis")
    yield server
    server.stop()


def test_the_page_resumes_its_game_by_itself_when_the_table_s_process_is_killed(
    browser: Browser, tmp_path: Path, redis_server: RedisServer
) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    holder, relay = nodes(tmp_path, redis_server.url, db, ["holder", "relay"])
    try:
        body = {"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "Ann"}
        made = httpx.post(f"{holder.base}/api/tables", json=body, timeout=10).json()
        table, game_id = made["table"]["id"], made["table"]["game_id"]
        page = browser.new_context().new_page()
        open_seat(page, relay.base, table, made["token"])  # the page talks to the relay; the holder has the table
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

        # the relay took the table over and moved the page's connection (4010); the page reconnected and was
        # sent the position again, where it left it (nothing it was shown is lost)
        page.wait_for_function("() => window.closedWith !== undefined", timeout=30_000)
        assert page.evaluate("() => window.closedWith") == 4010
        page.wait_for_function(
            "() => window.oakwood.ws !== null && window.oakwood.ws !== window.firstSocket"
            " && window.oakwood.ws.readyState === WebSocket.OPEN && window.oakwood.update.seq >= 0",
            timeout=30_000,
        )
        page.wait_for_function(
            "(s) => window.oakwood.update.seq >= s && window.oakwood.update.legal.length > 0",
            arg=before["seq"],
            timeout=30_000,
        )
        again = update(page)
        assert again["seq"] >= before["seq"]
        if again["seq"] == before["seq"]:
            assert again["observation"] == before["observation"]
        expect(page.locator("#status")).to_contain_text("playing as Ann", timeout=15_000)

        # the page plays on at the table's new process: a click is a move, stored and shown
        at = seq(page)
        assert play_one(page)
        page.wait_for_function("(s) => window.oakwood.update.seq > s", arg=at, timeout=20_000)
        assert page.evaluate("() => window.notReloaded === true")
        with open_store(db) as store:
            assert len(store.get_game(game_id).actions) > at
    finally:
        stop_all([holder, relay])
