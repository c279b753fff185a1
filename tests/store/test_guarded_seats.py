"""Servers sharing a store (``oakwood serve --redis``): a guarded write of a table's seats lands only over the
seats its writer last saw, as a guarded write of the moves does, so a server that lost a table cannot give away
(or take back) a seat the server holding it now has given."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from oakwood.engine import load
from oakwood.store import GameMoved, LiveGame, Store, StoreError, WebTable, open_store

FREE = {"kind": "human", "level": None, "name": None, "token_hash": None}
BOT = {"kind": "bot", "level": "easy", "name": None, "token_hash": None}


def person(name: str) -> dict[str, Any]:
    """A human seat taken by ``name``."""
    return {"kind": "human", "level": None, "name": name, "token_hash": f"hash-of-{name}"}


def web_table(game_id: int, seats: list[dict[str, Any]]) -> WebTable:
    """The web table ``t1`` of ``game_id`` with these seats."""
    return WebTable(
        id="t1", game_id=game_id, seats=seats, turn_seconds=None, created_at=datetime(2026, 12, 4, tzinfo=UTC)
    )


def new_game(store: Store) -> int:
    """A running game row for the table."""
    return store.start_game(game="barrell", options={}, players=2, seed=5, agents=["human", "human"], source="web")


def stored_seats(store: Store) -> list[dict[str, Any]]:
    """The seats of table ``t1`` as the store has them."""
    return next(table.seats for table in store.web_tables() if table.id == "t1")


def test_a_guarded_write_over_seats_someone_else_stored_is_refused(store_url: str) -> None:
    with open_store(store_url) as store:
        game_id = new_game(store)
        store.save_web_table(web_table(game_id, [person("Ann"), FREE]))
        # over the seats it saw: written
        store.save_web_table(web_table(game_id, [person("Ann"), person("Bob")]), expected_seats=[person("Ann"), FREE])
        # another writer that still saw seat 2 free gives it to Cid: refused, Bob keeps it
        with pytest.raises(GameMoved, match="seats of table t1 were changed by another server"):
            store.save_web_table(
                web_table(game_id, [person("Ann"), person("Cid")]), expected_seats=[person("Ann"), FREE]
            )
        assert stored_seats(store) == [person("Ann"), person("Bob")]
        # unguarded, as one process writes: replaced
        store.save_web_table(web_table(game_id, [person("Ann"), person("Cid")]))
        assert stored_seats(store) == [person("Ann"), person("Cid")]
        with pytest.raises(StoreError, match="no table t2"):  # a guarded write never creates a table
            missing = WebTable(id="t2", game_id=game_id, seats=[FREE], turn_seconds=None, created_at=datetime.now(UTC))
            store.save_web_table(missing, expected_seats=[FREE])


def test_two_live_games_of_one_table_the_stale_one_cannot_write_its_seats(store_url: str) -> None:
    game = load("barrell")
    with open_store(store_url) as store:
        state = game.new_state(2, 11)
        first = LiveGame.start(store, state, ["human", "human"], source="web")
        first.save_table(web_table(first.id, [person("Ann"), FREE]))
        first.guarded = True
        # another server rebuilds the table from the store (its moves and seats) and seats Bob
        second = LiveGame.resume(store, first.id, state.clone(), stored_seats(store))
        second.guarded = True
        second.save_table(web_table(first.id, [person("Ann"), person("Bob")]))
        # the first server, not yet aware, seats Cid at the same seat: refused
        with pytest.raises(GameMoved):
            first.save_table(web_table(first.id, [person("Ann"), person("Cid")]))
        assert stored_seats(store) == [person("Ann"), person("Bob")]
        # the holder goes on writing over what it stored itself
        second.save_table(web_table(first.id, [person("Ann"), {**person("Bob"), "name": "Robert"}]))
        assert stored_seats(store)[1]["name"] == "Robert"


def test_writers_racing_for_the_seats_never_lose_a_write(store_url: str) -> None:
    """Two threads, each its own connection (as two servers), rewrite the seats over what they read, again and
    again: a write that lands counts itself in the seats; one refused reads again and retries. Every write that
    landed is counted in the end: none was written over by a writer that had read the seats before it."""
    writes = 25
    with open_store(store_url) as setup:
        game_id = new_game(setup)
        setup.save_web_table(web_table(game_id, [{**BOT, "name": "0"}]))
    landed = {"a": 0, "b": 0}
    errors: list[BaseException] = []

    def writer(who: str) -> None:
        try:
            with open_store(store_url) as store:
                while landed[who] < writes:
                    seen = stored_seats(store)
                    count = int(seen[0]["name"]) + 1
                    try:
                        store.save_web_table(web_table(game_id, [{**BOT, "name": str(count)}]), expected_seats=seen)
                    except GameMoved:  # the other wrote since this one read: read again
                        continue
                    landed[who] += 1
        except BaseException as exc:  # the test thread reports it
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(who,)) for who in landed]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    with open_store(store_url) as store:
        assert stored_seats(store)[0]["name"] == str(2 * writes)  # every landed write counted, none lost
