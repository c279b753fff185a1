"""Game options: a frozen dataclass per game whose defaults are the rulings' defaults.

Declare every field with :func:`option`, giving its allowed choices or bounds and a line of help. The base
class validates every field on creation and raises :class:`InvalidOptionError` naming the bad one.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any, Self

from .errors import InvalidOptionError, shown


def option(
    default: Any,
    *,
    choices: tuple[Any, ...] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    help: str = "",
    ruling: str = "",
) -> Any:
    """Declare an option field: its default, its allowed values and a line of help (with its ruling id)."""
    if choices is not None and default not in choices:
        raise ValueError(f"default {default!r} is not among choices {choices!r}")
    meta = {"choices": choices, "minimum": minimum, "maximum": maximum, "help": help, "ruling": ruling}
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionInfo:
    """A description of one option, for help screens and documentation."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None
    minimum: float | None
    maximum: float | None
    help: str
    ruling: str


@dataclass(frozen=True)
class Options:
    """Base class of every game's options. Subclasses are frozen dataclasses of :func:`option` fields."""

    def __post_init__(self) -> None:
        for info in self.describe():
            self._check_field(info, getattr(self, info.name))
        self._validate()

    def _validate(self) -> None:
        """Cross-field checks; override in a game's options when one option constrains another."""

    @staticmethod
    def _check_field(info: OptionInfo, value: Any) -> None:
        expected = type(info.default)
        ok_type = isinstance(value, expected) and not (expected is int and isinstance(value, bool))
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            ok_type = True
        if not ok_type:
            raise InvalidOptionError(
                f"option {info.name!r} must be {expected.__name__}, got {type(value).__name__} {shown(value)}"
            )
        if expected is float and not math.isfinite(value):
            raise InvalidOptionError(f"option {info.name!r} must be a finite number; got {shown(value)}")
        if info.choices is not None and value not in info.choices:
            allowed = " | ".join(str(c) for c in info.choices)
            raise InvalidOptionError(f"option {info.name!r} must be one of {allowed}; got {shown(value)}")
        if info.minimum is not None and value < info.minimum:
            raise InvalidOptionError(f"option {info.name!r} must be at least {info.minimum}; got {shown(value)}")
        if info.maximum is not None and value > info.maximum:
            raise InvalidOptionError(f"option {info.name!r} must be at most {info.maximum}; got {shown(value)}")

    @classmethod
    def describe(cls) -> list[OptionInfo]:
        """Every option with its default, allowed values and help, in declaration order."""
        out = []
        for f in fields(cls):
            if f.default is MISSING:
                raise TypeError(f"option {f.name!r} of {cls.__name__} has no default; declare it with option()")
            meta = f.metadata
            out.append(
                OptionInfo(
                    name=f.name,
                    default=f.default,
                    choices=meta.get("choices"),
                    minimum=meta.get("minimum"),
                    maximum=meta.get("maximum"),
                    help=meta.get("help", ""),
                    ruling=meta.get("ruling", ""),
                )
            )
        return out

    @classmethod
    def editors(cls) -> dict[str, dict[str, Any]]:
        """How a form edits options whose text holds a structure, by option name (JSON values); none by default.

        The one kind so far is ``counts``: a mapping of items to counts written as a JSON object, or the name
        of a preset — ``{"kind": "counts", "presets": {name: {item: count}}, "items": [{"code", "name",
        "group", optional "min" and "max"}], "min_total": int, "max_total": int}``. The option's check judges.
        """
        return {}

    @classmethod
    def create(cls, **values: Any) -> Self:
        """Options from keyword values; an unknown name raises :class:`InvalidOptionError` with suggestions."""
        known = [f.name for f in fields(cls)]
        for name in values:
            if name not in known:
                close = difflib.get_close_matches(name, known, n=3)
                hint = f"; did you mean {', '.join(close)}?" if close else f"; known options: {', '.join(known)}"
                raise InvalidOptionError(f"unknown option {shown(name)}{hint}")
        return cls(**values)

    @classmethod
    def from_dict(cls, values: object) -> Self:
        """Options from a saved mapping (a replay, a saved game, a network message), checked like keywords."""
        if not isinstance(values, Mapping):
            raise InvalidOptionError(f"options are a mapping of name to value, not {shown(values)}")
        for name in values:
            if not isinstance(name, str):
                raise InvalidOptionError(f"option names are text, not {shown(name)}")
        return cls.create(**values)

    @classmethod
    def from_strings(cls, values: Mapping[str, str]) -> Self:
        """Options from text values (command line, query strings), converting each to the option's type."""
        infos = {info.name: info for info in cls.describe()}
        converted: dict[str, Any] = {}
        for name, text in values.items():
            info = infos.get(name)
            if info is None:
                cls.create(**{name: text})  # raises the unknown-option error with suggestions
                continue
            converted[name] = _convert(info, text)
        return cls.create(**converted)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-ready values."""
        return asdict(self)

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from their defaults."""
        defaults = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(defaults, k) != v}


def _convert(info: OptionInfo, text: str) -> Any:
    kind = type(info.default)
    try:
        if kind is bool:
            lowered = text.strip().lower()
            if lowered in ("true", "yes", "1", "on"):
                return True
            if lowered in ("false", "no", "0", "off"):
                return False
            raise ValueError(text)
        if kind is int:
            return int(text)
        if kind is float:
            return float(text)
    except ValueError:
        raise InvalidOptionError(f"option {info.name!r} must be {kind.__name__}; got {shown(text)}") from None
    return text
