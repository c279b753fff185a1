"""``oakwood replay``: step through a stored game, forward and back, as one seat saw it.

While the game runs, a seat sees only what it saw at the table (``observe(seat)`` and the events its seat
was shown); a spectator sees the public view. Once the game is over nothing is secret any more: a finished
game replayed without ``--as`` shows every seat's view at every step, and with ``--as`` the chosen seat's
view until the last step, where every seat's final view is shown. The action a step played is named only
to whoever could see it (the seat that played it, or everyone once all-seeing); the log says the rest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from oakwood.engine import Game, OakwoodError, State
from oakwood.store import StoredGame

from . import screens, summaries
from .errors import EXIT_INTERRUPTED
from .terminal import QuitGame, Terminal

#: A clone of the state is kept every this many steps, so going back is a short replay from the nearest one.
CHECKPOINT_EVERY = 32

HELP = """\
  n, Enter   next step            p          previous step
  f, first   the deal (step 0)    l, last    the last step
  a number   go to that step      q, quit    leave"""


class ReplayError(Exception):
    """A stored game whose moves cannot be played again (a damaged or hand-edited record)."""


class ReplayViewer:
    """One stored game, rebuilt step by step and shown from ``seat``'s view (None: without ``--as``)."""

    def __init__(self, stored: StoredGame, game: Game[Any], seat: int | None, terminal: Terminal) -> None:
        self.stored = stored
        self.game = game
        self.seat = seat
        self.term = terminal
        self.console: Console = terminal.console
        self.actions = stored.actions
        self.total = len(self.actions)
        self.step = 0
        self.checkpoints = self._rebuild()

    # ------------------------------------------------------------------ states
    def _rebuild(self) -> dict[int, State]:
        """Play the whole game once (so a damaged record is refused up front), keeping checkpoints."""
        try:
            state = dataclasses.replace(self.stored.replay(), actions=[]).play()
        except OakwoodError as exc:
            raise ReplayError(f"game {self.stored.id} cannot be replayed: {exc}") from None
        checkpoints = {0: state.clone()}
        for step in range(1, self.total + 1):
            self._apply(state, step)
            if step % CHECKPOINT_EVERY == 0 or step == self.total:
                checkpoints[step] = state.clone()
        return checkpoints

    def _apply(self, state: State, step: int) -> None:
        seat, index = self.actions[step - 1]
        try:
            state.apply_index(seat, index)
        except OakwoodError as exc:
            raise ReplayError(f"game {self.stored.id} cannot be replayed: step {step}: {exc}") from None

    def state_at(self, step: int) -> State:
        """The position after ``step`` actions."""
        base = max(k for k in self.checkpoints if k <= step)
        state = self.checkpoints[base].clone()
        for k in range(base + 1, step + 1):
            self._apply(state, k)
        return state

    # ------------------------------------------------------------------ views
    def all_seeing(self, state: State) -> bool:
        """Whether this step is shown from every seat: a finished game without ``--as``, or its end."""
        return self.stored.finished and (self.seat is None or state.is_terminal())

    def label(self, seat: int) -> str:
        """``P2 (heuristic)``."""
        agents = self.stored.agents
        return f"P{seat + 1} ({agents[seat]})" if seat < len(agents) else f"P{seat + 1}"

    def show(self) -> None:
        """The screen of the current step: heading, board(s), what happened at this step, scores."""
        state = self.state_at(self.step)
        before = self.state_at(self.step - 1) if self.step else None
        everyone = self.all_seeing(state)
        self.term.clear()
        viewer = (
            "every seat's view" if everyone else ("the public view" if self.seat is None else self.label(self.seat))
        )
        heading = f"Game {self.stored.id} · {self.game.title} · step {self.step} of {self.total} · {viewer}"
        self.console.print(Rule(Text(heading, style="bold green")))
        seats = range(state.num_players) if everyone else [self.seat]
        for seat in seats:
            title = f"{self.label(seat)} sees" if seat is not None else "The table"
            self.console.print(screens.board_panel(self.game, state.observe(seat), title))
        since = 0 if before is None else len(before.events)
        if everyone:
            events = [_whole(event) for event in state.events[since:]]
        else:
            events = state.events_seen_by(self.seat, since)
        lines = [self.game.describe_event(event) for event in events]
        log = screens.log_panel([self._what_was_played(everyone), *lines], "This step")
        if log is not None:
            self.console.print(log)
        observation = state.observe(None)
        labels = [self.label(s) for s in range(state.num_players)]
        self.console.print(screens.scores_table(labels, observation["scores"], observation["to_act"]))
        if state.is_terminal():
            score = summaries.score_name(self.game.name)
            self.console.print(screens.result_table(labels, state.scores(), state.winners(), score_name=score))
        elif self.step == self.total:
            self.console.print(Text("The stored game stops here: it was not played to the end.", style="yellow"))

    def _what_was_played(self, everyone: bool) -> str:
        if self.step == 0:
            return "The deal."
        seat, index = self.actions[self.step - 1]
        if everyone or seat == self.seat:
            action: Hashable = self.game.decode(index)
            return f"{self.label(seat)} played {action}."
        return f"{self.label(seat)} acted."

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        """Show step 0 and follow commands until ``q`` or the end of input; the exit code (130 on Ctrl-C)."""
        try:
            return self._loop()
        except KeyboardInterrupt:
            self.console.print()
            return EXIT_INTERRUPTED

    def _loop(self) -> int:
        self.show()
        while True:
            try:
                command = self.term.read_line(f"step {self.step}/{self.total} · n p f l, a step, q › ").strip().lower()
            except QuitGame:
                return 0
            target = self._target(command)
            if target == "quit":
                return 0
            if isinstance(target, int):
                self.step = target
                self.show()

    def _target(self, command: str) -> int | str | None:
        """The step a command goes to, ``"quit"``, or None after printing help or why not."""
        if command in ("", "n", "next"):
            if self.step == self.total:
                return self._say("This is the last step (p goes back, q leaves).")
            return self.step + 1
        if command in ("p", "prev", "previous", "b", "back"):
            return self._say("This is the deal, the first step.") if self.step == 0 else self.step - 1
        if command in ("f", "first"):
            return 0
        if command in ("l", "last"):
            return self.total
        if command in ("q", "quit", "exit"):
            return "quit"
        if command in ("h", "help", "?"):
            self.console.print(Text(HELP))
            return None
        if command.isascii() and command.isdigit() and len(command) <= 9:
            if int(command) <= self.total:
                return int(command)
            return self._say(f"There is no step {command}; the game has steps 0 to {self.total}.")
        return self._say("Type n, p, f, l, a step number or q ('help' explains).")

    def _say(self, message: str) -> int | str | None:
        """Print why a command goes nowhere; None (stay on this step)."""
        self.console.print(Text(f"✗ {message}", style="bold red"))
        return None


def _whole(event: Any) -> dict[str, Any]:
    """An event with every part shown (for a finished game, where nothing is secret any more)."""
    out: dict[str, Any] = {"kind": event.kind, **event.public}
    if event.private is not None:
        out.update(event.private)
    return out
