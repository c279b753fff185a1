"""Rich renderables for terminal play: the board panel, the log, the scores, the move menu, the result."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from oakwood.engine import Game

#: How many log lines a screen shows at most (the newest).
LOG_LINES = 14


def board_panel(game: Game[Any], observation: Mapping[str, Any], title: str) -> Panel:
    """The game's own text picture of an observation, framed (plain text: no Rich markup is interpreted)."""
    return Panel(Text(game.render(observation)), title=Text(title, style="bold"), title_align="left", box=box.ROUNDED)


def log_panel(lines: Sequence[str], title: str) -> RenderableType | None:
    """The newest log lines (what happened since the viewer last acted), or None when there are none."""
    if not lines:
        return None
    shown = list(lines[-LOG_LINES:])
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    if len(lines) > len(shown):
        grid.add_row("…", Text(f"{len(lines) - len(shown)} earlier lines", style="dim"))
    for line in shown:
        grid.add_row("•", Text(line))  # a wrapped line stays indented under its bullet
    return Panel(grid, title=Text(title, style="bold"), title_align="left", box=box.SIMPLE_HEAD, padding=(0, 1))


def scores_table(labels: Sequence[str], scores: Sequence[float], to_act: Sequence[int]) -> Table:
    """One column per seat: its label and running score; seats to act are highlighted."""
    table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False, title=None)
    for seat, label in enumerate(labels):
        style = "bold yellow" if seat in to_act else ""
        table.add_column(Text(label, style=style), justify="center")
    table.add_row(*[Text(_number(score), style="bold") for score in scores])
    return table


def moves_menu(game: Game[Any], legal: Sequence[Hashable]) -> RenderableType:
    """The legal moves, numbered from 1, with the game's description when it adds something.

    Up to 12 moves are a table (number, move, description); more are packed into columns of ``n move``.
    """
    if len(legal) <= 12:
        table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
        table.add_column(justify="right", style="bold cyan", no_wrap=True)
        table.add_column(style="bold", no_wrap=True)
        table.add_column(style="dim")
        for number, action in enumerate(legal, start=1):
            described = game.describe_action(action)
            table.add_row(str(number), str(action), described if described != str(action) else "")
        return table
    items = []
    for number, action in enumerate(legal, start=1):
        text = Text()
        text.append(f"{number:>2} ", style="bold cyan")
        text.append(str(action), style="bold")
        items.append(text)
    return Columns(items, padding=(0, 3), column_first=True)


def result_table(labels: Sequence[str], scores: Sequence[float], winners: Sequence[int]) -> Table:
    """The final standings, best score first."""
    table = Table(title="Final result", box=box.ROUNDED, title_style="bold")
    table.add_column("Seat")
    table.add_column("Score", justify="right")
    table.add_column("Result")
    order = sorted(range(len(labels)), key=lambda s: (-scores[s], s))
    for seat in order:
        mark = Text("winner", style="bold green") if seat in winners else Text("")
        table.add_row(labels[seat], _number(scores[seat]), mark)
    return table


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
