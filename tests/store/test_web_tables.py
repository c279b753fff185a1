"""Reading the tables of ``oakwood serve`` back: all of them, the unfinished ones, or one by its id (a cluster
process locating one table it has no lease for reads that row, not every unfinished table)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from oakwood.store import GameMoved, Store, WebTable, open_store

SEATS = [{"kind": "human", "level": None, "name": None, "token_hash": None}]


def table(store: Store, table_id: str) -> WebTable:
    """A stored table ``table_id`` over a new running game."""
    game_id = store.start_game(game="barrell", options={}, players=2, seed=5, agents=["human", "human"], source="web")
    stored = WebTable(
        id=table_id, game_id=game_id, seats=SEATS, turn_seconds=None, created_at=datetime(2026, 12, 4, tzinfo=UTC)
    )
    store.save_web_table(stored)
    return stored


def test_one_table_is_read_by_its_id_and_the_filters_combine(store_url: str) -> None:
    with open_store(store_url) as store:
        running, ended = table(store, "running"), table(store, "ended")
        table(store, "other")
        store.abandon_game(ended.game_id)
        assert [t.id for t in store.web_tables(table_id="running")] == ["running"]
        assert [t.id for t in store.web_tables(table_id="ended")] == ["ended"]
        assert [t.id for t in store.web_tables(unfinished_only=True, table_id="running")] == [running.id]
        assert store.web_tables(unfinished_only=True, table_id="ended") == []  # over: not to be taken over
        assert store.web_tables(table_id="nowhere") == []
        assert sorted(t.id for t in store.web_tables(unfinished_only=True)) == ["other", "running"]


def test_a_save_of_moves_is_made_at_once_only_while_nobody_else_holds_the_sqlite_file(tmp_path: Path) -> None:
    """``Store.save_moves_if_free`` (what a server's event loop tries before it sends a write to a thread): it
    writes while the file's write lock is free, and answers False at once, writing nothing, while another
    connection (another process) holds it."""
    path = tmp_path / "web.db"
    with open_store(f"sqlite:///{path}") as store:
        game_id = store.start_game(
            game="barrell", options={}, players=2, seed=1, agents=["human", "medium"], source="web"
        )
        assert store.save_moves_if_free(game_id, [(0, 1)], expected_steps=0)
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # the write lock, as another process's write holds it
            assert not store.save_moves_if_free(game_id, [(0, 1), (1, 2)], expected_steps=1)
            other.execute("ROLLBACK")
        finally:
            other.close()
        assert store.get_game(game_id).actions == [(0, 1)]
        assert store.save_moves_if_free(game_id, [(0, 1), (1, 2)], expected_steps=1)
        assert store.get_game(game_id).actions == [(0, 1), (1, 2)]
        with pytest.raises(GameMoved):  # a guarded write over moves it did not see is refused here too
            store.save_moves_if_free(game_id, [(0, 1)], expected_steps=0)
