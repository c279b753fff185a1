"""Actions and the stable integer codec every game exposes.

An action is a frozen, hashable dataclass of plain values whose ``str()`` is its canonical text (what a
person types and what notation and logs show). A game lists every action it can ever use once, in a fixed
order; that order is the codec: ``encode`` / ``decode`` map actions to integers for RL masks and replays.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Generic, TypeVar

from .errors import InvalidActionError, shown

A = TypeVar("A", bound=Hashable)


class ActionCodec(Generic[A]):
    """A fixed, ordered table of every action of a game."""

    __slots__ = ("_by_text", "actions", "index")

    def __init__(self, actions: Iterable[A]) -> None:
        self.actions: tuple[A, ...] = tuple(actions)
        self.index: dict[A, int] = {}
        self._by_text: dict[str, A] = {}
        for i, action in enumerate(self.actions):
            if action in self.index:
                raise ValueError(f"duplicate action {action!r} in codec")
            text = _normalise(str(action))
            if text in self._by_text:
                raise ValueError(f"two actions share the text {text!r}")
            self.index[action] = i
            self._by_text[text] = action

    def __reduce__(self) -> tuple[type[ActionCodec[A]], tuple[tuple[A, ...]]]:
        """Pickle as a call of the constructor: compiled by mypyc, the class would unpickle by calling it bare."""
        return (type(self), (self.actions,))

    def __len__(self) -> int:
        return len(self.actions)

    def has(self, action: object) -> bool:
        """Whether ``action`` is one of the game's actions (anything unhashable is not)."""
        try:
            return action in self.index
        except TypeError:
            return False

    def encode(self, action: A) -> int:
        """The integer of an action; :class:`InvalidActionError` if the game has no such action."""
        try:
            return self.index[action]
        except (KeyError, TypeError):
            raise InvalidActionError(f"{shown(action)} is not an action of this game") from None

    def decode(self, index: object) -> A:
        """The action with this integer; :class:`InvalidActionError` when out of range."""
        if type(index) is not int or not 0 <= index < len(self.actions):
            raise InvalidActionError(f"action index {shown(index)} is outside 0..{len(self.actions) - 1}")
        return self.actions[index]

    def parse(self, text: object) -> A:
        """The action whose canonical text is ``text`` (case and surrounding spaces ignored)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is written as text, not {shown(text)}")
        key = _normalise(text)
        try:
            return self._by_text[key]
        except KeyError:
            raise InvalidActionError(f"no action is written {shown(text.strip())}") from None

    def mask(self, legal: Sequence[A]) -> list[bool]:
        """A boolean list over the whole codec, true at the legal actions."""
        out = [False] * len(self.actions)
        index = self.index
        for action in legal:
            out[index[action]] = True
        return out


def _normalise(text: str) -> str:
    """Case and runs of white space do not matter in action texts."""
    return " ".join(text.lower().split())
