"""The repository: every read and write of the store, in a few methods that speak in plain records.

Writes are transactions that land whole (a batch of games, a game's new moves) and are shielded from Ctrl-C
while they run (:func:`interrupts_deferred`); every database failure becomes one :class:`StoreError`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Connection, Engine, Table, bindparam, delete, insert, select, update
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from . import database
from .errors import GameMoved, StoreError
from .interrupts import interrupts_deferred
from .models import (
    ABANDONED,
    FINISHED,
    RUNNING,
    SOURCES,
    GameFeaturesRow,
    GameRow,
    RatingRow,
    SeatRow,
    TournamentRow,
    WebTableRow,
)
from .records import (
    EndedWebTable,
    GameListing,
    NewGame,
    PlayedGame,
    Rating,
    StoredGame,
    Tournament,
    TournamentGame,
    TournamentSettings,
    WebTable,
)

#: How many threads a store's :attr:`Store.writer` runs writes in: writes of different games go on side by side
#: (PostgreSQL overlaps their round trips; a write stuck on a row or a lock holds up only its own game), few
#: enough that the connection pool (5 connections and 10 more by default) always has one for each.
WRITER_THREADS = 4

GAMES = cast(Table, GameRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
TOURNAMENTS = cast(Table, TournamentRow.__table__)
RATINGS = cast(Table, RatingRow.__table__)
WEB_TABLES = cast(Table, WebTableRow.__table__)
FEATURES = cast(Table, GameFeaturesRow.__table__)

# A game's moves are saved after every move of a live game (play, the web): one statement built once, with
# bound parameters, so SQLAlchemy compiles it once instead of on every move.
_SAVE_MOVES = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("game_id"))
    .values(actions=bindparam("actions"), steps=bindparam("steps"))
)
_SAVE_ENDING = _SAVE_MOVES.values(
    status=bindparam("status"),
    scores=bindparam("scores"),
    returns=bindparam("returns"),
    winners=bindparam("winners"),
    finished_at=bindparam("finished_at"),
)
# The same, guarded (servers sharing the store: only over the moves this server saved last). Built once too: a
# ``where`` added at every move made a new statement, whose building and cache key cost a clustered server
# about a quarter of a millisecond a move (cProfile of `benchmarks/load.py --processes 2`).
_GUARD = (GAMES.c.steps == bindparam("expected_steps"), GAMES.c.status == bindparam("running"))
_SAVE_MOVES_GUARDED = _SAVE_MOVES.where(*_GUARD)
_SAVE_ENDING_GUARDED = _SAVE_ENDING.where(*_GUARD)


def _save_moves_statement(
    game_id: int,
    actions: Sequence[tuple[int, int]],
    scores: Sequence[float] | None,
    returns: Sequence[float] | None,
    winners: Sequence[int] | None,
    expected_steps: int | None,
) -> tuple[Any, dict[str, Any]]:
    """The prebuilt statement of a save of moves (:meth:`Store.save_moves`) and its values: with the outcome when
    ``winners`` is given, guarded by the stored count of moves when ``expected_steps`` is."""
    values: dict[str, Any] = {"game_id": game_id, "actions": [list(p) for p in actions], "steps": len(actions)}
    guarded = expected_steps is not None
    statement = _SAVE_MOVES_GUARDED if guarded else _SAVE_MOVES
    if winners is not None:
        values.update(status=FINISHED, scores=scores, returns=returns, winners=winners, finished_at=now())
        statement = _SAVE_ENDING_GUARDED if guarded else _SAVE_ENDING
    if guarded:
        values.update(expected_steps=expected_steps, running=RUNNING)
    return statement, values


def now() -> datetime:
    """The current time in UTC (stored with its zone where the database keeps one)."""
    return datetime.now(UTC)


def _utc(moment: datetime | None) -> datetime | None:
    """SQLite gives back naive times: they were written in UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def open_store(url: str | None = None) -> Store:
    """Open the database at ``url`` (else ``$OAKWOOD_DB``, else the user's SQLite file) and upgrade it to
    the latest schema. :class:`StoreError` says in one sentence why it cannot be opened."""
    engine = database.create(database.resolve_url(url))
    try:
        database.upgrade(engine)
    except BaseException:
        engine.dispose()
        raise
    return Store(engine)


class Store:
    """Games, seats, tournaments and ratings in one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # SQLite has one writer per file: this process's own writes (from several threads, see :attr:`writer`)
        # queue here, handed over at once, instead of polling the file's lock (SQLite's busy handler sleeps
        # 1, 2, 5 … 100 ms between tries). Another process's writes are still waited for by the busy timeout.
        self._write_lock: threading.Lock | None = threading.Lock() if engine.dialect.name == "sqlite" else None
        self._writer: ThreadPoolExecutor | None = None
        #: the same SQLite file with a busy timeout of 0, for :meth:`save_moves_if_free` (None: not a file)
        self._free_engine: Engine | None = database.no_wait(engine)
        self._writer_guard = threading.Lock()

    @property
    def url(self) -> str:
        """Where the store is, as it may be shown (no password)."""
        return database.describe(self.engine.url)

    @property
    def writer(self) -> ThreadPoolExecutor:
        """The threads an event loop runs this store's calls in (``loop.run_in_executor(store.writer, …)``), so
        that a write waiting for the database (a lock, a round trip) holds up no other work of the loop. Made
        when first asked for. A caller that needs its writes in order (one game's moves) must not start the next
        before the last has returned: the threads run side by side."""
        with self._writer_guard:
            if self._writer is None:
                self._writer = ThreadPoolExecutor(WRITER_THREADS, thread_name_prefix="oakwood-store")
            return self._writer

    def close(self) -> None:
        """Release every connection (after the writes under way in :attr:`writer` have landed)."""
        with self._writer_guard:
            writer, self._writer = self._writer, None
        if writer is not None:
            writer.shutdown(wait=True)
        if self._free_engine is not None:
            self._free_engine.dispose()
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ transactions
    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction that lands whole, Ctrl-C held back until it has (one at a time in this process on
        SQLite, which has one writer anyway)."""
        one_writer = self._write_lock if self._write_lock is not None else nullcontext()
        with interrupts_deferred(), one_writer, self._errors(), self.engine.begin() as connection:
            yield connection

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with self._errors(), self.engine.connect() as connection:
            yield connection

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except SQLAlchemyError as exc:
            raise StoreError(f"database error in {self.url}: {database.reason(exc)}") from None

    # ------------------------------------------------------------------ games
    def record_games(self, games: Sequence[NewGame]) -> list[int]:
        """Record finished games in one transaction; their ids, in order."""
        if not games:
            return []
        moment = now()
        rows = [
            {
                "game": g.game,
                "options": g.options,
                "players": g.players,
                "seed": g.seed,
                "start": g.start,
                "actions": g.actions,
                "steps": g.action_count(),
                "status": FINISHED,
                "source": _source(g.source),
                "scores": g.scores,
                "returns": g.returns,
                "winners": g.winners,
                "started_at": moment,
                "finished_at": moment,
                "tournament_id": g.tournament_id,
                "game_index": g.game_index,
            }
            for g in games
        ]
        with self._writing() as connection:
            if connection.dialect.name == "sqlite":
                ids = _insert_many_sqlite(connection, rows)
            else:
                for row in rows:  # SQLAlchemy writes the JSON itself
                    if isinstance(row["actions"], str):
                        row["actions"] = json.loads(row["actions"])
                result = connection.execute(insert(GAMES).returning(GAMES.c.id, sort_by_parameter_order=True), rows)
                ids = [row[0] for row in result]
            seats = [
                {"game_id": game_id, "seat": seat, "agent": agent}
                for game_id, g in zip(ids, games, strict=True)
                for seat, agent in enumerate(g.agents)
            ]
            connection.execute(insert(SEATS), seats)
        return ids

    def start_game(
        self,
        *,
        game: str,
        options: dict[str, Any],
        players: int,
        seed: int,
        agents: Sequence[str],
        source: str,
        start: str | None = None,
        version: str | None = None,
    ) -> int:
        """Create the row of a game about to be played (``running``, no moves yet); its id. ``version`` is the
        Oakwood version playing it (a game is resumed only by the same version)."""
        with self._writing() as connection:
            game_id: int = connection.execute(
                insert(GAMES).returning(GAMES.c.id),
                {
                    "game": game,
                    "options": options,
                    "players": players,
                    "seed": seed,
                    "start": start,
                    "actions": [],
                    "steps": 0,
                    "status": RUNNING,
                    "source": _source(source),
                    "started_at": now(),
                    "version": version,
                },
            ).scalar_one()
            connection.execute(
                insert(SEATS), [{"game_id": game_id, "seat": s, "agent": a} for s, a in enumerate(agents)]
            )
        return game_id

    def save_moves(
        self,
        game_id: int,
        actions: Sequence[tuple[int, int]],
        *,
        scores: Sequence[float] | None = None,
        returns: Sequence[float] | None = None,
        winners: Sequence[int] | None = None,
        expected_steps: int | None = None,
    ) -> None:
        """Replace a game's action history (moves appended, or one taken back); with the outcome, the game
        is finished. With ``expected_steps``, only if the stored history still has that many moves and the game
        is running (a guard for servers sharing the store: a server that lost a table to another cannot write
        over the moves the other stored); :class:`GameMoved` if not."""
        statement, values = _save_moves_statement(game_id, actions, scores, returns, winners, expected_steps)
        with self._writing() as connection:
            self._save_moves_in(connection, statement, values)

    def save_moves_if_free(
        self,
        game_id: int,
        actions: Sequence[tuple[int, int]],
        *,
        scores: Sequence[float] | None = None,
        returns: Sequence[float] | None = None,
        winners: Sequence[int] | None = None,
        expected_steps: int | None = None,
    ) -> bool:
        """:meth:`save_moves` here and now if that needs no waiting; False (nothing written) if it would wait.

        A SQLite file whose write lock is free (no other process, and no thread of this one, writing) takes the
        write at once: it is tried with a busy timeout of 0, so a lock held elsewhere answers "busy" at once instead
        of being waited for. A PostgreSQL store always answers False: every write is a round trip. An event loop
        calls this first and sends the write to :attr:`writer` only when it is False: a thread and back cost a
        server about 0.6 ms of CPU a move under load, for a write of about 0.1 ms (``benchmarks/README.md``)."""
        if self._free_engine is None or self._write_lock is None:
            return False
        if not self._write_lock.acquire(blocking=False):
            return False
        try:
            statement, values = _save_moves_statement(game_id, actions, scores, returns, winners, expected_steps)
            try:
                with interrupts_deferred(), self._free_engine.begin() as connection:
                    self._save_moves_in(connection, statement, values)
            except OperationalError as exc:
                if database.is_busy(exc):
                    return False  # rolled back: the lock is someone else's, the write goes where it may wait
                raise StoreError(f"database error in {self.url}: {database.reason(exc)}") from None
            except SQLAlchemyError as exc:
                raise StoreError(f"database error in {self.url}: {database.reason(exc)}") from None
            return True
        finally:
            self._write_lock.release()

    def _save_moves_in(self, connection: Connection, statement: Any, values: dict[str, Any]) -> None:
        """Run a save of moves (:meth:`save_moves`) in ``connection``'s transaction."""
        done = connection.execute(statement, values)
        if done.rowcount != 1:
            if "expected_steps" in values:
                raise GameMoved(f"game {values['game_id']} was changed by another server (or is not running)")
            raise StoreError(f"no game {values['game_id']} in {self.url}")

    def get_game(self, game_id: int) -> StoredGame:
        """The game with this id; :class:`StoreError` if there is none."""
        with self._reading() as connection:
            row = connection.execute(select(GAMES).where(GAMES.c.id == game_id)).mappings().first()
            if row is None:
                raise StoreError(f"no game {game_id} in {self.url}")
            agents = connection.execute(
                select(SEATS.c.agent).where(SEATS.c.game_id == game_id).order_by(SEATS.c.seat)
            ).scalars()
            agent_list = list(agents)
        return StoredGame(
            id=row["id"],
            game=row["game"],
            options=dict(row["options"]),
            players=row["players"],
            seed=row["seed"],
            start=row["start"],
            actions=[(int(seat), int(index)) for seat, index in row["actions"]],
            steps=row["steps"],
            status=row["status"],
            source=row["source"],
            scores=row["scores"],
            returns=row["returns"],
            winners=row["winners"],
            agents=agent_list,
            started_at=cast(datetime, _utc(row["started_at"])),
            finished_at=_utc(row["finished_at"]),
            tournament_id=row["tournament_id"],
            game_index=row["game_index"],
            version=row["version"],
        )

    def list_games(
        self,
        limit: int = 20,
        *,
        game: str | None = None,
        source: str | None = None,
        tournament_id: int | None = None,
        status: str | None = None,
    ) -> list[GameListing]:
        """The most recent games first (optionally of one game, command, tournament or status)."""
        query = select(
            GAMES.c.id,
            GAMES.c.game,
            GAMES.c.players,
            GAMES.c.status,
            GAMES.c.source,
            GAMES.c.steps,
            GAMES.c.winners,
            GAMES.c.started_at,
            GAMES.c.tournament_id,
            GAMES.c.scores,
        ).order_by(GAMES.c.id.desc())
        if game is not None:
            query = query.where(GAMES.c.game == game)
        if source is not None:
            query = query.where(GAMES.c.source == source)
        if tournament_id is not None:
            query = query.where(GAMES.c.tournament_id == tournament_id)
        if status is not None:
            query = query.where(GAMES.c.status == status)
        with self._reading() as connection:
            rows = connection.execute(query.limit(limit)).mappings().all()
            seats = _agents_of(connection, [row["id"] for row in rows])
        return [
            GameListing(
                id=row["id"],
                game=row["game"],
                players=row["players"],
                status=row["status"],
                source=row["source"],
                steps=row["steps"],
                winners=row["winners"],
                agents=seats.get(row["id"], []),
                started_at=cast(datetime, _utc(row["started_at"])),
                tournament_id=row["tournament_id"],
                scores=row["scores"],
            )
            for row in rows
        ]

    def latest_unfinished(self, *, source: str = "play", game: str | None = None) -> int | None:
        """The id of the most recently started game of ``source`` that has not finished (optionally of one
        game), or None: what ``oakwood play --resume`` continues."""
        query = select(GAMES.c.id).where(GAMES.c.source == _source(source), GAMES.c.status == RUNNING)
        if game is not None:
            query = query.where(GAMES.c.game == game)
        with self._reading() as connection:
            found = connection.execute(query.order_by(GAMES.c.id.desc()).limit(1)).scalar()
        return None if found is None else int(found)

    # ------------------------------------------------------------------ web tables
    def save_web_table(self, table: WebTable, *, expected_seats: Sequence[Mapping[str, Any]] | None = None) -> None:
        """Store a table of ``oakwood serve``, or replace its seats (a player joined, a name changed). With
        ``expected_seats``, only if the stored table still has those seats (a guard for servers sharing the store,
        as ``save_moves`` has: a server that lost a table cannot write over a seat the other server gave);
        :class:`GameMoved` if not."""
        values = {"game_id": table.game_id, "seats": table.seats, "turn_seconds": table.turn_seconds}
        with self._writing() as connection:
            if expected_seats is not None:
                # the row is locked first (a write that changes nothing: a row lock in PostgreSQL, the write lock
                # in SQLite), so the seats read next are the latest and nobody writes them before this does
                this = WEB_TABLES.c.id == table.id
                touch = update(WEB_TABLES).where(this).values(turn_seconds=WEB_TABLES.c.turn_seconds)
                locked = connection.execute(touch)
                stored = connection.execute(select(WEB_TABLES.c.seats).where(this)).scalar()
                if locked.rowcount != 1 or stored is None:
                    raise StoreError(f"no table {table.id} in {self.url}")
                if [dict(seat) for seat in stored] != [dict(seat) for seat in expected_seats]:
                    raise GameMoved(f"the seats of table {table.id} were changed by another server")
            done = connection.execute(update(WEB_TABLES).where(WEB_TABLES.c.id == table.id).values(**values))
            if done.rowcount == 0:
                connection.execute(insert(WEB_TABLES), {"id": table.id, "created_at": table.created_at, **values})

    def web_tables(
        self, *, unfinished_only: bool = False, game_id: int | None = None, table_id: str | None = None
    ) -> list[WebTable]:
        """Every table of ``oakwood serve`` (oldest first), only those whose game is still running, the one that
        played ``game_id``, or the one called ``table_id`` (filters combine)."""
        query = select(WEB_TABLES).order_by(WEB_TABLES.c.created_at)
        if game_id is not None:
            query = query.where(WEB_TABLES.c.game_id == game_id)
        if table_id is not None:
            query = query.where(WEB_TABLES.c.id == table_id)
        if unfinished_only:
            query = query.join(GAMES, GAMES.c.id == WEB_TABLES.c.game_id).where(GAMES.c.status == RUNNING)
        with self._reading() as connection:
            rows = connection.execute(query).mappings().all()
        return [
            WebTable(
                id=row["id"],
                game_id=row["game_id"],
                seats=[dict(seat) for seat in row["seats"]],
                turn_seconds=row["turn_seconds"],
                created_at=cast(datetime, _utc(row["created_at"])),
            )
            for row in rows
        ]

    def abandon_game(self, game_id: int) -> None:
        """Mark a running game ``abandoned`` (its players gave it up): it is over, and never resumed."""
        statement = (
            update(GAMES)
            .where(GAMES.c.id == game_id, GAMES.c.status == RUNNING)
            .values(status=ABANDONED, finished_at=now())
        )
        with self._writing() as connection:
            if connection.execute(statement).rowcount != 1:
                raise StoreError(f"no running game {game_id} in {self.url}")

    def expire_web_tables(self, tables: Sequence[tuple[str, int]]) -> None:
        """Give up tables of ``oakwood serve`` that nobody played at (``(table id, game id)`` pairs, the server's
        idle-table expiry): each game still running is stored ``abandoned`` and each table row is deleted, in
        one transaction, so a restart does not resume them and the lobby's history (the tables whose game
        ended) does not list them. The game rows stay, as every game does."""
        with self._writing() as connection:
            for start in range(0, len(tables), 500):  # old SQLite takes at most 999 parameters a statement
                batch = tables[start : start + 500]
                connection.execute(
                    update(GAMES)
                    .where(GAMES.c.id.in_([game_id for _, game_id in batch]), GAMES.c.status == RUNNING)
                    .values(status=ABANDONED, finished_at=now())
                )
                connection.execute(delete(WEB_TABLES).where(WEB_TABLES.c.id.in_([table_id for table_id, _ in batch])))

    def ended_web_tables(self, limit: int = 20) -> list[EndedWebTable]:
        """The tables of ``oakwood serve`` whose game finished or was abandoned, the most recent first."""
        query = (
            select(
                WEB_TABLES,
                GAMES.c.game,
                GAMES.c.options,
                GAMES.c.players,
                GAMES.c.status,
                GAMES.c.scores,
                GAMES.c.winners,
                GAMES.c.finished_at,
            )
            .join(GAMES, GAMES.c.id == WEB_TABLES.c.game_id)
            .where(GAMES.c.status.in_((FINISHED, ABANDONED)))
            .order_by(GAMES.c.finished_at.desc(), GAMES.c.id.desc())
            .limit(limit)
        )
        with self._reading() as connection:
            rows = connection.execute(query).mappings().all()
        return [
            EndedWebTable(
                table=WebTable(
                    id=row["id"],
                    game_id=row["game_id"],
                    seats=[dict(seat) for seat in row["seats"]],
                    turn_seconds=row["turn_seconds"],
                    created_at=cast(datetime, _utc(row["created_at"])),
                ),
                game=row["game"],
                options=dict(row["options"]),
                players=row["players"],
                status=row["status"],
                scores=row["scores"],
                winners=row["winners"],
                ended_at=_utc(row["finished_at"]),
            )
            for row in rows
        ]

    # ------------------------------------------------------------------ tournaments
    def tournament_for(self, settings: TournamentSettings) -> tuple[Tournament, bool]:
        """The tournament with exactly these settings, created if there is none; and whether it was new."""
        key = settings.key()
        found = self._tournament_where(TOURNAMENTS.c.key == key)
        if found is not None:
            return found, False
        try:
            with self._writing() as connection:
                connection.execute(
                    insert(TOURNAMENTS),
                    {
                        "key": key,
                        "game": settings.game,
                        "options": settings.options,
                        "players": settings.players,
                        "agents": list(settings.agents),
                        "seed": settings.seed,
                        "games": settings.games,
                        "created_at": now(),
                    },
                )
        except StoreError:
            # Another process created the same tournament a moment ago: use it.
            found = self._tournament_where(TOURNAMENTS.c.key == key)
            if found is None:
                raise
            return found, False
        created = self._tournament_where(TOURNAMENTS.c.key == key)
        assert created is not None  # just written
        return created, True

    def tournaments_like(self, settings: TournamentSettings) -> list[Tournament]:
        """Every stored tournament with these settings but any number of games, most games first.

        Game ``i`` of a tournament depends only on its settings, its seed and ``i``, never on how many games
        it has, so such tournaments hold the same games: a longer run can reuse a shorter one's.
        """
        query = select(TOURNAMENTS.c.id).where(
            TOURNAMENTS.c.game == settings.game,
            TOURNAMENTS.c.players == settings.players,
            TOURNAMENTS.c.seed == settings.seed,
        )
        with self._reading() as connection:
            ids = list(connection.execute(query).scalars())
        found = [self.get_tournament(tournament_id) for tournament_id in ids]
        same = [
            t
            for t in found
            if t.settings.options == settings.options and tuple(t.settings.agents) == tuple(settings.agents)
        ]
        return sorted(same, key=lambda t: (-t.settings.games, t.id))

    def played_games(self, tournament_ids: Sequence[int], below: int) -> list[PlayedGame]:
        """The finished games of these tournaments with an index below ``below``, with their histories, one per
        index (the first tournament listed that has it), in index order."""
        if not tournament_ids:
            return []
        query = (
            select(
                GAMES.c.id,
                GAMES.c.tournament_id,
                GAMES.c.game_index,
                GAMES.c.seed,
                GAMES.c.actions,
                GAMES.c.scores,
                GAMES.c.returns,
                GAMES.c.winners,
                GAMES.c.steps,
            )
            .where(
                GAMES.c.tournament_id.in_(list(tournament_ids)),
                GAMES.c.status == FINISHED,
                GAMES.c.game_index < below,
            )
            .order_by(GAMES.c.game_index)
        )
        rank = {tournament_id: place for place, tournament_id in enumerate(tournament_ids)}
        chosen: dict[int, Any] = {}
        with self._reading() as connection:
            for row in connection.execute(query):
                kept = chosen.get(row.game_index)
                if kept is None or rank[row.tournament_id] < rank[kept.tournament_id]:
                    chosen[row.game_index] = row
        return [
            PlayedGame(
                id=row.id,
                index=row.game_index,
                seed=row.seed,
                actions=[(int(seat), int(action)) for seat, action in row.actions],
                scores=tuple(row.scores),
                returns=tuple(row.returns),
                winners=tuple(row.winners),
                steps=row.steps,
            )
            for _, row in sorted(chosen.items())
        ]

    def get_tournament(self, tournament_id: int) -> Tournament:
        """The tournament with this id; :class:`StoreError` if there is none."""
        found = self._tournament_where(TOURNAMENTS.c.id == tournament_id)
        if found is None:
            raise StoreError(f"no tournament {tournament_id} in {self.url}")
        return found

    def _tournament_where(self, condition: Any) -> Tournament | None:
        with self._reading() as connection:
            row = connection.execute(select(TOURNAMENTS).where(condition)).mappings().first()
        if row is None:
            return None
        settings = TournamentSettings(
            game=row["game"],
            options=dict(row["options"]),
            players=row["players"],
            agents=tuple(row["agents"]),
            seed=row["seed"],
            games=row["games"],
        )
        return Tournament(id=row["id"], settings=settings, created_at=cast(datetime, _utc(row["created_at"])))

    def finished_indices(self, tournament_id: int) -> set[int]:
        """The game indices of a tournament that are already played."""
        query = select(GAMES.c.game_index).where(GAMES.c.tournament_id == tournament_id, GAMES.c.status == FINISHED)
        with self._reading() as connection:
            return {int(index) for index in connection.execute(query).scalars()}

    def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        """The outcome of every finished game of a tournament, in game order (no action histories)."""
        query = (
            select(
                GAMES.c.id,
                GAMES.c.game_index,
                GAMES.c.seed,
                GAMES.c.scores,
                GAMES.c.returns,
                GAMES.c.winners,
                GAMES.c.steps,
            )
            .where(GAMES.c.tournament_id == tournament_id, GAMES.c.status == FINISHED)
            .order_by(GAMES.c.game_index)
        )
        seats_query = (
            select(SEATS.c.game_id, SEATS.c.agent)
            .join(GAMES, GAMES.c.id == SEATS.c.game_id)
            .where(GAMES.c.tournament_id == tournament_id)
            .order_by(SEATS.c.game_id, SEATS.c.seat)
        )
        with self._reading() as connection:
            rows = connection.execute(query).all()
            agents: dict[int, list[str]] = {}
            for game_id, agent in connection.execute(seats_query):
                agents.setdefault(game_id, []).append(agent)
        return [
            TournamentGame(
                index=row.game_index,
                seed=row.seed,
                agents=tuple(agents.get(row.id, ())),
                scores=tuple(row.scores),
                returns=tuple(row.returns),
                winners=tuple(row.winners),
                steps=row.steps,
            )
            for row in rows
        ]

    # ------------------------------------------------------------------ measured features
    def game_features(self, game_ids: Sequence[int], extractor: str) -> dict[int, dict[str, Any]]:
        """What ``extractor`` (``game/version``) measured in each of these games, by game id (games it has not
        measured are absent)."""
        found: dict[int, dict[str, Any]] = {}
        with self._reading() as connection:
            for start in range(0, len(game_ids), 500):  # bounded IN lists
                query = select(FEATURES.c.game_id, FEATURES.c.data).where(
                    FEATURES.c.game_id.in_(list(game_ids[start : start + 500])), FEATURES.c.extractor == extractor
                )
                found.update({row.game_id: row.data for row in connection.execute(query)})
        return found

    def save_game_features(self, extractor: str, features: dict[int, dict[str, Any]]) -> None:
        """Keep what ``extractor`` measured in these games, replacing what an older version measured."""
        if not features:
            return
        ids = list(features)
        rows = [{"game_id": game_id, "extractor": extractor, "data": data} for game_id, data in features.items()]
        with self._writing() as connection:
            for start in range(0, len(ids), 500):
                connection.execute(delete(FEATURES).where(FEATURES.c.game_id.in_(ids[start : start + 500])))
            connection.execute(insert(FEATURES), rows)

    # ------------------------------------------------------------------ ratings
    def save_ratings(self, tournament_id: int, ratings: Sequence[Rating]) -> None:
        """Replace a tournament's ratings."""
        moment = now()
        with self._writing() as connection:
            connection.execute(delete(RATINGS).where(RATINGS.c.tournament_id == tournament_id))
            if ratings:
                connection.execute(
                    insert(RATINGS),
                    [
                        {
                            "tournament_id": tournament_id,
                            "agent": r.agent,
                            "mu": r.mu,
                            "sigma": r.sigma,
                            "ordinal": r.ordinal,
                            "games": r.games,
                            "updated_at": moment,
                        }
                        for r in ratings
                    ],
                )

    def ratings(self, tournament_id: int) -> list[Rating]:
        """A tournament's stored ratings, best ordinal first."""
        query = select(RATINGS).where(RATINGS.c.tournament_id == tournament_id).order_by(RATINGS.c.ordinal.desc())
        with self._reading() as connection:
            rows = connection.execute(query).mappings().all()
        return [Rating(r["agent"], r["mu"], r["sigma"], r["ordinal"], r["games"]) for r in rows]


def _insert_many_sqlite(connection: Connection, rows: list[dict[str, Any]]) -> list[int]:
    """Insert game rows through the driver's own ``executemany``; their ids, in order.

    SQLAlchemy's generic path cost about 90 µs a game here (it processes every parameter of every row in
    Python, and sorted RETURNING makes SQLite insert row by row), against about 1.2 ms to play a Barrell
    game: the parent, which shares the cores with the workers, would have spent most of the 10 % budget. Here
    the JSON lists are written by :func:`_json_list`, values shared by the whole batch (the options, the
    time) are converted once, and the rest by the columns' own bind processors, so every value is stored as
    SQLAlchemy would store it. The ids need no RETURNING: inside this write transaction nobody else inserts,
    and SQLite gives each new row the next rowid, so the batch holds consecutive ids ending at
    ``last_insert_rowid()``.
    """
    columns = list(rows[0])
    dialect = connection.dialect
    converters: list[Callable[[Any], Any]] = []
    for name in columns:
        process = GAMES.c[name].type._cached_bind_processor(dialect)
        if name in _JSON_LISTS:
            converters.append(_json_list)
        elif process is None:
            converters.append(_same)
        else:
            converters.append(_once_per_value(process))
    sql = f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    values = [tuple(convert(value) for convert, value in zip(converters, row.values(), strict=True)) for row in rows]
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    dbapi_error = dialect.loaded_dbapi.Error
    try:
        cursor.executemany(sql, values)
        last = cursor.execute("SELECT last_insert_rowid()").fetchone()[0]
    except dbapi_error as exc:  # the driver's own error: SQLAlchemy never saw this statement
        raise StoreError(f"database error in {database.describe(connection.engine.url)}: {exc}") from None
    finally:
        cursor.close()
    return list(range(last - len(rows) + 1, last + 1))


#: The JSON columns that hold flat lists of numbers, or lists of [seat, action] pairs.
_JSON_LISTS = frozenset({"actions", "scores", "returns", "winners"})


def _json_list(value: Any) -> str | None:
    """A list of numbers, or of pairs of integers, as JSON text (text is taken as already JSON): C-level
    ``str`` of the list with tuples
    turned into arrays, several times faster than ``json.dumps`` on the short lists of a game. Anything
    else (a non-finite number, another kind of value) goes through ``json.dumps``."""
    if value is None or isinstance(value, str):  # None, or already JSON text (a history from a worker)
        return value
    text = str(list(value)).replace("(", "[").replace(")", "]")
    if "n" in text or "'" in text or '"' in text:  # inf, nan, text: not plain JSON numbers
        return json.dumps(list(value))
    return text


def _same(value: Any) -> Any:
    return value


def _once_per_value(process: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``process``, remembering the last value: a batch's games share their options and their time."""
    last: list[Any] = [object(), None]

    def convert(value: Any) -> Any:
        if value is not last[0]:
            last[0] = value
            last[1] = process(value)
        return last[1]

    return convert


def _source(source: str) -> str:
    if source not in SOURCES:
        raise ValueError(f"a game's source is one of {', '.join(SOURCES)}, not {source!r}")
    return source


def _agents_of(connection: Connection, game_ids: Sequence[int]) -> dict[int, list[str]]:
    """The agent per seat of each of these games."""
    if not game_ids:
        return {}
    query = select(SEATS.c.game_id, SEATS.c.agent).where(SEATS.c.game_id.in_(game_ids)).order_by(SEATS.c.seat)
    out: dict[int, list[str]] = {}
    for game_id, agent in connection.execute(query):
        out.setdefault(game_id, []).append(agent)
    return out
