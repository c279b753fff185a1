"""The agent protocol: what a bot receives (a :class:`PlayerView`) and what it returns."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol, runtime_checkable

from oakwood.engine import Decision, Game, Rng, State


@dataclass(frozen=True)
class PlayerView:
    """Everything one seat may use to decide: never the true state.

    ``observation`` is ``state.observe(seat)``, computed the first time it is read (a random bot never reads
    it, and building it was most of a random-bot simulation step); read it before the match moves on.
    ``sample_states`` yields determinized worlds — full states consistent with this seat's observation,
    with everything it cannot see re-sampled — for search bots.
    """

    seat: int
    legal_actions: tuple[Hashable, ...]
    game: Game[Any]
    decision: Decision
    _observe: Callable[[], dict[str, Any]] = field(repr=False, compare=False)
    _sampler: Callable[[random.Random | Rng], State] = field(repr=False, compare=False)

    @cached_property
    def observation(self) -> dict[str, Any]:
        """What this seat knows (``state.observe(seat)``)."""
        return self._observe()

    def sample_states(self, n: int, rng: random.Random | Rng) -> Iterator[State]:
        """``n`` determinized worlds drawn with ``rng``."""
        for _ in range(n):
            yield self._sampler(rng)

    @classmethod
    def of(cls, state: State, seat: int) -> PlayerView:
        """The view of ``seat`` in ``state`` (built at the trust boundary, from ``observe`` only)."""
        return cls(
            seat=seat,
            _observe=lambda: state.observe(seat),
            legal_actions=state.legal_actions(seat),
            game=state.game,
            decision=state.decision,
            _sampler=lambda rng: state.determinize(seat, rng),
        )


@dataclass(frozen=True)
class Choice:
    """An action with the agent's reaction delay in seconds (used in race decisions)."""

    action: Hashable
    delay: float = 0.0


@runtime_checkable
class Agent(Protocol):
    """A player. ``act`` returns an action, or a :class:`Choice` to state a reaction delay in a race."""

    name: str

    def act(self, view: PlayerView) -> Hashable | Choice: ...


def as_choice(result: Hashable | Choice, default_delay: float) -> Choice:
    """Normalise an agent's answer to a :class:`Choice`."""
    return result if isinstance(result, Choice) else Choice(result, default_delay)
