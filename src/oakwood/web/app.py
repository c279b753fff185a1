"""The FastAPI application of ``oakwood serve``: the lobby and replay API, the table WebSocket, the client.

See ``docs/web.md`` for every route and message. The application reaches the games only through the
engine contract and the tables only through :class:`~oakwood.web.registry.Registry`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from oakwood.agents.levels import LEVELS
from oakwood.engine import game_class, game_names, load
from oakwood.store import Store, open_store

from .protocol import ProtocolError, decode, encode, error, too_deep
from .registry import Registry, check_name
from .replays import replay_info, replay_step
from .room import RATE_LIMIT, Client, RoomSettings
from .table import TableError

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
    "store": 503,
}


@dataclass(frozen=True)
class ServerSettings:
    """What ``oakwood serve`` was started with."""

    db: str | None = None
    room: RoomSettings = field(default_factory=RoomSettings)
    #: bots thinking at once: more than the cores, so one table's long search never queues another's move
    #: (the threads share the interpreter, each searching bot bounded by ``RoomSettings.bot_seconds``)
    bot_threads: int = 8
    #: messages a second one connection may send before it is refused as ``rate_limited``
    rate_limit: int = RATE_LIMIT
    version: str | None = None


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
        registry = Registry(store, executor, config.room, config.version)
        registry.restore()
        app.state.registry = registry
        app.state.store = store
        await registry.start()
        try:
            yield
        finally:
            await registry.close()
            executor.shutdown(wait=False, cancel_futures=True)
            store.close()

    app = FastAPI(title="Oakwood", lifespan=lifespan, docs_url=None, redoc_url=None)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def registry_of(request: Request | WebSocket) -> Registry:
        registry: Registry = request.app.state.registry
        return registry

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

    @app.get("/api/catalog")
    async def get_catalog() -> dict[str, Any]:
        return catalog()

    @app.get("/api/tables")
    async def list_tables(request: Request) -> dict[str, Any]:
        registry = registry_of(request)
        return {"tables": registry.summaries(), "history": await asyncio.to_thread(registry.history)}

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        body: CreateTable = await body_of(request, CreateTable)
        room, seat, token = registry_of(request).create(
            game_name=body.game,
            players=body.players,
            options=body.options,
            seats=body.seats,
            name=body.name,
            turn_seconds=body.turn_seconds,
            seed=body.seed,
        )
        await room.changed()
        return JSONResponse({"table": room.table.summary(), "seat": seat, "token": token}, status_code=201)

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        summary: dict[str, Any] = registry_of(request).get(table_id).table.summary()
        return summary

    @app.post("/api/tables/{table_id}/join")
    async def join_table(request: Request, table_id: str) -> dict[str, Any]:
        room = registry_of(request).get(table_id)
        body: JoinTable = await body_of(request, JoinTable)
        if body.seat is not None and not 0 <= body.seat < len(room.table.seats):
            raise TableError("bad_request", f"there is no seat {body.seat + 1} at this table")
        seat, token = room.table.take_seat(check_name(body.name), body.seat)
        await room.changed()
        return {"table": room.table.summary(), "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/abandon")
    async def abandon_table(request: Request, table_id: str) -> dict[str, Any]:
        room = registry_of(request).get(table_id)
        body: Abandon = await body_of(request, Abandon)
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
        await websocket.accept()
        try:
            room = registry_of(websocket).get(table_id)
        except TableError as exc:
            await websocket.send_text(encode(error(exc.code, exc.message)))
            await websocket.close(code=4404)
            return
        client = Client(websocket)
        await room.connect(client)
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text, raw = frame.get("text"), frame.get("bytes")
                data: str | bytes = text if isinstance(text, str) else raw if isinstance(raw, bytes) else b""
                # floods are refused before anything reads them
                if client.over_rate(time.monotonic(), config.rate_limit):
                    flood = error("rate_limited", f"more than {config.rate_limit} messages a second")
                    await websocket.send_text(encode(flood))
                    continue
                try:
                    message = decode(data)
                except ProtocolError as exc:
                    await websocket.send_text(encode(error(exc.code, exc.message)))
                    continue
                await room.receive(client, message)
        except WebSocketDisconnect:
            pass
        finally:
            await room.disconnect(client)

    return app
