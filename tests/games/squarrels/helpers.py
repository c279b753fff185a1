"""Small helpers that keep the S'Quarrels scenario tests readable.

``position(...)`` writes a full position in the game's notation from only the parts a scenario cares about:
every card not placed anywhere is put at the *bottom* of the Deck (Winter lowest), so the cards a test
stacks with ``deck=`` (written bottom to top, the last symbol is drawn next) are the next ones drawn.
``play(state, "P1 draw", "P2 play 5")`` applies moves written as ``Pn <canonical action text>``.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

import oakwood
from oakwood.engine import Game, IllegalActionError, State
from oakwood.games.squarrels.cards import COUNTS, GOLDEN, SYMBOLS, WINTER

GAME = oakwood.load("squarrels")
SINGLE = oakwood.load("squarrels", single_round=True)

_CARD_AT = re.compile(r"([R12345G])@\d")


def _count(counter: Counter[str], text: str) -> None:
    for symbol in text:
        if symbol in SYMBOLS:
            counter[symbol] += 1


def notation(
    players: int,
    hands: str,
    *,
    deck: str = "",
    storage: str | None = None,
    hoard: str = "-",
    discard: str = "-",
    active: int = 1,
    phase: str = "must_draw",
    dealer: int | None = None,
    totals: str | None = None,
    round_no: int = 1,
    last: str = "-",
    whirl: int = 0,
    golden_out: int = 0,
    quarrel: str = "-",
    race: str = "-",
    winners: str = "-",
    rng: str = "7:0",
) -> str:
    """The notation of a position; cards placed nowhere go to the bottom of the Deck (Winter lowest)."""
    hands = "/".join(part or "-" for part in hands.split("/"))
    storage = storage if storage is not None else "/".join(["-"] * players)
    used: Counter[str] = Counter()
    for part in (hands, deck, discard):
        _count(used, part.replace("-", ""))
    for part in storage.split("/"):
        for symbol in part.replace("-", "").replace("*", ""):
            used[symbol] += 3
        used["G"] += part.count("*")
        for _ in range(part.count("*")):  # a starred set holds two Number cards and the Golden
            used[part[part.index("*") - 1]] -= 1
    for part in (hoard, *quarrel.split("|")[2:]):
        for symbol in _CARD_AT.findall(part):
            used[symbol] += 1
    filler: list[str] = []
    if used["W"] == 0:
        filler.append("W")
    for card, count in enumerate(COUNTS):
        symbol = SYMBOLS[card]
        if card == WINTER or (card == GOLDEN and golden_out):
            continue
        filler.extend(symbol * max(0, count - used[symbol]))  # too many: from_notation refuses the position
    full_deck = "".join(filler) + deck
    dealer = dealer if dealer is not None else (active - 2) % players + 1
    totals = totals if totals is not None else ",".join(["0"] * players)
    return (
        f"squarrels players={players} round={round_no} dealer={dealer} totals={totals} last={last} phase={phase} "
        f"active={active} whirl={whirl} hands={hands} storage={storage} deck={full_deck} hoard={hoard} "
        f"discard={discard} golden_out={golden_out} quarrel={quarrel} race={race} winners={winners} rng={rng}"
    )


def position(players: int, hands: str, *, game: Game[Any] = GAME, **parts: Any) -> State:
    """The state of :func:`notation`'s position under ``game`` (default options unless given)."""
    return game.from_notation(notation(players, hands, **parts))


def move(state: State, text: str) -> tuple[int, Any]:
    """``"P2 play 5"`` → ``(1, Action)``."""
    who, _, action_text = text.strip().partition(" ")
    assert who[:1] == "P" and who[1:].isdigit(), f"moves are written 'Pn action', not {text!r}"
    return int(who[1:]) - 1, state.game.parse_action(action_text)


def play(state: State, *moves: str) -> State:
    """Apply each ``Pn action`` in order (every move must be legal); returns the state for chaining."""
    for text in moves:
        seat, action = move(state, text)
        state.apply(seat, action)
        state.check_invariants()
    return state


def rejects(state: State, text: str, error: type[Exception] = IllegalActionError, match: str | None = None) -> str:
    """Assert that the move is refused with ``error`` (whose message matches ``match``) and changes nothing."""
    before = state.to_notation()
    seat, action = move(state, text)
    with pytest.raises(error, match=match) as info:
        state.apply(seat, action)
    assert state.to_notation() == before, "a rejected move changed the position"
    message = str(info.value)
    assert message, "a refusal must say why"
    return message


def fields(state: State) -> dict[str, str]:
    """The notation fields of a state (``hands``, ``storage``, ``deck``…) as text."""
    parts = state.to_notation().split()[1:]
    return dict(part.split("=", 1) for part in parts)


def hand(state: State, player: int) -> str:
    """P``player``'s hand in notation symbols, in rank order (``-`` when empty)."""
    return fields(state)["hands"].split("/")[player - 1]


def hands(state: State) -> str:
    """Every hand, ``/``-separated as in the notation."""
    return fields(state)["hands"]


def storage(state: State) -> str:
    """Every Storage Pile, ``/``-separated as in the notation."""
    return fields(state)["storage"]


def legal(state: State, player: int) -> list[str]:
    """The canonical texts of P``player``'s legal actions."""
    return [str(a) for a in state.legal_actions(player - 1)]


def turn(state: State) -> tuple[str, str]:
    """``("P2", "must_draw")``: who is active and in which phase."""
    obs = state.observe(None)
    return f"P{obs['active'] + 1}", obs["phase"]


def last_events(state: State, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    """Every event of ``kind`` as ``seat`` sees it (None: a spectator)."""
    return [e for e in state.events_seen_by(seat) if e["kind"] == kind]


def discard_pile(state: State) -> dict[str, int]:
    """The face-up Discard as the public observation shows it."""
    out: dict[str, int] = state.observe(None)["action_discard"]
    return out
