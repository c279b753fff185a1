"""Agents by name: ``random`` and ``ismcts`` for every game, plus the bots a game ships (``Game.agents``)."""

from __future__ import annotations

import importlib
from typing import Any

from oakwood.engine import Game, InvalidOptionError
from oakwood.engine.errors import shown

from .ismcts import ISMCTSAgent
from .random_agent import RandomAgent

GENERIC = ("random", "ismcts")  # bots that play every game through the contract


def agent_names(game: Game[Any] | type[Game[Any]]) -> list[str]:
    """The names of every agent that can play ``game``."""
    return [*GENERIC, *[name for name in game.agents if name not in GENERIC]]


def make_agent(game: Game[Any], name: str, **kwargs: Any) -> Any:
    """A bot by name: ``random`` or ``ismcts`` for every game, or one of the game's own ``agents``."""
    if name == "random":
        return RandomAgent(**kwargs)
    if name == "ismcts":
        return ISMCTSAgent(**kwargs)
    if name not in game.agents:
        known = ", ".join(agent_names(game))
        raise InvalidOptionError(f"{game.title} has no agent {shown(name)}; choose from {known}")
    module, _, attr = game.agents[name].partition(":")
    return getattr(importlib.import_module(module), attr)(**kwargs)
