"""Small pieces of the CLI: option pairs, seat lists, the race window, line-mode race input."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from typer.testing import CliRunner

from oakwood.cli.common import load_game, parse_option_pairs, parse_seats
from oakwood.cli.errors import CliInputError
from oakwood.cli.main import _race_window_option, app
from oakwood.cli.terminal import QuitGame, Terminal
from oakwood.engine import InvalidOptionError, load
from tests.cli.toygame import TOY_NAME


def test_option_pairs() -> None:
    assert parse_option_pairs(["rounds=2", " race-window-s = 3 "]) == {"rounds": "2", "race_window_s": "3"}
    with pytest.raises(CliInputError, match="key=value"):
        parse_option_pairs(["=3"])
    game = load_game(TOY_NAME, ["rounds=2", "race_window_s=1.5"])
    assert game.options.rounds == 2 and game.options.race_window_s == 1.5
    with pytest.raises(InvalidOptionError, match="rounds"):
        load_game(TOY_NAME, ["rounds=0"])


def test_seats_default_and_checked() -> None:
    game = load(TOY_NAME)
    assert parse_seats(game, None, None, default_first="human", allow_human=True) == [
        "human",
        "heuristic",
        "heuristic",
        "heuristic",
    ]
    assert parse_seats(game, None, 2, default_first="human", allow_human=True) == ["human", "heuristic"]
    assert parse_seats(game, "Human, random", None, default_first="human", allow_human=True) == ["human", "random"]
    refused = "unknown seat 'human' in --seats; choose from easy, medium, hard, expert, random, ismcts, pimc, heuristic"
    with pytest.raises(CliInputError, match=refused):
        parse_seats(game, "human,random", None, default_first="random", allow_human=False)


def test_race_window_comes_from_the_games_option() -> None:
    assert _race_window_option(load(TOY_NAME, race_window_s=2.5).options) == 2.5
    assert _race_window_option(load("squarrels").options) == load("squarrels").options.hoard_race_window_s


def test_line_mode_race_input() -> None:
    out = io.StringIO()
    term = Terminal(Console(file=out), stdin=io.StringIO("x\nl\n\nquit\n"), interactive=False)
    keys = {"a": 0, "l": 2}
    assert term.race(keys, 5.0, enter_passes=False) == (2, 0.0)  # "x" is explained, then "l" slaps for P3
    assert "Press a slap key ('a' for P1, 'l' for P3) or Enter to pass." in out.getvalue()
    assert term.race(keys, 5.0, enter_passes=False) == (None, 0.0)
    with pytest.raises(QuitGame):
        term.race(keys, 5.0, enter_passes=False)
    with pytest.raises(QuitGame):
        term.read_line("› ")  # input ended


def test_bots_only_game_plays_to_the_end_without_input() -> None:
    result = CliRunner().invoke(app, ["play", TOY_NAME, "-s", "random,heuristic", "--seed", "2", "--delay", "0"])
    assert result.exit_code == 0, result.output
    assert "▸ P1" in result.output and "Final result" in result.output
    assert "dealt [" not in result.output, "with no human, only public events are announced"
