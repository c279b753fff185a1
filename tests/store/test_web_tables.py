"""Reading the tables of ``oakwood serve`` back: all of them, the unfinished ones, or one by its id (a cluster
process locating one table it has no lease for reads that row, not every unfinished table)."""

from __future__ import annotations

from datetime import UTC, datetime

from oakwood.store import Store, WebTable, open_store

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
