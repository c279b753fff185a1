"""Plain-text pictures of S'Quarrels observations and events, for the terminal and logs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import actions as A
from .actions import Action
from .cards import NAME_TO_CARD, NAMES

_PHASE_TEXT = {
    "must_draw": "must draw a card",
    "drawing": "drawing (draw while under 7, store sets, or discard to end the turn)",
    "storing": "storing (store sets, then discard one card)",
    "quarrel": "QUARREL! everyone holding a card picks one",
    "race": "HOARD! race for the Hoard Pile",
    "over": "match over",
}


def _p(seat: int | None) -> str:
    return "spectator" if seat is None else f"P{seat + 1}"


def _players(seats: list[int]) -> str:
    """``P1``, ``P1 and P3``, ``P1, P2 and P4``."""
    names = [_p(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _count(number: int, noun: str) -> str:
    """``1 card``, ``2 cards``, ``0 cards``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _cards(names: list[str]) -> str:
    return " ".join(_short(n) for n in names) or "(empty)"


def _listed(names: list[str]) -> str:
    """Hand cards in rank order, as hands are shown: ``Rotten, 2, 4, 4``."""
    return ", ".join(_short(n) for n in sorted(names, key=NAME_TO_CARD.__getitem__))


def _counted(names: list[str]) -> str:
    """Action cards with repeats counted: ``Quarrel ×3, Hoard``."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(_short(n) if c == 1 else f"{_short(n)} ×{c}" for n, c in counts.items())


def _short(name: str) -> str:
    """A card as the table shows it: ``5``, ``Rotten``, ``Golden``, ``Quarrel``."""
    return name.capitalize()


def _per_seat(values: list[int], signed: bool = False) -> str:
    return ", ".join(f"P{i + 1} {v:+d}" if signed else f"P{i + 1} {v}" for i, v in enumerate(values))


def _sets(values: list[int], with_golden: list[int]) -> str:
    """Stored sets: ``[111] [22G]`` (a set the Golden completed shows it, SQ-8)."""
    wild = list(with_golden)
    shown = []
    for value in values:
        if value in wild:
            wild.remove(value)
            shown.append(f"[{value}{value}G]")
        else:
            shown.append(f"[{value}{value}{value}]")
    return " ".join(shown) or "-"


def _phase_text(view: Mapping[str, Any]) -> str:
    phase: str = view["phase"]
    if phase == "drawing":
        size = view["hand_sizes"][view["active"]]
        if view["must_draw_to_7"] and size < 7:
            return "drawing (after the Whirlwind: must draw up to 7 cards)"
        if size == 0:
            return "drawing (no cards: draw, or end the turn)"
        if size >= 7:
            return "7 cards or more: no more drawing (store sets, or discard to end the turn)"
    return _PHASE_TEXT.get(phase, phase)


def render(view: Mapping[str, Any], *, compact: bool = False) -> str:
    """The whole table from one seat's point of view (``compact``: without the blank lines and with the
    round and the piles on one line, for a small terminal)."""
    seat = view["seat"]
    n = view["players"]
    lines: list[str] = []
    target = view["target_score"]
    head = f"S'Quarrels — round {view['round']}, dealer {_p(view['dealer'])}"
    head += f", playing to {target}" if target is not None else ", single round"
    discard = ", ".join(f"{_short(k)}×{v}" for k, v in view["action_discard"].items()) or "empty"
    piles = f"Deck {_count(view['deck_size'], 'card')} · Hoard Pile {view['hoard_pile_size']} face down · "
    if compact:
        head = head.replace("S'Quarrels — r", "R")
        lines.append(f"{head} · {piles}Discard: {discard}")
    else:
        lines += [head, f"{piles}Discard: {discard}", ""]
    for s in range(n):
        marker = "▶" if s in view["to_act"] else " "
        you = " (you)" if s == seat else ""
        sets = _sets(view["storage"][s], view["storage_with_golden"][s])
        hand = _count(view["hand_sizes"][s], "card")
        lines.append(f"{marker} {_p(s)}{you:6} total {view['scores'][s]:>4} · hand {hand} · stored {sets}")
    if not compact:
        lines.append("")
    if view["terminal"]:
        winners = view["winners"]
        label = "winner" if len(winners) == 1 else "winners"
        lines.append(f"Match over — {label}: {_players(winners)}. Final totals: {_per_seat(view['scores'])}")
        return "\n".join(lines)
    if seat is not None:
        lines.append(f"Your hand: {_cards(view['hand'])}")
        if view["hoard_pile_yours"]:
            lines.append(f"You put into the Hoard Pile: {_cards(view['hoard_pile_yours'])}")
        known = view.get("known_in_hands") or []
        seen = [f"{_p(s)}: {_cards(cards)}" for s, cards in enumerate(known) if s != seat and cards]
        if seen:
            lines.append(f"You know these cards are in other hands — {'; '.join(seen)}")
        lines.append(f"Your round score if Winter came now: {view['your_round_score']}")
    quarrel = view.get("quarrel")
    if quarrel:
        pot = ", ".join(f"{_p(p['seat'])}: {_short(p['card'])}" for p in quarrel["pot"]) or "nothing yet"
        waiting = [s for s in quarrel["live"] if s not in quarrel["committed"]]
        lines.append(f"Quarrel drawn by {_p(quarrel['drawer'])}. Revealed so far: {pot}")
        lines.append(f"Waiting for: {_players(waiting)}")
        if quarrel["your_play"]:
            lines.append(f"You played: {_short(quarrel['your_play'])} (hidden until everyone has played)")
    race = view.get("race")
    if race:
        size = view["hoard_pile_size"]
        stake = f"{_count(size, 'card')} up for grabs" if size else "an empty Hoard Pile, but the winner takes the turn"
        lines.append(f"Hoard drawn by {_p(race['drawer'])}: {stake}. Racing: {_players(race['eligible'])}")
    lines.append(f"{_p(view['active'])}: {_phase_text(view)}")
    return "\n".join(lines)


def _describe_round_start(event: Mapping[str, Any]) -> str:
    text = f"Round {event['round']} is dealt by {_p(event['dealer'])}."
    aside = list(event["set_aside"])
    to_deck = event["to_deck"]
    if not event["winter_reshuffle"]:
        if aside:
            text += f" Dealt Action cards go to Discard and are replaced: {_counted(aside)}."
        return text
    others = list(aside)
    for name in to_deck:
        others.remove(name)
    if not others:
        shown = "Winter was" if to_deck == ["winter"] else f"the set-aside cards ({_counted(to_deck)}) were"
        return text + f" Winter came up in the deal: {shown} shuffled back into the Deck."
    return (
        text + " Winter came up in the deal and was shuffled back into the Deck; "
        f"the other set-aside cards went to Discard: {_counted(others)}."
    )


def _describe_reveal(event: Mapping[str, Any]) -> str:
    plays = ", ".join(f"P{int(s) + 1} {_short(c)}" for s, c in event["plays"].items())
    text = f"Quarrel reveal: {plays}"
    if not event["tied"]:
        return text + "."
    again, out = event["again"], event["out"]
    if again:
        who = f"{_players(again)} plays again alone" if len(again) == 1 else f"{_players(again)} play again"
        text += f" — a tie! {who}"
        return text + (f"; {_players(out)} {'is' if len(out) == 1 else 'are'} out of cards." if out else ".")
    # Nobody plays again: a tied player is out of cards, so a lone survivor wins or the Quarrel is drawn (SQ-6).
    return text + f" — a tie, but {_players(out)} {'has' if len(out) == 1 else 'have'} no cards left."


def _describe_quarrel_won(event: Mapping[str, Any]) -> str:
    who = _p(event["seat"])
    cards = event["cards"]
    text = f"{who} wins the Quarrel and takes {_listed(cards)}" if cards else f"{who} wins the Quarrel"
    if event["golden_to_discard"]:
        return text + "; the played Golden Acorn goes to Discard."
    return text + "."


def _held(event: Mapping[str, Any]) -> list[tuple[int, list[str]]]:
    """The seats that showed the Golden or the Rotten at Winter, with what they showed (SQ-25)."""
    return [(s, held) for s, held in enumerate(event.get("held") or []) if held]


def describe_event(event: Mapping[str, Any]) -> str:
    """One English line for an event view."""
    kind = event["kind"]
    who = _p(event.get("seat"))
    if kind == "match_start":
        return f"A {event['players']}-player match begins; {_p(event['dealer'])} deals first."
    if kind == "round_start":
        return _describe_round_start(event)
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
        return _describe_reveal(event)
    if kind == "quarrel_won":
        return _describe_quarrel_won(event)
    if kind == "quarrel_drawn":
        if event["returned"] == 0:
            return "Nobody holds a card: the Quarrel is over before it starts."
        return "The Quarrel is a draw: every card goes back to its owner."
    if kind == "race_open":
        return f"{_p(event['drawer'])} drew the Hoard: race for the Hoard Pile!"
    if kind == "race_pass":
        return f"{who} lets the Hoard go."
    if kind == "race_commit":
        answer = f" ({'slap' if event['slap'] else 'pass'})" if "slap" in event else ""
        return f"{who} answered the race{answer}."
    if kind == "hoard_won":
        if event["count"] == 0:
            return f"{who} wins the race for the Hoard Pile, but it is empty."
        cards = f": {_listed(event['cards'])}" if "cards" in event else ""
        return f"{who} grabs the Hoard Pile ({_count(event['count'], 'card')}){cards}."
    if kind == "race_declined":
        return "Nobody wanted the Hoard Pile."
    if kind == "hoard_skipped":
        return "The Hoard Pile is empty: no race."
    if kind == "ambush":
        card = f" ({_short(event['card'])})" if "card" in event else ""
        return f"{who} ambushes {_p(event['victim'])} and steals a card{card}."
    if kind == "whirlwind":
        if not any(event["hand_sizes"]):
            return "Whirlwind! But every hand is empty: there is nothing to shuffle."
        return f"Whirlwind! Every hand is shuffled together and dealt again from {who}."
    if kind == "round_end":
        shown = [
            f"{_p(s)} shows the {' and the '.join(_short(c) + ' Acorn' for c in held)}" for s, held in _held(event)
        ]
        return (
            f"Winter ends round {event['round']}: {_per_seat(event['scores'], signed=True)}. "
            f"Totals: {_per_seat(event['totals'])}." + "".join(f" {line}." for line in shown)
        )
    if kind == "match_end":
        winners = event["winners"]
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"The match is over: {_players(winners)} {verb}. Totals: {_per_seat(event['totals'])}."
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
