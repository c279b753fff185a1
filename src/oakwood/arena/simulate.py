"""Many matches in parallel: seeded, optionally seat-rotated, chunked over local processes."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
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


def _run_chunk(spec: SimulationSpec, indices: Sequence[int]) -> list[GameRecord]:
    return [run_game(spec, i) for i in indices]


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
    each batch of ``n`` games finishes. The records do not depend on ``workers``.
    """
    count = workers if workers is not None else (os.cpu_count() or 1)
    if count < 1:
        raise ValueError("workers must be at least 1")
    records: list[GameRecord] = []
    if count == 1 or spec.games <= 1:
        for i in range(spec.games):
            records.append(run_game(spec, i))
            if on_progress:
                on_progress(1)
        return records
    size = chunk_size(spec.games, count)
    chunks = [list(range(start, min(start + size, spec.games))) for start in range(0, spec.games, size)]
    with ProcessPoolExecutor(max_workers=min(count, len(chunks))) as pool:
        pending: set[Future[list[GameRecord]]] = {pool.submit(_run_chunk, spec, chunk) for chunk in chunks}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                batch = future.result()
                records.extend(batch)
                if on_progress:
                    on_progress(len(batch))
    records.sort(key=lambda r: r.index)
    return records
