"""Specific error classes. Every one is a ``ValueError`` so callers may catch broadly or precisely."""

from __future__ import annotations


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

    def __init__(self, message: str, *, field: str | None = None, text: str | None = None) -> None:
        where = f" (in {field!r})" if field else ""
        shown = f": {text!r}" if text is not None else ""
        super().__init__(f"{message}{where}{shown}")
        self.field = field
        self.text = text


class InvalidOptionError(OakwoodError):
    """An unknown option name or a value outside the option's allowed range."""


class UnknownGameError(OakwoodError):
    """``oakwood.load`` was asked for a game that is not registered."""


class InvariantError(RuntimeError):
    """A state broke one of its game's invariants (conservation of cards, …): a bug in the rules code."""
