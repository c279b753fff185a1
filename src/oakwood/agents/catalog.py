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
    return _factory(game.agents[name])(**kwargs)


@functools.cache
def _factory(target: str) -> Any:
    """The bot class (or factory) a ``Game.agents`` entry names, ``"module:attribute"``, imported once.

    Cached because a guided search makes a fresh guide bot for every node it adds and every seat of every playout
    (about 3,300 bots in six 150-iteration S'Quarrels searches): ``importlib.import_module`` takes the import lock
    and walks ``sys.modules`` each time, a large share of a guide's cost in the compiled form (issue 36). An entry
    names a module-level class, which nothing rebinds while the program runs."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def _guide(game: Game[Any], seed: int) -> Any:
    """The game's guiding bot (``Game.search_guide``, one of its ``agents``) with ``seed``: what
    ``make_agent(game, game.search_guide, seed=seed)`` makes, without its checks on every call."""
    return _factory(game.agents[game.search_guide])(seed=seed)
