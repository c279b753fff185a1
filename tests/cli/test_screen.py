"""What a real terminal is sent: hot-seat hand-offs erase the scrollback as well as the screen."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping

from rich.console import Console

from oakwood.cli.play import PlaySession, SeatPlan
from oakwood.cli.terminal import ERASE_SCROLLBACK, QuitGame, Terminal
from oakwood.engine import load
from tests.cli.toygame import TOY_NAME

CLEAR_SCREEN = "\x1b[2J"


class ScriptedTty(Terminal):
    """An interactive terminal (clears, control codes) whose answers come from a list; ends with ``quit``."""

    def __init__(self, answers: list[str]) -> None:
        self.buffer = io.StringIO()
        console = Console(file=self.buffer, force_terminal=True, width=100, color_system=None)
        super().__init__(console, stdin=io.StringIO(""), interactive=True)
        self.answers = answers

    def read_line(self, prompt: str) -> str:
        self.console.print(prompt, end="")
        if not self.answers:
            raise QuitGame("quit", 0)
        answer = self.answers.pop(0)
        self.console.print(answer)
        return answer

    def race(
        self,
        keys: Mapping[str, int],
        window: float,
        *,
        enter_passes: bool,
        on_open: Callable[[], None] | None = None,
    ) -> tuple[int | None, float]:
        if on_open is not None:
            on_open()
        return None, window


def test_terminal_clear_erases_the_scrollback_only_when_asked() -> None:
    term = ScriptedTty([])
    term.clear()
    assert CLEAR_SCREEN in term.buffer.getvalue() and ERASE_SCROLLBACK not in term.buffer.getvalue()
    term.clear(scrollback=True)
    assert term.buffer.getvalue().count(CLEAR_SCREEN) == 2 and ERASE_SCROLLBACK in term.buffer.getvalue()
    piped = Terminal(Console(file=io.StringIO()), stdin=io.StringIO(""), interactive=False)
    piped.clear(scrollback=True)
    assert piped.console.file.getvalue() == ""  # type: ignore[attr-defined]  # a transcript is never cleared


def test_hot_seat_hand_offs_leave_no_earlier_hand_in_the_scrollback() -> None:
    game = load(TOY_NAME, rounds=2)
    state = game.new_state(2, 3)
    # Two humans: the gate, P1's leader turn and secret card, the gate, P2's card, then the race, round 2.
    term = ScriptedTty(["", "stay", "1", "", "1", "", "1", "", "stay", "1"])
    session = PlaySession(game, state, [SeatPlan("human"), SeatPlan("human")], term, seed=3, delay=0)
    assert session.run() == 0
    output = term.buffer.getvalue()
    assert output.count("Pass the device to P2") >= 1 and output.count("Pass the device to P1") >= 2
    assert set(re.findall(r"Toy Snap · P(\d) \(human\)", output)) == {"1", "2"}
    # Between two erasures of the scrollback, the terminal holds at most one person's private screen.
    for stretch in output.split(ERASE_SCROLLBACK):
        seats = set(re.findall(r"Toy Snap · P(\d) \(human\)", stretch))
        assert len(seats) <= 1, f"two hands in one scrollback: {sorted(seats)}"
    # …and every erasure comes with the usual clear of the screen.
    assert output.count(ERASE_SCROLLBACK) == output.count(CLEAR_SCREEN + ERASE_SCROLLBACK)
