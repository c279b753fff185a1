"""Counter-based random numbers carried inside a game state.

The generator is a seed and a counter fed through splitmix64, so cloning a state copies two integers, the
same seed always yields the same game, and no module-level ``random`` state is ever touched.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = 0xFFFFFFFFFFFFFFFF
_GAMMA = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> int:
    """The splitmix64 finaliser: a strong 64-bit mixing function."""
    x = (x + _GAMMA) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class Rng:
    """A reproducible stream: output ``i`` is ``splitmix64(seed_mix + i * gamma)``.

    ``seed`` is any integer; ``counter`` counts the draws made so far. Both are plain integers, so the
    generator serialises and clones trivially.
    """

    __slots__ = ("_base", "counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed
        self.counter = counter
        self._base = splitmix64(seed & _MASK)

    @classmethod
    def from_random(cls, source: random.Random | Rng) -> Rng:
        """A new stream seeded from another generator (a bot's or a determinization's own stream)."""
        if isinstance(source, Rng):
            return cls(source.next_u64())
        return cls(source.getrandbits(64))

    def clone(self) -> Rng:
        """An independent copy at the same position."""
        twin = Rng.__new__(Rng)
        twin.seed = self.seed
        twin.counter = self.counter
        twin._base = self._base
        return twin

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.counter += 1
        x = (self._base + self.counter * _GAMMA) & _MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
        return x ^ (x >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (multiply-shift; the bias is below 2**-32 for the sizes we use)."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        return (self.next_u64() * n) >> 64

    def random(self) -> float:
        """A uniform float in ``[0, 1)``."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        """A uniform element of a non-empty sequence."""
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def state(self) -> tuple[int, int]:
        """``(seed, counter)``, enough to rebuild the stream exactly."""
        return (self.seed, self.counter)

    def __repr__(self) -> str:
        return f"Rng(seed={self.seed}, counter={self.counter})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and self.state() == other.state()

    def __hash__(self) -> int:
        return hash(self.state())
