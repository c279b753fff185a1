"""Nutty Squirrels actions and the codec: every turn decision a squirrel can take, with its canonical text.

A turn is a sequence of these decisions by the active seat (RULINGS §3.2). The codec lists every action
once; its order is fixed and shared by the multiplayer and the solo game.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from .cards import LIMB_LENGTH, LIMBS, MARKET, POWER_WORD, POWERS
from .payment import MOVE_COST, PRICE, TEXTS

COLOUR_WORD: Final = {"b": "brown", "g": "golden"}
PLACES: Final = ("cheeks", "backpack", "nest", "burrow")


def place_name(limb: int, pos: int) -> str:
    """The name of a tree position: ``L3c2`` (limb and card numbers from 1), or ``trunk``."""
    return "trunk" if limb < 0 else f"L{limb + 1}c{pos + 1}"


#: ``place_name`` of every position by limb, then card (the trunk at -1, -1): built once, for the hot paths.
PLACE: Final[dict[int, dict[int, str]]] = {-1: {-1: "trunk"}} | {
    limb: {pos: place_name(limb, pos) for pos in range(LIMB_LENGTH)} for limb in range(LIMBS)
}


class Act(NamedTuple):
    """One turn decision. Unused fields keep their defaults; ``str()`` is the canonical text.

    A NamedTuple rather than a frozen dataclass: equality and hashing run in C, and ``apply`` checks
    membership in the legal actions (comparing against each one before the match) on every step.
    """

    verb: str
    limb: int = -1
    pos: int = -1
    colour: str = ""
    seat: int = -1
    power: str = ""
    other: str = ""
    pay: str = ""  # solo: the acorns that pay, as typed after "with" (NS-17k); "" = the usual payment

    def replace_pay(self, pay: str = "") -> Act:
        """The same action paid another way (the canonical instance from the codec tables)."""
        return CANONICAL[self._replace(pay=pay)]

    def __str__(self) -> str:
        text = self._text()
        return f"{text} with {self.pay}" if self.pay else text

    def _text(self) -> str:
        verb = self.verb
        if verb in ("end", "flip", "convert", "unpack", "end game", "bribe"):
            return verb
        if verb == "move":
            return f"move {place_name(self.limb, self.pos)}"
        if verb == "claim":
            return f"claim swap {POWER_WORD[self.power]}" if self.power else "claim"
        if verb in ("gather", "drop", "pack", "stash", "unstash", "bury"):
            return f"{verb} {COLOUR_WORD[self.colour]}"
        if verb == "exchange":
            return f"exchange {self.other}"
        if verb in ("lasso", "spit"):
            return f"{verb} {place_name(self.limb, self.pos)} {COLOUR_WORD[self.colour]}"
        if verb == "steal":
            what = COLOUR_WORD[self.colour] if self.colour else POWER_WORD[self.power]
            return f"steal p{self.seat + 1} {what}"
        if verb == "loot":
            return f"loot p{self.seat + 1}"
        if verb == "owl":
            if self.seat >= 0:
                return f"owl p{self.seat + 1} {POWER_WORD[self.power]}"
            return f"owl L{self.limb + 1}"
        if verb == "copy":
            return f"copy {POWER_WORD[self.power]}"
        if verb == "buy":
            if self.other:
                return f"buy {POWER_WORD[self.power]} return {POWER_WORD[self.other]}"
            return f"buy {POWER_WORD[self.power]}"
        raise ValueError(f"unknown verb {verb!r}")


COLOURS: Final = ("b", "g")
END: Final = Act("end")
END_GAME: Final = Act("end game")
FLIP: Final = Act("flip")
CONVERT: Final = Act("convert")
UNPACK: Final = Act("unpack")
CLAIM: Final = Act("claim")
MOVE_TRUNK: Final = Act("move")
MOVE: Final = [[Act("move", limb, pos) for pos in range(LIMB_LENGTH)] for limb in range(LIMBS)]
CLAIM_SWAP: Final = {p: Act("claim", power=p) for p in POWERS}
GATHER: Final = {c: Act("gather", colour=c) for c in COLOURS}
DROP: Final = {c: Act("drop", colour=c) for c in COLOURS}
PACK: Final = {c: Act("pack", colour=c) for c in COLOURS}
STASH: Final = {c: Act("stash", colour=c) for c in COLOURS}
UNSTASH: Final = {c: Act("unstash", colour=c) for c in COLOURS}
BURY: Final = {c: Act("bury", colour=c) for c in COLOURS}
EXCHANGE: Final = {place: Act("exchange", other=place) for place in PLACES}
LASSO: Final = [
    [{c: Act("lasso", limb, pos, c) for c in COLOURS} for pos in range(LIMB_LENGTH)] for limb in range(LIMBS)
]
SPIT: Final = [[{c: Act("spit", limb, pos, c) for c in COLOURS} for pos in range(LIMB_LENGTH)] for limb in range(LIMBS)]
MAX_SEATS: Final = 6
STEAL_ACORN: Final = [{c: Act("steal", seat=s, colour=c) for c in COLOURS} for s in range(MAX_SEATS)]
STEAL_POWER: Final = [{p: Act("steal", seat=s, power=p) for p in POWERS} for s in range(MAX_SEATS)]
LOOT: Final = [Act("loot", seat=s) for s in range(MAX_SEATS)]
OWL_LIMB: Final = [Act("owl", limb) for limb in range(LIMBS)]
OWL_POWER: Final = [{p: Act("owl", seat=s, power=p) for p in POWERS} for s in range(MAX_SEATS)]
COPY: Final = {p: Act("copy", power=p) for p in POWERS if p != "DO"}
BUY: Final = {p: Act("buy", power=p) for p in MARKET}
BUY_RETURN: Final = {(p, q): Act("buy", power=p, other=q) for p in MARKET for q in MARKET if p != q}
BRIBE: Final = Act("bribe")
# Solo payments the player names (NS-17k): per move target, per purchase, and for the Owl's bribe.
MOVE_PAY: Final = [
    [{t: Act("move", limb, pos, pay=t) for t in TEXTS[MOVE_COST]} for pos in range(LIMB_LENGTH)]
    for limb in range(LIMBS)
]
BUY_PAY: Final = {(p, ""): {t: Act("buy", power=p, pay=t) for t in TEXTS[PRICE]} for p in MARKET}
BUY_PAY.update(
    {(p, q): {t: Act("buy", power=p, other=q, pay=t) for t in TEXTS[PRICE]} for p in MARKET for q in MARKET if p != q}
)
BRIBE_PAY: Final = {t: Act("bribe", pay=t) for t in TEXTS[PRICE]}


def all_actions() -> list[Act]:
    """Every action once, in codec order."""
    out: list[Act] = [END, FLIP, MOVE_TRUNK]
    out += [a for limb in MOVE for a in limb]
    out += [CLAIM, *CLAIM_SWAP.values()]
    for table in (GATHER, DROP, PACK):
        out += table.values()
    out.append(UNPACK)
    for table in (STASH, UNSTASH):
        out += table.values()
    out.append(CONVERT)
    out += BURY.values()
    out += EXCHANGE.values()
    for grid in (LASSO, SPIT):
        out += [a for limb in grid for cell in limb for a in cell.values()]
    for s in range(MAX_SEATS):
        out += STEAL_ACORN[s].values()
        out += STEAL_POWER[s].values()
        out.append(LOOT[s])
    out += OWL_LIMB
    for s in range(MAX_SEATS):
        out += OWL_POWER[s].values()
    out += COPY.values()
    out += BUY.values()
    out += BUY_RETURN.values()
    out.append(END_GAME)
    # Added with NS-17k, after every earlier action so that the older codec integers keep their meaning.
    out += [a for limb in MOVE_PAY for cell in limb for a in cell.values()]
    for table in BUY_PAY.values():
        out += table.values()
    out.append(BRIBE)
    out += BRIBE_PAY.values()
    return out


ALL_ACTIONS: Final = all_actions()
ORDER: Final = {a: i for i, a in enumerate(ALL_ACTIONS)}
CANONICAL: Final = {a: a for a in ALL_ACTIONS}


_COLOUR_LETTERS: Final = {"b": "brown", "g": "golden"}


def normalise_move(text: str) -> str:
    """A move typed as the screen shows it, in canonical text: acorn colours as the board writes them
    (``gather b``, ``bury 1g`` → ``gather brown``, ``bury golden``), a place with spaces (``move L2 c1`` →
    ``move L2c1``), a seat as ``P2`` or ``p2``. Case is left to the codec (it ignores it); anything else
    passes through unchanged."""
    words = text.lower().split()
    out: list[str] = []
    for word in words:
        if out and re.fullmatch(r"c[1-5]", word) and re.fullmatch(r"l[1-6]", out[-1]):
            out[-1] += word  # "L2 c1": the place as one word
            continue
        colour = re.fullmatch(r"1?([bg])", word)
        if colour and out:
            out.append(_COLOUR_LETTERS[colour.group(1)])
            continue
        out.append(word)
    return " ".join(out)
