"""A tuning study's report: one JSON tree (``tuning.json``), a self-contained HTML page in the analyze
report's style (``report.html``, its plot embedded and beside it as a PNG) and the lines a terminal prints.

Like the analyze report it holds no date: the same study gives the same files.
"""

from __future__ import annotations

import base64
import json
from html import escape
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from oakwood.engine import game_class

from .html import STYLE, _table
from .plots import PALETTE, _save
from .tune import Outcome, Settings

Json = dict[str, Any]


def pct(value: float | None) -> str:
    """A share in percent with one decimal (a tuning target is a matter of points)."""
    return "—" if value is None else f"{value * 100:.1f} %"


def share_text(figure: Json | None) -> str:
    """A share with its 95 % interval."""
    if not figure:
        return "—"
    return f"{pct(figure['value'])} [{pct(figure['low'])}, {pct(figure['high'])}]"


def mean_text(figure: Json) -> str:
    """A mean with its 95 % interval."""
    if figure.get("count", 0) < 2:
        return f"{figure['value']:.1f}"
    return f"{figure['value']:.1f} [{figure['low']:.1f}, {figure['high']:.1f}]"


def changes_text(changed: Json) -> str:
    """The options a setting changes, or that it changes none."""
    return ", ".join(f"{k}={v}" for k, v in changed.items()) or "the rules as they are (no option changed)"


def build_tree(settings: Settings, study: str, outcome: Outcome, *, command: str = "", notes: str = "") -> Json:
    """Every figure of the report as one JSON-ready tree."""
    targets = [
        {
            "text": t.text,
            "kind": t.kind,
            "label": t.label,
            "tolerance": t.tolerance,
            "low": t.low,
            "high": t.high,
            "key": t.key,
        }
        for t in settings.targets
    ]
    recommended = outcome.recommended
    met_all = bool(recommended) and all(recommended["met"]) if recommended else False
    return {
        "title": f"Tuning {game_class(settings.game).title}: {', '.join(t.text for t in settings.targets)}",
        "study": study,
        "command": command,
        "settings": settings.to_json(),
        "sampler": "TPE" if len(settings.targets) == 1 else f"NSGA-II (population {settings.population})",
        "targets": targets,
        "trials": outcome.trials,
        "front": outcome.front,
        "importances": outcome.importances,
        "base": outcome.base,
        "leaders": outcome.leaders,
        "recommended": recommended,
        "neighbours": outcome.neighbours,
        "centre": outcome.centre,
        "verdict": verdict(settings, outcome, met_all),
        "notes": notes,
    }


def verdict(settings: Settings, outcome: Outcome, met_all: bool) -> str:
    """One paragraph: what the study recommends, on fresh deals, or that no setting tried met every target."""
    rec = outcome.recommended
    assert rec is not None
    tried = len(outcome.trials)
    figures = "; ".join(
        f"{t.text}: {v:.2f} ({'met' if m else 'not met'})"
        for t, v, m in zip(settings.targets, rec["values"], rec["met"], strict=True)
    )
    where = f"re-measured on fresh deals ({rec['games']} games a table size)"
    if met_all:
        return f"Recommended: {changes_text(rec['changed'])} — meets every target {where}: {figures}."
    return (
        f"No setting among the {tried} trials met every target {where}. The closest: "
        f"{changes_text(rec['changed'])} — {figures}."
    )


def summary_lines(tree: Json) -> list[str]:
    """What the terminal prints at the end of a run."""
    lines = [tree["verdict"]]
    rec = tree["recommended"]
    base = tree.get("base")
    for size in rec["sizes"]:
        what = "place" if size["by_order"] else "seat"
        places = ", ".join(share_text(s) for s in size["places"])
        line = f"  {size['players']} players, win share by {what}: {places}; length {mean_text(size['length'])}"
        if size["skill"]:
            line += f"; stronger bot {share_text(size['skill'])}"
        lines.append(line)
    if base:
        for size in base["sizes"]:
            places = ", ".join(share_text(s) for s in size["places"])
            line = f"  the rules as they are, {size['players']} players: {places}"
            if size["skill"]:
                line += f"; stronger bot {share_text(size['skill'])}"
            lines.append(line)
    steps = tree["neighbours"]
    if steps:
        kept = sum(1 for n in steps if n.get("met") and all(n["met"]))
        centre = tree.get("centre")
        where = (
            f" (the setting itself on the same {centre['games']} games: "
            + ", ".join(f"{v:.2f}" for v in centre["values"])
            + ")"
            if centre
            else ""
        )
        lines.append(f"  robustness: {kept} of {len(steps)} one-step changes still meet every target{where}")
    for entry in tree["importances"]:
        top = sorted(entry["importances"].items(), key=lambda kv: -kv[1])[:3]
        if top:
            lines.append(
                f"  most important for {entry['target']}: " + ", ".join(f"{name} {value:.2f}" for name, value in top)
            )
    return lines


def _shown_value(target: Json, trial: Json, k: int) -> float:
    """What the plot shows of a trial for a target: the stronger bot's win share for a skill target (its
    shortfall is 0 for most settings, which says little), else the objective."""
    if target["kind"] == "skill" and trial.get("figures"):
        return float(min(size["skill"]["value"] for size in trial["figures"]["sizes"])) * 100
    return float(trial["values"][k])


def _axis(target: Json) -> tuple[str, float]:
    """An axis label and the line where the target is met."""
    if target["kind"] == "skill":
        return f"{target['text']}: stronger bot's win share (%)", target["low"]
    return f"{target['text']}: {target['label']}", target["tolerance"]


def _trials_plot(tree: Json, path: Path) -> str:
    """Each trial: the first two targets against each other (the front marked), or the one target by trial."""
    figure, ax = plt.subplots(figsize=(7.5, 4.2))
    trials = tree["trials"]
    front = set(tree["front"])
    targets = tree["targets"]
    if len(targets) >= 2:
        xs = [_shown_value(targets[0], t, 0) for t in trials]
        ys = [_shown_value(targets[1], t, 1) for t in trials]
        ax.scatter(xs, ys, s=18, color=PALETTE[0], label="trial")
        marked = [i for i, t in enumerate(trials) if t["number"] in front]
        ax.scatter(
            [xs[i] for i in marked],
            [ys[i] for i in marked],
            s=60,
            facecolors="none",
            edgecolors=PALETTE[5],
            label="Pareto front",
        )
        (xlabel, xline), (ylabel, yline) = _axis(targets[0]), _axis(targets[1])
        ax.axvline(xline, color="#999999", linestyle="--", linewidth=0.8)
        ax.axhline(yline, color="#999999", linestyle="--", linewidth=0.8)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.legend(frameon=False)
    else:
        label, line = _axis(targets[0])
        ax.scatter([t["number"] for t in trials], [_shown_value(targets[0], t, 0) for t in trials], s=18)
        ax.axhline(line, color="#999999", linestyle="--", linewidth=0.8)
        ax.set_xlabel("trial")
        ax.set_ylabel(label)
    ax.set_title("Every trial (dashed: where a target is met)")
    return _save(figure, path)


def _sizes_table(setting: Json, keys: list[str]) -> str:
    """A setting's figures at each table size; ``keys``: the measured numbers a target names (a column each)."""
    rows = []
    for size in setting["sizes"]:
        rows.append(
            [
                str(size["players"]),
                " · ".join(share_text(s) for s in size["places"]),
                "turn order" if size["by_order"] else "seat",
                mean_text(size["length"]),
                *(mean_text(size["numbers"][key]) for key in keys),
                share_text(size["skill"]),
            ]
        )
    head = ["Players", "Win share by place [95 %]", "Place by", "Length, actions [95 %]"]
    return _table([*head, *(f"Mean {key} [95 %]" for key in keys), "Stronger bot [95 %]"], rows)


def _values_cells(tree: Json, values: list[float], met: list[bool]) -> list[str]:
    return [f"{v:.2f}{'' if m else ' ✗'}" for v, m in zip(values, met, strict=True)]


def write_report(tree: Json, out: Path) -> Path:
    """Write ``tuning.json``, the plot and ``report.html`` into ``out``; the HTML's path."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "tuning.json").write_text(json.dumps(tree, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    plot = _trials_plot(tree, out / "trials.png")
    heads = [f"{t['text']}" for t in tree["targets"]]
    settings = tree["settings"]
    parts = [
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(tree['title'])}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{escape(tree['title'])}</h1>",
        f"<p class='meta'>Study <code>{escape(tree['study'])}</code> in the project's database · "
        f"{len(tree['trials'])} trials by {escape(tree['sampler'])} · table sizes "
        f"{', '.join(map(str, settings['players']))} · {settings['games']} games per table size and trial "
        f"({escape(settings['agent'])} at every seat"
        + (
            f"; {settings['skill_games']} mixed games: one {escape(settings['agent'])} against "
            f"{escape(settings['weak'])}"
            if any(t["kind"] == "skill" for t in tree["targets"])
            else ""
        )
        + f") · seed {escape(settings['seed'])}</p>",
    ]
    if tree["command"]:
        parts.append(f"<p class='meta'>Made by <code>{escape(tree['command'])}</code></p>")
    parts.append("<h2>Targets</h2><ul>")
    for t in tree["targets"]:
        tolerance = f" (met at ≤ {t['tolerance']:g})" if t["tolerance"] else " (met at 0)"
        parts.append(f"<li><code>{escape(t['text'])}</code>: {escape(t['label'])}{tolerance}</li>")
    parts.append("</ul><h2>Verdict</h2>")
    parts.append(f"<p><strong>{escape(tree['verdict'])}</strong></p>")
    if tree["notes"]:
        parts.append("<h2>The designer's notes</h2>")
        parts.extend(f"<p>{escape(p.strip())}</p>" for p in tree["notes"].split("\n\n") if p.strip())
    rec = tree["recommended"]
    parts.append(
        f"<h2>The recommended setting, on fresh deals</h2><p>{escape(changes_text(rec['changed']))} (trial "
        f"{rec['trial']}), {rec['games']} games a table size on deals no trial played.</p>"
    )
    keys = [t["key"] for t in tree["targets"] if t["kind"] == "number"]
    parts.append(_sizes_table(rec, keys))
    parts.append(
        _table(
            ["Target", "Objective", "Met"],
            [
                [escape(t["text"]), f"{v:.2f}", "yes" if m else "no"]
                for t, v, m in zip(tree["targets"], rec["values"], rec["met"], strict=True)
            ],
        )
    )
    if tree.get("base"):
        parts.append("<h3>The rules as they are, on the same fresh deals</h3>")
        parts.append(_sizes_table(tree["base"], keys))
        parts.append(
            "<p class='note'>"
            + escape(
                "; ".join(f"{t['text']}: {v:.2f}" for t, v in zip(tree["targets"], tree["base"]["values"], strict=True))
            )
            + "</p>"
        )
    parts.append("<h2>The leaders, re-measured</h2>")
    parts.append(
        "<p class='note'>The best trials by their trial figures, each played again on fresh deals with more games: "
        "the best of many noisy trials is flattered by its luck, and the fresh figure is the one to trust.</p>"
    )
    rows = [
        [
            str(x["trial"]),
            escape(changes_text(x["changed"])),
            *(f"{v:.2f}" for v in x["trial_values"]),
            *_values_cells(tree, x["values"], x["met"]),
        ]
        for x in tree["leaders"]
    ]
    parts.append(_table(["Trial", "Changes", *(f"{h} (trial)" for h in heads), *(f"{h} (fresh)" for h in heads)], rows))
    if tree["neighbours"]:
        parts.append("<h2>Robustness: every one-step change of the recommended setting</h2>")
        parts.append(
            "<p class='note'>Each searched option moved one notch (as TAG's NTBEA reports a setting's neighbourhood), "
            f"measured on the same fresh deals ({settings['games']} games a table size). ✗: the target is missed.</p>"
        )
        rows = []
        centre = tree.get("centre")
        if centre:
            places = " / ".join(" · ".join(pct(s["value"]) for s in size["places"]) for size in centre["sizes"])
            rows.append(
                [
                    "<strong>the recommended setting</strong>",
                    places,
                    *_values_cells(tree, centre["values"], centre["met"]),
                ]
            )
        for n in tree["neighbours"]:
            if "refused" in n:
                rows.append([escape(f"{n['param']} → {n['value']}"), escape(n["refused"]), *([""] * (len(heads)))])
                continue
            places = " / ".join(" · ".join(pct(s["value"]) for s in size["places"]) for size in n["sizes"])
            rows.append([escape(f"{n['param']} → {n['value']}"), places, *_values_cells(tree, n["values"], n["met"])])
        parts.append(_table(["One step", "Win share by place", *heads], rows))
    parts.append("<h2>Each option's importance</h2>")
    for entry in tree["importances"]:
        parts.append(
            f"<h3>{escape(entry['target'])}</h3><p class='note'>{escape(entry['evaluator'])}"
            + (f" — {escape(entry['note'])}" if entry.get("note") else "")
            + "</p>"
        )
        if entry["importances"]:
            ranked = sorted(entry["importances"].items(), key=lambda kv: (-kv[1], kv[0]))
            parts.append(_table(["Option", "Importance"], [[escape(k), f"{v:.3f}"] for k, v in ranked]))
    title = "The Pareto front" if len(heads) > 1 else "The best trial"
    parts.append(f"<h2>{title}</h2>")
    data = base64.b64encode((out / plot).read_bytes()).decode("ascii")
    parts.append(f'<img src="data:image/png;base64,{data}" alt="trials" data-file="{escape(plot)}">')
    by_number = {t["number"]: t for t in tree["trials"]}
    rows = [
        [
            str(n),
            escape(changes_text(by_number[n]["changed"])),
            *_values_cells(tree, by_number[n]["values"], by_number[n]["met"]),
        ]
        for n in tree["front"]
    ]
    parts.append(_table(["Trial", "Changes", *heads], rows))
    parts.append("<h2>Every trial</h2>")
    parts.append(
        "<p class='note'>Trial 0 is the rules as they are. Every trial plays the same seeded deals (common random "
        "numbers), so two trials differ by their rules, not their cards.</p>"
    )
    rows = [
        [str(t["number"]), escape(changes_text(t["changed"])), *_values_cells(tree, t["values"], t["met"])]
        for t in tree["trials"]
    ]
    parts.append(_table(["Trial", "Changes", *heads], rows))
    parts.append("</body></html>\n")
    path = out / "report.html"
    path.write_text("".join(parts), encoding="utf-8")
    return path
