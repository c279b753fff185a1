"""What goes into the store and what comes out of it, as plain frozen dataclasses (no database sessions
leak out of the repository)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from oakwood.engine import Replay


@dataclass(frozen=True)
class NewGame:
    """A finished game to record (from ``simulate`` or ``arena``): its replay, outcome and players."""

    game: str
    options: dict[str, Any]
    players: int
    seed: int
    # [(seat, codec index), …] as ``state.replay()`` holds them, or the same already written as JSON text
    # (simulation workers send that: cheaper than pickling the pairs to the parent); then ``steps`` is needed
    actions: Sequence[tuple[int, int]] | str
    scores: Sequence[float]
    returns: Sequence[float]
    winners: Sequence[int]
    agents: Sequence[str]  # one per seat
    source: str
    start: str | None = None
    tournament_id: int | None = None
    game_index: int | None = None
    steps: int | None = None  # default: the number of actions

    def action_count(self) -> int:
        """How many actions the game took."""
        if self.steps is not None:
            return self.steps
        if isinstance(self.actions, str):
            raise ValueError("a history given as JSON text needs its number of steps")
        return len(self.actions)


@dataclass(frozen=True)
class StoredGame:
    """A game read back from the store; :meth:`replay` rebuilds it."""

    id: int
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    start: str | None
    actions: list[tuple[int, int]]
    steps: int
    status: str
    source: str
    scores: list[float] | None
    returns: list[float] | None
    winners: list[int] | None
    agents: list[str]
    started_at: datetime
    finished_at: datetime | None
    tournament_id: int | None
    game_index: int | None
    version: str | None = None  # the Oakwood version that started it (None: not recorded)

    @property
    def finished(self) -> bool:
        """Whether the game reached its end (a ``running`` game stopped somewhere on the way)."""
        return self.status == "finished"

    def replay(self) -> Replay:
        """The engine's replay of this game: ``replay().play()`` rebuilds the state, event by event."""
        return Replay(
            game=self.game,
            options=dict(self.options),
            players=self.players,
            seed=self.seed,
            actions=list(self.actions),
            start=self.start,
        )


@dataclass(frozen=True)
class GameListing:
    """One line of a list of games (no action history)."""

    id: int
    game: str
    players: int
    status: str
    source: str
    steps: int
    winners: list[int] | None
    agents: list[str]
    started_at: datetime
    tournament_id: int | None
    scores: list[float] | None = None  # the final scores of a finished game

    @property
    def finished(self) -> bool:
        """Whether the game reached its end."""
        return self.status == "finished"


@dataclass(frozen=True)
class TournamentSettings:
    """What defines a tournament: the same settings always play the same games (whatever the backend)."""

    game: str
    options: dict[str, Any]
    players: int
    agents: tuple[str, ...]
    seed: int
    games: int

    def key(self) -> str:
        """A digest of the settings: re-running the same command finds the same tournament."""
        canonical = json.dumps(
            [self.game, self.options, self.players, list(self.agents), str(self.seed), self.games],
            sort_keys=True,
            separators=(",", ":"),
        )
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Tournament:
    """A stored tournament."""

    id: int
    settings: TournamentSettings
    created_at: datetime


@dataclass(frozen=True)
class TournamentGame:
    """The outcome of one finished game of a tournament (what the final table is computed from)."""

    index: int
    seed: int
    agents: tuple[str, ...]  # one per seat
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    steps: int


@dataclass(frozen=True)
class PlayedGame:
    """A finished game of a tournament with its history: what the balance workbench measures."""

    id: int
    index: int
    seed: int
    actions: list[tuple[int, int]]
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    steps: int


@dataclass(frozen=True)
class Rating:
    """An agent's openskill rating: ``mu`` ± ``sigma``, and the conservative ``ordinal`` (mu − 3 sigma)."""

    agent: str
    mu: float
    sigma: float
    ordinal: float
    games: int


@dataclass(frozen=True)
class WebTable:
    """A table of ``oakwood serve`` as stored: its id (the invite link's), its game row, the seats
    (``{kind, level, name, token_hash}`` each) and the turn clock in seconds (None: no clock)."""

    id: str
    game_id: int
    seats: list[dict[str, Any]]
    turn_seconds: float | None
    created_at: datetime


@dataclass(frozen=True)
class EndedWebTable:
    """A table of ``oakwood serve`` whose game is over (``finished``) or was given up (``abandoned``), with
    what the lobby's history shows of it."""

    table: WebTable
    game: str
    options: dict[str, Any]
    players: int
    status: str
    scores: list[float] | None
    winners: list[int] | None
    ended_at: datetime | None
