"""Uniformly random playouts through the public state API, as a loop of the engine (compiled with it, issue 36).

A caller's loop of ``to_act`` / ``legal_actions`` / ``apply`` runs at the speed of the caller: written in an
interpreted script, its own bookkeeping is about 4,000 machine instructions a step, a third of a compiled
S'Quarrels step. Here the same loop is part of the engine, so in the compiled form it is compiled too and its calls
into the state are native. It makes exactly the choices of ``benchmarks/engine_speed.py``'s loop for the same
chooser (the seat and the action each picked as ``int(chooser.random() * n)``), so the two can be compared game for
game.
"""

from __future__ import annotations

import random

from .rng import Rng
from .state import State


def random_playout(state: State, chooser: random.Random | Rng, max_steps: int | None = None) -> int:
    """Play uniformly random legal moves in ``state`` (changed in place) until it ends, or for at most
    ``max_steps`` moves; return the moves made.

    At a decision several seats answer (a commit, a race), the seat to move is drawn among them first.
    """
    steps = 0
    limit = -1 if max_steps is None else max_steps
    while steps != limit and not state.is_terminal():
        seats = state.to_act()
        seat = seats[0] if len(seats) == 1 else seats[int(chooser.random() * len(seats))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[int(chooser.random() * len(legal))])
        steps += 1
    return steps
