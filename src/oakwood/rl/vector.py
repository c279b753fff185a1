"""A batched Gymnasium vector environment: N games of one seat against opponents, stepped by one call.

:class:`OakwoodVectorEnv` follows Gymnasium's ``VectorEnv`` API (``reset``, ``step``, ``single_*_space``,
batched spaces) and is the registered environments' ``vector_entry_point``, so
``gymnasium.make_vec("oakwood/Barrell-v0", num_envs=8, players=2)`` builds it. Unlike ``SyncVectorEnv`` it
writes every game's tensor and mask straight into rows of preallocated arrays (no per-game observation dict,
no per-game info dict to merge), so the per-step cost is the games' own.

Auto-reset is Gymnasium's ``SAME_STEP`` mode: the step that ends a game returns the next game's first
observation, whose mask always has a legal action, and puts the last observation in ``info["final_obs"]`` (an
object array, ``None`` for games that went on, with ``info["_final_obs"]`` marking the finished ones) and the
last info in ``info["final_info"]``. ``info["action_mask"]`` is the stacked int8 masks, the same as the
observation's; :meth:`OakwoodVectorEnv.action_masks` gives them as bool.

Each game continues its own generator across auto-resets, so ``reset(seed=s)`` fixes every later game too
(game ``i`` is seeded ``s + i``, as in ``SyncVectorEnv``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from .gymnasium import OakwoodEnv


class OakwoodVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``game`` (keywords as :class:`~oakwood.rl.gymnasium.OakwoodEnv`) stepped together.

    ``copy=True`` (the default) returns new arrays at every call; ``copy=False`` returns the environment's own
    buffers, which the next call overwrites (faster, for a learner that copies what it keeps)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, game: str, num_envs: int, *, copy: bool = True, **kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        self.envs = [OakwoodEnv(game, **kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.copy = copy
        self.obs_type = first.obs_type
        self.render_mode = first.render_mode
        self.single_observation_space = first.observation_space
        self.single_action_space = spaces.Discrete(first.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._tensors = np.zeros((num_envs, first.encoder.size), dtype=np.float32)
        self._masks = np.zeros((num_envs, first.game.num_actions), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._started = False

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a game in every slot: ``seed`` an int (game ``i`` gets ``seed + i``), one per game, or ``None``."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        for i, env in enumerate(self.envs):
            env.start(seeds[i])
            env.observe_into(self._tensors[i], self._masks[i])
        self._started = True
        return self._observation(), self._info()

    def step(
        self, actions: Any
    ) -> tuple[Any, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Play one action in every game (codec indices, shape ``(num_envs,)``); finished games start anew."""
        if not self._started:
            raise ValueError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"actions of shape {chosen.shape}: one codec index per game, ({self.num_envs},)")
        info: dict[str, Any] = {}
        tensors, masks = self._tensors, self._masks
        for i, env in enumerate(self.envs):
            reward, terminated, truncated, refusal = env.advance(chosen[i])
            self._rewards[i] = reward
            self._terminated[i] = terminated
            self._truncated[i] = truncated
            if terminated or truncated:
                # Rare (once a game): the per-game dicts Gymnasium's vector API asks for, built only here.
                final_info: dict[str, Any] = {"action_mask": env._current_mask().copy()}
                if refusal is not None:
                    final_info["illegal_action"] = refusal
                info = self._add_info(info, {"final_obs": env._observation(), "final_info": final_info}, i)
                env.start(None)  # the game's own generator goes on: seeded once, seeded for good
            env.observe_into(tensors[i], masks[i])
        return (
            self._observation(),
            self._out(self._rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            {
                **info,
                **self._info(),
            },
        )

    def action_masks(self) -> NDArray[np.bool_]:
        """Every game's legal codec indices now, shape ``(num_envs, num_actions)`` (never a row without one)."""
        return self._masks.astype(np.bool_)

    def render(self) -> tuple[Any, ...] | None:
        """Each game's :meth:`~oakwood.rl.gymnasium.OakwoodEnv.render`."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; make the environment with render_mode='ansi'")
            return None
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games are plain objects."""

    def _out(self, array: NDArray[Any]) -> NDArray[Any]:
        return array.copy() if self.copy else array

    def _observation(self) -> Any:
        if self.obs_type == "tensor":
            return self._out(self._tensors)
        return {"observation": self._out(self._tensors), "action_mask": self._out(self._masks)}

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._masks.copy(), "_action_mask": np.ones(self.num_envs, dtype=np.bool_)}
