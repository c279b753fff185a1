"""The store as the commands use it: opened before anything runs (a bad ``--db`` is bad input), and the
progress bar every long run shows."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text

from oakwood.engine import State
from oakwood.store import LiveGame, Store, StoreError, open_store

from .errors import CliInputError


def open_database(url: str | None) -> Store:
    """The store at ``url`` (``--db``; else ``$OAKWOOD_DB``, else the user's file), upgraded to the latest
    schema; a database that cannot be opened is a :class:`CliInputError` (one line, exit code 2)."""
    try:
        return open_store(url)
    except StoreError as exc:
        raise CliInputError(f"--db: {exc}" if url is not None else str(exc)) from None


def progress_bar(console: Console) -> Progress:
    """A Rich progress bar with games done of total, time elapsed and the estimated time left."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


class PlayRecorder:
    """Saves a game of ``play`` after every move. If the database fails mid-game the game goes on, unsaved,
    after one line saying so: a game in progress matters more than its record."""

    def __init__(self, live: LiveGame, console: Console) -> None:
        self.live = live
        self.console = console
        self.failed = False

    def __call__(self, state: State) -> None:
        if self.failed:
            return
        try:
            self.live.sync(state)
        except StoreError as exc:
            self.failed = True
            self.console.print(Text(f"⚠ This game is no longer being stored: {exc}", style="yellow"))
