"""The ``oakwood replay`` command: load a stored game and hand it to the viewer."""

from __future__ import annotations

import contextlib
from typing import Annotated

import typer
from rich.console import Console

from oakwood.engine import load
from oakwood.store import StoreError

from . import values
from .errors import EXIT_FAILURE, CliInputError, friendly_errors, print_error
from .flags import DbOpt
from .messages import quote
from .replay import ReplayError, ReplayViewer
from .storing import open_database
from .terminal import Terminal


def replay(
    game_id: Annotated[str, typer.Argument(help="The stored game's id (printed by play).", show_default=False)],
    as_: Annotated[
        str | None,
        typer.Option(
            "--as", help="Whose view: a seat, 1 or P1 (default: all seats once the game is over).", metavar="SEAT"
        ),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Step through a stored game, forward and back, from one seat's view (all-seeing once it is over)."""
    out = Console(highlight=False)
    with friendly_errors():
        number = values.whole_number("GAME_ID", game_id, minimum=1)
        store = open_database(db)
        with contextlib.closing(store):
            try:
                stored = store.get_game(number)
            except StoreError as exc:
                raise CliInputError(str(exc)) from None
        game = load(stored.game, **stored.options)
        seat = None if as_ is None else _seat("--as", as_, stored.players, number)
    try:
        viewer = ReplayViewer(stored, game, seat, Terminal(out))
    except ReplayError as exc:
        print_error(str(exc))
        raise typer.Exit(EXIT_FAILURE) from None
    code = viewer.run()
    if code:
        raise typer.Exit(code)


def _seat(flag: str, text: str, players: int, game_id: int) -> int:
    """A seat as people number them (``2`` or ``P2``), as a seat index."""
    cleaned = text.strip().lower().removeprefix("p")
    if not (cleaned.isascii() and cleaned.isdigit() and len(cleaned) <= 3):
        raise CliInputError(f"{flag} {quote(text)}: name a seat as a number or P1, P2, …")
    number = int(cleaned)
    if not 1 <= number <= players:
        raise CliInputError(f"{flag} {quote(text)}: game {game_id} has seats P1 to P{players}")
    return number - 1
