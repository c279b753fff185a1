"""Many matches, seeded and optionally seat-rotated, played by a backend: local processes by default, or a
``dask.distributed`` cluster (:class:`~oakwood.arena.dask_backend.DaskBackend`).

A run that cannot finish — Ctrl-C, or a worker killed by the system — stops every worker at once and raises
:class:`SimulationStopped` carrying the games that did finish, so a caller can still report (and store) them
instead of losing the whole run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .backend import Backend, WorkerLost, chunk_size
from .local import LocalBackend
from .spec import SimulationSpec, run_game
from .stats import GameRecord

__all__ = ["SimulationSpec", "SimulationStopped", "chunk_size", "run_game", "simulate"]


class SimulationStopped(Exception):
    """The run stopped before every game finished. ``records`` holds the finished games in game order;
    ``interrupted`` is True for Ctrl-C (KeyboardInterrupt), False when a worker died."""

    def __init__(self, records: list[GameRecord], *, interrupted: bool, reason: str) -> None:
        super().__init__(reason)
        self.records = records
        self.interrupted = interrupted
        self.reason = reason


def simulate(
    spec: SimulationSpec,
    workers: int | None = None,
    on_progress: Callable[[int], None] | None = None,
    *,
    backend: Backend | None = None,
    indices: Iterable[int] | None = None,
    on_batch: Callable[[list[GameRecord]], None] | None = None,
) -> list[GameRecord]:
    """Play the games of ``spec`` (all, or only ``indices``) and return their records in game order.

    ``backend`` plays them (default: local processes, ``workers`` of them — every core by default; 1 plays
    in this process). As each batch of games finishes, ``on_batch(records)`` and then ``on_progress(n)`` are
    called in this process. The records depend neither on the backend nor on the number of workers. Ctrl-C
    or a lost worker raises :class:`SimulationStopped` with the games finished so far, every worker stopped.
    """
    runner = backend if backend is not None else LocalBackend(workers)
    todo = sorted(set(range(spec.games) if indices is None else indices))
    records: list[GameRecord] = []

    def deliver(batch: list[GameRecord]) -> None:
        records.extend(batch)
        if on_batch is not None:
            on_batch(batch)
        if on_progress is not None:
            on_progress(len(batch))

    stopped: SimulationStopped | None = None
    try:
        runner.run(spec, todo, deliver)
    except KeyboardInterrupt:
        stopped = SimulationStopped(records, interrupted=True, reason="interrupted")
    except WorkerLost as lost:
        stopped = SimulationStopped(records, interrupted=False, reason=str(lost))
    records.sort(key=lambda r: r.index)
    if stopped is not None:
        raise stopped
    return records
