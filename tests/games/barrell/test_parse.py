"""Moves typed as the screen shows them: suit symbols or letters, any case, Jokers by name."""

from __future__ import annotations

import pytest

from oakwood.engine import InvalidActionError, load
from oakwood.games.barrell.actions import normalise_move


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("play 9♥", "play 9H"),
        ("PLAY 9h", "play 9H"),
        ("play 10♦", "play 10D"),
        ("mulligan  J♣", "mulligan JC"),
        ("return Q♠", "return QS"),
        ("give 7♥ P2", "give 7H P2"),
        ("give 7♡ p2", "give 7H P2"),
        ("take Red Joker", "take RJ"),
        ("take black joker", "take BJ"),
        ("joker keep", "joker keep"),
        ("pass", "pass"),
    ],
)
def test_moves_parse_as_shown(typed: str, canonical: str) -> None:
    game = load("barrell")
    assert str(game.parse_action(typed)) == canonical
    assert game.parse_action(typed) == game.parse_action(canonical)


def test_every_canonical_text_still_parses_to_itself() -> None:
    game = load("barrell")
    for action in game.codec.actions:
        assert game.parse_action(str(action)) == action
        assert normalise_move(str(action)) == str(action)


@pytest.mark.parametrize("typed", ["play 9♥♥", "play 11♥", "play", "9♥ play"])
def test_what_is_no_move_is_still_refused(typed: str) -> None:
    with pytest.raises(InvalidActionError):
        load("barrell").parse_action(typed)
