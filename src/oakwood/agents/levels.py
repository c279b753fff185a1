"""Difficulty levels for people: ``easy``, ``medium``, ``hard`` and ``expert``, mapped onto the bots.

- ``easy`` is the random bot: it plays any legal move.
- ``medium`` is the game's heuristic bot (random for a game without one): a sensible player.
- ``hard`` and ``expert`` are ISMCTS with the game's two iteration budgets (``Game.level_iterations``): search
  that never sees a hidden card, only worlds drawn from what its seat knows, guided by the bot that made the
  strongest search (``Game.search_guide``: the strategist in S'Quarrels and Nutty Squirrels, the heuristic in
  Barrell, whose strategist is stronger alone but made the search no stronger; ``ismcts.py`` keeps the guide's
  move unless its search is sure of a better one). A game whose search was
  measured weaker than its heuristic sets no budgets, and both levels play the heuristic rather than a
  search known to lose to it; ``oakwood games`` shows what was measured.

Budgets are iterations, not seconds, so a level plays the same moves on a fast and a slow machine and a seeded
arena gives the same table everywhere; a larger budget is taken only where a sequential test on duplicate deals
measured it stronger (``benchmarks/expert_sprt.py``). Each level's measured strength is in ``strength.json``
beside this module, written by ``benchmarks/strength.py``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from oakwood.engine import Game

LEVELS = ("easy", "medium", "hard", "expert")


def level_bot(game: Game[Any] | type[Game[Any]], level: str) -> str:
    """The bot a level stands for in ``game``: ``random``, ``heuristic`` or ``ismcts``."""
    if level == "easy":
        return "random"
    if level == "medium" or game.level_iterations is None:
        return "heuristic" if "heuristic" in game.agents else "random"
    return "ismcts"


def level_settings(game: Game[Any] | type[Game[Any]], level: str) -> dict[str, int]:
    """The ISMCTS settings of ``hard`` or ``expert`` in ``game`` (empty for the other levels)."""
    budgets = game.level_iterations
    if level not in ("hard", "expert") or budgets is None:
        return {}
    hard, expert = budgets
    return {"iterations": hard if level == "hard" else expert, "playout_steps": game.playout_steps}


@cache
def measured_strength() -> dict[str, Any]:
    """The strengths ``benchmarks/strength.py`` measured, by case (``barrell-2``: a game at a table size)."""
    path = resources.files(__package__).joinpath("strength.json")
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data
