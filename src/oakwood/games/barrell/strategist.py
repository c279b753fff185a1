"""A Barrell bot that plays like a strong player: the heuristic's rules with figures tuned, and two rules of economy.

Hands are dealt once (BR-2): every card spent on one battle is missing from the next, and a battle won by one
point counts as much as one won by twenty. The heuristic spends its biggest card whenever it plays. This bot
plays the heuristic's rules of thumb (``heuristic.py``) with two changes:

- **Win cheaply.** When every rival has passed and it is behind, it plays the *smallest* card that takes the
  lead by more than ``finish_margin`` (its own cards it knows exactly; the rivals' face-down cards it judges at
  ``card_value`` each), and its biggest only if none does.
- **Never give up at the last battle.** A battle that looks hopeless is given up to keep the cards for the next
  one, unless a rival is one win from the game: losing it loses the game, so it plays on.

The figures (what an unseen card is worth, the leads it passes on, when a battle is hopeless, what the face
cards add) were tuned with Optuna on duplicate two-player deals against the heuristic and checked on other
deals and against time-matched PIMC (``benchmarks/barrell_strategist.py``; figures in ``benchmarks/README.md``).
Like the heuristic it reads only its observation and the game's public options, and it is as cheap, so search
uses it as its guide (``Game.search_guide``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action
from .cards import IS_NUMBERED
from .heuristic import BarrellHeuristic

#: The figures the strategist plays with where they differ from the heuristic's.
TUNED: dict[str, float] = {}


class BarrellStrategist(BarrellHeuristic):
    """The heuristic's rules with tuned figures; wins battles with its cheapest sufficient card."""

    name = "strategist"
    #: When every rival has passed, the smallest card that leads by more than this is played.
    finish_margin: float = 1.0

    def __init__(self, seed: int = 0, **figures: float) -> None:
        """A strategist with ``seed``; ``figures`` replace tuned figures by name (for tuning; unknown names are
        refused)."""
        super().__init__(seed)
        for name, value in {**TUNED, **figures}.items():
            # Read from the instance: the compiled class keeps these as instance attributes with defaults.
            current = getattr(self, name, None)
            if name.startswith("_") or isinstance(current, bool) or not isinstance(current, int | float):
                raise TypeError(f"the Barrell strategist has no figure {name!r}")
            setattr(self, name, type(current)(value))

    def _may_give_up(self, obs: dict[str, Any], seat: int) -> bool:
        """Not when a rival is one win from the game: losing this battle would lose it."""
        return all(wins < 1 for p, wins in enumerate(obs["wins"]) if p != seat)

    def _choose(self, plays: Sequence[Action], gains: Sequence[float], lead: float, live: bool) -> Action | None:
        """With every rival passed and the lead lost, the smallest numbered card that wins it back by more than
        ``finish_margin``; otherwise the heuristic's choice."""
        if not live and lead <= 0:
            enough = [
                (gain, a)
                for gain, a in zip(gains, plays, strict=True)
                if IS_NUMBERED[a.card] and lead + gain > self.finish_margin
            ]
            if enough:
                return min(enough, key=lambda pair: (pair[0], pair[1].card))[1]
        return super()._choose(plays, gains, lead, live)
