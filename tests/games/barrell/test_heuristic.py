"""The heuristic bot: legal, uses only its view, and beats random players clearly."""

from __future__ import annotations

import json

import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.arena.match import play_match
from oakwood.engine.agent import PlayerView
from oakwood.games.barrell.actions import PLAY, Action
from oakwood.games.barrell.cards import NAMES
from oakwood.games.barrell.heuristic import BarrellHeuristic

from .helpers import legal_self_play, position, state_of


# Measured win shares (these seeds): 2 players 0.80, 3 players 0.69, 4 players 0.54 since the bot plays every
# face card and Joker (issue 35; before: 0.64, 0.64, 0.49); a fair share is 1 / players. The margins leave room
# for small changes of the bot.
@pytest.mark.parametrize(("players", "games", "at_least"), [(2, 200, 0.7), (3, 150, 0.55), (4, 200, 0.45)])
def test_heuristic_beats_random(players: int, games: int, at_least: float) -> None:
    game = oakwood.load("barrell")
    share = 0.0
    for seed in range(games):
        hero = seed % players
        agents = [
            make_agent(game, "heuristic", seed=seed) if s == hero else make_agent(game, "random", seed=seed * 7 + s)
            for s in range(players)
        ]
        share += play_match(game, agents, seed).returns[hero]
    assert share / games >= at_least  # fair share would be 1 / players


@pytest.mark.parametrize(
    "options", [{}, {"heart_gift": "split_per_card", "mulligan_mode": "simultaneous", "jos_mode": "rotate_all"}]
)
def test_heuristic_plays_whole_games_in_every_variant(options: dict[str, str]) -> None:
    game = oakwood.load("barrell", **options)
    for players in (2, 3, 4):
        agents = [make_agent(game, "heuristic", seed=s) for s in range(players)]
        result = play_match(game, agents, seed=players)
        assert result.state.is_terminal() and result.winners


# ---------------------------------------------------------------- every face card and Joker has a use (issue 35)


def _move(text: str, seat: int = 1, **options: str) -> str:
    """The heuristic's move as text for ``seat`` (1-based) in a position written in notation."""
    state = state_of(text, **options)
    return str(BarrellHeuristic(seed=0).act(PlayerView.of(state, seat - 1)))


# P2 played first, six face-down cards, and passed; P1 (to act) has six cards in its field.
_BEHIND = {"passed": "2", "first": 2}


def test_a_queen_cuts_the_suit_the_rival_may_hold() -> None:
    # Our field holds no spade; the rival's six unseen cards are likely to include some: the Q♠ sets them to 1.
    text = position(hands=["QS.5C.4D.2H", "3H.4H"], fields=["AC.2C.2D.3C.3D.AD", "10S.9S.8S.7S.6S.5S"], **_BEHIND)
    assert _move(text) == "play QS"


def test_a_queen_of_our_own_suit_is_kept() -> None:
    text = position(hands=["QS.5C.4D.2H", "3H.4H"], fields=["6S.5S.4S.3S.RJ.BJ", "10C.9C.8C.7C.6C.4C"], **_BEHIND)
    assert _move(text) == "play 5C"


def test_the_moves_do_not_depend_on_cards_the_bot_cannot_see() -> None:
    # The same position with other face-down cards in the rival's field (and hand): the same move.
    spades = position(hands=["QS.5C.4D.2H", "3H.4H"], fields=["AC.2C.2D.3C.3D.AD", "10S.9S.8S.7S.6S.5S"], **_BEHIND)
    hearts = position(hands=["QS.5C.4D.2H", "3S.4S"], fields=["AC.2C.2D.3C.3D.AD", "10H.9H.8H.7H.6H.5H"], **_BEHIND)
    assert _move(spades) == _move(hearts) == "play QS"


def test_a_card_of_a_suit_our_queen_cut_counts_1() -> None:
    # Our own face-down Q♠ will set every spade to 1 (BR-8): the 6♣ is worth more than the 10♠ now.
    text = position(hands=["10S.6C.2D", "2H.3H"], fields=["QS.2C.3D.4C.4D.3C", "10C.9C.8C.7C.6D.5D"], **_BEHIND)
    assert _move(text) == "play 6C"


def test_the_king_of_diamonds_strikes_when_our_top_card_is_small() -> None:
    # Six small cards against six unseen ones: each field loses its highest card (BR-9), theirs likely more.
    small = position(hands=["KD.2D.AH", "2H.3H"], fields=["4C.3C.4D.3S.2C.2S", "10S.9C.8C.7S.6S.5S"], **_BEHIND)
    assert _move(small) == "play KD"
    ten_on_top = position(hands=["KD.2D.AH", "2H.3H"], fields=["10C.3C.4D.3S.2C.2S", "10S.9C.8C.7S.6S.5S"], **_BEHIND)
    assert _move(ten_on_top) == "play 2D"


# P1 far ahead (40 against five unseen cards) with P2 still playing: the bot would pass.
_AHEAD = ["10C.9C.8C.7C.6C", "3C.2C.4C.5C.6S"]


def test_the_jack_of_diamonds_protects_a_lead_before_passing() -> None:
    assert _move(position(hands=["JD.2D.3H", "2S.3S.4S.5S"], fields=_AHEAD)) == "play JD"


def test_the_jack_of_diamonds_spares_our_own_king() -> None:
    # Our face-down K♣ doubles our field: the J♦ would cancel it (BR-11), so the bot passes instead.
    fields = ["10C.9C.8C.7C.KC", "3C.2C.4C.5C.6S"]
    assert _move(position(hands=["JD.2D.3H", "2S.3S.4S.5S"], fields=fields)) == "pass"


def test_the_king_of_hearts_goes_in_before_passing_to_take_a_card_back() -> None:
    assert _move(position(hands=["KH.2D", "2S.3S.4S.5S"], fields=_AHEAD)) == "play KH"
    small = ["2D.3C.4C.2S.3D", "10S.9C.8C.7S.6S"]  # nothing worth taking back: just pass
    assert _move(position(hands=["KH.5D", "2H.3H.4S.5S"], fields=small)) == "pass"


def test_a_joker_insures_a_lost_battle_and_takes_the_field_back() -> None:
    # Behind 21 to 27 with nothing to catch up: the Joker goes in before the pass...
    state = state_of(position(hands=["RJ.2D", "2S.3S.4S.5S"], fields=["10C.9C.2C", "10S.9S.8S"], passed="2", first=2))
    bot = BarrellHeuristic(seed=0)
    for expected in ("play RJ", "pass"):
        action = bot.act(PlayerView.of(state, 0))
        assert str(action) == expected
        state.apply(0, action)
    # ...and at the reveal (BR-12) the lost battle's cards come back to hand.
    assert state.to_act() == (0,)
    action = bot.act(PlayerView.of(state, 0))
    assert str(action) == "joker field"
    state.apply(0, action)
    hand = PlayerView.of(state, 0).observation["hand"]
    assert {"10C", "9C", "2C"} <= set(hand)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"jod_scope": "cards_on_table_only", "joker_timing": "after_provisional_score", "kod_scope": "global"},
        {"heart_gift": "split_per_card", "kh_timing": "before_scoring", "jos_mode": "rotate_all"},
        # A deck without the 2s and 3s and the black Joker (BR-24): the bot's unseen pool is the game's deck.
        {"deck_composition": json.dumps({n: 1 for n in NAMES if n[0] not in "23" and n != "BJ"})},
    ],
)
def test_every_move_is_legal_over_many_seeded_games(options: dict[str, str]) -> None:
    game = oakwood.load("barrell", **options)
    actions = legal_self_play(game, BarrellHeuristic, games=24)
    played = {NAMES[a.card] for a in actions if isinstance(a, Action) and a.verb == PLAY}
    # Over these games the bot used Queens, the K♦, the K♥, the J♦ and the Jokers, not only the cards it knew.
    assert {"KH", "JD", "RJ"} <= played and played & {"QC", "QD", "QH", "QS", "KD"}
    assert played <= {NAMES[c] for c in game.deck_cards}
