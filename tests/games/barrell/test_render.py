"""What the terminal shows: the table picture and every event line, word for word as a new player reads them
(plurals right, no empty lists, names that say what a thing is), and truthful across battles."""

from __future__ import annotations

from typing import Any

import pytest

import oakwood
from oakwood.games.barrell.render import describe_action, describe_event, render

from .helpers import act, pass_all, position, state_of


def test_provisional_scores_show_in_later_battles_too() -> None:
    # BR-12 variant after_provisional_score: the Joker's controller decides with the provisional scores in view.
    # In battle 2 the previous battle's scores are still in the observation; they must not hide the new ones.
    text = position(hands=["2C", "3C"], fields=["RJ.9S", "6D.5H"], battle=2, wins="1.0", scores="12.3", bwin="1")
    state = state_of(text, joker_timing="after_provisional_score")
    pass_all(state)
    assert state.phase == "jokers"
    picture = render(state.observe(0))
    assert "Provisional scores: P1 4, P2 6" in picture


def test_a_long_discard_pile_says_the_hidden_part_is_the_oldest() -> None:
    discard = ".".join(f"{r}S" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")) + ".2H.3H.4H.5H"
    state = state_of(position(hands=["2C", "3C"], fields=["", ""], discard=discard))
    line = next(ln for ln in render(state.observe(0)).splitlines() if "Discard" in ln)
    assert line.startswith("  Discard pile (14 cards, newest last): (2 older) 3♠")
    assert line.endswith("5♥")


@pytest.mark.parametrize(
    ("event", "text"),
    [
        ({"kind": "deal", "seat": 0, "count": 10}, "P1 is dealt 10 cards"),
        ({"kind": "deal", "seat": 0, "count": 10, "cards": ["AS", "RJ"]}, "P1 is dealt 10 cards: A♠ Red Joker"),
        ({"kind": "battle", "battle": 2}, "— Battle 2 —"),
        ({"kind": "dice", "rolls": {"P1": 6, "P2": 1}}, "Dice: P1 rolls 6, P2 rolls 1"),
        ({"kind": "first_player", "seat": 1}, "P2 plays first in this battle"),
        ({"kind": "recycle", "deck": 1}, "The Discard pile is shuffled into the Deck, which now holds 1 card"),
        ({"kind": "mulligan_aside", "seat": 0}, "P1 sets a card aside for the mulligan"),
        ({"kind": "mulligan_aside", "seat": 0, "card": "BJ"}, "P1 sets a card aside for the mulligan (Black Joker)"),
        ({"kind": "mulligan", "seat": 2, "count": 0}, "P3 keeps their hand"),
        ({"kind": "mulligan", "seat": 2, "count": 1}, "P3 exchanges 1 card in the mulligan"),
        (
            {"kind": "mulligan", "seat": 2, "count": 2, "discarded": ["2C", "KS"], "drawn": ["QH", "3S"]},
            "P3 exchanges 2 cards in the mulligan: 2♣ K♠ out, Q♥ 3♠ in",
        ),
        ({"kind": "play", "seat": 0, "face_up": True, "card": "JD"}, "P1 plays J♦ face up"),
        ({"kind": "play", "seat": 0, "face_up": False}, "P1 plays a card face down"),
        ({"kind": "play", "seat": 0, "face_up": False, "card": "5D"}, "P1 plays a card face down (5♦)"),
        ({"kind": "pass", "seat": 1, "automatic": False}, "P2 passes"),
        ({"kind": "pass", "seat": 1, "automatic": True}, "P2 passes (no cards in hand)"),
        ({"kind": "cancelled", "card": "JH"}, "J♥ does nothing: the Jack of Diamonds is in force"),
        ({"kind": "battle_ends", "by": "JC"}, "J♣ ends the battle at once"),
        ({"kind": "draw", "seat": 0, "count": 1}, "P1 draws 1 card"),
        ({"kind": "draw", "seat": 0, "count": 2, "cards": ["5S", "6S"]}, "P1 draws 2 cards: 5♠ 6♠"),
        (
            {"kind": "draw", "seat": 0, "count": 0, "cards": []},
            "P1 draws no card: the Deck and the Discard pile are empty",
        ),
        ({"kind": "swap", "seat": 0, "target": 2}, "P1 and P3 trade fields"),
        ({"kind": "rotate", "seat": 1}, "Every field moves one seat clockwise (P1's field to P2, and so on)"),
        ({"kind": "reveal", "fields": [["5D", "JD"], []]}, "Reveal: P1 5♦ J♦; P2 no cards"),
        ({"kind": "joker", "seat": 0, "joker": "RJ", "choice": "keep"}, "P1 takes the Red Joker back to hand"),
        (
            {"kind": "joker", "seat": 0, "joker": "RJ", "choice": "field", "cards": ["9S", "BJ"]},
            "P1 leaves the Red Joker in their field and takes the other cards back to hand: 9♠ Black Joker",
        ),
        (
            {"kind": "joker", "seat": 0, "joker": "BJ", "choice": "field", "cards": []},
            "P1 leaves the Black Joker in their field (no other card to take back)",
        ),
        ({"kind": "gift", "seat": 2, "target": 1, "cards": ["2H", "7H"]}, "P3 gives 2♥ 7♥ to P2"),
        ({"kind": "queen_zone", "card": "QS", "cancelled": False}, "Q♠ goes to the Queen Zone"),
        (
            {"kind": "queen_zone", "card": "KD", "cancelled": True},
            "K♦ goes to the Queen Zone, cancelled by the Jack of Diamonds",
        ),
        ({"kind": "destroy", "seat": 0, "cards": ["10S", "10C"]}, "The King of Diamonds destroys P1's 10♠ 10♣"),
        ({"kind": "provisional_scores", "scores": [4, -6]}, "Provisional scores: P1 4, P2 -6"),
        (
            {"kind": "battle_result", "scores": [9, 3], "winners": [0], "wins": [1, 0]},
            "Battle scores: P1 9, P2 3 — P1 wins the battle",
        ),
        (
            {"kind": "battle_result", "scores": [9, 9], "winners": [], "wins": [0, 0]},
            "Battle scores: P1 9, P2 9 — a drawn battle, nobody wins it",
        ),
        (
            {"kind": "battle_result", "scores": [9, 9, 1], "winners": [0, 1], "wins": [1, 1, 0]},
            "Battle scores: P1 9, P2 9, P3 1 — a tie: P1, P2 each win the battle",
        ),
        ({"kind": "return", "seat": 0, "card": "6S"}, "King of Hearts: P1 takes 6♠ back to hand"),
        ({"kind": "discard", "discard": 1}, "The table is cleared: the Discard pile now holds 1 card"),
        ({"kind": "take", "seat": 1, "card": "10H"}, "King of Spades: P2 takes 10♥ from Discard"),
        (
            {"kind": "game_over", "wins": [2, 1], "winners": [0]},
            "Game over — P1 wins the game (battles won: P1 2, P2 1)",
        ),
        (
            {"kind": "game_over", "wins": [1, 1], "winners": [0, 1]},
            "Game over — P1, P2 share the win (battles won: P1 1, P2 1)",
        ),
    ],
)
def test_every_event_reads_as_a_sentence(event: dict[str, Any], text: str) -> None:
    assert describe_event(event) == text


def test_event_views_of_a_played_battle_read_in_order() -> None:
    state = state_of(position(hands=["JH.2C", "3C"], fields=["9S", "4S"]))
    act(state, 1, "play JH")
    act(state, 2, "pass")
    act(state, 1, "pass")
    lines = [describe_event(e) for e in state.events_seen_by(1)]
    assert lines[:6] == [
        "P1 plays J♥ face up",
        "P1 draws 2 cards",
        "P2 passes",
        "P1 passes",
        "Reveal: P1 9♠ J♥; P2 4♠",
        "Battle scores: P1 9, P2 4 — P1 wins the battle",
    ]


def test_the_table_picture_word_for_word() -> None:
    text = position(hands=["2C", "3C.4C"], fields=["9S.^JH", "5D"], active="2", discard="8H")
    state = state_of(text)
    assert render(state.observe(1)).splitlines() == [
        "Barrell — battle 1 · Playing cards · P1 plays first · Deck: 47 cards",
        "  Queen Zone: empty",
        "  Discard pile (1 card, newest last): 8♥",
        "P1: 0 battles won, 1 card in hand",
        "    field: [??] J♥",
        "P2 — you: 0 battles won, 2 cards in hand (to act)",
        "    field: [5♦]",
        "Your hand: 3♣ 4♣",
        "(face-down cards in [brackets]; ?? = a card you have not seen)",
    ]


def test_a_finished_game_names_its_winners_and_battles_won() -> None:
    text = position(hands=["2C", "4D"], phase="over", active="-", passed="12", battle=2, wins="2.0", scores="5.0")
    state = state_of(text.replace("bwin=-", "bwin=1"))
    assert render(state.observe(None)).splitlines() == [
        "Barrell — battle 2 · Game over · P1 plays first · Deck: 52 cards",
        "  Queen Zone: empty",
        "  Discard pile: empty",
        "P1: 2 battles won, 1 card in hand",
        "    field: empty",
        "P2: 0 battles won, 1 card in hand",
        "    field: empty",
        "Last battle: P1 5, P2 0 — won by P1",
        "(face-down cards in [brackets]; ?? = a card you have not seen)",
        "Winners: P1",
    ]


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ("play JS", "play J♠ face up"),
        ("play RJ", "play Red Joker face down"),
        ("keep", "finish the mulligan and keep the rest of your hand"),
        ("joker field", "take every other card of your field back to hand"),
    ],
)
def test_actions_say_what_they_do(action: str, text: str) -> None:
    assert describe_action(oakwood.load("barrell").parse_action(action)) == text
