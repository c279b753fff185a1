"""How the command line fails: one readable line on standard error and an exit code, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.text import Text

from oakwood.engine import OakwoodError

from .messages import one_line

#: Exit code for bad input (unknown game, option, seat, flag value…), as for a usage error.
EXIT_USAGE = 2
#: Exit code when something outside the person's input failed (a worker process killed, a disk full).
EXIT_FAILURE = 1
#: Exit code after Ctrl-C, as shells report a process ended by SIGINT.
EXIT_INTERRUPTED = 130


class CliInputError(OakwoodError):
    """Bad command-line input that is not an engine error (malformed ``--option``, seat lists, flags…)."""


def error_console() -> Console:
    """A console on standard error that never wraps (an error is one line, however long the terminal)."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


def print_error(message: str) -> None:
    """``error: …`` on standard error, as one line (long quoted values shortened, control characters escaped)."""
    error_console().print(Text("error: ", style="bold red") + Text(one_line(message)))


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Show bad-input errors as one readable line (no traceback) and exit with code 2."""
    try:
        yield
    except OakwoodError as exc:
        print_error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
