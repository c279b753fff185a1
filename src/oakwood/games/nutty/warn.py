"""Warnings before a solo move that ends the game short of 20 points or puts 20 out of reach (NS-17l).

``Game.move_warnings`` is called with a *world* (``state.determinize(seat, rng)``), never the live state, and
may warn only of what is the same in every world the seat could be in. Each legal move is played on a copy
of the world; a move that shows anything hidden (a card flipped on landing, an Arborist's reveal) or draws
anything random gets no warning, because its outcome depends on what the world made up. Every other move's
outcome is a function of the public position (in Nutty Squirrels everything but face-down cards and the
Leaf Deck is public, NS-18), so the warnings are the same in every world and equal to the truth's.
"""

from __future__ import annotations

from collections.abc import Hashable

from oakwood.engine import State

from . import reach
from .render import short_of
from .solo import SoloState
from .tree import WIN_POINTS

#: What a move may log besides the game's quiet events and still be warned of: the end itself reveals
#: nothing (the solo score is public).
_END = "game_over"


def move_warnings(world: State, seat: int) -> dict[Hashable, str]:
    """The sentence to read before each solo move that ends the game below 20 points (``end game``, a move
    after which nothing is left within reach, NS-17 g) or after which 20 points are out of reach (the bound
    of ``reach.most_points``); empty in the multiplayer game and for moves that reveal a card."""
    if not isinstance(world, SoloState) or world.is_terminal():
        return {}
    legal = world.legal_actions(seat)
    if not legal:
        return {}
    # "Puts 20 out of reach" is said only of a move after which it is out of reach when it was not before:
    # once every move leaves it out of reach, repeating that on each would only be noise. While an Owl waits
    # for its bribe (or a Fool's Gold for its choice) the position is about to change, so the bound is not
    # read there; the moves that settle it are checked like any other.
    open_before = world.phase != "play" or reach.most_points(world) is None
    quiet = world.game.quiet_events
    out: dict[Hashable, str] = {}
    for action in legal:
        after = world.clone()
        # Only this move's events are read: the copy's log starts empty (the chain is shared with ``world``
        # and never mutated, so ``world`` keeps its own).
        after._log = None
        after.record_events = True
        counter = after.rng.counter
        after.apply(seat, action)
        if after.rng.counter != counter:
            continue  # something random: its outcome is the world's invention
        if any(event.kind not in quiet and event.kind != _END for event in after.events):
            continue  # it showed something hidden (a flip): never warned from what the world put there
        if after.is_terminal():
            score = after.points(0)
            if score < WIN_POINTS:
                out[action] = f"This ends the game with {short_of(score)}."
        elif open_before and after.phase == "play":
            bound = reach.most_points(after)
            if bound is not None:  # below 20 by its contract
                out[action] = f"After this, {WIN_POINTS} points are out of reach: at most {short_of(bound)}."
    return out
