"""Seats by name in the text games write.

Every text a game writes for people (``describe_event``, ``describe_action``, ``describe_move``, the rules'
refusals) names a seat ``P1``, ``P2``… (one-based, as the notation does). A front end that knows who sits
where — the web server's display names, a terminal's ``P1 (you)`` — puts the names in their place with
:func:`name_seats`, so the games never need to know who is playing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_SEAT = re.compile(r"\bP([1-9][0-9]?)\b")


def name_seats(text: str, names: Sequence[str]) -> str:
    """``text`` with every seat token ``P1``…``Pn`` replaced by ``names[0]``…``names[n-1]`` (in one pass, so a
    name that looks like a token is never replaced again); tokens beyond the names are left alone."""

    def named(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return names[number - 1] if number <= len(names) else match.group(0)

    return _SEAT.sub(named, text)
