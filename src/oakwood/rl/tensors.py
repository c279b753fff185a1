"""Observation tensors: each game's fixed-size numeric encoding of ``observe(seat)``, documented field by field.

An encoder reads the observation and nothing else, so a tensor can hold only what the seat may see (the
conformance tests check that a seat's tensor is the same in the truth and in every world drawn for that seat).
The action mask comes from the engine's codec: ``mask[i]`` is 1 when ``game.decode(i)`` is legal for the seat.

Each game's encoder lives in ``oakwood.rl.encoders.<game>`` as a function ``encoder(game, players) ->
Encoder``; the layout may depend on the player count and the options, never on the position.

The adapters ask for a tensor in one place, :meth:`Encoder.encode_state`, whose definition is
``encode(state.observe(seat))``. A game's encoder may override it with a **direct path** that reads the state's
fields without building the observation dict; it is an optimisation only, and ``tests/conformance/
test_direct_tensors.py`` proves it equal to the definition at every step of seeded random games, for every seat and
the spectator, every table size and every option that changes an observation, and runs the no-leak check (the
truth's tensor equals every ``determinize`` world's) through it.
"""

from __future__ import annotations

import importlib
import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from oakwood.engine import Game, State

#: Every decision of the engine, in the order of the decision one-hots.
DECISIONS = ("turn", "commit", "race", "none")


def seat_blocks(players: int, size: int | None = None) -> str:
    """How a per-seat field reads, for its documented meaning (one number per seat, or ``size`` per seat)."""
    each = "" if size is None else f" of {size}"
    return f"{players} seat blocks{each}, observer first then clockwise"


def relative_seats(seat: int | None, players: int) -> list[int]:
    """Each seat's block: the observer (seat 0 for a spectator) first, the others clockwise after it."""
    me = 0 if seat is None else seat
    return [(s - me) % players for s in range(players)]


#: Bounds of a field that is a flag, a one-hot or a share: every number in [0, 1].
UNIT = (0.0, 1.0)
#: Bounds of a field that is never negative and has no upper bound the encoder can prove.
NON_NEGATIVE = (0.0, math.inf)
#: No bound at all (a score that may be negative, say): the default, so a bound is always a claim someone made.
UNBOUNDED = (-math.inf, math.inf)


@dataclass(frozen=True)
class TensorField:
    """A named slice of the tensor: ``size`` numbers from ``offset``, what they mean, and the bounds every one of
    them stays within (``low``, ``high``; infinite where the encoder claims none)."""

    name: str
    offset: int
    size: int
    meaning: str
    low: float = -math.inf
    high: float = math.inf


@dataclass
class Layout:
    """The fields of a tensor, added in order (each one's offset follows the previous one's end)."""

    fields: list[TensorField] = field(default_factory=list)

    @property
    def size(self) -> int:
        """The length of the whole tensor."""
        return self.fields[-1].offset + self.fields[-1].size if self.fields else 0

    def add(self, name: str, size: int, meaning: str, bounds: tuple[float, float] = UNBOUNDED) -> TensorField:
        """Append a field of ``size`` numbers, each within ``bounds`` (low, high); its slice."""
        if any(f.name == name for f in self.fields):
            raise ValueError(f"field {name!r} twice")
        low, high = bounds
        if not low <= high:
            raise ValueError(f"field {name!r}: bounds {bounds} are empty")
        added = TensorField(name, self.size, size, meaning, float(low), float(high))
        self.fields.append(added)
        return added

    def field(self, name: str) -> TensorField:
        """The field called ``name``."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)


class Encoder(ABC):
    """A game's observation encoding at one table size: ``layout`` documents it, :meth:`encode` fills it.

    Subclasses implement :meth:`fill`, writing into a zeroed float32 vector through the layout's fields.
    """

    def __init__(self, game: Game[Any], players: int, layout: Layout) -> None:
        self.game = game
        self.players = players
        self.layout = layout

    @property
    def size(self) -> int:
        """The length of every tensor this encoder makes."""
        return self.layout.size

    def bounds(self) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The lowest and the highest value of every number of the tensor (the fields' bounds; new arrays)."""
        low = np.empty(self.size, dtype=np.float32)
        high = np.empty(self.size, dtype=np.float32)
        for f in self.layout.fields:
            low[f.offset : f.offset + f.size] = f.low
            high[f.offset : f.offset + f.size] = f.high
        return low, high

    def encode(self, observation: Mapping[str, Any]) -> NDArray[np.float32]:
        """The tensor of one observation (a new array)."""
        out = np.zeros(self.size, dtype=np.float32)
        self.fill(observation, out)
        return out

    def encode_state(self, state: State, seat: int | None) -> NDArray[np.float32]:
        """The tensor of ``state.observe(seat)`` (a new array): by definition ``encode(state.observe(seat))``.

        A game's encoder may override this with a direct path from the state's fields (see the module
        docstring); :attr:`direct` says whether it has. ``seat`` must be a seat of the state or ``None``.
        """
        return self.encode(state.observe(seat))

    def fill_state(self, state: State, seat: int | None, out: NDArray[np.float32]) -> None:
        """Write the tensor of ``state.observe(seat)`` into ``out`` (whatever it held): :meth:`encode_state`'s
        numbers, through the direct path when the encoder has one."""
        if self.direct:
            out[:] = self.encode_state(state, seat)
        else:
            out.fill(0.0)
            self.fill(state.observe(seat), out)

    @property
    def direct(self) -> bool:
        """Whether this encoder computes :meth:`encode_state` straight from the state (tested equal to
        ``encode(state.observe(seat))``) rather than through the observation."""
        return type(self).encode_state is not Encoder.encode_state

    @abstractmethod
    def fill(self, observation: Mapping[str, Any], out: NDArray[np.float32]) -> None:
        """Write ``observation`` into the zeroed ``out``."""

    def describe(self) -> str:
        """The layout as a Markdown table (field, offset, size, meaning) for the docs."""
        rows = [f"| `{f.name}` | {f.offset} | {f.size} | {f.meaning} |" for f in self.layout.fields]
        return "\n".join(["| field | offset | size | meaning |", "|---|---|---|---|", *rows])


def encoder_for(game: Game[Any], players: int) -> Encoder:
    """The observation encoder of ``game`` at ``players`` seats."""
    module = importlib.import_module(f"oakwood.rl.encoders.{game.name}")
    made: Encoder = module.encoder(game, players)
    return made


def action_mask(game: Game[Any], state: State, seat: int) -> NDArray[np.int8]:
    """1 for each codec index whose action is legal for ``seat`` now, else 0 (all 0 when it is not to act)."""
    mask = np.zeros(game.num_actions, dtype=np.int8)
    if seat in state.to_act():
        for action in state.legal_actions(seat):
            mask[game.encode(action)] = 1
    return mask
