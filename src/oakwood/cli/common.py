"""Shared helpers of the commands: loading a game with command-line options, seats, friendly errors."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from oakwood.engine import Game, OakwoodError, game_class

#: Exit code for bad input (unknown game, option, seat…), as for a usage error.
EXIT_USAGE = 2


class CliInputError(OakwoodError):
    """Bad command-line input that is not an engine error (malformed ``--option``, seat lists…)."""


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["key=value", …]`` → ``{key: value}``; a pair without ``=`` is an error naming it."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliInputError(f"--option takes key=value, got {pair!r}")
        out[key.strip().replace("-", "_")] = value.strip()
    return out


def find_game_class(name: str) -> type[Game[Any]]:
    """The registered class of ``name``; a game that is registered but cannot be imported is an input error."""
    try:
        return game_class(name)
    except OakwoodError:
        raise
    except Exception as exc:  # a registered game whose package is missing or broken: say so, no traceback
        reason = f"{type(exc).__name__}: {exc}"
        raise CliInputError(f"the game {name!r} is registered but cannot be loaded ({reason})") from None


def load_game(name: str, option_pairs: Sequence[str]) -> Game[Any]:
    """The game ``name`` with options from ``key=value`` texts (each converted to the option's type)."""
    cls = find_game_class(name)
    options = cls.options_class.from_strings(parse_option_pairs(option_pairs))
    return cls(options)


def agent_names(game: Game[Any]) -> list[str]:
    """The bots available for ``game``: ``random`` and the game's own."""
    return ["random", *[name for name in game.agents if name != "random"]]


def default_bot(game: Game[Any]) -> str:
    """The bot to fill seats with when none is named: the game's heuristic when it has one."""
    return "heuristic" if "heuristic" in game.agents else "random"


def parse_seats(
    game: Game[Any], seats: str | None, players: int | None, *, default_first: str, allow_human: bool
) -> list[str]:
    """The seat list: from ``--seats`` (comma separated) and/or ``--players``, checked against the game."""
    known = ([*["human"]] if allow_human else []) + agent_names(game)
    if seats:
        names = [s.strip().lower() for s in seats.split(",") if s.strip()]
        for name in names:
            if name not in known:
                raise CliInputError(f"unknown seat {name!r}; choose from {', '.join(known)}")
        if players is not None and players != len(names):
            raise CliInputError(f"--players {players} but --seats names {len(names)} seats")
    else:
        count = players if players is not None else min(max(game.min_players, 4), game.max_players)
        names = [default_first] + [default_bot(game)] * (count - 1)
    if not game.min_players <= len(names) <= game.max_players:
        raise CliInputError(f"{game.title} takes {game.min_players}–{game.max_players} players; got {len(names)}")
    return names


def new_seed() -> int:
    """A fresh random seed (printed, so the game can be replayed)."""
    return int.from_bytes(os.urandom(4), "big")


def error_console() -> Console:
    """A console on standard error."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Show bad-input errors as one readable line (no traceback) and exit with code 2."""
    try:
        yield
    except OakwoodError as exc:
        error_console().print(Text("error: ", style="bold red") + Text(str(exc)))
        raise typer.Exit(EXIT_USAGE) from None
