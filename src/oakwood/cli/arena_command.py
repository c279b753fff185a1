"""``oakwood arena``: a tournament between agents, seats rotating, stored game by game, resumable, rated."""

from __future__ import annotations

import contextlib
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from oakwood.agents import make_agent
from oakwood.arena.backend import Backend
from oakwood.arena.local import LocalBackend
from oakwood.arena.simulate import SimulationStopped
from oakwood.arena.tournament import TournamentReport, missing_games, play_tournament, report
from oakwood.store import Store, StoreError, Tournament, TournamentSettings

from . import values
from .common import arena_players, find_game_class, load_game, parse_agents
from .errors import EXIT_FAILURE, EXIT_INTERRUPTED, CliInputError, friendly_errors, print_error
from .flags import DbOpt, OptionOpt, PlayersOpt, WorkersOpt
from .messages import quote
from .storing import open_database, progress_bar
from .tables import tournament_table

#: Games of a tournament when ``--games`` is not given.
DEFAULT_GAMES = 100
BACKENDS = ("local", "dask")


def arena(
    game: Annotated[
        str | None, typer.Argument(help="Game name (see `oakwood games`); optional with --resume.", show_default=False)
    ] = None,
    players: PlayersOpt = None,
    agents: Annotated[
        str | None,
        typer.Option("--agents", "-a", help="Comma-separated bot names to compare, each once (cycled to fill seats)."),
    ] = None,
    games_: Annotated[
        str | None,
        typer.Option("--games", "-g", help=f"Games in the tournament (default {DEFAULT_GAMES}).", metavar="N"),
    ] = None,
    seed: Annotated[
        str | None, typer.Option(help="Base seed (default 0); game i uses a seed derived from it and i.", metavar="S")
    ] = None,
    option: OptionOpt = None,
    workers: WorkersOpt = None,
    backend: Annotated[
        str, typer.Option("--backend", help="Where games are played: local processes, or a dask cluster.")
    ] = "local",
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="The dask scheduler (with --backend dask).", metavar="ADDRESS")
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option("--resume", help="Continue the stored tournament with this id.", metavar="TOURNAMENT_ID"),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Play a seat-rotated tournament between bots and rate them: win share (95% CI), score, openskill rating."""
    out = Console(highlight=False)
    with friendly_errors():
        total = None if games_ is None else values.whole_number("--games", games_, minimum=1, maximum=values.MAX_GAMES)
        count = None if players is None else values.whole_number("--players", players)
        base_seed = None if seed is None else values.seed("--seed", seed)
        processes = (
            None
            if workers is None
            else values.whole_number("--workers", workers, minimum=1, maximum=values.max_workers())
        )
        where = backend_choice(backend, scheduler, workers)
        resume_id = None if resume is None else values.whole_number("--resume", resume, minimum=1)
        if resume_id is None and game is None:
            raise CliInputError("name a game and its agents (oakwood arena GAME --agents a,b), or --resume ID")
        requested = _requested(game, agents, count, total, base_seed, option or [])
        store = open_database(db)
    with contextlib.closing(store):
        with friendly_errors():
            tournament = _tournament(store, resume_id, requested)
            runner = connect_backend(where, scheduler, processes)
        code = _run(out, store, tournament, runner)
    if code:
        raise typer.Exit(code)


def backend_choice(backend: str, scheduler: str | None, workers: str | None) -> str:
    """``--backend`` checked against ``--scheduler`` and ``--workers`` (shared by arena and analyze)."""
    name = backend.strip().lower()
    if name not in BACKENDS:
        raise CliInputError(f"--backend {quote(backend)}: choose local or dask")
    if name == "dask" and scheduler is None:
        raise CliInputError("--backend dask needs --scheduler ADDRESS (for example tcp://127.0.0.1:8786)")
    if name == "local" and scheduler is not None:
        raise CliInputError("--scheduler is for --backend dask")
    if name == "dask" and workers is not None:
        raise CliInputError("--workers is for the local backend; a dask cluster brings its own workers")
    return name


def _requested(
    game: str | None,
    agents: str | None,
    players: int | None,
    games: int | None,
    seed: int | None,
    options: list[str],
) -> dict[str, Any] | None:
    """The settings given on the command line (None when no game is named); each checked against the game."""
    if game is None:
        if agents is not None or options:
            raise CliInputError("--agents and --option need a game: oakwood arena GAME --agents a,b")
        given = {"players": players, "games": games, "seed": seed}
        return {key: value for key, value in given.items() if value is not None} or None
    loaded = load_game(game, options)
    if agents is None:
        raise CliInputError("--agents names the agents to compare (for example --agents heuristic,random)")
    names = parse_agents(loaded, agents)
    seats = arena_players(loaded, players, names)
    for name in names:
        make_agent(loaded, name)  # a bot that fails to build should fail here, not in every worker
    return {
        "game": loaded.name,
        "options": loaded.options.to_dict(),
        "players": seats,
        "agents": tuple(names),
        "games": DEFAULT_GAMES if games is None else games,
        "seed": 0 if seed is None else seed,
        "explicit": {"players": players, "games": games, "seed": seed},
    }


def _tournament(store: Store, resume_id: int | None, requested: dict[str, Any] | None) -> Tournament:
    """The tournament to play: the one resumed by id (every setting given must agree with it), else the one
    with exactly the requested settings, created if new."""
    try:
        if resume_id is not None:
            tournament = store.get_tournament(resume_id)
            _check_agrees(tournament, requested or {})
            return tournament
        assert requested is not None
        settings = TournamentSettings(
            requested["game"],
            requested["options"],
            requested["players"],
            requested["agents"],
            requested["seed"],
            requested["games"],
        )
        return store.tournament_for(settings)[0]
    except StoreError as exc:
        raise CliInputError(str(exc)) from None


def _check_agrees(tournament: Tournament, requested: dict[str, Any]) -> None:
    """``--resume`` with settings: each one given must be the tournament's own."""
    settings = tournament.settings
    explicit = requested.get("explicit", requested)
    checks = [
        ("game", requested.get("game"), settings.game),
        ("--option", requested.get("options"), settings.options),
        ("--agents", requested.get("agents"), settings.agents),
        ("--players", explicit.get("players"), settings.players),
        ("--games", explicit.get("games"), settings.games),
        ("--seed", explicit.get("seed"), settings.seed),
    ]
    for flag, given, stored in checks:
        if given is not None and given != stored:
            shown = ",".join(stored) if isinstance(stored, tuple) else stored
            raise CliInputError(f"--resume {tournament.id}: that tournament was started with {flag} {shown}")


def connect_backend(where: str, scheduler: str | None, processes: int | None) -> Backend:
    """Local processes, or a connection to the dask scheduler (a refusal is one line)."""
    if where == "local":
        return LocalBackend(processes)
    from oakwood.arena.dask_backend import DaskBackend, DaskUnavailable

    try:
        return DaskBackend.connect(scheduler or "")
    except DaskUnavailable as exc:
        raise CliInputError(f"--scheduler: {exc}") from None


def _run(out: Console, store: Store, tournament: Tournament, runner: Backend) -> int:
    """Play what is missing, then print the table over every finished game; the exit code."""
    settings = tournament.settings
    title = find_game_class(settings.game).title
    stopped: SimulationStopped | None = None
    played_now = 0
    try:
        missing = missing_games(store, tournament)
        done = settings.games - len(missing)
        out.print(
            Text(
                f"Tournament {tournament.id}: {title}, {settings.players} players, agents "
                f"{', '.join(settings.agents)}, {settings.games} games, seed {settings.seed}"
                + (f" — {done} already played, {len(missing)} to go" if done else ""),
                style="dim",
            ),
            soft_wrap=True,
        )
        if missing:
            with progress_bar(out) as progress:
                task = progress.add_task(f"Tournament {tournament.id}", total=len(missing))
                played_now = play_tournament(store, tournament, runner, on_progress=lambda n: progress.advance(task, n))
    except SimulationStopped as stop:
        stopped = stop
        played_now = len(stop.records)
    except StoreError as exc:
        print_error(f"{exc}; the games finished before it are stored (resume with --resume {tournament.id})")
        return EXIT_FAILURE
    finally:
        close = getattr(runner, "close", None)
        if close is not None:
            close()
    try:
        result = report(store, tournament)
    except StoreError as exc:
        print_error(str(exc))
        return EXIT_FAILURE
    _print_report(out, result, title, played_now)
    if stopped is None:
        return 0
    again = f"run the same command again, or oakwood arena --resume {tournament.id}, to play the rest"
    if stopped.interrupted:
        stored = f"{result.finished} of {settings.games} games are stored"
        out.print(Text(f"Interrupted: {stored}; {again}.", style="yellow"), soft_wrap=True)
        return EXIT_INTERRUPTED
    print_error(f"{stopped.reason}; {result.finished} of {settings.games} games are stored ({again})")
    return EXIT_FAILURE


def _print_report(out: Console, result: TournamentReport, title: str, played_now: int) -> None:
    settings = result.tournament.settings
    played = f"{settings.games} games" if result.complete else f"{result.finished} of {settings.games} games (partial)"
    heading = f"Tournament {result.tournament.id} · {title}, {settings.players} players: {played}, seed {settings.seed}"
    caption = (
        f"{played_now} played in this run · average length {result.mean_length:.1f} actions · seats rotate one per "
        "game · ties count as shared wins · openskill Plackett–Luce rating, ordinal = μ − 3σ"
    )
    out.print(tournament_table(heading, caption, result.standings))
