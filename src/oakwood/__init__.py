"""Oakwood: play, simulate and study S'Quarrels, Barrell and Nutty Squirrels of the Oakwood Forest.

>>> import oakwood
>>> game = oakwood.load("squarrels", target_score=30)
>>> state = game.new_state(players=4, seed=7)
"""

from __future__ import annotations

from . import form

form.check()  # before any compiled module loads: a build older than its sources is refused (oakwood/form.py)

from .engine import Decision, Game, Replay, State, game_names, load  # noqa: E402

__all__ = ["Decision", "Game", "Replay", "State", "game_names", "load"]
__version__ = "0.1.0"
