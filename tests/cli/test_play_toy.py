"""`oakwood play` driven by scripted standard input (line mode) on the toy game."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from oakwood.cli.main import app
from tests.cli.toygame import TOY_NAME

runner = CliRunner()

# At a move prompt "1" is always legal and "a" is refused (and explained); at a race prompt "1" is refused
# and "a" (P1's slap key) slaps; a hot-seat gate takes any line. So this stream finishes any toy game.
ANY_GAME = "1\na\n" * 200


def play(*args: str, input: str) -> str:
    result = runner.invoke(app, ["play", TOY_NAME, "--delay", "0", *args], input=input)
    assert result.exit_code == 0, result.output
    return result.output


def test_full_game_against_bots_reaches_the_result_screen() -> None:
    out = play("--seats", "human,heuristic,random", "--seed", "4", input=ANY_GAME)
    assert "Seats: P1 (you), P2 (heuristic), P3 (random)" in out
    assert "game over" in out and "Final result" in out
    assert re.search(r"(wins|share the win)!", out)
    assert "RACE! P1: press [a]" in out
    assert "Since your last move" in out
    assert "Your hand:" in out


def test_moves_by_number_and_name_errors_explained_and_reprompted() -> None:
    script = "\n".join(["draw", "9", "foo", "play 6", "undo", "2", "help", "play 4", "a"]) + "\n" + ANY_GAME
    out = play("--seats", "human,heuristic,random", "--seed", "4", input=script)
    assert "P1 drew a 5" in out  # the move typed by name, with the private result shown to P1
    assert "✗ there is no move 9; choose a number from 1 to 2" in out
    assert "✗ no action is written 'foo'" in out
    assert "✗ play 6 is not possible in the turn phase" in out  # the engine's own sentence
    assert "✗ cannot undo: something random happened since" in out
    assert "undo     take back your last move" in out
    assert "P1 slapped" in out  # the race key, in line mode, beats the bots' reaction delays
    # the prompt came back after every refused input, and the game went on from the same position
    assert out.count("P1 › ") >= 8
    assert "Final result" in out


def test_undo_of_own_move_before_anyone_acts() -> None:
    # Hot-seat: P1 leads, stays (no randomness) and is then first to commit, so may take the stay back.
    out = play("--seats", "human,human", "--seed", "2", input="\nstay\nundo\ndraw\n" + ANY_GAME)
    assert "Your last move was taken back." in out
    assert "P1 drew a" in out
    assert "Final result" in out


def test_bot_moves_announced_from_the_humans_point_of_view() -> None:
    out = play("--seats", "human,heuristic", "--seed", "8", input=ANY_GAME)
    assert re.search(r"▸ P2 drew a card", out) or "▸ P2 stay" in out
    assert not re.search(r"P2 drew a \d", out), "a bot's private draw must not be shown to P1"


def test_hot_seat_gates_between_humans_and_hides_private_draws() -> None:
    out = play("--seats", "human,human,random", "--seed", "3", input=ANY_GAME)
    assert "Pass the device to P2" in out and "Pass the device to P1" in out
    # every switch of private screen is preceded by a gate for the new seat
    current = None
    for line in out.splitlines():
        gate = re.search(r"Pass the device to P(\d)", line)
        if gate:
            current = gate.group(1)
        screen = re.search(r"Toy Snap · P(\d) \(human\)", line)
        if screen:
            assert screen.group(1) == current, "a human screen appeared without its gate"
    assert "RACE! P1: press [a] · P2: press [l]" in out
    assert "Final result" in out


def test_hot_seat_second_human_can_win_the_race_with_their_key() -> None:
    # the first race comes after one leader turn and one commit each; P2 answers with its key "l"
    out = play("--seats", "human,human", "--seed", "1", "-o", "rounds=1", input="\nstay\n\n1\n\n1\nl\n")
    assert "P2 slapped" in out
    assert "Final result" in out


def test_quit_and_end_of_input() -> None:
    result = runner.invoke(app, ["play", TOY_NAME, "--delay", "0", "--seed", "1"], input="quit\n")
    assert result.exit_code == 0 and "Game abandoned (quit)" in result.output
    result = runner.invoke(app, ["play", TOY_NAME, "--delay", "0", "--seed", "1"], input="")
    assert result.exit_code == 1 and "Game abandoned (input ended)" in result.output


def test_a_huge_line_typed_at_a_prompt_is_quoted_shortened() -> None:
    result = runner.invoke(app, ["play", TOY_NAME, "--delay", "0", "--seed", "1"], input="x" * 1_000_000 + "\nquit\n")
    assert result.exit_code == 0
    assert "… (1,000,000 characters)" in result.output  # in the echo of the line and in the refusal
    assert len(result.output) < 20_000
    assert "✗ no action is written 'xxxx" in result.output.replace("\n", "")  # as wrapped at 80 columns
