"""S'Quarrels actions and their codec order."""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from .cards import GOLDEN, HAND_KINDS, NAMES, NUMBERS


class Action(NamedTuple):
    """One S'Quarrels action. ``verb`` is one of the constants below; ``card`` the card it names (or -1).

    A NamedTuple rather than a frozen dataclass: equality and hashing then run in C, which matters because
    ``apply`` checks membership in the legal actions on every step of every simulation.
    """

    verb: str
    card: int = -1

    def __str__(self) -> str:
        if self.verb == STORE_WILD:
            return f"store {NAMES[self.card]}+golden"
        return self.verb if self.card < 0 else f"{self.verb} {NAMES[self.card]}"


DRAW: Final = "draw"
STORE: Final = "store"
STORE_WILD: Final = "store-wild"  # two equal Number cards and the Golden (variant golden_wild_in_sets, SQ-8)
DISCARD: Final = "discard"
PLAY: Final = "play"  # a Quarrel card (commit)
SLAP: Final = "slap"
PASS: Final = "pass"
END: Final = "end"  # end the turn with an empty hand (nothing to discard)

DRAW_ACTION: Final = Action(DRAW)
STORE_ACTIONS: Final = tuple(Action(STORE, n) for n in NUMBERS)  # indexed by number - 1
STORE_WILD_ACTIONS: Final = tuple(Action(STORE_WILD, n) for n in NUMBERS)
DISCARD_ACTIONS: Final = tuple(Action(DISCARD, c) for c in range(HAND_KINDS))  # indexed by card
PLAY_ACTIONS: Final = tuple(Action(PLAY, c) for c in range(HAND_KINDS))
SLAP_ACTION: Final = Action(SLAP)
PASS_ACTION: Final = Action(PASS)
END_ACTION: Final = Action(END)

#: Every action in codec order. Discards and plays list the Rotten first, then 1–5, then the Golden.
ALL_ACTIONS: Final = (
    DRAW_ACTION,
    *STORE_ACTIONS,
    *STORE_WILD_ACTIONS,
    *DISCARD_ACTIONS,
    *PLAY_ACTIONS,
    SLAP_ACTION,
    PASS_ACTION,
    END_ACTION,
)
CODEC_INDEX: Final = {a: i for i, a in enumerate(ALL_ACTIONS)}

assert GOLDEN == HAND_KINDS - 1


def normalise_move(text: str) -> str:
    """A move typed as the screen shows it, in canonical text: ``store 3s`` (the log's "a set of 3s") →
    ``store 3``, ``store 1 + Golden`` → ``store 1+golden``, ``store 1+G`` (a set as stored, ``[11G]``) →
    ``store 1+golden``. Case is left to the codec (it ignores it); anything else passes through unchanged."""
    out = " ".join(text.split()).lower()
    out = re.sub(r"\s*\+\s*", "+", out)
    out = re.sub(r"\+g$", "+golden", out)
    return re.sub(r"^(store|discard|play) ([1-5])s$", r"\1 \2", out)
