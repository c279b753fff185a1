"""PettingZoo AEC environments for every Oakwood game: ``env("squarrels", players=4, **options)``.

One agent per seat (``player_0`` …). The environment asks one agent at a time, whatever the game's decision:

- **turn**: the seat to act.
- **commit** (several seats choose in secret): each listed seat in turn; a choice is stored, not applied, so
  every observation is still ``observe(seat)`` of the state before any pending choice and shows no other
  seat's choice. Once the last seat has chosen, the choices are applied together, as ``arena/match.py`` does.
- **race** (several seats may slap or pass): the listed seats are polled one at a time in a random order drawn
  from the environment's seeded generator; each answer is applied as it comes (the first legal slap wins) and
  seats no longer to act are skipped.

Observations are a dict ``{"observation": float32 tensor, "action_mask": int8 mask}`` (the mask is all zeros for
an agent that is not being asked; it is also in ``infos[agent]["action_mask"]``, there a read-only array). Rewards are
``state.returns()`` at the end, 0 before; every agent terminates at the end and is truncated after
``max_steps`` steps. An illegal action raises ``ValueError`` naming it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

import oakwood
from oakwood.engine import Decision, Game, State

from .common import observation_encoder
from .gymnasium import MaskCache, decode_action, observation_space

#: The version suffix of every environment name (``squarrels_v0``); bump it when observations or rules change.
VERSION = 0

#: The render modes: the game's text of an observation.
RENDER_MODES = ["ansi"]

#: Default step cap: far beyond any real game (a random 6-player S'Quarrels game takes about 1,500 steps).
DEFAULT_MAX_STEPS = 50_000


def agent_name(seat: int) -> str:
    """The PettingZoo agent of ``seat``."""
    return f"player_{seat}"


def checked_game(game_name: str, players: int, render_mode: str | None, options: dict[str, Any]) -> Game[Any]:
    """The game a PettingZoo environment plays (AEC or parallel), with its table size and render mode checked:
    a ``ValueError`` naming what is wrong."""
    game: Game[Any] = oakwood.load(game_name, **options)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players}–{game.max_players} players, not {players}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r}: choose from {RENDER_MODES}")
    return game


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped class
    """An Oakwood game as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(
        self,
        game_name: str,
        players: int = 2,
        *,
        render_mode: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: Game[Any] = checked_game(game_name, players, render_mode, options)
        self.metadata = {"render_modes": RENDER_MODES, "name": f"{game_name}_v{VERSION}", "is_parallelizable": False}
        self.render_mode = render_mode
        self.players = players
        self.max_steps = max_steps
        self.encoder = observation_encoder(self.game, players)
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: observation_space(self.encoder, self.game.num_actions) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self._no_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._no_mask.flags.writeable = False  # shared by every info of an agent not being asked
        self._masks = MaskCache()
        self._actions = self.game.codec.actions
        self._np_random, _ = seeding.np_random(None)
        self.state: State = self.game.new_state(players, 0)
        self._queue: list[int] = []
        self._pending: list[tuple[int, Hashable]] = []
        self._decision = Decision.NONE
        self._mask = self._no_mask
        self._steps = 0

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete over the game's codec."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match; with ``seed`` the match and every race order are the same on every run."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.state = self.game.new_state(self.players, int(self._np_random.integers(2**63)))
        self.state.record_events = False
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"action_mask": self._no_mask} for a in self.agents}
        self._steps = 0
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[0]
        self._start_decision()

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """``agent``'s tensor (of ``observe(seat)``) and its action mask (zeros unless it is being asked)."""
        seat = self._seat_of[agent]
        return {
            "observation": self.encoder.encode_state(self.state, seat),
            "action_mask": self._mask.copy() if agent == self.agent_selection else self._no_mask.copy(),
        }

    def step(self, action: Any) -> None:
        """Play ``action`` (a codec index) for the selected agent (``None`` for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat_of[agent]
        if (
            type(action) is not bool
            and isinstance(action, int | np.integer)
            and 0 <= action < len(self._mask)
            and self._mask[action]
        ):
            chosen = self._actions[action]  # legal by the mask: the fast path of decode_action
        else:
            chosen = decode_action(self.game, self.state, seat, action)  # refuses it, naming it
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._steps += 1
        self._queue.pop(0)
        if self._decision is Decision.COMMIT:
            self._pending.append((seat, chosen))
            if self._queue:
                self._select(self._queue[0])  # nothing applied yet: the state shows no pending choice
            else:
                self._resolve_commit()
                self._start_decision()
        elif self._decision is Decision.RACE:
            before = set(self.state.to_act())
            self.state.apply(seat, chosen)
            self._continue_race(before - {seat})
        else:
            self.state.apply(seat, chosen)
            self._start_decision()
        if self.state.is_terminal():
            self._finish()
        elif self._steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
            self.infos[self.agent_selection] = {"action_mask": self._no_mask}
            self._mask = self._no_mask
        self._accumulate_rewards()

    def render(self) -> str | None:
        """ANSI: the game's text of the selected agent's observation (the spectator's once the match is over)."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode; make the environment with render_mode='ansi'")
            return None
        seat = None if self.state.is_terminal() or not self.agents else self._seat_of[self.agent_selection]
        return self.game.render(self.state.observe(seat))

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ decisions
    def _start_decision(self) -> None:
        """Queue the seats to ask at the state's current decision and select the first."""
        self._pending = []
        if self.state.is_terminal():
            self._queue = []
            self._decision = Decision.NONE
            return
        seats = self.state.to_act()
        decision = self.state.decision
        if decision is Decision.RACE and len(seats) > 1:
            order = self._np_random.permutation(len(seats))
            self._queue = [seats[int(i)] for i in order]
        else:
            self._queue = list(seats)
        self._decision = decision if len(seats) > 1 else Decision.TURN
        self._select(self._queue[0])

    def _resolve_commit(self) -> None:
        """Apply every stored commit choice, skipping what match.py skips (a decision that ended early)."""
        for seat, chosen in self._pending:
            if self.state.is_terminal() or self.state.decision is not Decision.COMMIT:
                break
            if seat in self.state.to_act():
                self.state.apply(seat, chosen)
        self._pending = []

    def _continue_race(self, still_racing: set[int]) -> None:
        """After one race answer: ask the next seat of the drawn order still to act, or move on."""
        state = self.state
        if not state.is_terminal() and state.decision is Decision.RACE and set(state.to_act()) == still_racing:
            self._queue = [s for s in self._queue if s in still_racing]
            if self._queue:
                self._select(self._queue[0])
                return
        self._start_decision()  # the race is over (a slap won, or everyone passed)

    def _select(self, seat: int) -> None:
        """Make ``seat`` the agent asked, with its mask in the observation and in ``infos``."""
        previous = self.agent_selection
        if previous in self.infos:
            self.infos[previous] = {"action_mask": self._no_mask}
        self.agent_selection = self.possible_agents[seat]
        self._mask = self._masks.mask(self.state, seat)
        self.infos[self.agent_selection] = {"action_mask": self._mask}

    def _finish(self) -> None:
        """The match is over: every agent terminates with its return."""
        returns = self.state.returns()
        for agent in self.agents:
            self.rewards[agent] = returns[self._seat_of[agent]]
            self.terminations[agent] = True
        self.infos[self.agent_selection] = {"action_mask": self._no_mask}
        self._mask = self._no_mask


def _forwarded(name: str) -> property:
    """A read-only attribute of the wrapped environment, refused before ``reset`` as PettingZoo refuses it."""

    def read(self: OrderEnforced) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(read, doc=f"The environment's ``{name}`` (after ``reset``).")


class OrderEnforced(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with the attributes every step reads forwarded directly.

    ``OrderEnforcingWrapper`` reaches the environment's attributes through ``__getattr__``, which Python calls
    only after its normal lookup has failed: about 2 µs each, eight a step (``agent_iter``, ``last``,
    ``step``), a fifth of a whole S'Quarrels step. The properties below make the same check (nothing before
    ``reset``) and read the attribute straight away; ``last`` is the environment's own once reset.
    """

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    num_agents = _forwarded("num_agents")

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        """The environment's cumulative rewards (PettingZoo's wrappers forward this one private name)."""
        rewards: dict[str, float] = self.env._cumulative_rewards
        return rewards

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Observation, cumulative reward, termination, truncation and info of the selected agent."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        result: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return result


def env(game_name: str, players: int = 2, **options: Any) -> Any:
    """The AEC environment of ``game_name`` at ``players`` seats, order-enforced (``render_mode`` and
    ``max_steps`` are the environment's; every other keyword is a game option)."""
    return OrderEnforced(raw_env(game_name, players, **options))
