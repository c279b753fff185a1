"""Oakwood hosted as docs/hosting.md says: ``oakwood serve`` on loopback behind Caddy, the reverse proxy, which
terminates TLS. Caddy runs from ``deploy/Caddyfile`` itself — only the site's name (127.0.0.1 instead of
oakwood.example.org) and the upstream port are substituted, and global options put everything it keeps (its
certificates, its configuration) in a temporary directory and its listeners on free loopback ports. For an IP
address Caddy's automatic HTTPS issues the certificate from its own local authority instead of Let's Encrypt,
so the test needs no certificate of its own and checks the one served against that authority.

Chromium then plays through the proxy: the lobby and the table over HTTPS, the game over a WebSocket over TLS.
The server's per-address limits and its access log show that it reads the visitor's address from the
proxy's X-Forwarded-For.
Without Caddy the tests fail and say how to install it (``scripts/system-packages`` does), never skip."""

from __future__ import annotations

import fcntl
import ipaddress
import json
import os
import socket
import ssl
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, WebSocket

from .helpers import create_from_lobby, play_one, seq

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "deploy" / "Caddyfile"
CADDY = "/usr/bin/caddy"
#: What the test changes in deploy/Caddyfile: the site's name and the port oakwood serve listens on.
SITE = "oakwood.example.org {"
UPSTREAM = "reverse_proxy 127.0.0.1:8000"


@dataclass
class Hosted:
    url: str  #: the proxy's HTTPS address, as a visitor has it
    http_url: str  #: the proxy's plain HTTP address (redirects to ``url``)
    upstream: str  #: oakwood serve's own address, behind the proxy
    authority: Path  #: the root certificate of Caddy's local authority (what signed the site's certificate)
    serve_log: Path  #: what oakwood serve wrote: its access log, one JSON line a request


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def caddyfile(template: str, *, upstream: int, https_port: int, http_port: int, state: Path) -> str:
    """``deploy/Caddyfile`` as the test runs it: the site's name and the upstream port substituted, and global
    options for a temporary directory (storage, no admin endpoint, no change to the system's trust store, free
    loopback ports)."""
    text = template
    for old, new in ((SITE, "127.0.0.1, localhost {"), (UPSTREAM, f"reverse_proxy 127.0.0.1:{upstream}")):
        assert text.count(old) == 1, f"deploy/Caddyfile should hold {old!r} once (this test substitutes it)"
        text = text.replace(old, new)
    options = f"""{{
    admin off
    skip_install_trust
    default_bind 127.0.0.1
    http_port {http_port}
    https_port {https_port}
    storage file_system {state / "data"}
}}

"""
    return options + text


def wait_until(ready: str, check: Callable[[], bool], process: subprocess.Popen[bytes], log: Path) -> None:
    """Poll ``check()`` until it is true; fail with ``log`` if ``process`` ends or 30 s pass."""
    deadline = time.monotonic() + 30
    while True:
        try:
            if check():
                return
        except (httpx.HTTPError, ssl.SSLError, OSError):
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"{ready} did not start:\n{log.read_text(errors='replace')}", pytrace=False)
        time.sleep(0.2)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hosted]:
    """``oakwood serve`` (a SQLite file of its own, bots at once) behind Caddy run from deploy/Caddyfile; both
    stopped afterwards whatever happened."""
    if not Path(CADDY).exists():
        pytest.fail(
            f"the reverse-proxy test needs Debian's Caddy at {CADDY}: apt-get install -y caddy "
            "(scripts/system-packages installs it as root)",
            pytrace=False,
        )
    state = tmp_path_factory.mktemp("hosted")
    port, https_port, http_port = free_port(), free_port(), free_port()
    url = f"https://127.0.0.1:{https_port}"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-c", "from oakwood.cli.main import main; main()", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--db", str(state / "oakwood.db"), "--bot-pace", "0", "--public-url", url]
    config = state / "Caddyfile"
    config.write_text(
        caddyfile(TEMPLATE.read_text(), upstream=port, https_port=https_port, http_port=http_port, state=state)
    )
    # Caddy keeps its configuration and data under HOME / XDG_*: the temporary directory's, not the machine's.
    caddy_env = {**os.environ, "HOME": str(state), "XDG_DATA_HOME": str(state), "XDG_CONFIG_HOME": str(state)}
    processes: list[subprocess.Popen[bytes]] = []
    serve_log, caddy_log = state / "serve.log", state / "caddy.log"
    try:
        with serve_log.open("wb") as out:
            processes.append(subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT))
        upstream = f"http://127.0.0.1:{port}"
        wait_until(
            "oakwood serve",
            lambda: httpx.get(f"{upstream}/api/catalog", timeout=1).status_code == 200,
            processes[0],
            serve_log,
        )
        with caddy_log.open("wb") as out:
            caddy = [CADDY, "run", "--config", str(config), "--adapter", "caddyfile", "--pidfile", str(state / "pid")]
            processes.append(subprocess.Popen(caddy, env=caddy_env, cwd=state, stdout=out, stderr=subprocess.STDOUT))
        wait_until(
            "caddy",
            lambda: httpx.get(f"{url}/api/catalog", timeout=1, verify=False).status_code == 200,
            processes[1],
            caddy_log,
        )
        authority = state / "data" / "pki" / "authorities" / "local" / "root.crt"
        yield Hosted(url, f"http://127.0.0.1:{http_port}", upstream, authority, serve_log)
    finally:
        for process in reversed(processes):
            stop(process)


def verified(hosted: Hosted, local_address: str | None = None) -> httpx.Client:
    """An HTTPS client that trusts Caddy's local authority only (and checks that the certificate names
    127.0.0.1), connecting from ``local_address`` if given."""
    context = ssl.create_default_context(cafile=str(hosted.authority))
    transport = httpx.HTTPTransport(verify=context, local_address=local_address)
    return httpx.Client(base_url=hosted.url, transport=transport, timeout=10, follow_redirects=False)


def test_a_game_is_played_through_the_proxy_over_tls_and_websockets(browser: Browser, hosted: Hosted) -> None:
    context = browser.new_context(ignore_https_errors=True)
    try:
        page = context.new_page()
        sockets: list[WebSocket] = []
        page.on("websocket", lambda ws: sockets.append(ws))
        create_from_lobby(page, hosted.url, "barrell", 2)  # you and a medium bot, as the lobby suggests
        assert page.url.startswith(f"{hosted.url}/t/")
        clicks = 0
        for _ in range(200):  # a few moves of the person's, each answered by the bot's over the WebSocket
            if seq(page) >= 6 and clicks >= 3:
                break
            if play_one(page):
                clicks += 1
            else:
                page.wait_for_timeout(50)
        assert clicks >= 3 and seq(page) >= 6, f"{clicks} clicks, the table at move {seq(page)}"
        # the game went over the proxy's TLS (wss://), and the connection is still open
        assert sockets and {ws.url.split("/ws/")[0] for ws in sockets} == {hosted.url.replace("https://", "wss://")}
        assert not sockets[-1].is_closed()
    finally:
        context.close()


def test_the_certificate_is_the_proxys_and_plain_http_is_redirected(hosted: Hosted) -> None:
    with verified(hosted) as client:
        assert client.get("/").status_code == 200  # the certificate checks out for 127.0.0.1
        health = client.get("/healthz")
        assert health.status_code == 200 and health.json()["status"] == "ok", health.text
    moved = httpx.get(f"{hosted.http_url}/t/abc", timeout=10)
    # to https:// on the same host and path (Caddy names the standard port, 443: the test's is another)
    target = urlsplit(moved.headers.get("location", ""))
    assert moved.status_code == 308 and (target.scheme, target.hostname, target.path) == (
        "https",
        "127.0.0.1",
        "/t/abc",
    )


def own_address() -> str | None:
    """An IPv4 address of this machine that is not loopback (a network interface's), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:  # SIOCGIFADDR: the interface's IPv4 address
                packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
            address = ipaddress.IPv4Address(packed[20:24])
            if not address.is_loopback:
                return str(address)
    return None


def test_the_server_counts_the_visitor_the_proxy_names_in_x_forwarded_for(hosted: Hosted) -> None:
    """Requests reach oakwood serve from the proxy, on loopback, which is never limited; the visitor's address
    comes in X-Forwarded-For only. A visitor from another address (this machine's own, connecting from its
    network interface) is held to the limit of 5 unstarted tables, one on loopback is not."""
    visitor = own_address()
    if visitor is None:
        pytest.skip("this machine has no address but loopback to visit the proxy from")
    body = {"game": "barrell", "players": 2, "seats": ["human", "human"], "name": "Ann", "turn_seconds": None}
    with verified(hosted) as here:
        assert [here.post("/api/tables", json=body).status_code for _ in range(6)] == [201] * 6
    with verified(hosted, local_address=visitor) as there:
        answers = [there.post("/api/tables", json=body) for _ in range(6)]
    assert [answer.status_code for answer in answers] == [201] * 5 + [429], answers[-1].text
    assert answers[-1].json()["error"]["code"] == "too_many_waiting"
    # and the server's access log names the visitor, not the proxy
    wanted = {"client": visitor, "method": "POST", "path": "/api/tables", "status": 429}
    deadline = time.monotonic() + 10
    while not any(wanted.items() <= line.items() for line in access_log(hosted.serve_log)):
        assert time.monotonic() < deadline, f"no access log line {wanted}: {hosted.serve_log.read_text()}"
        time.sleep(0.1)


def access_log(path: Path) -> list[dict[str, object]]:
    """The JSON lines of oakwood serve's output (its access log)."""
    lines = []
    for text in path.read_text(errors="replace").splitlines():
        try:
            line = json.loads(text)
        except ValueError:
            continue
        if isinstance(line, dict):
            lines.append(line)
    return lines
