"""``oakwood tune``: search a game's options (and its deck) toward a designer's targets with Optuna, in a study
kept in the project's database, and write a report of the trials, the front and the recommended setting."""

from __future__ import annotations

import contextlib
import hashlib
import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from oakwood.agents import make_agent
from oakwood.arena.simulate import SimulationStopped
from oakwood.store import StoreError

from . import values
from .analyze_command import _table_sizes
from .arena_command import backend_choice, connect_backend
from .common import load_game, parse_option_pairs
from .errors import EXIT_FAILURE, EXIT_INTERRUPTED, CliInputError, friendly_errors, print_error
from .files import check_writable, read_value_file
from .flags import DbOpt, OptionOpt, WorkersOpt
from .messages import quote, shorten
from .storing import open_database

if TYPE_CHECKING:
    from oakwood.analysis.tune import Settings

#: Defaults: finished trials in the study after a run, games per table size and trial, mixed games for the
#: skill ladder, leaders re-measured, and NSGA-II's generation.
DEFAULT_TRIALS = 30
DEFAULT_GAMES = 400
DEFAULT_SKILL_GAMES = 150
DEFAULT_LEADERS = 3
DEFAULT_POPULATION = 12


def _count(flag: str, text: str | None, default: int, *, minimum: int = 1, maximum: int = values.MAX_GAMES) -> int:
    return default if text is None else values.whole_number(flag, text, minimum=minimum, maximum=maximum)


def tune(
    game: Annotated[str, typer.Argument(help="Game name (see `oakwood games`).", show_default=False)],
    target: Annotated[
        list[str] | None,
        typer.Option(
            "--target",
            "-t",
            help="A target (repeatable): seats=P (every seat within P points of fair), first=P (the first seat), "
            "length=A-B (mean actions), number:KEY=A-B (a measured number's mean), skill=P (a stronger bot "
            "wins at least P %).",
            metavar="TARGET",
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", "-n", help="Table sizes, all measured at once: N, 3-4 or 2,4.", metavar="N"),
    ] = None,
    search: Annotated[
        list[str] | None,
        typer.Option(
            "--search",
            help="An option to search (repeatable; default every choice, boolean and integer option): OPTION, "
            "OPTION=a|b, OPTION=LO-HI, or a deck OPTION=±K around its counts.",
            metavar="OPTION[=VALUES]",
        ),
    ] = None,
    option: OptionOpt = None,
    trials: Annotated[
        str | None,
        typer.Option(help=f"Finished trials the study holds after this run (default {DEFAULT_TRIALS}).", metavar="N"),
    ] = None,
    games_: Annotated[
        str | None,
        typer.Option("--games", "-g", help=f"Games per table size and trial (default {DEFAULT_GAMES}).", metavar="N"),
    ] = None,
    skill_games: Annotated[
        str | None,
        typer.Option(
            help=f"Mixed games per table size and trial for a skill target (default {DEFAULT_SKILL_GAMES}).",
            metavar="N",
        ),
    ] = None,
    leaders: Annotated[
        str | None,
        typer.Option(help=f"Best trials re-measured on fresh deals (default {DEFAULT_LEADERS}).", metavar="K"),
    ] = None,
    leader_games: Annotated[
        str | None,
        typer.Option(help="Games per table size for each leader (default three times --games).", metavar="N"),
    ] = None,
    population: Annotated[
        str | None,
        typer.Option(help=f"NSGA-II's generation size, several targets (default {DEFAULT_POPULATION}).", metavar="N"),
    ] = None,
    agent: Annotated[str, typer.Option(help="The bot at every seat (and the stronger one of the skill ladder).")] = (
        "heuristic"
    ),
    weak: Annotated[str, typer.Option(help="The weaker bot of the skill ladder.")] = "random",
    robustness: Annotated[bool, typer.Option(help="Measure every one-step change of the recommended setting.")] = True,
    study: Annotated[
        str | None,
        typer.Option(
            help="The study's name in the database: the same name resumes it and adds trials.", metavar="NAME"
        ),
    ] = None,
    seed: Annotated[
        str | None, typer.Option(help="Seed (default 0): the same seed, the same study.", metavar="S")
    ] = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Report folder (default: ./oakwood-tuning-GAME).", metavar="DIR")
    ] = None,
    notes: Annotated[
        str | None,
        typer.Option(help="A text file (paragraphs) shown under the verdict: your conclusions.", metavar="FILE"),
    ] = None,
    workers: WorkersOpt = None,
    backend: Annotated[
        str, typer.Option("--backend", help="Where games are played: local processes, or a dask cluster.")
    ] = "local",
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="The dask scheduler (with --backend dask).", metavar="ADDRESS")
    ] = None,
    db: DbOpt = None,
) -> None:
    """Search a game's options (and deck) toward targets — seat fairness, length, a measured number, the skill
    ladder — at several table sizes at once, with Optuna (TPE for one target, NSGA-II for several). The study is
    kept in the database: the same --study resumes and grows. The leaders are re-measured on fresh deals, the
    recommended setting's one-step changes are measured, and a report is written."""
    out = Console(highlight=False)
    with friendly_errors():
        settings, name = _settings(
            game,
            target or [],
            players,
            search or [],
            option or [],
            games_,
            skill_games,
            leaders,
            leader_games,
            population,
            agent,
            weak,
            seed,
            study,
        )
        count = _count("--trials", trials, DEFAULT_TRIALS, maximum=100_000)
        processes = (
            None
            if workers is None
            else values.whole_number("--workers", workers, minimum=1, maximum=values.max_workers())
        )
        where = backend_choice(backend, scheduler, workers)
        notes_text = "" if notes is None else read_value_file(f"--notes {shorten(notes)}", notes)
        target_dir = out_dir if out_dir is not None else Path(f"oakwood-tuning-{settings.game}")
        try:
            target_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CliInputError(f"--out {quote(str(target_dir))}: {exc.strerror or exc}") from None
        check_writable("--out", target_dir / "report.html")
        store = open_database(db)
    command = _command(
        game,
        target or [],
        players,
        search or [],
        option or [],
        trials,
        games_,
        skill_games,
        leaders,
        leader_games,
        population,
        agent,
        weak,
        robustness,
        name,
        seed,
    )
    with contextlib.closing(store):
        with friendly_errors():
            runner = connect_backend(where, scheduler, processes)
        code = _run(out, store, runner, processes, settings, name, count, robustness, target_dir, notes_text, command)
    if code:
        raise typer.Exit(code)


def _settings(
    game_name: str,
    targets: list[str],
    players: str | None,
    search: list[str],
    fixed: list[str],
    games: str | None,
    skill_games: str | None,
    leaders: str | None,
    leader_games: str | None,
    population: str | None,
    agent: str,
    weak: str,
    seed: str | None,
    study: str | None,
) -> tuple[Settings, str]:
    """The study's settings from the command line, each checked (a refusal is one line)."""
    try:
        import matplotlib  # noqa: F401  (the report's plot)
        import optuna  # noqa: F401  (the search)
        import scipy  # noqa: F401  (the intervals)
    except ImportError as exc:
        raise CliInputError(f"oakwood tune needs {exc.name}: pip install 'oakwood[analysis]'") from None
    from oakwood.analysis.features import extractor_for
    from oakwood.analysis.tune import Settings, TuneError, parse_target, search_space

    loaded = load_game(game_name, fixed)
    if not targets:
        raise CliInputError("name at least one --target, for example --target seats=3 (see oakwood tune --help)")
    sizes = _table_sizes(loaded, players)
    for name in (agent, weak):
        make_agent(loaded, name)  # a bot that cannot be built fails here, in one line
    try:
        extractor = extractor_for(loaded.name)
    except LookupError as exc:
        raise CliInputError(str(exc)) from None
    try:
        parsed = tuple(parse_target(text, extractor, sizes) for text in targets)
        if len({t.text for t in parsed}) < len(parsed):
            raise TuneError("a --target is given twice")
        space = tuple(search_space(loaded, search, parse_option_pairs(fixed)))
    except TuneError as exc:
        raise CliInputError(str(exc)) from None
    per_trial = _count("--games", games, DEFAULT_GAMES)
    settings = Settings(
        game=loaded.name,
        base=loaded.options.to_dict(),
        space=space,
        targets=parsed,
        players=sizes,
        agent=agent,
        weak=weak,
        games=per_trial,
        skill_games=_count("--skill-games", skill_games, DEFAULT_SKILL_GAMES),
        seed=0 if seed is None else values.seed("--seed", seed),
        leaders=_count("--leaders", leaders, DEFAULT_LEADERS, maximum=100),
        leader_games=_count("--leader-games", leader_games, 3 * per_trial),
        population=_count("--population", population, DEFAULT_POPULATION, minimum=2, maximum=10_000),
    )
    if study is not None and not study.strip():
        raise CliInputError("--study: give the study a name")
    digest = hashlib.sha256(json.dumps(settings.to_json(), sort_keys=True).encode()).hexdigest()[:10]
    return settings, study.strip() if study else f"{loaded.name}-{digest}"


def _command(
    game: str, targets: list[str], players: str | None, search: list[str], fixed: list[str], *rest: Any
) -> str:
    """The command as a designer would retype it (for the report)."""
    trials, games, skill_games, leaders, leader_games, population, agent, weak, robustness, name, seed = rest
    words = ["oakwood", "tune", game]
    for t in targets:
        words += ["--target", t]
    if players:
        words += ["--players", players]
    for s in search:
        words += ["--search", s]
    for o in fixed:
        words += ["--option", o]
    for flag, value in (
        ("--trials", trials),
        ("--games", games),
        ("--skill-games", skill_games),
        ("--leaders", leaders),
        ("--leader-games", leader_games),
        ("--population", population),
        ("--seed", seed),
    ):
        if value is not None:
            words += [flag, str(value)]
    if agent != "heuristic":
        words += ["--agent", agent]
    if weak != "random":
        words += ["--weak", weak]
    if not robustness:
        words.append("--no-robustness")
    words += ["--study", name]
    return shlex.join(words)


def _run(
    out: Console,
    store: Any,
    runner: Any,
    workers: int | None,
    settings: Settings,
    name: str,
    count: int,
    robustness: bool,
    target: Path,
    notes: str,
    command: str,
) -> int:
    """Run the trials still missing, conclude, write the report; the exit code."""
    from oakwood.analysis.tune import Evaluator, TuneError, conclude, open_study, run_trials
    from oakwood.analysis.tune_report import build_tree, summary_lines, write_report

    def dim(text: str) -> None:
        out.print(Text(text, style="dim"), soft_wrap=True)

    try:
        try:
            optuna_study = open_study(store, name, settings)
        except TuneError as exc:
            print_error(str(exc))
            return EXIT_FAILURE
        before = len([t for t in optuna_study.get_trials(deepcopy=False) if t.state.is_finished()])
        sampler = "TPE" if len(settings.targets) == 1 else "NSGA-II"
        dim(
            f"Study {name}: {before} trials stored, {max(0, count - before)} to run ({sampler}; "
            f"{', '.join(map(str, settings.players))} players; {settings.games} games a table size and trial)"
        )
        evaluator = Evaluator(store, runner, settings, workers=workers)

        def trial_line(trial: Any, evaluation: Any, seconds: float) -> None:
            if evaluation is None:
                dim(f"trial {trial.number}: refused ({trial.user_attrs.get('refused', 'invalid options')})")
                return
            figures = ", ".join(
                f"{t.text} {v:.2f}{'' if t.met(v) else ' ✗'}"
                for t, v in zip(settings.targets, evaluation.values, strict=True)
            )
            dim(f"trial {trial.number} of {count}: {figures} — {seconds:.0f} s")

        run_trials(optuna_study, settings, evaluator, count, on_trial=trial_line)
        outcome = conclude(optuna_study, settings, evaluator, robustness=robustness, on_step=dim)
    except SimulationStopped as stop:
        again = "run the same command again to resume the study (nothing stored is played twice)"
        if stop.interrupted:
            out.print(Text(f"Interrupted: every finished trial is stored; {again}.", style="yellow"), soft_wrap=True)
            return EXIT_INTERRUPTED
        print_error(f"{stop.reason}; every finished trial is stored ({again})")
        return EXIT_FAILURE
    except KeyboardInterrupt:
        out.print(Text("Interrupted: every finished trial is stored; run the same command again.", style="yellow"))
        return EXIT_INTERRUPTED
    except StoreError as exc:
        print_error(str(exc))
        return EXIT_FAILURE
    finally:
        close = getattr(runner, "close", None)
        if close is not None:
            close()
    tree = build_tree(settings, name, outcome, command=command, notes=notes)
    path = write_report(tree, target)
    for line in summary_lines(tree):
        out.print(Text(line), soft_wrap=True)
    out.print(Text(f"Report: {path} (figures: {target / 'tuning.json'})", style="bold"), soft_wrap=True)
    return 0
