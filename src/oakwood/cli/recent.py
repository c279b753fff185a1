"""``oakwood games --recent``: the games in the store, unfinished games of ``play`` first (they can be resumed).

A bulk ``simulate`` stores thousands of games, which would bury the one game a person left half-way: so the
unfinished games of ``play`` are listed first, flagged with the command that continues them, then the most
recent games of every command.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from oakwood.store import GameListing, Store

#: How many games ``--recent`` lists by default.
RECENT_GAMES = 20


def recent_games(store: Store, limit: int) -> list[GameListing]:
    """Up to ``limit`` unfinished games of ``play`` (newest first), then the most recent other games."""
    unfinished = store.list_games(limit, source="play", status="running")
    shown = {g.id for g in unfinished}
    others = [g for g in store.list_games(limit) if g.id not in shown]
    return (unfinished + others)[:limit]


def is_resumable(listing: GameListing) -> bool:
    """Whether ``oakwood play --resume`` can continue this game (a game of play that has not finished)."""
    return listing.source == "play" and not listing.finished


def recent_view(listings: Sequence[GameListing], where: str, db: str | None) -> RenderableType:
    """The table of ``listings`` and a line saying how to resume or replay them."""
    if not listings:
        return Text(f"No games stored in {where} yet: play one with oakwood play GAME.", style="dim")
    table = Table(
        title=f"Recent games ({where})",
        box=box.SIMPLE_HEAD,
        title_style="bold",
        pad_edge=False,
        show_edge=False,
        collapse_padding=True,
    )
    table.add_column("Id", justify="right", style="bold cyan")
    table.add_column("Game", no_wrap=True)
    table.add_column("Seats")
    table.add_column("Started", no_wrap=True)
    table.add_column("Moves", justify="right")
    table.add_column("By")  # the command that played it
    table.add_column("State", no_wrap=True)
    table.add_column("Result")
    for g in listings:
        if is_resumable(g):
            state = Text("unfinished", style="bold yellow")
        elif g.finished:
            state = Text("finished", style="green")
        else:  # a simulate or arena game cut short: it is not continued by play
            state = Text("stopped", style="dim")
        by = Text(g.source, style="" if g.source == "play" else "dim")
        row = (str(g.id), g.game, ", ".join(g.agents), _when(g.started_at), str(g.steps), by, state, _result(g))
        table.add_row(*row)
    flag = f" --db {db}" if db is not None else ""
    lines: list[RenderableType] = [table]
    resumable = [g for g in listings if is_resumable(g)]
    if resumable:
        lines.append(
            Text(
                f"Continue an unfinished game with: oakwood play --resume {resumable[0].id}{flag} "
                "(or --resume alone: the latest)",
                style="dim",
            )
        )
    lines.append(Text(f"Watch a game again with: oakwood replay ID{flag}", style="dim"))
    return Group(*lines)


def _when(moment: datetime) -> str:
    """A start time in the local zone, to the minute (``30 Nov 22:52``)."""
    return moment.astimezone().strftime("%d %b %H:%M")


def _result(g: GameListing) -> str:
    """``P2 won · 12 8 5`` for a finished game; empty while it is not."""
    if not g.finished or g.winners is None:
        return ""
    winners = [f"P{s + 1}" for s in g.winners]
    if not winners:
        verdict = "nobody won"
    elif len(winners) == 1:
        verdict = f"{winners[0]} won"
    else:
        verdict = f"{', '.join(winners)} shared"
    if g.scores:
        verdict += " · " + " ".join(_number(x) for x in g.scores)
    return verdict


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
