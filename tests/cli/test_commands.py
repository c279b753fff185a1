"""`oakwood games`, `rules`, `simulate` and the error paths, through Typer's CliRunner."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from oakwood.cli.main import app
from oakwood.cli.tables import allowed_values, options_view, show_value
from oakwood.engine import game_class
from tests.cli.toygame import TOY_NAME

runner = CliRunner()


def test_games_lists_registered_games_with_player_ranges() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert TOY_NAME in result.output and "Toy Snap" in result.output
    assert "2–4" in result.output
    assert "squarrels" in result.output


def test_rules_prints_document_and_options_table() -> None:
    result = runner.invoke(app, ["rules", TOY_NAME])
    assert result.exit_code == 0, result.output
    assert "Toy Snap" in result.output and "TS-1" in result.output
    assert "race_window_s" in result.output and "rounds to play" in result.output
    assert "1…6" in result.output and "TS-2" in result.output


def test_unknown_game_is_a_readable_error_with_exit_code_2() -> None:
    result = runner.invoke(app, ["rules", "toysnapp"])
    assert result.exit_code == 2
    assert "no game named 'toysnapp'" in result.output and "did you mean 'toysnap'" in result.output
    assert "Traceback" not in result.output


def test_bad_options_and_seats_are_explained() -> None:
    cases = [
        (["--option", "roundz=2"], "unknown option 'roundz'; did you mean rounds?"),
        (["--option", "rounds=9"], "option 'rounds' must be at most 6"),
        (["--option", "rounds=many"], "option 'rounds' must be int"),
        (["--option", "rounds"], "--option takes key=value"),
        (
            ["--seats", "human,wizard"],
            "unknown seat 'wizard' in --seats; choose from human, easy, medium, hard, expert, random, ismcts, "
            "pimc, heuristic",
        ),
        (["--seats", "human,random", "--players", "3"], "--players 3 but --seats names 2 seats"),
        (["--players", "7"], "--players 7: Toy Snap takes 2–4 players"),
        (["--solo"], "Toy Snap has no solo mode"),
    ]
    for extra, message in cases:
        result = runner.invoke(app, ["play", TOY_NAME, "--delay", "0", *extra], input="quit\n")
        assert result.exit_code == 2, (extra, result.output)
        assert message in result.output, (extra, result.output)
        assert "Traceback" not in result.output


def test_simulate_prints_the_same_table_for_one_or_two_workers(tmp_path: Path) -> None:
    args = ["simulate", TOY_NAME, "--games", "30", "--seats", "heuristic,random", "--seed", "5"]
    one = runner.invoke(app, [*args, "--workers", "1"])
    two = runner.invoke(app, [*args, "--workers", "2", "--json", str(tmp_path / "r.json")])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    table = [line.rstrip() for line in one.output.strip().splitlines()]
    assert [line.rstrip() for line in two.output.strip().splitlines()][: len(table)] == table
    assert "P1 heuristic" in one.output and "P2 random" in one.output and "95% CI" in one.output
    assert "average length" in one.output
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["games"] == 30 and len(data["results"]) == 30
    assert data["partial"] is False and data["finished"] == 30
    assert data["lineup"] == ["heuristic", "random"]
    assert abs(sum(row["wins"] for row in data["summary"]) - 30) < 1e-9
    assert all(r["steps"] > 0 for r in data["results"])


def test_simulate_rotating_reports_per_agent() -> None:
    result = runner.invoke(
        app,
        ["simulate", TOY_NAME, "-g", "12", "-s", "heuristic,random,random", "--rotate", "-w", "1", "-o", "rounds=2"],
    )
    assert result.exit_code == 0, result.output
    assert "seats rotating" in result.output
    assert "random #1" in result.output and "random #2" in result.output and "Agent" in result.output


def test_simulate_refuses_human_seats() -> None:
    result = runner.invoke(app, ["simulate", TOY_NAME, "--seats", "human,random"])
    assert result.exit_code == 2
    assert "unknown seat 'human'" in result.output


@pytest.mark.parametrize("name", ["squarrels", "barrell", "nutty", TOY_NAME])
def test_rules_options_read_in_full_at_80_columns(name: str) -> None:
    cls = game_class(name)
    buffer = io.StringIO()
    Console(file=buffer, width=80, color_system=None).print(options_view(cls.title, cls.options_class))
    text = buffer.getvalue()
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    words = " ".join(text.split())  # a wrapped help sentence is still the same words
    for info in cls.options_class.describe():
        assert info.name in text
        assert f"default {show_value(info.default) if info.default != '' else chr(34) * 2}" in words
        for choice in info.choices or ():
            assert show_value(choice) in text
        assert allowed_values(info) in words  # the whole list of values, never cut to "after_sco…"
        assert " ".join(info.help.split()) in words


def test_rules_command_at_80_columns_shows_whole_option_values() -> None:
    result = runner.invoke(app, ["rules", "barrell"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "after_provisional_score" in result.output and "cards_on_table_only" in result.output
