"""Specific error classes. Every one is a ``ValueError`` so callers may catch broadly or precisely."""

from __future__ import annotations

from typing import Any

#: How many characters of a bad value an error message quotes: enough to recognise it, never a flood.
QUOTE_LIMIT = 80


def shown(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, saying how long it was (errors quote input with it)."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # a deeply nested structure, or an int too long to print
        return f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


class OakwoodError(ValueError):
    """Base class of every error Oakwood raises on bad input."""


class InvalidActionError(OakwoodError):
    """An action that cannot be parsed or does not belong to the game's action codec."""


class IllegalActionError(OakwoodError):
    """A well-formed action that the rules do not allow now; the message says why."""


class NotYourTurnError(IllegalActionError):
    """A seat tried to act while it is not among ``state.to_act()``."""


class GameOverError(IllegalActionError):
    """An action was sent to a finished game."""


class InvalidNotationError(OakwoodError):
    """A position in a game's notation that cannot be parsed; the message says where."""

    def __init__(self, message: str, *, field: str | None = None, text: object = None) -> None:
        where = f" (in {field!r})" if field else ""
        quoted = f": {shown(text)}" if text is not None else ""
        super().__init__(f"{message}{where}{quoted}")
        self.field = field
        self.text = text


class InvalidOptionError(OakwoodError):
    """An unknown option name or a value outside the option's allowed range."""


class UnknownGameError(OakwoodError):
    """``oakwood.load`` was asked for a game that is not registered."""


class InvariantError(RuntimeError):
    """A state broke one of its game's invariants (conservation of cards, …): a bug in the rules code."""
