"""What a simulation plays, and how one game of it is played: the part every backend runs in its workers.

Game ``i`` depends on the spec and ``i`` alone (its seed, its seating, its agents' seeds), so the same spec
gives the same games whichever backend or how many workers play them, in whatever order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from oakwood.agents import make_agent
from oakwood.engine import Game, load

from .match import play_match
from .stats import GameRecord, derive_seed


@dataclass(frozen=True)
class SimulationSpec:
    """What to simulate: a game with options, a lineup of agent names, how many games.

    Without ``rotate`` the lineup names one agent per seat. With ``rotate`` the lineup turns one seat per
    game: seat ``s`` of game ``i`` is played by entry ``(s - i) mod len(lineup)`` — entry ``e`` sits at seat
    ``(e + i) % n`` when the lineup fills the table — so over every ``len(lineup)`` games each entry plays
    each seat once and seat advantage cancels out. ``players`` (default: the lineup's length) may then differ
    from the lineup's length: a shorter lineup is cycled to fill the seats, a longer one takes turns sitting
    out. ``duplicate`` (with ``rotate``) deals the same cards to every seating: games ``k·L`` to ``k·L + L − 1``
    (``L`` the lineup's length) share one seed, so each deal is played once with every entry at every seat and
    the luck of the deal cancels out of the comparison (``stats.deal_summary`` gives its interval).
    ``keep_actions`` keeps each game's action history in its record (for the store). ``settings`` gives
    keyword settings by agent name, passed to ``make_agent`` over a level's own (a benchmark's time cap on a
    search, for one).
    """

    game: str
    lineup: tuple[str, ...]
    games: int
    seed: int = 0
    rotate: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    players: int | None = None
    keep_actions: bool = False
    duplicate: bool = False
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.lineup:
            raise ValueError("a lineup names at least one agent")
        if self.duplicate and not self.rotate:
            raise ValueError("duplicate deals need rotating seats (each deal is played once per seating)")
        if not self.rotate and self.players not in (None, len(self.lineup)):
            raise ValueError(f"{self.players} players but the lineup names {len(self.lineup)} seats (rotate it)")

    @property
    def seats(self) -> int:
        """The number of seats at the table."""
        return len(self.lineup) if self.players is None else self.players

    def seating(self, index: int) -> tuple[int, ...]:
        """The lineup entry at each seat in game ``index``."""
        count = len(self.lineup)
        if not self.rotate:
            return tuple(range(count))
        return tuple((seat - index) % count for seat in range(self.seats))

    def game_seed(self, index: int) -> int:
        """The seed of game ``index`` (derived from ``seed`` only, so reruns are identical): its deal's seed
        when deals are duplicated."""
        return derive_seed(self.seed, index // len(self.lineup) if self.duplicate else index)


@lru_cache(maxsize=8)
def _game(name: str, options: tuple[tuple[str, Any], ...]) -> Game[Any]:
    return load(name, **dict(options))


def run_game(spec: SimulationSpec, index: int) -> GameRecord:
    """Play game ``index`` of ``spec`` and record its outcome."""
    game = _game(spec.game, tuple(sorted(spec.options.items())))
    seed = spec.game_seed(index)
    seating = spec.seating(index)
    names = [spec.lineup[entry] for entry in seating]
    agents = [
        make_agent(game, name, seed=derive_seed(seed, seat + 1), **spec.settings.get(name, {}))
        for seat, name in enumerate(names)
    ]
    result = play_match(game, agents, seed, record_events=False)  # bots never read the log
    actions = ""
    if spec.keep_actions:
        index_of = game.codec.index  # encode without its checks: every action here was applied, so is the game's
        # As JSON text, written here in the worker: pickling hundreds of small tuples back to the parent cost it
        # more than writing them to the database (str of a list of int pairs is C-level and valid JSON once the
        # parentheses are brackets).
        pairs = [(seat, index_of[action]) for seat, action in result.state.history]
        actions = str(pairs).replace("(", "[").replace(")", "]")
    return GameRecord(
        index=index,
        seed=seed,
        seating=seating,
        scores=tuple(result.scores),
        returns=tuple(result.returns),
        winners=tuple(result.winners),
        steps=result.steps,
        actions=actions,
    )


def run_chunk(spec: SimulationSpec, indices: Sequence[int]) -> list[GameRecord]:
    """Play several games of ``spec``: one task of a worker."""
    return [run_game(spec, i) for i in indices]
