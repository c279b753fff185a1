"""Rendering: the tree as six rows with revealed cards, acorns and squirrels; events in English."""

from __future__ import annotations

import oakwood
from oakwood.engine import Rng

from .helpers import board, load, play, position

PAD = ["~1,~1,~1,~1,~1", "~2,~2,~2,~2,~2", "~3,~3,~3,~3,~3", "~G,~G,~G,~G,~G", "~0,~0,~0,~2,~2"]


def test_render_shows_tree_and_boards() -> None:
    text = position(["~1,LA*2.1,~BB,BB,~2", *PAD], [board(at="L1c2", powers="SW", cheeks="1.0"), board()])
    state = load(text)
    game = state.game
    picture = game.render(state.observe(1))
    lines = picture.splitlines()
    assert sum(line.lstrip().startswith(f"L{i} ─") for i in range(1, 7) for line in lines) == 6
    row = next(line for line in lines if line.lstrip().startswith("L1 ─"))
    assert "[*Lasso 2b1g @1]" in row and "[BROKEN]" in row and row.count("??") == 3
    assert "P1 at L1c2" in picture and "Swinging Squirrel" in picture
    assert "P1 to play with 3 AP" in picture


def test_every_event_has_a_sentence() -> None:
    game = oakwood.load("nutty")
    for players in (1, 3):
        state = game.new_state(players, 4)
        rng = Rng(4)
        while not state.is_terminal():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        for event in state.events_seen_by(0):
            line = game.describe_event(event)
            assert line and "{" not in line
        assert "Game over" in game.render(state.observe(None))


def test_describe_action() -> None:
    game = oakwood.load("nutty")
    assert game.describe_action(game.parse_action("flip")).startswith("flip —")
    state = play(load(position(["~1,~1,~1,~BB,~BB", *PAD], [board(), board()])), "move L1c1")
    assert state.game.render(state.observe(None))
