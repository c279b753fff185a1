"""A stored game replays to the same result, for every game (and Nutty's solo mode): the simulation stores
it through the same writer ``simulate`` and ``arena`` use, and the store gives it back move for move."""

from __future__ import annotations

import json

import pytest

from oakwood.arena.recording import GameWriter
from oakwood.arena.simulate import simulate
from oakwood.arena.spec import SimulationSpec
from oakwood.store import open_store

CASES = [
    ("squarrels", ("heuristic", "random", "random"), {}),
    ("barrell", ("heuristic", "random"), {}),
    ("nutty", ("heuristic", "random"), {}),
    ("nutty", ("heuristic",), {}),  # solo
]


@pytest.mark.parametrize(("game", "lineup", "options"), CASES, ids=["squarrels", "barrell", "nutty", "nutty-solo"])
def test_a_stored_game_replays_to_the_same_result(
    store_url: str, game: str, lineup: tuple[str, ...], options: dict[str, object]
) -> None:
    spec = SimulationSpec(game, lineup, games=3, seed=21, rotate=True, options=options, keep_actions=True)
    with open_store(store_url) as store:
        writer = GameWriter(store, spec, source="simulate")
        records = simulate(spec, workers=1, on_batch=writer.add)
        writer.flush()
        stored = [store.get_game(listing.id) for listing in reversed(store.list_games())]
    assert len(stored) == 3
    for record, saved in zip(records, stored, strict=True):
        assert saved.seed == record.seed and saved.agents == [lineup[e] for e in record.seating]
        assert saved.actions == [tuple(pair) for pair in json.loads(record.actions)] and saved.steps == record.steps
        state = saved.replay().play()
        assert state.is_terminal()
        assert state.scores() == list(record.scores) == saved.scores
        assert state.returns() == list(record.returns) == saved.returns
        assert state.winners() == list(record.winners) == saved.winners
