"""Rich renderables of the non-play commands: a game's options (``rules``) and a simulation summary."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from oakwood.agents.levels import LEVELS, level_bot, level_settings, measured_strength
from oakwood.arena.stats import EntrySummary
from oakwood.arena.tournament import Standing
from oakwood.engine import Game, Options
from oakwood.engine.options import OptionInfo


def show_value(value: Any) -> str:
    """An option value as it is typed on the command line (``true``, ``5``, ``0.5``, ``after_score``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return f"{value:g}"
    return str(value)


def allowed_values(info: OptionInfo) -> str:
    """What an option accepts: its choices, ``true | false``, a range ``1…1000``, or its type."""
    if info.choices is not None:
        return " | ".join(show_value(c) for c in info.choices)
    if isinstance(info.default, bool):
        return "true | false"
    if info.minimum is not None or info.maximum is not None:
        low = "" if info.minimum is None else show_value(info.minimum)
        high = "" if info.maximum is None else show_value(info.maximum)
        return f"{low}…{high}"
    return "text" if isinstance(info.default, str) else type(info.default).__name__


def options_view(title: str, options_class: type[Options]) -> RenderableType:
    """One block per option — name and ruling, then default and allowed values, then the help — so that
    it wraps at any width, 80 columns included, instead of cutting values short as a table of five
    columns must."""
    blocks: list[RenderableType] = [Rule(Text(f"{title} options (set with --option name=value)", style="bold"))]
    for info in options_class.describe():
        heading = Text(info.name, style="bold cyan")
        if info.ruling:
            heading.append(f"  ({info.ruling})", style="dim")
        facts = Text()
        facts.append("default ", style="dim")
        facts.append(show_value(info.default) if info.default != "" else '""', style="bold")
        facts.append("  ·  allowed ", style="dim")
        facts.append(allowed_values(info))
        body: list[RenderableType] = [facts]
        if info.help:
            body.append(Text(info.help))
        blocks.append(heading)
        blocks.append(Padding(Group(*body), (0, 0, 1, 4)))
    return Group(*blocks)


def summary_table(title: str, caption: str, rows: Sequence[EntrySummary], *, per_agent: bool) -> Table:
    """The simulation result: one row per seat (or per agent when seats rotate)."""
    table = Table(title=title, caption=caption, box=box.ROUNDED, title_style="bold")
    table.add_column("Agent" if per_agent else "Seat", style="bold cyan")
    table.add_column("Games", justify="right")
    table.add_column("Win rate", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("Avg score", justify="right")
    for row in rows:
        table.add_row(
            row.label,
            str(row.games),
            f"{100 * row.win_rate:.1f}%",
            f"{100 * row.ci_low:.1f}–{100 * row.ci_high:.1f}%",
            f"{row.mean_score:.2f}",
        )
    return table


def tournament_table(title: str, caption: str, standings: Sequence[Standing]) -> Table:
    """The arena's final table: per agent, games, win share with its 95% interval, average score, rating."""
    # No vertical rules: seven columns then fit in 80 characters without folding a header.
    table = Table(
        title=title, caption=caption, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_style="bold"
    )
    table.add_column("Agent", style="bold cyan", no_wrap=True)
    table.add_column("Games", justify="right")
    table.add_column("Win share", justify="right", no_wrap=True)
    table.add_column("95% CI", justify="right", no_wrap=True)
    table.add_column("Avg score", justify="right", no_wrap=True)
    table.add_column("Rating μ ± σ", justify="right", no_wrap=True)
    table.add_column("Ordinal", justify="right")
    for standing in standings:
        row, rating = standing.summary, standing.rating
        table.add_row(
            row.label,
            str(row.games),
            f"{100 * row.win_rate:.1f}%",
            f"{100 * row.ci_low:.1f}–{100 * row.ci_high:.1f}%",
            f"{row.mean_score:.2f}",
            f"{rating.mu:.2f} ± {rating.sigma:.2f}",
            f"{rating.ordinal:.2f}",
        )
    return table


def levels_table(games: Sequence[type[Game[Any]]]) -> Table:
    """Each game's difficulty levels: the bot behind each, its budget and its measured strength."""
    measured = measured_strength()
    table = Table(title="Difficulty levels (seat names in play and arena)", box=box.ROUNDED, title_style="bold")
    table.add_column("Game", style="bold cyan")
    table.add_column("Level")
    table.add_column("Plays as")
    table.add_column("Measured: win share [95 % interval]", overflow="fold")
    for cls in games:
        cases = [figures for figures in measured.values() if figures["game"] == cls.name]
        for level in LEVELS:
            settings = level_settings(cls, level)
            plays = level_bot(cls, level)
            if settings:
                guide = f" guided by {cls.search_guide}" if cls.search_guide in cls.agents else ""
                plays += f"{guide}, {settings['iterations']} iterations"
            if level in ("hard", "expert") and not settings:
                plays += " (search not yet stronger)"
            lines = [
                line
                for figures in cases
                for make_line in (strength_line, sequential_line, pimc_line)
                if (line := make_line(figures, level))
            ]
            shown = "\n".join(lines) if lines else "[dim]not measured[/dim]"
            table.add_row(cls.name if level == LEVELS[0] else "", level, plays, shown)
        table.add_section()
    if measured:
        table.caption = (
            "one seat of the level against the level named, seats rotating (on duplicate deals, each dealt once "
            "per seating, where deals are shown); benchmarks/strength.py"
        )
    return table


def share_text(result: dict[str, Any]) -> str:
    """A measured win share with its 95 % interval in whole percents, rounded outward: 0.495 shows as 49 %,
    never as an edge it does not have."""
    low, high = result["ci95"]
    low_pct, high_pct = math.floor(round(low * 100, 6)), math.ceil(round(high * 100, 6))
    return f"{result['win_share']:.0%} [{low_pct}%–{high_pct}%]"


def gain_text(gain: dict[str, Any], over: str, unit: str = "") -> str:
    """A mean score gain over another bot on the same deals, with its 95 % interval (and its ``unit``)."""
    return f"{gain['mean']:+.1f} [{gain['ci95'][0]:+.1f}, {gain['ci95'][1]:+.1f}]{unit} over {over}"


def played_text(result: dict[str, Any]) -> str:
    """The games a result was measured over (and their deals, where duplicate)."""
    return f"{result['games']} games" + (f" of {result['deals']} deals" if "deals" in result else "")


def stale_text(result: dict[str, Any]) -> str:
    """Where the bots no longer play as they did when ``result`` was measured (``strength.py --check`` marks it),
    a note saying so; otherwise nothing."""
    stale = result.get("stale")
    return "" if stale is None else f"; stale: its bots play otherwise now (found at {stale['since']})"


def strength_line(figures: dict[str, Any], level: str) -> str:
    """One level's measured result in one setting (and its time per move), or nothing."""
    result = figures["levels"].get(level)
    if result is None:
        return ""
    share = share_text(result)
    if result["opponent"] is None:
        text = f"{figures['settings']}: wins {share}, mean score {result['mean_score']:.1f}"
        gain = result.get("over_medium", {}).get("score")
        if gain:  # measured on the same deals as medium
            text += f" ({gain_text(gain, 'medium')})"
    else:
        text = f"{figures['settings']}: {share} vs {result['opponent']}"
    timing = figures.get("time", {})
    seconds = timing.get(f"{level}_seconds_per_move")
    played, stale = played_text(result), stale_text(result)
    if seconds is None:
        return f"{text} ({played}{stale})"
    form = f" {timing['form']}" if "form" in timing else ""  # compiled searches about twice as fast as pure
    return f"{text} ({played}, {seconds:.2f} s a move{form}{stale})"


def pimc_line(figures: dict[str, Any], level: str) -> str:
    """One level's result against time-matched PIMC in one setting (issue 37's baseline: random playouts, the
    same seconds a move), with the sequential test that decided it where one did; or nothing."""
    result = figures.get("against_pimc", {}).get(level)
    if result is None:
        return ""
    return tested_line(figures, result, "pimc", f"pimc, both {result['seconds_a_move']:g} s a move {result['form']}")


def sequential_line(figures: dict[str, Any], level: str) -> str:
    """One level's comparison with its own opponent decided by a sequential test in one setting (beside its fixed
    sample: a test that stops early decides a goal but overstates the gain it stops on), or nothing."""
    result = figures.get("sequential", {}).get(level)
    if result is None:
        return ""
    return tested_line(figures, result, result["opponent"], result["opponent"])  # budgets, not seconds: any form


def tested_line(figures: dict[str, Any], result: dict[str, Any], opponent: str, against: str) -> str:
    """A result against ``opponent`` (described as ``against``): the win share (alone: the mean score and its gain
    over the opponent on the same deals), the games, and the sequential test's verdict where one decided it."""
    gain = result.get(f"over_{opponent}", {}).get("score")
    if gain:  # alone: the score gain over the other bot on the same deals
        text = f"{figures['settings']}: mean score {result['mean_score']:.1f}, {gain_text(gain, against, ' points')}"
    else:
        text = f"{figures['settings']}: {share_text(result)} vs {against}"
    test = result.get("sprt")
    verdict = ""
    if test is not None:
        outcome = {"H1": f"H1 ({test['h1']:g}) accepted", "H0": f"H0 ({test['h0']:g}) accepted"}.get(
            test["outcome"], "undecided"
        )
        verdict = f"; SPRT {test['h0']:g}/{test['h1']:g}: {outcome}"
    return f"{text} ({played_text(result)}{verdict}{stale_text(result)})"
