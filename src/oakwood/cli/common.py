"""Shared helpers of the commands: loading a game with command-line options, and the seat list."""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib import metadata
from typing import Any

from oakwood.agents import agent_names
from oakwood.engine import Game, OakwoodError, game_class, game_names

from .errors import CliInputError
from .files import read_value_file
from .messages import quote, shorten


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["key=value", …]`` → ``{key: value}``; a pair without ``=`` is an error naming it.

    ``key=@PATH`` takes the value from the file at PATH (see :func:`read_value_file`); ``key=@@text``
    is the literal value ``@text``.
    """
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliInputError(f"--option takes key=value, got {quote(pair)}")
        value = value.strip()
        if value.startswith("@@"):
            value = value[1:]
        elif value.startswith("@"):
            value = read_value_file(f"--option {shorten(pair.strip())}", value[1:])
        out[key.strip().replace("-", "_")] = value
    return out


#: No game name is longer; a longer "name" is refused without comparing it to every game for suggestions.
MAX_GAME_NAME = 64


def find_game_class(name: str) -> type[Game[Any]]:
    """The registered class of ``name``; a game that is registered but cannot be imported is an input error."""
    if len(name) > MAX_GAME_NAME:
        raise CliInputError(f"no game named {quote(name)} (games: {', '.join(game_names())})")
    try:
        return game_class(name)
    except OakwoodError:
        raise
    except Exception as exc:  # a registered game whose package is missing or broken: say so, no traceback
        reason = f"{type(exc).__name__}: {exc}"
        raise CliInputError(f"the game {quote(name)} is registered but cannot be loaded ({reason})") from None


def load_game(name: str, option_pairs: Sequence[str]) -> Game[Any]:
    """The game ``name`` with options from ``key=value`` texts (each converted to the option's type)."""
    cls = find_game_class(name)
    texts = parse_option_pairs(option_pairs)
    return cls(cls.options_class.from_strings(texts))  # the options refuse NaN and infinities themselves


def default_bot(game: Game[Any]) -> str:
    """The bot to fill seats with when none is named: the game's heuristic when it has one."""
    return "heuristic" if "heuristic" in game.agents else "random"


def parse_seats(
    game: Game[Any],
    seats: str | None,
    players: int | None,
    *,
    default_first: str,
    allow_human: bool,
    default_rest: str | None = None,
) -> list[str]:
    """The seat list: from ``--seats`` (comma separated) and/or ``--players``, checked against the game.

    Without ``--seats`` the first seat is ``default_first`` and the others ``default_rest`` (by default the
    game's own bot, :func:`default_bot`). A seat is ``human`` (when allowed), a level (``easy`` …
    ``expert``) or a bot's name."""
    known = (["human"] if allow_human else []) + agent_names(game)
    takes = f"{game.title} takes {game.min_players}–{game.max_players} players"
    if players is not None and not game.min_players <= players <= game.max_players:
        raise CliInputError(f"--players {players}: {takes}")
    if seats is not None:
        names = [s.strip().lower() for s in seats.split(",") if s.strip()]
        for name in names:
            if name not in known:
                raise CliInputError(f"unknown seat {quote(name)} in --seats; choose from {', '.join(known)}")
        if players is not None and players != len(names):
            raise CliInputError(f"--players {players} but --seats names {len(names)} seats")
        if not game.min_players <= len(names) <= game.max_players:
            raise CliInputError(f"--seats names {len(names)} seats: {takes}")
    else:
        count = players if players is not None else min(max(game.min_players, 4), game.max_players)
        names = [default_first] + [default_rest or default_bot(game)] * (count - 1)
    return names


def package_version() -> str | None:
    """The installed Oakwood's version (None when run from a source tree that was never installed)."""
    try:
        return metadata.version("oakwood")
    except metadata.PackageNotFoundError:
        return None


def bot_seed(deal_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a game of ``play`` dealt from ``deal_seed`` (a resumed game rebuilds
    its bots with the same seeds)."""
    return deal_seed + 7 * (seat + 1)


def on_off(flag: str, text: str) -> bool:
    """``on`` or ``off`` (also yes/no, true/false, 1/0) as a bool; :class:`CliInputError` naming ``flag``."""
    word = text.strip().lower()
    if word in ("on", "yes", "true", "1"):
        return True
    if word in ("off", "no", "false", "0"):
        return False
    raise CliInputError(f"{flag} {quote(text)}: say on or off")


def new_seed() -> int:
    """A fresh random seed (printed, so the game can be replayed)."""
    return int.from_bytes(os.urandom(4), "big")


def parse_agents(game: Game[Any], text: str) -> list[str]:
    """The ``--agents`` list of an arena: bots of ``game``, each named once."""
    known = agent_names(game)
    names = [s.strip().lower() for s in text.split(",") if s.strip()]
    if not names:
        raise CliInputError(f"--agents {quote(text)} names no agent; choose from {', '.join(known)}")
    for name in names:
        if name not in known:
            raise CliInputError(f"unknown agent {quote(name)} in --agents; choose from {', '.join(known)}")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise CliInputError(
            f"--agents names {', '.join(repeated)} more than once; each agent is listed once (seats are filled "
            "by cycling the list)"
        )
    return names


def arena_players(game: Game[Any], players: int | None, agents: Sequence[str]) -> int:
    """The table size of an arena: ``--players``, else one seat per agent (when the game takes that many)."""
    takes = f"{game.title} takes {game.min_players}–{game.max_players} players"
    if players is not None:
        if not game.min_players <= players <= game.max_players:
            raise CliInputError(f"--players {players}: {takes}")
        count = players
    elif game.min_players <= len(agents) <= game.max_players:
        count = len(agents)
    else:
        raise CliInputError(f"--agents names {len(agents)} agents but {takes}: say how many with --players")
    if count > 1 and len(agents) < 2:
        raise CliInputError("an arena compares agents: name at least two in --agents (simulate plays one alone)")
    return count
