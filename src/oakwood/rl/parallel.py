"""PettingZoo parallel environments: every seat asked at the same time answers in the same ``step``.

``parallel_env("squarrels", players=4, **options)``: one agent per seat (``player_0`` …), observations
``{"observation": float32 tensor of observe(seat), "action_mask": int8 mask}`` for every live agent, as in the
AEC environments. At each step the agents asked are the seats the state lists to act (``info["to_act"]`` is
true for them, and only their masks have legal actions):

- **commit** (a S'Quarrels Quarrel, a Barrell simultaneous heart gift or mulligan): this is where the parallel
  form fits the game. Every listed seat chooses from the same state, seeing no other seat's choice, and the
  choices are applied together, as ``arena/match.py`` does;
- **race**: every listed seat answers from the same state at once; the answers land in an order drawn from the
  environment's seeded generator (the arena's rule with equal reaction delays), so the first legal slap wins;
- **turn**: one seat acts. Here the parallel form does not fit: the step asks one agent, and every other agent's
  action is ignored (its mask is all zeros). Turn-based phases are most of every Oakwood game, so for them the
  AEC environment (``oakwood.rl.pettingzoo``) is the natural form; this one serves learners written for
  simultaneous moves.

An action must be given for every agent asked (``ValueError`` names a missing one); an illegal action raises
``ValueError`` naming it; actions of agents not asked are ignored. Rewards are ``state.returns()`` at the end, 0
before; at the end every agent terminates and ``agents`` empties; past ``max_steps`` steps every agent is
truncated.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from oakwood.engine import Decision, Game, State

from .common import observation_encoder
from .gymnasium import MaskCache, decode_action, observation_space
from .pettingzoo import DEFAULT_MAX_STEPS, RENDER_MODES, VERSION, agent_name, checked_game


class raw_parallel_env(ParallelEnv):  # type: ignore[misc]  # PettingZoo's naming of the environment class
    """An Oakwood game as a PettingZoo parallel environment (see the module docstring)."""

    def __init__(
        self,
        game_name: str,
        players: int = 2,
        *,
        render_mode: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        **options: Any,
    ) -> None:
        self.game: Game[Any] = checked_game(game_name, players, render_mode, options)
        self.metadata = {"render_modes": RENDER_MODES, "name": f"{game_name}_v{VERSION}"}
        self.render_mode = render_mode
        self.players = players
        self.max_steps = max_steps
        self.encoder = observation_encoder(self.game, players)
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self.agents: list[str] = []
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: observation_space(self.encoder, self.game.num_actions) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self._no_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._no_mask.flags.writeable = False
        self._masks = MaskCache()
        self._np_random, _ = seeding.np_random(None)
        self.state: State = self.game.new_state(players, 0)
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete over the game's codec."""
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new match; with ``seed`` the match and every race order are the same on every run."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.state = self.game.new_state(self.players, int(self._np_random.integers(2**63)))
        self.state.record_events = False
        self.agents = list(self.possible_agents)
        self._steps = 0
        return self._observations(), self._infos()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Apply the actions of every agent asked now (see the module docstring)."""
        if not self.agents:
            raise ValueError("the match is over; call reset()")
        state = self.state
        seats = state.to_act()
        chosen: list[tuple[int, Hashable]] = []
        for seat in seats:
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"no action for {agent}, who is to act now (asked: {self._asked_names(seats)})")
            chosen.append((seat, decode_action(self.game, state, seat, actions[agent])))
        self._steps += 1
        decision = state.decision
        if decision is Decision.RACE and len(chosen) > 1:
            chosen = [chosen[int(i)] for i in self._np_random.permutation(len(chosen))]
        for seat, action in chosen:  # as arena/match.py lands the answers of a commit or a race
            if state.is_terminal() or state.decision is not decision:
                break  # the decision is over (a slap won): the answers left belonged to it
            if seat in state.to_act():
                state.apply(seat, action)
        terminated = state.is_terminal()
        truncated = not terminated and self._steps >= self.max_steps
        returns = state.returns() if terminated else [0.0] * self.players
        agents = self.agents
        observations = self._observations()
        infos = self._infos()
        rewards = {a: float(returns[self._seat_of[a]]) for a in agents}
        terminations = {a: terminated for a in agents}
        truncations = {a: truncated for a in agents}
        if terminated or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """ANSI: the game's text of the spectator's observation (no seat is singled out in a parallel step)."""
        if self.render_mode is None:
            return None
        return self.game.render(self.state.observe(None))

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ what each agent receives
    def _mask(self, seat: int) -> NDArray[np.int8]:
        return self._masks.mask(self.state, seat) if seat in self.state.to_act() else self._no_mask

    def _observations(self) -> dict[str, Any]:
        state = self.state
        return {
            agent: {
                "observation": self.encoder.encode_state(state, self._seat_of[agent]),
                "action_mask": self._mask(self._seat_of[agent]).copy(),
            }
            for agent in self.agents
        }

    def _infos(self) -> dict[str, Any]:
        to_act = self.state.to_act() if not self.state.is_terminal() else ()
        return {
            agent: {"action_mask": self._mask(self._seat_of[agent]), "to_act": self._seat_of[agent] in to_act}
            for agent in self.agents
        }

    def _asked_names(self, seats: tuple[int, ...]) -> str:
        return ", ".join(self.possible_agents[s] for s in seats)


def parallel_env(game_name: str, players: int = 2, **options: Any) -> raw_parallel_env:
    """The parallel environment of ``game_name`` at ``players`` seats (``render_mode`` and ``max_steps`` are the
    environment's; every other keyword is a game option)."""
    return raw_parallel_env(game_name, players, **options)
