"""Gymnasium single-agent environments: one seat of an Oakwood game against chosen opponent agents.

Registered on import as ``oakwood/Squarrels-v0``, ``oakwood/Barrell-v0`` and ``oakwood/Nutty-v0`` (keywords
``players``, ``opponents``, ``options``, ``seat``)::

    import gymnasium, oakwood.rl.gymnasium
    env = gymnasium.make("oakwood/Squarrels-v0", players=4, opponents="medium")

Opponents (``oakwood.rl.opponents``) are bot names or difficulty levels, agent objects (anything with
``act(view)``), policies ``(observation tensor, bool mask) -> codec index``, or a :class:`~oakwood.rl.opponents.Pool`
of these drawn from at every reset (self-play against frozen copies); one for every other seat, or a list of one
per other seat in seat order. They act through ``PlayerView.for_agent`` exactly as in ``arena/match.py``: every
seat of a commit answers before any answer is applied, race answers land in order of reaction delay (ties in a
seeded order), the learner's answer carrying the default delay.

The observation is a dict ``{"observation": float32 tensor of observe(seat), "action_mask": int8 mask}``, or with
``obs_type="tensor"`` the tensor alone; the mask is also ``info["action_mask"]`` and, as a bool array,
:meth:`OakwoodEnv.action_masks` (what sb3-contrib's MaskablePPO calls). The reward is 0 until the end, then the
seat's win share (``reward="win_share"``) or its zero-sum form (``reward="zero_sum"``, see :data:`REWARDS`). An
illegal action raises ``ValueError`` naming it. The action space is a :class:`LegalDiscrete`: its ``sample()``
without a mask draws a legal action of the current position. Episodes are truncated after ``max_episode_steps``
learner decisions: the game's own bound when it has one (:func:`episode_step_bound`), else 20,000.

``illegal_action="lose"`` is for tools that play any action of the space without reading the mask (Gymnasium's
own ``check_env`` steps, after a reset, an action it sampled before that reset): an illegal action then ends the
episode at once with reward -1 and the refusal in ``info["illegal_action"]``. It is never remapped to a legal one.

``mask_end_game_while_moves_remain=True`` (Nutty Squirrels only) is a **training aid**, not a rule: the learner's
mask hides "end game" while any other move is legal, so random exploration does not end a solo game at its first
decision. The game's rule is unchanged (the opponents and the engine still allow it).

This module also holds what both adapters share: the observation space, the mask, and action decoding.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

import oakwood
from oakwood.arena.match import DEFAULT_RACE_DELAY
from oakwood.arena.race import race_order
from oakwood.engine import Decision, Game, Rng, State
from oakwood.engine.agent import Choice, PlayerView, as_choice

from .common import observation_encoder
from .opponents import Opponent, PolicyAgent, check_opponent, describe, materialise
from .tensors import Encoder

#: Registered environment ids and their games.
ENVIRONMENTS = {"oakwood/Squarrels-v0": "squarrels", "oakwood/Barrell-v0": "barrell", "oakwood/Nutty-v0": "nutty"}

#: The learner's decisions before an episode is truncated (far beyond any real game).
DEFAULT_MAX_STEPS = 20_000

#: What an illegal action does: raise ``ValueError`` (the default), or end the episode as a loss.
ILLEGAL_ACTION_RULES = ("raise", "lose")

#: Opponent moves in a row before the environment gives up (a rules bug, never a real game).
MAX_OPPONENT_STEPS = 1_000_000

#: What the learner observes: ``{"observation", "action_mask"}`` (the default) or the tensor alone (a ``Box``, the
#: mask then from :meth:`OakwoodEnv.action_masks` and ``info["action_mask"]``: what sb3's ``MlpPolicy`` takes).
OBS_TYPES = ("dict", "tensor")

#: The learner's reward at the end (0 before): ``win_share`` is ``state.returns()``, 1 to a sole winner, split on
#: a shared win, 0 to the others (sums to 1); ``zero_sum`` is ``(n * share - 1) / (n - 1)`` at ``n`` seats: +1 to a
#: sole winner, -1/(n-1) to each loser (±1 at two seats; a draw 0), summing to 0; solo: +1 a win, -1 a loss.
REWARDS = ("win_share", "zero_sum")

Observation = dict[str, NDArray[Any]]


# ---------------------------------------------------------------------- shared by both adapters
def observation_space(encoder: Encoder, num_actions: int) -> spaces.Dict:
    """The observation space of both adapters: the tensor, within its fields' bounds, and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(*encoder.bounds(), shape=(encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8),
        }
    )


class MaskCache:
    """Read-only action masks of legal-action tuples, found by the tuple's identity.

    The games hand out memoised legal tuples (S'Quarrels shares them between states), so most steps find their
    mask without building it. Each entry keeps its tuple alive, so no other object can take its ``id`` while the
    entry exists; the cache is emptied when it reaches ``limit`` entries. A mask that must be built finds each
    action's codec index by the action's identity first: the games hand out the codec's own action objects
    (Barrell and Nutty build them once, at import), and hashing a dataclass action costs more than the lookup.

    A tuple built afresh at every step (Barrell's) is found a second way: by the identities of its actions, when
    every one of them is one of the codec's own objects. The codec keeps those alive, so no other live object can
    have one of their ids: the same ids are the same actions, and the same mask.
    """

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._masks: dict[int, tuple[tuple[Hashable, ...], NDArray[np.int8]]] = {}
        self._by_ids: dict[tuple[int, ...], NDArray[np.int8]] = {}
        self._codec_actions: Sequence[Hashable] = ()
        self._index_by_id: dict[int, int] = {}

    def mask(self, state: State, seat: int) -> NDArray[np.int8]:
        """The mask of ``seat``'s legal actions now (read-only: copy it before changing it)."""
        legal = state.legal_actions(seat)
        found = self._masks.get(id(legal))
        if found is not None and found[0] is legal:
            return found[1]
        codec = state.game.codec
        actions = codec.actions
        if actions is not self._codec_actions:  # the codec holds its actions, so their ids stay theirs
            self._codec_actions = actions
            self._index_by_id = {id(action): i for i, action in enumerate(actions)}
            self._by_ids.clear()  # ids of another codec's actions: that codec no longer keeps them alive here
        ids = tuple(map(id, legal))
        known = self._by_ids.get(ids)
        if known is not None:  # stored only for the codec's own actions (below): these very actions
            self._remember(legal, known)
            return known
        # Two live objects never share an id, and both the codec and ``legal`` keep theirs alive: an id found
        # is the codec's own action. -1 marks an equal action built elsewhere, found by value.
        by_id = self._index_by_id
        indices = [by_id.get(i, -1) for i in ids]
        own = -1 not in indices
        if not own:
            indices = [i if i >= 0 else codec.index[action] for i, action in zip(indices, legal, strict=True)]
        flags = bytearray(len(actions))
        for i in indices:
            flags[i] = 1
        mask = np.frombuffer(bytes(flags), dtype=np.int8)  # read-only, as it is over immutable bytes
        if own:
            if len(self._by_ids) >= self.limit:
                self._by_ids.clear()
            self._by_ids[ids] = mask
        self._remember(legal, mask)
        return mask

    def _remember(self, legal: tuple[Hashable, ...], mask: NDArray[np.int8]) -> None:
        """Keep ``mask`` for this very tuple (found by its identity next time)."""
        if len(self._masks) >= self.limit:
            self._masks.clear()
        self._masks[id(legal)] = (legal, mask)


def decode_action(game: Game[Any], state: State, seat: int, action: object) -> Hashable:
    """The game action of codec index ``action`` for ``seat``; ``ValueError`` naming it when it is not legal.

    An index is an int, a numpy integer or, as ``Discrete.contains`` allows, a 0-d integer array (what an sb3
    model's ``predict`` returns for one observation)."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise ValueError(f"action {action!r} is not a codec index (an int in 0..{game.num_actions - 1})")
    index = int(action)
    if not 0 <= index < game.num_actions:
        raise ValueError(f"action {index} is outside 0..{game.num_actions - 1} for {game.name}")
    decoded = game.decode(index)
    legal = state.legal_actions(seat)
    if decoded not in legal:
        codes = ", ".join(str(game.encode(a)) for a in legal)
        raise ValueError(f"action {index} ({decoded}) is not legal for seat {seat} now; legal: {codes}")
    return decoded


class LegalDiscrete(spaces.Discrete):
    """``Discrete(num_actions)`` whose ``sample()`` without a mask draws among the legal actions of the current
    position (read through ``current_mask``), so generic tools that sample actions play legal ones."""

    def __init__(self, n: int, current_mask: Callable[[], NDArray[np.int8]]) -> None:
        super().__init__(n)
        self._current_mask = current_mask

    def sample(self, mask: NDArray[np.int8] | None = None, probability: NDArray[np.int8] | None = None) -> np.int64:
        """A random action: among ``mask`` when given, else among the current legal actions."""
        if mask is None and probability is None:
            current = self._current_mask()
            if current.any():
                mask = current
        return super().sample(mask=mask, probability=probability)


# ---------------------------------------------------------------------- the environment
class OakwoodEnv(gymnasium.Env[Observation | NDArray[np.float32], np.int64]):
    """One seat of an Oakwood game against opponent agents (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's class attribute)

    def __init__(
        self,
        game: str,
        players: int = 2,
        opponents: Opponent | Sequence[Opponent] = "random",
        options: dict[str, Any] | None = None,
        seat: int = 0,
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal_action: str = "raise",
        obs_type: str = "dict",
        reward: str = "win_share",
        mask_end_game_while_moves_remain: bool = False,
    ) -> None:
        if illegal_action not in ILLEGAL_ACTION_RULES:
            raise ValueError(f"illegal_action {illegal_action!r}: choose from {ILLEGAL_ACTION_RULES}")
        if obs_type not in OBS_TYPES:
            raise ValueError(f"obs_type {obs_type!r}: choose from {OBS_TYPES}")
        if reward not in REWARDS:
            raise ValueError(f"reward {reward!r}: choose from {REWARDS}")
        self.illegal_action = illegal_action
        self.obs_type = obs_type
        self.reward = reward
        self.game: Game[Any] = oakwood.load(game, **(options or {}))
        if not self.game.min_players <= players <= self.game.max_players:
            raise ValueError(
                f"{self.game.title} takes {self.game.min_players}–{self.game.max_players} players, not {players}"
            )
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player game")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r}: choose from {self.metadata['render_modes']} or None (sb3's "
                "make_vec_env asks for 'rgb_array' unless env_kwargs holds render_mode=None)"
            )
        # One opponent for every other seat, unless a list or tuple names one per other seat (a Pool is one
        # opponent: it is drawn from, not spread over the seats).
        per_seat = isinstance(opponents, list | tuple)
        chosen: list[Opponent] = list(opponents) if per_seat else [opponents] * (players - 1)
        if len(chosen) != players - 1:
            raise ValueError(
                f"{len(chosen)} opponents for the {players - 1} other seats: a list gives one per other seat in "
                "seat order; to draw each episode's opponent from several, pass oakwood.rl.opponents.Pool([...])"
            )
        others = [s for s in range(players) if s != seat]
        for other, opponent in zip(others, chosen, strict=True):
            check_opponent(self.game, opponent, f"the opponent at seat {other}")
        self.players = players
        self.seat = seat
        self.opponents: list[Opponent] = chosen
        self.render_mode = render_mode
        bound = episode_step_bound(self.game, players)
        #: The learner's decisions before truncation: the game's own bound when it has one, else a cap far beyond
        #: any real game (``max_steps`` overrides both).
        self.max_episode_steps = max_steps if max_steps is not None else bound or DEFAULT_MAX_STEPS
        self.max_steps = self.max_episode_steps  # the keyword's name, kept for earlier callers
        self.encoder = observation_encoder(self.game, players)
        self._end_game = end_game_index(self.game) if mask_end_game_while_moves_remain else None
        if mask_end_game_while_moves_remain and self._end_game is None:
            raise ValueError(
                f"mask_end_game_while_moves_remain: {self.game.title} has no 'end game' action (it is a training "
                "aid for Nutty Squirrels solo)"
            )
        self.mask_end_game_while_moves_remain = mask_end_game_while_moves_remain
        full = observation_space(self.encoder, self.game.num_actions)
        self.observation_space = full if obs_type == "dict" else full["observation"]  # type: ignore[assignment]
        self.action_space = LegalDiscrete(self.game.num_actions, self._current_mask)
        self.state: State = self.game.new_state(players, 0)
        self.agents: dict[int, Any] = {}
        self._policies: dict[int, PolicyAgent] = {}
        self._masks = MaskCache()
        self._no_actions = np.zeros(self.game.num_actions, dtype=np.int8)
        self._no_actions.flags.writeable = False
        self._tie_rng = Rng(0)
        self._world_rng = Rng(0)
        self._steps = 0
        self._forfeited = False

    @property
    def opponent_names(self) -> list[str]:
        """Each other seat's opponent as text (bot names as they are)."""
        return [o if isinstance(o, str) else describe(o) for o in self.opponents]

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal codec indices now, as a new bool array: what sb3-contrib's MaskablePPO asks for
        (``get_action_masks``) and the same as ``info["action_mask"]`` (all False once the episode is over)."""
        return self._current_mask().astype(np.bool_)

    # ------------------------------------------------------------------ the Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation | NDArray[np.float32], dict[str, Any]]:
        """A new match (the same one for the same ``seed``), played by the opponents up to the learner's turn."""
        self.start(seed)
        return self._observation(), self._info()

    def start(self, seed: int | None = None) -> None:
        """What :meth:`reset` does, without building the observation (the batched environment writes it)."""
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(2**63))
        self.state = self.game.new_state(self.players, match_seed)
        self.state.record_events = False
        others = [s for s in range(self.players) if s != self.seat]
        self.agents = {
            s: materialise(self.game, opponent, self.encoder, self.np_random, self._policies)
            for s, opponent in zip(others, self.opponents, strict=True)
        }
        self._tie_rng = Rng(match_seed ^ 0x5EED)  # as arena/match.py
        self._world_rng = Rng(match_seed ^ 0x3A7D)
        self._steps = 0
        self._forfeited = False
        self._play_opponents()

    def step(self, action: Any) -> tuple[Observation | NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action`` (a codec index), then the opponents up to its next decision."""
        reward, terminated, truncated, refusal = self.advance(action)
        info = self._info()
        if refusal is not None:
            info["illegal_action"] = refusal
        return self._observation(), reward, terminated, truncated, info

    def advance(self, action: Any) -> tuple[float, bool, bool, str | None]:
        """What :meth:`step` does, without building the observation: the reward, terminated, truncated, and the
        refusal of an illegal action in ``illegal_action="lose"`` mode (else ``None``)."""
        state = self.state
        if state.is_terminal() or self._forfeited:
            raise ValueError(f"action {action!r}: the episode is over; call reset()")
        try:
            chosen = decode_action(self.game, state, self.seat, action)
            if self._end_game is not None and int(action) == self._end_game and len(state.legal_actions(self.seat)) > 1:
                raise ValueError(
                    f"action {int(action)} (end game) is masked while other moves remain "
                    "(mask_end_game_while_moves_remain=True, a training aid)"
                )
        except ValueError as refusal:
            if self.illegal_action == "raise":
                raise
            self._forfeited = True
            return -1.0, True, False, str(refusal)
        self._steps += 1
        seats = state.to_act()
        if state.decision is Decision.TURN or len(seats) == 1:
            state.apply(self.seat, chosen)
        else:
            self._answer_together(seats, Choice(chosen, DEFAULT_RACE_DELAY))
        self._play_opponents()
        terminated = state.is_terminal()
        reward = self._reward(state.returns()) if terminated else 0.0
        truncated = not terminated and self._steps >= self.max_steps
        return reward, terminated, truncated, None

    def render(self) -> str | None:
        """ANSI: the game's text of the learner's observation."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; make the environment with render_mode='ansi'")
            return None
        return self.game.render(self.state.observe(self.seat))

    # ------------------------------------------------------------------ the opponents, as arena/match.py
    def _play_opponents(self) -> None:
        """Let the opponents act until the learner is to act or the match is over."""
        state = self.state
        for _ in range(MAX_OPPONENT_STEPS):
            if state.is_terminal() or self.seat in state.to_act():
                return
            seats = state.to_act()
            if state.decision is Decision.TURN or len(seats) == 1:
                seat = seats[0]
                agent = self.agents[seat]
                answer = agent.act(PlayerView.for_agent(state, seat, agent, self._world_rng))
                state.apply(seat, as_choice(answer, 0.0).action)
            else:
                self._answer_together(seats, None)
        raise RuntimeError(f"the opponents made {MAX_OPPONENT_STEPS} moves in a row")

    def _answer_together(self, seats: tuple[int, ...], learner: Choice | None) -> None:
        """A commit or race: every listed seat answers before any answer lands, then they land in match order."""
        state = self.state
        decision = state.decision
        views = [PlayerView.for_agent(state, s, self.agents[s], self._world_rng) for s in seats if s != self.seat]
        answers = [as_choice(self.agents[view.seat].act(view), DEFAULT_RACE_DELAY) for view in views]
        order_seats = [view.seat for view in views]
        if learner is not None:
            answers.append(learner)
            order_seats.append(self.seat)
        for i in race_order(answers, self._tie_rng):
            seat = order_seats[i]
            if state.is_terminal() or state.decision is not decision:
                break  # the race was won: the remaining answers belonged to a decision that is over
            if seat not in state.to_act():
                continue
            state.apply(seat, answers[i].action)

    # ------------------------------------------------------------------ what the learner receives
    def observe_into(self, tensor: NDArray[np.float32], mask: NDArray[np.int8]) -> None:
        """Write the learner's observation tensor and mask into ``tensor`` and ``mask`` (rows of the batched
        environment's arrays): the same numbers as :meth:`step` returns, with no new arrays."""
        self.encoder.fill_state(self.state, self.seat, tensor)
        mask[:] = self._current_mask()

    def _current_mask(self) -> NDArray[np.int8]:
        """The learner's mask now (read-only, shared: copy it before changing it); all 0 after a forfeit."""
        if self._forfeited:
            return self._no_actions
        mask = self._masks.mask(self.state, self.seat)
        end = self._end_game
        if end is not None and mask[end] and mask.sum() > 1:  # the training aid: "end game" while moves remain
            mask = mask.copy()
            mask[end] = 0
        return mask

    def _observation(self) -> Observation | NDArray[np.float32]:
        tensor = self.encoder.encode_state(self.state, self.seat)
        if self.obs_type == "tensor":
            return tensor
        return {"observation": tensor, "action_mask": self._current_mask().copy()}  # fresh: Gymnasium's checker asks it

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._current_mask().copy()}

    def _reward(self, returns: list[float]) -> float:
        """The learner's reward at the end: its win share, or the zero-sum form of it (see ``REWARDS``)."""
        share = returns[self.seat]
        if self.reward == "win_share":
            return share
        if self.players == 1:
            return 2.0 * share - 1.0
        return (self.players * share - 1.0) / (self.players - 1)


def make_vector(game: str, n: int, **kwargs: Any) -> gymnasium.vector.SyncVectorEnv:
    """``n`` copies of the environment of ``game`` (same keywords as :class:`OakwoodEnv`) stepped together.

    Auto-reset is Gymnasium's ``SAME_STEP`` mode: the step that ends an episode returns the next episode's first
    observation (a mask with a legal action) and puts the last one in ``info["final_obs"]`` (with
    ``info["final_info"]``). Gymnasium's default, ``NEXT_STEP``, would hand out the final observation, whose mask
    is all 0, and ignore the next action: sampling code breaks on such a mask.
    """

    def make() -> OakwoodEnv:
        return OakwoodEnv(game, **kwargs)

    return gymnasium.vector.SyncVectorEnv(
        [make for _ in range(n)], autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP
    )


def episode_step_bound(game: Game[Any], players: int) -> int | None:
    """The most decisions an episode of ``game`` can ask of one seat, when the rules bound it, else ``None``.

    Only Nutty Squirrels solo has such a bound: the game ends after ``solo_max_actions`` decisions (NS-17g), all
    of them the one player's. The other games end on points, with no cap on their length.
    """
    if players == 1 and hasattr(game.options, "solo_max_actions"):
        return int(game.options.solo_max_actions)
    return None


def end_game_index(game: Game[Any]) -> int | None:
    """The codec index of the game's "end game" action (Nutty Squirrels solo), or ``None`` when it has none."""
    for i, action in enumerate(game.codec.actions):
        if str(action) == "end game":
            return i
    return None


def register() -> None:
    """Register the three environments with Gymnasium (done on import; repeating it is harmless)."""
    for env_id, game in ENVIRONMENTS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point=f"{__name__}:OakwoodEnv",
                vector_entry_point="oakwood.rl.vector:OakwoodVectorEnv",  # make_vec's default: the batched env
                kwargs={"game": game},
            )


register()
