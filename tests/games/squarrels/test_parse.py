"""Moves typed as the screen shows them: card names in any case, sets as the log names them."""

from __future__ import annotations

import pytest

from oakwood.engine import InvalidActionError, load


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("Discard Rotten", "discard rotten"),
        ("discard  GOLDEN", "discard golden"),
        ("play 3", "play 3"),
        ("store 3s", "store 3"),
        ("Store 4", "store 4"),
        ("store 1 + Golden", "store 1+golden"),
        ("store 2+G", "store 2+golden"),
        ("SLAP", "slap"),
    ],
)
def test_moves_parse_as_shown(typed: str, canonical: str) -> None:
    game = load("squarrels")
    assert str(game.parse_action(typed)) == canonical


def test_every_canonical_text_still_parses_to_itself() -> None:
    game = load("squarrels")
    for action in game.codec.actions:
        assert game.parse_action(str(action)) == action


@pytest.mark.parametrize("typed", ["store 6s", "discard winter", "store", "+golden"])
def test_what_is_no_move_is_still_refused(typed: str) -> None:
    with pytest.raises(InvalidActionError):
        load("squarrels").parse_action(typed)
