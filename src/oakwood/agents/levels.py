"""Difficulty levels for people: ``easy``, ``medium``, ``hard`` and ``expert``, mapped onto the bots.

- ``easy`` is the random bot: it plays any legal move.
- ``medium`` is the game's heuristic bot (random for a game without one): a sensible player.
- ``hard`` and ``expert`` are ISMCTS with the game's two iteration budgets (``Game.level_iterations``): search
  that never sees a hidden card, only worlds drawn from what its seat knows, guided by the game's strongest
  bot (``Game.search_guide``: the strategist in S'Quarrels and Nutty Squirrels, the heuristic in Barrell;
  ``ismcts.py`` keeps the guide's move unless its search is sure of a better one). A game whose search was
  measured weaker than its heuristic sets no budgets, and both levels play the heuristic rather than a
  search known to lose to it; ``oakwood games`` shows what was measured.

Budgets are iterations, not seconds, so a level plays the same moves on a fast and a slow machine and a seeded
arena gives the same table everywhere. ``level_budgets`` gives them: the game's own, unless ``EXPERT_ITERATIONS``
names a larger ``expert`` budget that a sequential test on duplicate deals measured stronger (issue 37,
``benchmarks/expert_sprt.py``). Each level's measured strength is in ``strength.json`` beside this
module, written by ``benchmarks/strength.py``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from oakwood.engine import Game

LEVELS = ("easy", "medium", "hard", "expert")

#: ``expert``'s iterations by game where they differ from ``Game.level_iterations`` (issue 37). Barrell: 900 against
#: 300 won the SPRT of ``benchmarks/expert_sprt.py`` (H0 0.50 / H1 0.58 on duplicate deals, two players: H1 accepted
#: after 44 deals, share 0.625; ``benchmarks/README.md``, "Expert changes"). Its guide is ``medium`` itself, so what
#: the expert gains there is its search, and more search gains more. 900 iterations take three times 300's time:
#: about 0.7 s a move compiled (ISMCTS about 2x faster there), the form ``make run`` serves, for the issue's 1 s a
#: move; the web server caps every search at ``RoomSettings.bot_seconds`` (2 s) in either form.
EXPERT_ITERATIONS: dict[str, int] = {"barrell": 900}


def level_bot(game: Game[Any] | type[Game[Any]], level: str) -> str:
    """The bot a level stands for in ``game``: ``random``, ``heuristic`` or ``ismcts``."""
    if level == "easy":
        return "random"
    if level == "medium" or game.level_iterations is None:
        return "heuristic" if "heuristic" in game.agents else "random"
    return "ismcts"


def level_budgets(game: Game[Any] | type[Game[Any]]) -> tuple[int, int] | None:
    """The iterations of ``hard`` and ``expert`` in ``game`` (None where both levels play the heuristic): the
    game's ``level_iterations``, with ``expert``'s from ``EXPERT_ITERATIONS`` where it names one."""
    if game.level_iterations is None:
        return None
    hard, expert = game.level_iterations
    return hard, EXPERT_ITERATIONS.get(game.name, expert)


def level_settings(game: Game[Any] | type[Game[Any]], level: str) -> dict[str, int]:
    """The ISMCTS settings of ``hard`` or ``expert`` in ``game`` (empty for the other levels)."""
    budgets = level_budgets(game)
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
