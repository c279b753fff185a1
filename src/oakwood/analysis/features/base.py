"""What the workbench measures in one finished game, and the contract each game's extractor meets.

An extractor reads a game that has been replayed to its end, with its whole event log
(``Replay.play()`` keeps events): the events (``state.events``: ``kind``, ``public`` and ``private``
payloads), the final ``scores()``, ``winners()``, ``num_players``, ``history`` and the options. The game is
over, so the analyst may read every event's private part; the extractor never imports a game's internals
(it reads the game only through the engine contract: events, observations, scores).

Every figure of a report is computed from :class:`GameFeatures` alone, so they are all a designer needs to
know about a game, stored once per game and extractor version.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from oakwood.engine import Game, State


@dataclass(frozen=True)
class GameFeatures:
    """The measured facts of one finished game.

    - ``ending``: how the game ended, one of the extractor's ``endings`` keys.
    - ``numbers``: game-level measures, each named in the extractor's ``numbers`` (for example the number
      of rounds or battles, or how far into the deck Winter came). An extractor's ``numbers`` also name the
      game-quality measures (``analysis.quality.QUALITY_NUMBERS``), which ``measure.py`` adds from the trace
      of the same replay; ``extract`` alone leaves them out, and a measure a game cannot have is absent.
    - ``seat_facts``: per-seat facts whose effect on winning the report measures; each value is a list with
      one number per seat, 0 meaning the seat did not have it (an indicator 0/1 or a count).
    - ``order``: each seat's place in the turn order of the game's first round (0 plays first), when the
      first player is drawn at random (empty when seat 0 always starts, or for one seat): seat numbers then
      say nothing about who moved first, and the report measures the first-player advantage by place.
    """

    ending: str
    numbers: dict[str, float] = field(default_factory=dict)
    seat_facts: dict[str, list[float]] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (what the store keeps)."""
        return {
            "ending": self.ending,
            "numbers": dict(self.numbers),
            "seat_facts": dict(self.seat_facts),
            "order": list(self.order),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameFeatures:
        """Inverse of :meth:`to_json`."""
        return cls(
            ending=str(data["ending"]),
            numbers={str(k): float(v) for k, v in data["numbers"].items()},
            seat_facts={str(k): [float(x) for x in v] for k, v in data["seat_facts"].items()},
            order=[int(x) for x in data.get("order", [])],
        )


class FeatureExtractor(Protocol):
    """One game's measures. ``version`` changes whenever ``extract`` would give a different answer, so the
    store recomputes what it cached."""

    game: str
    version: int
    #: ending key -> plain words, in the order a report shows them ("reached 20 points", ...)
    endings: Mapping[str, str]
    #: number key -> plain words with its unit ("rounds played", ...)
    numbers: Mapping[str, str]
    #: seat fact key -> plain words, as a phrase about a seat ("held the Golden Acorn at Winter", ...)
    seat_facts: Mapping[str, str]

    def extract(self, game: Game[Any], state: State) -> GameFeatures:
        """The features of ``state``, a finished game replayed with its events."""
        ...
