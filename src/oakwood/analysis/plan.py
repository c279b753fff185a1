"""What an analysis plays: a grid of cells (player count × agent × variant), each a stored tournament.

Every seat of a cell is played by the same agent, so a cell measures the game, not the agents. Each varied
option (``--vary OPTION=a,b``) gives its variants, one option changed from the base options, each compared
with the base. Two or more varied options also form a grid: every combination of their values is played
(:attr:`Plan.combined`), so the interaction of two options can be measured. Every cell of a plan shares the
seed, so variants are played on the same deals (common random numbers).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from oakwood.store import TournamentSettings

#: The label of the base options (no option changed).
BASE = "base"
#: Between the changes of a combined variant's label: ``battle_tie=all_tied_win · heart_gift=split_per_card``.
JOIN = " · "


@dataclass(frozen=True)
class Variant:
    """A set of options: the base, the base with one option changed (``option`` = ``shown``), or a cell of a
    grid, the base with several changed together (``combined``: the one-option variants it combines)."""

    label: str
    options: dict[str, Any] = field(compare=False)  # a variant is known by its label (unique in a plan)
    option: str | None = None
    shown: str | None = None  # the changed value as a person reads it (a file's name for a value read from one)
    combined: tuple[Variant, ...] = field(default=(), compare=False)

    @property
    def changes(self) -> tuple[tuple[str, str], ...]:
        """Each changed option with its value as shown, in the order the options were varied."""
        if self.combined:
            return tuple(change for v in self.combined for change in v.changes)
        return () if self.option is None else ((self.option, self.shown or ""),)

    @property
    def is_base(self) -> bool:
        """Whether this is the base options."""
        return not self.changes


def combine(parts: Sequence[Variant], options: dict[str, Any]) -> Variant:
    """The grid cell that changes each of ``parts``' options together (``options``: the whole set they make)."""
    label = JOIN.join(p.label for p in parts)
    return Variant(label=label, options=options, combined=tuple(parts))


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
    combined: tuple[Variant, ...] = ()  # every combination of two or more varied options' values (a grid)

    def variants(self) -> list[Variant]:
        """The base first, then each changed option's variants (none repeated), then the grid's combinations."""
        found = [self.base]
        for _, variants in self.varies:
            found.extend(v for v in variants if v not in found)
        found.extend(v for v in self.combined if v not in found)
        return found

    def pairs(self) -> list[tuple[str, str]]:
        """The pairs of varied options whose every combination is played: the grid's interactions."""
        if not self.combined:
            return []
        return list(itertools.combinations([name for name, _ in self.varies], 2))

    def together(self, parts: Sequence[Variant]) -> Variant:
        """The grid cell that combines ``parts`` (one-option variants of different options)."""
        wanted = {change for p in parts for change in p.changes}
        for variant in self.combined:
            if set(variant.changes) == wanted:
                return variant
        raise KeyError(JOIN.join(p.label for p in parts))

    def grid(self, first: str, second: str) -> list[Variant]:
        """Every cell of the grid of two options, the others at their base: the base, each option's variants
        alone, then every combination (the first option's values by the second's)."""
        a, b = self.compared(first)[1:], self.compared(second)[1:]
        return [self.base, *a, *b, *(self.together((x, y)) for x in a for y in b)]

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
