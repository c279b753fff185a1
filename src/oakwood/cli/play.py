"""Terminal play: humans and bots at one table, through the engine contract only.

Every human sees only ``game.render(state.observe(seat))`` and the events ``events_seen_by(seat)``; bots get a
``PlayerView``. With several humans (hot-seat) the screen is cleared and a "pass the device" gate hides one
hand before the next human's screen appears. Commit decisions ask every seat in turn (nothing is revealed
until all are in); race decisions give each human a key and resolve slaps by arrival time against the bots'
reaction delays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from oakwood.arena.match import DEFAULT_RACE_DELAY
from oakwood.arena.race import race_order
from oakwood.engine import Decision, Game, OakwoodError, Rng, State
from oakwood.engine.agent import Agent, Choice, PlayerView, as_choice
from oakwood.engine.undo import UndoTracker

from . import pager, screens, summaries
from .hints import HintAdvisor, render_hint
from .messages import one_line
from .styles import styled
from .terminal import QuitGame, Terminal

#: Slap keys handed to the human seats in order: far apart on the keyboard.
RACE_KEYS = ("a", "l", "v", "p", "q", "m")

#: The question after a move's warning. It is not written like the move prompt (``P1 › ``), so neither a
#: person nor a script answering move prompts mistakes one for the other.
CONFIRM_PROMPT = "are you sure? (y/n) › "
#: The answers that play a warned move; anything else (``n``, an empty line) plays nothing.
CONFIRM_YES = frozenset({"y", "yes"})

HELP = """\
Type the number of a move or the move as the screen shows it, in any case (1, play 9♥ or play 9H, or just
9♥ when one move names it).
  help     this help
  board    show the board again
  log      everything you have seen this game, in a pager
  rules    the rules of this game, in a pager (/ searches)
  hint     ask the expert bot what it would play, with its chance to win (it does not play it)
  undo     take back your last move: only before anyone else acts, and never once it showed something
           new (a card drawn or revealed, a shuffle, a roll)
  quit     leave the game
A move the game warns about (Nutty solo: ending short of 20 points, or putting 20 out of reach) shows
why and asks 'are you sure? (y/n)': y plays it, anything else lets you choose again.
In a race each human has a slap key (shown on screen); pressing nothing before the window closes passes."""


@dataclass(frozen=True)
class SeatPlan:
    """Who plays a seat: a human (``agent`` None) or a bot with its name."""

    kind: str
    agent: Agent | None = None


class PlaySession:
    """One match played in the terminal."""

    def __init__(
        self,
        game: Game[Any],
        state: State,
        seats: Sequence[SeatPlan],
        terminal: Terminal,
        *,
        seed: int,
        delay: float = 0.6,
        race_window: float = 5.0,
        on_change: Callable[[State], None] | None = None,
        hints: HintAdvisor | None = None,
    ) -> None:
        if len(seats) != state.num_players:
            raise ValueError(f"{len(seats)} seats for a {state.num_players}-player game")
        self.game = game
        self.state = state
        self.seats = list(seats)
        self.term = terminal
        self.console: Console = terminal.console
        self.delay = delay
        self.race_window = race_window
        self.humans = [s for s, plan in enumerate(seats) if plan.agent is None]
        self.hotseat = len(self.humans) > 1
        #: whose private view announcements use: the only human, or nobody (public) in hot-seat / bots only
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.keys = {RACE_KEYS[i % len(RACE_KEYS)]: seat for i, seat in enumerate(self.humans)}
        self.seen = {seat: 0 for seat in self.humans}  # event index each human's log starts from
        self.public_seen = 0  # event index of the last human move: where the public race log starts
        self.announced = len(state.events)
        self.on_screen: int | None = None  # the human whose private view is currently visible
        self.undo = UndoTracker()
        self.seen_before: list[tuple[int, int]] = []  # (seat, its log start) before each human move, for undo
        self.short_notice: RenderableType | None = None  # the notice in one line, for a crowded screen
        self.notice: RenderableType | None = None  # a message for the next screen (it would be cleared otherwise)
        self.tie_rng = Rng(seed ^ 0x5EED)
        self.world_rng = Rng(seed ^ 0x3A7D)  # the worlds of bots that search
        #: told after every move and every undo (the store saves the game as it is played)
        self.on_change = on_change
        self.summarised = len(state.events)  # events already looked at for a round or battle end
        #: a refusal or a hint waits on the next screen: redraw it before the next prompt (on a terminal)
        self.redraw_pending = False
        #: answers the ``hint`` command (None: hints are off for this game)
        self.hints = hints

    def restore_log_starts(self, seen: dict[int, int], public_seen: int) -> None:
        """A resumed game: where each human's "since your last move" log starts (before its last move), as
        if the session had played the moves so far itself."""
        count = len(self.state.events)
        self.seen.update({seat: min(index, count) for seat, index in seen.items() if seat in self.seen})
        self.public_seen = min(public_seen, count)

    # ------------------------------------------------------------------ labels
    def label(self, seat: int) -> str:
        """``P2 (heuristic)``, ``P1 (you)`` or, in hot-seat, ``P3 (human)``."""
        kind = self.seats[seat].kind
        if kind == "human" and not self.hotseat:
            kind = "you"
        return f"P{seat + 1} ({kind})"

    # ------------------------------------------------------------------ main loop
    def run(self) -> int:
        """Play to the end (or until someone quits); returns the process exit code."""
        self.intro()
        try:
            while not self.state.is_terminal():
                self.pause_on_summaries()
                if self.state.decision is Decision.RACE and self._slap_action() is not None:
                    self.race()
                else:
                    self.act(self.next_seat())
        except QuitGame as stop:
            self.console.print(Text(f"Game abandoned ({stop.reason}).", style="yellow"))
            return stop.code
        except KeyboardInterrupt:
            self.console.print(Text("\nGame interrupted.", style="yellow"))
            return 130
        self.final()
        return 0

    def next_seat(self) -> int:
        """Who acts next: at a commit the bots answer first (they see nothing of the humans' choices)."""
        seats = self.state.to_act()
        if self.state.decision is Decision.COMMIT:
            bots = [s for s in seats if self.seats[s].agent is not None]
            if bots:
                return bots[0]
        return seats[0]

    def act(self, seat: int) -> None:
        """Let ``seat`` make one decision."""
        agent = self.seats[seat].agent
        if agent is None:
            self.human_turn(seat)
            return
        answer = as_choice(agent.act(PlayerView.for_agent(self.state, seat, agent, self.world_rng)), 0.0)
        self.apply(seat, answer.action)
        self.announce(seat)
        self.term.pause(self.delay)

    def apply(self, seat: int, action: Hashable) -> None:
        """Apply an action (raises the engine's error, state untouched, when it is not allowed)."""
        if self.seats[seat].agent is None:
            self.undo.apply(self.state, seat, action)
        else:
            self.state.apply(seat, action)
        if self.on_change is not None:
            self.on_change(self.state)

    # ------------------------------------------------------------------ output
    def clear(self) -> None:
        """Clear the screen; in hot-seat also the scrollback, where an earlier hand would still be readable."""
        self.term.clear(scrollback=self.hotseat)

    def intro(self) -> None:
        """The opening lines: the game, the seats, how to play."""
        self.console.print(Rule(Text(self.game.title, style="bold green")))
        lineup = ", ".join(self.label(s) for s in range(self.state.num_players))
        self.console.print(Text(f"Seats: {lineup}"))
        if self.humans:
            self.console.print(Text("Type a move's number or name; 'help' lists the commands.", style="dim"))

    def announce(self, seat: int | None) -> None:
        """Print what happened since the last announcement, as the viewer may see it."""
        events = self.state.events_seen_by(self.viewer, self.announced)
        self.announced += len(events)
        lines = [self.game.describe_event(e) for e in events]
        bot = seat is not None and self.seats[seat].agent is not None
        if bot and not lines:
            lines = [f"{self.label(seat or 0)} has made its choice."]
        for line in lines:
            self.console.print(Text("  ▸ " if bot else "  • ", style="magenta" if bot else "dim") + Text(line))

    def show_private(self, seat: int, *, heading: str, legal: Sequence[Hashable] = ()) -> None:
        """The screen of a human about to decide: board, log since their last move, scores, moves, fitted
        to the terminal (see :func:`screens.fit_screen`)."""
        if self.hotseat and self.on_screen != seat:
            self.gate(seat)
        else:
            self.clear()
        self.on_screen = seat
        observation = self.state.observe(seat)
        lines = [self.game.describe_event(e) for e in self.state.events_seen_by(seat, self.seen[seat])]
        parts = screens.ScreenParts(
            title=f"{self.game.title} · {self.label(seat)}",
            observation=observation,
            log=lines,
            log_title="Since your last move",
            labels=[self.label(s) for s in range(self.state.num_players)],
            heading=Text(heading, style="bold yellow"),
            legal=legal,
            notice=self.notice,
            short_notice=self.short_notice,
        )
        self.notice = self.short_notice = None
        self.print_screen(parts)

    def screen_size(self) -> tuple[int, int | None]:
        """Columns and rows to fit a screen into: the terminal's, or no row limit for a transcript."""
        size = self.console.size
        return size.width, (size.height if self.term.interactive else None)

    def print_screen(self, parts: screens.ScreenParts) -> None:
        """Print a screen fitted to the terminal."""
        width, height = self.screen_size()
        for renderable in screens.fit_screen(self.console, self.game, parts, width, height):
            self.console.print(renderable)

    def gate(self, seat: int) -> None:
        """Hot-seat: hide the screen and wait until the next human has the device."""
        if self.on_screen is not None:  # someone's hand is visible: hide it first (public lines may stay)
            self.clear()
        self.console.print(
            Panel(
                Text(f"Pass the device to P{seat + 1} — P{seat + 1}, press Enter when ready.", style="bold"),
                border_style="cyan",
            )
        )
        self.term.read_line("")
        self.clear()

    def ending_summaries(self) -> list[RenderableType]:
        """Summaries of the rounds and battles that ended since the last look (as the viewer may see them)."""
        count = len(self.state.events)
        start, self.summarised = min(self.summarised, count), count
        kinds = summaries.ending_kinds(self.game.name)
        if not kinds or not any(e.kind in kinds for e in self.state.events[start:]):
            return []
        views = self.state.events_seen_by(self.viewer, 0)
        labels = [self.label(s) for s in range(self.state.num_players)]
        found = (summaries.summary(self.game, views, i, labels, seat=self.viewer) for i in range(start, count))
        return [panel for panel in found if panel is not None]

    def pause_on_summaries(self) -> None:
        """A round or battle just ended: show its summary and, on a terminal, wait for Enter (a transcript
        goes on at once: its next input line is a move)."""
        if not self.humans:
            return
        panels = self.ending_summaries()
        if not panels:
            return
        if self.term.interactive:
            self.clear()
            self.on_screen = None  # nobody's hand is on screen now
        for panel in panels:
            self.console.print(panel)
        if self.term.interactive:
            answer = self.term.read_line("Press Enter to continue ").strip().lower()
            if answer in ("quit", "exit"):
                raise QuitGame("quit", 0)

    def final(self) -> None:
        """The result screen: the last round's or battle's summary, the final standings and, as the rows
        allow, the board and how it ended."""
        self.clear()
        observation = self.state.observe(self.viewer)
        # Everything since the viewer's last move (the final reveal, scoring…): the screen was just cleared.
        start = self.seen[self.viewer] if self.viewer is not None else self.public_seen
        events = self.state.events_seen_by(self.viewer, start)
        self.announced = start + len(events)
        lines = [self.game.describe_event(e) for e in events]
        labels = [self.label(s) for s in range(self.state.num_players)]
        winners = self.state.winners()
        names = " and ".join(self.label(s) for s in winners)
        if winners:
            verdict = f"{names} {'wins' if len(winners) == 1 else 'share the win'}!"
        else:
            verdict = "No win this time." if self.state.num_players == 1 else "Nobody wins."
        score_name = summaries.score_name(self.game.name)
        closing = summaries.final_summary(self.game, observation, labels, self.viewer)
        tail: list[RenderableType] = [
            *self.ending_summaries(),
            *([closing] if closing is not None else []),
            screens.result_table(labels, observation["scores"], winners, score_name=score_name),
            Text(verdict, style="bold green"),
        ]
        width, height = self.screen_size()
        title = f"{self.game.title} · game over"
        if height is None:
            head: list[RenderableType] = [screens.board_panel(self.game, observation, title)]
            log = screens.log_panel(lines, "How it ended", game=self.game.name, seat=self.viewer)
            head += [log] if log is not None else []
        else:
            left = height - 1 - sum(screens.height_of(self.console, r, width) for r in tail)
            boards = [
                (b, screens.height_of(self.console, b, width))
                for b in screens.board_variants(self.game, observation, title)
            ]
            fitting = [(b, h) for b, h in boards if h + min(len(lines), 2) + 1 <= left]  # the board, then the log
            head = [fitting[0][0]] if fitting else []
            left -= fitting[0][1] if fitting else 0
            log_r = screens.log_lines_fitted(
                lines, "How it ended", left, width, game=self.game.name, seat=self.viewer, more=""
            )
            head += [log_r] if log_r is not None else []
        for renderable in (*head, *tail):
            self.console.print(renderable)

    # ------------------------------------------------------------------ human decisions
    def human_turn(self, seat: int) -> None:
        """Prompt a human until they make a legal move (or undo, or quit)."""
        decision = self.state.decision
        if decision is Decision.COMMIT:
            heading = f"P{seat + 1}, choose in secret (revealed when everyone has chosen):"
        else:
            heading = f"P{seat + 1}, your move:"
        legal = self.state.legal_actions(seat)
        self.show_private(seat, heading=heading, legal=legal)
        # The game's warnings for this position, computed when a move is first chosen (not on help, hint,
        # undo or quit) and kept for the turn: the position does not change until a move is played.
        warnings: dict[Hashable, str] | None = None
        while True:
            if self.redraw_pending:  # on a terminal a refusal or a hint is shown on the redrawn screen
                self.redraw_pending = False
                self.show_private(seat, heading=heading, legal=legal)
            text = self.term.read_line(f"P{seat + 1} › ").strip()
            command = text.lower()
            if not command:
                continue
            if command in ("help", "?", "h"):
                self.console.print(Text(HELP))
                continue
            if command in ("quit", "exit"):
                raise QuitGame("quit", 0)
            if command in ("board", "b"):
                self.show_private(seat, heading=heading, legal=legal)
                continue
            if command == "log":
                self.show_log(seat)
                self.redraw(seat, heading, legal)
                continue
            if command == "rules":
                pager.page(self.term, Markdown(self.game.rules_document()), title=f"{self.game.title} rules")
                self.redraw(seat, heading, legal)
                continue
            if command == "undo":
                if self.try_undo(seat):
                    return
                continue
            if command in ("hint", "hints"):
                self.give_hint(seat)
                continue
            action = self.parse(text, legal)
            if action is None:
                continue
            if warnings is None:
                warnings = self.move_warnings(seat)
            warning = warnings.get(action)
            if warning is not None and not self.confirm(seat, warning, heading, legal):
                continue
            before = len(self.state.events)
            try:
                self.apply(seat, action)
            except OakwoodError as exc:
                self.error(str(exc))
                continue
            self.seen_before.append((seat, self.seen[seat]))
            self.seen[seat] = before
            self.public_seen = before
            self.after_human(seat)
            return

    def move_warnings(self, seat: int) -> dict[Hashable, str]:
        """What the game would have ``seat`` read before some of its legal moves now (``Game.move_warnings``,
        e.g. Nutty solo's NS-17l): a sentence by action, empty for a game that warns of nothing."""
        if type(self.game).move_warnings is Game.move_warnings:
            return {}  # the default warns of nothing: no world is drawn, so other games cost nothing
        # The game reads a world of the seat's, never the live state, so no hidden card can reach the text.
        # The world's generator is a fixed one of its own, as the web table's: the warnings are the same in
        # every world, and drawing from ``world_rng`` would change the bots' worlds (and so their moves).
        world = self.state.determinize(seat, random.Random(0))
        return self.game.move_warnings(world, seat)

    def confirm(self, seat: int, warning: str, heading: str, legal: Sequence[Hashable]) -> bool:
        """Show a move's ``warning`` and ask whether to play it: True for ``y`` or ``yes``; anything else (``n``,
        an empty line) plays nothing and says so. The input ending raises :class:`QuitGame`, as at the move
        prompt."""
        notice = Text(f"⚠ {one_line(warning)}", style="bold yellow")
        if self.term.interactive:
            # On a terminal the warning goes above the menu of the redrawn screen, so the board stays whole
            # and the question is its last line, as a refusal or a hint would be.
            self.notice = notice
            self.show_private(seat, heading=heading, legal=legal)
        else:
            self.console.print(notice)
        if self.term.read_line(CONFIRM_PROMPT).strip().lower() in CONFIRM_YES:
            return True
        kept = Text("Not played: choose your move.", style="yellow")
        if self.term.interactive:  # the next move prompt gets a clean screen, saying nothing was played
            self.notice = kept
            self.redraw_pending = True
        else:
            self.console.print(kept)
        return False

    def show_log(self, seat: int) -> None:
        """Everything ``seat`` has seen this game, from the first deal, in a pager."""
        lines = [self.game.describe_event(e) for e in self.state.events_seen_by(seat, 0)]
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", justify="right", no_wrap=True)
        grid.add_column()
        for number, line in enumerate(lines, start=1):
            grid.add_row(str(number), styled(line, self.game.name, seat))
        pager.page(self.term, grid, title=f"Everything P{seat + 1} has seen this game")

    def redraw(self, seat: int, heading: str, legal: Sequence[Hashable]) -> None:
        """Back from a pager: the player's screen again (a transcript just goes on)."""
        if self.term.interactive:
            self.show_private(seat, heading=heading, legal=legal)

    def give_hint(self, seat: int) -> None:
        """The ``hint`` command: the expert bot's advice for ``seat`` (it sees only that seat's view)."""
        if self.hints is None:
            self.console.print(Text("Hints are off in this game (--hints off).", style="yellow"))
            return
        if not self.term.interactive:
            self.hints.show(self.console, self.state, seat)
            return
        # On a terminal the hint goes above the menu of the redrawn screen (the rows are budgeted for it).
        with self.console.status("The expert is thinking…", spinner="dots"):
            hint = self.hints.advise(self.state, seat)
        self.notice = render_hint(self.game, hint, searched=self.hints.searches)
        best = hint.recommended
        chance = f", {best.chance:.0%} to win" if best.chance is not None else ""
        self.short_notice = Text(f"Hint: the expert bot would play {best.number}  {best.action}{chance}", "bold cyan")
        self.redraw_pending = True

    def parse(self, text: str, legal: Sequence[Hashable]) -> Hashable | None:
        """A move from a number or a name; prints the reason and returns None when it is not one."""
        if text.isascii() and text.isdigit():  # not "²" or a 5000-digit number: int() refuses those
            number = int(text) if len(text) <= 6 else 0
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.error(f"there is no move {text}; choose a number from 1 to {len(legal)}")
            return None
        try:
            return self.game.parse_action(text)
        except OakwoodError as exc:
            guessed = self.complete(text, legal)
            if guessed is not None:
                return guessed
            self.error(f"{exc}; type a listed number or move, or 'help'")
            return None

    def complete(self, text: str, legal: Sequence[Hashable]) -> Hashable | None:
        """The one legal move that ``text`` names without its verb (``9♥`` for ``play 9H``, ``L2c1`` for
        ``move L2c1``), read by the game's own parser; None when there is no such move or several."""
        found = set()
        for verb in {str(action).split(" ", 1)[0] for action in legal}:
            try:
                action = self.game.parse_action(f"{verb} {text}")
            except OakwoodError:
                continue
            if action in legal:
                found.add(action)
        return found.pop() if len(found) == 1 else None

    def error(self, message: str) -> None:
        """Explain a refused input (the engine's sentence, which may quote what was typed, shortened to one
        line) and let the player try again. On a terminal the screen is drawn again with the reason above the
        menu, so the board never scrolls away however often a move is refused."""
        reason = Text(f"✗ {one_line(message)}", style="bold red")
        if self.term.interactive:
            self.notice = reason
            self.redraw_pending = True
        else:
            self.console.print(reason)

    def after_human(self, seat: int) -> None:
        """After a human's move: in hot-seat hide their hand unless they act again at once."""
        state = self.state
        again = not state.is_terminal() and state.decision is not Decision.RACE and self.next_seat() == seat
        if self.hotseat and not again:
            self.clear()
            self.on_screen = None
        self.announce(None if self.hotseat else seat)

    def try_undo(self, seat: int) -> bool:
        """Take back ``seat``'s last move if that cannot leak anything; says why not otherwise."""
        reason = self.undo.why_not(self.state, seat)
        if reason is not None:
            self.error(f"cannot undo: {reason}")
            return False
        self.state = self.undo.undo(self.state)
        if self.on_change is not None:
            self.on_change(self.state)
        count = len(self.state.events)
        self.announced = min(self.announced, count)
        self.summarised = min(self.summarised, count)
        if self.seen_before and self.seen_before[-1][0] == seat:
            self.seen[seat] = self.seen_before.pop()[1]
        self.seen = {s: min(i, count) for s, i in self.seen.items()}
        self.notice = Text("↶ Your last move was taken back.", style="bold green")
        if not self.term.interactive:
            self.console.print(self.notice)
            self.notice = None
        return True

    # ------------------------------------------------------------------ races
    def _slap_action(self) -> Hashable | None:
        for seat in self.state.to_act():
            for action in self.state.legal_actions(seat):
                if str(action) == "slap":
                    return action
        return None

    def race(self) -> None:
        """A race: bots answer with reaction delays, humans press their key; the earliest slap wins."""
        state = self.state
        seats = state.to_act()
        slap = self._slap_action()
        answers: dict[int, Choice] = {}
        for seat in seats:
            agent = self.seats[seat].agent
            if agent is not None:
                view = PlayerView.for_agent(state, seat, agent, self.world_rng)
                answers[seat] = as_choice(agent.act(view), DEFAULT_RACE_DELAY)
        racers = [s for s in seats if self.seats[s].agent is None and slap in state.legal_actions(s)]
        timed = {s for s in seats if self.seats[s].agent is not None}  # whose slap time is worth reporting
        if racers:
            bot_slaps = [c.delay for c in answers.values() if c.action == slap]
            deadline = min([self.race_window, *bot_slaps])
            keys = {key: seat for key, seat in self.keys.items() if seat in racers}
            call = self.show_race(racers, keys)
            hit, elapsed = self.term.race(
                keys, deadline, enter_passes=len(racers) == 1, on_open=lambda: self.console.print(call)
            )
            for seat in racers:
                if seat == hit:
                    answers[seat] = Choice(slap, elapsed)
                else:
                    answers[seat] = Choice(self._pass_action(seat), self.race_window)
            if self.term.interactive:  # in line mode a human's slap has no time
                timed.update(racers)
        for seat in seats:  # a human who may not slap (only pass, for example) is asked normally
            if seat not in answers:
                self.act(seat)
                return
        self.resolve(seats, [answers[s] for s in seats], timed=timed)

    def _pass_action(self, seat: int) -> Hashable:
        legal = self.state.legal_actions(seat)
        for action in legal:
            if str(action) == "pass":
                return action
        return legal[-1]

    def resolve(self, seats: Sequence[int], answers: Sequence[Choice], *, timed: Collection[int] = ()) -> None:
        """Apply the race answers in arrival order until the race is over (the first slap ends it), saying
        who slapped first and, for the seats in ``timed``, how fast."""
        for i in race_order(answers, self.tie_rng):
            seat = seats[i]
            if self.state.is_terminal() or self.state.decision is not Decision.RACE:
                break
            if seat not in self.state.to_act():
                continue
            if self.seats[seat].agent is None:
                self.seen[seat] = len(self.state.events)
            action = answers[i].action
            self.apply(seat, action)
            if str(action) == "slap":
                self.race_verdict(seat, answers[i].delay if seat in timed else None)
            self.announce(seat)
        self.term.pause(self.delay)

    def race_verdict(self, seat: int, seconds: float | None) -> None:
        """``P3 (heuristic) slapped first (0.41 s).``: printed now, and kept for the next screen, which
        would otherwise clear it before anyone could read it."""
        timing = f" ({seconds:.2f} s)" if seconds is not None else ""
        verdict = Text(f"⚡ {self.label(seat)} slapped first{timing}.", style="bold magenta")
        self.console.print(verdict)
        if self.term.interactive:
            self.notice = verdict

    def show_race(self, racers: Sequence[int], keys: dict[str, int]) -> Text:
        """The race screen: the public board (or the only human's own view). Returns the call naming each
        racer's key, printed once the race is open (keys pressed before that do not count)."""
        if self.hotseat:
            self.clear()
            self.on_screen = None
            observation = self.state.observe(None)
            title = f"{self.game.title} · race!"
        else:
            self.clear()
            self.on_screen = self.viewer
            observation = self.state.observe(self.viewer)
            title = f"{self.game.title} · {self.label(self.viewer or 0)} · race!"
        start = self.seen[self.viewer] if self.viewer is not None else self.public_seen
        lines = [self.game.describe_event(e) for e in self.state.events_seen_by(self.viewer, start)]
        parts = screens.ScreenParts(
            title=title,
            observation=observation,
            log=lines,
            log_title="Since your last move" if self.viewer is not None else "What just happened",
            labels=[self.label(s) for s in range(self.state.num_players)],
            heading=None,
            reserve=3,  # the race call (it may wrap) and the slap line
        )
        self.print_screen(parts)
        text = Text("RACE! ", style="bold red")
        text.append(" · ".join(f"P{seat + 1}: press [{key}]" for key, seat in keys.items()), style="bold")
        if self.term.interactive:
            text.append(f" — within {self.race_window:g} s to slap; press nothing to pass", style="dim")
            if len(racers) == 1:
                text.append(" (Enter passes at once)", style="dim")
        else:
            text.append("  — type your key to slap, an empty line passes", style="dim")
        return text
