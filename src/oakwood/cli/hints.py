"""The ``hint`` command of terminal play: what the ``expert`` level would play, and why, without playing it.

The hint bot is an agent like any other: it is handed ``PlayerView.for_agent(state, seat, …)`` of the asking
human's seat, a snapshot that never reaches the live state, so a hint can use only what that seat knows.

Where ``expert`` searches (ISMCTS in S'Quarrels and Barrell), the hint is its search: each option's share of
the search and its estimated chance to win (the mean return the search saw for it, in [0, 1]); the
recommendation is what the bot itself would play (the most searched option, unless it keeps its guide's
move). The budget is the level's iterations or :data:`HINT_SECONDS`, whichever ends first, so a hint stays
quick on a slow machine (its estimates are then a little rougher than a full ``expert`` move). Where
``expert`` is a heuristic (a game whose search has not been measured stronger than its heuristic), the hint
says what it would play and gives no percentages: a weaker search's estimates would argue with the
recommendation they stand beside.

One hint bot per human seat keeps its search tree between hints (a node is an information set of that seat,
so what it learnt still holds), and draws its worlds from its own generator.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from oakwood.agents import make_agent
from oakwood.agents.ismcts import ISMCTSAgent
from oakwood.agents.levels import level_bot
from oakwood.engine import Game, Rng, State
from oakwood.engine.agent import PlayerView, as_choice

#: The level asked for hints.
HINT_LEVEL = "expert"
#: At most this many seconds of search per hint (the level's iteration budget may end it sooner).
HINT_SECONDS = 1.0
#: How many options a hint lists (the rest are counted in one line).
TOP_OPTIONS = 5


@dataclass(frozen=True)
class HintOption:
    """One legal move as the hint bot saw it."""

    number: int  # its number in the move menu (from 1)
    action: Hashable
    visits: int  # how many search iterations tried it (0 without a search)
    chance: float | None  # estimated chance to win, in [0, 1]; None without a search


@dataclass(frozen=True)
class Hint:
    """The hint bot's answer: the options, the recommended one first."""

    options: list[HintOption]
    iterations: int  # search iterations run (0: the level does not search)
    seconds: float

    @property
    def recommended(self) -> HintOption:
        """The option the hint bot would play."""
        return self.options[0]


class HintAdvisor:
    """Asks the ``expert`` level what a human seat should play (one bot per seat, created on first use)."""

    def __init__(self, game: Game[Any], seed: int, *, seconds: float = HINT_SECONDS) -> None:
        self.game = game
        self.seed = seed
        self.seconds = seconds
        self.searches = level_bot(game, HINT_LEVEL) == "ismcts"
        self.world_rng = Rng(seed ^ 0x4117)  # the hint bots' worlds: not the table bots' generator
        self._bots: dict[int, Any] = {}

    def bot(self, seat: int) -> Any:
        """The hint bot of ``seat``."""
        if seat not in self._bots:
            budget = {"seconds": self.seconds} if self.searches else {}
            self._bots[seat] = make_agent(self.game, HINT_LEVEL, seed=self.seed + 1009 * (seat + 1), **budget)
        return self._bots[seat]

    def advise(self, state: State, seat: int) -> Hint:
        """What ``seat`` should play in ``state``, from a view of that seat only (nothing is played)."""
        bot = self.bot(seat)
        view = PlayerView.for_agent(state, seat, bot, self.world_rng)
        legal = view.legal_actions
        numbers = {action: i for i, action in enumerate(legal, start=1)}
        if isinstance(bot, ISMCTSAgent) and len(legal) > 1:
            report = bot.search(view)
            # As the bot chooses: its choice first, then the others as it ranks them.
            ranked = report.ranking
            options = [HintOption(numbers[a], a, report.visits.get(a, 0), report.values.get(a)) for a in ranked]
            return Hint(options, report.iterations, report.seconds)
        action = as_choice(bot.act(view), 0.0).action
        return Hint([HintOption(numbers[action], action, 0, None)], 0, 0.0)

    def show(self, console: Console, state: State, seat: int) -> None:
        """Think (with a spinner) and print the hint for ``seat``."""
        with console.status("The expert is thinking…", spinner="dots"):
            hint = self.advise(state, seat)
        console.print(render_hint(self.game, hint, searched=self.searches))


def render_hint(game: Game[Any], hint: Hint, *, searched: bool) -> RenderableType:
    """A few lines: the recommended move marked ★, and for a search the top options with their estimated
    chance to win and how much of the search tried them."""
    best = hint.recommended
    heading = Text("Hint: ", style="bold cyan")
    heading.append(f"the {HINT_LEVEL} bot would play ")
    heading.append(f"{best.number}  {best.action}", style="bold")
    if not searched or hint.iterations == 0:
        why = (
            f" ({game.title}'s {HINT_LEVEL} level is its heuristic bot, which gives no estimates)"
            if not searched
            else " (the only move)"
        )
        heading.append(why, style="dim")
        return heading
    heading.append(f"  ({hint.iterations:,} searches in {hint.seconds:.1f} s)", style="dim")
    table = Table(box=None, show_header=True, pad_edge=False, padding=(0, 2, 0, 0), header_style="dim")
    table.add_column("", no_wrap=True)
    table.add_column("move")
    table.add_column("chance to win", justify="right", no_wrap=True)
    table.add_column("searched", justify="right", no_wrap=True, style="dim")
    shown: Sequence[HintOption] = hint.options[:TOP_OPTIONS]
    for option in shown:
        mark = "★" if option is best else ""
        style = "bold green" if option is best else ""
        chance = "—" if option.chance is None else f"{option.chance:.0%}"
        share = f"{option.visits / hint.iterations:.0%}" if hint.iterations else ""
        name = f"{option.number}  {option.action}"  # the menu right above describes each move
        table.add_row(Text(mark, style="bold green"), Text(name, style=style), Text(chance, style=style), share)
    parts: list[RenderableType] = [heading, table]
    if len(hint.options) > len(shown):
        parts.append(Text(f"   … and {len(hint.options) - len(shown)} more moves, searched less", style="dim"))
    return Group(*parts)
