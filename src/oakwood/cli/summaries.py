"""The summaries of :mod:`oakwood.summaries` (a S'Quarrels round, a Barrell battle, every game's end) drawn as
Rich panels for the terminal. What they say is decided there, from what the seat may see only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from oakwood import summaries as plain
from oakwood.engine import Game

from .styles import styled

#: A battle summary lists at most this many effects, so that it fits an 80x24 screen with four players.
MAX_EFFECT_LINES = 8

score_name = plain.score_name
ending_kinds = plain.ending_kinds


def summary(
    game: Game[Any], views: Sequence[plain.EventView], index: int, labels: Sequence[str], *, seat: int | None
) -> RenderableType | None:
    """The panel of the round or battle that ``views[index]`` ended, or None if that event ends nothing."""
    found = plain.summary(game, views, index, labels, seat)
    return None if found is None else panel(found, game.name, seat)


def final_summary(
    game: Game[Any], observation: Mapping[str, Any], labels: Sequence[str], seat: int | None
) -> RenderableType | None:
    """The closing panel of a game whose last round or battle summary does not say it all, else None."""
    found = plain.final_summary(game, observation, labels, seat)
    return None if found is None else panel(found, game.name, seat)


def panel(found: plain.Summary, game: str, seat: int | None) -> Panel:
    """A summary as a table in a rounded panel: the viewer's row in cyan, the winners' scores in green."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for i, heading in enumerate(found.columns):
        table.add_column(heading, justify="right" if i in found.numeric else "left")
    for row in found.rows:
        name, *rest = row.cells
        cells: list[RenderableType] = [Text(str(name), style="bold cyan" if row.seat == seat else "")]
        for cell in rest:
            text = cell.text if isinstance(cell, plain.Cards) else cell
            cells.append(styled(text, game))
        table.add_row(*cells)
    parts: list[RenderableType] = [table]
    if found.lines:
        parts.append(Text("At the reveal:", style="bold"))
        listed = found.lines[:MAX_EFFECT_LINES]
        parts += [Text("  • ") + styled(line, game) for line in listed]
        if len(found.lines) > len(listed):  # a summary must fit one screen: the log has every line
            parts.append(Text(f"  … {len(found.lines) - len(listed)} more ('log' shows them all)", style="dim"))
    parts += [Text(note, style="dim") for note in found.notes]
    return Panel(Group(*parts), title=Text(found.title, style="bold"), title_align="left", box=box.ROUNDED)
