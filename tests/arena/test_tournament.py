"""Tournaments against a real store: every game stored and replayable, resumed after an interruption with
only the missing games, and a dask cluster giving exactly the local games."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from distributed import LocalCluster

from oakwood.arena.backend import Deliver
from oakwood.arena.dask_backend import DaskBackend, DaskUnavailable
from oakwood.arena.local import LocalBackend
from oakwood.arena.simulate import SimulationStopped, simulate
from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import GameRecord
from oakwood.arena.tournament import TournamentReport, missing_games, play_tournament, report, simulation_spec
from oakwood.store import Store, TournamentSettings, open_store
from tests.cli.toygame import TOY_NAME

SETTINGS = TournamentSettings(TOY_NAME, {"rounds": 2}, players=3, agents=("heuristic", "random"), seed=9, games=24)


@dataclass
class InterruptAfter:
    """A backend that plays like the local one and then presses Ctrl-C after ``batches`` batches."""

    batches: int
    inner: LocalBackend

    def run(self, spec: SimulationSpec, indices: Sequence[int], deliver: Deliver) -> None:
        seen = 0

        def counting(records: list[GameRecord]) -> None:
            nonlocal seen
            deliver(records)
            seen += 1
            if seen >= self.batches:
                raise KeyboardInterrupt

        self.inner.run(spec, indices, counting)


def table(result: TournamentReport) -> tuple[object, ...]:
    """What the final table shows (the tournament's id and date aside)."""
    return (result.finished, result.mean_length, result.standings)


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    with open_store(store_url) as opened:
        yield opened


def test_every_game_is_stored_under_its_index_and_replays_to_its_result(store: Store) -> None:
    tournament, created = store.tournament_for(SETTINGS)
    assert created and missing_games(store, tournament) == list(range(24))
    assert play_tournament(store, tournament, LocalBackend(2)) == 24
    assert missing_games(store, tournament) == []
    games = store.list_games(limit=100, tournament_id=tournament.id)
    assert len(games) == 24 and {g.source for g in games} == {"arena"}
    for listing in games:
        stored = store.get_game(listing.id)
        state = stored.replay().play()
        assert state.is_terminal()
        assert (state.scores(), state.returns(), state.winners()) == (stored.scores, stored.returns, stored.winners)
        assert stored.game_index is not None and stored.seed == simulation_spec(SETTINGS).game_seed(stored.game_index)
    result = report(store, tournament)
    assert result.complete and [s.summary.label for s in result.standings] == ["heuristic", "random"]
    assert sum(s.summary.games for s in result.standings) == 24 * 2  # three seats, two agents: both in every game
    assert store.ratings(tournament.id) and {r.agent for r in store.ratings(tournament.id)} == {"heuristic", "random"}


def test_an_interrupted_tournament_resumes_with_only_the_missing_games(store: Store, tmp_path: Path) -> None:
    tournament, _ = store.tournament_for(SETTINGS)
    with pytest.raises(SimulationStopped) as stop:
        play_tournament(store, tournament, InterruptAfter(3, LocalBackend(1)))
    assert stop.value.interrupted and len(stop.value.records) == 3
    assert sorted(store.finished_indices(tournament.id)) == [r.index for r in stop.value.records] == [0, 1, 2]
    partial = report(store, tournament)
    assert partial.finished == 3 and not partial.complete

    again, created = store.tournament_for(SETTINGS)  # the same settings find the same tournament
    assert again.id == tournament.id and not created
    assert play_tournament(store, again, LocalBackend(2)) == 21  # only the missing games are played
    resumed = report(store, again)

    with open_store(f"sqlite:///{tmp_path}/uninterrupted.db") as other:
        fresh, _ = other.tournament_for(SETTINGS)
        play_tournament(other, fresh, LocalBackend(1))
        assert table(report(other, fresh)) == table(resumed)
        fresh_games = {g.game_index: g.actions for g in map(other.get_game, _ids(other, fresh.id))}
    resumed_games = {g.game_index: g.actions for g in map(store.get_game, _ids(store, again.id))}
    assert resumed_games == fresh_games


def _ids(store: Store, tournament_id: int) -> list[int]:
    return [g.id for g in store.list_games(limit=1000, tournament_id=tournament_id)]


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[LocalCluster]:
    """A small in-process dask cluster (threads, no worker processes: quick to start)."""
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        yield cluster


def test_a_dask_cluster_plays_exactly_the_local_games(dask_cluster: LocalCluster, tmp_path: Path) -> None:
    spec = simulation_spec(SETTINGS)
    backend = DaskBackend.connect(dask_cluster.scheduler_address)
    try:
        assert backend.threads() == 2
        batches: list[int] = []
        on_dask = simulate(spec, backend=backend, on_batch=lambda records: batches.append(len(records)))
        assert sum(batches) == 24 and len(batches) > 1  # came back chunk by chunk
        assert on_dask == simulate(spec, workers=2) == simulate(spec, workers=1)
        assert simulate(spec, backend=backend, indices=[5, 1]) == [on_dask[1], on_dask[5]]

        with open_store(f"sqlite:///{tmp_path}/dask.db") as a, open_store(f"sqlite:///{tmp_path}/local.db") as b:
            t_dask, _ = a.tournament_for(SETTINGS)
            t_local, _ = b.tournament_for(SETTINGS)
            play_tournament(a, t_dask, backend)
            play_tournament(b, t_local, LocalBackend(2))
            assert table(report(a, t_dask)) == table(report(b, t_local))
    finally:
        backend.close()


def test_an_unreachable_scheduler_is_one_sentence() -> None:
    with pytest.raises(DaskUnavailable, match=r"cannot reach the dask scheduler at 'tcp://127\.0\.0\.1:9'"):
        DaskBackend.connect("tcp://127.0.0.1:9", timeout=0.5)
