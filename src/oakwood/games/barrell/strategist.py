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

from collections.abc import Hashable, Sequence
from typing import Any

from oakwood.engine.agent import PlayerView

from .actions import Action
from .cards import IS_NUMBERED
from .heuristic import BarrellHeuristic

#: The figures the strategist may play with other values than the heuristic's (``heuristic.py`` says what each is).
FIGURES = (
    "card_value",
    "heart_value",
    "safe_lead",
    "safe_lead_per_rival",
    "small_lead",
    "small_hand",
    "lock_lead",
    "reach_cards",
    "hopeless_hand",
    "min_gain",
    "jh_gain",
    "ks_gain",
    "kc_field",
    "kc_cost",
    "js_cost",
    "mulligan_rank",
    "mulligan_hand",
    "joker_insures",
    "kh_returns",
    "jd_protects",
    "finish_margin",
)

#: The tuned figures by table size (``benchmarks/barrell_strategist.py tune``: 250 trials of 2,000 two-player
#: deals, seed 1). At a size not tuned here the strategist plays the heuristic's figures with its two rules.
TUNED: dict[int, dict[str, float]] = {
    2: {
        "card_value": 4.51,
        "heart_value": 2.76,
        "safe_lead": 2.04,
        "safe_lead_per_rival": 0.25,
        "small_lead": 11.11,
        "small_hand": 2,
        "lock_lead": 1.93,
        "reach_cards": 6,
        "hopeless_hand": 4,
        "min_gain": -0.97,
        "jh_gain": 3.12,
        "ks_gain": 4.34,
        "kc_field": 14.23,
        "kc_cost": 1.02,
        "js_cost": 4.05,
        "mulligan_rank": 5,
        "mulligan_hand": 4,
        "joker_insures": 1.64,
        "kh_returns": 2.73,
        "jd_protects": 1.03,
        "finish_margin": 4.53,
    },
}


class BarrellStrategist(BarrellHeuristic):
    """The heuristic's rules with tuned figures; wins battles with its cheapest sufficient card."""

    name = "strategist"
    #: When every rival has passed, the smallest card that leads by more than this is played.
    finish_margin: float = 1.0

    def __init__(self, seed: int = 0, **figures: float) -> None:
        """A strategist with ``seed``; ``figures`` replace its figures by name at every table size (for tuning;
        a name not in ``FIGURES`` is refused)."""
        super().__init__(seed)
        unknown = sorted(set(figures) - set(FIGURES))
        if unknown:
            raise TypeError(f"the Barrell strategist has no figure {unknown[0]!r}; choose from {', '.join(FIGURES)}")
        #: The figures this bot was made with: the class's (the heuristic's), and the ones given.
        self._own = {name: getattr(self, name) for name in FIGURES}
        self._given = figures
        self._players = 0  # the table size the figures in use are for (0: none yet)

    def act(self, view: PlayerView) -> Hashable:
        """The heuristic's decision with the figures tuned for this table size."""
        players = view.observation["players"]
        if players != self._players:
            self._players = players
            for name, value in {**self._own, **TUNED.get(players, {}), **self._given}.items():
                # Each figure keeps its type (a count stays an int); the compiled class checks it.
                setattr(self, name, type(self._own[name])(value))
        return super().act(view)

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
