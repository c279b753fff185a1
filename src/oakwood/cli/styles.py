"""Colour for the plain text the games render: a styling pass in the CLI layer.

Why a pass over the text rather than a ``render_rich`` hook in each game: the games stay free of Rich (a
lower layer never imports a higher one), their plain ``render`` stays the single picture of an observation
(logs, replays, tests and the server all read it), and colour can never carry information the text does not
already have: every rule below only styles characters that are already on screen (a red heart keeps its
``♥``, a face-down card keeps its brackets), so nothing is lost without colour.

The console decides whether any of it reaches the terminal: :func:`make_console` writes no escape codes
when the output is not a terminal or ``NO_COLOR`` is set (https://no-color.org), and colours when
``FORCE_COLOR`` is set.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import IO

from rich.console import Console
from rich.text import Text

#: (pattern, style) pairs every game's text gets, applied in order (a later style wins where they overlap).
COMMON: tuple[tuple[str, str], ...] = (
    (r"\[\?\?\]|\?\?", "dim"),  # a card you cannot see
    (r"(?<![\w/])\+\d+(?:\.\d+)?\b", "bold green"),  # a gain: +4
    (r"(?<![\w/>-])[−-]\d+(?:\.\d+)?\b", "bold red"),  # a loss: -2 (not a range like 1-3 or an arrow)
    (r"\bwins?\b|\bwinners?\b|\bWinners?\b", "bold green"),
    (r"▶|\(to act\)|\bto act\b", "bold yellow"),
)

#: Per game: (pattern, style) pairs applied after the common ones.
GAMES: Mapping[str, tuple[tuple[str, str], ...]] = {
    "barrell": (
        (r"\[[^\]\n]*\]", "dim"),  # face-down cards in brackets
        (r"(?:10|[2-9AJQK])[♥♦]|Red Joker", "bold red"),
        (r"(?:10|[2-9AJQK])[♠♣]|Black Joker", "bold"),
        (r"\b(?:10|[2-9AJQK])[HD]\b", "red"),  # the typed form of a red card in the menu: play 9H
        (r"\d+ battles? won", "bold"),
        (r"Battle scores?:|Last battle:", "bold"),
    ),
    "squarrels": (
        (r"\d+ face down|face down", "dim"),
        (r"\[[1-5]{3}\]|\[[1-5]{2}G\]", "bold"),  # stored sets
        (r"(?i:\bgolden\b)", "bold yellow"),
        (r"(?i:\brotten\b)", "green"),
        (r"(?i:\bwinter\b|WINTER!)", "bold cyan"),
        (r"(?i:(?<!')\bquarrel\b!?|\bhoard\b!?|\bambush\b|\bwhirlwind\b!?)", "magenta"),
        (r"total\s+\d+", "bold"),
    ),
    "nutty": (
        (r"\[\?\?[^\]\n]*\]", "dim"),  # a face-down tree card (acorns on it stay readable)
        (r"\d+g\b|\bgolden\b", "bold yellow"),
        (r"\*[A-Z][\w' ]*", "magenta"),  # a power
        (r"\b\d+ points?\b", "bold"),
        (r"^>P\d", "bold yellow"),  # the player to act
    ),
}


def own_seat_rules(seat: int | None) -> tuple[tuple[str, str], ...]:
    """Rules that highlight the viewer's own seat: ``(you)``, ``— you``, and the seat's name at a line start."""
    if seat is None:
        return ()
    name = f"P{seat + 1}"
    return (
        (r"\(you\)|— you\b|\bYour hand\b|\bYou\b", "bold cyan"),
        (rf"(?m)^[ >▶]?{name}\b", "bold cyan"),
        (rf"@{seat + 1}\b", "bold cyan"),  # Nutty: your squirrel on the tree
    )


def styled(text: str, game: str, seat: int | None = None) -> Text:
    """``text`` as a Rich Text with the common, the game's and the viewer's styles applied."""
    out = Text(text)
    for pattern, style in (*COMMON, *GAMES.get(game, ()), *own_seat_rules(seat)):
        out.highlight_regex(re.compile(pattern, re.MULTILINE), style)
    return out


def styled_lines(lines: Sequence[str], game: str, seat: int | None = None) -> list[Text]:
    """Each line styled as :func:`styled` does."""
    return [styled(line, game, seat) for line in lines]


def wants_no_colour(environ: Mapping[str, str] | None = None) -> bool:
    """``NO_COLOR`` set to anything but the empty string (https://no-color.org) turns styling off."""
    env = os.environ if environ is None else environ
    return bool(env.get("NO_COLOR"))


def make_console(file: IO[str] | None = None, environ: Mapping[str, str] | None = None) -> Console:
    """The console play writes to.

    Rich already writes no escape codes when the output is not a terminal, and ``FORCE_COLOR`` makes it
    colour anyway. With ``NO_COLOR`` it would still send bold and dim: here no style reaches the output at
    all (``color_system=None``), so the text is plain; screen clearing still works on a terminal.
    """
    if wants_no_colour(environ):
        return Console(file=file, highlight=False, color_system=None)
    return Console(file=file, highlight=False)
