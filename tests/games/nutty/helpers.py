"""Build Nutty Squirrels positions in notation for scenario tests.

``position`` takes the tree and the boards as notation text and fills in what a scenario does not care
about so that the position conserves cards and acorns: the Leaf Deck holds every card not placed (after
any cards given explicitly on top), and the supply holds every acorn not placed.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import oakwood
from oakwood.engine import State
from oakwood.games.nutty.cards import KINDS, MARKET, PROPOSED_V1, SOLO_KEEP, SOLO_KEEP_WITH_EVENTS

FACE_DOWN_LIMB = "~1,~1,~1,~1,~1"


def _counts(text: str) -> tuple[int, int]:
    b, g = text.split(".")
    return int(b), int(g)


def position(
    tree: list[str],
    players: list[str],
    *,
    turn: str = "1.3.1.1",
    used: str = "0.0",
    copy: str = "-",
    end: str = "0.-1",
    phase: str = "turn",
    win: str = "-",
    deck_top: str = "",
    out: str = "-",
    hidden: str = "-",
    gone: str = "0.0",
    solo: bool = False,
    solo_fields: str = "solo=0 phase=play result=-",
    market: str | None = None,
    rng: str = "5:0",
    rest_to_out: bool = False,
    keep_events: bool = False,
) -> str:
    """A complete notation line; boards are ``at|powers|cheeks|backpack|nest|burrow|sticky|sappy``.

    A solo position sets aside (``box``) what the solo deck leaves out; ``keep_events`` matches the option
    ``solo_keep_events=true``, whose deck keeps the events.
    """
    assert len(tree) == 6
    used_cards: Counter[str] = Counter()
    brown = golden = 0
    for limb in tree:
        if limb == "-":
            continue
        for token in limb.split(","):
            m = re.match(r"^~?([0-3G]|[A-Z]{2})(?:\*(\d+)\.(\d+))?$", token)
            assert m, token
            used_cards[m.group(1)] += 1
            brown += int(m.group(2) or 0)
            golden += int(m.group(3) or 0)
    for board in players:
        parts = board.split("|")
        if parts[1] != "-":
            used_cards.update(parts[1].split(","))
        for part in (parts[2], parts[4], parts[5], parts[6]):
            b, g = _counts(part)
            brown += b
            golden += g
        brown += parts[3] == "b"
        golden += parts[3] == "g"
        nxt, now = _counts(parts[7])
        used_cards["SF"] += nxt + now
    for zone in (out, hidden):
        if zone != "-":
            used_cards.update(zone.split(","))
    gb, gg = _counts(gone)
    brown += gb
    golden += gg
    top = deck_top.split(",") if deck_top else []
    used_cards.update(top)
    remaining = Counter(PROPOSED_V1) - used_cards
    excess = used_cards - Counter(PROPOSED_V1)
    assert not excess, f"more cards than the composition: {excess}"
    box: list[str] = []
    market_cards: list[str] = []
    if solo:
        if market is None:
            owned = {p for board in players for p in board.split("|")[1].split(",")}
            market_cards = [p for p in MARKET if p not in owned]
        else:
            market_cards = market.split(",") if market != "-" else []
        remaining -= Counter(market_cards)
        keep = SOLO_KEEP_WITH_EVENTS if keep_events else SOLO_KEEP
        for kind in KINDS:
            if kind not in keep:
                box += [kind] * remaining.pop(kind, 0)
    rest = [kind for kind in KINDS for _ in range(remaining.get(kind, 0))]
    deck = top if rest_to_out else top + rest
    if rest_to_out and rest:
        out = ",".join(([] if out == "-" else out.split(",")) + rest)
    fields = [
        "nutty:solo" if solo else "nutty:multi",
        f"players={len(players)}",
        "tree=" + "/".join(tree),
        "deck=" + (",".join(deck) or "-"),
        f"out={out}",
        f"hidden={hidden}",
        "box=" + (",".join(box) or "-"),
        "market=" + (",".join(market_cards) or "-"),
        f"supply={60 - brown}.{15 - golden}",
        f"gone={gone}",
    ]
    fields += [f"p{i + 1}={board}" for i, board in enumerate(players)]
    if solo:
        fields.append(solo_fields)
    else:
        fields += [f"turn={turn}", f"used={used}", f"copy={copy}", f"end={end}", f"phase={phase}", f"win={win}"]
    fields.append(f"rng={rng}")
    return " ".join(fields)


def board(at: str = "T", powers: str = "-", cheeks: str = "0.0", pack: str = "-", nest: str = "0.0",
          burrow: str = "0.0", sticky: str = "0.0", sappy: str = "0.0") -> str:  # fmt: skip
    """One player's board in notation."""
    return "|".join((at, powers, cheeks, pack, nest, burrow, sticky, sappy))


def load(text: str, **options: Any) -> State:
    """The position, checked for conservation."""
    state = oakwood.load("nutty", **options).from_notation(text)
    state.check_invariants()
    assert state.to_notation() == text
    return state


def play(state: State, *texts: str) -> State:
    """Apply actions by their text for whoever is to act, checking invariants after each."""
    for text in texts:
        seat = state.to_act()[0]
        state.apply(seat, state.game.parse_action(text))
        state.check_invariants()
    return state


def legal(state: State) -> list[str]:
    """The legal action texts of the seat to act."""
    return [str(a) for a in state.legal_actions(state.to_act()[0])]


def obs(state: State) -> dict[str, Any]:
    """The spectator observation."""
    return state.observe(None)
