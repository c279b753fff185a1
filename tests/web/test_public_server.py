"""What a server reachable by strangers needs: ``--host 0.0.0.0`` and ``--public-url``, ``/healthz``, a clean stop
on SIGTERM, one-line access logs that never hold a token, the WebSocket ``Origin`` check and the security headers.
Tests that need a real process start ``oakwood serve`` on a free port of loopback."""

from __future__ import annotations

import inspect
import json
import logging
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from oakwood.cli.main import app as cli
from oakwood.store import Store
from oakwood.web.app import LOOPBACK, STATIC, public_origin, resolved_address, same_site, trusted_networks
from tests.web.conftest import create, hello
from tests.web.served import Served, next_update, serve

pytestmark = pytest.mark.timeout(60)
runner = CliRunner()


# ---------------------------------------------------------------------------------------------- --host, --public-url
@pytest.mark.parametrize(
    ("given", "origin"),
    [
        ("https://games.example.org", "https://games.example.org"),
        ("https://Games.Example.org/", "https://games.example.org"),
        ("http://games.example.org:8080", "http://games.example.org:8080"),
        ("https://games.example.org:443/", "https://games.example.org"),
        ("http://[2001:db8::1]:8000", "http://[2001:db8::1]:8000"),
    ],
)
def test_a_public_url_becomes_its_origin(given: str, origin: str) -> None:
    assert public_origin(given) == origin


@pytest.mark.parametrize(
    "bad",
    [
        "ftp://games.example.org",
        "games.example.org",
        "https://",
        "https://games.example.org/oakwood",
        "https://games.example.org/?x=1",
        "https://a:b@games.example.org",
        "https://games.example.org:99999",
    ],
)
def test_a_bad_public_url_is_refused_in_one_line(bad: str) -> None:
    result = runner.invoke(cli, ["serve", "--public-url", bad], env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    assert "--public-url" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_the_server_listens_on_every_network_and_names_its_public_url(tmp_path: Path, started: list[Served]) -> None:
    served = serve(tmp_path, "--host", "0.0.0.0", "--public-url", "https://games.example.org/")
    started.append(served)
    assert httpx.get(f"{served.base}/api/catalog", timeout=5).status_code == 200
    assert "Oakwood is at https://games.example.org/" in served.output()


def test_the_server_listens_on_this_machine_only_by_default() -> None:
    from oakwood.cli.serve_command import serve as command

    assert inspect.signature(command).parameters["host"].default == "127.0.0.1"


# ---------------------------------------------------------------------------------------------- /healthz
def test_healthz_says_ok_while_the_store_answers(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok" and response.json()["tables"] == 0
    assert response.headers["cache-control"] == "no-store"


def test_healthz_is_503_when_the_store_does_not_answer(client: TestClient, tmp_path: Path) -> None:
    app: Any = client.app
    working = app.state.store
    broken = Store(sqlalchemy.create_engine(f"sqlite:///{tmp_path / 'nowhere' / 'web.db'}"))
    app.state.store = broken
    try:
        response = client.get("/healthz")
    finally:
        app.state.store = working
        broken.close()
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.headers["cache-control"] == "no-store"


def test_healthz_is_503_when_the_database_lost_its_schema(client: TestClient) -> None:
    app: Any = client.app
    with app.state.store.engine.begin() as connection:
        connection.execute(sqlalchemy.text("DROP TABLE web_tables"))
    assert client.get("/healthz").status_code == 503


# ---------------------------------------------------------------------------------------------- SIGTERM
def test_sigterm_stops_the_server_cleanly_and_keeps_every_move(tmp_path: Path, started: list[Served]) -> None:
    served = serve(tmp_path)
    started.append(served)
    body = {"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "Ann"}
    answer = httpx.post(f"{served.base}/api/tables", json=body, timeout=10).json()
    table, token = answer["table"]["id"], answer["token"]
    url = f"ws://127.0.0.1:{served.port}/ws/tables/{table}"
    with connect(url, open_timeout=10) as ws:  # still open at the SIGTERM: the server closes it itself
        ws.send(json.dumps({"type": "hello", "token": token}))
        update = next_update(ws)
        while not update["legal"]:
            update = next_update(ws)
        ws.send(json.dumps({"type": "act", "seq": update["seq"], "action": update["legal"][0]["index"]}))
        played = next_update(ws)
        while played["seq"] <= update["seq"]:
            played = next_update(ws)
        assert served.stop() == 0, served.output()
    assert "Traceback" not in served.output(), served.output()

    again = serve(tmp_path, db=served.db, name="again")
    started.append(again)
    with connect(f"ws://127.0.0.1:{again.port}/ws/tables/{table}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        restored = next_update(ws)
    # every move a client was told of was stored first: the restarted server has at least those
    assert restored["seq"] >= played["seq"] > update["seq"]
    assert again.stop() == 0 and "Traceback" not in again.output()


# ---------------------------------------------------------------------------------------------- access log
def access_lines(output: str) -> list[dict[str, Any]]:
    """The access log lines in a server's output (every JSON object on a line of its own)."""
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_each_request_and_websocket_is_one_json_line_without_tokens(tmp_path: Path, started: list[Served]) -> None:
    served = serve(tmp_path)
    started.append(served)
    assert httpx.get(f"{served.base}/api/catalog?note=not-logged", timeout=10).status_code == 200
    body = {"game": "barrell", "players": 2, "seats": ["human", "human"], "name": "Ann"}
    answer = httpx.post(f"{served.base}/api/tables", json=body, timeout=10).json()
    table, ann = answer["table"]["id"], answer["token"]
    joined = httpx.post(f"{served.base}/api/tables/{table}/join", json={"name": "Bob"}, timeout=10).json()
    with connect(f"ws://127.0.0.1:{served.port}/ws/tables/{table}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": ann}))
        next_update(ws)
    abandoned = httpx.post(f"{served.base}/api/tables/{table}/abandon", json={"token": ann}, timeout=10)
    assert abandoned.status_code == 200, abandoned.text
    assert served.stop() == 0  # every line is out, the WebSocket's included

    output = served.output()
    lines = access_lines(output)
    for line in lines:
        assert set(line) >= {"time", "client", "method", "path", "status", "ms", "bytes"}, line
    catalog = next(line for line in lines if line["path"] == "/api/catalog")
    assert catalog["method"] == "GET" and catalog["status"] == 200 and catalog["bytes"] > 0
    assert catalog["client"] == "127.0.0.1" and catalog["time"].endswith("Z")
    created = next(line for line in lines if line["path"] == "/api/tables" and line["method"] == "POST")
    assert created["status"] == 201
    socket_line = next(line for line in lines if line["method"] == "WS")
    assert socket_line["path"] == f"/ws/tables/{table}" and socket_line["status"] == 101
    assert socket_line["bytes"] > 0 and socket_line["close"] is not None
    assert any(line["path"].endswith("/abandon") and line["status"] == 200 for line in lines)
    # the query string, the seats' tokens: nowhere
    assert "not-logged" not in output
    for token in (ann, joined["token"]):
        assert token not in output
    # one format: uvicorn's own access lines ("GET /api/catalog HTTP/1.1" 200) are off
    assert "HTTP/1.1" not in output


def test_the_access_log_names_the_client_as_the_limits_do(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    # the test client's peer is "testclient", not a trusted proxy: its X-Forwarded-For is not believed
    with caplog.at_level(logging.INFO, logger="oakwood.access"):
        client.get("/api/catalog", headers={"X-Forwarded-For": "203.0.113.9"})
    line = json.loads(caplog.records[-1].getMessage())
    assert line["client"] == "testclient" and line["path"] == "/api/catalog"


def test_the_access_log_reads_x_forwarded_for_from_a_trusted_proxy() -> None:
    trusted = trusted_networks(LOOPBACK)
    assert resolved_address("127.0.0.1", ["198.51.100.1, 203.0.113.9"], trusted) == "203.0.113.9"
    assert resolved_address("127.0.0.1", [], trusted) == "127.0.0.1"
    assert resolved_address("192.0.2.1", ["203.0.113.9"], trusted) == "192.0.2.1"
    assert resolved_address(None, [], trusted) is None


# ---------------------------------------------------------------------------------------------- Origin
def test_a_websocket_from_another_site_is_refused_in_process(client: TestClient) -> None:
    table = create(client, "barrell", ["human", "human"])["table"]["id"]
    for origin in ("https://evil.example", "null"):  # another site's page; a sandboxed or file:// one
        with pytest.raises(WebSocketDisconnect) as refused:
            client.websocket_connect(f"/ws/tables/{table}", headers={"Origin": origin}).__enter__()
        assert refused.value.code == 1008
    for headers in ({}, {"Origin": "http://testserver"}):  # no Origin (not a browser), or the page's own
        with client.websocket_connect(f"/ws/tables/{table}", headers=headers) as ws:
            assert hello(ws, None)["seat"] is None


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        (None, True),
        ("http://games.example.org:8000", True),
        ("https://games.example.org:8000", True),
        ("https://games.example.org", True),  # the public URL's, whatever Host the proxy passes on
        ("https://games.example.org.evil.example", False),
        ("http://games.example.org:8001", False),
        ("https://evil.example", False),
        ("null", False),
        ("file://", False),
    ],
)
def test_same_site(origin: str | None, allowed: bool) -> None:
    assert same_site(origin, "games.example.org:8000", "https://games.example.org") is allowed


def test_a_websocket_from_another_site_is_refused_by_the_server(tmp_path: Path, started: list[Served]) -> None:
    served = serve(tmp_path, "--public-url", "https://games.example.org")
    started.append(served)
    body = {"game": "barrell", "players": 2, "seats": ["human", "human"], "name": "Ann"}
    table = httpx.post(f"{served.base}/api/tables", json=body, timeout=10).json()["table"]["id"]
    url = f"ws://127.0.0.1:{served.port}/ws/tables/{table}"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin=Origin("https://evil.example"), open_timeout=10)
    assert refused.value.response.status_code == 403
    for origin in (None, f"http://127.0.0.1:{served.port}", "https://games.example.org"):
        with connect(url, origin=None if origin is None else Origin(origin), open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            assert next_update(ws)["seat"] is None
    assert served.stop() == 0
    assert any(line["method"] == "WS" and line["status"] == 403 for line in access_lines(served.output()))


# ---------------------------------------------------------------------------------------------- security headers
def test_every_http_answer_carries_the_security_headers(client: TestClient) -> None:
    answers = [
        client.get("/"),
        client.get("/t/abc"),
        client.get("/favicon.ico"),
        client.get("/api/catalog"),
        client.get("/api/tables/nosuchtable"),  # a refusal too
        client.get("/nothing-here"),
        client.get("/healthz"),
    ]
    for answer in answers:
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy and "img-src 'self' data:" in policy
        assert "connect-src 'self'" in policy and "unsafe-eval" not in policy
        assert "style-src 'self';" in policy  # no inline <style> elements
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"
    assert [answer.status_code for answer in answers][-3:] == [404, 404, 200]
    # a stylesheet or a script is never a document: the other headers, no policy (it would govern nothing)
    for path in ("/static/js/table.js", "/static/css/oakwood.css"):
        answer = client.get(path)
        assert answer.headers["x-content-type-options"] == "nosniff" and "content-security-policy" not in answer.headers


def test_the_pages_have_no_inline_script_or_style() -> None:
    for page in STATIC.glob("*.html"):
        text = page.read_text()
        assert "<style" not in text and "style=" not in text and re.search(r"\son[a-z]+=", text) is None, page
        for script in text.split("<script")[1:]:
            assert " src=" in script.partition(">")[0], page  # every script is a file of the origin
