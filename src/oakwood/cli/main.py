"""The ``oakwood`` command line: ``play``, ``simulate``, ``arena``, ``replay``, ``rules`` and ``games``."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from oakwood import form
from oakwood.agents import agent_names, make_agent
from oakwood.agents.levels import LEVELS
from oakwood.arena.recording import GameWriter
from oakwood.arena.simulate import SimulationSpec, SimulationStopped, simulate
from oakwood.arena.stats import GameRecord, mean_length, summarize
from oakwood.engine import Game, game_names
from oakwood.store import LiveGame, StoreError

from . import analyze_command, arena_command, replay_command, serve_command, tune_command, values
from .common import (
    bot_seed,
    default_bot,
    find_game_class,
    load_game,
    new_seed,
    on_off,
    package_version,
    parse_seats,
)
from .errors import EXIT_FAILURE, EXIT_INTERRUPTED, CliInputError, friendly_errors, print_error
from .files import check_writable
from .flags import DbOpt, GameArg, OptionOpt, PlayersOpt, WorkersOpt
from .group import OakwoodGroup
from .hints import HintAdvisor
from .messages import shorten
from .play import PlaySession, SeatPlan
from .recent import RECENT_GAMES, recent_games, recent_view
from .resume import ResumedGame
from .resume import resume as resume_game
from .storing import PlayRecorder, open_database, progress_bar
from .styles import make_console
from .tables import levels_table, options_view, summary_table
from .terminal import Terminal

app = typer.Typer(
    name="oakwood",
    help="Play, simulate and read the rules of the Oakwood squirrel games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=OakwoodGroup,
)

app.command("arena")(arena_command.arena)
app.command("analyze")(analyze_command.analyze)
app.command("tune")(tune_command.tune)
app.command("serve")(serve_command.serve)
app.command("replay")(replay_command.replay)


def _print_version(asked: bool) -> None:
    """``oakwood --version``: the version and the form (pure or compiled, and if fresh), then exit 0.

    Runs before any command.
    """
    if asked:
        console().print(f"oakwood {package_version() or 'unknown (not installed)'}, {form.inspect().describe()}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print Oakwood's version and exit.", callback=_print_version, is_eager=True),
    ] = False,
) -> None:
    """Play, simulate and read the rules of the Oakwood squirrel games."""


def console() -> Console:
    """The output console (made per command so it writes to the current standard output; plain text when
    it is not a terminal or NO_COLOR is set)."""
    return make_console()


# ---------------------------------------------------------------------- games
@app.command()
def games(
    recent: Annotated[
        bool,
        typer.Option(
            "--recent", help="List the games in the store instead: unfinished games of play first (resumable)."
        ),
    ] = False,
    limit: Annotated[
        str, typer.Option("--limit", help="With --recent: how many games to list (1 to 1000).", metavar="N")
    ] = str(RECENT_GAMES),
    db: DbOpt = None,
) -> None:
    """List the registered games with their player counts, difficulty levels and bots (or, with --recent,
    the games played and stored)."""
    out = console()
    if recent:
        with friendly_errors():
            count = values.whole_number("--limit", limit, minimum=1, maximum=1000)
            store = open_database(db)
            with contextlib.closing(store):
                try:
                    listed = recent_games(store, count)
                except StoreError as exc:
                    raise CliInputError(str(exc)) from None
        out.print(recent_view(listed, store.url, db))
        return
    with friendly_errors():
        if db is not None or limit != str(RECENT_GAMES):
            raise CliInputError("--db and --limit go with --recent (oakwood games --recent lists the stored games)")
    table = Table(title="Oakwood games", box=box.ROUNDED, title_style="bold")
    table.add_column("Name", style="bold cyan")
    table.add_column("Title")
    table.add_column("Players", justify="center")
    table.add_column("Opponents")
    available: list[type[Game[Any]]] = []
    for name in game_names():
        try:
            cls = find_game_class(name)
        except CliInputError:
            table.add_row(name, Text("not available yet", style="dim"), "", "")
            continue
        available.append(cls)
        players = str(cls.min_players) if cls.min_players == cls.max_players else f"{cls.min_players}–{cls.max_players}"
        bots = [name for name in agent_names(cls) if name not in LEVELS]
        table.add_row(name, cls.title, players, f"{', '.join(LEVELS)}\n[dim]bots: {', '.join(bots)}[/dim]")
    out.print(table)
    out.print(levels_table(available))


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
    out.print(options_view(cls.title, cls.options_class))
    if document is None:
        with friendly_errors():
            raise CliInputError(f"{cls.title} has no rules document (rules.md) in this installation")


# ---------------------------------------------------------------------- play
#: Who fills the other seats of ``oakwood play`` when ``--seats`` is not given.
DEFAULT_OPPONENT = "medium"


@app.command()
def play(
    game: Annotated[
        str | None,
        typer.Argument(
            help="Game name (see `oakwood games`). With --resume: a stored game's id, or a game's name for its "
            "latest unfinished game (optional).",
            show_default=False,
            metavar="GAME",
        ),
    ] = None,
    players: PlayersOpt = None,
    seats: Annotated[
        str | None,
        typer.Option(
            "--seats",
            "-s",
            help="Comma-separated, one per seat: human, a level (easy, medium, hard, expert) or a bot name "
            "(default: you against medium bots).",
        ),
    ] = None,
    seed: Annotated[str | None, typer.Option(help="Deal seed (random if omitted; printed).", metavar="S")] = None,
    option: OptionOpt = None,
    solo: Annotated[bool, typer.Option("--solo", help="One player (for games with a solo mode).")] = False,
    delay: Annotated[
        str, typer.Option(help="Seconds to pause after each bot move (0 to 60).", metavar="SECONDS")
    ] = "0.6",
    race_window: Annotated[
        str | None,
        typer.Option(
            help="Seconds a race stays open (default: the game's option, else 5; at most 600).", metavar="SECONDS"
        ),
    ] = None,
    hints: Annotated[
        str,
        typer.Option(help="on or off: whether the 'hint' command may ask the expert bot for advice.", metavar="on|off"),
    ] = "on",
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue your last unfinished game (or the one GAME names) where it stopped; see "
            "`oakwood games --recent`.",
        ),
    ] = False,
    db: DbOpt = None,
) -> None:
    """Play a game in the terminal against bots, or hot-seat with several humans (the game is stored as it is
    played, and --resume continues it)."""
    out = console()
    resumed: ResumedGame | None = None
    with friendly_errors():
        pause = values.seconds("--delay", delay, maximum=values.MAX_DELAY, allow_zero=True)
        window = (
            None
            if race_window is None
            else values.seconds("--race-window", race_window, maximum=values.MAX_RACE_WINDOW, allow_zero=False)
        )
        hints_on = on_off("--hints", hints)
        if resume:
            _refuse_new_game_flags(players=players, seats=seats, seed=seed, option=option, solo=solo)
            store = open_database(db)  # the game to resume is in it
            try:
                resumed = resume_game(store, game)
                loaded, state, names, deal_seed = resumed.game, resumed.state, resumed.names, resumed.stored.seed
                window = window if window is not None else _race_window_option(loaded.options)
                plans = _seat_plans(loaded, names, deal_seed)
            except BaseException:
                store.close()
                raise
        else:
            if game is None:
                raise CliInputError(
                    "Missing argument 'GAME': name a game to play (see: oakwood games), or continue your last one "
                    "with: oakwood play --resume"
                )
            count = None if players is None else values.whole_number("--players", players)
            deal_seed = values.seed("--seed", seed) if seed is not None else new_seed()
            loaded = load_game(game, option or [])
            if solo:
                count = _solo_count(loaded, count, seats)
            # A person's default opponents are the `medium` level (the game's heuristic), not a raw bot name.
            names = parse_seats(
                loaded, seats, count, default_first="human", allow_human=True, default_rest=DEFAULT_OPPONENT
            )
            state = loaded.new_state(len(names), deal_seed)
            window = window if window is not None else _race_window_option(loaded.options)
            plans = _seat_plans(loaded, names, deal_seed)
            store = open_database(db)
    with contextlib.closing(store):
        with friendly_errors():
            try:
                if resumed is None:
                    live = LiveGame.start(store, state, names, version=package_version())
                else:
                    live = LiveGame.resume(store, resumed.stored.id, state)
            except StoreError as exc:
                raise CliInputError(str(exc)) from None
        if resumed is None:
            out.print(Text(f"Seed {deal_seed} (replay this deal with --seed {deal_seed})", style="dim"))
            stored = f"Stored as game {live.id} (watch it again with: oakwood replay {live.id})"
        else:
            stored = f"Resuming game {live.id} of {loaded.title} after {len(state.history)} moves (seed {deal_seed})"
        out.print(Text(stored, style="dim"), soft_wrap=True)
        recorder = PlayRecorder(live, out)
        session = PlaySession(
            loaded,
            state,
            plans,
            Terminal(out),
            seed=deal_seed,
            delay=pause,
            race_window=window,
            on_change=recorder,
            hints=HintAdvisor(loaded, deal_seed) if hints_on else None,
        )
        if resumed is not None:
            session.restore_log_starts(resumed.seen, resumed.public_seen)
        code = session.run()
        if not session.state.is_terminal() and not recorder.failed:
            again = f"oakwood play --resume {live.id}" + (f" --db {db}" if db is not None else "")
            out.print(Text(f"Game {live.id} is saved: continue it with {again}", style="dim"), soft_wrap=True)
    if code:
        raise typer.Exit(code)


def _seat_plans(game: Any, names: list[str], deal_seed: int) -> list[SeatPlan]:
    """Who plays each seat: humans, and bots built by name with seeds derived from the deal's (so a resumed
    game rebuilds the same bots)."""
    return [
        SeatPlan(name) if name == "human" else SeatPlan(name, make_agent(game, name, seed=bot_seed(deal_seed, i)))
        for i, name in enumerate(names)
    ]


def _refuse_new_game_flags(**given: Any) -> None:
    """``--resume`` continues a game as it was set up: the flags that set up a new one contradict it."""
    for name, value in given.items():
        if value not in (None, False, []):
            flag = "--" + name.replace("_", "-")
            raise CliInputError(
                f"{flag} cannot be given with --resume: a resumed game keeps the seats, seed and options it was "
                "started with"
            )


def _solo_count(game: Any, players: int | None, seats: str | None) -> int:
    """``--solo`` is one player: refuse a game without a solo mode, or another count asked for elsewhere."""
    if game.min_players > 1:
        raise CliInputError(f"{game.title} has no solo mode (it takes {game.min_players}+ players)")
    if players is not None and players != 1:
        raise CliInputError(f"--solo means one player, but --players asks for {players}")
    if seats is not None:
        named = [s for s in seats.split(",") if s.strip()]
        if len(named) != 1:
            raise CliInputError(f"--solo means one player, but --seats {shorten(seats)} names {len(named)} seats")
    return 1


def _race_window_option(options: Any) -> float:
    """The game's own race window option (a name ending in ``race_window_s``), else 5 seconds."""
    for name, value in options.to_dict().items():
        if name.endswith("race_window_s") and isinstance(value, int | float) and value > 0:
            if value > values.MAX_RACE_WINDOW:
                raise CliInputError(
                    f"option {name} is {value:g} s; a race in the terminal stays open at most "
                    f"{values.MAX_RACE_WINDOW:g} s"
                )
            return float(value)
    return 5.0


# ---------------------------------------------------------------------- simulate
@app.command("simulate")
def simulate_cmd(
    game: GameArg,
    games_: Annotated[
        str, typer.Option("--games", "-g", help="How many games to play (1 to 10,000,000).", metavar="N")
    ] = "100",
    seats: Annotated[str | None, typer.Option("--seats", "-s", help="Comma-separated bot names, one per seat.")] = None,
    players: PlayersOpt = None,
    seed: Annotated[str, typer.Option(help="Base seed; game i uses a seed derived from it and i.", metavar="S")] = "0",
    workers: WorkersOpt = None,
    option: OptionOpt = None,
    rotate: Annotated[
        bool, typer.Option("--rotate/--no-rotate", help="Rotate the lineup one seat per game (stats per agent).")
    ] = False,
    json_path: Annotated[Path | None, typer.Option("--json", help="Write the raw results to this file.")] = None,
    db: DbOpt = None,
    no_store: Annotated[bool, typer.Option("--no-store", help="Do not store the games in the database.")] = False,
) -> None:
    """Run many bot-only games in parallel and report win rates (95% Wilson interval), scores and lengths.

    Every game is stored (in batches) unless --no-store is given."""
    out = console()
    with friendly_errors():
        total = values.whole_number("--games", games_, minimum=1, maximum=values.MAX_GAMES)
        count = None if players is None else values.whole_number("--players", players)
        base_seed = values.seed("--seed", seed)
        processes = (
            None
            if workers is None
            else values.whole_number("--workers", workers, minimum=1, maximum=values.max_workers())
        )
        if json_path is not None:
            check_writable("--json", json_path)  # before the run, not after it
        loaded = load_game(game, option or [])
        names = parse_seats(loaded, seats, count, default_first=default_bot(loaded), allow_human=False)
        for name in set(names):
            make_agent(loaded, name)  # a bot that fails to build should fail here, not in every worker
        if no_store and db is not None:
            raise CliInputError("--no-store and --db contradict each other: choose one")
        store = None if no_store else open_database(db)
    spec = SimulationSpec(
        game=loaded.name,
        lineup=tuple(names),
        games=total,
        seed=base_seed,
        rotate=rotate,
        options=loaded.options.to_dict(),
        keep_actions=store is not None,
    )
    writer = None if store is None else GameWriter(store, spec, source="simulate")
    stopped: SimulationStopped | None = None
    try:
        with progress_bar(out) as progress:
            task = progress.add_task(f"{loaded.title}", total=total)
            records = simulate(
                spec,
                processes,
                on_progress=lambda n: progress.advance(task, n),
                on_batch=None if writer is None else writer.add,
            )
        if writer is not None:
            _flush_or_exit(writer)
    except SimulationStopped as stop:
        stopped = stop
        records = stop.records
        if writer is not None:
            _flush_or_exit(writer)
    except StoreError as exc:
        print_error(f"{exc}; the games finished before it are stored")
        raise typer.Exit(EXIT_FAILURE) from None
    finally:
        if store is not None:
            store.close()
    labels = _labels(names, rotate)
    summary = summarize(records, labels)
    played = f"{total} games" if stopped is None else f"{len(records)} of {total} games (partial)"
    title = f"{loaded.title}: {played}, seed {base_seed}" + (", seats rotating" if rotate else "")
    caption = f"average length {mean_length(records):.1f} actions · ties count as shared wins"
    out.print(summary_table(title, caption, summary, per_agent=rotate))
    if writer is not None:
        out.print(Text(f"{writer.written} games stored in {writer.store.url}", style="dim"), soft_wrap=True)
    if json_path is not None:
        _write_json(out, json_path, loaded, spec, names, labels, summary, records, partial=stopped is not None)
    if stopped is not None:
        if stopped.interrupted:
            out.print(Text(f"Interrupted: the table is partial ({len(records)} of {total} games).", style="yellow"))
            raise typer.Exit(EXIT_INTERRUPTED)
        print_error(f"{stopped.reason}; the table above is partial ({len(records)} of {total} games)")
        raise typer.Exit(EXIT_FAILURE)


def _flush_or_exit(writer: GameWriter) -> None:
    """Store the finished games still in the buffer (exit 1 if the store fails). A Ctrl-C meanwhile waits
    for the batch to land and then changes nothing: the games are stored, and the run is over anyway."""
    try:
        writer.flush()
    except KeyboardInterrupt:
        pass
    except StoreError as exc:
        print_error(f"{exc}; the games finished before it are stored")
        raise typer.Exit(EXIT_FAILURE) from None


def _write_json(
    out: Console,
    path: Path,
    game: Any,
    spec: SimulationSpec,
    names: list[str],
    labels: list[str],
    summary: list[Any],
    records: list[GameRecord],
    *,
    partial: bool,
) -> None:
    """The ``--json`` file: the summary and every finished game (``partial`` when the run was cut short)."""
    data = {
        "game": game.name,
        "options": game.options.to_dict(),
        "lineup": names,
        "labels": labels,
        "games": spec.games,
        "finished": len(records),
        "partial": partial,
        "seed": spec.seed,
        "rotate": spec.rotate,
        "mean_length": mean_length(records),
        "summary": [row.to_json() for row in summary],
        "results": [record.to_json() for record in records],
    }
    try:
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    except OSError as exc:  # checked before the run, but a disk can fill up or a directory vanish meanwhile
        print_error(f"--json {shorten(str(path))}: cannot be written ({exc.strerror})")
        raise typer.Exit(EXIT_FAILURE) from None
    out.print(Text(f"Raw results written to {path}", style="dim"))


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


if __name__ == "__main__":
    main()
