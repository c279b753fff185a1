"""Why an action is not legal now: the readable reason an ``IllegalActionError`` carries."""

from __future__ import annotations

from typing import Any

from .actions import Act
from .cards import DOPPEL, LASSO, NAME, OWL, POWER_WORD, SPITTOON, STICKY
from .tree import STRIDE, TRUNK, is_broken


def why_illegal(state: Any, seat: int, action: Any) -> str:
    """A sentence explaining why ``action`` is refused for ``seat`` in ``state`` (multiplayer or solo)."""
    act: Act = action
    verb = act.verb
    if not state.solo and (verb in ("buy", "end game", "bribe") or act.pay):
        return f"'{act}' exists only in the solo game"
    if state.phase == "bribe" and verb != "bribe":
        return "first bribe the Owl: 'bribe' pays the usual way, 'bribe with …' names the acorns (NS-17k)"
    if verb == "bribe":
        return "there is no Owl waiting for a bribe" if state.phase != "bribe" else _why_payment(state, act, 3)
    if act.pay and act.replace_pay() in state.legal_actions(seat):
        return _why_payment(state, act, 1 if verb == "move" else 3)
    if state.phase == "fools" and verb != "exchange":
        return "first choose which golden acorn Fool's Gold takes (exchange cheeks/backpack/nest/burrow)"
    if verb == "exchange":
        return (
            f"there is no Fool's Gold to settle with your {act.other}"
            if state.phase != "fools"
            else (f"you have no golden acorn in your {act.other}")
        )
    if state.solo and verb in ("end", "convert", "claim", "steal", "loot", "owl", "copy", "spit"):
        return f"'{act}' is not part of the solo game"
    w = state.where[seat]
    on_trunk = w == TRUNK
    on_broken = not on_trunk and is_broken(state.limbs[w // STRIDE][w % STRIDE])
    if verb == "end":
        return "you cannot end your turn on a Broken Branch (NS-6)" if on_broken else "you cannot end your turn now"
    if verb in ("stash", "unstash", "convert", "bury") and not on_trunk:
        return f"you must be on the Central Trunk to {verb}"
    if verb in ("gather", "drop", "flip", "claim", "lasso") and on_trunk:
        return f"you cannot {verb} on the Central Trunk"
    if verb == "flip" and state.limbs[w // STRIDE][w % STRIDE][1]:
        return "the card you stand on is already face up"
    needed = _POWER_OF.get(verb)
    if needed and not state.has(seat, needed):
        return f"you do not hold {NAME[needed]}"
    ap = getattr(state, "ap", 99)
    costly = verb in ("flip", "convert", "bury", "lasso", "spit", "steal", "loot")
    if not state.solo and costly and ap < 1:
        return f"'{act}' costs 1 AP and you have {ap}"
    if not state.solo and costly and on_broken:
        return f"'{act}' would leave you without the AP to step off this Broken Branch (NS-6)"
    if verb == "move":
        return _why_move(state, seat, act)
    if verb == "claim":
        return _why_claim(state, seat, act)
    if verb in ("gather", "unstash"):
        pockets = "cheeks and Backpack" if "BP" in state.powers[seat] else "cheeks"
        return f"there is no {_colour(act)} acorn to take, or your {pockets} are full"
    if verb in ("drop", "stash", "pack", "bury"):
        return f"you have no {_colour(act)} acorn to {verb} there"
    if verb == "unpack":
        return "your Backpack is empty or your cheeks are full"
    if verb == "convert":
        return "converting needs five brown acorns in your nest and a golden one in the supply"
    if verb in ("lasso", "spit", "steal", "loot", "owl", "copy"):
        return _why_power(state, seat, act)
    if verb == "buy":
        return "you cannot afford that power (3 points), already own it, or it is not in the market"
    if verb == "end game":
        return "the game is already over"
    return f"'{act}' is not legal now"


def _why_payment(state: Any, act: Act, cost: int) -> str:
    """Why a named payment (NS-17k) is refused when the action itself could be taken."""
    from . import payment

    plain = str(act.replace_pay())
    if act.verb == "move" and state.move_cost(act.limb, act.pos) == 0:
        return f"'{plain}' costs nothing: there is no payment to choose"
    taken = payment.BY_TEXT[(cost, act.pay)]
    if not payment.affordable(payment.holdings(state), taken):
        return f"you cannot pay with {payment.describe(taken)}: you do not hold it all"
    same = payment.equivalent(state, cost, taken)
    listed = f"{plain} with {same}" if same else plain
    return f"that leaves you exactly what '{listed}' does: type '{listed}' (NS-17k)"


# The power each power action needs (the Doppelgänger is needed to start a copy).
_POWER_OF = {"lasso": LASSO, "spit": SPITTOON, "steal": STICKY, "loot": STICKY, "owl": OWL, "copy": DOPPEL}


def _colour(act: Act) -> str:
    return "brown" if act.colour == "b" else "golden"


def _why_move(state: Any, seat: int, act: Act) -> str:
    if act.limb >= 0 and act.pos >= len(state.limbs[act.limb]):
        return f"there is no card at {str(act)[5:]}"
    if state.solo:
        return f"you cannot reach {str(act)[5:]} from here (or cannot pay for it; NS-17)"
    ap = state.ap
    if act.limb >= 0 and is_broken(state.limbs[act.limb][act.pos]):
        return f"moving onto the Broken Branch at {str(act)[5:]} must leave AP to step off it (you have {ap} AP; NS-6)"
    return f"{str(act)[5:]} is not one move away, or you have no AP left ({ap})"


def _why_claim(state: Any, seat: int, act: Act) -> str:
    w = state.where[seat]
    kind, up = state.limbs[w // STRIDE][w % STRIDE][:2]
    if not up or kind not in POWER_WORD:
        return "there is no face-up power card here to claim"
    if kind in state.powers[seat]:
        return f"you already hold {NAME[kind]}; duplicates are not allowed (NS-5)"
    if act.power and len(state.powers[seat]) < 3:
        return "you have a free power slot: just 'claim'"
    if act.power:
        return f"you do not hold {NAME[act.power]} to swap"
    return "your three power slots are full: 'claim swap <power>' to leave one of yours here"


def _why_power(state: Any, seat: int, act: Act) -> str:
    verb = act.verb
    if verb == "lasso":
        return "the Lasso pulls an acorn from an adjacent card, for 1 AP, when you have it"
    if verb == "spit":
        return "the Spittoon spits one acorn lying on a card into your nest, once a turn, for 1 AP"
    if verb in ("steal", "loot"):
        if getattr(state, "sticky_used", False):
            return "Sticky Fingers can be used once per turn (NS-12)"
        return (
            "Sticky Fingers steals from a nest while you are on the trunk and they are not, or from cheeks or "
            "powers on your own leaf card (NS-12); a copy needs room to carry the acorn"
        )
    if verb == "owl":
        return "the Owl scares squirrels off your own limb (any limb from the trunk) or destroys another's power"
    return "the Doppelgänger copies a power another player holds and you do not, once (NS-13)"
