"""The S'Quarrels heuristic bot: legal moves only (the strategist too), better than random play, and sensible
about the Rotten."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pytest

import oakwood
from oakwood.agents.random_agent import RandomAgent
from oakwood.arena.match import play_match
from oakwood.engine import Game
from oakwood.engine.agent import Choice, PlayerView, as_choice
from oakwood.games.squarrels.actions import PASS_ACTION
from oakwood.games.squarrels.heuristic import SQuarrelsHeuristic
from oakwood.games.squarrels.strategist import SQuarrelsStrategist
from tests.games.squarrels.helpers import play, position


class Checked:
    """Wraps an agent and asserts every answer is one of the legal actions it was offered."""

    name = "checked"

    def __init__(self, inner: SQuarrelsHeuristic) -> None:
        self.inner = inner
        self.moves = 0

    def act(self, view: PlayerView) -> Hashable | Choice:
        answer = self.inner.act(view)
        assert as_choice(answer, 0.0).action in view.legal_actions, (answer, view.legal_actions)
        self.moves += 1
        return answer


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
@pytest.mark.parametrize("bot", [SQuarrelsHeuristic, SQuarrelsStrategist])
def test_the_bots_only_play_legal_actions(game: Game[Any], bot: type[SQuarrelsHeuristic]) -> None:
    for seed in range(12):
        players = 2 + seed % 5
        agents = [Checked(bot(seed=seed * 10 + i)) for i in range(players)]
        result = play_match(game, agents, seed)
        assert result.state.is_terminal()
        assert sum(a.moves for a in agents) >= result.steps  # race answers after the winning slap are dropped


def test_heuristic_beats_random() -> None:
    game = oakwood.load("squarrels", single_round=True)
    games, share = 200, 0.0
    for seed in range(games):
        seat = seed % 4  # rotate the heuristic's seat
        agents: list[SQuarrelsHeuristic | RandomAgent] = [RandomAgent(seed=seed * 10 + i) for i in range(4)]
        agents[seat] = SQuarrelsHeuristic(seed=seed)
        share += play_match(game, agents, seed).returns[seat]
    assert share / games >= 0.5


@pytest.mark.parametrize("mode", ["realtime", "random"])
def test_heuristic_passes_the_race_when_it_put_the_rotten_in_the_pile(mode: str) -> None:
    game = oakwood.load("squarrels", hoard_race=mode)
    state = play(position(3, "12/34/55", deck="H", hoard="1@3,R@2,4@3,2@3,3@1", game=game), "P1 draw")
    bot = SQuarrelsHeuristic(seed=1)
    answer = as_choice(bot.act(PlayerView.of(state, 1)), 0.0)
    assert answer.action == PASS_ACTION
    # P3 does not know where the Rotten is; a five-card pile is worth the risk.
    assert str(as_choice(bot.act(PlayerView.of(state, 2)), 0.0).action) == "slap"
    if mode == "realtime":
        assert isinstance(bot.act(PlayerView.of(state, 1)), Choice)  # a race answer carries a reaction delay


def bot_move(state: Any, seat: int) -> str:
    return str(as_choice(SQuarrelsHeuristic(seed=1).act(PlayerView.of(state, seat)), 0.0).action)


def test_heuristic_draws_before_a_store_that_would_leave_only_the_golden() -> None:
    # From 3 3 G the bot draws a 3: storing now would close drawing and force the Golden out.
    state = position(2, "33G/11", deck="43")
    play(state, "P1 draw")
    assert bot_move(state, 0) == "draw"  # one more card first (the 4)…
    play(state, "P1 draw")
    assert bot_move(state, 0) == "store 3"  # …then the set…
    play(state, "P1 store 3")
    assert bot_move(state, 0) == "discard 4"  # …and the Golden stays in hand


def test_heuristic_keeps_the_set_when_drawing_is_closed_and_only_the_golden_would_be_left() -> None:
    state = position(2, "333G/11", phase="storing")
    assert bot_move(state, 0) == "discard 3"
