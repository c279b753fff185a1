"""Servers sharing a store (``oakwood serve --redis``): a guarded write of a game's moves lands only over the
moves its writer last saw, so a server that lost a table cannot write over the moves of the server that took
it over."""

from __future__ import annotations

import pytest

from oakwood.engine import load
from oakwood.store import GameMoved, LiveGame, open_store


def test_a_guarded_write_over_moves_someone_else_stored_is_refused(store_url: str) -> None:
    with open_store(store_url) as store:
        game_id = store.start_game(
            game="barrell", options={}, players=2, seed=5, agents=["human", "medium"], source="web"
        )
        store.save_moves(game_id, [(0, 1)], expected_steps=0)  # over the empty history it saw: written
        with pytest.raises(GameMoved, match="changed by another server"):
            store.save_moves(game_id, [(0, 1), (1, 4)], expected_steps=0)  # it saw none, the store has one
        assert store.get_game(game_id).actions == [(0, 1)]
        with pytest.raises(GameMoved):  # the outcome too
            store.save_moves(game_id, [], scores=[1.0, 0.0], returns=[1.0, 0.0], winners=[0], expected_steps=5)
        store.save_moves(game_id, [(0, 1), (1, 2)], scores=[1.0, 2.0], returns=[0.0, 1.0], winners=[1],
                         expected_steps=1)  # fmt: skip
        assert store.get_game(game_id).finished
        with pytest.raises(GameMoved):  # a finished game is never written again by a guarded write
            store.save_moves(game_id, [(0, 1), (1, 2)], expected_steps=2)


def test_two_live_games_on_one_row_the_stale_one_is_refused(store_url: str) -> None:
    game = load("barrell")
    with open_store(store_url) as store:
        state = game.new_state(2, 11)
        first = LiveGame.start(store, state, ["human", "medium"], source="web")
        first.guarded = True
        # another server rebuilds the table from the store and plays a move
        second = LiveGame.resume(store, first.id, state.clone())
        second.guarded = True
        seat = state.to_act()[0]
        theirs = state.clone()
        theirs.apply(seat, theirs.legal_actions(seat)[0])
        second.sync(theirs)
        # the first server, not yet aware, plays a different move: refused, the stored move stays
        mine = state.clone()
        mine.apply(seat, mine.legal_actions(seat)[-1])
        with pytest.raises(GameMoved):
            first.sync(mine)
        encode = game.codec.encode
        assert store.get_game(first.id).actions == [(seat, encode(action)) for seat, action in theirs.history]
