"""The report's plots, drawn with matplotlib (no display needed) from the figures tree, as PNG files.

Each plot shows its uncertainty: error bars are the 95 % intervals of the figures, histograms are raw counts.
Colours follow the Okabe–Ito palette, which stays distinct for colour-blind readers.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import matplotlib
from PIL import Image

matplotlib.use("Agg")  # files only: never a window, never a display

import matplotlib.pyplot as plt

from .figures import Json

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
DPI = 96


def _save(figure: Any, path: Path, *, layout: bool = True) -> str:
    """Write the plot as a small PNG: a 64-colour palette (plots are flat colours) makes it a third the size."""
    if layout:
        figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=DPI, format="png")
    plt.close(figure)
    buffer.seek(0)
    with Image.open(buffer) as image:
        # No metadata or version stamp: the same figures give the same bytes.
        image.convert("RGB").quantize(colors=64, dither=Image.Dither.NONE).save(path, optimize=True)
    return path.name


def _err(figures: list[Json]) -> list[list[float]]:
    """Error bar lengths below and above each value (never negative: rounding can put a bound past it)."""
    return [
        [max(0.0, f["value"] - f["low"]) for f in figures],
        [max(0.0, f["high"] - f["value"]) for f in figures],
    ]


def _bars(ax: Any, positions: list[float], shares: list[Json], colour: str, width: float, label: str) -> None:
    values = [s["value"] for s in shares]
    ax.bar(positions, values, width, yerr=_err(shares), capsize=3, color=colour, label=label, ecolor="#333333")


def _percent_axis(ax: Any) -> None:
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))


def wins_plot(section: Json, path: Path) -> str:
    """Win share by place in the turn order (or by seat), one bar group per agent, the equal share dashed."""
    players = section["players"]
    agents = list(section["agents"])
    figure, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / max(1, len(agents))
    by_order = False
    for a, agent in enumerate(agents):
        figures = section["agents"][agent]
        if players == 1:
            _bars(ax, [a], [figures["solo"]["win_rate"]], PALETTE[a % len(PALETTE)], 0.6, agent)
            continue
        table = figures.get("order") or figures["seats"]
        by_order = "order" in figures
        positions = [k + (a - (len(agents) - 1) / 2) * width for k in range(players)]
        _bars(ax, positions, table["shares"], PALETTE[a % len(PALETTE)], width, agent)
    if players == 1:
        ax.set_xticks(range(len(agents)), agents)
        ax.set_ylabel("solo win rate")
        ax.set_title("Solo: win rate (95 % intervals)")
    else:
        ax.axhline(1 / players, color="#555555", linestyle="--", linewidth=1, label="equal share")
        names = [_ordinal(k) for k in range(players)] if by_order else [f"seat {k + 1}" for k in range(players)]
        ax.set_xticks(range(players), names)
        ax.set_ylabel("win share")
        what = "place in the turn order" if by_order else "seat"
        ax.set_title(f"{players} players: win share by {what} (95 % intervals)")
        ax.legend(fontsize=8, loc="upper right")
    _percent_axis(ax)
    return _save(figure, path)


def _ordinal(k: int) -> str:
    return ["1st", "2nd", "3rd", "4th", "5th", "6th"][k] if k < 6 else f"{k + 1}th"


def distribution_plot(section: Json, path: Path, pick: Any, title: str, xlabel: str) -> str:
    """Histograms, one outline per agent, of the distribution ``pick(figures)`` returns."""
    figure, ax = plt.subplots(figsize=(7, 3.0))
    for a, (agent, figures) in enumerate(section["agents"].items()):
        dist = pick(figures)
        if not dist or not dist.get("histogram") or not dist["histogram"]["edges"]:
            continue
        edges, counts = dist["histogram"]["edges"], dist["histogram"]["counts"]
        total = sum(counts) or 1
        ax.stairs([c / total for c in counts], edges, color=PALETTE[a % len(PALETTE)], linewidth=1.6, label=agent)
        ax.axvline(dist["mean"]["value"], color=PALETTE[a % len(PALETTE)], linestyle=":", linewidth=1)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games")
    _percent_axis(ax)
    ax.legend(fontsize=8)
    return _save(figure, path)


def endings_plot(section: Json, labels: dict[str, str], path: Path) -> str:
    """How games end: the share of each ending seen, per agent, with intervals."""
    agents = list(section["agents"])
    seen = {e["key"] for agent in agents for e in section["agents"][agent]["endings"] if e["successes"]}
    keys = [key for key in labels if key in seen]
    lines = sum(_wrap(labels[k], 44).count("\n") + 1 for k in keys)
    figure, ax = plt.subplots(figsize=(8, 1.2 + 0.2 * lines + 0.25 * len(keys) * len(agents)))
    height = 0.8 / max(1, len(agents))
    for a, agent in enumerate(agents):
        rows = {e["key"]: e for e in section["agents"][agent]["endings"]}
        ys = [k + (a - (len(agents) - 1) / 2) * height for k in range(len(keys))]
        values = [rows[key]["value"] for key in keys]
        ax.barh(
            ys,
            values,
            height,
            xerr=_err([rows[key] for key in keys]),
            capsize=3,
            color=PALETTE[a % len(PALETTE)],
            label=agent,
            ecolor="#333333",
        )
    ax.set_yticks(range(len(keys)), [_wrap(labels[k], 44) for k in keys], fontsize=8)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.set_title(f"{_table(section)}: how games end (95 % intervals)")
    ax.legend(fontsize=8)
    return _save(figure, path)


def facts_plot(section: Json, agent: str, path: Path) -> str:
    """Each key fact: the win share of seats with it (filled) against seats without (hollow)."""
    rows = [r for r in section["agents"][agent]["facts"] if r["difference"] is not None]
    lines = sum(_wrap(r["label"], 52).count("\n") + 1 for r in rows)
    figure, ax = plt.subplots(figsize=(8, 1.2 + 0.16 * lines + 0.12 * len(rows)))
    for k, row in enumerate(rows):
        for part, style in (("with", "o"), ("without", "o")):
            s = row[part]
            filled = part == "with"
            colour = PALETTE[5] if row["test"]["significant"] else PALETTE[0]
            ax.errorbar(
                s["value"],
                k,
                xerr=_err([s]),
                fmt=style,
                color=colour,
                markerfacecolor=colour if filled else "white",
                capsize=2,
                markersize=5,
            )
    if section["players"] > 1:
        ax.axvline(1 / section["players"], color="#555555", linestyle="--", linewidth=1)
    ax.set_yticks(range(len(rows)), [_wrap(r["label"], 52) for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    what = "win rate" if section["players"] == 1 else "win share"
    ax.set_title(
        f"{_table(section)}, {agent}: {what} with (●) and without (○) each fact\n"
        "(95 % intervals; orange: significant after correction)",
        fontsize=9,
    )
    return _save(figure, path)


def variants_plot(comparison: Json, endings: dict[str, str], path: Path) -> str:
    """One option's variants: the first player's share (or solo win rate), the mean length, with intervals, and
    how the games ended (stacked shares of each ending seen)."""
    rows = comparison["rows"]
    names = [
        _wrap(" · ".join(part.partition("=")[2] for part in r["variant"].split(" · ")) or "base", 22) for r in rows
    ]
    seen = [key for key in endings if any(r["endings"][key]["successes"] for r in rows)]
    legend_lines = sum(_wrap(endings[k], 60).count("\n") + 1 for k in seen)
    figure, (left, middle, right) = plt.subplots(
        1, 3, figsize=(10, 1.6 + 0.45 * len(rows) + 0.16 * legend_lines), gridspec_kw={"width_ratios": [1, 1, 1.2]}
    )
    key = "win_rate" if comparison["players"] == 1 else "first"
    for ax, measure, title in (
        (left, key, "solo win rate" if key == "win_rate" else "first player's win share"),
        (middle, "length", "mean length (actions)"),
    ):
        picked = [r[measure] for r in rows]
        colours = [PALETTE[0] if i == 0 else PALETTE[1] for i in range(len(rows))]
        ax.barh(
            range(len(rows)),
            [f["value"] for f in picked],
            xerr=_err(picked),
            capsize=3,
            color=colours,
            ecolor="#333333",
        )
        ax.set_yticks(range(len(rows)), names, fontsize=8)
        ax.invert_yaxis()
        ax.set_title(title, fontsize=9)
    if key == "first":
        left.axvline(1 / comparison["players"], color="#555555", linestyle="--", linewidth=1)
    left.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    middle.set_yticks([])
    starts = [0.0] * len(rows)
    for k, ending in enumerate(seen):
        shares = [r["endings"][ending]["value"] for r in rows]
        right.barh(
            range(len(rows)), shares, left=starts, color=PALETTE[k % len(PALETTE)], label=_wrap(endings[ending], 60)
        )
        starts = [a + b for a, b in zip(starts, shares, strict=True)]
    right.set_yticks([])
    right.invert_yaxis()
    right.set_xlim(0, 1)
    right.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    right.set_title("how the games ended", fontsize=9)
    figure.legend(fontsize=7, loc="lower center", ncol=1, frameon=False, handles=right.get_legend_handles_labels()[0])
    table = "solo" if comparison["players"] == 1 else f"{comparison['players']} players"
    figure.suptitle(f"{comparison['option']} · {table} · {comparison['agent']} (95 % intervals)", fontsize=10)
    figure.tight_layout(rect=(0, 0.04 + 0.035 * legend_lines, 1, 1))
    return _save(figure, path, layout=False)


def differences_plot(comparison: Json, path: Path) -> str:
    """Each compared variant against the base: the difference of every place's win share (or the win rate) in
    points and of the mean length in actions, with its 95 % interval; the equivalence margin, when one was given,
    shaded around zero (a bar inside the band and an equivalence test passed: no change larger than it)."""
    panels = [
        ("share", "win share against the base (points)", 100.0),
        ("length", "mean length against the base (actions)", 1.0),
    ]
    rows = [
        r
        for r in comparison["comparisons"]
        if r["kind"] in ("share", "length") and not r["measure"].startswith("ending")
    ]
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    share_rows = [r for r in rows if r["kind"] == "share"]
    height = 1.2 + 0.28 * max(len(share_rows), len(variants))
    figure, axes = plt.subplots(1, 2, figsize=(10, height), gridspec_kw={"width_ratios": [1.4, 1]})
    for ax, (kind, title, scale) in zip(axes, panels, strict=True):
        picked = [r for r in rows if r["kind"] == kind]
        if not picked:
            ax.set_axis_off()
            continue
        values = [r["difference"]["value"] * scale for r in picked]
        bounds = [_finite(r["difference"]) for r in picked]
        lows = [max(0.0, v - low * scale) for v, (low, _) in zip(values, bounds, strict=True)]
        highs = [max(0.0, high * scale - v) for v, (_, high) in zip(values, bounds, strict=True)]
        colours = [PALETTE[1] if r.get("significant") else PALETTE[0] for r in picked]
        ax.errorbar(values, range(len(picked)), xerr=[lows, highs], fmt="none", ecolor="#333333", capsize=3)
        ax.scatter(values, range(len(picked)), color=colours, zorder=3)
        margin = next((r["tost"]["margin"] for r in picked if r.get("tost")), None)
        if margin is not None:
            ax.axvspan(-margin * scale, margin * scale, color="#dddddd", zorder=0, label="equivalence margin")
        ax.axvline(0, color="#555555", linewidth=1)
        names = [
            _wrap(
                _short(r["variant"]) + ": " + r["measure"].removesuffix("'s win share")
                if kind == "share"
                else _short(r["variant"]),
                40,
            )
            for r in picked
        ]
        ax.set_yticks(range(len(picked)), names, fontsize=7)
        ax.invert_yaxis()
        ax.set_title(title, fontsize=9)
    table = "solo" if comparison["players"] == 1 else f"{comparison['players']} players"
    figure.suptitle(
        f"{comparison['option']} · {table} · {comparison['agent']}: differences, game by game (95 % intervals; "
        "orange: significant after correction; grey: the margin)",
        fontsize=9,
    )
    return _save(figure, path)


def _finite(difference: Json) -> tuple[float, float]:
    """A difference's interval, or the value itself at both ends when it has none (a single game)."""
    low, high, value = difference["low"], difference["high"], difference["value"]
    return (value, value) if low is None or low != low or high != high else (low, high)


def _short(label: str) -> str:
    """A variant's values alone: ``split_per_card · every_battle``."""
    return " · ".join(part.partition("=")[2] or part for part in label.split(" · "))


def overview_plot(tree: Json, path: Path) -> str:
    """Across table sizes: the first player's win share against the equal share, and the mean length."""
    sections = [s for s in tree["sections"] if s["players"] > 1]
    figure, (left, right) = plt.subplots(1, 2, figsize=(8, 3.0))
    for a, agent in enumerate(tree["plan"]["agents"]):
        colour = PALETTE[a % len(PALETTE)]
        xs, first, low, high, length, lo2, hi2 = [], [], [], [], [], [], []
        for s in sections:
            figures = s["agents"][agent]
            table = figures.get("order") or figures.get("seats")
            if not table:
                continue
            share = table["shares"][0]
            xs.append(s["players"])
            first.append(share["value"])
            (below,), (above,) = _err([share])
            low.append(below)
            high.append(above)
            m = figures["length"]["actions"]["mean"]
            length.append(m["value"])
            (below,), (above,) = _err([m])
            lo2.append(below)
            hi2.append(above)
        left.errorbar(xs, first, yerr=[low, high], marker="o", capsize=3, color=colour, label=agent)
        right.errorbar(xs, length, yerr=[lo2, hi2], marker="o", capsize=3, color=colour, label=agent)
    xs_all = [s["players"] for s in sections]
    left.plot(xs_all, [1 / p for p in xs_all], linestyle="--", color="#555555", label="equal share")
    left.set_title("first player's win share", fontsize=9)
    left.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    right.set_title("mean length (actions)", fontsize=9)
    for ax in (left, right):
        ax.set_xlabel("players")
        ax.set_xticks(xs_all)
    left.legend(fontsize=8)
    return _save(figure, path)


def _table(section: Json) -> str:
    return "Solo" if section["players"] == 1 else f"{section['players']} players"


def _wrap(text: str, width: int = 34) -> str:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return "\n".join(lines)


def draw_all(tree: Json, out: Path) -> dict[str, list[str]]:
    """Every plot of the report into ``out``; the file names, by section key."""
    labels = tree["labels"]
    drawn: dict[str, list[str]] = {}
    if len([s for s in tree["sections"] if s["players"] > 1]) > 1:
        drawn["overview"] = [overview_plot(tree, out / "overview.png")]
    for section in tree["sections"]:
        p = section["players"]
        names = [wins_plot(section, out / f"wins-{p}p.png")]
        names.append(
            distribution_plot(
                section,
                out / f"scores-{p}p.png",
                lambda f: f["scores"]["all"],
                f"{_table(section)}: final scores",
                "points",
            )
        )
        names.append(
            distribution_plot(
                section,
                out / f"length-{p}p.png",
                lambda f: f["length"]["actions"],
                f"{_table(section)}: game length",
                "actions",
            )
        )
        names.append(endings_plot(section, labels["endings"], out / f"endings-{p}p.png"))
        for agent in section["agents"]:
            if section["agents"][agent].get("facts"):
                names.append(facts_plot(section, agent, out / f"facts-{p}p-{agent}.png"))
        for comparison in [*section["variants"], *section.get("grids", [])]:
            names.append(variants_plot(comparison, labels["endings"], out / comparison["file"]))
            if comparison["comparisons"]:
                names.append(differences_plot(comparison, out / f"differences-{comparison['file']}"))
        drawn[f"{p}"] = names
    return drawn
