"""A connection that never reads its socket must not hold up its table: every client has a bounded outbox,
written by a task of its own, and one that falls behind is hung up on (close code 4008) instead of waited for.

The end-to-end test is the attack as it was found: a spectator (no token needed) opens a WebSocket, says hello
and never reads again, while a person plays against bots. Before outboxes, the room awaited each send in turn
and the person's updates stopped once the spectator's socket buffers were full. On loopback those buffers
hold more than a whole game (a megabyte), so the spectator fills them at once the way an attacker would:
with a flood of tiny frames, each of which earns it a refusal it never reads."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import struct
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from websockets.sync.client import connect

from oakwood.web.room import FELL_BEHIND, OUTBOX_CHARS, OUTBOX_FRAMES, Client
from tests.web.served import Served, next_update, serve

pytestmark = pytest.mark.timeout(120)
T = TypeVar("T")


# ---------------------------------------------------------------------------------------------- the outbox alone
class StuckSocket:
    """A connection whose reader never reads: every send waits for ever; what was closed, and with which code."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None

    async def send_text(self, data: str) -> None:
        self.sent.append(data)
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code


def run_apart(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` on an event loop of its own, in a thread of its own (a browser test before it in this process
    may have left Playwright's loop running in the main thread, where ``asyncio.run`` refuses to start)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, work).result()


def test_an_outbox_holds_a_bounded_number_of_frames_then_hangs_up() -> None:
    async def scenario() -> tuple[list[bool], Client, StuckSocket]:
        stuck = StuckSocket()
        client = Client(stuck)
        posted = [client.post("frame 0")]
        await asyncio.sleep(0)  # the writer takes frame 0 and waits on the socket with it
        posted += [client.post(f"frame {i}") for i in range(1, OUTBOX_FRAMES + 4)]
        await asyncio.sleep(0.01)  # the hang-up runs
        return posted, client, stuck

    posted, client, stuck = run_apart(scenario())
    # frame 0 is on its way; the next OUTBOX_FRAMES wait in the outbox; one more is too many, and so is the rest
    assert posted == [True] * (1 + OUTBOX_FRAMES) + [False] * 3
    assert client.behind and stuck.closed == FELL_BEHIND
    assert stuck.sent == ["frame 0"]  # nothing more was written to a connection that fell behind


def test_an_outbox_bounds_characters_but_always_takes_one_frame() -> None:
    async def scenario() -> tuple[bool, bool, bool]:
        client = Client(StuckSocket())
        huge = client.post("x" * (OUTBOX_CHARS + 1))  # alone, a frame larger than the allowance still goes
        await asyncio.sleep(0)  # the writer takes it (and waits on the socket with it)
        first = client.post("y" * (OUTBOX_CHARS // 2))
        second = client.post("z" * (OUTBOX_CHARS // 2 + 1))
        return huge, first, second

    assert run_apart(scenario()) == (True, True, False)


# ---------------------------------------------------------------------------------------------- the attack, end to end
def ws_frame(text: str) -> bytes:
    """A masked WebSocket text frame, as a client must send it."""
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


def silent_spectator(port: int, table: str) -> socket.socket:
    """Open a WebSocket to ``table`` on a raw socket with a small receive buffer, say hello as a spectator,
    and return the socket without reading anything more from it."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # its window fills after a few updates
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert b" 101 " in head.split(b"\r\n", 1)[0], head
    sock.sendall(ws_frame(json.dumps({"type": "hello", "token": None})))
    return sock


def flood(sock: socket.socket, frames: int) -> None:
    """Send ``frames`` one-byte frames as fast as the server takes them (it may stop reading a connection it
    let go: then give up after a few seconds)."""
    sock.settimeout(5)
    with contextlib.suppress(TimeoutError):
        sock.sendall(ws_frame("x") * frames)


def close_code_after_backlog(sock: socket.socket, within: float) -> int | None:
    """Read everything the server wrote to ``sock`` (frames of any length) until its close frame; the close
    code, or None if the connection ended without one."""
    sock.settimeout(within)
    data = b""
    end = time.monotonic() + within
    while time.monotonic() < end:
        while len(data) >= 2:
            opcode, length, at = data[0] & 0x0F, data[1] & 0x7F, 2
            if length == 126:
                if len(data) < 4:
                    break
                length, at = struct.unpack("!H", data[2:4])[0], 4
            elif length == 127:
                if len(data) < 10:
                    break
                length, at = struct.unpack("!Q", data[2:10])[0], 10
            if len(data) < at + length:
                break
            if opcode == 0x8:
                return int(struct.unpack("!H", data[at : at + 2])[0])
            data = data[at + length :]
        chunk = sock.recv(1 << 16)
        if not chunk:
            return None
        data += chunk
    raise AssertionError("no close frame came")


def test_a_spectator_who_never_reads_does_not_hold_up_the_table(tmp_path: Path, started: list[Served]) -> None:
    served = serve(tmp_path)
    started.append(served)
    body = {"game": "squarrels", "players": 4, "seats": ["human", "easy", "easy", "easy"], "name": "Ann"}
    answer = httpx.post(f"{served.base}/api/tables", json=body, timeout=10).json()
    table, token = answer["table"]["id"], answer["token"]
    spectator = silent_spectator(served.port, table)
    flood(spectator, frames=60_000)  # 60,000 refusals: about 5 MB the spectator never reads
    slowest, moves = 0.0, 0
    with connect(f"ws://127.0.0.1:{served.port}/ws/tables/{table}", open_timeout=10, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        update, waiting, tried = next_update(ws), None, -1
        while moves < 30 and not update["observation"]["terminal"]:
            if waiting is None and update["legal"] and update["seq"] != tried:
                time.sleep(0.06)  # brisk, but within the 20 messages a second a client may send
                waiting, tried, sent = update["seq"], update["seq"], time.monotonic()
                ws.send(json.dumps({"type": "act", "seq": update["seq"], "action": update["legal"][0]["index"]}))
            message = json.loads(ws.recv(timeout=10))  # the old server: TimeoutError here
            if message["type"] == "error":
                assert message["code"] == "stale", message  # a bot moved first: the newer update is on its way
                waiting = None
            elif message["type"] == "update":
                update = message
                if waiting is not None and update["seq"] > waiting:
                    slowest, moves, waiting = max(slowest, time.monotonic() - sent), moves + 1, None
    assert moves == 30
    assert slowest < 5.0, f"a move took {slowest:.1f} s to come back"
    # the spectator was let go: once it reads, it finds the frames it was sent, then the close (4008)
    assert close_code_after_backlog(spectator, within=30) == FELL_BEHIND
    spectator.close()
    # and a spectator who reconnects is sent the position as it is now
    with connect(f"ws://127.0.0.1:{served.port}/ws/tables/{table}", open_timeout=10, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        again = next_update(ws)
    assert again["seq"] >= update["seq"]
    assert "Traceback" not in served.output(), served.output()
