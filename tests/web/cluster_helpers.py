"""A throwaway ``redis-server`` on a Unix socket for the tests of ``oakwood serve --redis``, and the pieces of
those tests that play over real sockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Coroutine, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from oakwood.store import open_store
from oakwood.web.registry import Registry
from oakwood.web.room import MOVED, RoomSettings
from tests.web.served import Served, serve

REDIS_SERVER = "redis-server"

T = TypeVar("T")


@dataclass
class RedisServer:
    """A running ``redis-server``: its process and socket."""

    process: subprocess.Popen[bytes]
    socket: Path
    log: Path

    @property
    def url(self) -> str:
        """The URL ``oakwood serve --redis`` takes."""
        return f"unix://{self.socket}"

    def stop(self) -> None:
        """Stop it at once (SIGKILL: a crash, and nothing is saved)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


def start_redis(folder: Path) -> RedisServer:
    """A ``redis-server`` listening only on a Unix socket in ``folder`` (no TCP port, nothing saved to disk), once
    it answers; the test fails saying what to install if there is no ``redis-server``."""
    binary = shutil.which(REDIS_SERVER)
    if binary is None:
        pytest.fail("these tests need Redis: apt-get install -y redis-server (scripts/system-packages does it)")
    folder.mkdir(parents=True, exist_ok=True)
    sock, log = folder / "redis.sock", folder / "redis.log"
    command = [binary, "--port", "0", "--unixsocket", str(sock), "--unixsocketperm", "700", "--save", "",
               "--appendonly", "no", "--dir", str(folder), "--logfile", str(log)]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    server = RedisServer(process, sock, log)
    deadline = time.monotonic() + 15
    while True:
        if process.poll() is not None:
            raise AssertionError(f"redis-server did not start:\n{log.read_text() if log.exists() else ''}")
        if sock.exists():
            try:
                with redis.Redis(unix_socket_path=str(sock)) as probe:
                    probe.ping()
                return server
            except redis.RedisError:
                pass
        if time.monotonic() > deadline:
            server.stop()
            raise AssertionError("redis-server did not answer within 15 s")
        time.sleep(0.05)


#: The lease of the tests' processes: short, so a killed one's tables move within about a second.
LEASE = "1"


def node(folder: Path, redis_url: str, db: str, name: str, *flags: str) -> Served:
    """One ``oakwood serve --redis`` process of a test's cluster (bots at once, in threads)."""
    return serve(folder, "--redis", redis_url, "--lease-seconds", LEASE, "--bot-processes", "0", *flags, db=db,
                 name=name)  # fmt: skip


def nodes(folder: Path, redis_url: str, db: str, names: Sequence[str], *flags: str) -> list[Served]:
    """Several nodes started at once (each takes seconds to import and open the store), once the store's schema
    is there: processes that find a new database at the same moment would each try to create it."""
    open_store(db).close()
    with ThreadPoolExecutor(len(names)) as pool:
        starting = [pool.submit(node, folder, redis_url, db, name, *flags) for name in names]
    started = [future.result() for future in starting if future.exception() is None]
    failed = [future.exception() for future in starting if future.exception() is not None]
    if failed:  # none is left running behind a failed test
        stop_all(started)
        raise failed[0]  # type: ignore[misc]
    return started


def stop_all(served: Sequence[Served]) -> None:
    """SIGTERM every node still running, all at once, and wait for each."""
    running = [one for one in served if one.process.poll() is None]
    for one in running:
        one.process.send_signal(signal.SIGTERM)
    for one in running:
        one.stop()


def ws_url(served: Served, table_id: str) -> str:
    """The WebSocket address of ``table_id`` at ``served``."""
    return f"ws://127.0.0.1:{served.port}/ws/tables/{table_id}"


def receive(ws: ClientConnection, timeout: float = 20) -> dict[str, Any]:
    """The next message other than a pong."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        if message["type"] != "pong":
            return message


def next_update(ws: ClientConnection) -> dict[str, Any]:
    """The next update (only a stale refusal — a move that crossed a bot's — is let through)."""
    while True:
        message = receive(ws)
        if message["type"] == "error":
            assert message["code"] == "stale", message
            continue
        assert message["type"] == "update", message
        return message


def hello(ws: ClientConnection, token: str | None) -> dict[str, Any]:
    """Say hello as a seat (or a spectator) and return the first update."""
    ws.send(json.dumps({"type": "hello", "token": token}))
    return next_update(ws)


def act(ws: ClientConnection, update: dict[str, Any]) -> None:
    """Play this seat's first legal move in ``update`` (at a person's pace: the server takes 20 messages a
    second)."""
    time.sleep(0.05)
    ws.send(json.dumps({"type": "act", "seq": update["seq"], "action": update["legal"][0]["index"]}))


def closed_with(ws: ClientConnection, timeout: float = 20) -> int | None:
    """Read ``ws`` until the server closes it (updates in between are dropped); the close code."""
    try:
        while True:
            ws.recv(timeout=timeout)
    except ConnectionClosed:
        return ws.close_code


@contextmanager
def seat_socket_after_move(
    served: Served, table_id: str, token: str | None, seconds: float = 30
) -> Iterator[tuple[ClientConnection, dict[str, Any]]]:
    """A seat's (or a spectator's) connection at ``served`` once its table has moved, and its first update:
    tried again, as the table page does, while the server answers that the table is still moving (an error
    ``moved`` and a close with 4010: the take-over not yet seen by every process)."""
    deadline = time.monotonic() + seconds
    while True:
        with connect(ws_url(served, table_id)) as ws:
            try:
                ws.send(json.dumps({"type": "hello", "token": token}))
                message = receive(ws)
                while message["type"] == "error" and message["code"] == "stale":
                    message = receive(ws)
            except ConnectionClosed:
                message = {"type": "closed", "code": ws.close_code}
            if message["type"] == "update":
                yield ws, message
                return
        assert message.get("code") in ("moved", MOVED), message  # anything else is not a move in progress
        assert time.monotonic() < deadline, f"the table never answered at {served.base}: {message}"
        time.sleep(0.2)


@contextmanager
def seat_socket(served: Served, table_id: str, token: str | None) -> Iterator[tuple[ClientConnection, dict[str, Any]]]:
    """A seat's (or a spectator's) connection at ``served`` and its first update."""
    with connect(ws_url(served, table_id)) as ws:
        yield ws, hello(ws, token)


def run(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` on an event loop of its own thread (a browser test may have left one in this thread)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, work).result()


def registry(db: str, bots: ThreadPoolExecutor) -> Registry:
    """A node's registry on the shared store (bots at once, nothing else)."""
    return Registry(open_store(db), bots, RoomSettings(bot_pace=0), version=None)


def pump(source: socket.socket, target: socket.socket) -> None:
    """Copy ``source`` to ``target`` until ``source`` ends; then end both (the tests' proxies)."""
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            target.sendall(data)
    for end in (source, target):
        with contextlib.suppress(OSError):
            end.shutdown(socket.SHUT_RDWR)
        end.close()


class LoopbackProxy:
    """A proxy on a loopback port for the browser tests: each accepted connection is handed to :meth:`carry`
    (in a thread of its own) until :meth:`close`."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def base(self) -> str:
        """Its address, as the page is opened at."""
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed: the test is over
                return
            threading.Thread(target=self.carry, args=(client,), daemon=True).start()

    def carry(self, client: socket.socket) -> None:
        """Carry one connection to where it goes."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop accepting connections."""
        self.listener.close()
