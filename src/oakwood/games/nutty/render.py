"""Plain-text pictures of Nutty Squirrels observations and one-line descriptions of events and actions."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from .actions import COLOUR_WORD, Act
from .cards import NAME, POWER_WORD

LABEL = {
    "0": "leaf·0",
    "1": "leaf·1",
    "2": "leaf·2",
    "3": "leaf·3",
    "G": "leaf·gold",
    "BB": "BROKEN",
    "WG": "Wind",
    "FG": "FoolGold",
    "SF": "Sappy",
    "AR": "Arborist",
    "SW": "*Swing",
    "FL": "*Fly",
    "BP": "*Pack",
    "LA": "*Lasso",
    "ST": "*Sticky",
    "SR": "*Sugar",
    "SP": "*Spit",
    "DO": "*Doppel",
    "OW": "*Owl",
}


def _acorns(brown: int, golden: int) -> str:
    """Acorns as ``2b1g``, or an empty string when there are none."""
    return (f"{brown}b" if brown else "") + (f"{golden}g" if golden else "")


def _names(cards: list[str]) -> str:
    """Card names with counts, in the given order: ``Wind Gust ×2, Sappy Feet``."""
    counts: dict[str, int] = {}
    for kind in cards:
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(NAME[k] + (f" ×{n}" if n > 1 else "") for k, n in counts.items())


def _cell(card: Mapping[str, Any]) -> str:
    kind = card["card"]
    label = "??" if kind is None else LABEL.get(kind, kind)
    acorns = _acorns(card["brown"], card["golden"])
    who = ",".join(str(s + 1) for s in card["squirrels"])
    text = label + (f" {acorns}" if acorns else "") + (f" @{who}" if who else "")
    return f"[{text}]"


def render(obs: Mapping[str, Any]) -> str:
    """The tree as six rows from the trunk outward, then the supply, the boards and whose turn it is."""
    lines = []
    mode = obs.get("mode", "multiplayer")
    head = f"Nutty Squirrels — {mode}"
    if mode == "multiplayer" and not obs["terminal"]:
        head += f", round {obs['round']}, P{obs['current'] + 1} to play with {obs['ap']} AP"
        if obs.get("end_triggered"):
            head += f" (final turns: {obs['turns_left'] + 1} left)"
    lines.append(head)
    trunk = [str(i + 1) for i, b in enumerate(obs["boards"]) if b["at"] == "trunk"]
    lines.append(f"Central Trunk: {', '.join('P' + s for s in trunk) or '-'}")
    # Columns are as wide as their widest cell, so the tree fits an 80-column terminal in most positions.
    grid = [[_cell(card) for card in row] for row in obs["tree"]]
    widths = [max([len(f"c{i + 1}")] + [len(row[i]) for row in grid if i < len(row)]) for i in range(5)]
    lines.append("       " + " ".join(f"c{i + 1}".ljust(widths[i]) for i in range(5)).rstrip())
    for limb, row in enumerate(grid):
        cells = " ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() or "(fallen limb)"
        lines.append(f"  L{limb + 1} ─ {cells}")
    lines.append("  ?? face down · *power · 2b1g acorns on the card · @n squirrel of player n")
    supply = obs["supply"]
    out = obs["out_of_play"]
    lines.append(f"Leaf Deck {obs['deck']} · supply {supply['brown']} brown {supply['golden']} golden")
    lines.append(  # its own line: late in a game the list is long
        f"Out of play: {_names(out['cards']) or '-'}" + (f" (+{out['face_down']} unseen)" if out["face_down"] else "")
    )
    if obs.get("market") is not None and mode == "solo":
        lines.append(f"Market (3 points each): {', '.join(NAME[p] for p in obs['market']) or '-'}")
        lines.append(f"Wealth (cheeks, backpack, nest) {obs['wealth']} points")
    for seat, board in enumerate(obs["boards"]):
        powers = ", ".join(NAME[p] for p in board["powers"]) or "no powers"
        pack = f" backpack {board['backpack']}" if board["backpack"] else ""
        cheeks = board["cheeks"]
        nest = board["nest"]
        burrow = board["burrow"]
        extra = ""
        if board["sticky"]["brown"] or board["sticky"]["golden"]:
            extra += f" · sticky {_acorns(board['sticky']['brown'], board['sticky']['golden'])}"
        if board["sappy_next"] or board["sappy_now"]:
            extra += f" · sappy feet {board['sappy_next'] + board['sappy_now']}"
        marker = ">" if seat in obs["to_act"] else " "
        lines.append(
            f"{marker}P{seat + 1} at {board['at']:<6} {board['points']:>2} pts · cheeks "
            f"{_acorns(cheeks['brown'], cheeks['golden']) or '-'}{pack}"
            f" · nest {_acorns(nest['brown'], nest['golden']) or '-'}"
            f" · burrow {_acorns(burrow['brown'], burrow['golden']) or '-'} · {powers}{extra}"
        )
    if obs.get("copy"):
        lines.append(f"Doppelgänger copies {NAME[obs['copy']]} this turn")
    if obs.get("phase") == "fools":
        lines.append(f"Fool's Gold: choose the golden acorn to exchange: {', '.join(obs['fools_places'])}")
    if obs["terminal"]:
        winners = ", ".join(f"P{s + 1}" for s in obs["winners"]) or "nobody"
        lines.append(f"Game over. Winner: {winners}." if mode != "solo" else f"Game over: {obs.get('result')}.")
    return "\n".join(lines)


def describe_event(event: Mapping[str, Any]) -> str:
    """One line of English for an event view."""
    kind = event["kind"]
    who = f"P{event['seat'] + 1}" if "seat" in event else ""
    if kind == "setup":
        first = f" P{event['first'] + 1} starts." if "first" in event else ""
        return f"New game for {event['players']} player(s); the Leaf Deck holds {event['deck']} cards.{first}"
    if kind == "turn":
        return f"{who}'s turn (round {event['round']}) with {event['ap']} AP."
    if kind == "end_turn":
        return f"{who} ends the turn."
    if kind == "move":
        return f"{who} moves to {event['to']}."
    if kind == "flip":
        return f"{who} flips {event['at']}: {NAME[event['card']]}."
    if kind == "fall":
        seats = ", ".join(f"P{s + 1}" for s in event["seats"]) or "nobody"
        verb = "falls" if len(event["seats"]) == 1 else "fall"
        return f"{seats} {verb} to the trunk ({event['cause']})."
    if kind == "claim":
        back = f", leaving {NAME[event['returned']]}" if event.get("returned") else ""
        return f"{who} claims {NAME[event['power']]}{back}."
    if kind in ("gather", "drop", "stash", "unstash", "bury"):
        verb = {"stash": "stashes", "unstash": "takes back"}.get(kind, kind + "s")
        return f"{who} {verb} a {COLOUR_WORD[event['colour']]} acorn."
    if kind == "steal":
        what = NAME[event["power"]] if "power" in event else f"a {COLOUR_WORD[event['colour']]} acorn"
        return f"{who} steals {what} from P{event['victim'] + 1}."
    if kind == "owl":
        if "bribed" in event:
            return "The Owl is bribed." if event["bribed"] else "The Owl cannot be bribed!"
        if "power" in event:
            return f"{who}'s Owl destroys P{event['victim'] + 1}'s {NAME[event['power']]}."
        return f"{who}'s Owl scares limb L{event['limb']}."
    if kind == "pickpocket":
        return f"{who}: Sticky Fingers picks the squirrel's pocket (the lowest acorn is lost)."
    if kind == "buy":
        back = f", returning {NAME[event['returned']]}" if event.get("returned") else ""
        return f"{who} buys {NAME[event['power']]} for 3 points{back}."
    if kind == "arborist":
        shown = ", ".join(NAME[c] for c in event["cards"]) or "nothing"
        return f"{who}'s Arborist reveals limb L{event['limb']}: {shown}."
    if kind == "copy":
        return f"{who}'s Doppelgänger copies {NAME[event['power']]}."
    if kind in ("lasso", "spit"):
        tool = "lassoes" if kind == "lasso" else "spits"
        return f"{who} {tool} a {COLOUR_WORD[event['colour']]} acorn from {event['source']}."
    if kind == "loot":
        return f"{who} takes the loot tracked on P{event['victim'] + 1}'s Sticky Fingers."
    if kind == "sticky_full":
        return f"{who}'s Sticky Fingers is full: its acorns are buried ({event['points']} points)."
    if kind == "convert":
        return f"{who} converts five brown acorns into a golden one."
    if kind == "fools_gold":
        return f"Fool's Gold: {who} swaps a golden acorn in the {event['place']} for a brown one."
    if kind == "end_triggered":
        return f"The tree is revealed: the end is triggered ({event['turns_left'] + 1} turns left)."
    if kind == "game_over":
        winners = ", ".join(f"P{s + 1}" for s in event["winners"]) or "nobody"
        return f"Game over ({event['reason']}): {winners} wins."
    details = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "seat"))
    return f"{who} {kind.replace('_', ' ')}" + (f": {details}" if details else "")


def describe_action(action: Hashable) -> str:
    """A short explanation of an action."""
    if not isinstance(action, Act):
        return str(action)
    text = str(action)
    notes = {
        "end": "end your turn",
        "flip": "flip the card you stand on (1 AP)",
        "convert": "5 brown in the nest → 1 golden (1 AP)",
        "end game": "stop the solo game now",
    }
    if text in notes:
        return f"{text} — {notes[text]}"
    if action.verb == "bury":
        return f"{text} — 1 AP"
    if action.verb == "copy":
        return f"{text} — Doppelgänger mimics {POWER_WORD[action.power]} for this turn"
    return text
