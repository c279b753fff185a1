"""Build Barrell positions in notation for scenario tests: name the cards that matter, the rest go to the
bottom of the Deck."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import oakwood
from oakwood.engine import Game
from oakwood.engine.agent import PlayerView
from oakwood.games.barrell.cards import NAMES
from oakwood.games.barrell.state import BarrellState


def position(
    n: int = 2,
    *,
    hands: list[str] | None = None,
    fields: list[str] | None = None,
    deck_top: str = "",
    discard: str = "",
    queen: str = "",
    phase: str = "play",
    active: str = "1",
    first: int = 1,
    wins: str | None = None,
    passed: str = "-",
    drawn: int = 0,
    battle: int = 1,
    jd: str = "0",
    jdc: str = "-",
    jvoid: str = "-",
    need: str = "-",
    committed: str = "-",
    aside: list[str] | None = None,
    scores: str = "-",
    bwin: str = "-",
    give: list[str] | None = None,
    gifts: str | None = None,
    targets: str = "-",
    jokers: str = "-",
    prov: str = "-",
) -> str:
    """The notation of a position; every card not named is placed under ``deck_top`` in the Deck.

    From battle 2 on, ``scores`` and ``bwin`` (the last battle's scores and winners) must agree with ``wins``
    and ``drawn``: the loader refuses positions the game cannot reach."""
    hands = hands or [""] * n
    fields = fields or [""] * n
    aside = aside or [""] * n
    give = give or [""] * n
    named = set()
    for text in [*hands, *fields, *aside, deck_top, discard, queen]:
        for token in text.split("."):
            token = token.lstrip("^").split("~")[0]
            if token:
                assert token not in named, f"{token} named twice"
                named.add(token)
    rest = [name for name in NAMES if name not in named]
    deck = ".".join(rest + ([deck_top] if deck_top else []))
    return (
        f"barrell n={n} rng=7:0 battle={battle} first={first} phase={phase} active={active} "
        f"wins={wins or '.'.join(['0'] * n)} drawn={drawn} passed={passed} need={need} committed={committed} "
        f"jd={jd} jdc={jdc} jvoid={jvoid} hands={'|'.join(hands)} aside={'|'.join(aside)} "
        f"fields={'|'.join(fields)} queen={queen} deck={deck} discard={discard} give={'|'.join(give)} "
        f"gifts={gifts or '.'.join(['-'] * n)} targets={targets} jokers={jokers} scores={scores} prov={prov} "
        f"bwin={bwin}"
    )


def state_of(text: str, **options: Any) -> BarrellState:
    """The state of a notation under the given options."""
    state = oakwood.load("barrell", **options).from_notation(text)
    assert isinstance(state, BarrellState)
    return state


def act(state: BarrellState, seat: int, *texts: str) -> None:
    """Apply actions written as text (seat is 1-based, like the notation)."""
    for text in texts:
        state.apply(seat - 1, state.game.parse_action(text))


def pass_all(state: BarrellState) -> None:
    """Every seat to act passes until the battle ends (the play phase is over)."""
    while state.phase == "play":
        seat = state.to_act()[0]
        state.apply(seat, state.game.parse_action("pass"))


def legal_self_play(game: Game[Any], make_bot: Callable[[int], Any], games: int) -> list[Hashable]:
    """Every action of ``games`` seeded games (two to four players in turn) with a bot made by ``make_bot(seed)`` at
    every seat, each checked to be legal (the failure names the seed, the action and the position)."""
    played: list[Hashable] = []
    for seed in range(games):
        players = 2 + seed % 3
        state = game.new_state(players, seed)
        bots = [make_bot(seed * 4 + s) for s in range(players)]
        while not state.is_terminal():
            seat = state.to_act()[0]
            view = PlayerView.of(state, seat)
            action = bots[seat].act(view)
            assert action in view.legal_actions, (seed, str(action), state.to_notation())
            played.append(action)
            state.apply(seat, action)
    return played
