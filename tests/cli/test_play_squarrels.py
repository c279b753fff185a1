"""End to end with S'Quarrels: single-round games driven by scripted input, its rules, a small simulation."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from oakwood.cli.main import app

runner = CliRunner()

# "1" is always a legal move; "a"/"l" are refused at a move prompt (and explained) but are P1's/P2's slap
# keys at a race prompt; a hot-seat gate takes any line. So this stream plays any game to its end.
BY_NUMBERS = "1\na\nl\n" * 1500


def play(*args: str, input: str) -> str:
    result = runner.invoke(
        app, ["play", "squarrels", "--delay", "0", "-o", "single_round=true", *args], input=input, terminal_width=100
    )
    assert result.exit_code == 0, result.output[-3000:]
    return result.output


def test_single_round_against_bots_by_numbers_with_an_illegal_move_explained() -> None:
    out = play("--seats", "human,random,random", "--seed", "21", input="store 5\n" + BY_NUMBERS)
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("P1 › store 5"))
    assert lines[first + 1].startswith("✗ "), "the engine's reason is shown"
    assert lines[first + 2].startswith("P1 › "), "and the same player is asked again"
    assert "✗ no action is written 'a'" in out
    assert "Seats: P1 (you), P2 (random), P3 (random)" in out
    assert "Your hand:" in out and "Since your last move" in out
    assert "game over" in out and "Final result" in out
    assert re.search(r"(wins|share the win)!", out)


def test_hot_seat_two_humans_single_round() -> None:
    out = play("--seats", "human,human", "--seed", "5", input=BY_NUMBERS)
    assert "Pass the device to P1" in out and "Pass the device to P2" in out
    current = None
    for line in out.splitlines():
        gate = re.search(r"Pass the device to P(\d)", line)
        if gate:
            current = gate.group(1)
        screen = re.search(r"S'Quarrels · P(\d) \(human\)", line)
        if screen:
            assert screen.group(1) == current, "a private screen appeared without its gate"
    assert "Final result" in out


def test_default_seats_are_you_against_medium_bots() -> None:
    out = play("--players", "3", "--seed", "8", input=BY_NUMBERS)
    assert "Seats: P1 (you), P2 (medium), P3 (medium)" in out
    assert "Final result" in out


def test_simulate_squarrels_in_two_processes() -> None:
    args = ["simulate", "squarrels", "-g", "6", "-s", "random,random,random", "-o", "single_round=true", "--seed", "2"]
    one = runner.invoke(app, [*args, "-w", "1"])
    two = runner.invoke(app, [*args, "-w", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert [line.rstrip() for line in one.output.splitlines()] == [line.rstrip() for line in two.output.splitlines()]
    assert "P3 random" in one.output


def test_rules_document_and_options() -> None:
    result = runner.invoke(app, ["rules", "squarrels"], terminal_width=120)
    assert result.exit_code == 0, result.output
    assert "single_round" in result.output and "hoard_race_window_s" in result.output
    assert "SQ-12" in result.output


def test_undo_takes_back_a_stored_set_but_never_a_draw() -> None:
    # Seed 5: P1 starts; after drawing, P1 holds three 1s. The store is quiet; the draw showed a new card.
    out = play("--seats", "human,random", "--seed", "5", input="draw\nstore 1\nundo\nundo\nquit\n")
    taken_back = out.index("Your last move was taken back.")
    refused = out.index("✗ cannot undo: that move revealed something new (draw)")
    assert taken_back < refused
    assert "P1 drew" in out and "Game abandoned (quit)" in out
