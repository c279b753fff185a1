"""Searching bots (``hard`` and ``expert``) think in worker processes, so that a search never holds the
interpreter the event loop needs: a person's move is answered while twelve tables of experts think.

**What crosses to a worker** is one of the seat's *worlds*, as notation: a whole position in which everything
hidden from the seat was drawn again (``State.determinize``, with the room's world generator), plus the seat
and what the bot is (:class:`BotRecipe`: game, options, level, seed, budgets). A world is a function of what
the seat knows and of that generator only — the conformance kit proves that a world drawn from a world equals
one drawn from the truth — so a worker learns nothing the seat's observation does not tell; it rebuilds the
seat's view from the world (``PlayerView.of_world``) exactly as the searching bot was handed it in process.
What comes back is the action's codec index and a reaction delay, which the table checks like anyone's move.

Each bot lives in one worker for as long as its table needs it (its tree stays there between moves, bounded
by ``RoomSettings.bot_keep_nodes``): it is placed in the worker holding the fewest bots and let go when its
game ends or its table closes. Workers run below the server's CPU priority (``nice`` 10), so the event loop
takes a core whenever it needs one and searches use most of what is left. (Not ``SCHED_IDLE``: a worker under
it gets no CPU at all while any other process wants some, so on a busy host the bots stopped moving.) A worker
that dies is replaced; its bots start again with empty trees.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from oakwood.agents import make_agent
from oakwood.engine import Game, load
from oakwood.engine.agent import Choice, PlayerView

#: A bot: its table, its seat and its level (a person's seat covered by a bot has a level of its own).
BotKey = tuple[str, int, str]

#: The niceness of the workers: below the server's (0), so a person's move comes first.
WORKER_NICENESS = 10
#: Workers dead in a row before the pool is given up on (see :attr:`SearchPool.usable`).
GIVE_UP_AFTER = 3

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class BotRecipe:
    """Everything a worker needs to build a bot: the game and its options, the level, and its settings."""

    game: str
    options: tuple[tuple[str, Any], ...]
    level: str
    seed: int
    seconds: float
    keep: int


class SearchPool:
    """Worker processes that hold searching bots and answer their moves."""

    def __init__(self, processes: int) -> None:
        if processes < 1:
            raise ValueError("a search pool needs at least one process")
        # forkserver: a worker never inherits the server's threads or its event loop mid-flight
        self._context = multiprocessing.get_context("forkserver")
        self._workers: list[ProcessPoolExecutor | None] = [None] * processes
        self._home: dict[BotKey, int] = {}
        self._broken_in_a_row = 0

    @property
    def usable(self) -> bool:
        """False once workers have died :data:`GIVE_UP_AFTER` times in a row (a host that forbids processes,
        or a worker that cannot start): the rooms then let their bots think in the server's threads."""
        return self._broken_in_a_row < GIVE_UP_AFTER

    @property
    def processes(self) -> int:
        """How many workers the pool has (each started when it is first needed)."""
        return len(self._workers)

    async def act(self, key: BotKey, recipe: BotRecipe, seat: int, world: str) -> tuple[int, float | None]:
        """Ask the bot ``key`` (built from ``recipe`` the first time) for its move from ``world``, a notation of
        one of ``seat``'s worlds; the action's codec index, and the reaction delay it chose (None: none)."""
        index = self._home.get(key)
        if index is None:
            index = self._home[key] = self._least_loaded()
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            worker = self._worker(index)
            try:
                answer = await loop.run_in_executor(worker, _think, key, recipe, seat, world)
            except BrokenProcessPool:  # the worker died (killed, out of memory): a new one, and the bot anew
                if self._workers[index] is worker:
                    self._workers[index] = None
                    worker.shutdown(wait=False, cancel_futures=True)
                    self._broken_in_a_row += 1
                    if not self.usable:
                        logger.error("bot worker processes keep dying: searching bots think in the server's threads")
                if attempt or not self.usable:
                    raise
            else:
                self._broken_in_a_row = 0
                return answer
        raise AssertionError("unreachable")

    def forget(self, keys: Iterable[BotKey]) -> None:
        """Let the bots ``keys`` go (their game is over, or their table closed): their workers drop them."""
        by_worker: dict[int, list[BotKey]] = {}
        for key in keys:
            index = self._home.pop(key, None)
            if index is not None:
                by_worker.setdefault(index, []).append(key)
        for index, dropped in by_worker.items():
            worker = self._workers[index]
            if worker is not None:
                with contextlib.suppress(BrokenProcessPool, RuntimeError):  # a dead worker holds nothing
                    worker.submit(_drop, dropped)

    async def held(self) -> dict[BotKey, int]:
        """The bots every running worker holds now, with the nodes of each one's tree (for tests and
        operators: memory lives in the workers)."""
        loop = asyncio.get_running_loop()
        held: dict[BotKey, int] = {}
        for worker in self._workers:
            if worker is not None:
                held.update(await loop.run_in_executor(worker, _held))
        return held

    def shutdown(self) -> None:
        """Stop every worker (a search under way ends within its time budget; nothing waits for it)."""
        for worker in self._workers:
            if worker is not None:
                worker.shutdown(wait=False, cancel_futures=True)
        self._workers = [None] * len(self._workers)
        self._home.clear()

    def _least_loaded(self) -> int:
        load_of = Counter(self._home.values())
        return min(range(len(self._workers)), key=lambda index: load_of[index])

    def _worker(self, index: int) -> ProcessPoolExecutor:
        worker = self._workers[index]
        if worker is None:
            worker = ProcessPoolExecutor(max_workers=1, mp_context=self._context, initializer=_start_worker)
            self._workers[index] = worker
        return worker


# ---------------------------------------------------------------------------------------------- in a worker
_bots: dict[BotKey, Any] = {}
_games: dict[tuple[str, tuple[tuple[str, Any], ...]], Game[Any]] = {}


def _start_worker() -> None:
    """A worker yields the CPU to the server, and leaves Ctrl-C and SIGTERM to it (it is stopped by it)."""
    os.nice(WORKER_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _think(key: BotKey, recipe: BotRecipe, seat: int, world: str) -> tuple[int, float | None]:
    game = _games.get((recipe.game, recipe.options))
    if game is None:
        game = _games[(recipe.game, recipe.options)] = load(recipe.game, **dict(recipe.options))
    bot = _bots.get(key)
    if bot is None:
        bot = _bots[key] = make_agent(game, recipe.level, seed=recipe.seed, seconds=recipe.seconds, keep=recipe.keep)
    answer = bot.act(PlayerView.of_world(game.from_notation(world), seat))
    if isinstance(answer, Choice):
        return game.encode(answer.action), answer.delay
    return game.encode(answer), None


def _drop(keys: list[BotKey]) -> None:
    for key in keys:
        _bots.pop(key, None)


def _held() -> dict[BotKey, int]:
    return {key: len(getattr(bot, "tree", ())) for key, bot in _bots.items()}
