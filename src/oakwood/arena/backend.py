"""What a simulation backend does: run chunks of games somewhere and hand each finished chunk back.

Two backends implement it: local processes (:mod:`oakwood.arena.local`) and a ``dask.distributed`` cluster
(:mod:`oakwood.arena.dask_backend`). The runner (:func:`oakwood.arena.simulate.simulate`) owns the records,
the callbacks and the clean stop; a backend only schedules.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from .spec import SimulationSpec
from .stats import GameRecord

#: Chunks queued per worker at a time (one running, one waiting, so no worker ever idles), so that a run of
#: millions of games never holds a million pending tasks.
IN_FLIGHT_PER_WORKER = 2

Deliver = Callable[[list[GameRecord]], None]


class WorkerLost(Exception):
    """A worker died (killed by the system, out of memory, a cluster that went away); the run cannot go on."""


class Backend(Protocol):
    """Where the games of a simulation are played."""

    def run(self, spec: SimulationSpec, indices: Sequence[int], deliver: Deliver) -> None:
        """Play the games ``indices`` of ``spec``, calling ``deliver(records)`` in this process as each batch
        finishes. On Ctrl-C every worker is stopped and ``KeyboardInterrupt`` propagates; a lost worker
        raises :class:`WorkerLost` (the other workers stopped too)."""
        ...


def chunk_size(games: int, workers: int) -> int:
    """Games per task: about eight tasks per worker (for a smooth progress bar), at most 64 games each."""
    return max(1, min(64, math.ceil(games / (max(1, workers) * 8))))


def chunked(indices: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    """``indices`` in consecutive slices of ``size``."""
    return (indices[start : start + size] for start in range(0, len(indices), size))
