"""Which database is opened, and every way opening one can fail: one sentence, never a driver's traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from oakwood.store import ENV_VARIABLE, StoreError, default_url, open_store, resolve_url


def test_the_url_comes_from_the_flag_then_the_environment_then_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VARIABLE, "sqlite:///from-env.db")
    assert resolve_url("sqlite:///flag.db") == "sqlite:///flag.db"
    assert resolve_url(None) == "sqlite:///from-env.db"
    monkeypatch.delenv(ENV_VARIABLE)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert resolve_url(None) == default_url() == f"sqlite:///{tmp_path / 'data' / 'oakwood' / 'oakwood.db'}"
    assert resolve_url(str(tmp_path / "plain.db")) == f"sqlite:///{tmp_path / 'plain.db'}"  # a path is SQLite


def test_the_default_database_is_created_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_VARIABLE)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with open_store() as store:
        assert store.url.endswith("/data/oakwood/oakwood.db")
    assert (tmp_path / "data" / "oakwood" / "oakwood.db").is_file()


def test_sqlite_files_use_write_ahead_logging_and_foreign_keys(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'wal.db'}") as store, store.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("nonsense://", r"no database driver for 'nonsense'"),
        ("postgresql+nodriver://u@h/db", r"no database driver for 'postgresql\+nodriver'"),
        ("://x", r"'://x' is not a database URL"),
        ("   ", r"the database URL is empty"),
    ],
)
def test_a_bad_url_is_one_sentence(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message):
        open_store(url)


def test_a_server_that_does_not_answer_is_one_sentence_without_the_password(tmp_path: Path) -> None:
    url = f"postgresql+psycopg://someone:secret@/oakwood?host={tmp_path}&connect_timeout=2"
    with pytest.raises(StoreError) as error:
        open_store(url)
    message = str(error.value)
    assert message.startswith("cannot open the database postgresql+psycopg://someone:***@/oakwood")
    assert "secret" not in message and "\n" not in message


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the games you are looking for\n" * 100)
    with pytest.raises(StoreError, match=r"cannot open the database .*notes\.txt: file is not a database"):
        open_store(f"sqlite:///{path}")


def test_a_directory_that_cannot_be_created_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(StoreError, match="cannot create the directory of"):
        open_store(f"sqlite:///{tmp_path / 'file' / 'sub' / 'games.db'}")


def test_a_database_from_a_newer_oakwood_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    open_store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(StoreError, match=r"was written by a newer Oakwood \(schema revision 9999\)"):
        open_store(f"sqlite:///{path}")
