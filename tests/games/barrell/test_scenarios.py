"""RULINGS §2.4 test scenarios 1–10, written in notation, with exact score arithmetic."""

from __future__ import annotations

from typing import Any

import pytest

import oakwood
from oakwood.engine import IllegalActionError, NotYourTurnError

from .helpers import act, pass_all, position, state_of


def test_1_setup_and_mulligan() -> None:
    state = oakwood.load("barrell").new_state(2, seed=3)
    obs = state.observe(None)
    assert obs["hand_sizes"] == [10, 10] and obs["deck_size"] == 34 and obs["discard"] == []
    seat = state.to_act()[0]
    hand = state.observe(seat)["hand"]
    top_three = state.deck[-3:]
    act(state, seat + 1, f"mulligan {hand[0]}", f"mulligan {hand[1]}", f"mulligan {hand[2]}")  # the 3rd ends it
    obs = state.observe(seat)
    assert len(obs["hand"]) == 10 and obs["deck_size"] == 34 and obs["discard"] == []
    assert not set(hand[:3]) & set(obs["hand"])  # the cards set aside are not redrawn
    assert {c for c in top_three} <= {state.game.parse_action(f"play {h}").card for h in obs["hand"]}


def test_2_hearts_go_to_the_opponent() -> None:
    state = state_of(position(hands=["2C", "2D"], fields=["7S.5C.3H", "6D"], passed="2"))
    pass_all(state)
    assert state.battle_scores == [12, 3]  # P1 = 7 + 5; P2 = 6 − 3
    assert state.wins == [1, 0]


@pytest.mark.parametrize("gift", ["one_opponent", "split_per_card"])
def test_3_one_recipient_no_regifting(gift: str) -> None:
    text = position(3, hands=["2C", "2D", "3C"], fields=["4H.9H.10S", "2H.10C", "8H.10D"], passed="23")
    state = state_of(text, heart_gift=gift)
    pass_all(state)
    assert state.phase == "hearts" and state.to_act() == (0, 1, 2)
    if gift == "one_opponent":
        act(state, 1, "gift P3")
        act(state, 3, "gift P2")
        act(state, 2, "gift P1")
    else:
        act(state, 1, "give 4H P3", "give 9H P3")
        act(state, 3, "give 8H P2")
        act(state, 2, "give 2H P1")
    # P1: 10 − 2 = 8; P2: 10 − 8 = 2 (it keeps the 8♥, gives only its own 2♥); P3: 10 − 4 − 9 = −3
    assert state.battle_scores == [8, 2, -3]


def test_3b_split_hearts_to_two_opponents() -> None:
    text = position(3, hands=["2C", "2D", "3C"], fields=["4H.9H", "10C", "10D"], passed="23")
    state = state_of(text, heart_gift="split_per_card")
    pass_all(state)
    act(state, 1, "give 4H P2", "give 9H P3")
    assert state.battle_scores == [0, 6, 1]


def test_4_ace_and_king_of_clubs() -> None:
    state = state_of(position(hands=["2C", "2D"], fields=["AC.KC.5D", "6D"], passed="2"))
    pass_all(state)
    assert state.battle_scores == [32, 6]  # (11 + 5) × 2
    state = state_of(position(hands=["2C", "2D"], fields=["AC.5D", "6D"], passed="2"))
    pass_all(state)
    assert state.battle_scores == [6, 6]  # no club face card: the A♣ is worth 1


def test_5_queen_of_hearts_on_received_hearts() -> None:
    text = position(3, hands=["2C", "2D", "3C"], fields=["9H.7H.QH", "3S", "4S"], passed="23")
    state = state_of(text)
    pass_all(state)
    act(state, 1, "gift P2")
    assert any(e.kind == "queen_zone" and e.public["card"] == "QH" for e in state.events)
    assert state.battle_scores == [0, 1, 4]  # P2: 3 − (1 + 1) = 1 … its two received hearts count −1 each
    assert state.battle_scores[1] - 3 == -2


def test_6_king_of_diamonds_after_a_queen() -> None:
    state = state_of(position(hands=["2C", "2D"], fields=["10S.9C", "QS.KD"]))
    pass_all(state)
    assert state.battle_scores == [1, 0]  # Q♠ makes 10♠ a 1, so the K♦ destroys the 9♣
    assert "9C" in state.observe(None)["discard"]


def test_7_jack_of_clubs_ends_the_battle() -> None:
    state = state_of(position(hands=["JC.2C", "5D.6D"], fields=["9S", "4S"], active="2", first=2))
    act(state, 2, "play 5D")
    act(state, 1, "play JC")
    assert state.phase == "mulligan" and state.battle == 2  # P2 never got to play the 6♦
    assert state.battle_scores == [9, 9] and state.wins == [0, 0]


def test_8_jack_of_spades_trade_keeps_cards_hidden() -> None:
    text = position(3, hands=["2C", "JS.2D", "3C"], fields=["KC.8S", "5S", "4D"], active="2")
    state = state_of(text)
    act(state, 2, "play JS")
    assert state.phase == "swap"
    act(state, 2, "swap P1")
    mine = state.observe(1)["fields"][1]
    assert [slot["card"] for slot in mine] == [None, None]  # P2 cannot view its new face-down cards
    assert [slot["card"] for slot in state.observe(0)["fields"][1]] == ["KC", "8S"]  # P1 remembers them
    assert state.observe(2)["fields"][1] == mine
    pass_all(state)
    assert state.battle_scores == [5, 16, 4]  # the K♣ now doubles P2's 8♠


@pytest.mark.parametrize(("tie", "wins"), [("no_winner", [0, 0]), ("all_tied_win", [1, 1])])
def test_9_tie(tie: str, wins: list[int]) -> None:
    state = state_of(position(hands=["2C", "2D"], fields=["10S", "10C"]), battle_tie=tie)
    deck = len(state.deck)
    pass_all(state)
    assert state.battle_scores == [10, 10] and state.wins == wins
    assert len(state.deck) == deck - sum(wins)  # only battle winners draw
    assert state.drawn_streak == 1


#: Battle 2 after P1 won battle 1 by 5 to 0.
SECOND_BATTLE: dict[str, Any] = {"battle": 2, "wins": "1.0", "scores": "5.0", "bwin": "1"}


def test_10_passing_and_game_end() -> None:
    state = state_of(position(hands=["2C.3C", "5D.6D"], fields=["9S", "4S"], **SECOND_BATTLE))
    act(state, 1, "pass")
    with pytest.raises(NotYourTurnError):
        act(state, 1, "play 2C")
    act(state, 2, "play 5D", "play 6D")  # P2 continues alone
    with pytest.raises(IllegalActionError):
        act(state, 1, "play 3C")
    state = state_of(position(hands=["2C.3C", "5D.6D"], fields=["9S", "4S"], **SECOND_BATTLE))
    deck = len(state.deck)
    pass_all(state)
    assert state.is_terminal() and state.winners() == [0] and state.wins == [2, 0]
    assert len(state.deck) == deck and state.hands[0].bit_count() == 2  # no extra draw
    # battle 4: P1 won battle 1, then two drawn battles (the last one 3 to 3)
    text = position(hands=["2C.3C", "5D.6D"], fields=["9S", "9C"], battle=4, wins="1.0", drawn=2, scores="3.3")
    state = state_of(text)
    pass_all(state)
    assert state.is_terminal() and state.winners() == [0]  # third drawn battle in a row: decided on wins
