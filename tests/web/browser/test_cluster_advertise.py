"""A page in Chromium is sent to the process that holds its table (``oakwood serve --redis --advertise-url``),
behind one address that routes a path to each process, as Caddy's ``handle_path /node/NAME/*`` does:

- the page opens at the shared address, whose process does not hold the table; it is told where the table
  lives (``moved``, 4010), connects there at once, and plays with nothing relayed;
- when the holder's address leads nowhere (a proxy without that route), the page asks its own address to relay
  it instead, and plays all the same.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from oakwood.store import open_store
from tests.web.browser.helpers import open_seat, play_a_move, seq
from tests.web.cluster_helpers import LoopbackProxy, RedisServer, node, pump, stop_all
from tests.web.served import Served

pytestmark = pytest.mark.timeout(120)


class PrefixProxy(LoopbackProxy):
    """An HTTP proxy on loopback that routes by path, as Caddy's ``handle_path /node/NAME/*``: a connection whose
    first request is for ``/node/NAME/...`` goes to that process, the prefix stripped; any other to ``default``.
    A route to None leads nowhere (the connection is closed). The route is read from a connection's first
    request only, which is enough here: a WebSocket has a connection of its own."""

    def __init__(self) -> None:
        self.default: int | None = None
        self.routes: dict[str, int | None] = {}
        #: the path of every connection's first request, and where it went (a name, "default" or "nowhere")
        self.seen: list[tuple[str, str]] = []
        super().__init__()

    def address(self, name: str) -> str:
        """The address of process ``name`` behind this proxy (its ``--advertise-url``)."""
        return f"{self.base}/node/{name}"

    def carry(self, client: socket.socket) -> None:
        head = b""
        while b"\r\n" not in head:
            chunk = client.recv(65536)
            if not chunk:
                client.close()
                return
            head += chunk
        line, rest = head.split(b"\r\n", 1)
        method, path, version = line.split(b" ", 2)
        port, went = self.default, "default"
        for name, upstream in self.routes.items():
            prefix = f"/node/{name}".encode()
            if path.startswith(prefix + b"/"):
                path, port, went = path[len(prefix) :], upstream, name
                break
        self.seen.append((path.decode(), went if port is not None else "nowhere"))
        if port is None:
            client.close()
            return
        try:
            upstream_socket = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:  # the process stopped (the test is ending while the page still reconnects)
            client.close()
            return
        upstream_socket.settimeout(None)
        upstream_socket.sendall(b" ".join([method, path, version]) + b"\r\n" + rest)
        threading.Thread(target=pump, args=(upstream_socket, client), daemon=True).start()
        pump(client, upstream_socket)


def cluster(tmp_path: Path, redis_url: str, proxy: PrefixProxy) -> tuple[Served, Served, str]:
    """Two processes behind ``proxy``, each advertising its route: the holder ``a`` and ``b``, which has the
    shared address; and the store's URL."""
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    open_store(db).close()  # the schema first
    a = node(tmp_path, redis_url, db, "a", "--advertise-url", proxy.address("a"))
    b = node(tmp_path, redis_url, db, "b", "--advertise-url", proxy.address("b"))
    proxy.routes = {"a": a.port, "b": b.port}
    proxy.default = b.port
    return a, b, db


def play_a_few(page_url: str, browser: Browser, table: str, token: str) -> tuple[str, int]:
    """Open Ann's seat at ``page_url``, play three moves by clicking; the address of the page's socket and the
    last update's seq."""
    page = browser.new_context().new_page()
    open_seat(page, page_url, table, token)
    expect(page.locator("#status")).to_contain_text("playing as Ann", timeout=20_000)
    for _ in range(3):
        play_a_move(page)
    url: str = page.evaluate("() => window.oakwood.ws.url")
    return url, seq(page)


def new_table(at: Served) -> tuple[str, int, str]:
    """A table of Ann against an easy bot, made at ``at``: its id, game id and Ann's token."""
    body = {"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "Ann"}
    made = httpx.post(f"{at.base}/api/tables", json=body, timeout=10).json()
    return made["table"]["id"], made["table"]["game_id"], made["token"]


def test_the_page_is_sent_to_the_process_holding_its_table_and_plays_there(
    browser: Browser, tmp_path: Path, redis_server: RedisServer
) -> None:
    proxy = PrefixProxy()
    a, b, db = cluster(tmp_path, redis_server.url, proxy)
    try:
        table, game_id, token = new_table(a)
        url, last = play_a_few(proxy.base, browser, table, token)
        assert url == f"ws://127.0.0.1:{proxy.port}/node/a/ws/tables/{table}", "the page talks to the holder"
        sockets = [went for path, went in proxy.seen if path.startswith("/ws/")]
        assert sockets[:2] == ["default", "a"], "one socket at the shared address, sent on to the holder's"
        with open_store(db) as store:
            assert len(store.get_game(game_id).actions) >= last
    finally:
        proxy.close()
        stop_all([a, b])


def test_a_page_that_cannot_reach_the_holder_s_address_is_relayed(
    browser: Browser, tmp_path: Path, redis_server: RedisServer
) -> None:
    proxy = PrefixProxy()
    a, b, _ = cluster(tmp_path, redis_server.url, proxy)
    proxy.routes["a"] = None  # the proxy has no route to a: its address leads nowhere
    try:
        table, _, token = new_table(a)
        url, _ = play_a_few(proxy.base, browser, table, token)
        assert url == f"ws://127.0.0.1:{proxy.port}/ws/tables/{table}?relay=1", "relayed by the shared address"
        sockets = [went for path, went in proxy.seen if path.startswith("/ws/")]
        assert sockets[:3] == ["default", "nowhere", "default"]
    finally:
        proxy.close()
        stop_all([a, b])
