"""The registry of games: ``load(name, **options)`` and the list of what can be played."""

from __future__ import annotations

import difflib
import importlib
from typing import Any

from .errors import UnknownGameError, shown
from .game import Game

# name → "module:class"; imported only when loaded, so one game's import never slows another's.
_GAMES: dict[str, str] = {
    "squarrels": "oakwood.games.squarrels.game:SQuarrels",
    "barrell": "oakwood.games.barrell.game:Barrell",
    "nutty": "oakwood.games.nutty.game:Nutty",
}
_ALIASES = {"s'quarrels": "squarrels", "nutty-squirrels": "nutty", "nutty_squirrels": "nutty"}


def register(name: str, target: str) -> None:
    """Add a game: ``target`` is ``"module:GameClass"``."""
    _GAMES[name] = target


def game_names() -> list[str]:
    """The registered game names."""
    return list(_GAMES)


def game_class(name: str) -> type[Game[Any]]:
    """The Game class registered under ``name`` (aliases accepted)."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game is named by text, not {shown(name)} (games: {', '.join(_GAMES)})")
    key = _ALIASES.get(name.lower(), name.lower())
    if key not in _GAMES:
        close = difflib.get_close_matches(key, list(_GAMES), n=1) if len(key) <= 64 else []
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UnknownGameError(f"no game named {shown(name)}{hint} (games: {', '.join(_GAMES)})")
    module, _, attr = _GAMES[key].partition(":")
    cls: type[Game[Any]] = getattr(importlib.import_module(module), attr)
    return cls


def load(name: str, **options: Any) -> Game[Any]:
    """The game ``name`` with the given options (``InvalidOptionError`` names a bad one)."""
    return game_class(name)(**options)
