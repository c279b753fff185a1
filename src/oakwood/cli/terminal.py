"""Terminal input/output for play: line input (scripted or typed), screen clearing, race keys, pauses."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Mapping
from typing import TextIO

from rich.console import Console
from rich.text import Text

from .keys import read_race_keys


class QuitGame(Exception):
    """The player asked to leave (``quit``) or the input ended."""

    def __init__(self, reason: str, code: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class Terminal:
    """Where play reads input and writes screens.

    Interactive (stdin is a real terminal): lines via ``input`` with editing, the screen is cleared between
    views, and races read single keys in cbreak mode against a clock. Otherwise (pipes, tests): lines are
    read one by one and echoed, nothing is cleared, and a race reads one line (a human's key slaps, an
    empty line passes).
    """

    def __init__(self, console: Console, stdin: TextIO | None = None, interactive: bool | None = None) -> None:
        self.console = console
        self.stdin = stdin if stdin is not None else sys.stdin
        if interactive is None:
            try:
                interactive = self.stdin.isatty()
            except (AttributeError, ValueError):
                interactive = False
        self.interactive = interactive
        self._after_race = False  # late slap keys must not end up typed into the next prompt

    def read_line(self, prompt: str) -> str:
        """One line of input after ``prompt``; raises :class:`QuitGame` when the input has ended."""
        if self.interactive:
            if self._after_race:
                self._after_race = False
                _discard_typeahead(self.stdin)
            try:
                return self.console.input(Text(prompt, style="bold cyan"))
            except EOFError:
                raise QuitGame("input ended", 1) from None
        self.console.print(Text(prompt, style="bold cyan"), end="")
        line = self.stdin.readline()
        if line == "":
            self.console.print()
            raise QuitGame("input ended", 1)
        self.console.print(Text(line.rstrip("\r\n"), style="dim"))
        return line.rstrip("\r\n")

    def clear(self) -> None:
        """Clear the screen (only in a real terminal: scripted sessions keep a readable transcript)."""
        if self.interactive:
            self.console.clear()

    def pause(self, seconds: float) -> None:
        """Wait a moment so people can follow what the bots do."""
        if seconds > 0:
            time.sleep(seconds)

    def race(self, keys: Mapping[str, int], window: float, *, enter_passes: bool) -> tuple[int | None, float]:
        """Who pressed their key first within ``window`` seconds: ``(seat, seconds)``, or ``(None, …)``.

        In line mode the line is the key: a human's key slaps at once, an empty line (or ``pass``) passes.
        """
        if self.interactive:
            self._after_race = True
            return read_race_keys(keys, window, enter_passes=enter_passes)
        while True:
            text = self.read_line("slap key › ").strip().lower()
            if text in keys:
                return keys[text], 0.0
            if text in ("", "pass"):
                return None, 0.0
            if text in ("quit", "exit"):
                raise QuitGame("quit", 0)
            listed = ", ".join(f"{k!r} for P{s + 1}" for k, s in keys.items())
            self.console.print(Text(f"Press a slap key ({listed}) or Enter to pass.", style="yellow"))


def _discard_typeahead(stream: TextIO) -> None:
    """Drop keys typed ahead into a terminal (only called on a real terminal)."""
    import termios

    with contextlib.suppress(OSError, ValueError, termios.error):
        termios.tcflush(stream.fileno(), termios.TCIFLUSH)
