"""Opening a database: which URL, the engine with its SQLite settings, and the Alembic upgrade to the latest
schema, every failure turned into one :class:`StoreError` sentence.

The URL comes from the caller (``--db``), else the ``OAKWOOD_DB`` environment variable, else a SQLite file
in the user's data directory. A plain path (no ``scheme://``) means a SQLite file there.
"""

from __future__ import annotations

import os
import time
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs
from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError, SQLAlchemyError

from oakwood.engine.errors import shown

from .errors import StoreError

if TYPE_CHECKING:
    from alembic.config import Config

#: The environment variable naming the database when ``--db`` is not given.
ENV_VARIABLE = "OAKWOOD_DB"
#: The newest schema revision in ``migrations/versions`` (a test checks it is Alembic's head). Opening a
#: database already there costs one query, and Alembic — a tenth of a second to import — is not loaded.
SCHEMA_REVISION = "0004"
#: The key of the PostgreSQL advisory lock a schema migration holds (any fixed number: "oakw" in ASCII).
SCHEMA_LOCK = 0x6F616B77
#: How long a server that met another one creating the same schema goes on looking for it (seconds).
SCHEMA_WAIT_SECONDS = 30.0
#: Seconds a SQLite connection waits for another process's write to finish before giving up.
SQLITE_BUSY_TIMEOUT = 30.0


def default_url() -> str:
    """A SQLite file in the user's data directory (``~/.local/share/oakwood/oakwood.db`` on Linux)."""
    return f"sqlite:///{Path(platformdirs.user_data_dir('oakwood')) / 'oakwood.db'}"


def resolve_url(url: str | None = None) -> str:
    """The URL to open: ``url``, else ``$OAKWOOD_DB``, else :func:`default_url`; a plain path is a SQLite file."""
    text = url if url is not None else os.environ.get(ENV_VARIABLE) or default_url()
    text = text.strip()
    if not text:
        raise StoreError("the database URL is empty")
    if "://" not in text:
        return f"sqlite:///{Path(text).expanduser().absolute()}"
    return text


def describe(url: URL | str) -> str:
    """A URL as it may be shown: the password hidden."""
    try:
        parsed = make_url(url) if isinstance(url, str) else url
    except ArgumentError:
        return shown(url)
    return parsed.render_as_string(hide_password=True)


def create(url: str) -> Engine:
    """An engine for ``url`` (already resolved). SQLite gets WAL mode (readers never wait for the writer),
    foreign keys, and a busy timeout; its directory is created."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StoreError(f"{shown(url)} is not a database URL (for example sqlite:///games.db)") from None
    connect_args: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        connect_args["timeout"] = SQLITE_BUSY_TIMEOUT
        if parsed.database and parsed.database != ":memory:" and not parsed.database.startswith("file:"):
            try:
                Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the directory of {describe(parsed)} ({exc.strerror})") from None
    try:
        engine = create_engine(parsed, connect_args=connect_args)
    except NoSuchModuleError:
        raise StoreError(f"no database driver for {shown(parsed.drivername)} (in {describe(parsed)})") from None
    except ImportError as exc:
        hint = " (install it with: pip install 'oakwood[postgres]')" if "psycopg" in str(exc) else ""
        raise StoreError(f"the driver for {describe(parsed)} is not installed: {exc}{hint}") from None
    except (ArgumentError, TypeError, ValueError) as exc:
        raise StoreError(f"cannot use {describe(parsed)}: {exc}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_settings)
    return engine


def no_wait(engine: Engine) -> Engine | None:
    """A second engine on ``engine``'s SQLite file whose connections never wait for its write lock (a busy timeout
    of 0: a write finding it taken fails at once, :func:`is_busy`); None for anything but a SQLite file (a database
    in memory is one per connection: a second engine would see another one)."""
    url = engine.url
    if engine.dialect.name != "sqlite" or not url.database or url.database == ":memory:" or "mode=memory" in str(url):
        return None
    free = create_engine(url, connect_args={"timeout": 0})
    event.listen(free, "connect", _sqlite_settings)
    return free


def is_busy(exc: OperationalError) -> bool:
    """Whether ``exc`` is SQLite's "the database is locked" (another connection writes), not a real failure."""
    return "database is locked" in str(exc.orig) or "database is busy" in str(exc.orig)


def _sqlite_settings(connection: Any, _record: Any) -> None:
    """Per SQLite connection: WAL journal, foreign keys enforced, fsync only at checkpoints (safe in WAL)."""
    cursor = connection.cursor()
    try:
        if cursor.execute("PRAGMA database_list").fetchone()[2]:  # a file (WAL means nothing in memory)
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def alembic_config() -> Config:
    """The Alembic configuration of the packaged migrations (no ``alembic.ini`` needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(resources.files("oakwood.store") / "migrations"))
    return config


def current_revision(engine: Engine) -> str | None:
    """The schema revision of the database (None: an empty database)."""
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        found = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
        return None if found is None else str(found)


def upgrade(engine: Engine) -> None:
    """Bring the database to the latest schema revision (creating it when empty).

    Several servers may start at the same moment on one new database, each finding it empty. On PostgreSQL
    the migration runs under a transaction-scoped advisory lock, so the others wait and then find the schema
    made; on SQLite (whose DDL the driver does not keep in the migration's transaction) one that finds the
    schema made under it waits for the other's migration to end and looks again."""
    deadline = time.monotonic() + SCHEMA_WAIT_SECONDS
    while True:
        try:
            _upgrade_once(engine)
            return
        except SQLAlchemyError as exc:
            # another server creating the same schema at this moment: its tables, types or version row
            # appeared under this one's migration (a clash, not a fault of the database): look again
            clash = any(words in reason(exc) for words in ("already exists", "duplicate key", "database is locked"))
            if not clash or time.monotonic() > deadline:
                raise StoreError(f"cannot open the database {describe(engine.url)}: {reason(exc)}") from None
            time.sleep(0.2)


def _upgrade_once(engine: Engine) -> None:
    current = current_revision(engine)
    if current == SCHEMA_REVISION:
        return
    from alembic import command
    from alembic.util import CommandError

    config = alembic_config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # held until this transaction ends; Alembic reads the
            # version after it, so a server that waited here finds the schema another one just made
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        config.attributes["connection"] = connection
        try:
            command.upgrade(config, "head")
        except CommandError as exc:
            if "Can't locate revision" in str(exc):
                raise StoreError(
                    f"{describe(engine.url)} was written by a newer Oakwood (schema revision {current}); "
                    "upgrade Oakwood to use it"
                ) from None
            raise StoreError(f"cannot migrate {describe(engine.url)}: {exc}") from None


def reason(exc: SQLAlchemyError) -> str:
    """The driver's own first line of an error (SQLAlchemy's wrapper adds the SQL and a link)."""
    original = getattr(exc, "orig", None)
    text = str(original if original is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
