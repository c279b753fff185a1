"""The Game: an immutable ruleset (name, player range, options, action codec) that makes states."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from importlib import resources
from typing import Any, ClassVar, Generic, TypeVar

from .actions import ActionCodec
from .errors import InvalidActionError, InvalidNotationError, InvalidOptionError, InvariantError, OakwoodError, shown
from .native import mypyc_attr
from .options import Options
from .rng import SEED_MAX, SEED_MIN, Rng, check_seed
from .state import Decision, State

#: Loaders refuse larger inputs before reading them: no game's position or history comes near these.
MAX_NOTATION_LENGTH = 100_000
MAX_HISTORY_LENGTH = 1_000_000


def shares_from_scores(scores: Sequence[float], softness: float = 1.0) -> list[float]:
    """Win shares from scores: a softmax of each seat's lead, the lead measured in units of ``softness``
    points (equal scores give equal shares; a lead of a few units takes most of the share)."""
    top = max(scores)
    weights = [math.exp((score - top) / softness) for score in scores]
    total = sum(weights)
    return [w / total for w in weights]


def check_position(state: State) -> None:
    """Refuse a loaded state that no game could reach, whatever its game: the checks every position passes.

    Its invariants hold (every component conserved); every seat to act is a seat of the game, listed once,
    with a legal action; a finished game has nobody to act and a running one has somebody; a turn lists one
    seat. Raises :class:`InvalidNotationError`.
    """
    try:
        state.check_invariants()
    except InvariantError as exc:
        raise InvalidNotationError(f"the position is impossible: {exc}") from None
    seats = state.to_act()
    if any(type(seat) is not int or not 0 <= seat < state.num_players for seat in seats) or len(set(seats)) != len(
        seats
    ):
        raise InvalidNotationError(f"the seats to act {shown(seats)} are not seats of the game")
    terminal = state.is_terminal()
    if terminal != (not seats) or terminal != (state.decision is Decision.NONE):
        raise InvalidNotationError("a finished game has nobody to act, and a running game has somebody")
    if state.decision is Decision.TURN and len(seats) != 1:
        raise InvalidNotationError("a turn is taken by one seat")
    for seat in seats:
        if not state.legal_actions(seat):
            raise InvalidNotationError(f"P{seat + 1} is to act but has no legal action")


O = TypeVar("O", bound=Options)  # noqa: E741


# Compiled by mypyc: a game left interpreted may still subclass Game (see State).
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC, Generic[O]):
    """Base class of every game. Subclasses set the class attributes and implement the hooks."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_class: ClassVar[type[Options]]
    #: Bots that ship with the game: agent name → ``"module:factory"`` (``oakwood.agents.make_agent`` builds them).
    agents: ClassVar[Mapping[str, str]] = {}
    #: Event kinds that can never reveal a hidden card or a random outcome to anyone (a set stored, a card
    #: played face down, a move). Terminal undo is allowed only across these; empty = never (safe by default).
    quiet_events: ClassVar[frozenset[str]] = frozenset()
    #: ISMCTS iterations per decision of the ``hard`` and ``expert`` levels (``oakwood.agents.levels``), set
    #: per game so a decision takes about a third of a second and about a second (``benchmarks/strength.py``).
    #: ``None`` where search has not yet been measured stronger than the heuristic: both levels play it.
    level_iterations: ClassVar[tuple[int, int] | None] = (200, 800)
    #: Moves an ISMCTS playout makes after leaving its tree (the guide's, or random) before ``estimate_returns``
    #: scores the position.
    playout_steps: ClassVar[int] = 40
    #: The shipped bot (a name in ``agents``) whose moves guide the search: its playouts and first tries.
    search_guide: ClassVar[str] = "heuristic"
    #: By table size, how many fresh worlds must confirm that a move ISMCTS prefers to its guide's is better
    #: before it plays it (``ISMCTSAgent.confirm``); a table size not listed trusts the search's own margin.
    confirm_departures: ClassVar[Mapping[int, int]] = {}

    def __init__(self, options: O | None = None, **values: Any) -> None:
        if options is not None and values:
            raise InvalidOptionError("give either an Options object or keyword options, not both")
        self.options: O = options if options is not None else self.options_class.create(**values)  # type: ignore[assignment]
        if not isinstance(self.options, self.options_class):
            raise InvalidOptionError(f"{self.name} takes {self.options_class.__name__}, not {type(options).__name__}")

    # ------------------------------------------------------------------ hooks
    @abstractmethod
    def _all_actions(self) -> Sequence[Hashable]:
        """Every action the game can ever use, in a fixed order (this order is the codec)."""

    @abstractmethod
    def _new_state(self, players: int, seed: int) -> State: ...

    @abstractmethod
    def _from_notation(self, text: str) -> State: ...

    @abstractmethod
    def render(self, observation: Mapping[str, Any]) -> str:
        """A plain-text picture of an observation, for the terminal and for logs."""

    def describe_event(self, event: Mapping[str, Any]) -> str:
        """One line of plain English for an event view (``Event.view``); games override for nicer text."""
        details = ", ".join(f"{k}={v}" for k, v in event.items() if k != "kind")
        return f"{event['kind']}: {details}" if details else str(event["kind"])

    def estimate_returns(self, state: State) -> list[float]:
        """Each seat's expected ``returns()`` from ``state``: a number in [0, 1] per seat.

        Search bots call it where they stop a playout early (random play never ends some games here). With
        several seats the shares sum to 1 (someone wins, or a tie splits the win); alone (a solo game) it is
        the chance to win. A finished game gives its ``returns()`` (equal shares if nobody won). The default
        reads only the scores: each seat's share grows with its lead; a solo game running gives even odds.
        Games override it with what they know about who is ahead (cards in hand, acorns carried, battles won…).
        """
        n = state.num_players
        if state.is_terminal():
            returns = state.returns()
            if n == 1:
                return returns
            total = sum(returns)
            return [r / total for r in returns] if total > 0 else [1.0 / n] * n
        return [0.5] if n == 1 else shares_from_scores(state.scores())

    def playout_action(self, state: State, seat: int, legal: Sequence[Hashable], rng: Rng) -> Hashable:
        """The move a search playout makes for ``seat`` among ``legal``: uniformly random by default.

        Games override it to keep playouts away from moves no player would make in passing — a random
        playout of a solo game that may stop at any moment mostly stops at once, and teaches the search
        nothing but that stopping loses.
        """
        return legal[rng.randbelow(len(legal))]

    def describe_action(self, action: Hashable) -> str:
        """A short explanation of an action for menus (its canonical text by default)."""
        return str(action)

    def information_key(self, observation: Mapping[str, Any]) -> str:
        """The text a search bot keys an information set by: the observation's ``repr`` by default.

        A game whose observation holds a counter that every action moves, and that decides nothing for a long
        while, leaves it out: with it, free moves round a circle never meet the same key again, so a search
        cannot tell that it is going round (and a tree cannot share what it learnt of the same position).
        """
        return repr(observation)

    def move_warnings(self, world: State, seat: int) -> dict[Hashable, str]:
        """What a person should read before some of ``seat``'s legal moves in ``world``: a sentence by action.

        Empty by default (no warnings). It is always called with a *world* (``state.determinize(seat, rng)``),
        never the live state, and may warn only of consequences that are the same in every world consistent
        with the seat's observation, so that a warning can never leak a hidden card: a move whose outcome
        depends on something hidden (landing on a face-down card, a flip, anything drawn) gets no warning from
        that hidden outcome. Games override it (Nutty Squirrels: solo moves that end the game short of 20
        points, or put 20 out of reach).
        """
        return {}

    # ------------------------------------------------------------------ public API
    #: The codec once built. A plain attribute, not a ``cached_property``: compiled by mypyc, a game keeps such a
    #: cache in an instance ``__dict__`` that the garbage collector does not see (nor the conformance kit's walk).
    _codec: ActionCodec[Hashable] | None = None

    @property
    def codec(self) -> ActionCodec[Hashable]:
        """The action codec (built once per game object)."""
        codec = self._codec
        if codec is None:
            codec = self._codec = ActionCodec(self._all_actions())
        return codec

    @property
    def num_actions(self) -> int:
        """How many distinct actions the codec holds."""
        return len(self.codec)

    def encode(self, action: Hashable) -> int:
        """The codec integer of an action."""
        return self.codec.encode(action)

    def decode(self, index: object) -> Hashable:
        """The action with this codec integer."""
        return self.codec.decode(index)

    def parse_action(self, text: object) -> Hashable:
        """An action from its canonical text, or from its text as the screen shows it (``normalise_move``);
        :class:`InvalidActionError` if there is none."""
        if isinstance(text, str):
            shown_form = self.normalise_move(text)
            if shown_form != text:
                try:
                    return self.codec.parse(shown_form)
                except InvalidActionError:
                    pass  # refused below, quoting what was typed rather than its normalised form
        return self.codec.parse(text)

    def normalise_move(self, text: str) -> str:
        """A move typed as the screen shows it (suit symbols, names) in canonical text; games override it."""
        return text

    def new_state(self, players: object = None, seed: object = 0) -> State:
        """A freshly dealt match for ``players`` seats (default: the minimum), seeded by ``seed``."""
        count = self.min_players if players is None else players
        if type(count) is not int or not self.min_players <= count <= self.max_players:
            raise InvalidOptionError(
                f"{self.title} takes {self.min_players}–{self.max_players} players; got {shown(players)}"
            )
        if type(seed) is not int or not SEED_MIN <= seed <= SEED_MAX:  # ``check_seed``, called only to raise
            try:
                check_seed(seed)
            except ValueError as exc:
                raise InvalidOptionError(f"seed: {exc}") from None
            raise AssertionError("unreachable: check_seed raised")
        return self._new_state(count, seed)

    def from_notation(self, text: object) -> State:
        """The position written in the game's notation; :class:`InvalidNotationError` says where it is bad.

        Only a real position of the game loads: the game's reader refuses what it knows to be inconsistent,
        and then every position must pass the generic checks of :func:`check_position`.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"notation must be text, not {type(text).__name__}")
        if len(text) > MAX_NOTATION_LENGTH:
            raise InvalidNotationError(f"a position is at most {MAX_NOTATION_LENGTH:,} characters; got {len(text):,}")
        try:
            state = self._from_notation(text)
            state._start = text
            check_position(state)
        except InvalidNotationError:
            raise
        except (ArithmeticError, InvariantError, LookupError, RecursionError, TypeError, ValueError) as exc:
            # A safety net at the trust boundary: a reader that failed to name the field still refuses cleanly.
            raise InvalidNotationError(
                f"not a position of {self.title} ({type(exc).__name__}: {shown(str(exc))})"
            ) from None
        return state

    def from_json(self, data: Mapping[str, Any]) -> State:
        """Restore a state saved with ``State.to_json``; :class:`InvalidNotationError` names a bad field.

        Nothing but the actions is taken from the input: the state is rebuilt by replaying its ``history``
        from its ``start`` (a position in notation, or the fresh deal of ``seed``), must arrive exactly at the
        saved ``notation``, and its events are regenerated. A save with no history (``history`` null or absent)
        loads ``notation`` as a position that starts there.
        """
        if not isinstance(data, Mapping):
            raise InvalidNotationError(f"a saved state is a JSON object, not {type(data).__name__}")
        if data.get("format") != 1:
            raise InvalidNotationError("unknown format (expected 1)", field="format", text=data.get("format"))
        if data.get("game") != self.name:
            raise InvalidNotationError(f"this is not a {self.name!r} state", field="game", text=data.get("game"))
        try:
            options = self.options_class.from_dict(data.get("options"))
        except InvalidOptionError as exc:
            raise InvalidNotationError(str(exc), field="options") from None
        if options != self.options:
            raise InvalidNotationError("the saved state was played under other options", field="options")
        players, seed = data.get("players"), data.get("seed")
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidNotationError(f"{self.min_players}–{self.max_players} players", field="players", text=players)
        try:
            seed = check_seed(seed)
        except ValueError as exc:
            raise InvalidNotationError(str(exc), field="seed") from None
        start, notation, history = data.get("start"), data.get("notation"), data.get("history")
        if start is not None and not isinstance(start, str):
            raise InvalidNotationError("a start is a position in notation, or null", field="start", text=start)
        if not isinstance(notation, str):
            raise InvalidNotationError("the position in notation is missing", field="notation", text=notation)
        if history is None:
            if start not in (None, notation):
                raise InvalidNotationError("a save without a history starts at its own position", field="start")
            state = self.from_notation(notation)
        else:
            state = self._replay_history(players, seed, start, history)
            if state.to_notation() != notation:
                raise InvalidNotationError("the history does not arrive at the saved position", field="history")
        if state.num_players != players:
            raise InvalidNotationError("the position has another number of players", field="players", text=players)
        if state._seed != seed:
            raise InvalidNotationError("the seed differs from the position's own", field="seed", text=seed)
        return state

    def _replay_history(self, players: int, seed: int, start: str | None, history: object) -> State:
        """The state reached by playing ``history`` (``[[seat, action index], …]``) from its start."""
        if not isinstance(history, list) or len(history) > MAX_HISTORY_LENGTH:
            raise InvalidNotationError(
                f"a list of at most {MAX_HISTORY_LENGTH:,} [seat, action] pairs", field="history"
            )
        state = self.new_state(players, seed) if start is None else self.from_notation(start)
        for step, entry in enumerate(history, start=1):
            if type(entry) is not list or len(entry) != 2:
                raise InvalidNotationError(f"step {step} is not a [seat, action] pair", field="history", text=entry)
            try:
                state.apply(entry[0], self.codec.decode(entry[1]))
            except OakwoodError as exc:
                raise InvalidNotationError(f"step {step} cannot be played: {exc}", field="history") from None
        return state

    def rules_document(self) -> str:
        """The rules as Oakwood plays them, rulings included (Markdown)."""
        package = type(self).__module__.rsplit(".", 1)[0]
        return resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")

    def __repr__(self) -> str:
        changed = "".join(f", {k}={v!r}" for k, v in self.options.changed().items())
        return f"oakwood.load({self.name!r}{changed})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Game) and other.options == self.options

    def __hash__(self) -> int:
        return hash((self.name, self.options))
