"""The race in a real terminal (a pseudo-terminal): slap keys pressed after the race closed never reach the
next prompt. ``oakwood play`` runs in a child process attached to the pty; the test types keys as a person
would, synchronised on what the screen shows."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
LAUNCH = "from tests.cli.toygame import register_toy; register_toy(); from oakwood.cli.main import main; main()"
TIMEOUT = 30.0  # generous: only a broken build waits this long


class Screen:
    """The child's terminal output, read from the pty's controlling side."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.text = ""

    def read_until(self, pattern: str, start: int) -> int:
        """Read until ``pattern`` appears after offset ``start``; returns where it ends."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            plain = ANSI.sub("", self.text)
            found = re.compile(pattern).search(plain, start)
            if found:
                return found.end()
            left = deadline - time.monotonic()
            assert left > 0, f"no {pattern!r} on screen; it shows:\n{plain[-2000:]}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the child closed the terminal
                    chunk = b""
                assert chunk, f"the game ended before {pattern!r}; it showed:\n{plain[-2000:]}"
                self.text += chunk.decode("utf-8", errors="replace")

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())


def test_late_slap_keys_are_swallowed_and_the_winner_is_announced() -> None:
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}", "TERM": "xterm"}
    env.pop("COLUMNS", None)
    child = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "play", "toysnap", "--seats", "human,heuristic", "--seed", "4", "--delay", "0"],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    os.close(terminal)
    screen = Screen(controller)
    try:
        at = screen.read_until(r"P1 › ", 0)
        screen.type("stay\n")  # P1 leads the first round and stays
        at = screen.read_until(r"P1 › ", at)
        screen.type("1\n")  # P1's secret card; the reveal opens the race
        at = screen.read_until(r"RACE!", at)
        screen.type("a")  # P1's slap (it may come after the bot's: then it is a late key too)
        screen.type("aaaa")  # pressed again and again after the race closed
        at = screen.read_until(r"slapped first", at)
        at = screen.read_until(r"P1 › ", at)  # the next prompt: nothing typed may be waiting in it
        screen.type("quit\n")
        screen.read_until(r"Game abandoned \(quit\)", at)
        assert child.wait(TIMEOUT) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(controller)
    plain = ANSI.sub("", screen.text)
    assert "no action is written" not in plain, "a slap key reached the next prompt"
    assert not re.search(r"P1 › a", plain)
    assert "Traceback" not in plain
