"""A bot's figures: the named numbers its rules of thumb weigh, tuned by table size and set by name for a study.

A rule bot (a heuristic) keeps each figure as a class attribute; a strategist derived from it plays the same rules
with figures tuned for the table size (``benchmarks/tune_strategist.py``). :class:`Figures` holds the three layers
a strategist plays with (the class's own values, the tuned ones for the table at hand, and any given by name when
the bot was made, for a study to try) and sets them on the bot when the table size changes. It checks the given
figures when the bot is made, so a misspelt name or a value that is not a number is refused at once rather than at
the bot's first move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Figures:
    """The figures one bot plays with; :meth:`use` sets them on the bot for a table size."""

    def __init__(
        self,
        bot: object,
        label: str,
        names: tuple[str, ...],
        tuned: Mapping[int, Mapping[str, float]],
        given: Mapping[str, object],
    ) -> None:
        """The figures ``names`` of ``bot`` (``label`` names it in errors), ``tuned`` by table size, ``given``
        by name over them at every size; a given name not in ``names`` or a value that is not a number raises
        TypeError (``given`` is typed ``object`` so that, compiled, the check is reached and says which)."""
        unknown = sorted(set(given) - set(names))
        if unknown:
            raise TypeError(f"the {label} has no figure {unknown[0]!r}; choose from {', '.join(names)}")
        for name, value in given.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"the {label}'s figure {name} is a number, not {value!r}")
        #: The class's values, which also give each figure its type (a count stays an int). ``Any``, not
        #: ``float``: compiled, a ``dict[str, float]`` turns the ints it is given into floats.
        self.own: dict[str, Any] = {name: getattr(bot, name) for name in names}
        self.tuned = tuned
        self.given: dict[str, Any] = dict(given)
        self.players = 0  # the table size the figures on the bot are for (0: none set yet)

    def use(self, bot: object, players: int) -> None:
        """Set on ``bot`` its figures for a table of ``players`` (nothing to do if they are set already)."""
        if players == self.players:
            return
        self.players = players
        for name, value in {**self.own, **self.tuned.get(players, {}), **self.given}.items():
            setattr(bot, name, type(self.own[name])(value))
