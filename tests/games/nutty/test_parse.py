"""Moves typed as the screen shows them: acorns as the board writes them, places with a space, any case."""

from __future__ import annotations

import pytest

from oakwood.engine import InvalidActionError, load


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("gather b", "gather brown"),
        ("Bury 1g", "bury golden"),
        ("move L2 c1", "move L2c1"),
        ("MOVE l3C2", "move L3c2"),
        ("move Trunk", "move trunk"),
        ("steal P2 g", "steal p2 golden"),
        ("lasso L1 c2 b", "lasso L1c2 brown"),
        ("end", "end"),
    ],
)
def test_moves_parse_as_shown(typed: str, canonical: str) -> None:
    game = load("nutty")
    assert str(game.parse_action(typed)) == canonical


def test_every_canonical_text_still_parses_to_itself() -> None:
    game = load("nutty")
    for action in game.codec.actions:
        assert game.parse_action(str(action)) == action


@pytest.mark.parametrize("typed", ["move L7c1", "gather x", "move"])
def test_what_is_no_move_is_still_refused(typed: str) -> None:
    with pytest.raises(InvalidActionError):
        load("nutty").parse_action(typed)
