"""The ``dask.distributed`` backend: the same chunks of games, played by the workers of a cluster.

Install the ``distributed`` extra (``pip install 'oakwood[distributed]'``); every worker needs Oakwood
installed too (it imports the games by name). Chunks are submitted a few per worker thread at a time, as in
the local backend, and each finished chunk comes back to this process; the records are the local backend's,
game for game (a game depends only on the spec and its index).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, cast

from .backend import IN_FLIGHT_PER_WORKER, Deliver, WorkerLost, chunk_size, chunked
from .spec import SimulationSpec, run_chunk

#: Seconds to wait for the scheduler to answer before giving up.
CONNECT_TIMEOUT = 10.0


class DaskUnavailable(Exception):
    """The cluster cannot be used: the extra is not installed, or the scheduler does not answer."""


class DaskBackend:
    """Games played on the dask cluster whose scheduler is at ``address`` (``tcp://host:8786``)."""

    def __init__(self, client: Any) -> None:
        self.client = client

    @classmethod
    def connect(cls, address: str, timeout: float = CONNECT_TIMEOUT) -> DaskBackend:
        """A backend connected to the scheduler at ``address``; :class:`DaskUnavailable` says why not."""
        try:
            from distributed import Client
        except ImportError:
            raise DaskUnavailable(
                "the dask backend needs dask.distributed: pip install 'oakwood[distributed]'"
            ) from None
        try:
            client = cast(Any, Client)(address, timeout=timeout, set_as_default=False)  # distributed is untyped
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise DaskUnavailable(f"cannot reach the dask scheduler at {address!r} ({detail})") from None
        return cls(client)

    def close(self) -> None:
        """Disconnect from the cluster (the cluster itself keeps running)."""
        with contextlib.suppress(Exception):
            self.client.close()

    def threads(self) -> int:
        """How many worker threads the cluster has now (at least 1)."""
        return max(1, int(sum(self.client.nthreads().values())))

    def run(self, spec: SimulationSpec, indices: Sequence[int], deliver: Deliver) -> None:
        """Play ``indices`` (see :class:`~oakwood.arena.backend.Backend`)."""
        from distributed import as_completed
        from distributed.client import FutureCancelledError
        from distributed.scheduler import KilledWorker

        threads = self.threads()
        chunks = chunked(indices, chunk_size(len(indices), threads))
        pending: Any = cast(Any, as_completed)(loop=self.client.loop)
        submitted: list[Any] = []

        def submit_next() -> None:
            chunk = next(chunks, None)
            if chunk is not None:
                future = self.client.submit(run_chunk, spec, list(chunk), pure=False)
                submitted.append(future)
                pending.add(future)

        finished = False
        try:
            for _ in range(IN_FLIGHT_PER_WORKER * threads):
                submit_next()
            for future in pending:
                batch = future.result()
                submitted.remove(future)
                submit_next()
                deliver(batch)
            finished = True
        except KilledWorker as exc:
            raise WorkerLost(f"a dask worker died while playing games ({exc})") from None
        except (FutureCancelledError, OSError) as exc:
            raise WorkerLost(f"the dask cluster went away ({type(exc).__name__}: {exc})") from None
        finally:
            if not finished and submitted:  # Ctrl-C or a failure: nothing more is played for this run
                with contextlib.suppress(Exception):
                    self.client.cancel(submitted, force=True)
