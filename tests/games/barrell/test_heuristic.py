"""The heuristic bot: legal, uses only its view, and beats random players clearly."""

from __future__ import annotations

import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.arena.match import play_match


# Measured win shares (these seeds): 2 players 0.64, 3 players 0.64, 4 players 0.49 (five windows of 200 seeds:
# 0.43-0.55); a fair share is 1 / players. The margins leave room for small changes of the bot.
@pytest.mark.parametrize(("players", "games", "at_least"), [(2, 200, 0.6), (3, 150, 0.5), (4, 200, 0.4)])
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
