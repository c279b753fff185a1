"""The repository against SQLite and PostgreSQL alike: games in batches and as they are played, reading them
back, tournaments and ratings, and the schema the migrations build."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from oakwood.store import NewGame, Rating, StoreError, TournamentSettings, open_store
from oakwood.store.database import SCHEMA_REVISION, alembic_config, current_revision
from oakwood.store.models import Base


def new_game(**changes: object) -> NewGame:
    values: dict[str, object] = {
        "game": "squarrels",
        "options": {"single_round": True},
        "players": 3,
        "seed": 7,
        "actions": [(0, 1), (1, 2), (2, 27)],
        "scores": [3.0, 1.0, 1.0],
        "returns": [1.0, 0.0, 0.0],
        "winners": [0],
        "agents": ["heuristic", "random", "random"],
        "source": "simulate",
    }
    values.update(changes)
    return NewGame(**values)  # type: ignore[arg-type]


def test_opening_builds_the_latest_schema_and_the_models_agree_with_it(store_url: str) -> None:
    store = open_store(store_url)
    try:
        assert current_revision(store.engine) == SCHEMA_REVISION
        assert ScriptDirectory.from_config(alembic_config()).get_current_head() == SCHEMA_REVISION
        with store.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        assert differences == [], "the models changed without a migration"
    finally:
        store.close()
    with open_store(store_url) as again:  # opening an up-to-date database changes nothing
        assert current_revision(again.engine) == SCHEMA_REVISION


def test_a_batch_of_games_reads_back_exactly(store_url: str) -> None:
    with open_store(store_url) as store:
        big_seed = 2**64 - 1  # more than a database integer holds
        ids = store.record_games([new_game(), new_game(seed=big_seed, winners=[1, 2], returns=[0.0, 0.5, 0.5])])
        assert len(ids) == 2 and ids[0] < ids[1]
        first, second = store.get_game(ids[0]), store.get_game(ids[1])
    assert first.game == "squarrels" and first.options == {"single_round": True} and first.players == 3
    assert first.actions == [(0, 1), (1, 2), (2, 27)] and first.steps == 3
    assert first.agents == ["heuristic", "random", "random"]
    assert first.scores == [3.0, 1.0, 1.0] and first.returns == [1.0, 0.0, 0.0] and first.winners == [0]
    assert first.finished and first.status == "finished" and first.source == "simulate"
    assert first.start is None and first.tournament_id is None and first.game_index is None
    assert first.started_at.tzinfo is not None and first.started_at <= datetime.now(UTC)
    assert second.seed == big_seed and second.winners == [1, 2]
    replay = second.replay()
    assert (replay.game, replay.players, replay.seed, replay.actions) == ("squarrels", 3, big_seed, second.actions)


def test_a_history_given_as_json_text_is_stored_as_the_same_pairs(store_url: str) -> None:
    with open_store(store_url) as store:
        (game_id,) = store.record_games([new_game(actions="[[0, 1], [1, 2], [2, 27]]", steps=3)])
        assert store.get_game(game_id).actions == [(0, 1), (1, 2), (2, 27)]
        with pytest.raises(ValueError, match="needs its number of steps"):
            store.record_games([new_game(actions="[[0, 1]]")])


def test_listing_games_newest_first_with_filters(store_url: str) -> None:
    with open_store(store_url) as store:
        a, b = store.record_games([new_game(), new_game(game="barrell", players=2, agents=["random", "random"])])
        listed = store.list_games()
        assert [g.id for g in listed] == [b, a]
        assert listed[0].agents == ["random", "random"] and listed[1].winners == [0]
        assert [g.id for g in store.list_games(game="barrell")] == [b]
        assert [g.id for g in store.list_games(limit=1)] == [b]
        assert store.list_games(source="arena") == []


def test_an_unknown_game_id_is_one_sentence(store_url: str) -> None:
    with open_store(store_url) as store, pytest.raises(StoreError, match=r"^no game 99 in "):
        store.get_game(99)


def test_a_game_played_live_is_running_until_it_ends(store_url: str) -> None:
    with open_store(store_url) as store:
        game_id = store.start_game(
            game="squarrels", options={}, players=2, seed=5, agents=["human", "heuristic"], source="play"
        )
        stored = store.get_game(game_id)
        assert stored.status == "running" and stored.actions == [] and stored.scores is None
        store.save_moves(game_id, [(0, 1), (1, 3)])
        store.save_moves(game_id, [(0, 1)])  # a move taken back
        assert store.get_game(game_id).actions == [(0, 1)]
        store.save_moves(game_id, [(0, 1), (1, 2)], scores=[1.0, 2.0], returns=[0.0, 1.0], winners=[1])
        done = store.get_game(game_id)
    assert done.finished and done.winners == [1] and done.steps == 2 and done.finished_at is not None
    assert done.agents == ["human", "heuristic"] and done.source == "play"


def test_tournaments_are_found_again_by_their_settings(store_url: str) -> None:
    settings = TournamentSettings("barrell", {}, 2, ("heuristic", "random"), seed=2**63 + 5, games=10)
    with open_store(store_url) as store:
        tournament, created = store.tournament_for(settings)
        again, created_again = store.tournament_for(settings)
        other, _ = store.tournament_for(TournamentSettings("barrell", {}, 2, ("heuristic", "random"), 6, 10))
        assert created and not created_again and again == tournament and other.id != tournament.id
        assert store.get_tournament(tournament.id).settings == settings
        with pytest.raises(StoreError, match="no tournament 999"):
            store.get_tournament(999)

        games = [
            new_game(
                game="barrell",
                players=2,
                agents=["random", "heuristic"],
                scores=[0.0, 1.0],
                returns=[0.0, 1.0],
                winners=[1],
                source="arena",
                tournament_id=tournament.id,
                game_index=i,
            )
            for i in (3, 0)
        ]
        store.record_games(games)
        assert store.finished_indices(tournament.id) == {0, 3}
        assert store.finished_indices(other.id) == set()
        results = store.tournament_games(tournament.id)
        assert [r.index for r in results] == [0, 3]
        assert results[0].agents == ("random", "heuristic") and results[0].returns == (0.0, 1.0)
        assert [g.tournament_id for g in store.list_games(tournament_id=tournament.id)] == [tournament.id] * 2
        with pytest.raises(StoreError, match="database error"):  # a game index is played once
            store.record_games([games[0]])
        assert store.finished_indices(tournament.id) == {0, 3}, "the refused batch left nothing behind"


def test_tournaments_with_the_same_settings_share_their_games_by_index(store_url: str) -> None:
    """What the balance workbench reuses: a longer run finds a shorter one, and reads each index once."""
    short = TournamentSettings("barrell", {"battle_tie": "all_tied_win"}, 2, ("heuristic",), seed=4, games=3)
    long = TournamentSettings("barrell", {"battle_tie": "all_tied_win"}, 2, ("heuristic",), seed=4, games=5)
    with open_store(store_url) as store:
        first, _ = store.tournament_for(short)
        second, _ = store.tournament_for(long)
        store.tournament_for(TournamentSettings("barrell", {}, 2, ("heuristic",), seed=4, games=9))  # other options
        assert [t.id for t in store.tournaments_like(short)] == [second.id, first.id]  # most games first

        def game(tournament_id: int, index: int, scores: list[float]) -> NewGame:
            return new_game(
                game="barrell",
                players=2,
                agents=["heuristic"] * 2,
                scores=scores,
                returns=[1.0, 0.0],
                winners=[0],
                source="analyze",
                tournament_id=tournament_id,
                game_index=index,
                options={"battle_tie": "all_tied_win"},
                seed=100 + index,
            )

        store.record_games([game(first.id, i, [1.0, 0.0]) for i in range(3)])
        store.record_games([game(second.id, i, [2.0, 0.0]) for i in (1, 4)])
        played = store.played_games([second.id, first.id], below=5)
        assert [(g.index, g.scores[0]) for g in played] == [(0, 1.0), (1, 2.0), (2, 1.0), (4, 2.0)]
        assert played[0].actions == [(0, 1), (1, 2), (2, 27)] and played[0].seed == 100
        assert [g.index for g in store.played_games([first.id], below=2)] == [0, 1]

        ids = [g.id for g in played]
        assert store.game_features(ids, "barrell/1") == {}
        store.save_game_features("barrell/1", {ids[0]: {"ending": "won_two_nil"}, ids[1]: {"ending": "x"}})
        store.save_game_features("barrell/2", {ids[0]: {"ending": "won_two_one"}})  # a new version replaces it
        assert store.game_features(ids, "barrell/1") == {ids[1]: {"ending": "x"}}
        assert store.game_features(ids, "barrell/2") == {ids[0]: {"ending": "won_two_one"}}


def test_ratings_are_replaced_and_read_best_first(store_url: str) -> None:
    settings = TournamentSettings("squarrels", {}, 2, ("a", "b"), 0, 4)
    with open_store(store_url) as store:
        tournament, _ = store.tournament_for(settings)
        store.save_ratings(tournament.id, [Rating("a", 20.0, 5.0, 5.0, 4), Rating("b", 30.0, 5.0, 15.0, 4)])
        assert [r.agent for r in store.ratings(tournament.id)] == ["b", "a"]
        store.save_ratings(tournament.id, [Rating("a", 26.0, 4.0, 14.0, 8)])
        assert store.ratings(tournament.id) == [Rating("a", 26.0, 4.0, 14.0, 8)]


def test_the_fast_json_of_a_batch_reads_back_as_json() -> None:
    import json
    import math

    from oakwood.store.repository import _json_list

    for value in [(), (0,), (1.0, 0.5, 1 / 3), ((0, 1),), ((0, 1), (2, 27)), [3, -4], (float("inf"), 1.0)]:
        decoded = json.loads(_json_list(value) or "null")
        expected = [list(v) if isinstance(v, tuple) else v for v in value]
        assert decoded == expected or (math.isinf(decoded[0]) and decoded[1:] == expected[1:])
    assert _json_list(None) is None
