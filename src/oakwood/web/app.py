"""The FastAPI application of ``oakwood serve``: the lobby and replay API, the table WebSocket, the client.

See ``docs/web.md`` for every route and message. The application reaches the games only through the
engine contract and the tables only through :class:`~oakwood.web.registry.Registry`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import math
import os
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import msgspec
import sqlalchemy
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from oakwood.agents.levels import LEVELS
from oakwood.engine import game_class, game_names, load
from oakwood.store import Store, open_store

from .protocol import ProtocolError, decode, encode, error, too_deep
from .registry import Registry, TableLimits, join
from .replays import replay_info, replay_step
from .room import MOVED, RATE_LIMIT, Client, Room, RoomSettings
from .search_pool import SearchPool
from .table import TableError

if TYPE_CHECKING:  # redis is imported only by a server started with --redis
    from .cluster import Cluster

STATIC = Path(str(resources.files(__package__).joinpath("static")))
#: The largest request body the JSON API reads: the biggest real one, a table with a deck edited as counts,
#: is under 2 KiB.
MAX_BODY_BYTES = 16_384

#: HTTP status of each refusal code of the JSON API.
STATUS = {
    "unknown_table": 404,
    "unknown_game": 404,
    "table_full": 409,
    "seat_taken": 409,
    "others_playing": 409,
    "game_over": 409,
    "bad_token": 403,
    "rate_limited": 429,
    "too_many_waiting": 429,
    "too_many_open": 429,
    "too_many_tables": 503,
    "store": 503,
    "moved": 503,
    "unavailable": 503,
}

#: Tables one client address may create at once (a token bucket's size), and how many a minute after that
#: (its refill): a person creates one every few minutes at most, a family or a classroom behind one address a
#: handful at once; a script making thousands is held to four a minute.
CREATE_BURST = 10
CREATE_PER_MINUTE = 4.0
#: The proxies trusted to say whom they forward for (``X-Forwarded-For``) by default: this machine, where a
#: reverse proxy in front of ``oakwood serve`` usually runs (uvicorn's own default, too).
LOOPBACK = ("127.0.0.0/8", "::1/128")
#: The most client addresses the creation limiter remembers; past it, those whose bucket has refilled (the
#: same as never seen) are forgotten first.
MAX_CLIENTS = 100_000

#: One line per HTTP request and per WebSocket connection, as JSON (``oakwood serve`` prints it on stdout).
ACCESS_LOG = logging.getLogger("oakwood.access")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class ServerSettings:
    """What ``oakwood serve`` was started with."""

    db: str | None = None
    room: RoomSettings = field(default_factory=RoomSettings)
    #: bots thinking at once in threads: the quick ones (``easy``, ``medium``), and every bot when
    #: ``bot_processes`` is 0 (then the threads share the interpreter with the event loop, each searching bot
    #: bounded by ``RoomSettings.bot_seconds``)
    bot_threads: int = 8
    #: worker processes the searching bots (``hard``, ``expert``) think in, at a lower CPU priority than the
    #: server, so a search never holds the event loop (see :mod:`.search_pool`); one a core by default
    bot_processes: int = field(default_factory=lambda: os.cpu_count() or 1)
    #: messages a second one connection may send before it is refused as ``rate_limited``
    rate_limit: int = RATE_LIMIT
    version: str | None = None
    #: the proxies (addresses or networks) whose ``X-Forwarded-For`` names the client; none: never read
    trusted_proxies: tuple[str, ...] = LOOPBACK
    #: tables one client address may create at once, then a minute (see :data:`CREATE_BURST`)
    create_burst: int = CREATE_BURST
    create_per_minute: float = CREATE_PER_MINUTE
    #: what one address may hold of the tables, and when a table nobody plays at expires
    tables: TableLimits = field(default_factory=TableLimits)
    #: the origin people reach the server at (``--public-url``, as :func:`public_origin` gives it), or None
    public_url: str | None = None
    #: the Redis of a service of several processes (``--redis``; see :mod:`.cluster`), or None: one process
    redis: str | None = None
    #: how long a process's hold on a table lasts without a heartbeat (``--lease-seconds``): a killed process's
    #: tables are taken over within about this much
    lease_seconds: float = 5.0
    #: with ``redis``: the address browsers reach this very process at (``--advertise-url``), where connections
    #: to its tables that reach another process are sent; None: they are relayed through Redis
    advertise_url: str | None = None


class CreateTable(msgspec.Struct, forbid_unknown_fields=True):
    """The body of ``POST /api/tables``."""

    game: str
    players: int
    seats: list[str]
    name: str
    options: dict[str, Any] = {}
    turn_seconds: float | None = None
    #: the deal's seed (None: a random one), for a deal people want to play again
    seed: int | None = None


class JoinTable(msgspec.Struct, forbid_unknown_fields=True):
    """The body of ``POST /api/tables/{table}/join``."""

    name: str
    seat: int | None = None


class Abandon(msgspec.Struct, forbid_unknown_fields=True):
    """The body of ``POST /api/tables/{table}/abandon``: the seat's token (never in the URL)."""

    token: str


class RateLimiter:
    """A token bucket per client address: ``burst`` tokens at most, one more every ``60 / per_minute`` seconds.

    Checking costs nothing (:meth:`wait`); a token is taken (:meth:`take`) only when a table was created, so a
    person whose form was refused may correct it and try again at once."""

    def __init__(self, burst: int, per_minute: float, max_clients: int = MAX_CLIENTS) -> None:
        self.burst = burst
        self.interval = 60.0 / per_minute
        self.max_clients = max_clients
        #: client → (tokens, when they were counted)
        self._buckets: dict[str, tuple[float, float]] = {}

    def _tokens(self, client: str, now: float) -> float:
        tokens, then = self._buckets.get(client, (float(self.burst), now))
        return min(float(self.burst), tokens + max(0.0, now - then) / self.interval)

    def wait(self, client: str, now: float) -> float:
        """0 if ``client`` may create a table now, else the seconds until it may."""
        tokens = self._tokens(client, now)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) * self.interval

    def take(self, client: str, now: float) -> None:
        """``client`` created a table: one token less."""
        if client not in self._buckets and len(self._buckets) >= self.max_clients:
            self._forget(now)
        self._buckets[client] = (max(0.0, self._tokens(client, now) - 1.0), now)

    def _forget(self, now: float) -> None:
        """Forget the clients whose bucket is full again; if that is not enough (a flood from very many
        addresses), the oldest half: they get a fresh burst, which the per-address table limits still bound."""
        full = [client for client in self._buckets if self._tokens(client, now) >= self.burst]
        for client in full:
            del self._buckets[client]
        if len(self._buckets) >= self.max_clients:
            oldest = sorted(self._buckets, key=lambda client: self._buckets[client][1])
            for client in oldest[: len(oldest) // 2]:
                del self._buckets[client]


def trusted_networks(addresses: Iterable[str]) -> tuple[IPNetwork, ...]:
    """The networks of ``--trusted-proxy`` values (an address or a network); ValueError names a bad one."""
    return tuple(ipaddress.ip_network(text.strip(), strict=False) for text in addresses)


def _address(text: str) -> IPAddress | None:
    """The IP address in an ``X-Forwarded-For`` hop or a peer (with a port, an IPv6 in brackets), or None."""
    text = text.strip()
    if text.startswith("["):  # [2001:db8::1]:443
        text = text[1 : text.find("]")] if "]" in text else text
    elif text.count(":") == 1:  # 203.0.113.7:443
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped  # ::ffff:203.0.113.7 is 203.0.113.7
    return address


def _trusted(address: IPAddress, trusted: Sequence[IPNetwork]) -> bool:
    return any(address.version == network.version and address in network for network in trusted)


def resolved_address(peer: str | None, forwarded: Sequence[str], trusted: Sequence[IPNetwork]) -> str | None:
    """The address a request came from as :func:`client_address` reads it (the peer, or the first untrusted hop of
    a trusted proxy's ``X-Forwarded-For``), loopback included and IPv6 not widened to its /64: what the access log
    names. None for a Unix socket."""
    if peer is None:
        return None
    address = _address(peer)
    if address is None:
        return peer
    return str(_walk(address, forwarded, trusted))


def _walk(address: IPAddress, forwarded: Sequence[str], trusted: Sequence[IPNetwork]) -> IPAddress:
    """``address``, or if it is a trusted proxy the first address of ``forwarded`` it vouches for that is not."""
    if _trusted(address, trusted):
        hops = [hop for header in forwarded for hop in header.split(",")]
        for hop in reversed(hops):
            named = _address(hop)
            if named is None:
                break
            address = named
            if not _trusted(named, trusted):
                break
    return address


def client_address(peer: str | None, forwarded: Sequence[str], trusted: Sequence[IPNetwork]) -> str | None:
    """Whom a request counts against for the creation limits; None for this machine (not limited).

    The client is the socket's peer, unless the peer is a trusted proxy: then ``X-Forwarded-For`` (``forwarded``,
    every such header in order) is read from the right — each proxy appends the address it got the request
    from — and the client is the first address that is not a trusted proxy. What lies to the left of it was
    written by the client itself and is never believed. A hop that is no address ends the walk at the last
    trusted one. An IPv6 client counts as its /64, the block one subscriber is given, so that one person cannot
    be many. Loopback is this machine: you, your scripts, the tests, or a proxy that did not say for whom (a
    proxy on this machine must append ``X-Forwarded-For``)."""
    if peer is None:  # a Unix socket: only this machine reaches it
        return None
    address = _address(peer)
    if address is None:
        return peer  # not an IP (a test client): a client of its own
    address = _walk(address, forwarded, trusted)
    if address.is_loopback:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def public_origin(text: str) -> str:
    """The origin of a ``--public-url`` (``https://games.example.org``, lower case, no trailing ``/``).

    ValueError says in a sentence what is wrong: only an ``http`` or ``https`` URL with a host and nothing after
    it but ``/`` is one, since the server is served at the root of its origin and a path, a query or a
    password would make links and the WebSocket origin check silently wrong."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port  # ValueError for a port that is not one
    except ValueError:
        raise ValueError("not a URL") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError("the scheme must be http or https")
    if not parts.hostname:
        raise ValueError("there is no host")
    if parts.username is not None or parts.password is not None:
        raise ValueError("a user or password has no place in it")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("the server is served at the root: nothing may follow the host but '/'")
    host = parts.hostname.lower()
    if ":" in host:  # IPv6: back in brackets
        host = f"[{host}]"
    scheme = parts.scheme.lower()
    default = 443 if scheme == "https" else 80  # a browser's Origin header leaves the default port out
    return f"{scheme}://{host}" + ("" if port in (None, default) else f":{port}")


#: The Content-Security-Policy of every answer: the client is plain files of this origin, so nothing else may
#: run, load, frame it or be framed. ``style-src-attr 'unsafe-inline'`` lets the client's scripts set ``style``
#: attributes (its element builder takes ``style`` text, and its morph copies attributes across, the style
#: included); ``<style>`` elements and inline scripts stay forbidden. ``data:`` images are the CSS's SVG card
#: backs. ``connect-src 'self'`` covers the WebSocket of the same host (ws: and wss:, CSP level 3).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
#: The headers every HTTP answer carries.
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
#: Answers that are never a document, so a policy on them governs nothing: a stylesheet or a script module is
#: shown as plain text when opened (with ``nosniff``, never as HTML). They go without the CSP so that a test
#: page may open one to be on this origin and then write a page of its own (the Nutty drawing tests do).
NOT_DOCUMENTS = (b"text/css", b"text/javascript", b"application/javascript")


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP answer (pages, files, the API, errors alike), and
    :data:`CONTENT_SECURITY_POLICY` on every one that might be shown as a document (all but :data:`NOT_DOCUMENTS`:
    the pages, the API's JSON, the SVG icon, the errors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower(): value for name, value in headers}
                extra = [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                kind = present.get(b"content-type", b"").partition(b";")[0].strip().lower()
                if kind not in NOT_DOCUMENTS and b"content-security-policy" not in present:
                    extra.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))
                message = {**message, "headers": [*headers, *extra]}
            await send(message)

        await self.app(scope, receive, sending)


class AccessLog:
    """ASGI middleware: one JSON line in :data:`ACCESS_LOG` per HTTP request and per WebSocket connection, when it
    ends: ``time`` (UTC), ``client`` (``address``'s answer), ``method`` (``WS`` for a WebSocket), ``path`` (never
    the query string: nothing secret is ever in a URL, and it stays that way even if a client puts one there),
    ``status`` (101 for an accepted WebSocket, 403 for one refused before it was), ``ms``, ``bytes`` (the body
    sent, or the messages sent on a WebSocket) and, for a WebSocket, ``close`` (its close code). Nothing of a
    body or a message is written, so a seat's token (in a POST body or the WebSocket ``hello``) never is."""

    def __init__(self, app: ASGIApp, address: Callable[[Scope], str | None]) -> None:
        self.app = app
        self.address = address

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        websocket = scope["type"] == "websocket"
        status, sent, close = 0, 0, None

        async def receiving() -> Message:
            nonlocal close
            message = await receive()
            if message["type"] == "websocket.disconnect":
                close = message.get("code", 1005)
            return message

        async def sending(message: Message) -> None:
            nonlocal status, sent, close
            kind = message["type"]
            if kind in ("http.response.start", "websocket.http.response.start"):
                status = message["status"]
            elif kind in ("http.response.body", "websocket.http.response.body"):
                sent += len(message.get("body", b""))
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.send":
                text = message.get("text")
                sent += len(text.encode()) if isinstance(text, str) else len(message.get("bytes") or b"")
            elif kind == "websocket.close":
                status = status or 403  # closed before it was accepted: the handshake is refused with a 403
                close = message.get("code", 1000)
            await send(message)

        try:
            await self.app(scope, receiving if websocket else receive, sending)
        except BaseException:
            status = status or 500
            raise
        finally:
            line: dict[str, Any] = {
                "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "client": self.address(scope) or "-",
                "method": "WS" if websocket else scope.get("method", "-"),
                "path": scope.get("path", ""),
                "status": status,
                "ms": round((time.monotonic() - started) * 1000.0, 1),
                "bytes": sent,
            }
            if websocket:
                line["close"] = close
            ACCESS_LOG.info(json.dumps(line, ensure_ascii=False, separators=(",", ":")))


def same_site(origin: str | None, host: str | None, public: str | None) -> bool:
    """Whether a WebSocket's ``Origin`` may open it: absent (not a browser: a browser always sends one, and a
    script can forge nothing it could not do without), the page's own address (an http or https origin whose
    host and port are the request's ``Host``; the scheme is not compared, since behind a TLS proxy the server
    sees plain HTTP), or ``public``, the ``--public-url`` origin (a proxy may pass its own ``Host`` on). Anything
    else is another site's page trying to act with a visitor's browser: cross-site WebSocket hijacking."""
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if public is not None and origin == public:
        return True
    scheme, _, netloc = origin.partition("://")
    return scheme in ("http", "https") and bool(netloc) and host is not None and netloc == host.strip().lower()


def socket_url(address: str, table_id: str) -> str:
    """The WebSocket address of ``table_id`` at a process reached at ``address`` (its ``--advertise-url``)."""
    scheme, rest = address.split("://", 1)
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws/tables/{table_id}"


def refusal(code: str, message: str, status: int | None = None) -> JSONResponse:
    """A JSON error answer: ``{"error": {"code", "message"}}``."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status or STATUS.get(code, 400))


async def body_of(request: Request, kind: type[Any]) -> Any:
    """The request's JSON body as ``kind``; :class:`ProtocolError` when it is not one.

    At most :data:`MAX_BODY_BYTES` are ever read: a declared ``Content-Length`` over it is refused before a
    byte of the body is read, and a body without one (chunked) is refused as soon as it passes the limit, so
    a client cannot make the server hold more than that of its body whatever it claims or sends."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            size = int(declared)
        except ValueError:  # the HTTP server refuses most of these itself
            raise ProtocolError("malformed", "the Content-Length header is not a number") from None
        if size > MAX_BODY_BYTES:
            raise ProtocolError("too_large", f"a request body may be at most {MAX_BODY_BYTES // 1024} KiB")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            raise ProtocolError("too_large", f"a request body may be at most {MAX_BODY_BYTES // 1024} KiB")
    try:
        return msgspec.json.decode(bytes(raw), type=kind)
    except msgspec.ValidationError as exc:
        raise ProtocolError("malformed", f"not a valid request: {exc}") from None
    except msgspec.DecodeError:
        raise ProtocolError("malformed", "the request body is not JSON") from None
    except RecursionError:  # msgspec's answer to deep nesting (see protocol.too_deep)
        raise too_deep() from None


def stored_id(game_id: int) -> int:
    """``game_id`` if a database can hold it; ``unknown_game`` otherwise (SQLite's integers are 64-bit, and a
    larger one made the driver raise)."""
    if not 0 < game_id < 2**63:
        raise TableError("unknown_game", f"there is no game {game_id}")
    return game_id


#: How long ``/healthz`` waits for the store before it says the server is unwell.
HEALTH_SECONDS = 5.0
#: The query ``/healthz`` asks: cheap on any database, and it needs the schema, not just a connection (a SQLite
#: file deleted under the server would still answer ``SELECT 1``).
HEALTH_QUERY = sqlalchemy.text("SELECT 1 FROM web_tables LIMIT 1")


def store_answers(store: Store) -> bool:
    """Whether the store answers a cheap query (in a thread: the driver blocks)."""
    try:
        with store.engine.connect() as connection:
            connection.execute(HEALTH_QUERY).all()
    except Exception:  # any failure of the database or its driver is the answer, not an error of the server
        return False
    return True


def catalog() -> dict[str, Any]:
    """Every game with its player range, options (default, choices, bounds, help, and an editor for those
    whose text holds a structure, such as a deck's counts) and the bot levels."""
    games = []
    for name in game_names():
        cls = game_class(name)
        editors = cls.options_class.editors()
        games.append(
            {
                "name": name,
                "title": cls.title,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "options": [
                    {
                        "editor": editors.get(info.name),
                        "name": info.name,
                        "default": info.default,
                        "type": type(info.default).__name__,
                        "choices": None if info.choices is None else list(info.choices),
                        "minimum": info.minimum,
                        "maximum": info.maximum,
                        "help": info.help,
                        "ruling": info.ruling,
                    }
                    for info in cls.options_class.describe()
                ],
            }
        )
    return {"games": games, "levels": list(LEVELS)}


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The application; its store, bots and tables start with it and stop with it."""
    config = settings or ServerSettings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = open_store(config.db)
        executor = ThreadPoolExecutor(max_workers=config.bot_threads, thread_name_prefix="oakwood-bot")
        searches = SearchPool(config.bot_processes) if config.bot_processes > 0 else None
        registry = Registry(store, executor, config.room, config.version, config.tables, searches)
        cluster = None
        if config.redis is None:
            registry.restore()
        else:  # one of several processes: the tables are claimed from the store, not all restored here
            from .cluster import Cluster

            cluster = Cluster(registry, config.redis, config.lease_seconds, config.advertise_url)
        app.state.registry = registry
        app.state.store = store
        app.state.cluster = cluster
        await registry.start()
        if cluster is not None:
            await cluster.start()
        try:
            yield
        finally:
            if cluster is not None:
                await cluster.stop()
            else:
                await registry.close()
            executor.shutdown(wait=False, cancel_futures=True)
            if searches is not None:
                searches.shutdown()
            store.close()

    app = FastAPI(title="Oakwood", lifespan=lifespan, docs_url=None, redoc_url=None)
    trusted = trusted_networks(config.trusted_proxies)
    creations = RateLimiter(config.create_burst, config.create_per_minute)

    def client_of(request: Request) -> str | None:
        peer = request.client.host if request.client is not None else None
        return client_address(peer, request.headers.getlist("x-forwarded-for"), trusted)

    def logged_address(scope: Scope) -> str | None:
        peer = scope.get("client")
        forwarded = [value.decode("latin-1") for name, value in scope.get("headers", ()) if name == b"x-forwarded-for"]
        return resolved_address(peer[0] if peer else None, forwarded, trusted)

    app.add_middleware(SecurityHeaders)
    app.add_middleware(AccessLog, address=logged_address)  # the last added is outermost: it times everything

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def registry_of(request: Request | WebSocket) -> Registry:
        registry: Registry = request.app.state.registry
        return registry

    def cluster_of(request: Request | WebSocket) -> Cluster | None:
        cluster: Cluster | None = request.app.state.cluster
        return cluster

    async def locate(request: Request | WebSocket, table_id: str) -> Room | str:
        """The room of ``table_id`` if this process holds it, else (with ``--redis``) the node that does;
        ``unknown_table`` if there is none."""
        cluster = cluster_of(request)
        if cluster is None:
            return registry_of(request).get(table_id)
        where = await cluster.locate(table_id)
        if where is None:
            return registry_of(request).get(table_id)  # a finished table still held here, else unknown_table
        return where

    def page(name: str) -> FileResponse | PlainTextResponse:
        path = STATIC / name
        if not path.is_file():
            return PlainTextResponse(f"the browser client is not installed ({name} is missing)", status_code=500)
        return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})

    @app.exception_handler(ProtocolError)  # a TableError is one too
    async def refused(request: Request, exc: ProtocolError) -> JSONResponse:
        if exc.code == "too_large":
            # the rest of the body is not read: closing the connection spares the server from draining it
            response = refusal(exc.code, exc.message, 413)
            response.headers["Connection"] = "close"
            return response
        return refusal(exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def unreadable(request: Request, exc: RequestValidationError) -> JSONResponse:
        # a path or query parameter of the wrong type: refused in the API's own format, not FastAPI's
        where = ", ".join(".".join(str(part) for part in problem.get("loc", ())) for problem in exc.errors())
        return refusal("malformed", f"not a valid request: {where or 'bad parameters'}")

    @app.get("/", response_model=None)
    async def lobby_page() -> FileResponse | PlainTextResponse:
        return page("index.html")

    @app.get("/favicon.ico", response_model=None)
    async def favicon() -> FileResponse | PlainTextResponse:
        path = STATIC / "favicon.svg"
        if not path.is_file():
            return PlainTextResponse("no icon", status_code=404)
        return FileResponse(path, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    @app.get("/t/{table_id}", response_model=None)
    async def table_page(table_id: str) -> FileResponse | PlainTextResponse:
        return page("table.html")

    @app.get("/replay/{game_id}", response_model=None)
    async def replay_page(game_id: int) -> FileResponse | PlainTextResponse:
        return page("replay.html")

    @app.get("/healthz")
    async def healthz(request: Request) -> JSONResponse:
        # for a load balancer, a container runtime or a monitor: the loop answers (this runs) and the store does
        store: Store = request.app.state.store
        try:
            answers = await asyncio.wait_for(asyncio.to_thread(store_answers, store), HEALTH_SECONDS)
        except TimeoutError:
            answers = False
        error_text = None if answers else "the store does not answer"
        cluster = cluster_of(request)
        if answers and cluster is not None and not await cluster.answers(HEALTH_SECONDS):
            answers, error_text = False, "Redis does not answer"
        body: dict[str, Any] = {"status": "ok" if answers else "unavailable", "version": config.version}
        if answers:
            body["tables"] = len(registry_of(request).rooms)
        else:
            body["error"] = error_text
        return JSONResponse(body, status_code=200 if answers else 503, headers={"Cache-Control": "no-store"})

    @app.get("/api/catalog")
    async def get_catalog() -> dict[str, Any]:
        return catalog()

    @app.get("/api/tables")
    async def list_tables(request: Request) -> dict[str, Any]:
        registry, cluster = registry_of(request), cluster_of(request)
        if cluster is None:
            tables = registry.summaries()
        else:
            tables = await cluster.lobby()
        return {"tables": tables, "history": await asyncio.to_thread(registry.history)}

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        client = client_of(request)
        cluster = cluster_of(request)
        if client is not None:  # refused before the body is read: a flood costs next to nothing
            # with --redis the address's bucket is shared by every process (this one's own if Redis is away)
            shared = None
            if cluster is not None:
                shared = await cluster.creation_wait(client, creations.burst, creations.interval)
            wait = creations.wait(client, time.monotonic()) if shared is None else shared
            if wait > 0:
                return too_soon(wait)
        body: CreateTable = await body_of(request, CreateTable)
        registry = registry_of(request)
        if cluster is None or client is None:
            return await create_table_now(registry, body, client, cluster)
        async with cluster.creating(client):  # one creation of an address at a time, at every process
            shared = await cluster.creation_wait(client, creations.burst, creations.interval)
            if shared is not None and shared > 0:  # taken meanwhile by a creation at another process
                return too_soon(shared)
            await cluster.check_client(client, registry.limits)  # what the address holds at every process
            return await create_table_now(registry, body, client, cluster)

    def too_soon(wait: float) -> JSONResponse:
        """The refusal of a new table to an address whose creations come faster than the bucket allows."""
        seconds = math.ceil(wait)
        answer = refusal("rate_limited", f"too many new tables from your address: try again in {seconds} s")
        answer.headers["Retry-After"] = str(seconds)
        return answer

    async def create_table_now(
        registry: Registry, body: CreateTable, client: str | None, cluster: Cluster | None
    ) -> JSONResponse:
        """Create the table ``body`` asks for, once every limit let it through, and count it against ``client``."""

        def create(table_id: str | None = None) -> tuple[Room, int, str]:
            return registry.create(
                game_name=body.game,
                players=body.players,
                options=body.options,
                seats=body.seats,
                name=body.name,
                turn_seconds=body.turn_seconds,
                seed=body.seed,
                client=client,
                table_id=table_id,
            )

        if cluster is None:
            room, seat, token = create()
        else:  # the table's lease is claimed before the table exists anywhere
            room, seat, token = await cluster.new_table(create)
        if client is not None:
            creations.take(client, time.monotonic())
            if cluster is not None:
                await cluster.created_by(client, room.table.id, creations.burst, creations.interval)
        await room.changed()
        return JSONResponse({"table": room.table.summary(), "seat": seat, "token": token}, status_code=201)

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        cluster = cluster_of(request)
        room = registry_of(request).rooms.get(table_id)
        if cluster is not None and room is None:
            listed = await cluster.summary(table_id)
            if listed is not None:
                return listed
        summary: dict[str, Any] = registry_of(request).get(table_id).table.summary()
        return summary

    @app.post("/api/tables/{table_id}/join")
    async def join_table(request: Request, table_id: str) -> dict[str, Any]:
        body: JoinTable = await body_of(request, JoinTable)
        where = await locate(request, table_id)  # after the body's await: the table may have expired meanwhile
        cluster = cluster_of(request)
        if isinstance(where, str) and cluster is not None:  # another process holds it: it seats the player
            return await cluster.call(where, table_id, "join", {"name": body.name, "seat": body.seat})
        assert isinstance(where, Room)
        answer = await join(where, body.name, body.seat)
        if cluster is not None:
            await cluster.publish_summary(where)
        return answer

    @app.post("/api/tables/{table_id}/abandon")
    async def abandon_table(request: Request, table_id: str) -> dict[str, Any]:
        body: Abandon = await body_of(request, Abandon)
        where = await locate(request, table_id)  # after the body's await: the table may have expired meanwhile
        cluster = cluster_of(request)
        if isinstance(where, str) and cluster is not None:
            return await cluster.call(where, table_id, "abandon", {"token": body.token})
        assert isinstance(where, Room)
        room = where
        await room.abandon(body.token)
        summary: dict[str, Any] = room.table.summary()
        return summary

    @app.get("/api/rules/{game}")
    async def rules(game: str) -> PlainTextResponse:
        if game not in game_names():
            raise TableError("unknown_game", "there is no such game")
        return PlainTextResponse(load(game).rules_document(), media_type="text/markdown; charset=utf-8")

    @app.get("/api/replays/{game_id}")
    async def get_replay(request: Request, game_id: int) -> dict[str, Any]:
        store: Store = request.app.state.store
        return await asyncio.to_thread(replay_info, store, stored_id(game_id))

    @app.get("/api/replays/{game_id}/{step}")
    async def get_replay_step(request: Request, game_id: int, step: int, seat: int | None = None) -> dict[str, Any]:
        store: Store = request.app.state.store
        return await asyncio.to_thread(replay_step, store, stored_id(game_id), step, seat)

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        if not same_site(websocket.headers.get("origin"), websocket.headers.get("host"), config.public_url):
            await websocket.close(code=1008)  # before accepting: the handshake is answered 403
            return
        await websocket.accept()
        try:
            where = await locate(websocket, table_id)
        except TableError as exc:
            await websocket.send_text(encode(error(exc.code, exc.message)))
            # a table that does not exist is final (4404); a service briefly away is retried (4010)
            await websocket.close(code=4404 if exc.code == "unknown_table" else MOVED)
            return
        cluster = cluster_of(websocket)
        if isinstance(where, str) and cluster is not None:  # another process holds it
            # sent to its own address if it has one (nothing relayed), unless the client asks to be relayed (it
            # could not reach that address); else its frames are relayed through Redis
            address = None if websocket.query_params.get("relay") else await cluster.address_of(where)
            if address is not None:
                with contextlib.suppress(Exception):  # a client already gone needs telling nothing
                    await websocket.send_text(encode({"type": "moved", "url": socket_url(address, table_id)}))
                    await websocket.close(code=MOVED)
                return
            await cluster.relay(websocket, table_id, where, config.rate_limit)
            return
        assert isinstance(where, Room)
        room = where
        client = Client(websocket)
        try:
            await room.connect(client)  # inside: a connect that fails still stops the client's writer below
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect" or client.behind:  # (one that fell behind is let go)
                    break
                text, raw = frame.get("text"), frame.get("bytes")
                data: str | bytes = text if isinstance(text, str) else raw if isinstance(raw, bytes) else b""
                # floods are refused before anything reads them
                if client.over_rate(time.monotonic(), config.rate_limit):
                    room.tell(client, error("rate_limited", f"more than {config.rate_limit} messages a second"))
                    continue
                try:
                    message = decode(data)
                except ProtocolError as exc:
                    room.tell(client, error(exc.code, exc.message))
                    continue
                await room.receive(client, message)
        except WebSocketDisconnect:
            pass
        finally:
            await room.disconnect(client)
            registry_of(websocket).seen(table_id)  # an unstarted table is idle from now, not from its creation
            # one that fell behind is closed with its code (4008) before the handler ends and the server closes
            # the transport without one
            await client.hung_up()

    return app
