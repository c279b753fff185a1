"""Command-line flags shared by several commands (declared once, so every command spells them alike)."""

from __future__ import annotations

from typing import Annotated

import typer

GameArg = Annotated[str, typer.Argument(help="Game name (see `oakwood games`).", show_default=False)]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", help="A game option as key=value, or key=@FILE to read the value from a file (repeatable)."
    ),
]
PlayersOpt = Annotated[str | None, typer.Option("--players", "-n", help="Number of seats.", metavar="N")]
WorkersOpt = Annotated[
    str | None,
    typer.Option("--workers", "-w", help="Processes (default: every core; at most 4 per core).", metavar="N"),
]
DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Where games are stored: a SQLAlchemy URL or a SQLite file (default: $OAKWOOD_DB, else a SQLite "
        "file in your data directory).",
        metavar="URL",
    ),
]
