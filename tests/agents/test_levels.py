"""Difficulty levels: the bot and budget behind each, usable wherever an agent is named, shown with strength."""

from __future__ import annotations

import json
import math
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

import oakwood
from oakwood.agents import ISMCTSAgent, RandomAgent, agent_names, make_agent
from oakwood.agents.levels import LEVELS, level_bot, level_settings, measured_strength
from oakwood.arena.match import play_match
from oakwood.cli.main import app
from oakwood.cli.tables import pimc_line, sequential_line, strength_line
from tests.cli.toygame import TOY_NAME


@pytest.mark.parametrize("name", ["squarrels", "barrell", "nutty"])
def test_each_level_is_the_bot_and_budget_it_names(name: str) -> None:
    game = oakwood.load(name)
    assert agent_names(game)[:4] == list(LEVELS)
    assert isinstance(make_agent(game, "easy", seed=1), RandomAgent)
    heuristic = type(make_agent(game, "heuristic", seed=1))
    assert type(make_agent(game, "medium", seed=1)) is heuristic
    hard, expert = make_agent(game, "hard", seed=1), make_agent(game, "expert", seed=1)
    if game.level_iterations is None:  # search not yet stronger than the heuristic here: never weaker than medium
        assert type(hard) is heuristic and type(expert) is heuristic
        return
    assert isinstance(hard, ISMCTSAgent) and isinstance(expert, ISMCTSAgent)
    assert (hard.iterations, expert.iterations) == game.level_iterations
    assert hard.iterations is not None and expert.iterations is not None and hard.iterations < expert.iterations
    assert hard.seconds is None  # iterations, not seconds: the same moves on any machine
    assert hard.playout_steps == expert.playout_steps == game.playout_steps


def test_a_level_takes_explicit_settings_over_its_own() -> None:
    game = oakwood.load("barrell")
    assert make_agent(game, "expert", iterations=7).iterations == 7


def test_medium_is_random_for_a_game_without_a_heuristic() -> None:
    class Bare(type(oakwood.load(TOY_NAME))):  # type: ignore[misc]
        agents: ClassVar[dict[str, str]] = {}

    assert level_bot(Bare, "medium") == "random" and level_bot(Bare, "expert") == "ismcts"

    class Unsearched(type(oakwood.load(TOY_NAME))):  # type: ignore[misc]
        level_iterations = None

    assert level_bot(Unsearched, "expert") == "heuristic" and level_settings(Unsearched, "expert") == {}


def test_levels_play_a_whole_match_of_the_toy_game() -> None:
    game = oakwood.load(TOY_NAME)
    agents = [make_agent(game, level, seed=i) for i, level in enumerate(("easy", "medium", "hard"))]
    assert play_match(game, agents, seed=2).state.is_terminal()


def test_levels_are_seat_names_in_arena_and_play() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["arena", TOY_NAME, "-a", "easy,medium", "-g", "6", "-n", "2", "-w", "1"])
    assert result.exit_code == 0, result.output
    assert "easy" in result.output and "medium" in result.output
    played = runner.invoke(app, ["simulate", TOY_NAME, "-s", "easy,medium", "-g", "4", "--no-store", "-w", "1"])
    assert played.exit_code == 0, played.output


def test_games_lists_the_levels_with_their_measured_strength() -> None:
    output = CliRunner().invoke(app, ["games"], env={"COLUMNS": "200"}).output  # one line per figure
    assert "Difficulty levels" in output
    for level in LEVELS:
        assert level in output
    for figures in measured_strength().values():
        assert figures["settings"] in output
        for result in figures["levels"].values():
            low, high = result["ci95"]  # shown rounded outward to whole percents
            shown = f"[{math.floor(round(low * 100, 6))}%–{math.ceil(round(high * 100, 6))}%]"
            assert f"{result['win_share']:.0%} {shown}" in output


def test_an_interval_is_shown_rounded_outward() -> None:
    # 0.495 shown as 50 % would read as an interval above the equal share of two players.
    figures = {
        "settings": "2 players",
        "levels": {"expert": {"win_share": 0.55, "ci95": [0.495, 0.604], "opponent": "medium", "games": 320}},
    }
    assert strength_line(figures, "expert") == "2 players: 55% [49%–61%] vs medium (320 games)"
    figures["levels"]["expert"]["ci95"] = [0.87, 0.95]  # whole percents stay as they are
    assert "[87%–95%]" in strength_line(figures, "expert")
    figures["levels"]["expert"]["deals"] = 160  # measured on duplicate deals
    assert strength_line(figures, "expert").endswith("(320 games of 160 deals)")


def test_a_time_a_move_is_shown_with_the_form_that_measured_it() -> None:
    # the compiled form searches about twice as fast as the pure one: the time names which ran it
    result = {"win_share": 0.78, "ci95": [0.68, 0.87], "opponent": "medium", "games": 80, "deals": 40}
    figures: dict[str, Any] = {"settings": "2 players", "levels": {"expert": result}}
    figures["time"] = {"expert_seconds_per_move": 0.888, "form": "compiled"}
    assert strength_line(figures, "expert").endswith("(80 games of 40 deals, 0.89 s a move compiled)")
    del figures["time"]["form"]  # a time stored before the form was recorded
    assert strength_line(figures, "expert").endswith("(80 games of 40 deals, 0.89 s a move)")


def test_a_solo_level_shows_its_gain_over_medium_on_the_same_deals() -> None:
    result = {"win_share": 0.6, "ci95": [0.5, 0.7], "opponent": None, "games": 60, "mean_score": 16.5}
    figures: dict[str, Any] = {"settings": "solo", "levels": {"expert": result}}
    assert strength_line(figures, "expert") == "solo: wins 60% [50%–70%], mean score 16.5 (60 games)"
    result["over_medium"] = {"score": {"mean": 2.23, "ci95": [1.1, 3.36]}, "wins": {"mean": 0.18, "ci95": [0.1, 0.26]}}
    assert "mean score 16.5 (+2.2 [+1.1, +3.4] over medium) (60 games)" in strength_line(figures, "expert")


def test_a_result_against_time_matched_pimc_is_shown_with_its_test() -> None:
    result: dict[str, Any] = {"win_share": 0.787, "ci95": [0.658, 0.917], "opponent": "pimc", "games": 40}
    result.update(deals=20, seconds_a_move=1, form="pure", sprt={"h0": 0.6, "h1": 0.7, "outcome": "H1"})
    figures: dict[str, Any] = {"settings": "2 players, one round", "levels": {}, "against_pimc": {"expert": result}}
    assert pimc_line(figures, "expert") == (
        "2 players, one round: 79% [65%–92%] vs pimc, both 1 s a move pure (40 games of 20 deals; SPRT 0.6/0.7: "
        "H1 (0.7) accepted)"
    )
    assert pimc_line(figures, "hard") == ""
    result["sprt"]["outcome"] = "undecided"
    assert pimc_line(figures, "expert").endswith("SPRT 0.6/0.7: undecided)")
    solo = {"win_share": 0.7, "ci95": [0.4, 0.89], "opponent": "pimc", "games": 10, "mean_score": 16.2}
    solo.update(seconds_a_move=1, form="compiled", over_pimc={"score": {"mean": 16.2, "ci95": [11.016, 21.384]}})
    figures = {"settings": "solo", "levels": {}, "against_pimc": {"expert": solo}}
    assert pimc_line(figures, "expert") == (
        "solo: mean score 16.2, +16.2 [+11.0, +21.4] points over pimc, both 1 s a move compiled (10 games)"
    )


def test_a_sequential_verdict_against_the_levels_own_opponent_is_shown_beside_the_fixed_sample() -> None:
    solo: dict[str, Any] = {"win_share": 0.83, "ci95": [0.55, 0.95], "opponent": "medium", "games": 12, "deals": 12}
    solo.update(mean_score=18.4, form="compiled", sprt={"h0": 0, "h1": 3, "outcome": "H1"})
    solo["over_medium"] = {"score": {"mean": 6.1, "ci95": [1.9, 10.2]}, "wins": {"mean": 0.42, "ci95": [0.1, 0.7]}}
    figures: dict[str, Any] = {"settings": "solo", "levels": {}, "sequential": {"expert": solo}}
    assert sequential_line(figures, "expert") == (
        "solo: mean score 18.4, +6.1 [+1.9, +10.2] points over medium (12 games of 12 deals; SPRT 0/3: H1 (3) accepted)"
    )
    assert sequential_line(figures, "hard") == ""
    duel = {"win_share": 0.66, "ci95": [0.6, 0.72], "opponent": "medium", "games": 180, "deals": 90, "form": "pure"}
    duel["sprt"] = {"h0": 0.55, "h1": 0.65, "outcome": "H0"}
    figures = {"settings": "2 players, a match to 50", "levels": {}, "sequential": {"expert": duel}}
    assert sequential_line(figures, "expert") == (
        "2 players, a match to 50: 66% [60%–72%] vs medium (180 games of 90 deals; SPRT 0.55/0.65: H0 (0.55) accepted)"
    )


def test_games_shows_each_stored_result_against_pimc() -> None:
    output = CliRunner().invoke(app, ["games"], env={"COLUMNS": "250"}).output
    shown = 0
    for figures in measured_strength().values():
        for level in figures.get("against_pimc", {}):
            assert pimc_line(figures, level) in output
            shown += 1
        for level in figures.get("sequential", {}):
            assert sequential_line(figures, level) in output
    assert shown >= 1, "issue 37 asks every strength figure to be reported against time-matched PIMC too"


def test_the_measured_strengths_are_well_formed() -> None:
    for case, figures in measured_strength().items():
        game = oakwood.load(figures["game"])
        assert case.startswith(game.name) and game.min_players <= figures["players"] <= game.max_players
        for level, result in figures["levels"].items():
            assert level in LEVELS and result["opponent"] in (*LEVELS, None)
            low, high = result["ci95"]
            assert 0 <= low <= result["win_share"] <= high <= 1 and result["games"] > 0
        if figures.get("time"):  # a time a move names the form that measured it
            assert figures["time"]["form"] in ("compiled", "pure")
        for level, result in figures.get("against_pimc", {}).items():  # time-matched: both bots' seconds a move
            assert level in ("hard", "expert") and result["opponent"] in ("pimc", None)
            assert figures["players"] > 1 or "over_pimc" in result  # alone: the score gain on the same deals
            assert result["seconds_a_move"] > 0 and result["form"] in ("compiled", "pure") and result["games"] > 0
            low, high = result["ci95"]
            assert 0 <= low <= result["win_share"] <= high <= 1 and result["commit"] and result["measured"]
        for level, result in figures.get("sequential", {}).items():  # a verdict against the level's own opponent
            assert (
                level in LEVELS
                and result["opponent"] in LEVELS
                and result["sprt"]["outcome"] in ("H0", "H1", "undecided")
            )
            assert figures["players"] > 1 or f"over_{result['opponent']}" in result
            assert result["form"] in ("compiled", "pure") and result["games"] > 0 and result["commit"]
        json.dumps(figures)


def test_barrells_expert_searches_the_budget_its_sprt_measured_stronger() -> None:
    # benchmarks/README.md, "Expert changes": 900 iterations beat 300 (H1 accepted after 44 duplicate deals)
    barrell = oakwood.load("barrell")
    assert barrell.level_iterations == (100, 900)
    expert = make_agent(barrell, "expert", seed=1)
    assert isinstance(expert, ISMCTSAgent) and expert.iterations == 900


def test_the_stored_strengths_name_the_budgets_the_levels_search() -> None:
    # a figure measured at another budget describes a search no level plays (strength.py stores the budgets)
    for figures in measured_strength().values():
        budgets = oakwood.load(figures["game"]).level_iterations
        assert figures["iterations"] == dict(zip(("hard", "expert"), budgets or (), strict=False))
