"""Opponents of the Gymnasium environment: bot names, agent objects, policies and pools of them.

An opponent is one of

- a **bot name** or difficulty level (``"random"``, ``"medium"``…; ``oakwood.agents.make_agent``), built afresh
  and seeded from the environment's generator at every reset;
- an **agent object**: anything with ``act(view)`` (the :class:`~oakwood.engine.agent.Agent` protocol), used as
  it is, episode after episode (it keeps whatever state it keeps);
- a **policy**: a callable ``(observation, mask) -> action`` taking the float32 tensor of the opponent's own
  ``observe(seat)`` (the same encoder as the learner's, so a copy of the learner's network fits) and a bool mask
  of its legal codec indices, and returning a codec index; an illegal answer raises ``ValueError`` naming it;
- a :class:`Pool` of the above, from which the environment draws one with its seeded generator at every reset:
  self-play against frozen copies of past policies.

:func:`check_opponent` refuses anything else with a ``TypeError`` naming what was given, at construction time.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from oakwood.agents import make_agent
from oakwood.engine import Game
from oakwood.engine.agent import PlayerView

from .tensors import Encoder

#: A policy opponent: the tensor of its observation and its bool legal mask to a codec index.
Policy: TypeAlias = Callable[[NDArray[np.float32], NDArray[np.bool_]], Any]

#: What the ``opponents`` keyword takes for one seat: a bot name, an agent object, a :data:`Policy` or a
#: :class:`Pool` (``Any``: an agent is any object with ``act``, which no static type states for every agent).
Opponent: TypeAlias = Any

WHAT_AN_OPPONENT_IS = (
    "a bot name (str), an agent object with act(view), a callable (observation, mask) -> action, or a Pool of them"
)


class Pool:
    """Opponents to draw from, one for each seat that has the pool, afresh at every reset (uniformly, or by
    ``weights``). :meth:`add` puts a new member in between episodes, e.g. a frozen copy of the learner's policy.

    The pool is shared, not copied: an environment made with it sees members added later (in the same process;
    an ``AsyncVectorEnv`` worker holds its own copy).
    """

    def __init__(self, members: Iterable[Opponent], weights: Sequence[float] | None = None) -> None:
        self.members: list[Opponent] = list(members)
        if not self.members:
            raise ValueError("a Pool needs at least one member")
        for i, member in enumerate(self.members):
            if isinstance(member, Pool):
                raise TypeError(f"Pool member {i} is a Pool: flatten the pools into one")
        self.weights: list[float] | None = None if weights is None else [float(w) for w in weights]
        self._check_weights()

    def add(self, member: Opponent, weight: float | None = None) -> None:
        """Add ``member`` for the episodes to come (``weight`` is needed exactly when the pool has weights)."""
        if isinstance(member, Pool):
            raise TypeError("a Pool member cannot be a Pool: flatten the pools into one")
        if (weight is None) != (self.weights is None):
            raise ValueError("give a weight exactly when the pool was made with weights")
        self.members.append(member)
        if self.weights is not None and weight is not None:
            self.weights.append(float(weight))
        self._check_weights()

    def draw(self, rng: np.random.Generator) -> Opponent:
        """One member, drawn with ``rng``."""
        if self.weights is None:
            return self.members[int(rng.integers(len(self.members)))]
        p = np.asarray(self.weights) / sum(self.weights)
        return self.members[int(rng.choice(len(self.members), p=p))]

    def _check_weights(self) -> None:
        if self.weights is None:
            return
        if len(self.weights) != len(self.members):
            raise ValueError(f"{len(self.weights)} weights for {len(self.members)} pool members")
        if any(not np.isfinite(w) or w < 0 for w in self.weights) or sum(self.weights) <= 0:
            raise ValueError(f"pool weights must be finite, non-negative and not all 0: {self.weights}")

    def __len__(self) -> int:
        return len(self.members)

    def __repr__(self) -> str:
        return f"Pool({self.members!r}, weights={self.weights!r})"


def describe(opponent: object) -> str:
    """A short name of ``opponent`` for messages."""
    if isinstance(opponent, str):
        return repr(opponent)
    name = getattr(opponent, "__qualname__", None) or type(opponent).__qualname__
    return f"{type(opponent).__name__} {name}" if callable(opponent) and not hasattr(opponent, "act") else name


def check_opponent(game: Game[Any], opponent: object, where: str) -> None:
    """Refuse, naming ``where`` (e.g. "the opponent at seat 2"), anything that is not an opponent; an unknown bot
    name raises the catalogue's own error."""
    if isinstance(opponent, Pool):
        for i, member in enumerate(opponent.members):
            check_opponent(game, member, f"member {i} of the pool of {where}")
        return
    if isinstance(opponent, str):
        make_agent(game, opponent)  # an unknown name is refused now, not at the first reset
        return
    if isinstance(opponent, type):
        raise TypeError(f"{where} is the class {opponent.__qualname__}: pass an instance (or a bot name)")
    if hasattr(opponent, "act"):
        if not callable(opponent.act):
            raise TypeError(f"{where}: {type(opponent).__qualname__}.act is not a method; an agent has act(view)")
        return
    if callable(opponent):
        return
    raise TypeError(f"{where} is {type(opponent).__qualname__} {opponent!r}; an opponent is {WHAT_AN_OPPONENT_IS}")


class PolicyAgent:
    """A policy ``(observation, mask) -> action`` playing as an agent: it reads its seat's observation, encodes it
    with the learner's encoder and answers the codec index's action."""

    name = "policy"
    reads_observation = True

    def __init__(self, policy: Policy, game: Game[Any], encoder: Encoder) -> None:
        self.policy = policy
        self.game = game
        self.encoder = encoder
        actions = game.codec.actions
        # The games hand out the codec's own action objects: find their index by identity first (see MaskCache).
        self._index_by_id = {id(action): i for i, action in enumerate(actions)}
        self._actions = actions  # keeps the ids above the codec's

    def act(self, view: PlayerView) -> Hashable:
        """The policy's answer to ``view`` as a game action; ``ValueError`` naming it when it is not legal."""
        x = self.encoder.encode(view.observation)
        mask = np.zeros(self.game.num_actions, dtype=np.bool_)
        codec = self.game.codec
        for action in view.legal_actions:
            index = self._index_by_id.get(id(action))
            mask[codec.index[action] if index is None else index] = True
        answer = self.policy(x, mask)
        if isinstance(answer, np.ndarray) and answer.size == 1:
            answer = answer.reshape(()).item()  # model.predict returns a 0-d or 1-element array
        if isinstance(answer, bool) or not isinstance(answer, int | np.integer):
            raise ValueError(f"policy opponent {describe(self.policy)} answered {answer!r}, not a codec index")
        index = int(answer)
        if not 0 <= index < self.game.num_actions or not mask[index]:
            legal = ", ".join(str(i) for i in np.flatnonzero(mask))
            raise ValueError(
                f"policy opponent {describe(self.policy)} answered action {index}, not legal for seat {view.seat}; "
                f"legal: {legal}"
            )
        return self.game.decode(index)


def materialise(
    game: Game[Any], opponent: Opponent, encoder: Encoder, rng: np.random.Generator, policies: dict[int, PolicyAgent]
) -> Any:
    """The agent that plays ``opponent`` for one episode: a pool draws a member with ``rng``, a bot name is built
    and seeded from ``rng``, a policy is wrapped (once: ``policies`` keeps its wrapper by the policy's id)."""
    if isinstance(opponent, Pool):
        opponent = opponent.draw(rng)
    if isinstance(opponent, str):
        return make_agent(game, opponent, seed=int(rng.integers(2**63)))
    if hasattr(opponent, "act"):
        return opponent
    wrapper = policies.get(id(opponent))
    if wrapper is None or wrapper.policy is not opponent:
        wrapper = policies[id(opponent)] = PolicyAgent(opponent, game, encoder)
    return wrapper
