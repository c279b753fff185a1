"""A local backend that presses Ctrl-C after a number of games: for the tests of runs cut short."""

from __future__ import annotations

from collections.abc import Sequence

from oakwood.arena.backend import Deliver
from oakwood.arena.local import LocalBackend
from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import GameRecord


def interrupting_backend(after: int) -> type[LocalBackend]:
    """A stand-in for ``LocalBackend`` (to patch in) that plays in this process and raises KeyboardInterrupt
    once ``after`` games have been delivered."""

    class InterruptingBackend(LocalBackend):
        def __init__(self, workers: int | None = None) -> None:
            super().__init__(1)

        def run(self, spec: SimulationSpec, indices: Sequence[int], deliver: Deliver) -> None:
            played: list[GameRecord] = []

            def then_interrupt(records: list[GameRecord]) -> None:
                deliver(records)
                played.extend(records)
                if len(played) >= after:
                    raise KeyboardInterrupt

            super().run(spec, indices, then_interrupt)

    return InterruptingBackend
