"""A stranger's HTTP client at a real ``oakwood serve``: bodies over the limit are refused before they are read,
JSON nested too deeply is an ordinary refusal with nothing in the log, a WebSocket frame over the protocol's
size is refused by the server before it is buffered; and what the server already refused (forged tokens,
broken and illegal messages, paths out of ``/static``) stays refused."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed, ConnectionClosedError
from websockets.sync.client import connect

from oakwood.web.app import MAX_BODY_BYTES
from oakwood.web.protocol import MAX_MESSAGE_BYTES
from tests.web.conftest import create, hello, receive, send

pytestmark = pytest.mark.timeout(60)
ROOT = Path(__file__).resolve().parents[2]
#: How long a test waits for an answer the server owes at once; a server still reading a body never answers.
ANSWER_SECONDS = 10.0


@dataclass
class Live:
    """A running ``oakwood serve``: its port, its log (stdout and stderr) and a table of two people."""

    port: int
    log: Path
    table: str
    token: str

    @property
    def base(self) -> str:
        """The server's address."""
        return f"http://127.0.0.1:{self.port}"

    def log_from(self, offset: int) -> str:
        """What the server logged from ``offset`` on."""
        return self.log.read_bytes()[offset:].decode(errors="replace")


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """``oakwood serve`` as a subprocess on a free port of loopback, once it answers, with a waiting table."""
    folder = tmp_path_factory.mktemp("hostile")
    port, log = free_port(), folder / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-m", "oakwood.cli.main", "serve", "--port", str(port), "--bot-pace", "0"]
    with log.open("wb") as out:
        server = subprocess.Popen(
            [*command, "--db", f"sqlite:///{folder / 'web.db'}"], stdout=out, stderr=subprocess.STDOUT, env=env
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, log.read_text()
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        body = {"game": "barrell", "players": 2, "seats": ["human", "human"], "name": "Ann"}
        answer = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=body).json()
        yield Live(port, log, answer["table"]["id"], answer["token"])
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


@dataclass
class Answer:
    """An HTTP answer read off a raw socket."""

    status: int
    headers: dict[str, str]
    body: bytes

    def error(self) -> dict[str, Any]:
        """The JSON error of the answer."""
        error: dict[str, Any] = json.loads(self.body)["error"]
        return error


def raw_request(port: int, head: str, parts: Sequence[bytes] = ()) -> Answer:
    """Send ``head`` (the request line and headers) and ``parts`` on a raw socket, then read the answer: one
    the server owes without waiting for more (a server that waits for the rest of a body fails the test)."""
    with socket.create_connection(("127.0.0.1", port), timeout=ANSWER_SECONDS) as connection:
        connection.sendall(head.replace("\n", "\r\n").encode() + b"\r\n")
        for part in parts:
            connection.sendall(part)
        data = b""
        while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < _length(data):
            try:
                chunk = connection.recv(65536)
            except TimeoutError:
                pytest.fail(f"no answer in {ANSWER_SECONDS:g} s: the server is waiting for the rest of the body")
            if not chunk:
                break
            data += chunk
    header_block, _, body = data.partition(b"\r\n\r\n")
    lines = header_block.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return Answer(int(lines[0].split()[1]), headers, body)


def _length(data: bytes) -> int:
    """The Content-Length of the answer so far (0 until its headers are in)."""
    for line in data.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


def body_routes(live: Live) -> list[str]:
    """Every route that reads a JSON body."""
    return ["/api/tables", f"/api/tables/{live.table}/join", f"/api/tables/{live.table}/abandon"]


# ---------------------------------------------------------------------------------------------- request bodies
@pytest.mark.parametrize("route", range(3))
def test_a_declared_body_over_the_limit_is_refused_before_it_is_read(live: Live, route: int) -> None:
    path = body_routes(live)[route]
    head = f"POST {path} HTTP/1.1\nHost: oakwood\nContent-Type: application/json\nContent-Length: 67108864\n"
    answer = raw_request(live.port, head)  # not a byte of the 64 MiB is sent: the answer comes all the same
    assert answer.status == 413 and answer.error()["code"] == "too_large", answer
    assert answer.headers.get("connection") == "close"  # the server does not drain the rest


@pytest.mark.parametrize("route", range(3))
def test_a_chunked_body_is_read_no_further_than_the_limit(live: Live, route: int) -> None:
    path = body_routes(live)[route]
    head = f"POST {path} HTTP/1.1\nHost: oakwood\nContent-Type: application/json\nTransfer-Encoding: chunked\n"
    chunk = b"1000\r\n" + b" " * 4096 + b"\r\n"
    # a little over the limit, and never the last chunk: a server that reads to the end of the body never answers
    answer = raw_request(live.port, head, [chunk] * (MAX_BODY_BYTES // 4096 + 2))
    assert answer.status == 413 and answer.error()["code"] == "too_large", answer


def test_a_body_at_the_limit_is_read_and_judged(live: Live) -> None:
    body = {"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "Ann", "options": {"x": ""}}
    padding = MAX_BODY_BYTES - len(json.dumps(body))
    body["options"] = {"x": "y" * padding}
    content = json.dumps(body).encode()
    assert len(content) == MAX_BODY_BYTES
    answer = httpx.post(f"{live.base}/api/tables", content=content)
    assert answer.status_code == 400 and "unknown option" in answer.json()["error"]["message"], answer.text


def test_a_chunked_body_under_the_limit_creates_a_table(live: Live) -> None:
    body = json.dumps({"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "Ann"}).encode()
    answer = httpx.post(f"{live.base}/api/tables", content=iter([body[:10], body[10:]]))  # no Content-Length
    assert answer.status_code == 201, answer.text


# ---------------------------------------------------------------------------------------------- deep nesting
DEEP_BODY = b'{"game": "barrell", "players": 2, "seats": ["human", "easy"], "name": "A", "options": {"a": ' + (
    b"[" * 8000
)
DEEP_MESSAGE = '{"extra": ' + "[" * 2000 + "]" * 2000 + ', "type": "hello"}'  # under 4 KiB: the size cap lets it by


def test_json_nested_too_deeply_is_malformed_and_nothing_is_logged(live: Live) -> None:
    offset = live.log.stat().st_size
    answer = httpx.post(f"{live.base}/api/tables", content=DEEP_BODY)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == {"code": "malformed", "message": "the JSON is nested too deeply"}
    answer = httpx.post(f"{live.base}/api/tables", content=b"[" * 8000)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed"
    with connect(f"ws://127.0.0.1:{live.port}/ws/tables/{live.table}") as ws:
        ws.send(DEEP_MESSAGE)
        error = json.loads(ws.recv(timeout=ANSWER_SECONDS))
        assert error["type"] == "error" and error["code"] == "malformed", error
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=ANSWER_SECONDS)) == {"type": "pong"}  # the connection is still served
    logged = live.log_from(offset)
    assert "Traceback" not in logged and "RecursionError" not in logged and "ERROR" not in logged, logged


def test_json_nested_too_deeply_logs_nothing_in_process(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    answer = create(client, "barrell", ["human", "human"])
    with caplog.at_level("DEBUG"):
        response = client.post("/api/tables", content=DEEP_BODY)
        assert response.status_code == 400 and response.json()["error"]["code"] == "malformed"
        with client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ws:
            ws.send_text(DEEP_MESSAGE)
            assert receive(ws)["code"] == "malformed"
    assert not [record for record in caplog.records if record.levelname in ("ERROR", "CRITICAL")]


# ---------------------------------------------------------------------------------------------- WebSocket frames
def test_a_websocket_message_over_the_protocols_size_closes_the_connection_with_1009(live: Live) -> None:
    url = f"ws://127.0.0.1:{live.port}/ws/tables/{live.table}"
    with connect(url) as ws:
        largest = '{"type": "hello", "token": "' + "x" * (MAX_MESSAGE_BYTES - 30) + '"}'
        assert len(largest.encode()) == MAX_MESSAGE_BYTES
        ws.send(largest)  # at the limit: read and judged (no such seat)
        assert json.loads(ws.recv(timeout=ANSWER_SECONDS))["code"] == "bad_token"
        ws.send(largest + " ")  # one byte over: the server closes the connection, the app never sees it
        with pytest.raises(ConnectionClosedError) as closed:
            ws.recv(timeout=ANSWER_SECONDS)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with connect(url, max_size=None) as ws, pytest.raises(ConnectionClosed):
        # 16 MiB: refused at the frame's header, so the send itself may find the connection closed
        ws.send("x" * (16 * 2**20 - 1))
        ws.recv(timeout=ANSWER_SECONDS)
    assert httpx.get(f"{live.base}/api/tables/{live.table}").status_code == 200  # and the server goes on


# ---------------------------------------------------------------------------------------------- what stays refused
@pytest.mark.parametrize(
    "path",
    [
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2fapp.py",
        "/static/%2e%2e%2f%2e%2e%2fpyproject.toml",
        "/static/js/../../app.py",
        "/static/js/%2e%2e/%2e%2e/registry.py",
        "/static/..\\app.py",
        "/static/..%5capp.py",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/%252e%252e/app.py",
        "/static/index.html%00.js",
    ],
)
def test_no_path_leaves_the_static_folder(live: Live, path: str) -> None:
    answer = raw_request(live.port, f"GET {path} HTTP/1.1\nHost: oakwood\nConnection: close\n")
    assert answer.status in (400, 404), answer
    for secret in (b"import", b"[project]", b"root:"):
        assert secret not in answer.body


def test_clients_that_send_their_headers_slowly_do_not_keep_others_out(live: Live) -> None:
    # slowloris: a hundred connections each trickling a request line and a header a second hold nothing but
    # themselves; another visitor's page and a WebSocket game are served as usual meanwhile
    slow = [socket.create_connection(("127.0.0.1", live.port), timeout=5) for _ in range(100)]
    try:
        for connection in slow:
            connection.sendall(b"GET /api/tables HTTP/1.1\r\nHost: oakwood\r\n")
        for _ in range(3):
            for connection in slow:
                with contextlib.suppress(OSError):  # one the server closed meanwhile is fine too
                    connection.sendall(b"X-Slow: still here\r\n")
            assert httpx.get(f"{live.base}/healthz", timeout=5).status_code == 200
            with connect(f"ws://127.0.0.1:{live.port}/ws/tables/{live.table}", open_timeout=5) as ws:
                ws.send(json.dumps({"type": "hello", "token": None}))
                assert json.loads(ws.recv(timeout=5))["type"] == "update"
            time.sleep(1)
    finally:
        for connection in slow:
            connection.close()


def test_forged_tokens_take_no_seat(client: TestClient) -> None:
    ann = create(client, "barrell", ["human", "human"])
    other = create(client, "barrell", ["human", "easy"], name="Eve")
    table = ann["table"]["id"]
    token = ann["token"]
    forged = [
        other["token"],
        token[:-1] + ("A" if token[-1] != "A" else "B"),
        token.upper(),
        "",
        " " + token,
        "x" * 4000,
    ]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:  # a token in the URL is not read
        assert hello(ws, None)["seat"] is None
    for fake in forged:
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            send(ws, type="hello", token=fake)
            assert receive(ws)["code"] == "bad_token", fake
        refused = client.post(f"/api/tables/{table}/abandon", json={"token": fake})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_token", fake
    assert client.get(f"/api/tables/{table}").json()["status"] in ("waiting", "paused")


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ('{"type": "act", "seq": 0, "action": -1}', "illegal"),
        ('{"type": "act", "seq": 0, "action": 18446744073709551616}', "illegal"),
        ('{"type": "act", "seq": 1000000000000000000000000000000, "action": 0}', "stale"),
        ('{"type": "act", "seq": 0.5, "action": 0}', "malformed"),
        ('{"type": "act", "seq": -1, "action": 0}', "stale"),
        ('{"type": null}', "malformed"),
        ('{"type": "hello", "type": "act", "seq": 0, "action": 0}', "malformed"),
        ('{"type": "hello", "token": "\\ud800"}', "malformed"),  # a lone surrogate is no text
        ('{"type": "ping"} {"type": "ping"}', "malformed"),
        ('"hello"', "malformed"),
        ("", "malformed"),
    ],
)
def test_more_broken_and_illegal_messages_are_refused(client: TestClient, frame: str, code: str) -> None:
    answer = create(client, "barrell", ["human", "human"])
    joined = client.post(f"/api/tables/{answer['table']['id']}/join", json={"name": "Bob"}).json()
    with (
        client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as ann,
        client.websocket_connect(f"/ws/tables/{answer['table']['id']}") as bob,
    ):
        first = hello(ann, answer["token"])
        hello(bob, joined["token"])
        ws = ann if first["legal"] else bob
        ws.send_text(frame)
        message = receive(ws)
        while message["type"] == "update":  # the other seat's arrival
            message = receive(ws)
        assert message["type"] == "error" and message["code"] == code, message
        send(ws, type="ping")
        assert ws.receive_json() == {"type": "pong"}


def test_a_game_id_out_of_range_is_unknown_not_a_server_error(client: TestClient) -> None:
    for path in ("/api/replays/99999999999999999999999999", "/api/replays/99999999999999999999999999/0"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["error"]["code"] == "unknown_game", response.text


def test_a_path_or_query_of_the_wrong_type_is_refused_in_the_apis_format(client: TestClient) -> None:
    response = client.get("/api/replays/abc")
    assert response.status_code == 400 and response.json()["error"]["code"] == "malformed", response.text
    response = client.get("/api/replays/1/0?seat=abc")
    assert response.status_code == 400 and response.json()["error"]["code"] == "malformed", response.text
