"""Agents by name: the difficulty levels and ``random``, ``ismcts`` and ``pimc`` for every game, plus the bots a game
ships (``Game.agents``)."""

from __future__ import annotations

import functools
import importlib
from typing import Any

from oakwood.engine import Game, InvalidOptionError
from oakwood.engine.errors import shown

from .ismcts import ISMCTSAgent
from .levels import LEVELS, level_bot, level_settings
from .pimc import PLAYOUT_TO_THE_END, PIMCAgent
from .random_agent import RandomAgent

#: Bots that play every game through the contract (``pimc``: the benchmark baseline of issue 37, not a level).
GENERIC = ("random", "ismcts", "pimc")


def agent_names(game: Game[Any] | type[Game[Any]]) -> list[str]:
    """The names of every agent that can play ``game``: the levels first, then the bots themselves."""
    return [*LEVELS, *GENERIC, *[name for name in game.agents if name not in GENERIC]]


def make_agent(game: Game[Any], name: str, **kwargs: Any) -> Any:
    """A bot by name: a level (``easy`` … ``expert``), ``random``, ``ismcts`` or ``pimc`` for every game, or one of the
    game's own ``agents``. A level's settings give way to those passed in ``kwargs``."""
    if name in LEVELS:
        return make_agent(game, level_bot(game, name), **{**level_settings(game, name), **kwargs})
    if name == "random":
        return RandomAgent(**kwargs)
    if name == "ismcts":
        settings: dict[str, Any] = {"playout_steps": game.playout_steps}
        if game.search_guide in game.agents:  # the search builds on the game's best bot (see ismcts.py)
            settings["guide"] = functools.partial(_guide, game)
        return ISMCTSAgent(**{**settings, **kwargs})
    if name == "pimc":  # random playouts to the end only: no guide and no evaluation, whatever the game ships
        return PIMCAgent(**{"playout_steps": PLAYOUT_TO_THE_END, **kwargs})
    if name not in game.agents:
        known = ", ".join(agent_names(game))
        raise InvalidOptionError(f"{game.title} has no agent {shown(name)}; choose from {known}")
    module, _, attr = game.agents[name].partition(":")
    return getattr(importlib.import_module(module), attr)(**kwargs)


def _guide(game: Game[Any], seed: int) -> Any:
    """The game's guiding bot (``Game.search_guide``) with ``seed``."""
    return make_agent(game, game.search_guide, seed=seed)
