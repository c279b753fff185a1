"""Counter-based random numbers carried inside a game state.

Output ``i`` of a stream is a pure function of ``(seed, i)``: word ``i % 64`` of the 512-byte SHAKE-128
output for ``(key(seed), i // 64)``. So cloning a state copies a seed and a counter, the same seed always
yields the same game, the stream can be rebuilt at any position, and no module-level ``random`` state is
touched. Hashing 64 words at a time in C costs under 0.1 µs a word, several times less than mixing each
word in Python (splitmix64 in pure Python costs about 0.6 µs). SHAKE-128 squeezes 21 words per Keccak
permutation, and the first words of its output do not depend on how many are asked for, so a short first
draw from a block may hash just a prefix of it (see ``Rng._words``).
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import MutableSequence, Sequence
from operator import itemgetter
from typing import Final, TypeVar

from .errors import shown
from .native import mypyc_attr

T = TypeVar("T")

_BLOCK: Final = 64  # words per hash call
_WORDS: Final = struct.Struct(f"<{_BLOCK}Q").unpack
#: A prefix of a block: the 42 words of two Keccak permutations (168 bytes each), where a whole block takes four.
_PREFIX: Final = 42
_PREFIX_WORDS: Final = struct.Struct(f"<{_PREFIX}Q").unpack
_BLOCK_INDEX: Final = struct.Struct("<Q").pack
_EMPTY: Final[list[int]] = []  # no block yet (shared: blocks are never mutated)
#: Seeds are integers in [SEED_MIN, SEED_MAX]: far more than any use needs, and short enough to print.
SEED_MIN: Final = -(2**127)
SEED_MAX: Final = 2**128 - 1
#: Words a stream may have drawn: a game draws thousands; the bound keeps the block index a 64-bit word.
COUNTER_MAX: Final = 2**64 - 1


def check_seed(seed: object) -> int:
    """``seed`` if it is an integer seed in range, else :class:`ValueError` saying what a seed is."""
    if type(seed) is not int or not SEED_MIN <= seed <= SEED_MAX:
        raise ValueError(f"a seed is a whole number between -2**127 and 2**128 - 1, not {shown(seed)}")
    return seed


_KEY_HASH: Final = hashlib.blake2b(digest_size=16, person=b"oakwood-rng")


def _key(seed: int) -> bytes:
    """A 16-byte key for any integer seed (negative and huge seeds included)."""
    # BLAKE2b of the seed's decimal digits; copying the prepared hash skips parsing its parameters per seed.
    digest = _KEY_HASH.copy()
    digest.update(b"%d" % seed)
    return digest.digest()


# Compiled by mypyc, ``Rng.__new__(Rng)`` (clone) would call ``__init__`` without arguments unless the class
# admits interpreted subclasses; then it skips ``__init__`` as in Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class Rng:
    """A reproducible stream of 64-bit words. ``seed`` is any integer; ``counter`` counts words drawn."""

    __slots__ = ("_block", "_block_no", "_key", "counter", "seed")

    def __init__(self, seed: object, counter: object = 0) -> None:  # object: checked here (see State.apply)
        if type(seed) is not int or not SEED_MIN <= seed <= SEED_MAX:  # ``check_seed``, called only to raise
            seed = check_seed(seed)
        if type(counter) is not int or not 0 <= counter <= COUNTER_MAX:
            raise ValueError(f"a generator counter is a whole number between 0 and 2**64 - 1, not {shown(counter)}")
        self.seed = seed
        self.counter = counter
        # Made by the first draw (``_words``): a bot's stream is often never drawn from (a search makes a guide bot
        # for every node it adds and every seat of a playout, and a guide draws only in a race), and the key's
        # BLAKE2b is most of what making a stream costs.
        self._key = b""
        self._block_no = -1
        self._block = _EMPTY

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
        twin._key = self._key
        twin._block_no = self._block_no
        twin._block = self._block
        return twin

    def _words(self, block_no: int, need: int = _BLOCK) -> list[int]:
        """At least the first ``need`` words of block ``block_no``, cached in ``_block``.

        A stream's first block, when its first draw is a ``take`` ending within its first 42 words, hashes only
        those (half the Keccak work: a solo Nutty game draws just its 36 shuffle keys); a later draw past them
        hashes the whole block. So ``_block`` may be a prefix, and the one-word draws catch the ``IndexError`` of a word
        past it (a ``try`` costs nothing until it catches). A list, not the tuple ``unpack`` gives: the
        shuffle sorts by ``keys.__getitem__``, a direct C method on a list but a slot wrapper on a tuple (it
        made a solo Nutty deal about 9,000 instructions dearer).
        """
        block = self._block
        if block_no == self._block_no and len(block) >= need:
            return block
        key = self._key
        if not key:  # the first draw of this stream (a key is never empty)
            key = self._key = _key(self.seed)
        source = hashlib.shake_128(key + _BLOCK_INDEX(block_no))
        # Only a stream's first block may be a prefix (a new game's deal): a later block is mostly read further
        # (a search's worlds draw from its bot's stream, block after block), and a prefix read past would be
        # hashed a second time in full.
        if need <= _PREFIX and block_no == 0 and self._block_no != 0:
            block = list(_PREFIX_WORDS(source.digest(8 * _PREFIX)))
        else:
            block = list(_WORDS(source.digest(8 * _BLOCK)))
        self._block = block
        self._block_no = block_no
        return block

    def next_u64(self) -> int:
        """The next 64-bit word."""
        c = self.counter
        self.counter = c + 1
        if c >> 6 == self._block_no:
            try:
                return self._block[c & 63]
            except IndexError:  # past a prefix of the block (see ``_words``)
                pass
        return self._words(c >> 6)[c & 63]

    def take(self, count: int) -> list[int]:
        """The next ``count`` words at once."""
        c = self.counter
        end = c + count
        if count > 0 and c >> 6 == (end - 1) >> 6:  # all from one block, as most draws (a new game's shuffle)
            self.counter = end
            last = ((end - 1) & 63) + 1
            return self._words(c >> 6, last)[c & 63 : last]
        out: list[int] = []
        while c < end:
            stop = min(end, (c | 63) + 1)
            last = ((stop - 1) & 63) + 1  # the words wanted from this block end before word ``last``
            out.extend(self._words(c >> 6, last)[c & 63 : last])
            c = stop
        self.counter = end
        return out

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (multiply-shift; the bias is below n / 2**64)."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        c = self.counter
        self.counter = c + 1
        if c >> 6 == self._block_no:
            try:
                return (self._block[c & 63] * n) >> 64
            except IndexError:  # past a prefix of the block (see ``_words``)
                pass
        return (self._words(c >> 6)[c & 63] * n) >> 64

    def random(self) -> float:
        """A uniform float in ``[0, 1)``."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        """A uniform element of a non-empty sequence."""
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place: sort by one random 64-bit key per item (ties have probability ~n²/2**65).

        Sorting in C by precomputed keys is about four times faster than a Fisher–Yates loop in Python.
        """
        n = len(items)
        if n < 2:
            return
        c = self.counter
        if c & 63 == 0 and n <= _BLOCK:  # the keys open a block (a new game's deal): its words, unsliced
            self.counter = c + n
            keys = self._words(c >> 6, n)
        else:
            keys = self.take(n)
        order = sorted(range(n), key=keys.__getitem__)
        items[:] = itemgetter(*order)(items)  # the items in that order (a tuple, gathered in C)

    def state(self) -> tuple[int, int]:
        """``(seed, counter)``, enough to rebuild the stream exactly."""
        return (self.seed, self.counter)

    def __repr__(self) -> str:
        return f"Rng(seed={self.seed}, counter={self.counter})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and self.state() == other.state()

    def __hash__(self) -> int:
        return hash(self.state())
