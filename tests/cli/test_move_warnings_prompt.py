"""A move the game warns about (``Game.move_warnings``; Nutty solo, NS-17l) is confirmed before it is played:
the warning is shown, ``are you sure? (y/n)`` asked, ``y`` or ``yes`` plays it and anything else goes back to
the move prompt with nothing played. Games that warn of nothing never ask, and never draw a world for it."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from rich.console import Console

from oakwood.agents import make_agent
from oakwood.cli.play import CONFIRM_PROMPT, PlaySession, SeatPlan
from oakwood.cli.terminal import QuitGame, Terminal
from oakwood.engine import State, load
from tests.cli import test_screen
from tests.games.nutty.helpers import board as nutty_board
from tests.games.nutty.helpers import load as nutty_load
from tests.games.nutty.helpers import position as nutty_position

END_WARNING = "This ends the game with 0 points, 20 short of 20."  # a fresh solo game, any seed
QUESTION = CONFIRM_PROMPT.strip()


class ScriptedTty(test_screen.ScriptedTty):
    """The hot-seat tests' scripted terminal at 80x24 (screens redrawn, notices above the menu), which records
    its prompts; the input ends when the list does."""

    def __init__(self, answers: list[str]) -> None:
        super().__init__(answers)
        self.console = Console(file=self.buffer, force_terminal=True, width=80, height=24, color_system=None)
        self.prompts: list[str] = []

    def read_line(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            self.console.print(prompt, end="")
            raise QuitGame("input ended", 1)
        return super().read_line(prompt)


def run(state: State, answers: list[str], *, bots: int = 0) -> tuple[PlaySession, str, int]:
    """P1, a human fed ``answers`` line by line (then the input ends), against ``bots`` heuristic bots, in a
    transcript: the session, what it printed and its exit code."""
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    term = Terminal(console, stdin=io.StringIO("".join(a + "\n" for a in answers)), interactive=False)
    seats = [SeatPlan("human")]
    seats += [SeatPlan("heuristic", make_agent(state.game, "heuristic", seed=s)) for s in range(1, bots + 1)]
    session = PlaySession(state.game, state, seats, term, seed=3, delay=0)
    code = session.run()
    return session, out.getvalue(), code


def solo(seed: int = 3) -> State:
    return load("nutty").new_state(1, seed)


def test_end_game_is_warned_and_n_plays_nothing() -> None:
    session, out, code = run(solo(), ["end game", "n"])
    assert f"⚠ {END_WARNING}" in out
    assert out.index(END_WARNING) < out.index(QUESTION)  # the warning, then the question
    assert "Not played: choose your move." in out
    assert out.count("P1 › ") == 2  # back at the move prompt, where the input ended
    assert code == 1 and "Game abandoned (input ended)" in out
    assert not session.state.is_terminal() and session.state.history == []
    assert "Final result" not in out


def test_y_ends_the_game_short_of_20() -> None:
    session, out, code = run(solo(), ["end game", "y"])
    assert session.state.is_terminal() and code == 0
    assert "short of 20" in out.split(QUESTION, 1)[1]
    assert "Final result" in out and "No win this time." in out


@pytest.mark.parametrize("answer", ["", "no", "N", "sure", "quit"])
def test_anything_but_yes_plays_nothing(answer: str) -> None:
    # by number (`end game` is the last of a fresh position's moves), then the input ends at the move prompt
    number = str(len(solo().legal_actions(0)))
    session, out, code = run(solo(), [number, answer])
    assert END_WARNING in out and QUESTION in out
    assert code == 1 and session.state.history == []


@pytest.mark.parametrize("answer", ["yes", "Y", " y "])
def test_yes_by_number_plays_it(answer: str) -> None:
    number = str(len(solo().legal_actions(0)))
    session, out, code = run(solo(), [number, answer])
    assert code == 0 and session.state.is_terminal() and "20 short of 20" in out


def test_an_ordinary_move_is_not_asked_about() -> None:
    session, out, code = run(solo(), ["1"])
    assert QUESTION not in out and len(session.state.history) == 1 and code == 1


def test_the_other_commands_work_around_the_question() -> None:
    answers = ["help", "end game", "n", "undo", "board", "hint", "end game", "", "quit"]
    session, out, code = run(solo(), answers)
    assert "'are you sure? (y/n)'" in out  # help says warned moves are confirmed
    assert out.count(END_WARNING) == 2 and out.count(QUESTION) == 2
    assert "✗ cannot undo: there is nothing to undo" in out  # nothing was played to take back
    assert "Hints are off in this game" in out
    assert code == 0 and "Game abandoned (quit)" in out
    assert not session.state.is_terminal() and session.state.history == []


def test_the_input_ending_at_the_question_abandons_the_game_unplayed() -> None:
    session, out, code = run(solo(), ["end game"])
    assert out.rstrip().endswith("Game abandoned (input ended).")
    assert code == 1 and session.state.history == []


def test_a_confirmed_move_that_puts_20_out_of_reach_can_be_taken_back() -> None:
    # As in tests/games/nutty/test_move_warnings.py: a power for 3 of the 5 points leaves at most 3 in reach.
    bare = ["2,2,2,2,2", "3,3,3,3,3", "G,G,G,G,G", "0,0,0,2,2", "1*1.0,1,2,ST,ST"]
    state = nutty_load(nutty_position(["1,1,1,1,~1", *bare], [nutty_board(nest="5.0")], solo=True))
    session, out, code = run(state, ["buy lasso", "yes", "undo"])
    assert "⚠ After this, 20 points are out of reach: at most 3 points, 17 short of 20." in out
    assert "Your last move was taken back." in out
    assert code == 1 and not session.state.is_terminal() and session.state.history == []


def test_on_a_terminal_the_warning_is_above_the_menu_of_the_redrawn_screen() -> None:
    term = ScriptedTty(["end game", "n", "end game", "y"])
    state = solo()
    session = PlaySession(state.game, state, [SeatPlan("human")], term, seed=3, delay=0)
    assert session.run() == 0 and session.state.is_terminal()
    assert term.prompts == ["P1 › ", CONFIRM_PROMPT, "P1 › ", CONFIRM_PROMPT]
    screens = term.buffer.getvalue().split("\x1b[H\x1b[2J")  # every clear (home, erase) starts a screen
    asking = [s for s in screens if CONFIRM_PROMPT in s]
    assert len(asking) == 2
    for screen in asking:
        shown = screen[: screen.index(CONFIRM_PROMPT)]  # the screen as it stands when the question is asked
        assert f"⚠ {END_WARNING}" in shown
        assert shown.index(END_WARNING) < shown.index("P1, your move:")  # a notice, above the menu
        last = [row for row in shown.split("\n") if row.strip()][-1]
        assert re.match(r" ?\d+ +\S", last), shown  # the menu's last row, then the question under it
        assert shown.count("\n") <= 23  # the board, the warning, the menu and the question fit 24 rows
        assert "Nutty Squirrels of the Oakwood Forest · P1 (you)" in shown.split("\n")[0]
    # after `n` the move prompt comes back on a clean screen that says nothing was played
    after_no = next(s for s in screens if "Not played: choose your move." in s)
    assert after_no.rstrip().endswith("P1 › end game")


@pytest.mark.parametrize(("name", "players"), [("nutty", 2), ("nutty", 4), ("barrell", 2)])
def test_games_that_warn_of_nothing_never_ask(name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    worlds: list[int] = []
    determinize = State.determinize

    def counting(self: State, seat: int, rng: Any) -> State:
        worlds.append(seat)
        return determinize(self, seat, rng)

    monkeypatch.setattr(State, "determinize", counting)
    chooser = random.Random(players)
    state = load(name).new_state(players, 5)
    answers = [str(chooser.randint(1, 3)) for _ in range(400)]
    session, out, _ = run(state, answers, bots=players - 1)
    assert len(session.state.history) > 20, out  # a good part of a game was played
    assert QUESTION not in out and "⚠" not in out
    if name == "barrell":
        assert worlds == []  # the game does not override move_warnings: no world is ever drawn for it
