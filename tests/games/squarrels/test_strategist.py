"""The S'Quarrels strategist: its changed rules of thumb in positions, and stronger than the heuristic (its legal
play is tested with the heuristic's, in test_heuristic.py)."""

from __future__ import annotations

import pytest

import oakwood
from oakwood.arena.simulate import SimulationSpec, simulate
from oakwood.arena.stats import deal_summary
from oakwood.engine import State
from oakwood.engine.agent import PlayerView, as_choice
from oakwood.games.squarrels.strategist import FIGURES, TUNED, SQuarrelsStrategist
from tests.games.squarrels.helpers import play, position


def bot_move(state: State, seat: int) -> str:
    return str(as_choice(SQuarrelsStrategist(seed=1).act(PlayerView.of(state, seat)), 0.0).action)


def test_it_draws_on_with_a_set_in_hand_and_stores_when_drawing_is_done() -> None:
    # The heuristic would store the 3s at once and close drawing; the strategist draws to seven first.
    state = play(position(2, "331/11", deck="2453"), "P1 draw")
    assert bot_move(state, 0) == "draw"
    play(state, "P1 draw", "P1 draw", "P1 draw")  # 5, 4, 2: seven cards, drawing is over
    assert bot_move(state, 0) == "store 3"


def test_it_stops_drawing_rather_than_risk_handing_a_big_hoard_pile_away() -> None:
    # Ten cards of the rival's in the pile, seven Hoards among the 60-odd cards left: a draw that may be a
    # Hoard costs more than the card it brings.
    pile = ",".join(["5@2"] * 6 + ["4@2"] * 4)
    state = play(position(2, "331/11", deck="3", hoard=pile, discard="H"), "P1 draw")
    assert bot_move(state, 0) == "store 3"
    small = play(position(2, "331/11", deck="3", hoard="5@2", discard="H"), "P1 draw")
    assert bot_move(small, 0) == "draw"


def test_at_two_players_it_loses_a_quarrel_cheaply_and_at_more_it_hands_over_the_rotten() -> None:
    two = play(position(2, "5511/234", deck="Q"), "P1 draw")
    assert bot_move(two, 0) == "play 1"  # the heuristic would fight with a 5
    four = play(position(4, "55R1/234/12/3", deck="Q"), "P1 draw")
    assert bot_move(four, 0) == "play rotten"
    fight = play(position(4, "5511/234/12/3", deck="Q"), "P1 draw")
    assert bot_move(fight, 0) == "play 5"


def test_at_more_players_it_stops_drawing_sooner_with_a_set_in_hand() -> None:
    # Three of the 21 cards left may take the set of 5s from the hand (Winter, the two Whirlwinds): at four
    # players the tuned set_risk stores it now; with 110 cards left, or with no set_risk, it draws on.
    late = {"deck": "4", "storage": "1111111111/22222222/333333/-", "discard": "QQQQQQQHHHHHHHAAAAAA"}
    small = play(position(4, "555/4/4/4", **late), "P1 draw")
    assert small.observe(0)["deck_size"] == 21 and bot_move(small, 0) == "store 5"
    heedless = SQuarrelsStrategist(seed=1, set_risk=0)
    assert str(as_choice(heedless.act(PlayerView.of(small, 0)), 0.0).action) == "draw"
    assert bot_move(play(position(4, "555/4/4/4", deck="4"), "P1 draw"), 0) == "draw"


def test_it_beats_the_heuristic_on_duplicate_deals() -> None:
    # Every deal is played with the strategist at each seat, so the edge is in the play, not the cards.
    spec = SimulationSpec(
        "squarrels",
        ("strategist", "heuristic"),
        games=1200,
        seed=3,
        rotate=True,
        duplicate=True,
        options={"single_round": True},
    )
    summary = deal_summary(simulate(spec, workers=1), 0)
    assert summary.deals == 600 and summary.ci_low > 0.5


def test_its_figures_are_tuned_by_table_size_and_unknown_ones_are_refused() -> None:
    untuned = SQuarrelsStrategist(seed=0)  # before its first move: the heuristic's figures
    game = oakwood.load("squarrels")
    for players in (2, 3, 6):
        bot = SQuarrelsStrategist(seed=0)
        state = game.new_state(players, seed=1)
        bot.act(PlayerView.of(state, state.to_act()[0]))
        tuned = TUNED.get(players, {})
        assert tuned, players  # every table size the game allows has its figures
        for name in FIGURES:
            assert getattr(bot, name) == pytest.approx(tuned.get(name, getattr(untuned, name))), (players, name)
            assert type(getattr(bot, name)) is type(getattr(untuned, name))  # a rank stays an int
    given = SQuarrelsStrategist(seed=0, fight_rank=5.0)  # over the tuned figure, at every size
    state = game.new_state(4, seed=1)
    given.act(PlayerView.of(state, state.to_act()[0]))
    assert given.fight_rank == 5 and isinstance(given.fight_rank, int)
    with pytest.raises(TypeError, match="S'Quarrels strategist has no figure 'deck'"):
        SQuarrelsStrategist(seed=0, deck=1)
    with pytest.raises(TypeError, match="figure pile_weight is a number, not 'high'"):
        SQuarrelsStrategist(seed=0, pile_weight="high")  # type: ignore[arg-type]
