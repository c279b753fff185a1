"""The ``oakwood`` command line: ``play``, ``simulate``, ``rules`` and ``games``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from oakwood.agents import make_agent
from oakwood.arena.simulate import SimulationSpec, simulate
from oakwood.arena.stats import mean_length, summarize
from oakwood.engine import game_names

from .common import (
    CliInputError,
    find_game_class,
    friendly_errors,
    load_game,
    new_seed,
    parse_seats,
)
from .play import PlaySession, SeatPlan
from .terminal import Terminal

app = typer.Typer(
    name="oakwood",
    help="Play, simulate and read the rules of the Oakwood squirrel games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

GameArg = Annotated[str, typer.Argument(help="Game name (see `oakwood games`).", show_default=False)]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help="A game option as key=value (repeatable).")]


def console() -> Console:
    """The output console (made per command so it writes to the current standard output)."""
    return Console(highlight=False)


# ---------------------------------------------------------------------- games
@app.command()
def games() -> None:
    """List the registered games with their player counts and bots."""
    out = console()
    table = Table(title="Oakwood games", box=box.ROUNDED, title_style="bold")
    table.add_column("Name", style="bold cyan")
    table.add_column("Title")
    table.add_column("Players", justify="center")
    table.add_column("Bots")
    for name in game_names():
        try:
            cls = find_game_class(name)
        except CliInputError:
            table.add_row(name, Text("not available yet", style="dim"), "", "")
            continue
        players = str(cls.min_players) if cls.min_players == cls.max_players else f"{cls.min_players}–{cls.max_players}"
        bots = ", ".join(["random", *[a for a in cls.agents if a != "random"]])
        table.add_row(name, cls.title, players, bots)
    out.print(table)


# ---------------------------------------------------------------------- rules
@app.command()
def rules(game: GameArg) -> None:
    """Print the rules as Oakwood plays them (rulings included) and the game's options."""
    out = console()
    with friendly_errors():
        cls = find_game_class(game)
        loaded = cls()
    try:
        document: str | None = loaded.rules_document()
    except FileNotFoundError:
        document = None
    if document is not None:
        out.print(Markdown(document))
    infos = cls.options_class.describe()
    table = Table(title=f"{cls.title} options (set with --option name=value)", box=box.ROUNDED, title_style="bold")
    table.add_column("Option", style="bold cyan", no_wrap=True)
    table.add_column("Default")
    table.add_column("Choices", max_width=24)
    table.add_column("Ruling", no_wrap=True)
    table.add_column("Help")
    for info in infos:
        if info.choices is not None:
            allowed = " | ".join(_show(c) for c in info.choices)
        elif isinstance(info.default, bool):
            allowed = "true | false"
        elif info.minimum is not None or info.maximum is not None:
            low = "" if info.minimum is None else _show(info.minimum)
            high = "" if info.maximum is None else _show(info.maximum)
            allowed = f"{low}…{high}"
        else:
            allowed = type(info.default).__name__
        table.add_row(info.name, _show(info.default), allowed, info.ruling, info.help)
    out.print(table)
    if document is None:
        with friendly_errors():
            raise CliInputError(f"{cls.title} has no rules document (rules.md) in this installation")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return f"{value:g}"
    return str(value)


# ---------------------------------------------------------------------- play
@app.command()
def play(
    game: GameArg,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of seats.")] = None,
    seats: Annotated[
        str | None, typer.Option("--seats", "-s", help="Comma-separated: human or a bot name, one per seat.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Deal seed (random if omitted; printed).")] = None,
    option: OptionOpt = None,
    solo: Annotated[bool, typer.Option("--solo", help="One player (for games with a solo mode).")] = False,
    delay: Annotated[float, typer.Option(help="Seconds to pause after each bot move.")] = 0.6,
    race_window: Annotated[
        float | None, typer.Option(help="Seconds a race stays open (default: the game's option, else 5).")
    ] = None,
) -> None:
    """Play a game in the terminal against bots, or hot-seat with several humans."""
    out = console()
    with friendly_errors():
        loaded = load_game(game, option or [])
        if solo:
            if loaded.min_players > 1:
                raise CliInputError(f"{loaded.title} has no solo mode (it takes {loaded.min_players}+ players)")
            if players not in (None, 1):
                raise CliInputError("--solo means one player; drop --players")
            players = 1
        names = parse_seats(loaded, seats, players, default_first="human", allow_human=True)
        deal_seed = seed if seed is not None else new_seed()
        plans = [
            SeatPlan(name)
            if name == "human"
            else SeatPlan(name, make_agent(loaded, name, seed=deal_seed + 7 * (i + 1)))
            for i, name in enumerate(names)
        ]
        state = loaded.new_state(len(names), deal_seed)
    window = race_window if race_window is not None else _race_window_option(loaded.options)
    if window <= 0:
        with friendly_errors():
            raise CliInputError("--race-window must be positive")
    out.print(Text(f"Seed {deal_seed} (replay this deal with --seed {deal_seed})", style="dim"))
    session = PlaySession(loaded, state, plans, Terminal(out), seed=deal_seed, delay=delay, race_window=window)
    code = session.run()
    if code:
        raise typer.Exit(code)


def _race_window_option(options: Any) -> float:
    """The game's own race window option (a name ending in ``race_window_s``), else 5 seconds."""
    for name, value in options.to_dict().items():
        if name.endswith("race_window_s") and isinstance(value, int | float) and value > 0:
            return float(value)
    return 5.0


# ---------------------------------------------------------------------- simulate
@app.command("simulate")
def simulate_cmd(
    game: GameArg,
    games_: Annotated[int, typer.Option("--games", "-g", help="How many games to play.", min=1)] = 100,
    seats: Annotated[str | None, typer.Option("--seats", "-s", help="Comma-separated bot names, one per seat.")] = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of seats.")] = None,
    seed: Annotated[int, typer.Option(help="Base seed; game i uses a seed derived from it and i.")] = 0,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Processes (default: every core).", min=1)
    ] = None,
    option: OptionOpt = None,
    rotate: Annotated[
        bool, typer.Option("--rotate/--no-rotate", help="Rotate the lineup one seat per game (stats per agent).")
    ] = False,
    json_path: Annotated[Path | None, typer.Option("--json", help="Write the raw results to this file.")] = None,
) -> None:
    """Run many bot-only games in parallel and report win rates (95% Wilson interval), scores and lengths."""
    out = console()
    with friendly_errors():
        loaded = load_game(game, option or [])
        names = parse_seats(loaded, seats, players, default_first=_default(loaded), allow_human=False)
        for name in set(names):
            make_agent(loaded, name)  # a bot that fails to build should fail here, not in every worker
    spec = SimulationSpec(
        game=loaded.name, lineup=tuple(names), games=games_, seed=seed, rotate=rotate, options=loaded.options.to_dict()
    )
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=out, transient=True) as progress:
        task = progress.add_task(f"{loaded.title}", total=games_)
        records = simulate(spec, workers, on_progress=lambda n: progress.advance(task, n))
    labels = _labels(names, rotate)
    summary = summarize(records, labels)
    table = Table(
        title=f"{loaded.title}: {games_} games, seed {seed}" + (", seats rotating" if rotate else ""),
        caption=f"average length {mean_length(records):.1f} actions · ties count as shared wins",
        box=box.ROUNDED,
        title_style="bold",
    )
    table.add_column("Agent" if rotate else "Seat", style="bold cyan")
    table.add_column("Games", justify="right")
    table.add_column("Win rate", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("Avg score", justify="right")
    for row in summary:
        table.add_row(
            row.label,
            str(row.games),
            f"{100 * row.win_rate:.1f}%",
            f"{100 * row.ci_low:.1f}–{100 * row.ci_high:.1f}%",
            f"{row.mean_score:.2f}",
        )
    out.print(table)
    if json_path is not None:
        data = {
            "game": loaded.name,
            "options": loaded.options.to_dict(),
            "lineup": names,
            "labels": labels,
            "games": games_,
            "seed": seed,
            "rotate": rotate,
            "mean_length": mean_length(records),
            "summary": [row.to_json() for row in summary],
            "results": [record.to_json() for record in records],
        }
        json_path.write_text(json.dumps(data, indent=1), encoding="utf-8")
        out.print(Text(f"Raw results written to {json_path}", style="dim"))


def _default(game: Any) -> str:
    return "heuristic" if "heuristic" in game.agents else "random"


def _labels(names: list[str], rotate: bool) -> list[str]:
    """Row labels: ``P1 heuristic`` per seat, or the agent name per lineup entry (numbered if repeated)."""
    if not rotate:
        return [f"P{i + 1} {name}" for i, name in enumerate(names)]
    labels = []
    for i, name in enumerate(names):
        repeats = names.count(name)
        labels.append(f"{name} #{names[:i].count(name) + 1}" if repeats > 1 else name)
    return labels


def main() -> None:
    """Entry point of the ``oakwood`` script."""
    app()
