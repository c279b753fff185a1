"""``oakwood analyze``: play (or reuse) many bot games of a game, measure them, write a balance report."""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from oakwood.agents import make_agent
from oakwood.arena.backend import Backend
from oakwood.arena.simulate import SimulationStopped
from oakwood.engine import Game
from oakwood.store import Store, StoreError

from . import values
from .arena_command import backend_choice, connect_backend
from .common import find_game_class, load_game, parse_agents, parse_option_pairs
from .errors import EXIT_FAILURE, EXIT_INTERRUPTED, CliInputError, friendly_errors, print_error
from .files import check_writable, read_value_file
from .flags import DbOpt, OptionOpt, WorkersOpt
from .messages import quote, shorten
from .storing import open_database, progress_bar

if TYPE_CHECKING:  # the workbench (matplotlib, scipy) is imported only when a report is made
    from oakwood.analysis.features import FeatureExtractor
    from oakwood.analysis.plan import Plan, Variant
    from oakwood.analysis.skill import SkillLadder

#: Games per cell when ``--games`` is not given.
DEFAULT_GAMES = 2000
#: Games of a cell per deal of the skill ladder when ``--skill-deals`` is not given: the ladder grows with the
#: cells (100 deals at the default 2000 games), at about a tenth of their games.
GAMES_PER_SKILL_DEAL = 20
#: The most variants (the base, each value alone, every combination) a table size and agent may play: a grid
#: grows as the product of its options' value counts.
MAX_VARIANTS = 36


def analyze(
    game: Annotated[str, typer.Argument(help="Game name (see `oakwood games`).", show_default=False)],
    players: Annotated[
        str | None,
        typer.Option(
            "--players", "-n", help="Table sizes: N, a range 2-6 or a list 2,4 (default: every size).", metavar="N"
        ),
    ] = None,
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            "-a",
            help="Comma-separated bots; each plays every seat of its own games, and findings are compared across them.",
        ),
    ] = "heuristic",
    games_: Annotated[
        str | None,
        typer.Option(
            "--games", "-g", help=f"Games per table size, agent and variant (default {DEFAULT_GAMES}).", metavar="N"
        ),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            help="OPTION=a,b,… : compare these values of one option with the base options (a value @FILE is read "
            "from a file, named by the file). Given for two or more options, every combination is played too (a "
            "grid) and each pair's interaction is reported.",
            metavar="OPTION=A,B",
        ),
    ] = None,
    margin: Annotated[
        list[str] | None,
        typer.Option(
            "--margin",
            help="KIND=X: say 'no change larger than X' when an equivalence test (TOST) shows it. KIND is share "
            "(win and ending shares; 0.03 is 3 points; a bare number is a share margin), length (actions), score "
            "(points) or one of the game's measures. Repeatable; none given, no equivalence is tested.",
            metavar="KIND=X",
        ),
    ] = None,
    skill_deals: Annotated[
        str | None,
        typer.Option(
            "--skill-deals",
            help=f"Deals per rung of the skill ladder, at each table size and variant (default: one per "
            f"{GAMES_PER_SKILL_DEAL} games of a cell; 0: no ladder). Each deal is played once with a stronger bot at "
            "each seat in turn among weaker ones.",
            metavar="N",
        ),
    ] = None,
    skill_levels: Annotated[
        str | None,
        typer.Option(
            "--skill-levels",
            help="The skill ladder's levels, weakest first (default easy,medium; hard and expert search: seconds a "
            "game).",
            metavar="A,B,…",
        ),
    ] = None,
    option: OptionOpt = None,
    seed: Annotated[
        str | None, typer.Option(help="Base seed (default 0): the same seed, the same report.", metavar="S")
    ] = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Report folder (default: ./oakwood-report-GAME).", metavar="DIR")
    ] = None,
    notes: Annotated[
        str | None,
        typer.Option(
            "--notes", help="A text file (paragraphs) shown under the findings: your conclusions.", metavar="FILE"
        ),
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
    """Play many bot games (or reuse the stored ones), measure them and write a balance report: HTML with PNG
    plots and every figure as JSON. Seat advantage, scores, length, endings, key cards and powers, variants."""
    out = Console(highlight=False)
    with friendly_errors():
        loaded = load_game(game, option or [])
        total = (
            DEFAULT_GAMES
            if games_ is None
            else values.whole_number("--games", games_, minimum=1, maximum=values.MAX_GAMES)
        )
        base_seed = 0 if seed is None else values.seed("--seed", seed)
        processes = (
            None
            if workers is None
            else values.whole_number("--workers", workers, minimum=1, maximum=values.max_workers())
        )
        where = backend_choice(backend, scheduler, workers)
        sizes = _table_sizes(loaded, players)
        names = parse_agents(loaded, agents)
        for name in names:
            make_agent(loaded, name)  # a bot that cannot be built fails here, not in every worker
        plan = _plan(loaded, sizes, names, total, base_seed, option or [], vary or [])
        extractor = _extractor(loaded)
        margins = _margins(margin or [], extractor)
        ladder = _ladder(loaded, plan, skill_deals, skill_levels)
        notes_text = "" if notes is None else read_value_file(f"--notes {shorten(notes)}", notes)
        target = out_dir if out_dir is not None else Path(f"oakwood-report-{loaded.name}")
        _make_folder(target)
        check_writable("--out", target / "report.html")
        store = open_database(db)
    with contextlib.closing(store):
        with friendly_errors():
            runner = connect_backend(where, scheduler, processes)
        code = _run(out, store, plan, runner, processes, extractor, target, notes_text, margins, ladder)
    if code:
        raise typer.Exit(code)


class CellLines:
    """One line per finished cell, for a run whose output is not a terminal (a log, a pipe): ``played cell 3 of
    12 (3p · heuristic · base): 1000 games, 41 s``."""

    def __init__(self, console: Console, cells: int, *, enabled: bool) -> None:
        self.console, self.cells, self.enabled = console, cells, enabled
        self.restart()

    def restart(self, cells: int | None = None) -> None:
        """Count cells (of ``cells``, if given) and time from here (the measuring pass after the playing one)."""
        self.count, self.since = 0, time.monotonic()
        if cells is not None:
            self.cells = cells

    def done(self, verb: str, label: str, games: int) -> None:
        """A cell is finished: say so, with its games and the time since the last line."""
        self.count += 1
        if not self.enabled:
            return
        now = time.monotonic()
        text = f"{verb} cell {self.count} of {self.cells} ({label}): {games} games, {now - self.since:.0f} s"
        self.console.print(Text(text, style="dim"), soft_wrap=True)
        self.since = now


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _make_folder(target: Path) -> None:
    """Create the report folder (and its parents); a path that cannot be one is refused in one line."""
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliInputError(f"--out {quote(str(target))}: {exc.strerror or exc}") from None


def _table_sizes(game: Game[Any], text: str | None) -> tuple[int, ...]:
    """``--players``: one size, a range ``2-6`` or a list ``2,4``, each one the game takes."""
    takes = f"{game.title} takes {game.min_players}–{game.max_players} players"
    if text is None:
        return tuple(range(game.min_players, game.max_players + 1))
    sizes: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        first = values.whole_number("--players", low)
        last = values.whole_number("--players", high) if dash else first
        if last < first:
            raise CliInputError(f"--players {quote(part)}: a range goes from the smaller size to the larger")
        sizes.extend(range(first, last + 1))
    for size in sizes:
        if not game.min_players <= size <= game.max_players:
            raise CliInputError(f"--players {size}: {takes}")
    return tuple(sorted(set(sizes)))


def _plan(
    game: Game[Any],
    sizes: tuple[int, ...],
    agents: list[str],
    games: int,
    seed: int,
    base: list[str],
    varies: list[str],
) -> Plan:
    from oakwood.analysis.plan import BASE, Plan, Variant

    cls = type(game)
    base_texts = parse_option_pairs(base)
    base_options = game.options.to_dict()
    changed: list[tuple[str, tuple[Variant, ...]]] = []
    given: dict[str, str] = {}  # each one-option variant's value as written, to combine them into a grid
    for text in varies:
        name, sep, listed = text.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name or not listed.strip():
            raise CliInputError(f"--vary takes OPTION=a,b,…, got {quote(shorten(text))}")
        if name not in base_options:
            raise CliInputError(
                f"--vary {quote(name)}: {game.title} has no such option (see oakwood games {game.name})"
            )
        if name in base_texts:
            raise CliInputError(f"--vary {name} and --option {name}: the base value of a varied option is its default")
        if any(name == done for done, _ in changed):
            raise CliInputError(
                f"--vary {name} is given twice (a grid of an option with itself): list every value in one "
                f"--vary {name}=a,b"
            )
        variants: list[Variant] = []
        for value in (v.strip() for v in listed.split(",")):
            if not value:
                continue
            shown = Path(value[1:]).stem if value.startswith("@") and not value.startswith("@@") else value
            options = cls.options_class.from_strings(
                {**base_texts, **parse_option_pairs([f"{name}={value}"])}
            ).to_dict()
            if options == base_options:
                continue  # the base value itself: the base is always in the comparison
            label = f"{name}={shown}"
            if any(v.options == options for v in variants):
                raise CliInputError(f"--vary {name}: {quote(value)} repeats a value already listed")
            variants.append(Variant(label=label, options=options, option=name, shown=shown))
            given[label] = value
        if not variants:
            raise CliInputError(f"--vary {name}: every value listed is the base value; name at least one other")
        changed.append((name, tuple(variants)))
    combined = _combinations(cls, base_texts, changed, given) if len(changed) > 1 else []
    count = 1 + sum(len(v) for _, v in changed) + len(combined)
    if count > MAX_VARIANTS:
        raise CliInputError(
            f"--vary: {count} variants per table size and bot (the base, each value alone and every combination of "
            f"two options' values), more than {MAX_VARIANTS}: vary fewer options or values at once"
        )
    return Plan(
        game=game.name,
        players=sizes,
        agents=tuple(agents),
        games=games,
        seed=seed,
        base=Variant(label=BASE, options=base_options),
        varies=tuple(changed),
        combined=tuple(combined),
    )


def _combinations(
    cls: Any, base_texts: dict[str, str], changed: list[tuple[str, tuple[Variant, ...]]], texts: dict[str, str]
) -> list[Variant]:
    """Every combination of the values of each pair of varied options, the others at their base: the grids'
    cells beyond the base and the one-option variants (``texts``: each one-option variant's value as given)."""
    from oakwood.analysis.plan import combine

    found: list[Variant] = []
    for (first, a), (second, b) in itertools.combinations(changed, 2):
        for x, y in itertools.product(a, b):
            given = {**base_texts, **parse_option_pairs([f"{first}={texts[x.label]}", f"{second}={texts[y.label]}"])}
            found.append(combine((x, y), cls.options_class.from_strings(given).to_dict()))
    return found


@dataclass(frozen=True)
class Ladder:
    """The skill ladder a run climbs: its levels (weakest first), deals per rung and table sizes."""

    levels: tuple[str, ...]
    deals: int
    sizes: tuple[int, ...]

    def games(self, variants: int) -> int:
        """How many games the ladder plays over ``variants`` variants."""
        return variants * self.deals * (len(self.levels) - 1) * sum(self.sizes)


def _ladder(game: Game[Any], plan: Plan, deals_text: str | None, levels_text: str | None) -> Ladder | None:
    """``--skill-deals`` and ``--skill-levels``: the ladder to climb at every table size of two or more players
    (none: 0 deals, or only solo tables)."""
    from oakwood.analysis.skill import DEFAULT_LEVELS, check_ladder

    deals = (
        max(1, plan.games // GAMES_PER_SKILL_DEAL)
        if deals_text is None
        else values.whole_number("--skill-deals", deals_text, minimum=0, maximum=values.MAX_GAMES)
    )
    levels = (
        DEFAULT_LEVELS
        if levels_text is None
        else tuple(part.strip() for part in levels_text.split(",") if part.strip())
    )
    sizes = tuple(p for p in plan.players if p >= 2)
    if deals == 0 or not sizes:
        return None
    try:
        check_ladder(game.name, plan.base.options, sizes[0], levels, deals)
    except ValueError as exc:
        raise CliInputError(f"--skill-levels {quote(shorten(','.join(levels)))}: {exc}") from None
    for level in levels:
        make_agent(game, level)  # a level that cannot be built here fails now, not after the games
    return Ladder(levels, deals, sizes)


def _margins(texts: list[str], extractor: FeatureExtractor) -> dict[str, float]:
    """``--margin``: the equivalence margin of each kind of measure (``share=0.03``, ``length=2``; a bare number
    is a share margin)."""
    kinds = {"share": "a share", "length": "actions", "score": "points"}
    kinds.update({key: label for key, label in extractor.numbers.items()})
    margins: dict[str, float] = {}
    for text in texts:
        kind, sep, number = text.partition("=")
        kind, number = (kind.strip(), number.strip()) if sep else ("share", kind.strip())
        kind = kind.replace("-", "_")
        if kind not in kinds:
            listed = ", ".join(["share", "length", "score", *extractor.numbers])
            raise CliInputError(f"--margin {quote(shorten(text))}: no kind {quote(kind)}; the kinds are {listed}")
        try:
            value = float(number)
        except ValueError:
            raise CliInputError(f"--margin {quote(shorten(text))}: {quote(shorten(number))} is not a number") from None
        if not (math.isfinite(value) and value > 0):
            raise CliInputError(f"--margin {quote(shorten(text))}: a margin is a number above 0")
        if kind == "share" and value >= 1:
            raise CliInputError(
                f"--margin {quote(shorten(text))}: a share margin is a fraction below 1 (0.03 is 3 points)"
            )
        if kind in margins:
            raise CliInputError(f"--margin {kind} is given twice")
        margins[kind] = value
    return margins


def variant_lines(tree: dict[str, Any]) -> list[str]:
    """The variant tables in short, for the terminal: for each option (and grid) at each table size and agent, each
    variant's seat table and length, and its differences from the base with their 95 % intervals."""
    from oakwood.analysis.findings import difference_text, percent

    lines: list[str] = []
    for section in tree["sections"]:
        players = section["players"]
        for comparison in [*section["variants"], *section.get("grids", [])]:
            table = "solo" if players == 1 else f"{players} players"
            lines.append(f"{comparison['option']} · {table} · {comparison['agent']} (95 % intervals)")
            differences: dict[str, list[str]] = {}
            for row in comparison["comparisons"]:
                if row["measure"] in ("first player's win share", "win rate", "mean length (actions)"):
                    name = "length" if row["kind"] == "length" else row["measure"].replace("win share", "share")
                    differences.setdefault(row["variant"], []).append(f"{name} {difference_text(row)}")
            for row in comparison["rows"]:
                if players == 1:
                    seats = f"wins {percent(row['win_rate']['value'])}"
                else:
                    seats = " / ".join(percent(s["value"]) for s in row["seats"])
                    seats = f"{'by turn order' if row.get('by_order') else 'by seat'} {seats}"
                length = row["length"]
                median = (row.get("length_spread") or {}).get("median", {}).get("value")
                interval = f"[{length['low']:.1f}, {length['high']:.1f}]"
                text = f"  {row['shown']}: {seats}; length {length['value']:.1f} {interval}"
                text += f", median {median:g}" if median is not None else ""
                if row["variant"] in differences:
                    text += f"; against the base: {', '.join(differences[row['variant']])}"
                lines.append(text)
        if section.get("skill"):
            lines.extend(_skill_lines(section["skill"]))
    return lines


def _skill_lines(skill: dict[str, Any]) -> list[str]:
    """A table size's skill ladder in short: each variant's rungs, and their differences from the base."""
    from oakwood.analysis.findings import difference_text, percent

    table = "solo" if skill["players"] == 1 else f"{skill['players']} players"
    lines = [f"skill ladder · {table} · {_count(skill['deals'], 'deal')} (95 % intervals)"]
    differences: dict[str, list[str]] = {}
    for row in skill["comparisons"]:
        differences.setdefault(row["variant"], []).append(difference_text(row))
    for row in skill["rows"]:
        rungs = "; ".join(
            f"{r['stronger']} among {r['weaker']} {percent(r['share'])} [{percent(r['ci95'][0])}, "
            f"{percent(r['ci95'][1])}]"
            for r in row["rungs"]
        )
        text = f"  {row['shown']}: {rungs}"
        if row["variant"] in differences:
            text += f"; against the base: {', '.join(differences[row['variant']])}"
        lines.append(text)
    return lines


def _climb(
    plan: Plan, ladder: Ladder, runner: Backend, progress: Any, lines: CellLines
) -> dict[int, dict[str, SkillLadder]]:
    """Climb the skill ladder of every variant at every table size, on the plan's seed (the same deals for every
    variant); these games are not stored (a ladder plays mixed levels on duplicate deals, not a cell's games)."""
    from oakwood.analysis.skill import skill_ladder

    variants = plan.variants()
    task = progress.add_task("Skill ladder", total=ladder.games(len(variants)))
    lines.restart(len(ladder.sizes) * len(variants))
    climbed: dict[int, dict[str, SkillLadder]] = {}
    for players in ladder.sizes:
        for variant in variants:
            climbed.setdefault(players, {})[variant.label] = skill_ladder(
                plan.game,
                variant.options,
                players,
                levels=ladder.levels,
                deals=ladder.deals,
                seed=plan.seed,
                backend=runner,
                on_progress=functools.partial(progress.advance, task),
            )
            games = ladder.deals * players * (len(ladder.levels) - 1)
            lines.done("climbed the skill ladder of", f"{players}p · {variant.label}", games)
    return climbed


def _extractor(game: Game[Any]) -> FeatureExtractor:
    try:
        import matplotlib  # noqa: F401  (the report's plots)
        import scipy  # noqa: F401  (its tests)
    except ImportError as exc:
        raise CliInputError(
            f"oakwood analyze needs {exc.name}: pip install 'oakwood[analysis]' (make run installs it)"
        ) from None
    from oakwood.analysis.features import extractor_for

    try:
        return extractor_for(game.name)
    except LookupError as exc:
        raise CliInputError(str(exc)) from None


def _run(
    out: Console,
    store: Store,
    plan: Plan,
    runner: Backend,
    workers: int | None,
    extractor: FeatureExtractor,
    target: Path,
    notes: str,
    margins: dict[str, float],
    ladder: Ladder | None,
) -> int:
    """Play what is missing, measure every game, climb the skill ladders, write the report; the exit code."""
    from oakwood.analysis.html import write_report
    from oakwood.analysis.report import build_report
    from oakwood.analysis.runner import locate, measured_games, play_missing

    title = find_game_class(plan.game).title
    cells = plan.cells()
    out.print(
        Text(
            f"{title}: {len(cells)} cells ({', '.join(map(str, plan.players))} players × {', '.join(plan.agents)} × "
            f"{_count(len(plan.variants()), 'variant')}{' in a grid' if plan.combined else ''}) of {plan.games} "
            f"games, seed {plan.seed}",
            style="dim",
        ),
        soft_wrap=True,
    )
    total = len(cells) * plan.games
    try:
        where = [locate(store, plan, cell) for cell in cells]
        missing = sum(len(w.missing) for w in where)
        if missing < total:
            out.print(Text(f"{total - missing} of {total} games are already stored and reused.", style="dim"))
        # a bar on a terminal; piped to a log, where a bar prints nothing, a line each time a cell is done
        lines = CellLines(out, len(where), enabled=not out.is_terminal)
        with progress_bar(out) as progress:
            if missing:
                task = progress.add_task("Playing", total=missing)
                for w in where:
                    play_missing(store, plan, w, runner, lambda n: progress.advance(task, n))
                    lines.done("played", w.cell.label, len(w.missing))
            task = progress.add_task("Measuring", total=total)
            measured = {}
            lines.restart()
            for w in where:
                advance = functools.partial(progress.advance, task)
                measured[w.cell] = measured_games(store, plan, w, workers=workers, on_progress=advance)
                lines.done("measured", w.cell.label, plan.games)
            ladders = _climb(plan, ladder, runner, progress, lines) if ladder is not None else {}
    except SimulationStopped as stop:
        again = "run the same command again to play the rest (nothing stored is played twice)"
        if stop.interrupted:
            out.print(Text(f"Interrupted: every finished game is stored; {again}.", style="yellow"), soft_wrap=True)
            return EXIT_INTERRUPTED
        print_error(f"{stop.reason}; every finished game is stored ({again})")
        return EXIT_FAILURE
    except KeyboardInterrupt:
        out.print(
            Text(
                "Interrupted while measuring: what was measured is stored; run the same command again.", style="yellow"
            ),
            soft_wrap=True,
        )
        return EXIT_INTERRUPTED
    except StoreError as exc:
        print_error(str(exc))
        return EXIT_FAILURE
    finally:
        close = getattr(runner, "close", None)
        if close is not None:
            close()
    tree = build_report(plan, title, measured, extractor, notes=notes, margins=margins, ladders=ladders)
    path = write_report(tree, target)
    # the question asked first: every finding about what was varied and the variant tables in short; then the
    # six most important other findings
    asked = [f for f in tree["findings"] if f["kind"] in ("variant", "grid")]
    others = [f for f in tree["findings"] if f["kind"] not in ("variant", "grid")][:6]
    for finding in asked:
        out.print(Text(f"• {finding['text']}" + (f" [{finding['flag']}]" if finding["flag"] else "")), soft_wrap=True)
    for line in variant_lines(tree):
        out.print(Text(line, style="" if line.startswith(" ") else "bold"), soft_wrap=True)
    for finding in others:
        out.print(Text(f"• {finding['text']}" + (f" [{finding['flag']}]" if finding["flag"] else "")), soft_wrap=True)
    out.print(Text(f"Report: {path} (figures: {target / 'figures.json'})", style="bold"), soft_wrap=True)
    return 0
