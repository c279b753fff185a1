"""Rich renderables for terminal play: the board, the log, the scores, the move menu, the result, and the
layout that fits them into the terminal.

A player's screen is, top to bottom: the board, the newest log lines, the scores, a notice, the heading and
the move menu, then the prompt. On a terminal of ``height`` rows (:func:`fit_screen`) the rows are budgeted:
the menu and the board come first (a multi-column menu and the game's compact board when the full ones do
not fit), the log gets the rows that are left, so nothing scrolls off before the prompt. Without a height (a
transcript: pipes and tests) everything is printed in full.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from oakwood.engine import Game

from .styles import styled

#: How many log lines a transcript screen shows at most (the newest); a terminal shows what fits.
LOG_LINES = 14
#: A transcript's menu is one move a line up to this many moves, then columns.
MENU_LINES = 12
#: From this many columns on, the log stands beside the board instead of under it.
WIDE = 120
#: The fewest log lines a fitted screen tries to keep (the latest events matter more than a roomy menu).
MIN_LOG_LINES = 3


@runtime_checkable
class DescribesMoves(Protocol):
    """A game whose menu can say what a move costs in the position (an optional hook beside
    ``Game.describe_action``)."""

    def describe_move(self, observation: Mapping[str, Any], action: Hashable) -> str:
        """``describe_action`` with what ``action`` costs in ``observation``."""
        ...


@runtime_checkable
class CompactRender(Protocol):
    """A game that can draw its board in fewer rows (an optional hook beside ``Game.render``)."""

    def render_compact(self, observation: Mapping[str, Any]) -> str:
        """The same facts as ``render`` in as few lines as the game can manage."""
        ...


def board_panel(game: Game[Any], observation: Mapping[str, Any], title: str) -> Panel:
    """The game's own text picture of an observation, framed and coloured (no Rich markup is interpreted)."""
    text = styled(game.render(observation), game.name, observation.get("seat"))
    return Panel(text, title=Text(title, style="bold"), title_align="left", box=box.ROUNDED)


def board_variants(game: Game[Any], observation: Mapping[str, Any], title: str) -> list[RenderableType]:
    """The board from roomiest to most compact: framed; unframed without blank lines; the game's compact
    picture (when it has one) unframed."""
    seat = observation.get("seat")
    full = game.render(observation)
    heading = Rule(Text(f" {title} ", style="bold"), align="left", style="dim")
    variants: list[RenderableType] = [board_panel(game, observation, title)]
    dense = "\n".join(line for line in full.splitlines() if line.strip())
    variants.append(Group(heading, styled(dense, game.name, seat)))
    if isinstance(game, CompactRender):
        compact = game.render_compact(observation)
        variants.append(Group(heading, styled(compact, game.name, seat)))
    return variants


def log_panel(
    lines: Sequence[str],
    title: str,
    *,
    game: str = "",
    seat: int | None = None,
    limit: int = LOG_LINES,
    more: str = "",
) -> RenderableType | None:
    """The newest log lines (what happened since the viewer last acted), or None when there are none;
    ``more`` says how to see the lines left out."""
    if not lines:
        return None
    shown = list(lines[-limit:]) if limit > 0 else []
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    if len(lines) > len(shown):
        earlier = f"{len(lines) - len(shown)} earlier lines" + (f" ({more})" if more else "")
        grid.add_row("…", Text(earlier, style="dim"))
    for line in shown:
        grid.add_row("•", styled(line, game, seat))  # a wrapped line stays indented under its bullet
    return Panel(grid, title=Text(title, style="bold"), title_align="left", box=box.SIMPLE_HEAD, padding=(0, 1))


def log_lines_fitted(
    lines: Sequence[str],
    title: str,
    rows: int,
    width: int,
    *,
    game: str = "",
    seat: int | None = None,
    more: str = "type 'log'",
) -> RenderableType | None:
    """The log in at most ``rows`` rows of ``width`` columns: a heading line (saying how many earlier lines
    are left out and, ``more``, how to see them), then the newest lines, one row each (cut with …)."""
    if not lines or rows < 2:
        return None
    room = rows - 1
    shown = list(lines[-room:])
    heading = Text(f"─ {title}", style="bold")
    if len(lines) > len(shown):
        heading.append(f" · {len(lines) - len(shown)} earlier" + (f": {more}" if more else ""), style="dim")
    out: list[RenderableType] = [heading]
    for line in shown:
        row = Text()
        row.append("• ", style="dim")
        row.append_text(styled(line, game, seat))
        row.truncate(width, overflow="ellipsis")
        row.no_wrap = True
        out.append(row)
    return Group(*out)


def scores_table(labels: Sequence[str], scores: Sequence[float], to_act: Sequence[int]) -> Table:
    """One column per seat: its label and running score; seats to act are highlighted."""
    table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False, title=None)
    for seat, label in enumerate(labels):
        style = "bold yellow" if seat in to_act else ""
        table.add_column(Text(label, style=style), justify="center")
    table.add_row(*[Text(_number(score), style="bold") for score in scores])
    return table


def scores_line(labels: Sequence[str], scores: Sequence[float], to_act: Sequence[int], viewer: int | None) -> Text:
    """The scores in one line: ``Scores: P1 (you) 4 · ▶ P2 (medium) 8`` (▶ marks whose turn it is)."""
    line = Text("Scores: ", style="dim")
    for seat, label in enumerate(labels):
        if seat:
            line.append(" · ", style="dim")
        style = "bold cyan" if seat == viewer else ""
        if seat in to_act:
            line.append("▶ ", style="bold yellow")
            style = (style + " bold yellow").strip() if seat != viewer else "bold cyan"
        line.append(label, style=style)
        line.append(f" {_number(scores[seat])}", style="bold")
    return line


# ---------------------------------------------------------------------- the move menu
@dataclass(frozen=True)
class MenuItem:
    """One numbered move: what to type and what it does (empty when the move says it all)."""

    number: int
    move: str
    note: str


def menu_items(
    game: Game[Any], legal: Sequence[Hashable], observation: Mapping[str, Any] | None = None
) -> list[MenuItem]:
    """The legal moves with the game's description (with its cost here, when the game can tell), minus the
    repeated move text."""
    items = []
    for number, action in enumerate(legal, start=1):
        move = str(action)
        if observation is not None and isinstance(game, DescribesMoves):
            note = game.describe_move(observation, action)
        else:
            note = game.describe_action(action)
        if note == move:
            note = ""
        elif note.startswith(f"{move} — "):
            note = note[len(move) + 3 :]
        items.append(MenuItem(number, move, note))
    return items


def _move_text(item: MenuItem, game: str, digits: int) -> Text:
    text = Text(f"{item.number:>{digits}} ", style="bold cyan")
    text.append_text(styled(item.move, game))
    text.stylize("bold", digits + 1)
    return text


def menu_table(items: Sequence[MenuItem], game: str = "") -> Table:
    """One move a line: number, move, description."""
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(justify="right", style="bold cyan", no_wrap=True)
    table.add_column(style="bold", no_wrap=True)
    table.add_column(style="dim")
    for item in items:
        table.add_row(str(item.number), styled(item.move, game), styled(item.note, game))
    return table


def menu_grid(items: Sequence[MenuItem], columns: int, width: int, *, notes: bool, game: str = "") -> Table | None:
    """The moves in ``columns`` columns filled top to bottom, each cell ``n move  note`` cut to the column
    width; None when a move itself would not fit its column."""
    gap = 2
    cell = (width - gap * (columns - 1)) // columns
    digits = len(str(len(items)))
    if any(digits + 1 + len(item.move) > cell for item in items):
        return None
    rows = math.ceil(len(items) / columns)
    grid = Table.grid(padding=(0, gap, 0, 0))
    for _ in range(columns):
        grid.add_column(width=cell, no_wrap=True, overflow="ellipsis")
    # Notes start at one place in each column, after its longest move.
    widest = [max((len(item.move) for item in items[c * rows : (c + 1) * rows]), default=0) for c in range(columns)]
    for row in range(rows):
        cells: list[RenderableType] = []
        for column in range(columns):
            index = column * rows + row
            if index >= len(items):
                cells.append("")
                continue
            item = items[index]
            text = _move_text(item, game, digits)
            if notes and item.note:
                text.append(" " * (widest[column] - len(item.move) + 2))
                text.append_text(styled(item.note, game))
                text.stylize("dim", digits + 1 + widest[column] + 2)
            cells.append(text)
        grid.add_row(*cells)
    return grid


def menu_variants(
    game: Game[Any], legal: Sequence[Hashable], width: int, observation: Mapping[str, Any] | None = None
) -> list[tuple[RenderableType, bool]]:
    """Menu layouts from roomiest to tightest, each with whether it shows the descriptions: one a line;
    2–3 columns with descriptions; 2–6 columns of moves alone."""
    items = menu_items(game, legal, observation)
    variants: list[tuple[RenderableType, bool]] = [(menu_table(items, game.name), True)]
    has_notes = any(item.note for item in items)
    for columns in (2, 3):
        grid = menu_grid(items, columns, width, notes=True, game=game.name)
        if grid is not None and len(items) >= columns:
            variants.append((grid, has_notes))
    for columns in range(2 if has_notes else 1, 7):
        grid = menu_grid(items, columns, width, notes=False, game=game.name)
        if grid is not None and len(items) >= columns:
            variants.append((grid, not has_notes))
    return variants


def moves_menu(
    game: Game[Any], legal: Sequence[Hashable], width: int = 80, observation: Mapping[str, Any] | None = None
) -> RenderableType:
    """The legal moves, numbered from 1, for a transcript: one a line with its description up to
    ``MENU_LINES`` moves, else the fewest columns (descriptions kept where they fit) of at most that many rows."""
    variants = menu_variants(game, legal, width, observation)
    if len(legal) <= MENU_LINES:
        return variants[0][0]
    for renderable, _notes in variants[1:]:
        if isinstance(renderable, Table) and renderable.row_count <= MENU_LINES:
            return renderable
    return variants[-1][0]


# ---------------------------------------------------------------------- fitting a screen
def height_of(console: Console, renderable: RenderableType, width: int) -> int:
    """Rows ``renderable`` takes at ``width`` columns."""
    return len(console.render_lines(renderable, console.options.update(width=width, height=None), pad=False))


@dataclass
class ScreenParts:
    """What a player's screen shows; :func:`fit_screen` lays it out."""

    title: str
    observation: Mapping[str, Any]
    log: Sequence[str]
    log_title: str
    labels: Sequence[str]
    heading: RenderableType | None
    legal: Sequence[Hashable] = ()
    notice: RenderableType | None = None
    #: rows kept free below the screen: the prompt line
    reserve: int = 1
    #: the notice in one line, shown instead when the notice leaves no room for the board and the menu
    short_notice: RenderableType | None = None


def fit_screen(
    console: Console, game: Game[Any], parts: ScreenParts, width: int, height: int | None
) -> list[RenderableType]:
    """The screen's renderables in order, fitted into ``width`` x ``height`` (no height: a transcript, all
    of it). The board and the menu are chosen together, roomiest first, leaving the log at least
    ``MIN_LOG_LINES`` lines (when there are that many); the log takes every row left."""
    obs = parts.observation
    seat = obs.get("seat")
    scores = obs.get("scores", [0] * len(parts.labels))
    to_act = obs.get("to_act", [])
    if height is None:
        out: list[RenderableType] = [board_panel(game, obs, parts.title)]
        log = log_panel(parts.log, parts.log_title, game=game.name, seat=seat, more="'log' shows them all")
        if log is not None:
            out.append(log)
        out.append(scores_table(parts.labels, scores, to_act))
        out += [r for r in (parts.notice, parts.heading) if r is not None]
        if parts.legal:
            out.append(moves_menu(game, parts.legal, width, obs))
        return out
    fixed = parts.reserve
    for extra in (parts.notice, parts.heading):
        if extra is not None:
            fixed += height_of(console, extra, width)
    if width >= WIDE:
        wide = _fit_wide(console, game, parts, width, height, fixed)
        if wide is not None:
            return wide
    boards = [(b, height_of(console, b, width)) for b in board_variants(game, obs, parts.title)]
    menus = (
        [(m, notes, height_of(console, m, width)) for m, notes in menu_variants(game, parts.legal, width, obs)]
        if parts.legal
        else [(Text(""), True, 0)]
    )
    want_log = min(len(parts.log), MIN_LOG_LINES) + 1 if parts.log else 0
    # Descriptions kept if any board fits with them; the roomiest board for the roomiest menu first.
    order = [(b, m) for keep in (True, False) for m in menus if m[1] == keep for b in boards]
    chosen = None
    for board, menu in order:
        if board[1] + menu[2] + fixed + want_log <= height:
            chosen = (board, menu)
            break
    if chosen is None and parts.notice is not None and parts.short_notice is not None:
        # A long notice (a hint's table) that leaves no room: its one-line form instead.
        shorter = replace(parts, notice=parts.short_notice, short_notice=None)
        return fit_screen(console, game, shorter, width, height)
    if chosen is None:  # nothing fits with the log: the smallest board and menu, and what log fits
        chosen = (min(boards, key=lambda b: b[1]), min(menus, key=lambda m: m[2]))
    (board_r, board_h), (menu_r, _notes, menu_h) = chosen
    left = height - fixed - board_h - menu_h
    out = [board_r]
    strip = scores_line(parts.labels, scores, to_act, seat)
    strip_rows = height_of(console, strip, width)
    show_scores = left - want_log >= strip_rows
    if show_scores:
        left -= strip_rows
    log_r = log_lines_fitted(parts.log, parts.log_title, left, width, game=game.name, seat=seat)
    if log_r is not None:
        out.append(log_r)
    if show_scores:
        out.append(strip)
    out += [r for r in (parts.notice, parts.heading) if r is not None]
    if parts.legal:
        out.append(menu_r)
    return out


def _fit_wide(
    console: Console, game: Game[Any], parts: ScreenParts, width: int, height: int, fixed: int
) -> list[RenderableType] | None:
    """A wide terminal: the board on the left at the width it needs, the log beside it as tall as the rows
    allow, the scores and the menu below. None when the board and the menu do not fit that way."""
    obs = parts.observation
    seat = obs.get("seat")
    longest = max(len(line) for line in game.render(obs).splitlines())
    board_width = min(longest + 4, max(84, width - 60))  # the log keeps 60 columns when it can
    log_width = width - board_width - 2
    strip = scores_line(parts.labels, obs.get("scores", []), obs.get("to_act", []), seat)
    strip_rows = height_of(console, strip, width)
    menus = (
        [(m, height_of(console, m, width)) for m, _ in menu_variants(game, parts.legal, width, obs)]
        if parts.legal
        else [(Text(""), 0)]
    )
    boards = [(b, height_of(console, b, board_width)) for b in board_variants(game, obs, parts.title)]
    for menu, menu_rows in menus:
        rows = height - fixed - strip_rows - menu_rows
        fitting = [b for b, board_rows in boards if board_rows <= rows]
        if not fitting:
            continue
        grid = Table.grid(padding=(0, 2))
        grid.add_column(width=board_width)
        grid.add_column(width=log_width)
        log = log_lines_fitted(parts.log, parts.log_title, rows, log_width, game=game.name, seat=seat)
        grid.add_row(fitting[0], log if log is not None else Text(""))
        out: list[RenderableType] = [grid, strip]
        out += [r for r in (parts.notice, parts.heading) if r is not None]
        if parts.legal:
            out.append(menu)
        return out
    return None


def result_table(
    labels: Sequence[str], scores: Sequence[float], winners: Sequence[int], *, score_name: str = "Score"
) -> Table:
    """The final standings, best score first; ``score_name`` says what the number counts."""
    table = Table(title="Final result", box=box.SIMPLE_HEAD, title_style="bold", title_justify="left", show_edge=False)
    table.add_column("Seat")
    table.add_column(score_name, justify="right")
    table.add_column("Result")
    order = sorted(range(len(labels)), key=lambda s: (-scores[s], s))
    for seat in order:
        mark = Text("winner", style="bold green") if seat in winners else Text("")
        table.add_row(labels[seat], _number(scores[seat]), mark)
    return table


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
