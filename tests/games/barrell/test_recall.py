"""BR-23, perfect recall: every card a seat saw go somewhere stays there in all its worlds until it is mixed
again, and the rest of each world still varies. Scenarios in notation, checked over many worlds."""

from __future__ import annotations

from collections import Counter

import pytest

from oakwood.engine import InvalidNotationError, Rng
from oakwood.games.barrell.cards import BY_NAME
from oakwood.games.barrell.state import BarrellState

from .helpers import act, pass_all, position, state_of

WORLDS = 200


def where(state: BarrellState, name: str) -> str:
    """The zone of a card: ``hand P1``, ``field P2`` (with who played it if face down), ``deck``…"""
    card = BY_NAME[name]
    for seat in range(state.num_players):
        if state.hands[seat] >> card & 1:
            return f"hand P{seat + 1}"
        if state.aside[seat] >> card & 1:
            return f"aside P{seat + 1}"
        if card in state.fields[seat]:
            if state.face_up >> card & 1:
                return f"field P{seat + 1}"
            return f"field P{seat + 1} by P{state.player_of(card, seat) + 1}"
    return "deck" if card in state.deck else "discard" if card in state.discard else "queen zone"


def worlds(state: BarrellState, seat: int) -> list[BarrellState]:
    """Many worlds of ``seat`` (0-based); each keeps the seat's observation."""
    out = []
    for i in range(WORLDS):
        world = state.determinize(seat, Rng(i))
        assert world.observe(seat) == state.observe(seat)
        out.append(world)
    return out


def places(state: BarrellState, seat: int, name: str) -> Counter[str]:
    return Counter(where(w, name) for w in worlds(state, seat))


def hands_vary(state: BarrellState, seat: int, other: int) -> None:
    """The hidden rest really is re-dealt: ``other``'s hand differs between worlds."""
    assert len({w.hands[other] for w in worlds(state, seat)}) > WORLDS // 2


def settle_mulligan(state: BarrellState) -> None:
    while state.phase == "mulligan":
        act(state, state.to_act()[0] + 1, "keep")


def test_a_card_returned_by_the_king_of_hearts_stays_in_that_hand_until_mixed() -> None:
    """The issue's example: revealed at the end of a battle, returned to hand by the K♥, known to be there."""
    hands = ["2C.3C.5C.6C.7C", "2D.3D.5D.6D.7D"]
    state = state_of(position(hands=hands, fields=["KH.9S.6S", "4D"], passed="2"))
    pass_all(state)
    act(state, 1, "return 6S")  # P1 wins the battle 15–4 and takes the 6♠ back in view of all
    assert state.phase == "mulligan"
    assert places(state, 1, "6S") == {"hand P1": WORLDS}
    hands_vary(state, 1, 0)
    settle_mulligan(state)
    if state.to_act() == (1,):
        act(state, 2, "play 2D")
    act(state, 1, "play 2C")  # face down: the 6♠ is now in P1's hand or is that card
    assert state.observe(1)["recalled"] == [["6S"], []]
    assert "6S" not in state.observe(1)["known_in_hands"][0]
    seen = places(state, 1, "6S")
    assert set(seen) == {"hand P1", "field P1 by P1"} and seen["hand P1"] > seen["field P1 by P1"] > 0
    pass_all(state)  # the reveal shows the 2♣: the 6♠ is still in P1's hand, and everyone knows it
    assert state.observe(1)["recalled"] == [[], []]
    assert "6S" in state.observe(1)["known_in_hands"][0]
    assert places(state, 1, "6S") == {"hand P1": WORLDS}


def test_a_joker_returns_cards_that_stay_known_and_a_played_one_is_found_by_the_reveal() -> None:
    state = state_of(position(hands=["2C.3C.4C", "2D.3D.4D.5D"], fields=["RJ.9S.8S", "6D"], passed="2"))
    pass_all(state)
    act(state, 1, "joker field")  # the 9♠ and 8♠ go back to P1's hand in view of all
    assert set(state.observe(1)["known_in_hands"][0]) >= {"9S", "8S"}
    assert places(state, 1, "9S") == {"hand P1": WORLDS}
    settle_mulligan(state)
    if state.to_act() == (1,):
        act(state, 2, "play 2D")
    act(state, 1, "play 9S")
    assert places(state, 1, "9S").keys() == {"hand P1", "field P1 by P1"}
    assert places(state, 1, "8S").keys() == {"hand P1", "field P1 by P1"}
    pass_all(state)  # the 9♠ is revealed on the table, the 8♠ was not: it is in hand
    assert "8S" in state.observe(1)["known_in_hands"][0]


def test_a_card_taken_by_the_king_of_spades_is_known_in_that_hand() -> None:
    state = state_of(position(hands=["2C.3C", "2D.3D"], fields=["KS.9S", "4D"], discard="10H", passed="2"))
    pass_all(state)
    act(state, 1, "take 10H")
    assert places(state, 1, "10H") == {"hand P1": WORLDS}


def test_recalled_cards_follow_a_jack_of_spades_trade_and_jacks_stay_in_hand() -> None:
    """P1 knew-in-hand 9♠ and J♥; after P1 plays face down and P2's J♠ trades the fields, the 9♠ is in P1's
    hand or the card P1 played (now in P2's field) — never a card P2 played — and the J♥ in P1's hand."""
    text = position(hands=["9S~*.JH~*.4C.5C", "JS.7D.8D"], fields=["", "6D"], first=2)
    state = state_of(text)
    act(state, 1, "play 4C")
    act(state, 2, "play JS")  # two players: the fields trade at once
    assert state.observe(1)["recalled"][0] == ["JH", "9S"]
    nine = places(state, 1, "9S")
    assert set(nine) == {"hand P1", "field P2 by P1"}
    assert places(state, 1, "JH") == {"hand P1": WORLDS}  # Jacks never lie face down
    assert places(state, 1, "6D") == {"field P1 by P2": WORLDS}  # P2 still knows the card it played
    hands_vary(state, 1, 0)


def test_a_mulligan_mixes_the_hand_again() -> None:
    """A card known in P1's hand is mixed by P1's mulligan: nobody else sees which cards were set aside."""
    state = state_of(position(hands=["6S~*.2C.3C.4C", "2D.3D"], phase="mulligan", active="1"))
    assert places(state, 1, "6S") == {"hand P1": WORLDS}
    act(state, 1, "mulligan 2C")
    assert set(places(state, 1, "6S")) == {"hand P1", "aside P1"}
    act(state, 1, "keep")  # the card set aside is shuffled into the Deck
    assert set(places(state, 1, "6S")) == {"hand P1", "deck"}


def test_recall_round_trips_in_notation_and_the_loader_refuses_impossible_recall() -> None:
    text = position(hands=["9S~*.4C.5C", "7D.8D"], fields=["", ""])
    state = state_of(text)
    act(state, 1, "play 4C")
    written = state.to_notation()
    assert written.endswith(" recall=9S|")
    again = state_of(written)
    assert again.to_notation() == written and again.observe(1) == state.observe(1)
    for bad, field in (
        (written.replace("recall=9S|", "recall=|9S"), "recall"),  # not in P2's hand nor played by P2
        (written.replace("recall=9S|", "recall=7D|"), "recall"),
        (text + " recall=9S|", "recall"),  # P1 has played nothing face down
    ):
        with pytest.raises(InvalidNotationError, match=field):
            state_of(bad)


def test_the_board_shows_what_is_recalled_in_another_players_hand() -> None:
    state = state_of(position(hands=["9S~*.4C.5C", "7D.8D"], fields=["", ""]))
    act(state, 1, "play 4C")
    board = state.game.render(state.observe(1))
    assert "in hand or face down: 9♠" in board
    assert "in hand or face down" not in state.game.render(state.observe(0))  # P1 knows its own hand
