"""The local backend: games in chunks over a pool of processes on this machine (or in this process).

Workers ignore Ctrl-C: the terminal sends SIGINT to the whole process group, and the parent alone decides
what happens (stop them all, keep what finished).
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from .backend import IN_FLIGHT_PER_WORKER, Deliver, WorkerLost, chunk_size, chunked
from .spec import SimulationSpec, run_chunk, run_game
from .stats import GameRecord

DIED = "a worker process died unexpectedly (killed by the system, or out of memory)"


class LocalBackend:
    """``workers`` processes (default: every core); 1 plays in this process, game by game."""

    def __init__(self, workers: int | None = None) -> None:
        count = workers if workers is not None else (os.cpu_count() or 1)
        if count < 1:
            raise ValueError("workers must be at least 1")
        self.workers = count

    def run(self, spec: SimulationSpec, indices: Sequence[int], deliver: Deliver) -> None:
        """Play ``indices`` (see :class:`~oakwood.arena.backend.Backend`)."""
        if self.workers == 1 or len(indices) <= 1:
            for i in indices:
                deliver([run_game(spec, i)])
            return
        size = chunk_size(len(indices), self.workers)
        chunks = chunked(indices, size)
        processes = min(self.workers, math.ceil(len(indices) / size))
        pool: ProcessPoolExecutor | None = None
        pending: set[Future[list[GameRecord]]] = set()
        outcome = "aborted"  # until the loop ends normally; a dead pool already stopped its other workers

        def submit_next() -> None:
            chunk = next(chunks, None)
            if chunk is not None and pool is not None:
                pending.add(pool.submit(run_chunk, spec, chunk))

        try:
            # Workers are forked with Ctrl-C blocked, and then ignore it.
            with _interrupts_blocked():
                pool = ProcessPoolExecutor(max_workers=processes, initializer=_ignore_interrupts)
                for _ in range(IN_FLIGHT_PER_WORKER * processes):
                    submit_next()
            while pending:
                done, still = wait(pending, return_when=FIRST_COMPLETED)
                pending.intersection_update(still)
                for future in done:
                    batch = future.result()
                    submit_next()
                    deliver(batch)
            outcome = "finished"
        except BrokenProcessPool:
            outcome = "broken"
            raise WorkerLost(DIED) from None
        finally:
            if pool is not None:
                _close(pool, outcome)


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


def _close(pool: ProcessPoolExecutor, outcome: str, grace: float = 1.0) -> None:
    """Shut the pool down: normally when every chunk ``finished``; otherwise (Ctrl-C, an error, a ``broken``
    pool) ending every worker now."""
    if outcome == "finished":
        pool.shutdown(wait=True)
        return
    # The executor can stop running tasks only from Python 3.14 (terminate_workers); before that its
    # process table is the one handle on the workers.
    table = getattr(pool, "_processes", None)
    workers = list(table.values()) if table else []
    if outcome != "broken":  # a dead worker already made the executor terminate the others itself
        for worker in workers:
            with contextlib.suppress(Exception):
                worker.terminate()
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.join(grace)
            if worker.is_alive():
                worker.kill()
                worker.join(grace)
    # A worker ended while writing its result leaves half a message in the result pipe, and the executor's
    # thread would wait for the rest for ever. With every worker gone, closing this process's writing end
    # turns that wait into end of file, which the executor reads as a broken pool and stops.
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        with contextlib.suppress(Exception):
            writer.close()
    # Then let the executor's own thread finish failing what is queued (racing it from here can make it fail
    # with a traceback).
    pool.shutdown(wait=True, cancel_futures=True)
