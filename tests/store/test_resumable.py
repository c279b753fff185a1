"""What ``play --resume`` and ``games --recent`` need from the store: the latest unfinished game of play, lists
by status, the version a game was started with (revision 0002), and a live game that goes on in its row."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, insert

from oakwood.engine import load
from oakwood.store import LiveGame, open_store
from oakwood.store.database import alembic_config
from oakwood.store.repository import GAMES, SEATS, now
from tests.cli.toygame import TOY_NAME


def start(store: object, **changes: object) -> int:
    values: dict[str, object] = {
        "game": TOY_NAME,
        "options": {"rounds": 1, "race_window_s": 5.0},
        "players": 2,
        "seed": 3,
        "agents": ["human", "random"],
        "source": "play",
    }
    values.update(changes)
    return store.start_game(**values)  # type: ignore[attr-defined, no-any-return]


def test_latest_unfinished_is_the_newest_running_game_of_play(store_url: str) -> None:
    with open_store(store_url) as store:
        assert store.latest_unfinished() is None
        first = start(store)
        second = start(store, game="squarrels", players=3, agents=["human", "random", "random"])
        start(store, source="simulate", agents=["random", "random"])  # not a game of play
        finished = start(store)
        store.save_moves(finished, [], scores=[1.0, 0.0], returns=[1.0, 0.0], winners=[0])
        assert store.latest_unfinished() == second
        assert store.latest_unfinished(game=TOY_NAME) == first
        assert store.latest_unfinished(game="barrell") is None
        running = store.list_games(status="running", source="play")
        assert [g.id for g in running] == [second, first]
        assert not any(g.finished for g in running)
        done = store.list_games(status="finished")
        assert [g.id for g in done] == [finished] and done[0].finished and done[0].scores == [1.0, 0.0]


def test_a_game_remembers_the_version_that_started_it(store_url: str) -> None:
    with open_store(store_url) as store:
        with_version = start(store, version="1.2.3")
        without = start(store)
        assert store.get_game(with_version).version == "1.2.3"
        assert store.get_game(without).version is None


def test_a_resumed_live_game_writes_only_what_changes_into_its_row(store_url: str) -> None:
    game = load(TOY_NAME, rounds=1)
    state = game.new_state(2, 3)
    with open_store(store_url) as store:
        live = LiveGame.start(store, state, ["human", "random"], version="9.9")
        for _ in range(2):
            seat = state.to_act()[0]
            state.apply(seat, state.legal_actions(seat)[0])
            live.sync(state)
        stored = store.get_game(live.id)
        rebuilt = stored.replay().play()
        resumed = LiveGame.resume(store, live.id, rebuilt)
        assert resumed._saved == stored.actions  # nothing to write until the next move
        seat = rebuilt.to_act()[0]
        rebuilt.apply(seat, rebuilt.legal_actions(seat)[0])
        resumed.sync(rebuilt)
        again = store.get_game(live.id)
        assert again.actions[:2] == stored.actions and again.steps == 3 and again.version == "9.9"
        assert [g.id for g in store.list_games()] == [live.id]


def test_a_database_of_revision_0001_upgrades_and_keeps_its_unfinished_games(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        game_id = connection.execute(
            insert(GAMES).values(  # the columns of revision 0001 only
                game=TOY_NAME,
                options={"rounds": 1, "race_window_s": 5.0},
                players=2,
                seed=3,
                actions=[],
                steps=0,
                status="running",
                source="play",
                started_at=now(),
            )
        ).inserted_primary_key[0]
        connection.execute(insert(SEATS), [{"game_id": game_id, "seat": s, "agent": a} for s, a in enumerate("hr")])
    engine.dispose()
    with open_store(url) as store:
        assert store.latest_unfinished() == game_id
        old = store.get_game(game_id)
        assert old.version is None and old.status == "running" and old.agents == ["h", "r"]
