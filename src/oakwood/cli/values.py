"""Numeric command-line flags, parsed in one place so that every refusal quotes the flag and what was typed.

The flags are declared as text and converted here rather than by the argument parser: its messages do not
say what was typed, and it accepts ``nan``, ``inf`` and negative durations.
"""

from __future__ import annotations

import math
import os

from .errors import CliInputError
from .messages import shorten

#: Seeds are 64-bit: simulation seeds are derived modulo 2**64, so a larger seed would repeat a smaller one.
MAX_SEED = 2**64 - 1
#: The longest pause after a bot move, and the longest race window, a person may ask for (a longer wait
#: is a typo, and the operating system's timers refuse very large ones).
MAX_DELAY = 60.0
MAX_RACE_WINDOW = 600.0
#: The most games one ``simulate`` runs (the chunk list is built up front).
MAX_GAMES = 10_000_000
#: Worker processes per core at most: more only costs memory, and a typo must not start thousands.
WORKERS_PER_CORE = 4


def max_workers() -> int:
    """The largest ``--workers`` accepted on this machine."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def _typed(flag: str, text: str) -> str:
    return f"{flag} {shorten(text.strip()) or repr(text)}"


def whole_number(flag: str, text: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``text`` as an integer within ``minimum``…``maximum``; :class:`CliInputError` naming ``flag`` if not."""
    try:
        value = int(text.strip())
    except ValueError:
        raise CliInputError(f"{_typed(flag, text)}: not a whole number") from None
    if minimum is not None and value < minimum:
        bound = f"from {minimum} to {maximum}" if maximum is not None else f"of at least {minimum}"
        raise CliInputError(f"{_typed(flag, text)}: must be a whole number {bound}")
    if maximum is not None and value > maximum:
        bound = f"from {minimum} to {maximum}" if minimum is not None else f"of at most {maximum}"
        raise CliInputError(f"{_typed(flag, text)}: must be a whole number {bound}")
    return value


def seed(flag: str, text: str) -> int:
    """A seed: a whole number from 0 to 2**64 − 1."""
    try:
        return whole_number(flag, text, minimum=0, maximum=MAX_SEED)
    except CliInputError:
        raise CliInputError(f"{_typed(flag, text)}: a seed is a whole number from 0 to 2^64-1") from None


def seconds(flag: str, text: str, *, maximum: float, allow_zero: bool) -> float:
    """A duration in seconds: finite, positive (or zero when ``allow_zero``), at most ``maximum``."""
    try:
        value = float(text.strip())
    except ValueError:
        raise CliInputError(f"{_typed(flag, text)}: not a number of seconds") from None
    low = "0" if allow_zero else "more than 0"
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero) or value > maximum:
        raise CliInputError(f"{_typed(flag, text)}: must be a number of seconds from {low} to {maximum:g}")
    return value
