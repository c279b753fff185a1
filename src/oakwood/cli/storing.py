"""The store as the commands use it: opened before anything runs (a bad ``--db`` is bad input), and the
progress bar every long run shows."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from oakwood.store import Store, StoreError, open_store

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
