"""Plain-text rendering of Barrell observations, events and actions for the terminal."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from .actions import Action
from .cards import BY_NAME, PRETTY

_PHASES = {
    "mulligan": "Mulligan",
    "play": "Battle",
    "swap": "Jack of Spades: choose whom to trade fields with",
    "jokers": "Joker decision",
    "hearts": "Hearts: name who receives them",
    "kh": "King of Hearts: return a card to hand",
    "ks": "King of Spades: take a card from Discard",
    "over": "Game over",
}


def pretty(name: str | None) -> str:
    """A card name with its suit symbol (``7♠``), or ``??`` for a card you cannot see."""
    if name is None:
        return "??"
    return PRETTY[BY_NAME[name]]


def _cards(names: list[str]) -> str:
    return " ".join(pretty(n) for n in names) if names else "—"


def render(obs: Mapping[str, Any]) -> str:
    """A picture of the table as ``obs['seat']`` sees it."""
    n = obs["players"]
    seat = obs["seat"]
    lines = [
        f"Barrell — battle {obs['battle']} · {_PHASES.get(obs['phase'], obs['phase'])} · "
        f"first player P{obs['first_player'] + 1} · Deck {obs['deck_size']}",
    ]
    if obs["jack_of_diamonds"]:
        lines.append("  The Jack of Diamonds is in force: other face cards do nothing.")
    lines.append(f"  Queen Zone: {_cards(obs['queen_zone'])}")
    discard = obs["discard"]
    shown = discard[-12:]  # the newest cards; the count of older ones is given first
    older = f"({len(discard) - len(shown)} older) " if len(discard) > len(shown) else ""
    lines.append(f"  Discard ({len(discard)}, newest last): {older}{_cards(shown)}")
    for p in range(n):
        marks = []
        if obs["passed"][p]:
            marks.append("passed")
        if p in obs["to_act"]:
            marks.append("to act")
        if obs["committed"] is not None and obs["committed"][p]:
            marks.append("committed")
        tag = f" ({', '.join(marks)})" if marks else ""
        you = " — you" if p == seat else ""
        lines.append(f"P{p + 1}{you}: wins {obs['wins'][p]}, hand {obs['hand_sizes'][p]}{tag}")
        field = obs["fields"][p]
        slots = []
        for slot in field:
            text = pretty(slot["card"])
            slots.append(text if slot["face_up"] else f"[{text}]")
        lines.append(f"    field: {' '.join(slots) if slots else '—'}")
        if p != seat and obs["known_in_hands"][p]:
            lines.append(f"    known in hand: {_cards(obs['known_in_hands'][p])}")
    if seat is not None:
        lines.append(f"Your hand: {_cards(obs['hand'])}")
        if obs["aside"]:
            lines.append(f"Set aside for the mulligan: {_cards(obs['aside'])}")
    if obs["to_give"] is not None:
        gives = [f"P{p + 1}: {_cards(c)}" for p, c in enumerate(obs["to_give"]) if c]
        lines.append("Hearts to give: " + "; ".join(gives))
    if obs["provisional_scores"] is not None and obs["phase"] == "jokers":
        # BR-12 variant: shown while the Jokers are decided (battle_scores may still hold the last battle's)
        provisional = ", ".join(f"P{p + 1} {s}" for p, s in enumerate(obs["provisional_scores"]))
        lines.append(f"Provisional scores: {provisional}")
    if obs["battle_scores"] is not None:
        winners = ", ".join(f"P{p + 1}" for p in obs["battle_winners"]) or "nobody (drawn)"
        lines.append(
            "Last battle: "
            + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(obs["battle_scores"]))
            + f" — won by {winners}"
        )
    lines.append("(face-down cards in [brackets]; ?? = a card you have not seen)")
    if obs["terminal"]:
        lines.append("Winners: " + ", ".join(f"P{p + 1}" for p in obs["winners"]))
    return "\n".join(lines)


def _p(seat: Any) -> str:
    return f"P{int(seat) + 1}"


def describe_event(event: Mapping[str, Any]) -> str:
    """One English line for an event view."""
    kind = event["kind"]
    if kind == "deal":
        cards = f": {_cards(event['cards'])}" if "cards" in event else ""
        return f"{_p(event['seat'])} is dealt {event['count']} cards{cards}"
    if kind == "battle":
        return f"— Battle {event['battle']} —"
    if kind == "dice":
        return "Dice: " + ", ".join(f"{p} rolls {r}" for p, r in event["rolls"].items())
    if kind == "first_player":
        return f"{_p(event['seat'])} plays first"
    if kind == "recycle":
        return f"The Discard pile is shuffled into the Deck ({event['deck']} cards)"
    if kind == "mulligan_aside":
        card = f" ({pretty(event['card'])})" if "card" in event else ""
        return f"{_p(event['seat'])} sets a card aside{card}"
    if kind == "mulligan":
        if not event["count"]:
            return f"{_p(event['seat'])} keeps the hand"
        extra = ""
        if "drawn" in event:
            extra = f": {_cards(event['discarded'])} out, {_cards(event['drawn'])} in"
        return f"{_p(event['seat'])} mulligans {event['count']} card(s){extra}"
    if kind == "play":
        if event["face_up"]:
            return f"{_p(event['seat'])} plays {pretty(event['card'])} face up"
        card = f" ({pretty(event['card'])})" if "card" in event else ""
        return f"{_p(event['seat'])} plays a card face down{card}"
    if kind == "pass":
        return f"{_p(event['seat'])} passes" + (" (empty hand)" if event["automatic"] else "")
    if kind == "cancelled":
        return f"{pretty(event['card'])} does nothing: the Jack of Diamonds is in force"
    if kind == "battle_ends":
        return f"{pretty(event['by'])} ends the battle at once"
    if kind == "draw":
        cards = f": {_cards(event['cards'])}" if "cards" in event else ""
        return f"{_p(event['seat'])} draws {event['count']}{cards}"
    if kind == "swap":
        return f"{_p(event['seat'])} and {_p(event['target'])} trade fields"
    if kind == "rotate":
        return "Every field moves one seat to the left"
    if kind == "reveal":
        return "Reveal: " + "; ".join(f"P{p + 1} {_cards(f)}" for p, f in enumerate(event["fields"]))
    if kind == "joker":
        if event["choice"] == "keep":
            return f"{_p(event['seat'])} takes the Joker back to hand"
        return f"{_p(event['seat'])} takes the rest of the field back to hand: {_cards(event['cards'])}"
    if kind == "gift":
        return f"{_p(event['seat'])} gives {_cards(event['cards'])} to {_p(event['target'])}"
    if kind == "queen_zone":
        note = " (cancelled)" if event["cancelled"] else ""
        return f"{pretty(event['card'])} goes to the Queen Zone{note}"
    if kind == "destroy":
        return f"The King of Diamonds destroys {_cards(event['cards'])} of {_p(event['seat'])}"
    if kind == "provisional_scores":
        return "Provisional scores: " + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(event["scores"]))
    if kind == "battle_result":
        scores = ", ".join(f"P{p + 1} {s}" for p, s in enumerate(event["scores"]))
        won = ", ".join(_p(s) for s in event["winners"]) or "nobody (a drawn battle)"
        return f"Scores: {scores} — won by {won}"
    if kind == "return":
        return f"King of Hearts: {_p(event['seat'])} takes {pretty(event['card'])} back to hand"
    if kind == "discard":
        return f"The table is cleared ({event['discard']} cards in Discard)"
    if kind == "take":
        return f"King of Spades: {_p(event['seat'])} takes {pretty(event['card'])} from Discard"
    if kind == "game_over":
        return "Game over — winners: " + ", ".join(_p(s) for s in event["winners"])
    details = ", ".join(f"{k}={v}" for k, v in event.items() if k != "kind")
    return f"{kind}: {details}"


def describe_action(action: Hashable) -> str:
    """A short explanation of an action for menus."""
    if not isinstance(action, Action):
        return str(action)
    verb = action.verb
    card = PRETTY[action.card] if action.card >= 0 else ""
    target = f"P{action.target + 1}" if action.target >= 0 else ""
    texts = {
        "play": f"play {card}" + (" face up" if card.startswith("J") and "Joker" not in card else " face down"),
        "pass": "pass for the rest of the battle",
        "mulligan": f"set {card} aside for the mulligan",
        "keep": "finish the mulligan",
        "swap": f"trade fields with {target}",
        "gift": f"give your hearts to {target}",
        "give": f"give {card} to {target}",
        "joker keep": "take the Joker back to hand",
        "joker field": "take every other card of your field back to hand",
        "return": f"take {card} back to hand",
        "take": f"take {card} from Discard",
    }
    return texts[verb]
