"""The encoder every adapter uses, and a generic one built on the common observation keys only.

Every game's observation carries the common keys of ARCHITECTURE "Observations" (``seat``, ``players``,
``decision``, ``to_act``, ``phase``, ``scores``, ``terminal``, ``winners``). :class:`CommonEncoder` encodes those
and nothing else, so it can hold nothing hidden from the seat: it is OpenSpiel's public-observation tensor, and
the tensor of a game that has no encoder of its own (``oakwood.rl.encoders.<game>``), such as a newly registered
game. :func:`observation_encoder` prefers the game's encoder.
"""

from __future__ import annotations

import importlib.util
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from oakwood.engine import Game

from .tensors import DECISIONS, UNIT, Encoder, Layout, encoder_for

#: Buckets of the hashed phase name: phase names are game specific, so the generic encoder cannot list them.
PHASE_BUCKETS = 16


def phase_bucket(phase: object) -> int:
    """The bucket of a phase name: CRC-32 of its text, so the same on every run and machine."""
    return zlib.crc32(str(phase).encode()) % PHASE_BUCKETS


class CommonEncoder(Encoder):
    """The common observation keys as a tensor (the layout depends only on the player count)."""

    def __init__(self, game: Game[Any], players: int) -> None:
        layout = Layout()
        layout.add("players", 1, "number of seats", (players, players))
        layout.add("seat", players, "one-hot of the observing seat (all 0 for a spectator)", UNIT)
        layout.add("decision", len(DECISIONS), "one-hot of the decision: " + ", ".join(DECISIONS), UNIT)
        layout.add("to_act", players, "1 for each seat to act", UNIT)
        layout.add("phase", PHASE_BUCKETS, f"one-hot of CRC-32(phase name) mod {PHASE_BUCKETS}", UNIT)
        layout.add("scores", players, "each seat's points (running totals)")  # a game's points may be negative
        layout.add("terminal", 1, "1 once the match is over", UNIT)
        layout.add("winners", players, "1 for each winning seat (all 0 before the end)", UNIT)
        super().__init__(game, players, layout)
        fields = {f.name: f.offset for f in layout.fields}
        self._seat = fields["seat"]
        self._decision = fields["decision"]
        self._to_act = fields["to_act"]
        self._phase = fields["phase"]
        self._scores = fields["scores"]
        self._terminal = fields["terminal"]
        self._winners = fields["winners"]

    def fill(self, observation: Mapping[str, Any], out: NDArray[np.float32]) -> None:
        """Write the common keys of ``observation`` into the zeroed ``out``."""
        out[0] = observation["players"]
        seat = observation["seat"]
        if seat is not None:
            out[self._seat + seat] = 1.0
        decision = observation["decision"]
        out[self._decision + DECISIONS.index(str(decision))] = 1.0
        for s in observation["to_act"]:
            out[self._to_act + s] = 1.0
        out[self._phase + phase_bucket(observation["phase"])] = 1.0
        out[self._scores : self._scores + self.players] = observation["scores"]
        out[self._terminal] = 1.0 if observation["terminal"] else 0.0
        for s in observation["winners"]:
            out[self._winners + s] = 1.0


def has_game_encoder(game: Game[Any]) -> bool:
    """Whether ``oakwood.rl.encoders.<game>`` exists."""
    return importlib.util.find_spec(f"oakwood.rl.encoders.{game.name}") is not None


def observation_encoder(game: Game[Any], players: int) -> Encoder:
    """The game's own encoder (:func:`~oakwood.rl.tensors.encoder_for`) if it has one, else :class:`CommonEncoder`."""
    if has_game_encoder(game):
        return encoder_for(game, players)
    return CommonEncoder(game, players)
