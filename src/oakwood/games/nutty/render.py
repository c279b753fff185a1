"""Plain-text pictures of Nutty Squirrels observations and one-line descriptions of events and actions."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from .actions import COLOUR_WORD, Act
from .cards import NAME, POWER_WORD
from .tree import WIN_POINTS

# A revealed leaf shows what lies on it now (``[leaf 2b]``), never what it held when revealed: the acorns
# of a ``3`` leaf may long be gone.
LABEL = {
    "0": "leaf",
    "1": "leaf",
    "2": "leaf",
    "3": "leaf",
    "G": "leaf",
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


def render(obs: Mapping[str, Any], *, compact: bool = False) -> str:
    """The tree as six rows from the trunk outward, then the supply, the boards and whose turn it is.

    ``compact`` says the same in fewer lines, for a small terminal: the trunk on the heading line, no legend,
    the Leaf Deck, supply and cards out of play on one line.
    """
    lines = []
    mode = obs.get("mode", "multiplayer")
    head = f"Nutty Squirrels — {mode}"
    if mode == "multiplayer" and not obs["terminal"]:
        head += f", round {obs['round']}, P{obs['current'] + 1} to play with {obs['ap']} AP"
        if obs.get("turns_left", -1) >= 0:  # the last round: the end was triggered, or 20 points with finish_round
            left = obs["turns_left"]
            head += f" (last turns: this one and {left} more)"
    trunk = [str(i + 1) for i, b in enumerate(obs["boards"]) if b["at"] == "trunk"]
    on_trunk = f"Central Trunk: {', '.join('P' + s for s in trunk) or '-'}"
    lines += [f"{head} · {on_trunk.replace('Central ', '')}"] if compact else [head, on_trunk]
    # Columns are as wide as their widest cell, so the tree fits an 80-column terminal in most positions.
    grid = [[_cell(card) for card in row] for row in obs["tree"]]
    widths = [max([len(f"c{i + 1}")] + [len(row[i]) for row in grid if i < len(row)]) for i in range(5)]
    lines.append("       " + " ".join(f"c{i + 1}".ljust(widths[i]) for i in range(5)).rstrip())
    for limb, row in enumerate(grid):
        cells = " ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() or "(fallen limb)"
        lines.append(f"  L{limb + 1} ─ {cells}")
    if not compact:
        lines.append("  ?? face down · *power · 2b1g acorns lying on the card now · @n squirrel of player n")
    supply = obs["supply"]
    out = obs["out_of_play"]
    stock = f"Leaf Deck {obs['deck']} · supply {supply['brown']} brown {supply['golden']} golden"
    # Its own line in full: late in a game the list is long.
    gone = f"Out of play: {_names(out['cards']) or '-'}" + (
        f" (+{out['face_down']} unseen)" if out["face_down"] else ""
    )
    lines += [f"{stock} · {gone}"] if compact else [stock, gone]
    if obs.get("market") is not None and mode == "solo":
        market = f"Market (3 points each): {', '.join(NAME[p] for p in obs['market']) or '-'}"
        wealth = f"Wealth (cheeks, backpack, nest) {_points(obs['wealth'])}"
        lines += [f"{market} · {wealth}"] if compact else [market, wealth]
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
        if compact:  # powers by their tree labels, points short: one line even with three powers
            short = " ".join(LABEL[p] for p in board["powers"])
            lines.append(
                f"{marker}P{seat + 1} {board['at']:<6} {board['points']:>2}p · cheeks "
                f"{_acorns(cheeks['brown'], cheeks['golden']) or '-'}{pack}"
                f" · nest {_acorns(nest['brown'], nest['golden']) or '-'}"
                f" · burrow {_acorns(burrow['brown'], burrow['golden']) or '-'}"
                + (f" · {short}" if short else "")
                + extra
            )
            continue
        lines.append(
            f"{marker}P{seat + 1} at {board['at']:<6} {_points(board['points']):>9} · cheeks "
            f"{_acorns(cheeks['brown'], cheeks['golden']) or '-'}{pack}"
            f" · nest {_acorns(nest['brown'], nest['golden']) or '-'}"
            f" · burrow {_acorns(burrow['brown'], burrow['golden']) or '-'} · {powers}{extra}"
        )
    if obs.get("copy"):
        spent = " (used up)" if obs.get("copy_spent") else ""
        lines.append(f"Doppelgänger copies {NAME[obs['copy']]} this turn{spent}")
    if obs.get("phase") == "fools":
        lines.append(f"Fool's Gold: choose the golden acorn to exchange: {', '.join(obs['fools_places'])}")
    if obs.get("phase") == "bribe":
        lines.append("The Owl must be bribed with 3 points: choose the acorns that pay (bribe pays the usual way).")
    if obs["terminal"]:
        lines.append(_over_line(obs, mode))
    return "\n".join(lines)


def _seats(seats: list[int]) -> str:
    """``P1``, ``P1 and P3``, ``P1, P2 and P4``."""
    names = [f"P{s + 1}" for s in seats]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _count(brown: int, golden: int) -> str:
    """``1 brown acorn``, ``2 brown and 1 golden acorn``, ``no acorn``."""
    parts = [f"{n} {colour}" for n, colour in ((brown, "brown"), (golden, "golden")) if n]
    if not parts:
        return "no acorn"
    return " and ".join(parts) + (" acorn" if brown + golden == 1 else " acorns")


def _ap(event: Mapping[str, Any], cost: int = 1) -> str:
    """`` (1 AP, 2 left)`` for a multiplayer event that carries the AP left; nothing in solo."""
    return f" ({cost} AP, {event['ap']} left)" if "ap" in event else ""


def _paid(event: Mapping[str, Any]) -> str:
    """What a solo payment took, and the change that came back."""
    from .payment import describe

    text = describe(tuple(event["taken"]))
    change = event.get("change", 0)
    return text + (
        f" ({change} brown {'acorn' if change == 1 else 'acorns'} back to the nest as change)" if change else ""
    )


_FALL_CAUSE = {
    "broken branch": " from a Broken Branch",
    "wind gust": ", pushed by a Wind Gust",
    "the Owl": ", scared by the Owl",
}
_GAME_OVER = {
    "20 points": "20 points buried",
    "final round over": "the final round is over",
    "round limit": "max_rounds reached",
}


def _falls(seats: list[int], lost: list[list[int]], how: str) -> str:
    """``P2 falls to the trunk from a Broken Branch, losing 1 brown acorn``."""
    verb = "falls" if len(seats) == 1 else "fall"
    text = f"{_seats(seats)} {verb} to the trunk{how}"
    losses = [(s, b, g) for s, (b, g) in zip(seats, lost, strict=True) if b or g]
    if len(seats) == 1 and losses:
        return f"{text}, losing {_count(losses[0][1], losses[0][2])} to the supply"
    if losses:
        return text + "; " + ", ".join(f"P{s + 1} loses {_count(b, g)}" for s, b, g in losses) + " to the supply"
    return text


def _over_line(obs: Mapping[str, Any], mode: str) -> str:
    """The last line of a finished game's picture."""
    if mode == "solo":
        points = obs["boards"][0]["points"]
        outcome = {"won": "won", "lost": "lost (the Owl could not be bribed)"}.get(obs.get("result", ""), "ended")
        return f"Game over: {outcome}, with {_points(points)}."
    winners = obs["winners"]
    if not winners:
        return "Game over."
    if len(winners) == 1:
        return f"Game over. Winner: P{winners[0] + 1}."
    return f"Game over. {_seats(winners)} share the win."


def describe_event(event: Mapping[str, Any]) -> str:
    """One line of English for an event view: what happened, what it cost, what it left."""
    kind = event["kind"]
    who = f"P{event['seat'] + 1}" if "seat" in event else ""
    colour = COLOUR_WORD.get(event.get("colour", ""), "")
    if kind == "setup":
        if event["players"] == 1:
            market = _list([NAME[p] for p in event.get("market", [])]) or "nothing"
            return f"New solo game: the Leaf Deck holds {event['deck']} cards; the market sells {market}."
        return (
            f"New game for {event['players']} players: the Leaf Deck holds {event['deck']} cards. "
            f"P{event['first'] + 1} starts."
        )
    if kind == "turn":
        return f"{who}'s turn (round {event['round']}): {event['ap']} AP."
    if kind == "end_turn":
        return f"{who} ends the turn."
    if kind == "move":
        to = "the trunk" if event["to"] == "trunk" else event["to"]
        if "cost" in event:  # multiplayer
            return f"{who} moves to {to}{_ap(event, event['cost'])}."
        if event["paid"]:
            return f"{who} moves to {to}, paying {event['paid']} point: {_paid(event)}."
        return f"{who} moves to {to} (free)."
    if kind == "flip":
        return f"{who} flips {event['at']}{_ap(event)}: {NAME[event['card']]}."
    if kind == "fall":
        return _falls(event["seats"], event["lost"], _FALL_CAUSE.get(event["cause"], f" ({event['cause']})")) + "."
    if kind == "break":
        gone = [NAME[c] for c in event["cards"]] + ([f"{event['unseen']} unseen"] if event["unseen"] else [])
        n = len(event["cards"]) + event["unseen"]
        text = (
            f"Limb L{event['limb']} breaks beyond c{event['after']}: {n} {'card leaves' if n == 1 else 'cards leave'} "
            f"play ({_list(gone)})"
        )
        if event["brown"] or event["golden"]:
            verb = "goes" if event["brown"] + event["golden"] == 1 else "go"
            text += f"; {_count(event['brown'], event['golden'])} on them {verb} back to the supply"
        if event["fallen"]:
            text += "; " + _falls(event["fallen"], event["lost"], "")
        if event["slid"]:
            verb = "slides" if len(event["slid"]) == 1 else "slide"
            text += f"; {_seats(event['slid'])} {verb} inward to the break"
        return text + "."
    if kind == "blown":
        return f"The Wind Gust blows {who} out to {event['to']}."
    if kind == "claim":
        back = f", leaving {NAME[event['returned']]} in its place" if event.get("returned") else ""
        return f"{who} claims {NAME[event['power']]}{back}."
    if kind == "gather":
        return f"{who} gathers a {colour} acorn from the card."
    if kind == "drop":
        return f"{who} drops a {colour} acorn on the card."
    if kind == "pack":
        return f"{who} moves a {colour} acorn from the cheeks into the Backpack."
    if kind == "unpack":
        return f"{who} moves the {colour} acorn from the Backpack into the cheeks."
    if kind in ("stash", "unstash"):
        text = (
            f"{who} stashes a {colour} acorn in the nest"
            if kind == "stash"
            else (f"{who} takes a {colour} acorn back from the nest")
        )
        return text + (f" ({_points(event['points'])})." if "points" in event else ".")
    if kind == "bury":
        source = "the Backpack" if event["source"] == "backpack" else f"the {event['source']}"
        return f"{who} buries a {colour} acorn from {source}{_ap(event)}: {_points(event['points'])}."
    if kind == "steal":
        victim = f"P{event['victim'] + 1}"
        if "power" in event:
            return f"{who} steals {victim}'s {_owned(event['power'])}{_ap(event)}."
        where = "onto Sticky Fingers" if event.get("tracked") else "into the cheeks"
        return f"{who} steals a {colour} acorn from {victim}'s {event['source']} {where}{_ap(event)}."
    if kind == "owl":
        if event.get("waiting"):
            return f"{who} must bribe the Owl with 3 points: choose the acorns that pay."
        if "bribed" in event:
            if not event["bribed"]:
                return "The Owl cannot be bribed with 3 points: the game is lost."
            return f"{who} bribes the Owl with 3 points: {_paid(event)}; the Owl leaves play."
        if "power" in event:
            return f"{who}'s Owl destroys P{event['victim'] + 1}'s {_owned(event['power'])}; the Owl leaves play."
        return f"{who} sets the Owl on limb L{event['limb']}; the Owl leaves play."
    if kind == "pickpocket":
        place = "the Backpack" if event["place"] == "backpack" else "the cheeks"
        return f"Sticky Fingers picks {who}'s pocket: a {colour} acorn from {place} goes back to the supply."
    if kind == "buy":
        back = f", returning {NAME[event['returned']]} to the market" if event.get("returned") else ""
        return f"{who} buys {NAME[event['power']]} for 3 points{back}: {_paid(event)}."
    if kind == "arborist":
        shown = _list([NAME[c] for c in event["cards"]]) or "nothing face down"
        return f"{who}'s Arborist reveals limb L{event['limb']}: {shown}."
    if kind == "copy":
        return f"{who}'s Doppelgänger copies {NAME[event['power']]} for the rest of the turn."
    if kind == "lasso":
        return f"{who} lassoes a {colour} acorn from {event['source']} onto {event['to']}{_ap(event)}."
    if kind == "spit":
        return f"{who} spits a {colour} acorn from {event['source']} into the nest{_ap(event)}."
    if kind == "loot":
        took = _count(event["brown"], event["golden"])
        return f"{who} takes {took} tracked on P{event['victim'] + 1}'s Sticky Fingers{_ap(event)}."
    if kind == "sticky_full":
        return (
            f"{who}'s Sticky Fingers holds three acorns: they are buried ({_points(event['points'])}) and the card "
            "leaves play."
        )
    if kind == "convert":
        return f"{who} converts five brown acorns from the nest into a golden one{_ap(event)}."
    if kind == "fools_gold":
        given = "a brown one" if event.get("brown", 1) else "nothing (the supply has no brown acorn)"
        return f"Fool's Gold: {who} gives a golden acorn from the {event['place']} back for {given}."
    if kind == "end_triggered":
        left = event["turns_left"]
        turns = "turn" if left == 1 else "turns"
        return f"No face-down card is left: the end is triggered, with {left} more {turns} after this one."
    if kind == "game_over":
        return _game_over(event)
    details = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "seat"))
    return f"{who} {kind.replace('_', ' ')}" + (f": {details}" if details else "")


def _owned(power: str) -> str:
    """A power's name after a possessive: ``P2's Lasso``, not ``P2's The Lasso``."""
    return NAME[power].removeprefix("The ")


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def short_of(score: int) -> str:
    """A solo score below the win, with how far below: ``18 points, 2 short of 20`` (NS-17 d)."""
    return f"{_points(score)}, {WIN_POINTS - score} short of {WIN_POINTS}"


def _list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def _game_over(event: Mapping[str, Any]) -> str:
    reason = _GAME_OVER.get(event["reason"], event["reason"])
    winners = event["winners"]
    if "score" in event:  # solo
        score = event["score"]
        if winners:
            return f"Game over ({reason}): P1 wins with {_points(score)}."
        return f"Game over ({reason}): {short_of(score)}."
    scores = event.get("scores")
    if not winners:
        return f"Game over ({reason})."
    with_points = f" with {scores[winners[0]]} points" if scores else ""
    if len(winners) == 1:
        return f"Game over ({reason}): P{winners[0] + 1} wins{with_points}."
    return f"Game over ({reason}): {_seats(winners)} share the win{with_points}."


_USUAL = "carried brown, then nest brown, then a golden (change to the nest)"


def describe_action(action: Hashable) -> str:
    """A short explanation of an action, for menus: what it does and what it costs."""
    from .payment import BY_TEXT, describe

    if not isinstance(action, Act):
        return str(action)
    text = str(action)
    notes = {
        "end": "end your turn",
        "flip": "flip the card you stand on (1 AP; free in solo)",
        "convert": "5 brown in the nest → 1 golden (1 AP)",
        "end game": "stop the solo game now",
        "bribe": f"pay the Owl 3 points the usual way: {_USUAL}",
    }
    if text in notes:
        return f"{text} — {notes[text]}"
    if action.pay:
        cost = 1 if action.verb == "move" else 3
        taken = BY_TEXT[(cost, action.pay)]
        change = sum(v * c for v, c in zip((1, 5, 1, 5, 1, 5), taken, strict=True)) - cost
        back = f", {change} brown back to your nest as change" if change else ""
        what = {"move": "the step", "buy": "the power", "bribe": "the Owl's bribe"}[action.verb]
        return f"{text} — {what} costs {cost} {'point' if cost == 1 else 'points'}: pay with {describe(taken)}{back}"
    if action.verb == "buy":
        return (
            f"{text} — 3 points, paid the usual way: carried brown, then nest brown, then a golden (change to the nest)"
        )
    if action.verb == "bury":
        return f"{text} — 1 AP (free in solo)"
    if action.verb == "copy":
        return f"{text} — Doppelgänger mimics {POWER_WORD[action.power]} for this turn"
    return text


#: What a multiplayer action costs in action points (NS-9, NS-11, NS-12, NS-13, NS-16); a move is worked out.
_AP_COST = {
    "flip": 1,
    "convert": 1,
    "bury": 1,
    "steal": 1,
    "loot": 1,
    "lasso": 1,
    "spit": 1,
    "claim": 0,
    "gather": 0,
    "drop": 0,
    "pack": 0,
    "unpack": 0,
    "stash": 0,
    "unstash": 0,
    "exchange": 0,
    "copy": 0,
    "owl": 0,
}


def describe_move(obs: Mapping[str, Any], action: Hashable) -> str:
    """``describe_action`` with what the action costs in this position: AP in the multiplayer game (a move
    onto a revealed Broken Branch costs 2, 1 with Swinging Squirrel), points in solo (an outward step onto a
    face-up card, a purchase, the Owl's bribe; everything else is free)."""
    text = describe_action(action)
    if not isinstance(action, Act) or action.verb == "end" or action.pay:
        return text  # ending costs nothing, and a named payment already says what it pays
    cost = _solo_cost(obs, action) if obs.get("mode") == "solo" else _ap_cost(obs, action)
    if cost is None:
        return text
    move = str(action)
    note = text[len(move) + 3 :] if text.startswith(f"{move} — ") else ""
    return f"{move} — {cost}" + (f" · {note}" if note and not note.startswith(("1 AP", "3 points")) else "")


def _ap_cost(obs: Mapping[str, Any], action: Act) -> str | None:
    if action.verb == "move":
        board = obs["boards"][obs["current"]]
        broken = action.limb >= 0 and obs["tree"][action.limb][action.pos]["card"] == "BB"
        swinging = "SW" in board["powers"]
        return "2 AP (onto a Broken Branch)" if broken and not swinging else "1 AP"
    ap = _AP_COST.get(action.verb)
    return None if ap is None else f"{ap} AP"


def _solo_cost(obs: Mapping[str, Any], action: Act) -> str | None:
    if action.verb in ("buy", "bribe"):
        return "3 points in acorns, paid the usual way"
    if action.verb != "move":
        return "free"
    here = obs["boards"][0]["at"]
    if action.limb < 0:
        return "free (inward)"
    target = obs["tree"][action.limb][action.pos]
    if here != "trunk":
        limb, pos = (int(part) - 1 for part in here[1:].split("c"))
        if action.limb == limb and action.pos < pos:
            return "free (inward)"
        if action.limb != limb:
            return "free (sideways)"
    if target["card"] is None:
        return "free (lands face down: flips it)"
    return "1 point in acorns (outward onto a face-up card)"
