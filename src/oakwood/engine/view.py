"""The view a bot receives (:class:`PlayerView`; the agent contract is ``agent.py``'s, which re-exports it).

Here, not in ``agent.py``, so that it is compiled with the engine (issue 36): ``agent.py`` holds the ``Agent``
protocol, which mypyc cannot compile, and an interpreted view cost a guided search dearly: every move of a guide
(tens in each playout) takes a fresh view through a frozen dataclass's interpreted ``__init__`` (an
``object.__setattr__`` call per field) and reads its observation through an interpreted property.
"""

from __future__ import annotations

import random  # at run time: compiled, the ``random.Random | Rng`` argument is checked against the class
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any

# Game is imported at run time, not only for type checking: compiled by mypyc, the PlayerView dataclass's
# annotations refer to Game's native type object, which is NULL (a segfault on import) unless game.py has run.
from .game import Game
from .native import mypyc_attr
from .rng import Rng
from .state import Decision, State


# Interpreted subclasses allowed: ``agents/inference.py``'s ``InferenceView`` is one.
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything one seat may use to decide: never the true state.

    ``observation`` is what the seat knows (``state.observe(seat)`` when the view was taken). For an agent
    that declared ``searches``, ``sample_states`` draws determinized worlds from a world made when the view was
    taken: each re-samples everything hidden from the seat, consistently with its observation.
    """

    seat: int
    legal_actions: tuple[Hashable, ...]
    game: Game[Any]
    decision: Decision
    num_players: int  # the seats at the table (public: every seat knows it)
    _observation: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _world: State | None = field(default=None, repr=False, compare=False)

    @property
    def observation(self) -> dict[str, Any]:
        """What this seat knows (``state.observe(seat)``)."""
        if self._observation is None:
            raise RuntimeError(
                "this view was taken without an observation: the agent declared reads_observation = False"
            )
        return self._observation

    def sample_states(self, n: int, rng: random.Random | Rng) -> Iterator[State]:
        """``n`` determinized worlds drawn with ``rng`` (for agents that declared ``searches = True``)."""
        world = self._world
        if world is None:
            raise RuntimeError("this view holds no world to sample from: the agent did not declare searches = True")
        for _ in range(n):
            yield world.determinize(self.seat, rng)

    @classmethod
    def of(cls, state: State, seat: int, *, observation: bool = True, world_rng: Rng | None = None) -> PlayerView:
        """The view of ``seat`` in ``state``: a snapshot, with a world drawn with ``world_rng`` if one is given."""
        return cls(
            seat=seat,
            legal_actions=state.legal_actions(seat),
            game=state.game,
            decision=state.decision,
            num_players=state.num_players,
            _observation=state.observe(seat) if observation else None,
            _world=None if world_rng is None else state.determinize(seat, world_rng),
        )

    @classmethod
    def of_world(cls, world: State, seat: int) -> PlayerView:
        """The view of ``seat`` rebuilt from one of its worlds (``state.determinize(seat, rng)``), for a searching
        agent that was handed that world and nothing else (another process's bot): the same view
        ``of(state, seat, world_rng=rng)`` gives. A world's observation and legal actions are the seat's own (the
        conformance kit checks both), and ``sample_states`` draws worlds of the world, which equal worlds of the
        truth (the kit checks that too)."""
        return replace(cls.of(world, seat), _world=world)

    @classmethod
    def for_agent(cls, state: State, seat: int, agent: object, rng: Rng) -> PlayerView:
        """The view ``agent`` asked for (see the module docstring); ``rng`` draws its world if it searches."""
        return cls.of(
            state,
            seat,
            observation=getattr(agent, "reads_observation", True),
            world_rng=rng if getattr(agent, "searches", False) else None,
        )


# A slotted dataclass subclass (``InferenceView``) adds a slot for every field its bases do not list in a
# ``__slots__``; compiled, ``slots=True`` leaves this class without one (its fields are native attributes already),
# so a subclass's slots would hide them from the compiled methods. Listing them here keeps them the class's own.
# (Pure, ``slots=True`` has written this very tuple.)
if "__slots__" not in vars(PlayerView):
    setattr(PlayerView, "__slots__", tuple(f.name for f in fields(PlayerView)))  # noqa: B010
