"""The game-agnostic State contract.

A :class:`State` is the whole truth of one match. Its public methods check their input (the right seat, a
legal action, a game still running) and then call underscore hooks that each game implements. Nothing
outside a game's own package ever reads the hooks or the state's fields: players, bots, logs and RL
observations receive only :meth:`State.observe`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Self

from .errors import GameOverError, IllegalActionError, InvalidActionError, NotYourTurnError, shown
from .events import Chain, Event, chain_items
from .native import mypyc_attr
from .rng import Rng

if TYPE_CHECKING:
    from .game import Game
    from .replay import Replay

Action = Hashable


class Decision(StrEnum):
    """What kind of decision the seats in ``to_act()`` face."""

    TURN = "turn"  # one seat acts
    COMMIT = "commit"  # every listed seat chooses; choices stay hidden until the last one is in
    RACE = "race"  # the first `slap` applied wins; `pass` drops out
    NONE = "none"  # the game is over


# Compiled by mypyc, a native class admits interpreted subclasses only when it says so (a game left
# interpreted, a test's toy game); and only then does ``cls.__new__(cls)`` (how clones are made) skip
# ``__init__`` as in Python instead of calling it without arguments.
@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """One match in progress. Games subclass it and implement the underscore hooks."""

    # Slots for the fields every state has: a game that declares __slots__ for its own fields too gets
    # instances without a per-instance dict, which makes clone() cheaper (S'Quarrels does).
    __slots__ = ("_history", "_log", "_seed", "_start", "game", "num_players", "record_events", "rng")

    game: Game[Any]
    num_players: int
    rng: Rng
    # Persistent chains (see events.py): cloning shares them, appending is O(1).
    _log: Chain
    _history: Chain
    # The position the history starts from: None = a fresh deal from the seed; its notation; or, for a world,
    # a snapshot of the world as made (written as notation only when asked: search makes worlds by the
    # thousand and never asks).
    _start: str | State | None
    _seed: int
    record_events: bool

    def _init_base(self, game: Game[Any], num_players: int, seed: int, start: str | None = None) -> None:
        """Set the fields every state has; games call this from their constructors."""
        self.game = game
        self.num_players = num_players
        self.rng = Rng(seed)
        self._seed = seed
        self._log = None
        self._history = None
        self._start = start
        self.record_events = True

    def _copy_base_into(self, twin: State) -> None:
        """Copy the base fields into a clone (the chains are shared, the generator is copied)."""
        twin.game = self.game
        twin.num_players = self.num_players
        twin.rng = self.rng.clone()
        twin._seed = self._seed
        twin._log = self._log
        twin._history = self._history
        twin._start = self._start
        twin.record_events = self.record_events

    # ------------------------------------------------------------------ hooks games implement
    @abstractmethod
    def _to_act(self) -> tuple[int, ...]: ...

    @abstractmethod
    def _decision(self) -> Decision: ...

    @abstractmethod
    def _legal_actions(self, seat: int) -> Sequence[Action]: ...

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None: ...

    @abstractmethod
    def _is_terminal(self) -> bool: ...

    @abstractmethod
    def _scores(self) -> list[float]: ...

    @abstractmethod
    def _winners(self) -> list[int]: ...

    @abstractmethod
    def _observe(self, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def _determinize(self, seat: int, rng: Rng) -> Self: ...

    @abstractmethod
    def _clone(self) -> Self: ...

    @abstractmethod
    def to_notation(self) -> str:
        """The position in the game's notation; ``game.from_notation`` rebuilds it exactly."""

    @abstractmethod
    def _check_invariants(self) -> None:
        """Raise :class:`InvariantError` if the state is inconsistent (conservation of every component)."""

    def _why_illegal(self, seat: int, action: Action) -> str:
        """A sentence saying why ``action`` is not legal for ``seat`` now; games refine it."""
        return f"{action} is not legal now"

    # ------------------------------------------------------------------ public, checked API
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (several at a commit or race decision, none when terminal)."""
        return self._to_act()

    @property
    def decision(self) -> Decision:
        """``turn``, ``commit``, ``race`` or ``none`` (terminal)."""
        return self._decision()

    # The public methods take ``seat: object`` (and games' overrides too): they are the trust boundary and check
    # the type themselves. Compiled by mypyc, a parameter typed ``int`` would be converted on entry, so a bool
    # would pass as a seat and a float would raise TypeError instead of NotYourTurnError.
    def legal_actions(self, seat: object) -> tuple[Action, ...]:
        """The legal actions of ``seat`` now, in codec order; empty if the seat is not to act."""
        # The type test comes first: 1.0 and True compare equal to seat 1 and would pass the membership test.
        if type(seat) is int and seat in self._to_act():
            legal = self._legal_actions(seat)
            return legal if type(legal) is tuple else tuple(legal)
        self._check_seat_number(seat)
        return ()

    def legal_mask(self, seat: object) -> list[bool]:
        """A boolean per codec index, true where the action is legal for ``seat`` now."""
        return self.game.codec.mask(self.legal_actions(seat))

    def apply(self, seat: object, action: Action) -> None:
        """Validate and perform ``seat``'s ``action``.

        Raises :class:`GameOverError`, :class:`NotYourTurnError`, :class:`InvalidActionError` (not an
        action of this game) or :class:`IllegalActionError` (with the reason) and leaves the state untouched.
        """
        # Every check runs before the state is touched; the seat's type first (1.0 == 1, True == 1).
        if type(seat) is not int or seat not in self._to_act():  # a finished game has nobody to act
            if self._is_terminal():
                raise GameOverError("the game is over; no more actions are accepted")
            seat = self._check_seat_number(seat)
            waiting = ", ".join(f"P{s + 1}" for s in self._to_act())
            raise NotYourTurnError(f"P{seat + 1} may not act now; waiting for {waiting}")
        if action not in self._legal_actions(seat):
            if not self.game.codec.has(action):
                raise InvalidActionError(f"{shown(action)} is not an action of {self.game.name}")
            raise IllegalActionError(self._why_illegal(seat, action))
        self._apply(seat, action)
        self._history = ((seat, action), self._history)

    def apply_index(self, seat: object, index: object) -> None:
        """:meth:`apply` for an action given by its codec integer."""
        self.apply(seat, self.game.codec.decode(index))

    def is_terminal(self) -> bool:
        """Whether the match is over."""
        return self._is_terminal()

    def scores(self) -> list[float]:
        """Game points per seat (running totals before the end)."""
        return self._scores()

    def winners(self) -> list[int]:
        """The winning seats (several on a shared win); empty before the end."""
        return self._winners() if self._is_terminal() else []

    def returns(self) -> list[float]:
        """Win share per seat: 1 to a sole winner, split on ties, 0 otherwise (all 0 before the end)."""
        out = [0.0] * self.num_players
        winners = self.winners()
        for seat in winners:
            out[seat] = 1.0 / len(winners)
        return out

    def observe(self, seat: object) -> dict[str, Any]:
        """What ``seat`` knows (``None``: a spectator), as JSON-ready data. The only view ever sent out."""
        return self._observe(None if seat is None else self._check_seat_number(seat))

    def determinize(self, seat: object, rng: random.Random | Rng) -> Self:
        """A world: a full state consistent with ``observe(seat)``, everything hidden from ``seat`` re-sampled.

        The world holds no trace of the truth beyond what ``seat`` knows: the game re-deals every hidden card
        and pending choice, and the world starts a past of its own here — no action history, no event log,
        its current position as its start and a fresh generator drawn from ``rng``, which decides its future.
        So ``world.replay()``, ``world.events``, ``world.to_notation()`` and ``world.to_json()`` reveal nothing
        hidden from ``seat``, and search can still play the world out.
        """
        seat = self._check_seat_number(seat)
        # The world is drawn straight from a given ``Rng`` (a bot's own stream): a fresh stream per world cost
        # a key (BLAKE2b) and a new SHAKE-128 block each, a fifth of a Nutty world (issue 36). Worlds are not
        # stored games, so how they draw is free; a ``random.Random`` still seeds a stream of ours.
        source = rng if isinstance(rng, Rng) else Rng.from_random(rng)
        world = self._determinize(seat, source)
        world.rng = Rng(source.next_u64())
        world._seed = world.rng.seed
        world._history = None
        world._log = None
        world._start = world.clone()
        return world

    def clone(self) -> Self:
        """An independent copy; changing one never changes the other."""
        return self._clone()

    def check_invariants(self) -> None:
        """Raise :class:`InvariantError` if a game invariant is broken (used by the conformance kit)."""
        self._check_invariants()

    # ------------------------------------------------------------------ events and history
    def log(self, event: Event) -> None:
        """Append an event to the log (skipped when ``record_events`` is off)."""
        if self.record_events:
            self._log = ((event.kind, event.public, event.private, event.audience), self._log)

    def emit(
        self,
        kind: str,
        public: dict[str, Any],
        private: dict[str, Any] | None = None,
        audience: frozenset[int] | None = None,
    ) -> None:
        """Append an event from its parts: the cheap form of :meth:`log` for hot paths.

        The log holds plain tuples and builds :class:`Event` objects only when read, because a dataclass
        per event would cost a measurable share of a simulation step.
        """
        if self.record_events:
            self._log = ((kind, public, private, audience), self._log)

    @property
    def events(self) -> list[Event]:
        """Every event so far, oldest first (hidden parts included: use :meth:`events_seen_by` to show)."""
        return [Event(*parts) for parts in chain_items(self._log)]

    def events_seen_by(self, seat: object, since: int = 0) -> list[dict[str, Any]]:
        """The events from index ``since`` on, each in the form ``seat`` may see."""
        viewer = None if seat is None else self._check_seat_number(seat)
        return [event.view(viewer) for event in self.events[since:]]

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every ``(seat, action)`` applied since the start position."""
        return chain_items(self._history)

    def replay(self) -> Replay:
        """The replay record that reproduces this state from its start."""
        from .replay import Replay

        codec = self.game.codec
        return Replay(
            game=self.game.name,
            options=self.game.options.to_dict(),
            players=self.num_players,
            seed=self._seed,
            actions=[(seat, codec.encode(action)) for seat, action in self.history],
            start=self._start_notation(),
        )

    def _start_notation(self) -> str | None:
        """The start position in notation (None: the fresh deal of the seed)."""
        if isinstance(self._start, State):
            self._start = self._start.to_notation()
        return self._start

    # ------------------------------------------------------------------ serialisation
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON types; ``game.from_json`` restores it exactly."""
        codec = self.game.codec
        return {
            "format": 1,
            "game": self.game.name,
            "options": self.game.options.to_dict(),
            "players": self.num_players,
            "seed": self._seed,
            "start": self._start_notation(),
            "notation": self.to_notation(),
            "history": [[seat, codec.encode(action)] for seat, action in self.history],
            "events": [event.to_json() for event in self.events],
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # states are mutable

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self.game.options.changed().items())
        return f"oakwood.load({self.game.name!r}{options}).from_notation({self.to_notation()!r})"

    def _check_seat_number(self, seat: object) -> int:
        """``seat`` if it is an ``int`` naming a seat of this game; refuse anything else (a float, a bool…)."""
        if type(seat) is not int or not 0 <= seat < self.num_players:
            raise NotYourTurnError(f"there is no seat {shown(seat)} in a {self.num_players}-player game")
        return seat
