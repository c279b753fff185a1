"""Measuring stored games: replay each with its events and keep what its game's extractor finds.

The same replay records the game's trace (the standings after each action, the legal moves at each decision),
from which ``quality.py`` adds the game-quality measures (lead changes, drama, decisiveness, branching) to the
extractor's numbers: one replay per game, whatever is measured.

Replaying costs about as much as playing with random bots, so what was measured is kept in the store
(``game_features``) and a report over the same games never replays them twice. Games are measured in chunks
over local processes; each chunk is stored as it comes back, so a Ctrl-C loses at most the chunks in flight.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from oakwood.engine import Game, State, load
from oakwood.store import PlayedGame, Store

from .features import GameFeatures, extractor_for, extractor_key
from .quality import quality_numbers, replay_traced

#: Games per measuring task.
CHUNK = 50


@dataclass(frozen=True)
class MeasuredGame:
    """A finished game as the report reads it: its outcome and its features."""

    index: int
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    steps: int
    features: GameFeatures


def replayed(game: Game[Any], players: int, played: PlayedGame) -> State:
    """One stored game of ``game`` (loaded with its options) replayed to its end, with its events."""
    state = game.new_state(players, played.seed)  # as Replay.play does, without loading the game again
    decode = game.decode
    for seat, index in played.actions:
        state.apply(seat, decode(index))
    return state


def measured_features(game: Game[Any], players: int, played: PlayedGame) -> GameFeatures:
    """The features of one stored game of ``game`` (loaded with its options): its extractor's, with the
    game-quality numbers of the same replay added (``quality.QUALITY_NUMBERS``)."""
    state, trace = replay_traced(game, players, played)
    features = extractor_for(game.name).extract(game, state)
    numbers = {**features.numbers, **quality_numbers(trace, state.winners())}
    return GameFeatures(features.ending, numbers, features.seat_facts, features.order)


def _measure_chunk(
    game: str, options: dict[str, Any], players: int, chunk: Sequence[PlayedGame]
) -> dict[int, dict[str, Any]]:
    loaded = load(game, **options)
    return {played.id: measured_features(loaded, players, played).to_json() for played in chunk}


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent alone decides what a Ctrl-C stops


def measure(
    store: Store,
    game: str,
    options: dict[str, Any],
    players: int,
    games: Sequence[PlayedGame],
    *,
    workers: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[MeasuredGame]:
    """The features of every game in ``games``: read from the store, or measured now (and stored)."""
    key = extractor_key(extractor_for(game))
    known = store.game_features([g.id for g in games], key)
    todo = [g for g in games if g.id not in known]
    if on_progress is not None and len(known):
        on_progress(len(known))
    count = workers if workers is not None else (os.cpu_count() or 1)
    chunks = [todo[start : start + CHUNK] for start in range(0, len(todo), CHUNK)]
    if count <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            found = _measure_chunk(game, options, players, chunk)
            store.save_game_features(key, found)
            known.update(found)
            if on_progress is not None:
                on_progress(len(chunk))
    elif chunks:
        _measure_in_pool(store, key, game, options, players, chunks, min(count, len(chunks)), known, on_progress)
    return [
        MeasuredGame(g.index, g.scores, g.returns, g.winners, g.steps, GameFeatures.from_json(known[g.id]))
        for g in games
    ]


def _measure_in_pool(
    store: Store,
    key: str,
    game: str,
    options: dict[str, Any],
    players: int,
    chunks: list[list[PlayedGame]],
    processes: int,
    known: dict[int, dict[str, Any]],
    on_progress: Callable[[int], None] | None,
) -> None:
    waiting = iter(chunks)
    pending: dict[Future[dict[int, dict[str, Any]]], int] = {}
    pool = ProcessPoolExecutor(max_workers=processes, initializer=_ignore_interrupts)
    try:

        def submit_next() -> None:
            chunk = next(waiting, None)
            if chunk is not None:
                pending[pool.submit(_measure_chunk, game, options, players, chunk)] = len(chunk)

        for _ in range(processes * 2):
            submit_next()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                size = pending.pop(future)
                found = future.result()
                store.save_game_features(key, found)
                known.update(found)
                if on_progress is not None:
                    on_progress(size)
                submit_next()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # a chunk in flight takes a moment; the rest never start
