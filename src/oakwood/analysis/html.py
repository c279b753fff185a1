"""The report as one self-contained HTML page (plots embedded, no script, no outside resource) beside its
PNG files and ``figures.json``. It holds no date: the same seeds give the same files."""

from __future__ import annotations

import base64
import json
from html import escape
from pathlib import Path
from typing import Any

from .figures import Json
from .findings import amount, difference_text, measured, percent, signed
from .plots import draw_all
from .statistics import p_is, p_text

STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:62rem;margin:2rem auto;padding:0 1rem;color:#1d2a1d;
background:#fbfaf5}
h1{font-size:1.7rem;margin-bottom:.2rem}h2{margin-top:2.5rem;border-bottom:2px solid #8a6d3b;padding-bottom:.2rem}
h3{margin-top:1.6rem}.meta{color:#555}.findings li{margin:.35rem 0}.flag{background:#fde2b8;border-radius:4px;
padding:0 .35rem;font-size:.85em;margin-left:.3rem}.sig{color:#a33c00;font-weight:600}table{border-collapse:collapse;
margin:.6rem 0;font-size:.9rem}th,td{border-bottom:1px solid #d9d3c3;padding:.2rem .6rem;text-align:right}
th:first-child,td:first-child{text-align:left}th{background:#efe9da}img{max-width:100%;height:auto;display:block;
margin:.8rem 0}.note{font-size:.85rem;color:#555}.nw{white-space:nowrap}
td:first-child{min-width:11rem}
"""


#: Findings listed at the top besides those about what was varied (always all listed); the rest fold under
#: "more findings".
SHOWN_FINDINGS = 12


def _img(out: Path, name: str, alt: str) -> str:
    data = base64.b64encode((out / name).read_bytes()).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{escape(alt)}" data-file="{escape(name)}">'


def _table(head: list[str], rows: list[list[Any]]) -> str:
    header = "".join(f"<th>{escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"


def _p(test: Json) -> str:
    shown = escape(p_text(test["p_adjusted"]))
    return f'<span class="sig">{shown}</span>' if test["significant"] else shown


def _interval(figure: Json) -> str:
    return f'<span class="nw">{percent(figure["value"])} [{percent(figure["low"])}, {percent(figure["high"])}]</span>'


def _mean(figure: Json | None) -> str:
    if not figure or figure.get("value") is None:
        return "—"
    return (
        f"{figure['value']:.1f} [{figure['low']:.1f}, {figure['high']:.1f}]"
        if figure["count"] > 1
        else f"{figure['value']:.1f}"
    )


def _agent_tables(section: Json, agent: str, figures: Json) -> str:
    players = section["players"]
    parts = [f"<h3>{escape(agent)} at every seat · {figures['games']} games</h3>"]
    if players > 1:
        table = figures.get("order") or figures["seats"]
        what = "Place in the turn order" if "order" in figures else "Seat"
        rows = [[str(k + 1), _interval(s)] for k, s in enumerate(table["shares"])]
        parts.append(_table([what, "Win share [95 %]"], rows))
        parts.append(
            f'<p class="note">Equal share {percent(1 / players)}; {escape(table["test"]["name"])}: adjusted p = '
            f"{_p(table['test'])}.</p>"
        )
    else:
        parts.append(f"<p>Win rate {_interval(figures['solo']['win_rate'])}.</p>")
    scores = figures["scores"]
    rows = [[f"seat {k + 1}", _mean(m)] for k, m in enumerate(scores["per_seat"])]
    parts.append(_table(["Final score", "Mean [95 %]"], rows))
    length = figures["length"]["actions"]
    rows = [["actions", _mean(length["mean"]), f"{length['median']:g}", f"{length['p10']:g}–{length['p90']:g}"]]
    for number in figures["numbers"].values():
        if number.get("mean") and (number["p10"], number["median"], number["p90"]) != (0, 0, 0):
            rows.append(
                [
                    escape(number["label"]),
                    _mean(number["mean"]),
                    f"{number['median']:g}",
                    f"{number['p10']:g}–{number['p90']:g}",
                ]
            )
    parts.append(_table(["Length and measures", "Mean [95 %]", "Median", "10–90 %"], rows))
    # Endings never seen, measures that are always 0 and facts that every seat or no seat had say nothing here;
    # figures.json keeps them all, and the findings name the facts never seen.
    seen = [e for e in figures["endings"] if e["successes"]]
    rows = [[escape(e["label"]), str(int(e["successes"])), _interval(e)] for e in seen]
    parts.append(_table(["How the game ended", "Games", "Share [95 %]"], rows))
    facts = [r for r in figures.get("facts") or [] if r["difference"] is not None]
    if facts:
        rows = [
            [
                escape(r["label"]),
                percent(r["frequency"]["value"]),
                _interval(r["with"]) if r["with"]["trials"] else "—",
                _interval(r["without"]) if r["without"]["trials"] else "—",
                "—" if r["difference"] is None else f"{r['difference'] * 100:+.1f} pt",
                _p(r["test"]),
            ]
            for r in facts
        ]
        who = "Games in which the player…" if players == 1 else "Seats that…"
        parts.append(
            _table([who, "How often", "Win with [95 %]", "Win without [95 %]", "Difference", "Adjusted p"], rows)
        )
    return "\n".join(parts)


def _variant_tables(comparison: Json) -> str:
    """A comparison's tables: each variant's whole seat table, its length and how its games ended, each with
    95 % intervals; then each measure's difference from the base with its interval, test and equivalence test;
    the differences of the length's spread; and a grid's interactions."""
    rows_in = comparison["rows"]
    players = comparison["players"]
    parts = []
    if players > 1:
        what = "place in the turn order" if all(r.get("by_order") for r in rows_in) else "seat"
        head = ["Variant", "Games"] + [
            f"{k + 1}{_suffix(k + 1)}" if what != "seat" else f"Seat {k + 1}" for k in range(players)
        ]
        rows = [[escape(r["shown"]), str(r["games"]), *(_interval(s) for s in r["seats"])] for r in rows_in]
        parts.append(f'<p class="note">Win share by {what} [95 %]; an equal share is {percent(1 / players)}.</p>')
    else:
        head = ["Variant", "Games", "Win rate [95 %]"]
        rows = [[escape(r["shown"]), str(r["games"]), _interval(r["win_rate"])] for r in rows_in]
    parts.append(_table(head, rows))
    rows = []
    for r in rows_in:
        spread = r.get("length_spread") or {}
        if not spread:
            continue
        quantiles = " / ".join(f"{spread[k]:.3g}" for k in ("p10", "p25", "p75", "p90"))
        rows.append(
            [
                escape(r["shown"]),
                _nw(_mean(r["length"])),
                _nw(_bounds(spread["median"])),
                _nw(_bounds(spread["sd"])),
                _nw(_bounds(spread["iqr"])),
                _nw(quantiles),
            ]
        )
    parts.append(
        _table(
            ["Length (actions)", "Mean [95 %]", "Median [95 %]", "SD [95 %]", "IQR [95 %]", "10 / 25 / 75 / 90 %"], rows
        )
    )
    seen = [k for k in rows_in[0]["endings"] if any(r["endings"][k]["successes"] for r in rows_in)]
    if seen:
        labels = {k: k for k in seen} | comparison.get("ending_labels", {})
        rows = [[escape(labels[k])] + [_interval(r["endings"][k]) for r in rows_in] for k in seen]
        parts.append(_table(["How the game ended", *(escape(r["shown"]) for r in rows_in)], rows))
    parts.append(_differences_table(comparison["comparisons"]))
    if comparison.get("length_spread"):
        rows = [
            [escape(_values(r["variant"])), *(_nw(_bounds(r[k], signed=True)) for k in ("median", "sd", "iqr"))]
            for r in comparison["length_spread"]
        ]
        parts.append(_table(["Length against the base", "Median [95 %]", "SD [95 %]", "IQR [95 %]"], rows))
    if comparison.get("interactions"):
        rows = [
            [
                _nw(_values(r["variant"])),
                escape(r["measure"]),
                escape(signed(r, r["alone_a"])),
                escape(signed(r, r["alone_b"])),
                escape(signed(r, r["together"])),
                _nw(difference_text({**r, "difference": r["interaction"]})),
                _p(r),
            ]
            for r in comparison["interactions"]
        ]
        first, second = comparison["options"]
        parts.append(
            _table(
                [
                    "Combination",
                    "Measure",
                    f"{first} alone",
                    f"{second} alone",
                    "Together",
                    "Interaction [95 %]",
                    "Adjusted p",
                ],
                rows,
            )
        )
    paired = "paired game by game (same deals)" if comparison.get("paired") else "Welch (the games do not pair up)"
    parts.append(
        f'<p class="note">Differences are variant minus base, {paired}; the spread\'s intervals are a paired '
        "bootstrap. Each interval is 95 % for its own comparison; significance (bold p) is decided after the "
        "correction. Equivalence: the TOST p-value against the margin (bold: no change larger than the margin shown); "
        "— where no margin was given.</p>"
    )
    return "\n".join(parts)


def _differences_table(comparisons: list[Json]) -> str:
    """Each compared measure of each variant: base and variant values, the difference with its interval, the
    adjusted p-value and the equivalence test."""
    rows = [
        [
            escape(r["measure"]),
            _nw(_values(r["variant"])),
            measured(r, r["base"]),
            measured(r, r["value"]),
            _nw(difference_text(r)),
            _p(r),
            _equivalence(r),
        ]
        for r in comparisons
    ]
    head = ["Measure", "Variant", "Base", "Variant value", "Difference [95 %]", "Adjusted p", "Equivalence"]
    return _table(head, rows)


def _skill_tables(skill: Json) -> str:
    """The skill ladder of a table size: each variant's rungs with their intervals, then each variant's rungs
    against the base's (paired deal by deal)."""
    first = skill["rows"][0]["rungs"]
    bots = skill["bots"]
    head = ["Variant", *(f"{r['stronger']} among {r['weaker']} [95 %]" for r in first)]
    rows = [
        [
            escape(row["shown"]),
            *(_interval({"value": r["share"], "low": r["ci95"][0], "high": r["ci95"][1]}) for r in row["rungs"]),
        ]
        for row in skill["rows"]
    ]
    levels = ", ".join(f"{escape(level)} = {escape(bot)}" for level, bot in bots.items())
    parts = [
        f"<h3>Skill ladder ({skill['players']} players)</h3>",
        f'<p class="note">One seat of the stronger level among the weaker ({levels}), every seat in turn on the '
        f"same {skill['deals']} deals for every variant (seed {skill['seed']}); a fair share is "
        f"{percent(1 / skill['players'])}. A variant that brings a rung closer to the fair share makes skill count "
        "for less: the game is more random.</p>",
        _table(head, rows),
    ]
    if skill["comparisons"]:
        parts.append(_differences_table(skill["comparisons"]))
    return "\n".join(parts)


def _values(label: str) -> str:
    """A variant's changed values alone (``split_per_card · every_battle``): its options head the table."""
    return " · ".join(part.partition("=")[2] or part for part in label.split(" · "))


def _nw(text: str) -> str:
    """A figure with its interval, kept on one line."""
    return f'<span class="nw">{escape(text)}</span>'


def _suffix(n: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")


def _bounds(figure: Json, *, signed: bool = False) -> str:
    form = "+.1f" if signed else ".1f"
    return f"{figure['value']:{form}} [{figure['low']:{form}}, {figure['high']:{form}}]".replace("-", "−")


def _equivalence(row: Json) -> str:
    test = row.get("tost")
    if not test:
        return "—"
    shown = f"±{escape(amount(row, test['margin']))}: {escape(p_is(test['p_adjusted']))}"
    return f'<span class="sig">{shown}</span>' if test["equivalent"] else shown


def write_report(tree: Json, out: Path) -> Path:
    """Write ``report.html``, its PNG plots and ``figures.json`` into ``out``; the report's path."""
    out.mkdir(parents=True, exist_ok=True)
    drawn = draw_all(tree, out)
    (out / "figures.json").write_text(json.dumps(tree, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    plan = tree["plan"]
    title = f"{tree['title']}: balance report"
    findings = []
    for f in tree["findings"]:
        flag = f' <span class="flag">{escape(f["flag"])}</span>' if f["flag"] else ""
        findings.append(f"<li>{escape(f['text'])}{flag}</li>")
    shown = SHOWN_FINDINGS + sum(f["kind"] in ("variant", "grid") for f in tree["findings"])
    more = findings[shown:]
    varies = "; ".join(f"{escape(k)}: {escape(', '.join(v))}" for k, v in plan["varies"].items()) or "none"
    if plan.get("grid"):
        varies += " (every pair of options also combined: a grid)"
    margins = plan.get("margins") or {}
    varies += " · equivalence margins: " + (", ".join(f"{escape(k)} ± {v:g}" for k, v in margins.items()) or "none")
    body = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">{plan["games"]} games per cell · players {", ".join(map(str, plan["players"]))} · '
        f"every seat played by {escape(', '.join(plan['agents']))} · seed {plan['seed']} · variants: {varies} · "
        f"Oakwood {escape(tree['oakwood'])}, measures {escape(tree['measures'])}</p>",
        "<h2>Findings</h2>",
        f'<ul class="findings">{"".join(findings[:shown])}</ul>',
    ]
    if more:
        body.append(
            f'<details><summary>{len(more)} more findings</summary><ul class="findings">{"".join(more)}</ul></details>'
        )
    if tree.get("notes"):
        body.append("<h2>Notes</h2>")
        body.extend(f"<p>{escape(' '.join(part.split()))}</p>" for part in tree["notes"].split("\n\n") if part.strip())
    if "overview" in drawn:
        body.append(_img(out, drawn["overview"][0], "first player's win share and game length by table size"))
    for section in tree["sections"]:
        players = section["players"]
        body.append(f"<h2>{'Solo' if players == 1 else f'{players} players'}</h2>")
        for name in drawn[str(players)]:
            if not name.startswith(("facts-", "variants-", "grid-", "differences-")):
                body.append(_img(out, name, name.removesuffix(".png").replace("-", " ")))
        for agent, figures in section["agents"].items():
            if figures.get("games"):
                body.append(_agent_tables(section, agent, figures))
                facts = f"facts-{players}p-{agent}.png"
                if facts in drawn[str(players)]:
                    body.append(_img(out, facts, f"win share with and without each fact, {agent}"))
        for comparison in section["variants"]:
            body.append(f"<h3>Variants of {escape(comparison['option'])} · {escape(comparison['agent'])}</h3>")
            body.append(_img(out, comparison["file"], "variants"))
            if comparison["comparisons"]:
                body.append(_img(out, f"differences-{comparison['file']}", "differences from the base"))
            body.append(_variant_tables({**comparison, "ending_labels": tree["labels"]["endings"]}))
        for grid in section.get("grids", []):
            body.append(f"<h3>Grid of {escape(grid['option'])} · {escape(grid['agent'])}</h3>")
            body.append(_img(out, grid["file"], "grid"))
            if grid["comparisons"]:
                body.append(_img(out, f"differences-{grid['file']}", "differences from the base"))
            body.append(_variant_tables({**grid, "ending_labels": tree["labels"]["endings"]}))
        if section.get("skill"):
            body.append(_skill_tables(section["skill"]))
    stats = tree["statistics"]
    body.append("<h2>Method</h2>")
    body.append(
        '<p class="note">Win shares count a shared win as a fraction (the shares of a table add up to one) and carry '
        "95 % Wilson intervals; means carry 95 % Student-t intervals; a length's median, standard deviation and "
        "interquartile range carry 95 % percentile bootstrap intervals. Within a cell, shares are compared with a "
        "two-proportion z-test and a table of shares with a chi-square goodness-of-fit test against equal shares. "
        "Variants are played on the same deals as the base (the same seeds), so each is compared game by game: a "
        "difference is the mean of the per-game differences, with a 95 % paired t interval and a paired t-test; a "
        "grid's interaction is the change with both options minus the two changes alone, game by game. All "
        f"{stats['tests']} difference tests of this report are corrected together: {escape(stats['correction'])}; "
        "adjusted p-values below 0.05 are in bold. When the game draws its first player at random, the first-player "
        "advantage is measured by place in the turn order, not by seat.</p>"
    )
    if plan.get("skill"):
        ladder = plan["skill"]
        body.append(
            '<p class="note">Skill ladder: for each pair of consecutive levels '
            f"({escape(' < '.join(ladder['levels']))}), {ladder['deals']} deals per table size and variant, each "
            "played once with one seat of the stronger level at each seat in turn among the weaker (duplicate "
            "deals), the same deals for every variant. A rung's share is the mean over deals with its 95 % normal "
            "interval over deals; a variant's rung is compared with the base's deal by deal (paired t-test), in the "
            "same Holm family as the other differences. These games are played by each run, not stored.</p>"
        )
    margins = plan.get("margins") or {}
    if margins:
        given = ", ".join(f"{escape(k)} ± {v:g}" for k, v in margins.items())
        body.append(
            f'<p class="note">Equivalence: "no change larger than the margin" is shown by TOST (two one-sided '
            f"t-tests, 5 %) with the margins given ({given}; a share margin is a fraction: 0.03 is 3 points). The "
            f"{stats['equivalence_tests']} equivalence tests are corrected together, apart from the difference "
            f"tests: {escape(stats['equivalence_correction'])}.</p>"
        )
    else:
        body.append(
            '<p class="note">Equivalence: no margin was given (<code>--margin</code>), so no equivalence was tested '
            "and no finding says a variant changes nothing; each states the change the games could rule out.</p>"
        )
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>" + "\n".join(body) + "</body></html>\n"
    )
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
