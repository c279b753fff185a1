"""Single-key input with a timeout, for the race decision in a real terminal.

Keys count only while a race is open. Anything typed before it opened is dropped when it opens; anything
typed after it closed — the slap that came too late, pressed again and again — is swallowed without echo
for a short settling time and then dropped, so it never lands in the next prompt.
"""

from __future__ import annotations

import contextlib
import os
import select
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any


@contextlib.contextmanager
def _single_keys(fd: int) -> Iterator[None]:
    """Cbreak mode (single keys, no echo, Ctrl-C still works) on ``fd``; always restored, and whatever is
    still queued when it ends is dropped."""
    import termios
    import tty

    saved: Any = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        with contextlib.suppress(OSError, termios.error):
            termios.tcflush(fd, termios.TCIFLUSH)
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def read_race_keys(
    fd: int,
    keys: Mapping[str, int],
    window: float,
    *,
    enter_passes: bool = False,
    on_open: Callable[[], None] | None = None,
) -> tuple[int | None, float]:
    """Wait up to ``window`` seconds for one of ``keys`` (key → seat) on terminal ``fd``: ``(seat, seconds)``.

    ``(None, elapsed)`` when nobody pressed a key in time, or when Enter was pressed and ``enter_passes``.
    Keys typed before the window opened are discarded (a slap before the race counts for nothing), and so
    is everything still queued when it closes. ``on_open`` runs once the window is open, to tell the
    players (a key pressed after that message is never lost).
    """
    import termios

    with _single_keys(fd):
        termios.tcflush(fd, termios.TCIFLUSH)
        if on_open is not None:
            on_open()
        start = time.monotonic()
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


def swallow_keys(fd: int, seconds: float) -> None:
    """Read and discard every key typed on terminal ``fd`` for ``seconds`` (without echo), then drop the rest."""
    with _single_keys(fd):
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                os.read(fd, 1024)
