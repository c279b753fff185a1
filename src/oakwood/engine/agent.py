"""The agent contract: what a bot receives (a :class:`PlayerView`) and what it returns.

A view is a snapshot taken at the trust boundary. It holds the seat's legal actions, its observation (a
fresh structure from ``state.observe(seat)``) and, for an agent that searches, one world made up front by
``state.determinize(seat, …)``; it holds no reference to the live state, directly or through a closure, so
nothing an agent does with its view can read or change the match it is playing.

Agents say what they need with two class attributes, so a view costs only what its agent uses:
``reads_observation`` (default true; the random agent reads only the legal actions) and ``searches``
(default false; a search agent gets the world from which ``sample_states`` draws).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

# PlayerView lives in view.py, which is compiled (this module cannot be: see form.py's INTERPRETED), and is
# re-exported here, where the contract has always been.
from .view import PlayerView

__all__ = ["Agent", "Choice", "PlayerView", "as_choice"]


@dataclass(frozen=True)
class Choice:
    """An action with the agent's reaction delay in seconds (used in race decisions)."""

    action: Hashable
    delay: float = 0.0


@runtime_checkable
class Agent(Protocol):
    """A player. ``act`` returns an action, or a :class:`Choice` to state a reaction delay in a race.

    Optional class attributes: ``reads_observation`` (default true) and ``searches`` (default false).
    """

    name: str

    def act(self, view: PlayerView) -> Hashable | Choice: ...


def as_choice(result: Hashable | Choice, default_delay: float) -> Choice:
    """Normalise an agent's answer to a :class:`Choice`."""
    return result if isinstance(result, Choice) else Choice(result, default_delay)
