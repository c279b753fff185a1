"""Parallel simulation: seeded, rotation, independent of the number of workers, and stopped cleanly."""

from __future__ import annotations

import multiprocessing

import pytest

from oakwood.agents import make_agent
from oakwood.arena import spec as spec_module
from oakwood.arena.simulate import SimulationSpec, SimulationStopped, chunk_size, simulate
from oakwood.arena.stats import derive_seed, summarize
from tests.cli.toygame import TOY_NAME


def test_same_records_with_one_or_two_workers() -> None:
    spec = SimulationSpec(TOY_NAME, ("heuristic", "random", "random"), games=24, seed=11, rotate=True)
    progress: list[int] = []
    one = simulate(spec, workers=1)
    two = simulate(spec, workers=2, on_progress=progress.append)
    assert one == two
    assert sum(progress) == 24
    assert [r.index for r in two] == list(range(24))
    assert [r.seed for r in one] == [derive_seed(11, i) for i in range(24)]


def test_rotation_puts_every_entry_in_every_seat_equally() -> None:
    spec = SimulationSpec(TOY_NAME, ("heuristic", "random", "random"), games=6, rotate=True)
    seatings = [spec.seating(i) for i in range(6)]
    for entry in range(3):
        seats = [seating.index(entry) for seating in seatings]
        assert sorted(seats) == [0, 0, 1, 1, 2, 2]
    fixed = SimulationSpec(TOY_NAME, ("heuristic", "random"), games=3)
    assert {fixed.seating(i) for i in range(3)} == {(0, 1)}


def test_records_are_real_outcomes_and_options_apply() -> None:
    spec = SimulationSpec(TOY_NAME, ("heuristic", "heuristic"), games=10, seed=3, options={"rounds": 1})
    records = simulate(spec, workers=1)
    for record in records:
        assert record.winners and abs(sum(record.returns) - 1.0) < 1e-9
        assert record.steps >= 4  # one round: stay, two commits, at least one race answer
    rows = summarize(records, ["P1", "P2"])
    assert abs(sum(row.wins for row in rows) - 10) < 1e-9


def test_settings_reach_the_named_agent_in_every_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[tuple[str, dict[str, object]]] = []

    def recording(game: object, name: str, **kwargs: object) -> object:
        built.append((name, kwargs))
        return make_agent(game, name, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(spec_module, "make_agent", recording)
    spec = SimulationSpec(
        "barrell", ("expert", "medium"), games=2, seed=3, rotate=True, settings={"expert": {"iterations": 2}}
    )
    simulate(spec, workers=1)
    experts = [kwargs for name, kwargs in built if name == "expert"]
    assert len(experts) == 2 and all(kwargs["iterations"] == 2 for kwargs in experts)  # one per seating
    assert all("iterations" not in kwargs for name, kwargs in built if name == "medium")


def test_chunk_size() -> None:
    assert chunk_size(1, 8) == 1
    assert chunk_size(10_000, 2) == 64
    assert chunk_size(100, 2) == 7


class StopAfter:
    """A progress callback that presses Ctrl-C (raises KeyboardInterrupt) once ``games`` have finished."""

    def __init__(self, games: int) -> None:
        self.games = games
        self.seen = 0

    def __call__(self, finished: int) -> None:
        self.seen += finished
        if self.seen >= self.games:
            raise KeyboardInterrupt


def test_ctrl_c_in_process_keeps_the_finished_games() -> None:
    spec = SimulationSpec(TOY_NAME, ("heuristic", "random"), games=20, seed=4)
    with pytest.raises(SimulationStopped) as stop:
        simulate(spec, workers=1, on_progress=StopAfter(3))
    assert stop.value.interrupted and stop.value.reason == "interrupted"
    assert stop.value.records == simulate(spec, workers=1)[:3]


def test_ctrl_c_with_workers_stops_them_all_and_keeps_the_finished_games() -> None:
    spec = SimulationSpec(TOY_NAME, ("heuristic", "random"), games=200, seed=4)
    with pytest.raises(SimulationStopped) as stop:
        simulate(spec, workers=2, on_progress=StopAfter(1))
    records = stop.value.records
    assert stop.value.interrupted and 0 < len(records) < 200
    assert records == sorted(records, key=lambda r: r.index)
    complete = {r.index: r for r in simulate(spec, workers=1)}
    assert all(complete[r.index] == r for r in records), "partial records are the real games"
    assert multiprocessing.active_children() == [], "no worker outlives the run"
