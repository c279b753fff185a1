"""The uniform random agent, for every game."""

from __future__ import annotations

from collections.abc import Hashable

from oakwood.engine import Decision, Rng
from oakwood.engine.agent import Choice, PlayerView


class RandomAgent:
    """Plays a uniformly random legal action; in a race it reacts after a random human-like delay."""

    name = "random"
    reads_observation = False  # the legal actions are all it needs: its views skip building an observation

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def act(self, view: PlayerView) -> Hashable | Choice:
        """A uniformly random legal action."""
        action = self.rng.choice(view.legal_actions)
        if view.decision is Decision.RACE:
            return Choice(action, delay=0.25 + 0.5 * self.rng.random())
        return action
