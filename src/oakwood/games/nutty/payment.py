"""Solo payments (NS-17 c, NS-17k): which acorns pay a cost, and what change comes back.

A payment is the tuple of acorns it takes, counted by place and colour in this order: cheeks brown, cheeks
golden, Backpack brown, Backpack golden, nest brown, nest golden. The acorns go to the supply; if they are
worth more than the cost (a golden overspent), the difference comes back as brown change into the nest, as
far as the supply has brown acorns.

The usual payment (the one a plain ``move``, ``buy`` or ``bribe`` makes, ruling NS-17i) takes carried brown
first (cheeks, then Backpack), then nest brown, then one golden (cheeks, Backpack, nest) for what is still
owed. The player may name another payment instead (NS-17k): a named payment takes exactly the cost in brown
acorns, or a single golden acorn — never an acorn more than the cost needs — written like
``with 2 cheeks brown and nest brown`` or ``with nest golden``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from oakwood.engine import InvariantError

if TYPE_CHECKING:
    from .tree import TreeState

Taken = tuple[int, int, int, int, int, int]  # cheeks b, cheeks g, Backpack b, Backpack g, nest b, nest g

_PLACES: Final = (
    ("cheeks", "brown"),
    ("cheeks", "golden"),
    ("backpack", "brown"),
    ("backpack", "golden"),
    ("nest", "brown"),
    ("nest", "golden"),
)
_VALUE: Final = (1, 5, 1, 5, 1, 5)

MOVE_COST: Final = 1  # NS-17 b: an outward step onto a face-up card
PRICE: Final = 3  # NS-17 b: a market power or an Owl bribe


def payment_text(taken: Taken) -> str:
    """The words of a payment as typed after ``with``: ``2 cheeks brown and nest golden``."""
    parts = []
    for (place, colour), count in zip(_PLACES, taken, strict=True):
        if count:
            parts.append(f"{count} {place} {colour}" if count > 1 else f"{place} {colour}")
    return " and ".join(parts)


def _named(amount: int) -> list[Taken]:
    """The payments a player may name for ``amount``: that many brown acorns, or one golden."""
    out: list[Taken] = []
    for cheeks in (2, 1, 0):  # carried acorns first, as a person would list them
        for pack in (1, 0):
            nest = amount - cheeks - pack
            if nest >= 0:
                out.append((cheeks, 0, pack, 0, nest, 0))
    out += [(0, 1, 0, 0, 0, 0), (0, 0, 0, 1, 0, 0), (0, 0, 0, 0, 0, 1)]
    return out


#: Every payment that can be named, per cost (the costs of the solo game are 1 and 3 points).
NAMED: Final[dict[int, tuple[Taken, ...]]] = {cost: tuple(_named(cost)) for cost in (MOVE_COST, PRICE)}
#: Every payment text an action can carry, in codec order.
TEXTS: Final[dict[int, tuple[str, ...]]] = {cost: tuple(payment_text(t) for t in NAMED[cost]) for cost in NAMED}
BY_TEXT: Final[dict[tuple[int, str], Taken]] = {(cost, payment_text(t)): t for cost in NAMED for t in NAMED[cost]}


def holdings(state: TreeState) -> Taken:
    """What the solo squirrel can pay with, in payment order (NS-17 c: cheeks, Backpack, nest; not the burrow)."""
    pack = state.pack[0]
    return (
        state.cheeks_b[0],
        state.cheeks_g[0],
        int(pack == "b"),
        int(pack == "g"),
        state.nest_b[0],
        state.nest_g[0],
    )


def usual(have: Taken, amount: int) -> Taken:
    """The usual payment (NS-17i): carried brown, then nest brown, then one golden for the rest.

    Carried acorns first because they are not yet points and are at risk (a fall, Sticky Fingers).
    """
    cheeks_b = min(have[0], amount)
    pack_b = min(have[2], amount - cheeks_b)
    nest_b = min(have[4], amount - cheeks_b - pack_b)
    if cheeks_b + pack_b + nest_b == amount:
        return (cheeks_b, 0, pack_b, 0, nest_b, 0)
    for place in (1, 3, 5):  # a golden from the cheeks, the Backpack, the nest
        if have[place]:
            golden = [0, 0, 0, 0, 0, 0]
            golden[place] = 1
            return (cheeks_b, golden[1], pack_b, golden[3], nest_b, golden[5])
    raise InvariantError("payment beyond the player's means")


def value(taken: Taken) -> int:
    """How many points a payment's acorns are worth."""
    return sum(v * c for v, c in zip(_VALUE, taken, strict=True))


def affordable(have: Taken, taken: Taken) -> bool:
    """Whether the squirrel holds every acorn of a payment."""
    return all(c <= h for c, h in zip(taken, have, strict=True))


def alternatives(state: TreeState, amount: int) -> list[str]:
    """The payment texts the player may name for ``amount`` now (NS-17k).

    Only affordable payments whose outcome differs from the usual payment's and from every payment listed
    before it: two ways that leave the squirrel with the same acorns are one choice.
    """
    have = holdings(state)
    if sum(1 for held in have if held) < 2:
        return []  # one kind of acorn in one place: only one way to pay
    supply_b = state.supply_b
    seen = {_outcome(have, usual(have, amount), amount, supply_b)}
    out = []
    for taken in NAMED[amount]:
        if affordable(have, taken):
            outcome = _outcome(have, taken, amount, supply_b)
            if outcome not in seen:
                seen.add(outcome)
                out.append(payment_text(taken))
    return out


def equivalent(state: TreeState, amount: int, taken: Taken) -> str:
    """The listed payment that leaves what ``taken`` would ("" for the usual payment): why it is not listed."""
    have = holdings(state)
    target = _outcome(have, taken, amount, state.supply_b)
    if _outcome(have, usual(have, amount), amount, state.supply_b) == target:
        return ""
    for text in alternatives(state, amount):
        if _outcome(have, BY_TEXT[(amount, text)], amount, state.supply_b) == target:
            return text
    return ""


def _outcome(have: Taken, taken: Taken, amount: int, supply_b: int) -> Taken:
    """What the squirrel holds after a payment (the supply follows: every acorn is somewhere)."""
    cb, cg, pb, pg, nb, ng = (h - t for h, t in zip(have, taken, strict=True))
    change = min(value(taken) - amount, supply_b + taken[0] + taken[2] + taken[4])
    return (cb, cg, pb, pg, nb + change, ng)


def settle(state: TreeState, amount: int, taken: Taken) -> int:
    """Take a payment's acorns to the supply and give brown change into the nest; returns the change."""
    cheeks_b, cheeks_g, pack_b, pack_g, nest_b, nest_g = taken
    state.cheeks_b[0] -= cheeks_b
    state.cheeks_g[0] -= cheeks_g
    if pack_b or pack_g:
        state.pack[0] = ""
    state.nest_b[0] -= nest_b
    state.nest_g[0] -= nest_g
    state.supply_b += cheeks_b + pack_b + nest_b
    state.supply_g += cheeks_g + pack_g + nest_g
    change = min(value(taken) - amount, state.supply_b)  # NS-17 b: overspent golden, change in brown
    state.supply_b -= change
    state.nest_b[0] += change
    return change


def describe(taken: Taken) -> str:
    """A payment in words: ``a brown acorn from the cheeks and 2 brown acorns from the nest``."""
    parts = []
    for (place, colour), count in zip(_PLACES, taken, strict=True):
        if count:
            where = "the Backpack" if place == "backpack" else f"the {place}"
            what = f"a {colour} acorn" if count == 1 else f"{count} {colour} acorns"
            parts.append(f"{what} from {where}")
    return " and ".join(parts) or "nothing"
