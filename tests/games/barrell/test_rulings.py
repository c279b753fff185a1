"""One scenario per BR ruling (RULINGS §2.3 and the new rulings in rules.md), under default and variant
options, written in notation, with exact score arithmetic."""

from __future__ import annotations

import re

import pytest

import oakwood
from oakwood.games.barrell.cards import BY_NAME

from .helpers import act, pass_all, position, state_of


def test_br1_and_br16_rules_document_lists_every_ruling() -> None:
    text = oakwood.load("barrell").rules_document()
    for number in range(1, 23):
        assert f"BR-{number}" in text
    for info in oakwood.load("barrell").options.describe():
        assert f"`{info.name}`" in text


def test_br2_dice_are_logged_and_ties_reroll() -> None:
    game = oakwood.load("barrell")
    for seed in range(40):
        state = game.new_state(4, seed)
        rolls = [e.public["rolls"] for e in state.events if e.kind == "dice"]
        if len(rolls) > 1:
            break
    else:
        pytest.fail("no re-roll in 40 seeds")
    top = max(rolls[0].values())
    assert set(rolls[1]) == {p for p, r in rolls[0].items() if r == top}  # only the tied players re-roll
    last = rolls[-1]
    assert f"P{state.first + 1}" == max(last, key=lambda p: last[p])


def test_br2_hands_are_not_refilled() -> None:
    state = state_of(position(hands=["2C.3C.4C", "5D.6D"], fields=["9S", "4S"]))
    act(state, 1, "play 2C")
    pass_all(state)
    assert state.wins == [1, 0]
    assert state.hands[0].bit_count() == 3  # 2 left + the winner's draw
    assert state.hands[1].bit_count() == 2  # the loser draws nothing


def test_br3_empty_hand_passes_automatically_and_passed_players_still_trade() -> None:
    state = state_of(position(hands=["JS.2C", ""], fields=["3C", "10S"]))
    act(state, 1, "play 2C")
    assert state.observe(None)["passed"] == [False, True]  # P2's empty hand passed for it
    act(state, 1, "play JS")  # a passed player is still hit by the J♠
    pass_all(state)
    assert state.battle_scores == [10, 5]
    obs = state.observe(None)
    assert obs["battle_winners"] == [0]


def test_br3_jacks_face_up_others_face_down() -> None:
    state = state_of(position(hands=["JH.2C.3C", "5D"], fields=["", ""]))
    act(state, 1, "play 2C")
    act(state, 2, "play 5D")
    act(state, 1, "play JH")
    view = state.observe(1)["fields"][0]
    assert view == [{"card": None, "face_up": False}, {"card": "JH", "face_up": True}]
    assert state.observe(0)["hand"] and len(state.observe(0)["hand"]) == 3  # the J♥ drew 2


def test_br4_simultaneous_mulligan_is_a_hidden_commit() -> None:
    game = oakwood.load("barrell", mulligan_mode="simultaneous")
    state = game.new_state(3, 5)
    assert state.decision == "commit" and state.to_act() == (0, 1, 2)
    hand = state.observe(0)["hand"]
    before = state.observe(1)
    act(state, 1, f"mulligan {hand[0]}")
    after = state.observe(1)
    assert after == before  # nothing about P1's choice shows, not even the count
    act(state, 1, "keep")
    assert state.observe(1)["committed"] == [True, False, False]
    act(state, 2, "keep")
    act(state, 3, "keep")
    assert state.phase == "play"
    assert hand[0] not in state.observe(0)["hand"] and len(state.observe(0)["hand"]) == 10
    assert state.observe(1)["deck_size"] == 24


def test_br4_discard_recycle_only_when_the_deck_is_empty() -> None:
    text = position(hands=["2C", "3C"], fields=["9S", "4S"], discard="5H.6H.7H.8H")
    state = state_of(text)
    deck = len(state.deck)
    pass_all(state)  # P1 wins and draws one; battle 2 starts
    assert len(state.observe(None)["discard"]) == 6 and len(state.deck) == deck - 1


def test_br4_discard_recycle_every_battle() -> None:
    # Under every_battle the Discard pile is empty during a battle (the loader refuses one that is not) …
    state = state_of(position(hands=["2C", "3C"], fields=["9S", "4S"]), discard_recycle="every_battle")
    deck = len(state.deck)
    pass_all(state)  # … and the field cards discarded at E8 go back into the Deck when battle 2 starts
    assert state.battle == 2 and state.observe(None)["discard"] == []
    assert len(state.deck) == deck - 1 + 2


def test_br5_jack_of_hearts_is_not_given_king_of_hearts_stays_hearts_from_a_trade_are() -> None:
    text = position(3, hands=["2C", "JS.2D", "3C"], fields=["5H.^JH", "KH.6S", "9D"], active="2", first=2, passed="3")
    state = state_of(text)
    act(state, 2, "play JS", "swap P1")  # P2 now holds 5♥ and J♥; P1 holds K♥, 6♠, J♠
    pass_all(state)
    assert state.to_give[1] == 1 << BY_NAME["5H"] and state.to_give[0] == 0
    act(state, 2, "gift P3")
    assert state.battle_scores == [6, 0, 4]  # P3: 9 − 5; the J♥ and the K♥ never move


def test_br5_seat_order_gifts_are_open() -> None:
    text = position(3, hands=["2C", "2D", "3C"], fields=["5H", "4H", "9D"], first=2, active="2")
    state = state_of(text, heart_gift_timing="seat_order")
    pass_all(state)
    assert state.decision == "turn" and state.to_act() == (1,)  # P2 first (seat order from the first player)
    act(state, 2, "gift P1")
    assert [s["card"] for s in state.observe(2)["fields"][0]] == ["5H", "4H"]  # visible at once
    act(state, 1, "gift P3")  # P1 gives only its own 5♥
    assert state.battle_scores == [-4, 0, 4]


def test_br6_scores_can_be_negative() -> None:
    state = state_of(position(hands=["2C", "3C"], fields=["2S", "10H.9H"], active="2", passed="1"))
    pass_all(state)
    assert state.battle_scores == [-17, 0]
    assert state.wins == [0, 1]


@pytest.mark.parametrize(("order", "p1"), [("queens_then_kod", 1), ("seat_order", 9)])
def test_br7_queen_zone_order(order: str, p1: int) -> None:
    state = state_of(position(hands=["2C", "3C"], fields=["10S.9C", "KD.QS"]), queen_zone_order=order)
    pass_all(state)
    assert state.battle_scores == [p1, 0]  # seat order: the K♦ is placed before the Q♠ and takes the 10♠


def test_br8_queen_beats_the_ace_rule() -> None:
    state = state_of(position(hands=["2C", "3C"], fields=["AS.2D", "QS"], passed="2"))
    pass_all(state)
    assert state.battle_scores == [3, 0]  # the A♠ is 1 under the Q♠
    state = state_of(position(hands=["2C", "3C"], fields=["AS", "KS"]))
    pass_all(state)
    assert state.battle_scores == [11, 0]  # with only the K♠ of its suit in play the Ace is 11


@pytest.mark.parametrize(
    ("options", "scores"),
    [
        ({}, [5, 3]),  # each field loses its highest: P1 its 10♠, P2 its 10♣ and 10♦
        ({"kod_scope": "global"}, [5, 3]),
        ({"kod_ignores_hearts": True}, [5, 3]),
    ],
)
def test_br9_king_of_diamonds(options: dict[str, object], scores: list[int]) -> None:
    text = position(hands=["2C", "3C"], fields=["10S.5S", "10C.10D.3D.KD"], active="2", passed="1")
    state = state_of(text, **options)
    pass_all(state)
    assert state.battle_scores == scores


def test_br9_per_player_versus_global() -> None:
    text = position(hands=["2C", "3C"], fields=["9S.5S", "10C.3D.KD"], active="2", passed="1")
    state = state_of(text)
    pass_all(state)
    assert state.battle_scores == [5, 3]  # per player: 9♠ and 10♣ go
    state = state_of(text, kod_scope="global")
    pass_all(state)
    assert state.battle_scores == [14, 3]  # global: only the table's highest, the 10♣


def test_br9_hearts_by_magnitude_or_ignored() -> None:
    text = position(hands=["2C", "3C"], fields=["10H.5S", "KD.6C"])
    state = state_of(text)
    pass_all(state)
    # E3 before E4: the 10♥ already lies in P2's field, where it is the highest card by magnitude.
    assert state.battle_scores == [0, 6]
    state = state_of(text, kod_ignores_hearts=True)
    pass_all(state)
    assert state.battle_scores == [0, -10]  # 5♠ and 6♣ destroyed; P2 keeps the 10♥: 0 − 10


@pytest.mark.parametrize(("after", "score"), [(True, 12), (False, 11)])
def test_br10_king_of_clubs_and_queens(after: bool, score: int) -> None:
    state = state_of(position(hands=["2D", "3D"], fields=["KC.5S.3C", "QC"], passed="2"), kc_after_queen=after)
    pass_all(state)
    assert state.battle_scores == [score, 0]  # (5 + 1) × 2, or 5 × 2 + 1


def test_br10_king_of_spades_takes_any_discard_card() -> None:
    state = state_of(position(hands=["2C", "3C"], fields=["KS.9S", "4D"], discard="10H", passed="2"))
    pass_all(state)
    assert state.phase == "ks" and state.to_act() == (0,)
    legal = [str(a) for a in state.legal_actions(0)]
    assert "take KS" in legal and "take 10H" in legal and "take 4D" in legal
    act(state, 1, "take 10H")
    assert "10H" in state.observe(1)["known_in_hands"][0]  # everyone saw it go


@pytest.mark.parametrize(("timing", "score"), [("after_scoring", 15), ("before_scoring", 9)])
def test_br10_king_of_hearts(timing: str, score: int) -> None:
    state = state_of(position(hands=["2C", "3C"], fields=["KH.9S.6S", "4D"], passed="2"), kh_timing=timing)
    pass_all(state)
    assert state.phase == "kh" and state.to_act() == (0,)
    act(state, 1, "return 6S")
    assert state.battle_scores == [score, 4]
    assert "6S" in state.observe(1)["known_in_hands"][0]


def test_br10_king_of_hearts_given_with_hearts() -> None:
    text = position(3, hands=["2C", "2D", "3C"], fields=["KH.5H.9S", "8C", "2S"], passed="23")
    state = state_of(text, kh_given_with_hearts=True)
    pass_all(state)
    act(state, 1, "gift P2")
    assert state.phase == "kh" and state.to_act() == (1,)  # P2 now controls the K♥
    act(state, 2, "return 8C")
    assert state.battle_scores == [9, 3, 2]  # scored before the return: P2 = 8 − 5


def test_br11_jack_of_hearts_reshuffles_an_empty_deck() -> None:
    text = position(hands=["JH.2C", "3C"], fields=["", ""], deck_top="")
    state = state_of(text)
    state.discard, state.deck = state.deck, []  # everything else lies in Discard
    for card in state.discard:
        state.known[card] = state.all_seats
    act(state, 1, "play JH")
    assert state.hands[0].bit_count() == 3 and len(state.discard) == 0


@pytest.mark.parametrize(("scope", "p1"), [("rest_of_battle", 9), ("cards_on_table_only", 18)])
def test_br11_jack_of_diamonds_scope(scope: str, p1: int) -> None:
    text = position(hands=["KC.2C", "JD.3C"], fields=["9S", "QS"], active="2", first=2)
    state = state_of(text, jod_scope=scope)
    act(state, 2, "play JD")  # the Q♠ already lies on the table: cancelled in both readings
    act(state, 1, "play KC")  # played later: cancelled only for the rest of the battle
    pass_all(state)
    assert state.battle_scores == [p1, 0]


def test_br11_jack_of_diamonds_cancels_later_jacks_and_the_ace_bonus_variant() -> None:
    text = position(hands=["JC.2C", "JD.3C"], fields=["AS.4S", "KS"], active="2")
    state = state_of(text)
    act(state, 2, "play JD")
    act(state, 1, "play JC")  # does nothing: the battle goes on
    assert state.phase == "play"
    pass_all(state)
    assert state.battle_scores == [15, 0]  # the cancelled K♠ still makes the A♠ 11
    state = state_of(text, jod_suppresses_ace_bonus=True)
    act(state, 2, "play JD")
    pass_all(state)
    assert state.battle_scores == [5, 0]


def test_br11_jack_of_spades_rotate_all_and_initiator_may_look() -> None:
    text = position(3, hands=["JS.2C", "2D", "3C"], fields=["5S", "6S", "7S"])
    state = state_of(text, jos_mode="rotate_all")
    act(state, 1, "play JS")
    assert [len(f) for f in state.fields] == [1, 2, 1]  # every field moved one seat to the left
    assert state.observe(0)["fields"][0] == [{"card": None, "face_up": False}]
    state = state_of(text, jos_initiator_may_look=True)
    act(state, 1, "play JS", "swap P3")
    assert state.observe(0)["fields"][0] == [{"card": "7S", "face_up": False}]
    assert state.observe(2)["fields"][0][0]["card"] == "7S"  # P3 remembers its old card …
    assert state.observe(2)["fields"][2] == [{"card": None, "face_up": False}, {"card": "JS", "face_up": True}]
    assert state.observe(1)["fields"][0][0]["card"] is None  # … P2 sees nothing new


def test_br12_joker_keep_or_field() -> None:
    text = position(hands=["2C", "3C"], fields=["RJ.9S.4H", "6D"], passed="2")
    state = state_of(text)
    pass_all(state)
    assert state.phase == "jokers" and state.to_act() == (0,)
    act(state, 1, "joker keep")
    assert state.battle_scores == [9, 2]
    state = state_of(text)
    pass_all(state)
    act(state, 1, "joker field")  # the 9♠ and the 4♥ go back before hearts move
    assert state.battle_scores == [0, 6]
    assert {"9S", "4H"} <= set(state.observe(1)["known_in_hands"][0])


def test_br12_two_jokers_and_after_provisional_score() -> None:
    state = state_of(position(hands=["2C", "3C"], fields=["RJ.BJ.9S", "6D"], passed="2"))
    pass_all(state)
    act(state, 1, "joker field")  # takes the second Joker too
    assert state.battle_scores == [0, 6]
    state = state_of(position(hands=["2C", "3C"], fields=["RJ.9S", "6D.5H"]), joker_timing="after_provisional_score")
    pass_all(state)
    assert state.phase == "jokers" and state.provisional_scores == [4, 6]  # hearts already given: 9 − 5
    act(state, 1, "joker field")  # the received 5♥ comes back to hand too
    assert state.battle_scores == [0, 6]


def test_br13_face_cards_in_hand_do_not_make_an_ace_eleven() -> None:
    state = state_of(position(hands=["KS.2C", "3C"], fields=["AS", "QD"]))
    pass_all(state)
    assert state.battle_scores == [1, 0]
    state = state_of(position(hands=["2C", "3C"], fields=["AS", "QS"]))
    pass_all(state)
    assert state.battle_scores == [1, 0]  # a Queen in the zone makes it 1 anyway (BR-8)
    text = position(hands=["2C", "3C"], fields=["AD", "QS.^JD"], jd="1", jdc="AD.QS", active="2", passed="1")
    state = state_of(text)
    pass_all(state)
    assert state.battle_scores == [11, 0]  # the J♦ in another field is "in play"


def test_br15_no_cards_left_ends_the_game() -> None:
    text = position(hands=["2C", ""], fields=["5S", "5C.2D"], first=2, battle=2, wins="1.0", scores="5.0", bwin="1")
    state = state_of(text)
    act(state, 1, "play 2C")  # both hands are empty now: 7 against 7, nobody draws
    assert state.is_terminal() and state.winners() == [0]


def test_br17_mulligan_with_an_exhausted_deck_reuses_the_cards_set_aside() -> None:
    state = state_of(position(hands=["2C.3C.4C.5C", "6C"], phase="mulligan", fields=["", ""]))
    rest = state.deck[:]
    state.deck = []
    state.hands[1] |= sum(1 << c for c in rest)
    for card in rest:
        state.known[card] = 2
    act(state, 1, "mulligan 2C", "mulligan 3C", "mulligan 4C")
    assert state.hands[0].bit_count() == 4 and not state.deck


def test_br18_deciding_battle_skips_the_kings() -> None:
    text = position(
        hands=["2C", "3C"], fields=["KS.KH.9S", "4D"], passed="2", battle=2, wins="1.0", scores="5.0", bwin="1"
    )
    state = state_of(text)
    pass_all(state)
    assert state.is_terminal() and state.winners() == [0]


def test_br19_all_tied_win_needs_a_sole_leader() -> None:
    text = position(hands=["2C", "3C"], fields=["9S", "9C"], battle=3, wins="1.1", scores="0.5", bwin="2")
    state = state_of(text, battle_tie="all_tied_win")
    pass_all(state)
    assert not state.is_terminal() and state.wins == [2, 2]  # a decider follows
    assert state.drawn_streak == 1


def test_br20_two_players_jack_of_spades_needs_no_choice() -> None:
    state = state_of(position(hands=["JS.2C", "3C"], fields=["5S", "9S"]))
    act(state, 1, "play JS")
    assert state.phase == "play" and state.to_act() == (1,)
    assert [len(f) for f in state.fields] == [1, 2]


def test_options_are_validated() -> None:
    with pytest.raises(oakwood.engine.InvalidOptionError, match="jos_mode"):
        oakwood.load("barrell", jos_mode="everyone")
    assert re.search("BR-15", str(oakwood.load("barrell").options.describe()))
