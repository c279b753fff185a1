"""Plain-text rendering of Barrell observations, events and actions for the terminal."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from .actions import Action
from .cards import BY_NAME, IS_JACK, PRETTY

_PHASES = {
    "mulligan": "Mulligan: set up to 3 cards aside, then keep",
    "play": "Playing cards",
    "swap": "Jack of Spades: choose whom to trade fields with",
    "jokers": "Jokers: keep the Joker or the rest of the field",
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


def _count(number: int, noun: str) -> str:
    """``1 card``, ``3 cards``: a number with its noun in the right form."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _seats(seats: list[int]) -> str:
    return ", ".join(_p(s) for s in seats)


def render(obs: Mapping[str, Any], *, compact: bool = False) -> str:
    """A picture of the table as ``obs['seat']`` sees it.

    ``compact`` says the same in fewer lines, for a small terminal: the Queen Zone and the Discard pile share
    a line, each player's field follows their name, and the legend is left out.
    """
    n = obs["players"]
    seat = obs["seat"]
    lines = [
        f"Barrell — battle {obs['battle']} · {_PHASES.get(obs['phase'], obs['phase'])} · "
        f"P{obs['first_player'] + 1} plays first · Deck: {_count(obs['deck_size'], 'card')}",
    ]
    if obs["jack_of_diamonds"]:
        lines.append("  The Jack of Diamonds is in force: other face cards do nothing.")
    queens = f"Queen Zone: {_cards(obs['queen_zone']) if obs['queen_zone'] else 'empty'}"
    discard = obs["discard"]
    shown = discard[-12:]  # the newest cards; the count of older ones is given first
    older = f"({len(discard) - len(shown)} older) " if len(discard) > len(shown) else ""
    if compact:
        shown = discard[-8:]
        older = f"{len(discard) - len(shown)} older, " if len(discard) > len(shown) else ""
        pile = f"Discard ({older}newest last): {_cards(shown)}" if discard else "Discard: empty"
        lines.append(f"{queens} · {pile}")
    else:
        lines.append(f"  {queens}")
        if discard:
            lines.append(f"  Discard pile ({_count(len(discard), 'card')}, newest last): {older}{_cards(shown)}")
        else:
            lines.append("  Discard pile: empty")
    for p in range(n):
        marks = []
        if obs["passed"][p] and not obs["terminal"]:
            marks.append("passed")
        if p in obs["to_act"]:
            marks.append("to act")
        if obs["committed"] is not None and obs["committed"][p]:
            marks.append("has chosen")
        tag = f" ({', '.join(marks)})" if marks else ""
        you = " — you" if p == seat else ""
        won = _count(obs["wins"][p], "battle")
        field = obs["fields"][p]
        slots = []
        for slot in field:
            text = pretty(slot["card"])
            slots.append(text if slot["face_up"] else f"[{text}]")
        cards = " ".join(slots) if slots else "empty"
        if compact:
            lines.append(f"P{p + 1}{you}: {won} won, {obs['hand_sizes'][p]} in hand{tag} · field: {cards}")
        else:
            lines.append(f"P{p + 1}{you}: {won} won, {_count(obs['hand_sizes'][p], 'card')} in hand{tag}")
            lines.append(f"    field: {cards}")
        if p != seat and obs["known_in_hands"][p]:
            lines.append(f"    known in hand: {_cards(obs['known_in_hands'][p])}")
        # BR-23: cards everyone saw go back to this player, now in its hand or among its face-down cards.
        doubtful = [c for c in obs["recalled"][p] if c not in obs["known_in_hands"][p]] if p != seat else []
        if doubtful:
            lines.append(f"    in hand or face down: {_cards(doubtful)}")
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
        winners = _seats(obs["battle_winners"]) or "nobody (a drawn battle)"
        lines.append(
            "Last battle: "
            + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(obs["battle_scores"]))
            + f" — won by {winners}"
        )
    if not compact:
        lines.append("(face-down cards in [brackets]; ?? = a card you have not seen)")
    if obs["terminal"]:
        lines.append("Winners: " + _seats(obs["winners"]))
    return "\n".join(lines)


def _p(seat: Any) -> str:
    return f"P{int(seat) + 1}"


def describe_event(event: Mapping[str, Any]) -> str:
    """One English line for an event view."""
    kind = event["kind"]
    if kind == "deal":
        cards = f": {_cards(event['cards'])}" if "cards" in event else ""
        return f"{_p(event['seat'])} is dealt {_count(event['count'], 'card')}{cards}"
    if kind == "battle":
        return f"— Battle {event['battle']} —"
    if kind == "dice":
        return "Dice: " + ", ".join(f"{p} rolls {r}" for p, r in event["rolls"].items())
    if kind == "first_player":
        return f"{_p(event['seat'])} plays first in this battle"
    if kind == "recycle":
        return f"The Discard pile is shuffled into the Deck, which now holds {_count(event['deck'], 'card')}"
    if kind == "mulligan_aside":
        card = f" ({pretty(event['card'])})" if "card" in event else ""
        return f"{_p(event['seat'])} sets a card aside for the mulligan{card}"
    if kind == "mulligan":
        if not event["count"]:
            return f"{_p(event['seat'])} keeps their hand"
        extra = ""
        if "drawn" in event:
            extra = f": {_cards(event['discarded'])} out, {_cards(event['drawn'])} in"
        return f"{_p(event['seat'])} exchanges {_count(event['count'], 'card')} in the mulligan{extra}"
    if kind == "play":
        if event["face_up"]:
            return f"{_p(event['seat'])} plays {pretty(event['card'])} face up"
        card = f" ({pretty(event['card'])})" if "card" in event else ""
        return f"{_p(event['seat'])} plays a card face down{card}"
    if kind == "pass":
        return f"{_p(event['seat'])} passes" + (" (no cards in hand)" if event["automatic"] else "")
    if kind == "cancelled":
        return f"{pretty(event['card'])} does nothing: the Jack of Diamonds is in force"
    if kind == "battle_ends":
        return f"{pretty(event['by'])} ends the battle at once"
    if kind == "draw":
        if not event["count"]:
            return f"{_p(event['seat'])} draws no card: the Deck and the Discard pile are empty"
        cards = f": {_cards(event['cards'])}" if "cards" in event else ""
        return f"{_p(event['seat'])} draws {_count(event['count'], 'card')}{cards}"
    if kind == "swap":
        return f"{_p(event['seat'])} and {_p(event['target'])} trade fields"
    if kind == "rotate":
        return "Every field moves one seat clockwise (P1's field to P2, and so on)"
    if kind == "reveal":
        fields = [f"P{p + 1} {_cards(f) if f else 'no cards'}" for p, f in enumerate(event["fields"])]
        return "Reveal: " + "; ".join(fields)
    if kind == "joker":
        seat, joker = _p(event["seat"]), pretty(event["joker"])
        if event["choice"] == "keep":
            return f"{seat} takes the {joker} back to hand"
        if not event["cards"]:
            return f"{seat} leaves the {joker} in their field (no other card to take back)"
        return (
            f"{seat} leaves the {joker} in their field and takes the other cards back to hand: {_cards(event['cards'])}"
        )
    if kind == "gift":
        return f"{_p(event['seat'])} gives {_cards(event['cards'])} to {_p(event['target'])}"
    if kind == "queen_zone":
        note = ", cancelled by the Jack of Diamonds" if event["cancelled"] else ""
        return f"{pretty(event['card'])} goes to the Queen Zone{note}"
    if kind == "destroy":
        return f"The King of Diamonds destroys {_p(event['seat'])}'s {_cards(event['cards'])}"
    if kind == "provisional_scores":
        return "Provisional scores: " + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(event["scores"]))
    if kind == "battle_result":
        scores = ", ".join(f"P{p + 1} {s}" for p, s in enumerate(event["scores"]))
        winners = event["winners"]
        if not winners:
            return f"Battle scores: {scores} — a drawn battle, nobody wins it"
        if len(winners) == 1:
            return f"Battle scores: {scores} — {_p(winners[0])} wins the battle"
        return f"Battle scores: {scores} — a tie: {_seats(winners)} each win the battle"
    if kind == "return":
        return f"King of Hearts: {_p(event['seat'])} takes {pretty(event['card'])} back to hand"
    if kind == "discard":
        return f"The table is cleared: the Discard pile now holds {_count(event['discard'], 'card')}"
    if kind == "take":
        return f"King of Spades: {_p(event['seat'])} takes {pretty(event['card'])} from Discard"
    if kind == "game_over":
        won = ", ".join(f"P{p + 1} {w}" for p, w in enumerate(event["wins"]))
        winners = event["winners"]
        if len(winners) == 1:
            return f"Game over — {_p(winners[0])} wins the game (battles won: {won})"
        return f"Game over — {_seats(winners)} share the win (battles won: {won})"
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
        "play": f"play {card}" + (" face up" if IS_JACK[action.card] else " face down"),
        "pass": "pass for the rest of the battle",
        "mulligan": f"set {card} aside for the mulligan",
        "keep": "finish the mulligan and keep the rest of your hand",
        "swap": f"trade fields with {target}",
        "gift": f"give your hearts to {target}",
        "give": f"give {card} to {target}",
        "joker keep": "take the Joker back to hand",
        "joker field": "take every other card of your field back to hand",
        "return": f"take {card} back to hand",
        "take": f"take {card} from Discard",
    }
    return texts[verb]
