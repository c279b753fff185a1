"""Inference: worlds weighted by what the opponents did, for any searching bot, through the agent contract only.

Uniform worlds (``PlayerView.sample_states``) deal everything a seat has not seen as if the opponents had played
blind. A person reads their moves: a player who passed early holds little, a card played when a better one was
at hand says something about the hand. This module keeps that reading as a **particle filter** (the approach of
Skat's policy-based inference and of SPARTA's beliefs, here with the game's own bots as the opponent model):

- **Particles are full worlds carried forward.** At the bot's first decision they are drawn from its view
  (uniform worlds). At each later decision every particle is advanced from where it was: the bot's own move
  (the one it played), then every opponent decision until the bot is to act again, each opponent deciding in
  the particle — so its view at that move is ``observe(opponent)`` *of the particle itself*, its hand back
  then, which ``determinize`` (the present only) could not give.
- **Weights are the likelihood of what the seat saw.** The opponent decisions of that stretch are enumerated
  (up to ``branch_nodes`` decisions a particle, sampled from the model beyond), each branch weighted by the
  model's probability of its moves; the branches whose position looks to the bot exactly as its real one does
  (the same ``Game.information_key`` of its observation) are the ones that could have happened, and their
  summed probability multiplies the particle's weight (exact Bayes on that stretch). A face-down card
  played is then "any card the model would have played face down"; a pass with a strong hand is unlikely.
- **Where chance breaks the trail** (the bot's own draws, dice: no branch looks like the real position) or a
  reveal shows a guess was wrong, the particle is *carried*: its hidden cards are moved, as far as what the bot
  now knows allows, into a fresh uniform world of the real position (a game hook, ``carry``, in
  ``games/<game>/inference.py``; a game without one starts that particle afresh). Its weight is kept: what the
  stretch said is not used, what came before still is. Weights are resampled when their effective number
  falls below half the particles.
- **Perfect recall stays exact**: particles are worlds of the seat's views (``sample_states``), advanced by
  legal moves and kept only while they look like the real position, and carried ones are fresh worlds of the
  real position with cards swapped only between places the seat cannot see (the hook keeps every constraint
  ``determinize`` keeps). The bot never sees the truth: only its views, the worlds drawn from them and its own
  moves. Two true states a seat cannot tell apart give the same views, so the same particles and weights.

**The opponent model** (:class:`NoisyBot`) is a bot of the game (the heuristic by default) seen through its own
seat of the particle: it plays the bot's move with probability ``1 - noise`` and any legal move uniformly with
``noise``, so no move is impossible under the model (a wrong model only weakens the weights).

:class:`InferenceAgent` wraps a searching bot (ISMCTS): before each move it updates the particles, then hands
the bot a view whose ``sample_states`` draws worlds from the weighted particles (each carried into a fresh
world, so that everything nobody knows — the Deck's order — is still re-drawn). The search is unchanged.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from oakwood.engine import Decision, Rng, State
from oakwood.engine.agent import Agent, Choice, PlayerView

if TYPE_CHECKING:
    import random

    from oakwood.engine import Game

#: A game's carry hook: ``carry(belief, world, seat)`` is ``world`` (a fresh world of the real position) with the
#: hidden cards moved to where ``belief`` (an earlier particle, advanced) has them, as far as the seat's knowledge
#: allows; it may return ``world`` itself.
Carry = Callable[[State, State, int], State]


class OpponentModel(Protocol):
    """How likely each legal move of ``seat`` is in ``world`` (its own view of the world): probabilities > 0."""

    def probabilities(self, world: State, seat: int, legal: tuple[Hashable, ...]) -> list[float]: ...


class NoisyBot:
    """A bot as an opponent model: its move with probability ``1 - noise``, every legal move ``noise / n``."""

    def __init__(self, make: Callable[[int], Agent], noise: float = 0.1, seed: int = 0) -> None:
        if not 0.0 < noise <= 1.0:
            raise ValueError(f"the model's noise is a probability above 0 (every move possible), not {noise}")
        self.bot = make(seed)
        self.noise = noise

    def probabilities(self, world: State, seat: int, legal: tuple[Hashable, ...]) -> list[float]:
        """The bot's move (it sees only ``seat``'s view of ``world``) gets the mass the noise leaves."""
        n = len(legal)
        if n == 1:
            return [1.0]
        chosen = self.bot.act(PlayerView.of(world, seat))
        move = chosen.action if isinstance(chosen, Choice) else chosen
        spread = self.noise / n
        return [spread + (1.0 - self.noise) if action == move else spread for action in legal]


def game_carry(game: Game[Any]) -> Carry | None:
    """The game's carry hook (``carry`` in ``games/<game>/inference.py``), or None if the game has none."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.inference")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.inference":
            raise
        return None
    hook: Carry | None = getattr(module, "carry", None)
    return hook


@dataclass
class Particle:
    """One world the seat thinks possible, with the log of its weight."""

    world: State
    log_weight: float = 0.0


@dataclass
class BeliefStats:
    """What the filter did so far: for the benchmarks and tests."""

    updates: int = 0
    followed: int = 0  # particles advanced to a branch that looks like the real position
    carried: int = 0  # particles whose trail broke (chance, a reveal), carried into a fresh world
    resamples: int = 0


@dataclass
class Belief:
    """The particle filter of one seat over one match (see the module docstring)."""

    model: OpponentModel
    #: 32 particles and 4 enumerated decisions kept the whole gain of 64 and 24 in Barrell at less than half the
    #: cost (benchmarks/README.md, "Inference").
    particles: int = 32
    seed: int = 0
    #: Opponent decisions enumerated per particle and stretch (beyond, the model's move is sampled).
    branch_nodes: int = 4
    #: Moves of a stretch at most (a guard: a stretch longer than any game's ends the trail).
    max_steps: int = 400
    pool: list[Particle] = field(default_factory=list)
    stats: BeliefStats = field(default_factory=BeliefStats)
    _seat: int = -1
    _last: Hashable = None
    _carry: Carry | None = None
    _rng: Rng = field(default_factory=lambda: Rng(0))

    def __post_init__(self) -> None:
        if self.particles < 1:
            raise ValueError(f"the filter needs at least one particle, not {self.particles}")
        if self.branch_nodes < 1:
            raise ValueError(f"branch_nodes is a number of decisions: 1 or more, not {self.branch_nodes}")
        self._rng = Rng(self.seed)

    def reset(self) -> None:
        """Forget the match (the next view starts from uniform worlds)."""
        self.pool = []
        self._seat = -1
        self._last = None

    def update(self, view: PlayerView) -> None:
        """Bring the particles to ``view``'s position (its first call: draw them from the view)."""
        self.stats.updates += 1
        rng = self._rng
        if not self.pool or self._seat != view.seat or self._last is None:
            self._carry = game_carry(view.game)
            self._seat = view.seat
            self.pool = [Particle(world) for world in view.sample_states(self.particles, rng)]
            return
        key = view.game.information_key(view.observation)
        seat, own = view.seat, self._last
        self._last = None
        for particle in self.pool:
            leaves = self._advance(particle.world, seat, own, key, rng)
            matched = [(world, p) for world, p, ok in leaves if ok]
            if matched:
                total = sum(p for _, p in matched)
                particle.world = _pick(matched, total, rng)
                particle.log_weight += math.log(total)
                self.stats.followed += 1
            else:
                fresh = next(view.sample_states(1, rng))
                if leaves and self._carry is not None:
                    believed = _pick([(w, p) for w, p, _ in leaves], sum(p for _, p, _ in leaves), rng)
                    fresh = self._carry(believed, fresh, seat)
                particle.world = fresh
                self.stats.carried += 1
        self._normalise()

    def acted(self, action: Hashable) -> None:
        """The move the seat played at the view last given to :meth:`update`."""
        self._last = action

    def weights(self) -> list[float]:
        """The particles' weights, summing to 1."""
        top = max(p.log_weight for p in self.pool)
        raw = [math.exp(p.log_weight - top) for p in self.pool]
        total = sum(raw)
        return [w / total for w in raw]

    def draw(self, rng: random.Random | Rng) -> State:
        """A particle's world drawn by weight (the particle itself: clone it before changing it)."""
        weights = self.weights()
        x = rng.random()
        acc = 0.0
        for particle, weight in zip(self.pool, weights, strict=True):
            acc += weight
            if x < acc:
                return particle.world
        return self.pool[-1].world

    def sample(self, view: PlayerView, rng: random.Random | Rng) -> State:
        """A world for search: a weighted particle carried into a fresh world of ``view`` (the Deck's order and
        everything else the particle does not hold re-drawn), or the particle itself without a carry hook."""
        believed = self.draw(rng)
        if self._carry is None:
            world = believed.clone()
            world.rng = Rng(Rng.from_random(rng).next_u64())
            return world
        return self._carry(believed, next(view.sample_states(1, rng)), view.seat)

    # ------------------------------------------------------------------ one particle's stretch
    def _advance(self, world: State, seat: int, own: Hashable, key: str, rng: Rng) -> list[tuple[State, float, bool]]:
        """Every branch of the stretch from ``world`` (the seat about to play ``own``) to the seat's next
        decision: (position, model probability, whether it looks like the real one). Empty if ``own`` is not
        legal there (the seat's move was overtaken in a race)."""
        start = world.clone()
        start.record_events = False
        if own not in start.legal_actions(seat):
            return []
        start.apply(seat, own)
        information_key = start.game.information_key
        leaves: list[tuple[State, float, bool]] = []
        budget = [self.branch_nodes]
        stack: list[tuple[State, float, int]] = [(start, 1.0, 0)]
        while stack:
            node, p, steps = stack.pop()
            while True:
                if node.is_terminal() or steps >= self.max_steps:
                    leaves.append((node, p, False))
                    break
                acting = node.to_act()
                if seat in acting:
                    if information_key(node.observe(seat)) == key:
                        leaves.append((node, p, True))
                        break
                    legal = node.legal_actions(seat)
                    if len(legal) == 1 and node.decision is Decision.TURN:  # a forced move nobody asked about
                        node.apply(seat, legal[0])
                        steps += 1
                        continue
                    leaves.append((node, p, False))
                    break
                other = acting[0]
                legal = node.legal_actions(other)
                probs = self.model.probabilities(node, other, legal)
                if budget[0] > 0 and len(legal) > 1:
                    budget[0] -= 1
                    for action, q in zip(legal, probs, strict=True):
                        branch = node.clone()
                        branch.apply(other, action)
                        stack.append((branch, p * q, steps + 1))
                    break
                index = _choose(probs, rng)  # sampled: the probability is the proposal's, so it cancels
                node.apply(other, legal[index])
                steps += 1
        return leaves

    def _normalise(self) -> None:
        """Weights relative to the best; resample when the effective number falls below half the particles."""
        top = max(p.log_weight for p in self.pool)
        for particle in self.pool:
            particle.log_weight -= top
        weights = self.weights()
        effective = 1.0 / sum(w * w for w in weights)
        if effective >= len(self.pool) / 2:
            return
        # Systematic resampling: one draw, evenly spaced pointers (the least noise of the usual schemes).
        self.stats.resamples += 1
        n = len(self.pool)
        start = self._rng.random() / n
        chosen: list[Particle] = []
        acc, i = weights[0], 0
        for k in range(n):
            pointer = start + k / n
            while pointer > acc and i < n - 1:
                i += 1
                acc += weights[i]
            chosen.append(Particle(self.pool[i].world))
        self.pool = chosen


def _choose(probs: list[float], rng: Rng) -> int:
    """An index drawn by ``probs`` (which sum to 1)."""
    x = rng.random()
    acc = 0.0
    for i, q in enumerate(probs):
        acc += q
        if x < acc:
            return i
    return len(probs) - 1


def _pick(options: list[tuple[State, float]], total: float, rng: Rng) -> State:
    """One of ``options`` drawn by its probability (``total`` is their sum)."""
    x = rng.random() * total
    acc = 0.0
    for world, p in options:
        acc += p
        if x < acc:
            return world
    return options[-1][0]


@dataclass(frozen=True, slots=True)
class InferenceView(PlayerView):
    """A view whose worlds come from a :class:`Belief` (weighted particles) instead of uniform determinization."""

    _belief: Belief | None = field(default=None, repr=False, compare=False)
    _base: PlayerView | None = field(default=None, repr=False, compare=False)

    def sample_states(self, n: int, rng: random.Random | Rng) -> Iterator[State]:
        """``n`` worlds drawn from the weighted particles (see :meth:`Belief.sample`)."""
        belief, base = self._belief, self._base
        if belief is None or base is None or not belief.pool:
            yield from PlayerView.sample_states(self, n, rng)
            return
        for _ in range(n):
            yield belief.sample(base, rng)

    @classmethod
    def over(cls, view: PlayerView, belief: Belief) -> InferenceView:
        """``view`` with its worlds drawn from ``belief``."""
        return cls(
            seat=view.seat,
            legal_actions=view.legal_actions,
            game=view.game,
            decision=view.decision,
            num_players=view.num_players,
            _observation=view.observation,
            _world=view._world,
            _belief=belief,
            _base=view,
        )


class InferenceAgent:
    """A searching bot (ISMCTS) whose worlds are weighted by what the opponents did (see the module docstring).

    ``inner`` is the search; ``model`` the opponent model (:class:`NoisyBot` over the game's heuristic, say).
    Deterministic for a seed and the inner bot's iteration budget. One instance plays one seat of one match at a
    time; :meth:`forget` (or a view of another seat) starts afresh.
    """

    searches = True
    reads_observation = True

    def __init__(
        self, inner: Any, model: OpponentModel, particles: int = 32, seed: int = 0, branch_nodes: int = 4
    ) -> None:
        self.inner = inner
        self.name = f"{getattr(inner, 'name', 'bot')}+inference"
        self.belief = Belief(model, particles=particles, seed=seed, branch_nodes=branch_nodes)

    def act(self, view: PlayerView) -> Hashable | Choice:
        """Update the particles to ``view``, then let the inner bot search worlds drawn from them."""
        self.belief.update(view)
        result = self.inner.act(InferenceView.over(view, self.belief))
        self.belief.acted(result.action if isinstance(result, Choice) else result)
        return result  # type: ignore[no-any-return]

    def forget(self) -> None:
        """The match is over: drop the particles (and the inner bot's tree, if it keeps one)."""
        self.belief.reset()
        forget = getattr(self.inner, "forget", None)
        if forget is not None:
            forget()
