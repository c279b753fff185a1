"""The ``oakwood serve`` command: the lobby, the tables and the browser client in one process."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import logging
import signal
import socket
import sys
from collections.abc import Callable, Iterable
from typing import Annotated
from urllib.parse import urlsplit

import typer
from rich.console import Console

from . import values
from .common import package_version
from .errors import CliInputError, friendly_errors
from .flags import DbOpt
from .storing import open_database


def serve(
    host: Annotated[
        str,
        typer.Option(help="The address to listen on (default: this machine only; 0.0.0.0: every network)."),
    ] = "127.0.0.1",
    port: Annotated[str, typer.Option(help="The port to listen on.", metavar="PORT")] = "8000",
    db: DbOpt = None,
    bot_pace: Annotated[
        str, typer.Option("--bot-pace", help="Seconds a bot waits before each move, so people can follow.")
    ] = "0.8",
    absent_seconds: Annotated[
        str,
        typer.Option("--absent-seconds", help="Seconds without a connection before a bot keeps a player's seat warm."),
    ] = "30",
    bot_processes: Annotated[
        str | None,
        typer.Option(
            "--bot-processes",
            help="Worker processes the hard and expert bots search in, below the server's CPU priority "
            "(default: one a core; 0: in the server's own threads, which slows people's moves while bots think).",
            metavar="N",
        ),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="A reverse proxy (address or network) whose X-Forwarded-For names the client, for the per-address "
            "limits (repeatable; default: this machine, 127.0.0.0/8 and ::1; 'none': never read the header).",
            metavar="ADDRESS",
        ),
    ] = None,
    expire_minutes: Annotated[
        str,
        typer.Option(
            "--expire-minutes",
            help="Minutes a table nobody has played at yet stays with nobody at it before it is removed.",
            metavar="MINUTES",
        ),
    ] = "30",
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="The URL people reach the server at, e.g. https://games.example.org behind a reverse proxy: its "
            "origin is allowed to open WebSockets, and it is the address printed at start.",
            metavar="URL",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            help="Run as one of several processes sharing this Redis (redis://HOST:PORT/N or unix:///PATH) and one "
            "--db: each table is held by one process at a time, any process serves any table, and a process that "
            "dies has its tables taken over by the others (docs/hosting.md).",
            metavar="URL",
        ),
    ] = None,
    lease_seconds: Annotated[
        str,
        typer.Option(
            "--lease-seconds",
            help="With --redis: seconds a process's hold on a table lasts without a heartbeat; a killed process's "
            "tables are taken over after about this long.",
            metavar="SECONDS",
        ),
    ] = "5",
    advertise_url: Annotated[
        str | None,
        typer.Option(
            "--advertise-url",
            help="With --redis: the address at which browsers reach this very process (e.g. "
            "https://games.example.org/node/a, a path the proxy sends to it alone): a connection to a table this "
            "process holds that reaches another process is sent here instead of relayed through Redis.",
            metavar="URL",
        ),
    ] = None,
) -> None:
    """Play in the browser: a lobby, tables with friends and bots, replays (stop with Ctrl-C)."""
    out = Console(highlight=False)
    with friendly_errors():
        port_number = values.whole_number("--port", port, minimum=1, maximum=65535)
        pace = values.seconds("--bot-pace", bot_pace, maximum=10.0, allow_zero=True)
        absent = values.seconds("--absent-seconds", absent_seconds, maximum=86_400.0, allow_zero=True)
        expire = values.whole_number("--expire-minutes", expire_minutes, minimum=1, maximum=10_080)  # a week
        processes = (
            None
            if bot_processes is None
            else values.whole_number("--bot-processes", bot_processes, minimum=0, maximum=256)
        )
        lease = values.seconds("--lease-seconds", lease_seconds, maximum=600.0, allow_zero=False)
        advertised = None
        if advertise_url is not None:
            if redis is None:
                raise CliInputError("--advertise-url is for one of several processes: give --redis too")
            try:
                advertised = check_advertise_url(advertise_url)
            except ValueError as exc:
                raise CliInputError(f"--advertise-url {advertise_url}: {exc}") from None
        if redis is not None:
            _check_redis(redis)
        try:
            import uvicorn

            from oakwood.web.app import (
                LOOPBACK,
                ServerSettings,
                create_app,
                public_origin,
                trusted_networks,
            )
            from oakwood.web.protocol import MAX_MESSAGE_BYTES
            from oakwood.web.registry import TableLimits
            from oakwood.web.room import RoomSettings
        except ImportError as exc:
            raise CliInputError(f"the web server needs its extra: pip install 'oakwood[web]' ({exc})") from None
        proxies = _proxies(trusted_proxy, LOOPBACK, trusted_networks)
        public = None
        if public_url is not None:
            try:
                public = public_origin(public_url)
            except ValueError as exc:
                raise CliInputError(f"--public-url {public_url}: {exc} (e.g. https://games.example.org)") from None
        with contextlib.closing(open_database(db)):  # a bad --db fails here, in one line, before listening
            pass
        _check_port_free(host, port_number)
        settings = ServerSettings(
            db=db,
            room=RoomSettings(bot_pace=pace, absent_seconds=absent),
            version=package_version(),
            trusted_proxies=proxies,
            tables=TableLimits(idle_seconds=expire * 60.0),
            public_url=public,
            redis=redis,
            lease_seconds=lease,
            advertise_url=advertised,
        )
        if processes is not None:
            settings = dataclasses.replace(settings, bot_processes=processes)
        shown_host = _local_address(host)
        local = f"http://{shown_host}:{port_number}/"
        shown = local if public is None else f"{public}/ (listening at {local})"
        out.print(f"Oakwood is at {shown}  (Ctrl-C stops it)", soft_wrap=True)
        # No per-message compression: updates are a few kilobytes, and deflating each one cost the server more
        # CPU than anything but storing the moves (benchmarks/load.py).
        # A client's WebSocket message is at most the protocol's size: uvicorn closes the connection (1009) at a
        # larger frame's header, where its default (16 MiB) buffered a whole frame before the app could refuse
        # it — eight connections sending one each cost the server 146 MiB.
        # uvicorn's own X-Forwarded-For handling is off: it would replace the peer before the app sees it, and
        # the app reads the header itself, from the proxies of --trusted-proxy only (oakwood.web.app).
        # SIGTERM (systemd, a container runtime) is a clean stop: uvicorn stops accepting, closes the connections
        # (waiting at most 5 s for them), and the app's lifespan stops every room's clocks and bots; every move
        # was stored before it was broadcast, so nothing is lost. uvicorn then raises the signal again for the
        # handler that was there before it — the default one would end the process with status 143 — so a
        # handler that only returns is put there first, and the process exits 0.
        # One access log, the app's (a JSON line per request and per WebSocket, on stdout): uvicorn's own is off,
        # so there is one format, and the client is the one the limits count (through --trusted-proxy).
        _log_access()
        previous = signal.signal(signal.SIGTERM, _stopped)
        try:
            uvicorn.run(
                create_app(settings),
                host=host,
                port=port_number,
                log_level="warning",
                ws_per_message_deflate=False,
                ws_max_size=MAX_MESSAGE_BYTES,
                proxy_headers=False,
                timeout_graceful_shutdown=5,
                access_log=False,
            )
        finally:
            signal.signal(signal.SIGTERM, previous)


def _check_redis(url: str) -> None:
    """Refuse in one line a ``--redis`` that is not a Redis URL, whose client is not installed, or that does not
    answer, before the server listens."""
    try:
        import redis as redis_client

        from oakwood.web.cluster import check_redis_url
    except ImportError as exc:
        raise CliInputError(f"--redis needs its extra: pip install 'oakwood[web,cluster]' ({exc})") from None
    try:
        check_redis_url(url)
    except ValueError as exc:
        raise CliInputError(f"--redis {url}: {exc}") from None
    try:
        with redis_client.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5) as probe:
            probe.ping()
    except (redis_client.RedisError, OSError, ValueError) as exc:
        raise CliInputError(f"--redis {url}: Redis does not answer ({exc})") from None


def _log_access() -> None:
    """Print the app's access log lines (``oakwood.access``) as they are, one a line, on stdout."""
    from oakwood.web.app import ACCESS_LOG

    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    ACCESS_LOG.handlers[:] = [handler]
    ACCESS_LOG.setLevel(logging.INFO)
    ACCESS_LOG.propagate = False


def _stopped(signum: int, frame: object) -> None:
    """SIGTERM after uvicorn's own shutdown: the stop was asked for and done, so nothing is left to do."""


def _proxies(
    given: list[str] | None, default: tuple[str, ...], parse: Callable[[Iterable[str]], object]
) -> tuple[str, ...]:
    """The ``--trusted-proxy`` values (the default when none is given; none at all for ``none``), each checked
    by ``parse`` so that a typo is refused in one line before the server starts."""
    if not given:
        return default
    if [text.strip().lower() for text in given] == ["none"]:
        return ()
    for text in given:
        try:
            parse([text])
        except ValueError:
            raise CliInputError(f"--trusted-proxy {text}: not an IP address or network (or 'none')") from None
    return tuple(text.strip() for text in given)


def _local_address(host: str) -> str:
    """How this machine reaches a server listening on ``host``, as a URL writes it (IPv6 in brackets)."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def _check_port_free(host: str, port: int) -> None:
    """Refuse in one line a port that another program holds (uvicorn would print a traceback). The probe is of
    the host's own family: ``--host ::`` (every IPv6 network) or ``::1`` is an IPv6 address."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0][0]
    except socket.gaierror as exc:
        raise CliInputError(f"--host {host}: {exc.strerror}") from None
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise CliInputError(f"port {port} is in use: stop what holds it, or pass --port") from None
            raise CliInputError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def check_advertise_url(url: str) -> str:
    """``url`` without a trailing slash if it is an http or https address with no query or fragment (where a
    process is reached: the WebSocket paths are added to it); ValueError otherwise."""
    parsed = urlsplit(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError("the address of this process starts with http:// or https:// and names a host")
    if parsed.query or parsed.fragment:
        raise ValueError("the address of this process has no query (?) or fragment (#)")
    return url.rstrip("/")
