"""Plain-text pictures of S'Quarrels observations and events, for the terminal and logs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import actions as A
from .actions import Action
from .cards import NAMES

_PHASE_TEXT = {
    "must_draw": "must draw a card",
    "drawing": "drawing (draw while under 7, store sets, or discard to end the turn)",
    "storing": "storing (store sets, then discard one card)",
    "quarrel": "QUARREL! everyone picks a card",
    "race": "HOARD! race for the Hoard Pile",
    "over": "match over",
}


def _p(seat: int | None) -> str:
    return "spectator" if seat is None else f"P{seat + 1}"


def _cards(names: list[str]) -> str:
    return " ".join(_short(n) for n in names) or "(empty)"


def _short(name: str) -> str:
    return {"rotten": "Rotten", "golden": "Golden"}.get(name, name)


def render(view: Mapping[str, Any]) -> str:
    """The whole table from one seat's point of view."""
    seat = view["seat"]
    n = view["players"]
    lines: list[str] = []
    target = view["target_score"]
    head = f"S'Quarrels — round {view['round']}, dealer {_p(view['dealer'])}"
    head += f", playing to {target}" if target is not None else ", single round"
    lines.append(head)
    lines.append(
        f"Deck {view['deck_size']} cards · Hoard Pile {view['hoard_pile_size']} face down · "
        f"Discard: {', '.join(f'{_short(k)}×{v}' for k, v in view['action_discard'].items()) or 'empty'}"
    )
    lines.append("")
    for s in range(n):
        marker = "▶" if s in view["to_act"] else " "
        you = " (you)" if s == seat else ""
        stored = view["storage"][s]
        sets = " ".join(f"[{v}{v}{v}]" for v in stored) or "-"
        lines.append(
            f"{marker} {_p(s)}{you:6} total {view['scores'][s]:>4} · hand {view['hand_sizes'][s]} cards · stored {sets}"
        )
    lines.append("")
    if view["terminal"]:
        winners = ", ".join(_p(s) for s in view["winners"])
        lines.append(f"Match over — winner: {winners}. Final totals: {view['scores']}")
        return "\n".join(lines)
    if seat is not None:
        lines.append(f"Your hand: {_cards(view['hand'])}")
        if view["hoard_pile_yours"]:
            lines.append(f"You put into the Hoard Pile: {_cards(view['hoard_pile_yours'])}")
        lines.append(f"Your round score if Winter came now: {view['your_round_score']}")
    quarrel = view.get("quarrel")
    if quarrel:
        pot = ", ".join(f"{_p(p['seat'])}: {_short(p['card'])}" for p in quarrel["pot"]) or "nothing yet"
        waiting = [s for s in quarrel["live"] if s not in quarrel["committed"]]
        lines.append(f"Quarrel drawn by {_p(quarrel['drawer'])}. Revealed so far: {pot}")
        lines.append(f"Waiting for: {', '.join(_p(s) for s in waiting)}")
        if quarrel["your_play"]:
            lines.append(f"You played: {_short(quarrel['your_play'])} (hidden until everyone has played)")
    race = view.get("race")
    if race:
        lines.append(
            f"Hoard drawn by {_p(race['drawer'])}: {view['hoard_pile_size']} cards up for grabs. "
            f"Racing: {', '.join(_p(s) for s in race['eligible'])}"
        )
    active = view["active"]
    lines.append(f"{_p(active)}: {_PHASE_TEXT.get(view['phase'], view['phase'])}")
    return "\n".join(lines)


def describe_event(event: Mapping[str, Any]) -> str:
    """One English line for an event view."""
    kind = event["kind"]
    who = _p(event.get("seat"))
    if kind == "match_start":
        return f"A {event['players']}-player match begins; {_p(event['dealer'])} deals first."
    if kind == "round_start":
        extra = ""
        if event["winter_reshuffle"]:
            extra = " Winter came up in the deal: the set-aside cards were shuffled back."
        return f"Round {event['round']} is dealt by {_p(event['dealer'])}.{extra}"
    if kind == "turn":
        return f"{who}'s turn."
    if kind == "draw":
        return f"{who} drew {_short(event['card'])}." if "card" in event else f"{who} drew a card."
    if kind == "draw_action":
        return f"{who} drew {event['card'].upper()}!"
    if kind == "store":
        v = event["value"]
        return f"{who} stored a set of {v}s" + (" using the Golden Acorn." if event["with_golden"] else ".")
    if kind == "discard":
        card = f" ({_short(event['card'])})" if "card" in event else ""
        return f"{who} discarded a card{card} face down to the Hoard Pile."
    if kind == "end_turn":
        return f"{who} has no cards and ends the turn."
    if kind == "quarrel_commit":
        card = f" ({_short(event['card'])})" if "card" in event else ""
        return f"{who} picked a Quarrel card{card}."
    if kind == "quarrel_reveal":
        plays = ", ".join(f"P{int(s) + 1} {_short(c)}" for s, c in event["plays"].items())
        return f"Quarrel reveal: {plays}" + (" — a tie! The tied players play again." if event["tied"] else ".")
    if kind == "quarrel_won":
        return f"{who} wins the Quarrel and takes {', '.join(_short(c) for c in event['cards'])}."
    if kind == "quarrel_drawn":
        return "The Quarrel is a draw: every card goes back to its owner."
    if kind == "race_open":
        return f"{_p(event['drawer'])} drew the Hoard: race for the Hoard Pile!"
    if kind == "race_pass":
        return f"{who} lets the Hoard go."
    if kind == "race_commit":
        answer = f" ({'slap' if event['slap'] else 'pass'})" if "slap" in event else ""
        return f"{who} answered the race{answer}."
    if kind == "hoard_won":
        cards = f": {', '.join(_short(c) for c in event['cards'])}" if "cards" in event else ""
        return f"{who} grabs the Hoard Pile ({event['count']} cards){cards}."
    if kind == "race_declined":
        return "Nobody wanted the Hoard Pile."
    if kind == "hoard_skipped":
        return "The Hoard Pile is empty: no race."
    if kind == "ambush":
        card = f" ({_short(event['card'])})" if "card" in event else ""
        return f"{who} ambushes {_p(event['victim'])} and steals a card{card}."
    if kind == "whirlwind":
        return f"Whirlwind! Every hand is shuffled together and dealt again from {who}."
    if kind == "round_end":
        scores = ", ".join(f"P{i + 1} {s:+d}" for i, s in enumerate(event["scores"]))
        return f"WINTER ends round {event['round']}: {scores}. Totals {event['totals']}."
    if kind == "match_end":
        return f"The match is over: {', '.join(_p(s) for s in event['winners'])} wins with totals {event['totals']}."
    return f"{kind}: {dict(event)}"


def describe_action(action: Action) -> str:
    """What an action does, in a few words."""
    verb = action.verb
    name = _short(NAMES[action.card]) if action.card >= 0 else ""
    return {
        A.DRAW: "draw a card from the Deck",
        A.STORE: f"store a set of three {name}s",
        A.STORE_WILD: f"store two {name}s with the Golden Acorn",
        A.DISCARD: f"discard {name} to the Hoard Pile and end the turn",
        A.PLAY: f"play {name} in the Quarrel",
        A.SLAP: "slap the Hoard Pile!",
        A.PASS: "let the Hoard Pile go",
        A.END: "end the turn (no cards to discard)",
    }[verb]
