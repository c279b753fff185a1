"""Many matches in parallel: seeded, optionally seat-rotated, chunked over local processes.

A run that cannot finish — Ctrl-C, or a worker process killed by the system — stops every worker at once
and raises :class:`SimulationStopped` carrying the games that did finish, so a caller can still report
them (marked partial) instead of losing the whole run.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from oakwood.agents import make_agent
from oakwood.engine import Game, load

from .match import play_match
from .stats import GameRecord, derive_seed


@dataclass(frozen=True)
class SimulationSpec:
    """What to simulate: a game with options, a lineup of agent names (one per seat), how many games.

    With ``rotate`` the lineup shifts one seat per game (entry ``e`` sits at seat ``(e + i) % n`` in game
    ``i``), so every agent plays every seat equally often and seat advantage cancels out.
    """

    game: str
    lineup: tuple[str, ...]
    games: int
    seed: int = 0
    rotate: bool = False
    options: dict[str, Any] = field(default_factory=dict)

    def seating(self, index: int) -> tuple[int, ...]:
        """The lineup entry at each seat in game ``index``."""
        n = len(self.lineup)
        if not self.rotate:
            return tuple(range(n))
        shift = index % n
        return tuple((seat - shift) % n for seat in range(n))

    def game_seed(self, index: int) -> int:
        """The seed of game ``index`` (derived from ``seed`` only, so reruns are identical)."""
        return derive_seed(self.seed, index)


@lru_cache(maxsize=8)
def _game(name: str, options: tuple[tuple[str, Any], ...]) -> Game[Any]:
    return load(name, **dict(options))


def run_game(spec: SimulationSpec, index: int) -> GameRecord:
    """Play game ``index`` of ``spec`` and record its outcome."""
    game = _game(spec.game, tuple(sorted(spec.options.items())))
    seed = spec.game_seed(index)
    seating = spec.seating(index)
    agents = [
        make_agent(game, spec.lineup[entry], seed=derive_seed(seed, seat + 1)) for seat, entry in enumerate(seating)
    ]
    result = play_match(game, agents, seed, record_events=False)  # bots never read the log
    return GameRecord(
        index=index,
        seed=seed,
        seating=seating,
        scores=tuple(result.scores),
        returns=tuple(result.returns),
        winners=tuple(result.winners),
        steps=result.steps,
    )


#: Chunks queued per worker at a time (one running, one waiting, so no worker ever idles).
IN_FLIGHT_PER_WORKER = 2


def _run_chunk(spec: SimulationSpec, indices: Sequence[int]) -> list[GameRecord]:
    return [run_game(spec, i) for i in indices]


class SimulationStopped(Exception):
    """The run stopped before every game finished. ``records`` holds the finished games in game order;
    ``interrupted`` is True for Ctrl-C (KeyboardInterrupt), False when a worker process died."""

    def __init__(self, records: list[GameRecord], *, interrupted: bool, reason: str) -> None:
        super().__init__(reason)
        self.records = records
        self.interrupted = interrupted
        self.reason = reason


def chunk_size(games: int, workers: int) -> int:
    """Games per task: about eight tasks per worker (for a smooth progress bar), at most 64 games each."""
    return max(1, min(64, math.ceil(games / (max(1, workers) * 8))))


def simulate(
    spec: SimulationSpec,
    workers: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Run every game of ``spec`` and return the records in game order.

    ``workers`` processes (default: every core); 1 runs in this process. ``on_progress(n)`` is called as
    each batch of ``n`` games finishes. The records do not depend on ``workers``. Ctrl-C or a worker's
    death raises :class:`SimulationStopped` with the games finished so far, every worker stopped.
    """
    count = workers if workers is not None else (os.cpu_count() or 1)
    if count < 1:
        raise ValueError("workers must be at least 1")
    records: list[GameRecord] = []
    if count == 1 or spec.games <= 1:
        try:
            for i in range(spec.games):
                records.append(run_game(spec, i))
                if on_progress:
                    on_progress(1)
        except KeyboardInterrupt:
            raise SimulationStopped(records, interrupted=True, reason="interrupted") from None
        return records
    size = chunk_size(spec.games, count)
    chunks = (range(start, min(start + size, spec.games)) for start in range(0, spec.games, size))
    processes = min(count, math.ceil(spec.games / size))
    stopped: SimulationStopped | None = None
    pool: ProcessPoolExecutor | None = None
    pending: set[Future[list[GameRecord]]] = set()

    def submit_next() -> None:
        chunk = next(chunks, None)
        if chunk is not None and pool is not None:
            pending.add(pool.submit(_run_chunk, spec, chunk))

    try:
        # Workers are forked with Ctrl-C blocked and then ignore it: the terminal sends SIGINT to the whole
        # process group, and the parent alone decides what happens (stop them all, keep what finished).
        with _interrupts_blocked():
            pool = ProcessPoolExecutor(max_workers=processes, initializer=_ignore_interrupts)
            # Only a few chunks are queued at a time: a run of millions of games holds no million futures,
            # and the executor's own clean-up after a worker's death has next to nothing to go through.
            for _ in range(IN_FLIGHT_PER_WORKER * processes):
                submit_next()
        while pending:
            done, still = wait(pending, return_when=FIRST_COMPLETED)
            pending.intersection_update(still)
            for future in done:
                batch = future.result()
                records.extend(batch)
                submit_next()
                if on_progress:
                    on_progress(len(batch))
    except KeyboardInterrupt:
        stopped = SimulationStopped(records, interrupted=True, reason="interrupted")
    except BrokenProcessPool:
        reason = "a worker process died unexpectedly (killed by the system, or out of memory)"
        stopped = SimulationStopped(records, interrupted=False, reason=reason)
    finally:
        if pool is not None:
            _close(pool, stopped)
    if stopped is not None:
        stopped.records.sort(key=lambda r: r.index)
        raise stopped
    records.sort(key=lambda r: r.index)
    return records


def _ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (it stops the workers itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _interrupts_blocked() -> Iterator[None]:
    """Hold back SIGINT while workers are forked, so none can die of it before its initializer runs; a
    Ctrl-C in between is delivered to the parent as soon as the block ends."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks, nothing to hold back
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _close(pool: ProcessPoolExecutor, stopped: SimulationStopped | None, grace: float = 1.0) -> None:
    """Shut the pool down: normally, or — after Ctrl-C or a dead worker — ending every worker now."""
    if stopped is None:
        pool.shutdown(wait=True)
        return
    # The executor can stop running tasks only from Python 3.14 (terminate_workers); before that its
    # process table is the one handle on the workers.
    table = getattr(pool, "_processes", None)
    workers = list(table.values()) if table else []
    if stopped.interrupted:  # a dead worker already made the executor terminate the others itself
        for worker in workers:
            with contextlib.suppress(Exception):
                worker.terminate()
    # Wait for the executor's own thread to finish failing what is queued (racing it from here can make it
    # fail with a traceback), then make sure no worker lingers.
    pool.shutdown(wait=True, cancel_futures=True)
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.join(grace)
            if worker.is_alive():
                worker.kill()
                worker.join(grace)
