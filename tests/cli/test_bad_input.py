"""Bad input of every kind: one line on standard error, exit code 2, never a traceback, the value typed
quoted (and shortened when huge), and nothing run first (no game dealt, no simulation started)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oakwood.cli.main import app
from tests.cli.toygame import TOY_NAME

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
# Placeholders, expanded only when a case runs (the parameters stay small for the test runner).
HUGE = "{huge}"  # a 10 MB token pasted by mistake
HUGE_NUMBER = "{huge_number}"
LONG = "{long}"  # 100 kB: the parser compares an unknown flag with every known one, slowly
EXPANSIONS = {HUGE: "x" * 10_000_000, HUGE_NUMBER: "9" * 100_000, LONG: "y" * 100_000}


def expand(arg: str) -> str:
    for placeholder, value in EXPANSIONS.items():
        arg = arg.replace(placeholder, value)
    return arg


# (arguments, a piece of the one-line message)
CASES: list[tuple[list[str], str]] = [
    # games and commands
    (["rules", "toysnapp"], "no game named 'toysnapp'"),
    (["play", "chess"], "no game named 'chess'"),
    (["rules", HUGE], "… (10,000,000 characters)"),
    (["frobnicate"], "No such command"),
    (["play"], "Missing argument"),
    (["play", TOY_NAME, "--bogus"], "No such option: --bogus"),
    (["simulate", TOY_NAME, "--" + LONG], "No such option: --yyyy"),
    (["play", TOY_NAME, "--seats"], "requires an argument"),
    # options
    (["play", TOY_NAME, "-o", "nan"], "--option takes key=value, got 'nan'"),
    (["play", TOY_NAME, "-o", "roundz=2"], "unknown option 'roundz'"),
    (["play", TOY_NAME, "-o", "rounds=many"], "option 'rounds' must be int"),
    (["play", TOY_NAME, "-o", "rounds=nan"], "option 'rounds' must be int"),
    (["play", TOY_NAME, "-o", "race_window_s=nan"], "option 'race_window_s' must be a finite number; got nan"),
    (["play", TOY_NAME, "-o", "race_window_s=inf"], "option 'race_window_s' must be a finite number; got inf"),
    (["play", TOY_NAME, "-o", "rounds=" + HUGE_NUMBER], "… (100,000 characters)"),
    (["simulate", TOY_NAME, "-o", "rounds=" + HUGE], "… (10,000,000 characters)"),
    (["play", TOY_NAME, "-o", "rounds=@/no/such/file"], "there is no file '/no/such/file'"),
    (["play", TOY_NAME, "-o", "rounds=@/dev/zero"], "is not a regular file"),
    (["simulate", TOY_NAME, "-o", "rounds=@/"], "is a directory"),
    # seats and players
    (["play", TOY_NAME, "--seats", "human,wizard"], "unknown seat 'wizard' in --seats"),
    (["play", TOY_NAME, "--seats", "human," + HUGE], "… (10,000,000 characters)"),
    (["play", TOY_NAME, "--seats", ""], "--seats names 0 seats: Toy Snap takes 2–4 players"),
    (["simulate", TOY_NAME, "--seats", "human,random"], "unknown seat 'human' in --seats"),
    (["play", TOY_NAME, "--players", "-3"], "--players -3: Toy Snap takes 2–4 players"),
    (["play", TOY_NAME, "--players", "0"], "--players 0: Toy Snap takes 2–4 players"),
    (["play", TOY_NAME, "--players", "7"], "--players 7: Toy Snap takes 2–4 players"),
    (["play", TOY_NAME, "--players", "two"], "--players two: not a whole number"),
    (["play", TOY_NAME, "--players", "nan"], "--players nan: not a whole number"),
    (["simulate", TOY_NAME, "-n", "1.5"], "--players 1.5: not a whole number"),
    (["play", TOY_NAME, "--seats", "human,random", "--players", "3"], "--players 3 but --seats names 2 seats"),
    (["play", TOY_NAME, "--solo"], "Toy Snap has no solo mode"),
    (["play", "nutty", "--solo", "--seats", "human,heuristic"], "--solo means one player, but --seats human,heuristic"),
    (["play", "nutty", "--solo", "--players", "3"], "--solo means one player, but --players asks for 3"),
    # numbers
    (["play", TOY_NAME, "--delay", "-1"], "--delay -1: must be a number of seconds from 0 to 60"),
    (["play", TOY_NAME, "--delay", "nan"], "--delay nan: must be a number of seconds"),
    (["play", TOY_NAME, "--delay", "inf"], "--delay inf: must be a number of seconds"),
    (["play", TOY_NAME, "--delay", "1e400"], "--delay 1e400: must be a number of seconds"),
    (["play", TOY_NAME, "--delay", "soon"], "--delay soon: not a number of seconds"),
    (["play", TOY_NAME, "--race-window", "0"], "--race-window 0: must be a number of seconds from more than 0"),
    (["play", TOY_NAME, "--race-window", "-2"], "--race-window -2: must be a number of seconds"),
    (["play", TOY_NAME, "--race-window", "NaN"], "--race-window NaN: must be a number of seconds"),
    (
        ["play", TOY_NAME, "--race-window", "1e12"],
        "--race-window 1e12: must be a number of seconds from more than 0 to 600",
    ),
    (["play", TOY_NAME, "--seed", "-1"], "--seed -1: a seed is a whole number from 0 to 2^64-1"),
    (["play", TOY_NAME, "--seed", "1.5"], "--seed 1.5: a seed is a whole number"),
    (["simulate", TOY_NAME, "--seed", HUGE_NUMBER], "… (100,000 characters): a seed is a whole number"),
    (["simulate", TOY_NAME, "--seed", str(2**64)], "a seed is a whole number from 0 to 2^64-1"),
    (["simulate", TOY_NAME, "--games", "0"], "--games 0: must be a whole number from 1 to 10000000"),
    (["simulate", TOY_NAME, "--games", "-5"], "--games -5: must be a whole number from 1"),
    (["simulate", TOY_NAME, "--games", "inf"], "--games inf: not a whole number"),
    (["simulate", TOY_NAME, "--games", "100000000"], "--games 100000000: must be a whole number from 1 to 10000000"),
    (["simulate", TOY_NAME, "--workers", "0"], "--workers 0: must be a whole number from 1 to"),
    (["simulate", TOY_NAME, "--workers", "-1"], "--workers -1: must be a whole number from 1 to"),
    (["simulate", TOY_NAME, "--workers", "100000"], "--workers 100000: must be a whole number from 1 to"),
    (["simulate", TOY_NAME, "--workers", "nan"], "--workers nan: not a whole number"),
    # output paths, refused before the run
    (["simulate", TOY_NAME, "--json", "/no/such/dir/r.json"], "the directory '/no/such/dir' does not exist"),
    (["simulate", TOY_NAME, "--json", "/"], "is a directory"),
    (["simulate", TOY_NAME, "--json", "/proc/oakwood.json"], "cannot create a file in '/proc'"),
    (["simulate", TOY_NAME, "--json", "/tmp/" + "y" * 300 + "/r.json"], "… (312 characters)"),
]


@pytest.mark.parametrize(("args", "message"), CASES, ids=lambda value: str(value)[:60])
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, [expand(arg) for arg in args], input="quit\n")
    assert result.exit_code == 2, result.output[:2000]
    assert result.stdout == "", "nothing ran before the error"
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr[:2000]
    assert message in lines[0], lines[0]
    assert len(lines[0]) < 500, "a bad value is quoted shortened"
    assert "Traceback" not in result.output


def test_the_installed_entry_point_reports_bad_input_the_same_way() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-c", "from oakwood.cli.main import main; main()", "play", "squarrels"]
    done = subprocess.run(
        [*command, "--players", "-3", "--delay", "0"], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == "error: --players -3: S'Quarrels takes 2–6 players"


def test_no_arguments_still_shows_the_help() -> None:
    result = runner.invoke(app, [])
    assert result.exit_code == 2
    assert "Usage:" in result.output and "simulate" in result.output and "error:" not in result.output


def test_an_unexpected_failure_is_one_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> list[str]:
        raise RuntimeError("the registry is on fire")

    monkeypatch.setattr("oakwood.cli.main.game_names", broken)
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: unexpected internal error (RuntimeError: the registry is on fire); "
        "please report it (set OAKWOOD_DEBUG=1 for details)"
    )
    assert "Traceback" not in result.output
