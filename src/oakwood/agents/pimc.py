"""Perfect-Information Monte Carlo (PIMC): a search that knows nothing of the game, as a benchmark opponent.

The baseline of issue 37 (Long, Sturtevant, Buro & Furtak, "Understanding the Success of Perfect Information
Monte Carlo Sampling in Game Tree Search", AAAI 2010; Ginsberg's GIB before it): at each decision

- **draw a world** from the view (``sample_states``: everything hidden from the bot re-sampled consistently
  with what its seat knows; the bot declares ``searches = True`` and never sees the true state);
- **play every legal move out in that world**, round-robin, so every move is scored on the same worlds, and
  with the same playout dice (a common seed per world), so that only the move differs between two moves'
  playouts (paired: the spread of the comparison is the moves', not the deals');
- the playouts are random legal moves at every seat — the game's ``playout_action``, which is what "random"
  means per game (uniform where the game says nothing; a solo Nutty playout never stops the game by
  choice while it can go on) — to the end, at most ``playout_steps`` actions (the catalog's
  ``PLAYOUT_TO_THE_END``, far beyond any game random play was seen to make). A playout cut there (or by a
  shorter ``playout_steps`` given) is scored by the game's ``estimate_returns``, each seat's share in [0, 1],
  like a finished game's returns, since random play need not end a game (a Nutty game can go round);
- **the move with the highest mean return for its seat** is played (ties: the first legal one).

**The budget** is ``iterations`` playouts (worlds × legal moves, as one ISMCTS iteration is one playout, so the
two bots' budgets cost about the same), rounded up to whole worlds so every move has the same worlds;
and/or ``seconds``, checked after each whole world (whichever ends first; at least one world is always
played). With an iteration budget alone the bot is deterministic for a seed.

It uses only the agent contract (``sample_states``, ``legal_actions``, ``apply``, ``playout_action``,
``estimate_returns``) and no bot of the game. A commit decision is searched as ``ismcts.py`` searches it: the
bot's move is applied in the world first, then the other seats still to choose are drawn at random, each
choosing at random (the world hides their pending choices). In a race (a S'Quarrels Hoard) the bot answers
with the human-like reaction delay ISMCTS uses, so that its strength lies in its decisions, not its reflexes.
"""

from __future__ import annotations

import time
from collections.abc import Hashable

from oakwood.engine import Rng, State
from oakwood.engine.agent import Choice, PlayerView

from .ismcts import SearchReport, _pick_seat, with_reaction

#: The catalog's playout length: to the end, as PIMC plays out. Random play from a deal ends every game well within
#: it (200 seeded random games of each at two players: at most 69 steps in Barrell, 242 in a S'Quarrels round, 557
#: in Nutty Squirrels), so ``estimate_returns`` (the game's knowledge) scores only a playout that never ends.
PLAYOUT_TO_THE_END = 2000


class PIMCAgent:
    """Perfect-Information Monte Carlo with random playouts: an iteration budget, a time budget, or both."""

    name = "pimc"
    searches = True  # its views carry a world to sample from
    reads_observation = False  # it reads only its legal actions and the worlds

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = 1000,
        seconds: float | None = None,
        playout_steps: int = 40,
        reaction: tuple[float, float] = (0.35, 1.1),
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("PIMC needs an iteration budget, a time budget, or both")
        if (iterations is not None and iterations < 1) or (seconds is not None and not seconds > 0):
            raise ValueError("the budgets must be positive")
        if playout_steps < 0:
            raise ValueError("playout_steps is a number of actions: 0 or more")
        low, high = reaction
        if not 0 <= low <= high:
            raise ValueError(f"the reaction delay must be a range 0 <= low <= high, not {reaction}")
        self.rng = Rng(seed)
        #: Playouts a decision (worlds × legal moves, rounded up to whole worlds); None: only ``seconds``.
        self.iterations = iterations
        #: Seconds a decision, checked after each whole world; None: only ``iterations``.
        self.seconds = seconds
        #: Random actions a playout plays before ``estimate_returns`` scores where it stopped.
        self.playout_steps = playout_steps
        self.reaction = reaction
        #: What the last decision's search did (``ismcts.SearchReport``: playouts, seconds, per-move playouts,
        #: mean returns and the moves best first).
        self.last: SearchReport | None = None

    def act(self, view: PlayerView) -> Hashable | Choice:
        """The legal move with the highest mean return over the worlds searched (a reaction delay in a race)."""
        legal = view.legal_actions
        if len(legal) == 1:
            action = legal[0]
            self.last = SearchReport(0, 0.0, {action: 0}, {}, (action,))
        else:
            action = self.search(view).ranking[0]
        return with_reaction(action, view, self.reaction, self.rng)

    def search(self, view: PlayerView) -> SearchReport:
        """Play every legal move out in each world drawn from ``view`` until the budget ends; report each
        move's playouts and mean return, the best first."""
        seat, rng, legal = view.seat, self.rng, view.legal_actions
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        totals = dict.fromkeys(legal, 0.0)
        worlds = 0
        while True:
            world = next(view.sample_states(1, rng))
            world.record_events = False  # nobody reads a world's log
            playout_seed = rng.randbelow(1 << 30)  # the same playout dice after every move: paired
            for action in legal:
                branch = world.clone()
                branch.record_events = False
                branch.apply(seat, action)
                totals[action] += self._playout(branch, Rng(playout_seed))[seat]
            worlds += 1
            if self.iterations is not None and worlds * len(legal) >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        values = {action: total / worlds for action, total in totals.items()}
        # sorted is stable: among equal means the first legal move stays first, so the choice is deterministic
        ranking = tuple(sorted(legal, key=lambda action: -values[action]))
        self.last = SearchReport(
            worlds * len(legal), time.perf_counter() - start, dict.fromkeys(legal, worlds), values, ranking
        )
        return self.last

    def _playout(self, world: State, rng: Rng) -> list[float]:
        """At most ``playout_steps`` actions of the game's ``playout_action`` at every seat, then each seat's
        return: the game's own if it ended, else ``estimate_returns`` of where it stopped."""
        playout_action = world.game.playout_action
        steps = 0
        while steps < self.playout_steps and not world.is_terminal():
            seat = _pick_seat(world.to_act(), rng)
            world.apply(seat, playout_action(world, seat, world.legal_actions(seat), rng))
            steps += 1
        return world.game.estimate_returns(world)
