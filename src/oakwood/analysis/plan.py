"""What an analysis plays: a grid of cells (player count × agent × variant), each a stored tournament.

Every seat of a cell is played by the same agent, so a cell measures the game, not the agents. Variants are
one option changed at a time from the base options (``--vary OPTION=a,b``): each is compared with the base.
Every cell of a plan shares the seed, so variants are played on the same deals (common random numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from oakwood.store import TournamentSettings

#: The label of the base options (no option changed).
BASE = "base"


@dataclass(frozen=True)
class Variant:
    """A set of options: the base, or the base with one option changed (``option`` = ``shown``)."""

    label: str
    options: dict[str, Any] = field(compare=False)  # a variant is known by its label (unique in a plan)
    option: str | None = None
    shown: str | None = None  # the changed value as a person reads it (a file's name for a value read from one)

    @property
    def is_base(self) -> bool:
        """Whether this is the base options."""
        return self.option is None


@dataclass(frozen=True)
class Cell:
    """One part of the grid: ``games`` games at ``players`` seats, every seat played by ``agent``."""

    players: int
    agent: str
    variant: Variant

    @property
    def label(self) -> str:
        """A short name for messages and file names."""
        return f"{self.players}p · {self.agent} · {self.variant.label}"


@dataclass(frozen=True)
class Plan:
    """The whole analysis: the game, the grid and how many games each cell plays, from which seed."""

    game: str
    players: tuple[int, ...]
    agents: tuple[str, ...]
    games: int
    seed: int
    base: Variant
    varies: tuple[tuple[str, tuple[Variant, ...]], ...] = ()

    def variants(self) -> list[Variant]:
        """The base first, then each changed option's variants (none repeated)."""
        found = [self.base]
        for _, variants in self.varies:
            found.extend(v for v in variants if v not in found)
        return found

    def cells(self) -> list[Cell]:
        """Every cell, player count by player count, agent by agent, base variant first."""
        return [
            Cell(players, agent, variant)
            for players in self.players
            for agent in self.agents
            for variant in self.variants()
        ]

    def settings(self, cell: Cell) -> TournamentSettings:
        """The stored tournament a cell is: its agent at every seat, the plan's seed and number of games."""
        return TournamentSettings(
            game=self.game,
            options=cell.variant.options,
            players=cell.players,
            agents=(cell.agent,),
            seed=self.seed,
            games=self.games,
        )

    def compared(self, option: str) -> Sequence[Variant]:
        """The variants of one changed option, the base among them (first)."""
        for name, variants in self.varies:
            if name == option:
                return [self.base, *(v for v in variants if not v.is_base)]
        raise KeyError(option)
