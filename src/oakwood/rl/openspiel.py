"""OpenSpiel games for Oakwood: ``python_oakwood_squarrels``, ``python_oakwood_barrell`` and ``python_oakwood_nutty``.

Importing this module registers the three games with ``pyspiel`` (as OpenSpiel's own ``open_spiel.python.games``
modules do), so ``pyspiel.load_game("python_oakwood_barrell", {"players": 4})`` works afterwards. Game parameters:
``players``, ``seed``, ``num_seeds``, ``turn_based`` and every option of the game as a string
(``{"hoard_race": "realtime"}``), converted by the game's ``Options.from_strings``.

How the engine's decisions map onto OpenSpiel's nodes:

- **Chance.** An Oakwood game draws every random outcome from its own generator, seeded once. That generator is
  not split into explicit chance nodes: a deal is dozens of shuffles deep inside the rules, and making each draw a
  chance node would mean rewriting the rules. Instead the seed is the game's one explicit chance outcome: the
  initial state is a chance node over ``num_seeds`` seeds (4,096 by default: thousands of different deals, while
  the root's outcome list, which OpenSpiel's tools enumerate and name one by one, stays cheap), after which the
  game is deterministic given its seed. The seed is never shown to a seat, so a seat's information state holds
  only what the rules show it. ``seed >= 0`` skips the chance node and deals that seed (reproducible tests and matches).
- **Commit decisions** (several seats choose in secret) are simultaneous nodes (``PlayerId.SIMULTANEOUS``): every
  listed seat picks from its legal actions, the others have none (and pass 0, OpenSpiel's convention), and the
  engine applies the choices in seat order, which reveals nothing since it resolves only at the last commit.
  OpenSpiel's random simulation test refuses simultaneous nodes in a game of ``Dynamics.SEQUENTIAL``, so the
  default form of each game is ``Dynamics.SIMULTANEOUS`` (which OpenSpiel defines as "some or all moves are
  simultaneous": ordinary turns stay single-player nodes).
- **Races** (the first ``slap`` wins, ``pass`` drops out) are answered at a simultaneous node too; then the
  answers land one at a time, and which one lands next is a chance outcome, uniform over the answers not yet
  landed. That is the arena's rule (``oakwood.arena.match``: answers ordered by reaction delay, equal delays in
  a seeded random order) with every delay equal, since OpenSpiel's agents have no reaction time. Once the race
  is over (a slap won, or the race ended), the answers that had not landed are discarded, as in the arena.
- **The turn-based form** (``turn_based=True``, ``Dynamics.SEQUENTIAL``) is for algorithms that need sequential
  dynamics, such as OpenSpiel's ISMCTS: at a commit the listed seats choose one at a time in seat order, each
  choice going straight into the engine, which keeps it hidden until the last; at a race each seat answers in
  turn, the answers are held back unseen, and the same chance nodes order them. It is the game
  ``pyspiel.convert_to_turn_based`` would make, done here so that its states can still be resampled.

Observations and information states come from ``observe(seat)`` and nothing else: the observation string is
the observation as canonical JSON, the information-state string is every event the seat has seen
(``events_seen_by(seat)``), one JSON line each, then its observation (and, in the turn-based form, its own race
answer still held back). The observation tensor is the game's encoder (``oakwood.rl.tensors.encoder_for``) when it
has one, else :class:`~oakwood.rl.common.CommonEncoder` over the observation's common keys. There is no
information-state tensor: the observation carries what a seat has learnt (the engine's perfect-recall
knowledge), but not the order of events, and a tensor claiming to be the information state would be wrong.

:class:`Resampler` turns ``determinize`` into the resampler OpenSpiel's ISMCTS bot takes (``set_resampler``), and
:func:`ismcts_bot` builds that bot, optionally with a time budget per move.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]  # pyspiel ships no type information
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

import oakwood
from oakwood.engine import Decision, State

from .common import CommonEncoder, observation_encoder

#: The Oakwood games this module registers with OpenSpiel.
GAMES = ("squarrels", "barrell", "nutty")
#: The seeds the initial chance node chooses from, unless the ``num_seeds`` parameter says otherwise.
DEFAULT_NUM_SEEDS = 1 << 12
#: A bound on the nodes of one game (OpenSpiel's ``max_game_length``). Not a proven bound: about 15 times the
#: longest random four-seat S'Quarrels match measured under the default options (about 1,300 actions).
MAX_GAME_LENGTH = 20_000
#: Chance outcomes are seeds at the root and seats while a race resolves.
_MAX_SEATS = 6

_DECISIONS = tuple(Decision)


def short_name(game_name: str) -> str:
    """The OpenSpiel name of an Oakwood game: ``python_oakwood_<name>``."""
    return f"python_oakwood_{game_name}"


def parameter_specification(game_name: str) -> dict[str, Any]:
    """The parameters of a game and their defaults: the table size and seeding, then every option as text."""
    game_class = oakwood.load(game_name)
    spec: dict[str, Any] = {
        "players": max(2, game_class.min_players),
        "seed": -1,
        "num_seeds": DEFAULT_NUM_SEEDS,
        "turn_based": False,
    }
    for name, value in game_class.options.to_dict().items():
        spec[name] = str(value).lower() if isinstance(value, bool) else str(value)
    return spec


def game_type(game_name: str, *, turn_based: bool = False) -> pyspiel.GameType:
    """The OpenSpiel game type of an Oakwood game, in its simultaneous (default) or turn-based form."""
    game = oakwood.load(game_name)
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=short_name(game_name),
        long_name=f"Oakwood {game.title}",
        dynamics=dynamics.SEQUENTIAL if turn_based else dynamics.SIMULTANEOUS,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # Returns are win shares (1 to a sole winner, split on a tie); a solo game or a game nobody wins is not
        # constant-sum.
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=parameter_specification(game_name),
    )


def _canonical(data: Any) -> str:
    """One line of canonical JSON (sorted keys, no spaces): equal data, equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


# ====================================================================== the game
class OakwoodGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One Oakwood game at one table size as an OpenSpiel game (see the module docstring)."""

    def __init__(self, game_name: str, params: Mapping[str, Any] | None = None) -> None:
        spec = parameter_specification(game_name)
        values = {**spec, **(params or {})}
        defaults = oakwood.load(game_name).options.to_dict()
        changed = {name: str(values[name]) for name in defaults if str(values[name]) != spec[name]}
        options_class = type(oakwood.load(game_name).options)
        self.oakwood = oakwood.load(game_name, **options_class.from_strings(changed).changed())
        self.players = int(values["players"])
        if not self.oakwood.min_players <= self.players <= self.oakwood.max_players:
            raise ValueError(
                f"{self.oakwood.title} takes {self.oakwood.min_players}–{self.oakwood.max_players} players"
            )
        self.seed = int(values["seed"])
        self.num_seeds = int(values["num_seeds"])
        if self.seed < 0 and self.num_seeds < 1:
            raise ValueError("num_seeds must be positive when no seed is given")
        self.turn_based = bool(values["turn_based"])
        self.encoder = observation_encoder(self.oakwood, self.players)
        self.public_encoder = CommonEncoder(self.oakwood, self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.oakwood.num_actions,
            max_chance_outcomes=max(self.num_seeds if self.seed < 0 else 1, _MAX_SEATS),
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(game_name, turn_based=self.turn_based), info, dict(values))

    def new_initial_state(self) -> OakwoodState:
        """The start: a chance node choosing the seed, or the deal of the ``seed`` parameter."""
        engine = None if self.seed < 0 else self.oakwood.new_state(self.players, self.seed)
        return OakwoodState(self, _Position(self, engine))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> OakwoodObserver:
        """An observer (OpenSpiel's PyObserver interface) for the requested kind of view."""
        return OakwoodObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _Position:
    """Everything an :class:`OakwoodState` holds, behind one attribute.

    OpenSpiel clones a Python state with ``copy.deepcopy``; this object answers that with the engine's cheap
    ``clone()`` (a deepcopy of the engine state would copy the game and walk its persistent chains).
    """

    __slots__ = ("answers", "engine", "game", "inherited", "seen")

    def __init__(
        self,
        game: OakwoodGame,
        engine: State | None,
        inherited: tuple[str, ...] | None = None,
        answers: dict[int, int] | None = None,
    ) -> None:
        self.game = game
        self.engine = engine
        # What each seat (and, last, a spectator) had seen before the engine's own event log starts: empty for a
        # true state, the truth's record for a world (whose engine log starts empty: see State.determinize).
        self.inherited = inherited or ("",) * (game.players + 1)
        # Race answers given and not yet landed, by seat: codec indices.
        self.answers = answers or {}
        # Event records built when asked, by seat (None: spectator): how many engine events they cover, and the text.
        self.seen: dict[int | None, tuple[int, str]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        twin = _Position(self.game, None if self.engine is None else self.engine.clone(), self.inherited)
        twin.answers = dict(self.answers)
        twin.seen = dict(self.seen)
        return twin

    def seen_by(self, seat: int | None) -> str:
        """Every event ``seat`` has seen, one canonical JSON line each (inherited lines first)."""
        assert self.engine is not None
        count, text = self.seen.get(seat, (0, self.inherited[self.game.players if seat is None else seat]))
        fresh = self.engine.events_seen_by(seat, since=count)
        if fresh:
            # The engine's log only grows, and a clone shares its past, so the record is extended, never rebuilt.
            text += "".join(_canonical(event) + "\n" for event in fresh)
            self.seen[seat] = (count + len(fresh), text)
        return text

    def land(self, seat: int, index: int) -> None:
        """Apply one race answer; once the race is over, the answers still waiting are discarded."""
        engine = self.engine
        assert engine is not None
        before = engine.to_act()
        if not engine.is_terminal() and seat in before:  # else a stale answer, skipped as the arena does
            engine.apply_index(seat, index)
            expected = set(before) - {seat}  # the race goes on with exactly the seats still to answer
            if engine.is_terminal() or engine.decision is not Decision.RACE or set(engine.to_act()) != expected:
                self.answers.clear()
        if len(self.answers) == 1:  # the last answer needs no chance node to say when it lands
            ((last, last_index),) = self.answers.items()
            self.answers.clear()
            self.land(last, last_index)

    def apply(self, seat: int, index: int) -> None:
        """Apply a seat's own action (a turn, or one commit)."""
        assert self.engine is not None
        self.engine.apply_index(seat, index)


class OakwoodState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """An OpenSpiel state wrapping one Oakwood engine state (see the module docstring for the node kinds)."""

    def __init__(self, game: OakwoodGame, position: _Position) -> None:
        super().__init__(game)
        self._position = position

    # ------------------------------------------------------------------ reading
    @property
    def oakwood_state(self) -> State | None:
        """The engine state (None before the seed is chosen): the whole truth, for a referee, never a player."""
        return self._position.engine

    def _resolving_race(self) -> bool:
        """Whether race answers are waiting for a chance node to say which lands next."""
        position = self._position
        engine = position.engine
        return bool(position.answers) and engine is not None and all(s in position.answers for s in engine.to_act())

    def _is_simultaneous(self) -> bool:
        engine = self._position.engine
        assert engine is not None
        return (
            not self._position.game.turn_based
            and engine.decision in (Decision.COMMIT, Decision.RACE)
            and len(engine.to_act()) > 1
        )

    def current_player(self) -> int:
        """The seat to act, or CHANCE, SIMULTANEOUS or TERMINAL."""
        engine = self._position.engine
        if engine is None or self._resolving_race():
            return int(pyspiel.PlayerId.CHANCE)
        if engine.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._is_simultaneous():
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return min(s for s in engine.to_act() if s not in self._position.answers)  # several: seat order

    def _legal_actions(self, player: int) -> list[int]:
        """The codec indices of ``player``'s legal actions, ascending (none for a seat that does not act)."""
        engine = self._position.engine
        if engine is None or player in self._position.answers:
            return []
        encode = engine.game.encode
        return sorted(encode(action) for action in engine.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The seeds at the start; while a race resolves, the seats whose answers have not landed yet."""
        if self._position.engine is None:
            count = self._position.game.num_seeds
            return [(seed, 1.0 / count) for seed in range(count)]
        waiting = sorted(self._position.answers)
        return [(seat, 1.0 / len(waiting)) for seat in waiting]

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        engine = self._position.engine
        return engine is not None and engine.is_terminal()

    def returns(self) -> list[float]:
        """Win shares: 1 to a sole winner, split on a tie, 0 otherwise (all 0 before the end)."""
        engine = self._position.engine
        return [0.0] * self._position.game.players if engine is None else engine.returns()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._position.engine is None:
                return f"seed {action}"
            return f"P{action + 1}'s answer lands"
        return str(self._position.game.oakwood.decode(action))

    def __str__(self) -> str:
        """The whole position in the game's notation (the truth: for debugging, never for a player)."""
        engine = self._position.engine
        return "(seed not chosen)" if engine is None else engine.to_notation()

    # ------------------------------------------------------------------ moving
    def _apply_action(self, action: int) -> None:
        position = self._position
        engine = position.engine
        if engine is None:
            position.engine = position.game.oakwood.new_state(position.game.players, int(action))
            return
        if self._resolving_race():
            position.land(int(action), position.answers.pop(int(action)))
            return
        seat = self.current_player()
        if engine.decision is Decision.RACE and len(engine.to_act()) > 1:
            position.answers[seat] = int(action)  # held back unseen until every listed seat has answered
            return
        position.apply(seat, int(action))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        position = self._position
        engine = position.engine
        assert engine is not None
        seats = engine.to_act()
        if engine.decision is Decision.RACE:
            position.answers = {seat: int(actions[seat]) for seat in seats}
            return  # chance nodes now say in which order they land
        for seat in seats:  # a commit: the engine reveals nothing until the last choice is in
            position.apply(seat, int(actions[seat]))

    # ------------------------------------------------------------------ strings
    def own_answer(self, seat: int) -> str:
        """The turn-based form's note of a race answer ``seat`` gave that has not landed yet (else empty)."""
        index = self._position.answers.get(seat)
        return "" if index is None else f"answered {self._position.game.oakwood.decode(index)}\n"


# ====================================================================== observer
class OakwoodObserver:
    """OpenSpiel's PyObserver for Oakwood: one observer for every view a seat (or the public) may have.

    ``perfect_recall`` adds the events seen to the string (the information state); ``private_info`` ``NONE``
    gives the public view (a spectator's observation and events), ``SINGLE_PLAYER`` the seat's own. No view
    shows every seat's private information.
    """

    def __init__(
        self, game: OakwoodGame, iig_obs_type: pyspiel.IIGObservationType, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an Oakwood observer never shows every seat's private information")
        if not iig_obs_type.public_info:
            raise ValueError("Oakwood observations always include the public information")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.public_only = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        self.encoder = game.public_encoder if self.public_only else game.encoder
        self.tensor = np.zeros(self.encoder.size, np.float32)
        # One entry: OpenSpiel copies every entry of ``dict`` into its tensor on every call (twice, with the
        # shape query), so one entry per layout field cost a quarter of a Barrell ``observation_tensor``. The
        # fields are the encoder's layout (``encoder.layout.field(name)`` gives a field's offset and size).
        self.dict = {"observation": self.tensor}

    def _viewer(self, player: int) -> int | None:
        return None if self.public_only else player

    def set_from(self, state: OakwoodState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s observation of ``state`` (zeros before the seed is chosen)."""
        engine = state.oakwood_state
        if engine is None:
            self.tensor.fill(0.0)
        else:
            self.encoder.fill_state(engine, self._viewer(player), self.tensor)

    def string_from(self, state: OakwoodState, player: int) -> str:
        """The observation (or, with perfect recall, the information state) of ``player`` as text."""
        engine = state.oakwood_state
        if engine is None:
            return "(seed not chosen)"
        viewer = self._viewer(player)
        observation = _canonical(engine.observe(viewer))
        if not self.perfect_recall:
            return observation
        answer = "" if viewer is None else state.own_answer(viewer)
        return state._position.seen_by(viewer) + answer + observation


# ====================================================================== resampling and ISMCTS
class Resampler:
    """OpenSpiel's ISMCTS resampler made from ``determinize``: ``resampler(state, seat)`` is a world for ``seat``.

    The world re-deals everything hidden from the seat (the engine's ``determinize``, drawn with this
    resampler's own seeded generator, never the match's); its record of what the seat has seen is the truth's,
    other seats get the public record, and other seats' race answers still held back are chosen again at random.
    So the world's information state for the seat is exactly the truth's, which ISMCTS checks.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: OakwoodState, seat: int) -> OakwoodState:
        position = state._position
        engine = position.engine
        if engine is None:
            raise ValueError("nothing to resample before the seed is chosen")
        world = engine.determinize(seat, self.rng)
        public = position.seen_by(None)
        inherited = tuple(position.seen_by(s) if s == seat else public for s in range(position.game.players))
        answers = {}
        for other in sorted(position.answers):
            if other == seat:
                answers[other] = position.answers[other]
            else:
                answers[other] = world.game.encode(self.rng.choice(world.legal_actions(other)))
        return OakwoodState(position.game, _Position(position.game, world, (*inherited, public), answers))


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]  # open_spiel ships no type information
    """OpenSpiel's ISMCTS bot with a time budget per move as well as its simulation budget.

    ``run_search`` is the library's, except that the loop also stops once ``seconds`` have passed (after at
    least one simulation).
    """

    def __init__(self, *args: Any, seconds: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.simulations = 0  # run by the last search

    def run_search(self, state: OakwoodState) -> list[tuple[int, float]]:
        """Search from ``state`` until a budget runs out; the final policy."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            self.simulations = 0
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        count = 0
        while count < self._max_simulations and (count == 0 or deadline is None or time.perf_counter() < deadline):
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled), "the resampled world shows the seat something else"
            self.run_simulation(sampled)
            count += 1
        self.simulations = count
        policy: list[tuple[int, float]] = self.get_final_policy(state, self._root_node)
        return policy


def ismcts_bot(
    game: OakwoodGame,
    *,
    seed: int = 0,
    max_simulations: int = 1000,
    seconds: float | None = None,
    uct_c: float = 2.0,
    evaluator: Callable[..., Any] | None = None,
) -> TimedISMCTSBot:
    """OpenSpiel's ISMCTS bot (random-rollout evaluator) on a turn-based Oakwood game, resampling with
    :class:`Resampler`. ``seconds`` adds a time budget per move to ``max_simulations``."""
    if not game.turn_based:
        raise ValueError("OpenSpiel's ISMCTS needs the turn-based form: load the game with turn_based=True")
    random_state = np.random.RandomState(seed)
    bot = TimedISMCTSBot(
        game,
        evaluator or mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state),
        uct_c,
        max_simulations,
        random_state=random_state,
        seconds=seconds,
    )
    bot.set_resampler(Resampler(seed))
    return bot


# ====================================================================== registration
class SquarrelsGame(OakwoodGame):
    """``python_oakwood_squarrels``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        super().__init__("squarrels", params)


class BarrellGame(OakwoodGame):
    """``python_oakwood_barrell``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        super().__init__("barrell", params)


class NuttyGame(OakwoodGame):
    """``python_oakwood_nutty``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        super().__init__("nutty", params)


# pyspiel registers a class (as OpenSpiel's own Python games do): a registered function made the interpreter abort
# at exit, when pyspiel's registry released it without holding the GIL.
_GAME_CLASSES: dict[str, type[OakwoodGame]] = {"squarrels": SquarrelsGame, "barrell": BarrellGame, "nutty": NuttyGame}


def register_all() -> None:
    """Register every Oakwood game with ``pyspiel`` (once; importing this module does it)."""
    registered = set(pyspiel.registered_names())
    for game_name in GAMES:
        if short_name(game_name) not in registered:
            pyspiel.register_game(game_type(game_name), _GAME_CLASSES[game_name])


def load_game(game_name: str, **params: Any) -> OakwoodGame:
    """``pyspiel.load_game`` for an Oakwood game by its own name (``load_game("nutty", players=1)``)."""
    register_all()
    loaded: OakwoodGame = pyspiel.load_game(short_name(game_name), params)
    return loaded


register_all()
