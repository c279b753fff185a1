"""The S'Quarrels strategist: legal moves only, its changed rules of thumb in positions, stronger than the heuristic."""

from __future__ import annotations

from typing import Any

import pytest

import oakwood
from oakwood.arena.match import play_match
from oakwood.arena.simulate import SimulationSpec, simulate
from oakwood.arena.stats import deal_summary
from oakwood.engine import Game, State
from oakwood.engine.agent import PlayerView, as_choice
from oakwood.games.squarrels.strategist import SQuarrelsStrategist
from tests.games.squarrels.helpers import play, position
from tests.games.squarrels.test_heuristic import Checked


@pytest.mark.parametrize(
    "game",
    [
        oakwood.load("squarrels", single_round=True),
        oakwood.load("squarrels", target_score=20, hoard_race="random", golden_wild_in_sets=True),
        oakwood.load(
            "squarrels",
            single_round=True,
            hoard_race="seat_order",
            whirlwind_draw="mandatory_to_7",
            quarrel_winner_may_draw=True,
            quarrel_exhaustion="survivor_plays",
            hoard_drawer_may_race=True,
        ),
    ],
    ids=["default", "random-race-wild", "variants"],
)
def test_strategist_only_plays_legal_actions(game: Game[Any]) -> None:
    for seed in range(12):
        players = 2 + seed % 5
        agents = [Checked(SQuarrelsStrategist(seed=seed * 10 + i)) for i in range(players)]
        result = play_match(game, agents, seed)
        assert result.state.is_terminal()
        assert sum(a.moves for a in agents) >= result.steps


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
