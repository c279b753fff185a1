"""The Game: an immutable ruleset (name, player range, options, action codec) that makes states."""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from functools import cached_property
from importlib import resources
from typing import Any, ClassVar, Generic, TypeVar

from .actions import ActionCodec
from .errors import InvalidNotationError, InvalidOptionError
from .options import Options
from .state import State

O = TypeVar("O", bound=Options)  # noqa: E741


class Game(ABC, Generic[O]):
    """Base class of every game. Subclasses set the class attributes and implement the hooks."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_class: ClassVar[type[Options]]
    #: Bots that ship with the game: agent name → ``"module:factory"`` (imported only when used).
    agents: ClassVar[Mapping[str, str]] = {}
    #: Event kinds that can never reveal a hidden card or a random outcome to anyone (a set stored, a card
    #: played face down, a move). Terminal undo is allowed only across these; empty = never (safe by default).
    quiet_events: ClassVar[frozenset[str]] = frozenset()

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

    def describe_action(self, action: Hashable) -> str:
        """A short explanation of an action for menus (its canonical text by default)."""
        return str(action)

    # ------------------------------------------------------------------ public API
    @cached_property
    def codec(self) -> ActionCodec[Hashable]:
        """The action codec (built once per game object)."""
        return ActionCodec(self._all_actions())

    @property
    def num_actions(self) -> int:
        """How many distinct actions the codec holds."""
        return len(self.codec)

    def encode(self, action: Hashable) -> int:
        """The codec integer of an action."""
        return self.codec.encode(action)

    def decode(self, index: int) -> Hashable:
        """The action with this codec integer."""
        return self.codec.decode(index)

    def parse_action(self, text: str) -> Hashable:
        """An action from its canonical text; :class:`InvalidActionError` if there is none."""
        return self.codec.parse(text)

    def new_state(self, players: int | None = None, seed: int = 0) -> State:
        """A freshly dealt match for ``players`` seats (default: the minimum), seeded by ``seed``."""
        count = self.min_players if players is None else players
        if not isinstance(count, int) or not self.min_players <= count <= self.max_players:
            raise InvalidOptionError(
                f"{self.title} takes {self.min_players}–{self.max_players} players; got {players!r}"
            )
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidOptionError(f"seed must be an integer; got {seed!r}")
        return self._new_state(count, seed)

    def from_notation(self, text: str) -> State:
        """The position written in the game's notation; :class:`InvalidNotationError` says where it is bad."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"notation must be text, not {type(text).__name__}")
        return self._from_notation(text)

    def from_json(self, data: Mapping[str, Any]) -> State:
        """Restore a state saved with ``State.to_json`` (its game and options must match this game's)."""
        try:
            if data.get("game") != self.name:
                raise InvalidNotationError(f"this is a {data.get('game')!r} state, not {self.name!r}")
            if data.get("options") != self.options.to_dict():
                raise InvalidNotationError("the saved state was played under other options")
            state = self._from_notation(data["notation"])
            state._restore_base(dict(data))
        except (KeyError, TypeError, AttributeError) as exc:
            raise InvalidNotationError(f"malformed saved state: {exc}") from None
        return state

    def rules_document(self) -> str:
        """The rules as Oakwood plays them, rulings included (Markdown)."""
        package = type(self).__module__.rsplit(".", 1)[0]
        return resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")

    def make_agent(self, name: str, **kwargs: Any) -> Any:
        """A bot by name: ``random`` for every game, or one of the game's own ``agents``."""
        if name == "random":
            from oakwood.agents.random_agent import RandomAgent

            return RandomAgent(**kwargs)
        if name not in self.agents:
            known = ", ".join(["random", *self.agents])
            raise InvalidOptionError(f"{self.title} has no agent {name!r}; choose from {known}")
        module, _, attr = self.agents[name].partition(":")
        return getattr(importlib.import_module(module), attr)(**kwargs)

    def __repr__(self) -> str:
        changed = "".join(f", {k}={v!r}" for k, v in self.options.changed().items())
        return f"oakwood.load({self.name!r}{changed})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Game) and other.options == self.options

    def __hash__(self) -> int:
        return hash((self.name, self.options))
