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

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

# Game is imported at run time, not only for type checking: compiled by mypyc, the PlayerView dataclass's
# annotations refer to Game's native type object, which is NULL (a segfault on import) unless game.py has run.
from .game import Game
from .rng import Rng
from .state import Decision, State

if TYPE_CHECKING:
    import random


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
