"""Race resolution: who of several simultaneous answers lands first."""

from __future__ import annotations

from collections.abc import Sequence

from oakwood.engine import Rng
from oakwood.engine.agent import Choice


def race_order(answers: Sequence[Choice], tie_rng: Rng) -> list[int]:
    """The indices of ``answers`` in the order they arrive: by reaction delay, equal delays in a seeded order.

    Seat numbers never break ties (that would favour low seats); ``tie_rng`` draws one number per answer.
    """
    return sorted(range(len(answers)), key=lambda i: (answers[i].delay, tie_rng.next_u64()))
