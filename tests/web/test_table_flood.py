"""Nobody locks the others out: a flood of new tables from one address is refused (429) while other addresses
create theirs, the server's cap on tables cannot be reached from one address, and a table nobody plays at
expires and stays gone after a restart.

The app sits behind a trusted proxy here (the test client's peer is 127.0.0.1, trusted by default), so each
request names its client in ``X-Forwarded-For``; one test checks the peer is believed, not the header, when the
peer is no trusted proxy."""

from __future__ import annotations

import ipaddress
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from oakwood.cli.main import app as cli
from oakwood.store import ABANDONED, open_store
from oakwood.store.models import RUNNING
from oakwood.web import registry as registry_module
from oakwood.web.app import CREATE_BURST, RateLimiter, ServerSettings, client_address, create_app, trusted_networks
from oakwood.web.registry import Registry, TableLimits
from oakwood.web.room import RoomSettings
from tests.web.conftest import hello, send, until
from tests.web.test_restart import free_port

pytestmark = pytest.mark.timeout(60)
ROOT = Path(__file__).resolve().parents[2]

Make = Callable[..., TestClient]
WAITING = ["human", "human"]  # a table that waits for a second person
AGAINST_BOTS = ["human", "easy"]


@pytest.fixture
def make(tmp_path: Path) -> Iterator[Make]:
    """Make a test client of a fresh app on one SQLite file (the same for every app of a test: a second one is
    the server restarted); keyword arguments set :class:`ServerSettings`, ``limits`` its table limits, and
    ``peer`` the address requests come from (127.0.0.1, a trusted proxy, by default)."""
    clients: list[TestClient] = []
    database = f"sqlite:///{tmp_path / 'web.db'}"

    def build(peer: str = "127.0.0.1", limits: TableLimits | None = None, **settings: Any) -> TestClient:
        config = ServerSettings(
            db=database,
            room=RoomSettings(bot_pace=0.0),
            bot_threads=2,
            tables=limits or TableLimits(),
            **settings,
        )
        client = TestClient(create_app(config), client=(peer, 50000))
        client.__enter__()
        clients.append(client)
        return client

    yield build
    for client in reversed(clients):
        client.__exit__(None, None, None)


def post_table(client: TestClient, seats: list[str], address: str | None = None, name: str = "Ann") -> Any:
    """``POST /api/tables`` from ``address`` (through the trusted proxy; None: the peer itself)."""
    headers = {} if address is None else {"X-Forwarded-For": address}
    body = {"game": "barrell", "players": len(seats), "seats": seats, "name": name}
    return client.post("/api/tables", json=body, headers=headers)


def begin(client: TestClient, address: str) -> Any:
    """A table against a bot, created from ``address``, whose first move was played; the creation's answer."""
    answer = post_table(client, AGAINST_BOTS, address).json()
    with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
        update = hello(ws, answer["token"])
        if update["legal"]:
            send(ws, type="act", seq=update["seq"], action=update["legal"][0]["index"])
        until(ws, lambda u: u["seq"] > 0)
    return answer


def registry_of(client: TestClient) -> Registry:
    """The app's registry."""
    registry: Registry = client.app.state.registry  # type: ignore[attr-defined]
    return registry


def expire(client: TestClient, later: float) -> list[str]:
    """Look for idle tables as the registry's sweep does, ``later`` seconds from now; the ids removed."""
    registry = registry_of(client)
    assert client.portal is not None
    gone: list[str] = client.portal.call(registry.expire_idle, time.monotonic() + later)
    return gone


def stored(tmp_path: Path, game_id: int) -> tuple[str, int]:
    """A game's stored status, and how many table rows point at it."""
    with open_store(f"sqlite:///{tmp_path / 'web.db'}") as store:
        return store.get_game(game_id).status, len(store.web_tables(game_id=game_id))


# ---------------------------------------------------------------------------------------------- the rate limit
def test_a_flood_from_one_address_is_refused_while_another_address_creates(make: Make) -> None:
    client = make(limits=TableLimits(unstarted_per_client=100, open_per_client=100))  # the rate limit alone
    answers = [post_table(client, AGAINST_BOTS, "198.51.100.7") for _ in range(CREATE_BURST + 20)]
    assert [a.status_code for a in answers[:CREATE_BURST]] == [201] * CREATE_BURST
    refused = answers[CREATE_BURST:]
    assert {a.status_code for a in refused} == {429}
    assert {a.json()["error"]["code"] for a in refused} == {"rate_limited"}
    retry = int(refused[0].headers["Retry-After"])
    assert 1 <= retry <= 15 and f"try again in {retry} s" in refused[0].json()["error"]["message"]
    # another address, and this machine itself, create as if nothing happened
    assert post_table(client, AGAINST_BOTS, "198.51.100.8").status_code == 201
    assert post_table(client, AGAINST_BOTS, "2001:db8:1:2::1").status_code == 201
    assert post_table(client, AGAINST_BOTS).status_code == 201  # 127.0.0.1 with no forwarded client
    assert len(client.get("/api/tables").json()["tables"]) == CREATE_BURST + 3


def test_a_refused_form_costs_no_token(make: Make) -> None:
    client = make()
    bad = {"game": "barrell", "players": 2, "seats": ["human", "god"], "name": "Ann"}
    for _ in range(CREATE_BURST + 5):  # a person correcting their form, again and again
        answer = client.post("/api/tables", json=bad, headers={"X-Forwarded-For": "198.51.100.7"})
        assert answer.json()["error"]["code"] == "bad_request"
    assert post_table(client, AGAINST_BOTS, "198.51.100.7").status_code == 201


def test_forwarded_for_is_not_believed_from_a_peer_that_is_no_trusted_proxy(make: Make) -> None:
    client = make(peer="203.0.113.9", limits=TableLimits(unstarted_per_client=100, open_per_client=100))
    codes = [post_table(client, AGAINST_BOTS, f"198.51.100.{n}").status_code for n in range(CREATE_BURST + 3)]
    assert codes == [201] * CREATE_BURST + [429] * 3  # a fresh X-Forwarded-For each time changes nothing


def test_the_bucket_refills_at_its_rate() -> None:
    limiter = RateLimiter(burst=3, per_minute=4.0)
    for _ in range(3):
        assert limiter.wait("a", 100.0) == 0.0
        limiter.take("a", 100.0)
    assert limiter.wait("a", 100.0) == pytest.approx(15.0)
    assert limiter.wait("a", 110.0) == pytest.approx(5.0)
    assert limiter.wait("a", 115.0) == 0.0  # one token back after 15 s
    assert limiter.wait("b", 100.0) == 0.0  # another client is another bucket
    assert limiter.wait("a", 1000.0) == 0.0 and limiter._tokens("a", 1000.0) == 3.0  # never more than the burst


def test_the_limiter_forgets_clients_without_losing_the_flooders() -> None:
    limiter = RateLimiter(burst=2, per_minute=60.0, max_clients=4)
    for _ in range(2):
        limiter.take("flooder", 0.0)
    for n in range(10):  # many clients, each long done by the time the next comes
        limiter.take(f"person{n}", 1000.0 + 100 * n)
        limiter.take("flooder", 1000.0 + 100 * n)
        limiter.take("flooder", 1000.0 + 100 * n)
    assert len(limiter._buckets) <= 4
    assert limiter.wait("flooder", 1900.0) > 0  # its bucket was empty, so it was never the one forgotten


PROXIES = trusted_networks(["127.0.0.0/8", "::1/128", "10.0.0.0/8"])


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("203.0.113.9", [], "203.0.113.9"),
        ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),  # not a trusted proxy: its header is the client's
        ("127.0.0.1", [], None),  # this machine
        ("::1", [], None),
        (None, [], None),  # a Unix socket
        ("127.0.0.1", ["198.51.100.1"], "198.51.100.1"),
        ("127.0.0.1", ["6.6.6.6, 198.51.100.1"], "198.51.100.1"),  # the client's own claim is to the left
        ("127.0.0.1", ["6.6.6.6", "198.51.100.1, 10.1.2.3"], "198.51.100.1"),  # two proxies, two headers
        ("127.0.0.1", ["10.1.2.3, 10.9.9.9"], "10.1.2.3"),  # every hop a proxy: the first of them
        ("127.0.0.1", ["198.51.100.1, junk"], None),  # no address: the walk ends at the last trusted hop
        ("127.0.0.1", ["127.0.0.1"], None),
        ("127.0.0.1", ["198.51.100.1:4711"], "198.51.100.1"),
        ("127.0.0.1", ["[2001:db8::5]:443"], "2001:db8::/64"),
        ("127.0.0.1", ["2001:db8:0:0:ffff::1"], "2001:db8::/64"),  # an IPv6 client is its /64
        ("::ffff:127.0.0.1", ["198.51.100.1"], "198.51.100.1"),  # an IPv4 peer seen through IPv6
        ("::ffff:203.0.113.9", [], "203.0.113.9"),
        ("testclient", [], "testclient"),
    ],
)
def test_whom_a_request_counts_against(peer: str | None, forwarded: list[str], client: str | None) -> None:
    assert client_address(peer, forwarded, PROXIES) == client


def test_no_trusted_proxy_reads_no_header() -> None:
    assert client_address("127.0.0.1", ["198.51.100.1"], ()) is None
    assert client_address("10.0.0.1", ["198.51.100.1"], trusted_networks([])) == "10.0.0.1"
    assert str(ipaddress.ip_network("10.0.0.1", strict=False)) == "10.0.0.1/32"


# ---------------------------------------------------------------------------------------------- the caps
def test_the_servers_cap_cannot_be_reached_from_one_address(make: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry_module, "MAX_TABLES", 8)
    client = make()
    answers = [post_table(client, WAITING, "198.51.100.7") for _ in range(8)]
    assert [a.status_code for a in answers] == [201] * 5 + [429] * 3
    assert {a.json()["error"]["code"] for a in answers[5:]} == {"too_many_waiting"}
    assert "nobody has played at yet" in answers[5].json()["error"]["message"]
    # the same with tables against bots that nobody has opened yet (paused before their first move)
    assert post_table(client, AGAINST_BOTS, "198.51.100.7").json()["error"]["code"] == "too_many_waiting"
    # room is left for everyone else, until the server's own cap
    assert [post_table(client, WAITING, "198.51.100.8").status_code for _ in range(3)] == [201] * 3
    full = post_table(client, WAITING, "198.51.100.9")
    assert full.status_code == 503 and full.json()["error"]["code"] == "too_many_tables"


def test_games_going_on_are_capped_per_address(make: Make) -> None:
    client = make(limits=TableLimits(open_per_client=2))
    begun = [begin(client, "198.51.100.7") for _ in range(2)]  # two games, each past its first move
    refused = post_table(client, AGAINST_BOTS, "198.51.100.7")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_open", refused.text
    assert "finish or give up" in refused.json()["error"]["message"]
    assert post_table(client, AGAINST_BOTS, "198.51.100.8").status_code == 201  # another address is not held
    given_up = client.post(f"/api/tables/{begun[0]['table']['id']}/abandon", json={"token": begun[0]["token"]})
    assert given_up.status_code == 200, given_up.text
    assert post_table(client, AGAINST_BOTS, "198.51.100.7").status_code == 201  # its place is free again


def test_a_game_given_up_frees_its_place(make: Make) -> None:
    client = make(limits=TableLimits(unstarted_per_client=1))
    first = post_table(client, WAITING, "198.51.100.7").json()
    assert post_table(client, WAITING, "198.51.100.7").json()["error"]["code"] == "too_many_waiting"
    given_up = client.post(f"/api/tables/{first['table']['id']}/abandon", json={"token": first["token"]})
    assert given_up.status_code == 200, given_up.text
    assert post_table(client, WAITING, "198.51.100.7").status_code == 201


# ---------------------------------------------------------------------------------------------- expiry
def test_a_table_nobody_joins_expires_and_does_not_come_back_after_a_restart(make: Make, tmp_path: Path) -> None:
    client = make(limits=TableLimits(idle_seconds=0.2))  # the registry's own sweep, every 0.05 s
    answer = post_table(client, WAITING, "198.51.100.7").json()
    table_id, game_id = answer["table"]["id"], answer["table"]["game_id"]
    deadline = time.monotonic() + 15
    while client.get(f"/api/tables/{table_id}").status_code == 200:
        assert time.monotonic() < deadline, "the table never expired"
        time.sleep(0.05)
    assert client.get(f"/api/tables/{table_id}").json()["error"]["code"] == "unknown_table"
    assert stored(tmp_path, game_id) == (ABANDONED, 0)  # given up, and its table row gone
    lobby = client.get("/api/tables").json()
    assert lobby["tables"] == [] and lobby["history"] == []  # a table nobody played is no history
    restarted = make()
    assert restarted.get(f"/api/tables/{table_id}").status_code == 404
    assert restarted.get("/api/tables").json() == {"tables": [], "history": []}


def test_only_idle_unstarted_tables_expire(make: Make, tmp_path: Path) -> None:
    client = make()  # 30 minutes; the test moves the clock instead of waiting
    waiting = post_table(client, WAITING, "198.51.100.7").json()
    waiting_id = waiting["table"]["id"]
    begun = begin(client, "198.51.100.7")
    assert expire(client, 60) == []  # a minute: nothing is idle yet
    with client.websocket_connect(f"/ws/tables/{waiting_id}") as ws:
        hello(ws, waiting["token"])  # Ann waits at her table for a friend
        assert expire(client, 3600) == []
    # she left just now: her table is idle from now, not from its creation
    assert expire(client, 1700) == []
    assert expire(client, 1900) == [waiting_id]
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [begun["table"]["id"]]  # a game begun is never expired
    assert stored(tmp_path, begun["table"]["game_id"]) == (RUNNING, 1)


def test_a_waiting_table_from_before_a_restart_expires_once_idle(make: Make, tmp_path: Path) -> None:
    first = make()
    answer = post_table(first, WAITING, "198.51.100.7").json()
    table_id = answer["table"]["id"]
    restarted = make()
    assert restarted.get(f"/api/tables/{table_id}").json()["status"] == "waiting"  # back, as every table is
    assert expire(restarted, 1900) == [table_id]
    assert make().get(f"/api/tables/{table_id}").status_code == 404


def test_an_expired_table_frees_its_creators_place(make: Make) -> None:
    client = make(limits=TableLimits(unstarted_per_client=2))
    for _ in range(2):
        assert post_table(client, WAITING, "198.51.100.7").status_code == 201
    assert post_table(client, WAITING, "198.51.100.7").json()["error"]["code"] == "too_many_waiting"
    assert len(expire(client, 3600)) == 2
    assert post_table(client, WAITING, "198.51.100.7").status_code == 201


# ---------------------------------------------------------------------------------------------- oakwood serve
def serve(tmp_path: Path, *flags: str) -> tuple[subprocess.Popen[bytes], str]:
    """``oakwood serve`` with ``flags`` as a subprocess on a free port, once it answers; the process and its base."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "oakwood.cli.main", "serve", "--port", str(port), "--bot-pace", "0", *flags]
    server = subprocess.Popen(
        [*command, "--db", f"sqlite:///{tmp_path / f'{port}.db'}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        assert server.poll() is None, "the server stopped"
        try:
            httpx.get(f"{base}/api/tables", timeout=1)
            return server, base
        except httpx.HTTPError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)


@pytest.mark.parametrize(("flags", "limited"), [((), True), (("--trusted-proxy", "none"), False)])
def test_oakwood_serve_reads_forwarded_for_from_its_trusted_proxies_only(
    tmp_path: Path, flags: tuple[str, ...], limited: bool
) -> None:
    server, base = serve(tmp_path, "--expire-minutes", "5", *flags)
    try:
        body = {"game": "barrell", "players": 2, "seats": WAITING, "name": "Ann"}
        headers = {"X-Forwarded-For": "198.51.100.7"}
        codes = [httpx.post(f"{base}/api/tables", json=body, headers=headers).status_code for _ in range(6)]
    finally:
        server.terminate()
        server.wait(10)
    # by default loopback is a trusted proxy, so the header names the client (and uvicorn's own reading of it is
    # off, so that trusting nobody means the header is never read: the request is this machine's, not limited)
    assert codes == ([201] * 5 + [429] if limited else [201] * 6)


def test_oakwood_serve_refuses_a_bad_proxy_or_expiry_in_one_line() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["serve", "--trusted-proxy", "10.0.0.300"], env={"COLUMNS": "200"})
    assert result.exit_code != 0 and "--trusted-proxy 10.0.0.300" in result.output
    assert "Traceback" not in result.output
    result = runner.invoke(cli, ["serve", "--expire-minutes", "0"], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "--expire-minutes" in result.output
