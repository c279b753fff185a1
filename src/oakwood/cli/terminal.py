"""Terminal input/output for play: line input (scripted or typed), screen clearing, race keys, pauses."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Mapping
from typing import TextIO

from rich.console import Console
from rich.control import Control
from rich.segment import ControlType, Segment
from rich.text import Text

from .keys import read_race_keys, swallow_keys
from .messages import shorten

#: After a race closes, keys are swallowed for this long before the next prompt may appear, so a slap
#: pressed a moment too late (or pressed again) is not typed into it.
RACE_SETTLE_SECONDS = 1.0
#: ``ESC [3J``: erase the terminal's scrollback, where a previous player's hand would otherwise stay.
ERASE_SCROLLBACK = "\x1b[3J"


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

    def __init__(
        self,
        console: Console,
        stdin: TextIO | None = None,
        interactive: bool | None = None,
        *,
        race_settle: float = RACE_SETTLE_SECONDS,
    ) -> None:
        self.console = console
        self.stdin = stdin if stdin is not None else sys.stdin
        if interactive is None:
            try:
                interactive = self.stdin.isatty()
            except (AttributeError, ValueError):
                interactive = False
        self.interactive = interactive
        self.race_settle = race_settle
        self._race_closed_at: float | None = None  # late slap keys must not end up typed into the next prompt

    def read_line(self, prompt: str) -> str:
        """One line of input after ``prompt``; raises :class:`QuitGame` when the input has ended."""
        if self.interactive:
            self._settle_after_race()
            # Standard input itself goes through ``input`` (line editing); another stream is read directly.
            stream = None if self.stdin is sys.stdin else self.stdin
            try:
                line = self.console.input(Text(prompt, style="bold cyan"), stream=stream)
            except EOFError:
                raise QuitGame("input ended", 1) from None
            if stream is not None and line == "":
                raise QuitGame("input ended", 1)
            return line.rstrip("\r\n")
        self.console.print(Text(prompt, style="bold cyan"), end="")
        line = self.stdin.readline()
        if line == "":
            self.console.print()
            raise QuitGame("input ended", 1)
        line = line.rstrip("\r\n")
        self.console.print(Text(shorten(line), style="dim"))  # the transcript; a pasted novel is not repeated
        return line

    def clear(self, *, scrollback: bool = False) -> None:
        """Clear the screen (only in a real terminal: scripted sessions keep a readable transcript).

        ``scrollback`` also erases what scrolled off the top, for hot-seat: the previous player's hand must
        not be one scroll away from the next player.
        """
        if not self.interactive:
            return
        controls = [Control.home(), Control.clear()]
        if scrollback:
            erase = Control()
            erase.segment = Segment(ERASE_SCROLLBACK, None, [(ControlType.CLEAR,)])
            controls.append(erase)
        self.console.control(*controls)

    def pause(self, seconds: float) -> None:
        """Wait a moment so people can follow what the bots do."""
        if seconds > 0:
            time.sleep(seconds)

    def race(
        self,
        keys: Mapping[str, int],
        window: float,
        *,
        enter_passes: bool,
        on_open: Callable[[], None] | None = None,
    ) -> tuple[int | None, float]:
        """Who pressed their key first within ``window`` seconds: ``(seat, seconds)``, or ``(None, …)``.

        ``on_open`` announces the race once keys count. In line mode the line is the key: a human's key
        slaps at once, an empty line (or ``pass``) passes.
        """
        if self.interactive:
            try:
                return read_race_keys(self.stdin.fileno(), keys, window, enter_passes=enter_passes, on_open=on_open)
            finally:
                self._race_closed_at = time.monotonic()
        if on_open is not None:
            on_open()
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

    def _settle_after_race(self) -> None:
        """Before the first prompt after a race: swallow keys until the settling time has passed, then drop
        whatever is queued (only on a real terminal)."""
        if self._race_closed_at is None:
            return
        left = self.race_settle - (time.monotonic() - self._race_closed_at)
        self._race_closed_at = None
        import termios

        with contextlib.suppress(OSError, ValueError, termios.error):
            swallow_keys(self.stdin.fileno(), left)
