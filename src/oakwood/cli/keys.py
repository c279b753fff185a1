"""Single-key input with a timeout, for the race decision in a real terminal."""

from __future__ import annotations

import os
import select
import sys
import time
from collections.abc import Mapping
from typing import Any


def read_race_keys(keys: Mapping[str, int], window: float, *, enter_passes: bool = False) -> tuple[int | None, float]:
    """Wait up to ``window`` seconds for one of ``keys`` (key → seat); returns ``(seat, seconds)``.

    ``(None, elapsed)`` when nobody pressed a key in time, or when Enter was pressed and ``enter_passes``.
    Keys typed before the window opened are discarded (a slap before the race counts for nothing). The
    terminal is put in cbreak mode (single keys, no echo, Ctrl-C still works) and always restored.
    """
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved: Any = termios.tcgetattr(fd)
    start = time.monotonic()
    try:
        tty.setcbreak(fd)
        termios.tcflush(fd, termios.TCIFLUSH)
        while True:
            left = window - (time.monotonic() - start)
            if left <= 0:
                return None, window
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None, window
            char = os.read(fd, 1).decode("utf-8", errors="ignore").lower()
            elapsed = time.monotonic() - start
            if char in keys:
                return keys[char], elapsed
            if enter_passes and char in ("\r", "\n"):
                return None, elapsed
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
