"""The findings at the top of a report: what the figures say, in plain words, most important first.

A finding that rests on a test says so only when the test survives Holm's correction. When more than one
agent was run, each finding is compared across agents: one that holds for some agents and not others is
flagged (a balance problem seen only by weak bots may be an artefact of their play).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from .figures import Json
from .statistics import PROPORTION_TEST, p_is

#: How many key facts the findings name at most per table size and agent.
TOP_FACTS = 5
#: A fact is worded as a finding only when both groups (seats with it, seats without) hold at least this share
#: of the seats: a fact nearly every seat has says little about winning, however small its p-value.
MIN_GROUP = 0.02
#: A skill rung whose stronger level wins at least this share is at its ceiling: it can hardly show a change.
CEILING = 0.95


def percent(value: float) -> str:
    """``0.312`` → ``31 %`` (one decimal below 10 %)."""
    shown = value * 100
    return f"{shown:.1f} %" if 0 < shown < 10 else f"{shown:.0f} %"


def plus_minus(figure: Json) -> str:
    """A share as ``31 % ± 2 %`` (half its 95 % interval)."""
    half = (figure["high"] - figure["low"]) / 2
    return f"{percent(figure['value'])} ± {percent(half)}"


def findings(tree: Json) -> list[Json]:
    """Every finding of the report, most important first: what the designer varied leads (the question asked),
    then seat advantage, endings, length and the facts of play."""
    found = [f for section in tree["sections"] for f in _section(section)]
    _flag_disagreements(found, tree["plan"]["agents"])
    return sorted(_merge_across_sizes(found), key=lambda f: f["rank"])


def _merge_across_sizes(found: list[Json]) -> list[Json]:
    """One line per agent, instead of one per table size, for the sizes without a seat advantage, the sizes whose
    most common ending is the same, and the games' lengths."""
    groups: dict[tuple[str, str, str], list[Json]] = {}
    for f in found:
        if f["kind"] == "advantage" and f["significant"] is False and f["flag"] is None:
            groups.setdefault(("advantage", f["agent"], ""), []).append(f)
        elif f["kind"] in ("ending", "length", "never", "skill"):
            groups.setdefault((f["kind"], f["agent"], f["key"]), []).append(f)
    merged_away = [id(f) for group in groups.values() if len(group) > 1 for f in group]
    merged = [f for f in found if id(f) not in merged_away]
    for (kind, agent, _), group in groups.items():
        if len(group) < 2:
            continue
        sizes = _listing([f["players"] for f in group])
        if kind == "advantage":
            firsts = ", ".join(f"{f['first']} at {f['players']}" for f in group)
            text = (
                f"No seat advantage measured at {sizes} players ({agent}): the first player wins {firsts} "
                "(an equal share is 1 in the number of players)."
            )
        elif kind == "never":
            counts = sorted({f["games"] for f in group})
            games = f"{counts[0]} games" if len(counts) == 1 else "the games"
            text = (
                f"Never seen in {games} at {sizes} players ({agent}), so not measured: {'; '.join(group[0]['labels'])}."
            )
        elif kind == "skill":
            first = group[0]
            shares = ", ".join(f"{f['share']} at {f['players']}" for f in group)
            text = (
                f"Skill at {sizes} players: {first['rung_text']} wins {shares} (a fair share is 1 in the number of "
                f"players), {first['deals_text']}.{first['note']}"
            )
        elif kind == "ending":
            shares = ", ".join(f"{f['share']} at {f['players']}" for f in group)
            text = f"Most games at {sizes} players ({agent}) end this way: {group[0]['label']} ({shares})."
        else:
            first, *rest = group
            actions = ", ".join(
                [f"{first['actions']} actions at {first['players']} players"]
                + [f"{f['actions']} at {f['players']}" for f in rest]
            )
            text = f"Mean length ({agent}): {actions}"
            for k, (label, _) in enumerate(group[0]["extra"]):
                values = [f["extra"][k][1] for f in group if len(f["extra"]) > k and f["extra"][k][0] == label]
                if len(values) == len(group):
                    text += f"; {label}: {', '.join(values)}"
            text += "."
        merged.append({**group[0], "players": [f["players"] for f in group], "text": text})
    return merged


def _listing(items: list[int]) -> str:
    shown = [str(i) for i in items]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def _finding(
    players: int, agent: str, kind: str, key: str, text: str, rank: float, significant: bool | None = None
) -> Json:
    """One finding: its text, what it is about, whether a test backs it, and where it ranks."""
    return {
        "players": players,
        "agent": agent,
        "kind": kind,
        "key": key,
        "text": text,
        "significant": significant,
        "rank": rank,
        "flag": None,
    }


def _section(section: Json) -> Iterator[Json]:
    players = section["players"]
    table = "solo games" if players == 1 else f"{players}-player games"
    for agent, figures in section["agents"].items():
        if not figures.get("games"):
            continue

        finding = partial(_finding, players, agent)
        if players == 1:
            rate = figures["solo"]["win_rate"]
            score = figures["scores"]["all"]["mean"]["value"]
            yield finding(
                "solo", "win_rate", f"Solo ({agent}): wins {plus_minus(rate)} of games; mean score {score:.1f}.", 0
            )
        else:
            yield _advantage(figures, players, table, finding)
        common = max(figures["endings"], key=lambda e: e["value"])
        yield {
            **finding(
                "ending",
                common["key"],
                f"Most {table} ({agent}) end this way: {common['label']} ({plus_minus(common)}).",
                3,
            ),
            "label": common["label"],
            "share": plus_minus(common),
        }
        length = figures["length"]["actions"]
        extra = [
            (number["label"], f"{number['mean']['value']:.1f}")
            for number in figures["numbers"].values()
            if number.get("mean") and number["mean"]["value"]
        ][:2]
        shown = "; ".join(f"{label}: {value}" for label, value in extra)
        yield {
            **finding(
                "length",
                "actions",
                f"A {table[:-1]} ({agent}) lasts {length['mean']['value']:.0f} actions on average (median "
                f"{length['median']:.0f})" + (f"; {shown} (means)." if extra else "."),
                4,
            ),
            "actions": f"{length['mean']['value']:.0f}",
            "extra": extra,
        }
        yield from _facts(figures, agent, table, finding)
    for comparison in section["variants"]:
        yield from _variants(comparison, table)
    for grid in section.get("grids", []):
        yield from _variants(grid, table)
        yield from _interactions(grid, table)
    if section.get("skill"):
        yield from _skill(section["skill"], table)


def _ceiling(weaker: str, stronger: str) -> str:
    return (
        f"The {stronger} level wins nearly every deal among {weaker}: a rung at its ceiling hides a change; a "
        "closer rung (--skill-levels) can show one."
    )


def _deals(count: int) -> str:
    return f"{count} deal" + ("" if count == 1 else "s")


def _skill(skill: Json, table: str) -> Iterator[Json]:
    """The skill ladder: how much the stronger level wins among the weaker under the base options (one finding
    per rung), then, for each variant, whether it moves a rung toward the fair share (skill counts for less:
    the game is more random), away from it, or neither (with the equivalence shown when a share margin was
    given). A variant's finding is about what was varied, so it leads with the others."""
    players = skill["players"]
    bots = skill["bots"]
    base_row, *_ = skill["rows"]
    for rung in base_row["rungs"]:
        low, high = rung["ci95"]
        share = f"{rung['share'] * 100:.1f} % [{low * 100:.1f}, {high * 100:.1f}]"
        who = (
            f"one {rung['stronger']} player ({bots[rung['stronger']]}) among {rung['weaker']} players "
            f"({bots[rung['weaker']]})"
        )
        deals = f"over {_deals(skill['deals'])}, each played with the {rung['stronger']} player at every seat"
        note = ""
        if bots[rung["weaker"]] == bots[rung["stronger"]]:
            note = " Both levels play the same bot here: this rung measures nothing."
        elif rung["share"] >= CEILING:
            note = f" {_ceiling(rung['weaker'], rung['stronger'])}"
        text = (
            f"Skill in {table}: {who} wins {share} of deals (a fair share is {percent(rung['fair'])}), {deals}.{note}"
        )
        found = _finding(players, "skill ladder", "skill", f"{rung['weaker']}<{rung['stronger']}", text, 2.5)
        yield {**found, "share": share, "rung_text": who, "deals_text": deals, "note": note}
    shown = {row["variant"]: row["shown"] for row in skill["rows"]}
    for row in skill["comparisons"]:
        change = f"{row['measure']} {percent(row['base'])} → {percent(row['value'])} ({difference_text(row)}"
        finding = {
            **_finding(players, "skill ladder", "variant", f"{row['variant']}: skill {'<'.join(row['rung'])}", "", -1),
            "significant": row["significant"],
        }
        if row["significant"]:
            more_or_less = "less: the game is more random" if row["toward_fair"] else "more"
            text = (
                f"{shown[row['variant']]} makes skill count for {more_or_less} in {table}: {change}, "
                f"{p_is(row['p_adjusted'])} after correction; a fair share is {percent(row['fair'])})."
            )
        elif row["tost"] and row["tost"]["equivalent"]:
            text = (
                f"{shown[row['variant']]} keeps the skill ladder of {table}: {change}); no change larger than "
                f"{amount(row, row['tost']['margin'])} (equivalence shown, TOST {p_is(row['tost']['p_adjusted'])} "
                "after correction)."
            )
            if max(row["base"], row["value"]) >= CEILING:
                text += f" {_ceiling(*row['rung'])}"
            finding["rank"] = -0.5
        else:
            text = (
                f"{shown[row['variant']]}, {table}: no change in skill shown: {change}; "
                f"{p_is(row['p_adjusted'])} after correction). Not showing a difference is not showing there is none."
            )
            at_ceiling = max(row["base"], row["value"]) >= CEILING
            if at_ceiling:
                text += f" {_ceiling(*row['rung'])}"
            elif not row["tost"] and math.isfinite(row["bound"]):
                bound = amount(row, row["bound"])
                text += f" These deals could show no change larger than {bound}: give --margin to test it."
            finding["rank"] = -0.5
        yield {**finding, "text": text}


def _advantage(figures: Json, players: int, table: str, finding: Callable[..., Json]) -> Json:
    by_order = "order" in figures
    shares = (figures.get("order") or figures["seats"])["shares"]
    test = (figures.get("order") or figures["seats"])["test"]
    equal = 1 / players

    def name(k: int) -> str:
        return f"the {_ordinal(k)} player" if by_order else f"seat {k + 1}"

    if test["significant"]:
        best = max(range(players), key=lambda k: shares[k]["value"])
        worst = min(range(players), key=lambda k: shares[k]["value"])
        lead = "a first-player advantage" if best == 0 and by_order else f"an advantage to {name(best)}"
        if by_order and worst == 0:
            lead = "a first-player disadvantage"
        text = (
            f"{name(best).capitalize()} wins {plus_minus(shares[best])} of {table} (equal share {percent(equal)}), "
            f"{name(worst)} {plus_minus(shares[worst])}: {lead} ({p_is(test['p_adjusted'])} after correction)."
        )
        return finding("advantage", "order" if by_order else "seats", text, 1, True)
    spread = ", ".join(percent(s["value"]) for s in shares)
    text = (
        f"No seat advantage measured in {table} ({figures['agent']}): wins by "
        f"{'turn order' if by_order else 'seat'} {spread} (equal share {percent(equal)})."
    )
    return {
        **finding("advantage", "order" if by_order else "seats", text, 2, False),
        "first": percent(shares[0]["value"]),
    }


def _ordinal(k: int) -> str:
    return ["first", "second", "third", "fourth", "fifth", "sixth"][k] if k < 6 else f"{k + 1}th"


def _facts(figures: Json, agent: str, table: str, finding: Callable[..., Json]) -> Iterator[Json]:
    rows = [r for r in figures["facts"] if r["difference"] is not None]
    balanced = [r for r in rows if MIN_GROUP <= r["frequency"]["value"] <= 1 - MIN_GROUP]
    strong = sorted((r for r in balanced if r["test"]["significant"]), key=lambda r: -abs(r["difference"]))
    for row in strong[:TOP_FACTS]:
        subject = "Games in which the player" if table == "solo games" else "Seats that"
        verb = "are won" if table == "solo games" else "win"
        text = (
            f"{subject} {row['label']} {verb} {plus_minus(row['with'])} of {table} ({agent}), against "
            f"{plus_minus(row['without'])} otherwise (seen in {percent(row['frequency']['value'])})."
        )
        yield finding("fact", row["key"], text, 5 + (1 - abs(row["difference"])), True)
    weak = [r for r in rows if not r["test"]["significant"]]
    if weak:
        names = "; ".join(r["label"] for r in weak[:6]) + ("; and more (see the table)" if len(weak) > 6 else "")
        yield finding("no-effect", "facts", f"No measurable effect on winning in {table} ({agent}): {names}.", 8, False)
    never = [r["label"] for r in figures["facts"] if not r["frequency"]["successes"]]
    if never:
        text = f"Never seen in {figures['games']} {table} ({agent}), so not measured: {'; '.join(never)}."
        yield {**finding("never", "; ".join(never), text, 9), "games": figures["games"], "labels": never}


def _variants(comparison: Json, table: str) -> Iterator[Json]:
    """One finding per variant: what it changed, each change with its difference and interval; or that it
    changed nothing measurable, with the differences of the headline measures, the equivalence shown (when a
    margin was given) and the reminder that not showing a difference is not showing there is none."""
    agent = comparison["agent"]
    by_variant: dict[str, list[Json]] = {}
    for row in comparison["comparisons"]:
        by_variant.setdefault(row["variant"], []).append(row)
    shown = {row["variant"]: row["shown"] for row in comparison["rows"]}
    for variant, rows in by_variant.items():
        changed = [r for r in rows if r["significant"]]
        equivalent = [r for r in rows if r["tost"] and r["tost"]["equivalent"] and not r["significant"]]
        base = {
            "players": comparison["players"],
            "agent": agent,
            "kind": "variant",
            "key": variant,
            "rank": -1,
            "flag": None,
        }
        same = _equivalence_text(equivalent, rows)
        if changed:
            parts = [
                f"{r['measure']} {measured(r, r['base'])} → {measured(r, r['value'])} ({difference_text(r)}, "
                f"{p_is(r['p_adjusted'])})"
                for r in changed[:4]
            ]
            more = f"; and {len(changed) - 4} more (see the table)" if len(changed) > 4 else ""
            text = (
                f"{shown[variant]} changes {table} ({agent}): {'; '.join(parts)}{more} (each significant after "
                f"correction; 95 % intervals)."
            )
            unchanged = [r for r in rows if _headline(r) and not r["significant"]]
            if unchanged:
                text += (
                    " No difference shown after correction in "
                    + ", ".join(f"{r['measure']} ({difference_text(r)})" for r in unchanged)
                    + "."
                )
            if same:
                text += f" {same}"
            yield {**base, "text": text, "significant": True}
            continue
        headline = [r for r in rows if _headline(r)]
        differences = ", ".join(f"{r['measure']} {difference_text(r)}" for r in headline)
        unsettled = [r for r in rows if r not in equivalent]
        text = f"{shown[variant]}, {table} ({agent}): {differences} (95 % intervals)"
        note = "Not showing a difference is not showing there is none."
        if unsettled:
            smallest = p_is(min(r["p_adjusted"] for r in unsettled))
            if same:
                text += f". {same} In the other measures, no difference from the base options shown (smallest "
                text += f"{smallest} after correction). {note}"
            else:
                text += f"; no difference from the base options shown (smallest {smallest} after correction). {note}"
        else:
            text += f". {same}"
        untested = [r for r in headline if not r["tost"]]
        if unsettled and untested:
            bounds = " or ".join(f"{amount(r, r['bound'])} in {r['measure']}" for r in untested)
            text += f" These games could show no change larger than {bounds}: give --margin to test it."
        yield {**base, "text": text, "significant": False, "rank": -0.5}


def _headline(row: Json) -> bool:
    """Whether a compared measure is one a variant's finding always states: who moved first's win share (solo:
    the win rate) and the length."""
    return row["measure"] in ("first player's win share", "win rate", "mean length (actions)")


def _equivalence_text(rows: list[Json], every: list[Json]) -> str:
    """``No change larger than 3.0 pt in every seat's win share and 2 of 4 endings, or 2.00 actions in mean
    length (equivalence shown, TOST p ≤ 0.004 after correction).``: ``rows`` the measures shown equivalent
    among ``every`` measure compared, grouped by margin."""
    if not rows:
        return ""
    groups: dict[tuple[str, float], list[Json]] = {}
    for r in rows:
        groups.setdefault((r["kind"], r["tost"]["margin"]), []).append(r)
    parts = []
    for (kind, margin), group in groups.items():
        names = _grouped_names(group, [r for r in every if r["kind"] == kind])
        parts.append(f"{amount(group[0], margin)} in {names}")
    worst = p_is(max(r["tost"]["p_adjusted"] for r in rows)).replace("p =", "p ≤")
    return f"No change larger than {', or '.join(parts)} (equivalence shown, TOST {worst} after correction)."


def _grouped_names(group: list[Json], kind: list[Json]) -> str:
    """The measures of one margin, the seats' win shares and the endings each named once as a group."""
    seats = [r for r in group if r["measure"].endswith("player's win share")]
    endings = [r for r in group if r["measure"].startswith("ending: ")]
    others = [r["measure"] for r in group if r not in seats and r not in endings]
    all_seats = [r for r in kind if r["measure"].endswith("player's win share")]
    all_endings = [r for r in kind if r["measure"].startswith("ending: ")]
    names = []
    if seats:
        names.append(
            "every seat's win share" if len(seats) == len(all_seats) > 1 else ", ".join(r["measure"] for r in seats)
        )
    if endings:
        names.append(
            "the share of every ending"
            if len(endings) == len(all_endings)
            else f"the share of {len(endings)} of {len(all_endings)} endings"
        )
    names.extend(others)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


UNITS = {"length": "actions", "score": "points"}


def amount(row: Json, value: float) -> str:
    """A size of change in the measure's unit: points of a share, actions, points of score."""
    if row["share"]:
        return f"{value * 100:.1f} pt"
    unit = UNITS.get(row["kind"])
    return f"{value:.2f}" + (f" {unit}" if unit else "")


def difference_text(row: Json) -> str:
    """A compared measure's difference with its 95 % interval: ``−2.1 pt [−3.5, −0.7]``, ``+1.3 actions [+0.2,
    +2.4]``."""
    figure = row["difference"]
    if figure["low"] is None or figure["low"] != figure["low"]:  # no interval (a single game): the value alone
        return signed(row, figure["value"])
    scale, unit = (100.0, " pt") if row["share"] else (1.0, f" {UNITS[row['kind']]}" if row["kind"] in UNITS else "")
    digits = 1 if row["share"] else 2
    low, value, high = (
        f"{x * scale:+.{digits}f}".replace("-", "−") for x in (figure["low"], figure["value"], figure["high"])
    )
    return f"{value}{unit} [{low}, {high}]"


def signed(row: Json, value: float) -> str:
    """A change without its interval: ``+1.2 pt`` for a share, ``−0.40`` for a mean."""
    text = f"{value * 100:+.1f} pt" if row["share"] else f"{value:+.2f}"
    return text.replace("-", "−")


def _interactions(grid: Json, table: str) -> Iterator[Json]:
    """One finding per combination of a grid: whether the two options interact (changing both differs from the
    two changes added up), for who moved first's win share and for the length, with intervals."""
    by_combo: dict[str, list[Json]] = {}
    for row in grid["interactions"]:
        by_combo.setdefault(row["variant"], []).append(row)
    shown = {row["variant"]: row["shown"] for row in grid["rows"]}
    for combo, rows in by_combo.items():
        parts = []
        for r in rows:
            alone = (
                f"{signed(r, r['alone_a'])} and {signed(r, r['alone_b'])} alone, {signed(r, r['together'])} together"
            )
            parts.append(
                f"{r['measure']} {difference_text({**r, 'difference': r['interaction']})} ("
                f"{p_is(r['p_adjusted'])}; {alone})"
            )
        significant = any(r["significant"] for r in rows)
        verdict = (
            "the two options interact (significant after correction)"
            if significant
            else "no interaction shown (not showing one is not showing there is none)"
        )
        text = (
            f"Interaction of {shown[combo]}, {table} ({grid['agent']}): {'; '.join(parts)}: {verdict}. The "
            "interaction is the change with both minus the two changes alone, game by game on the same deals."
        )
        yield {
            "players": grid["players"],
            "agent": grid["agent"],
            "kind": "grid",
            "key": combo,
            "text": text,
            "significant": significant,
            "rank": -0.75 if significant else -0.25,
            "flag": None,
        }


def measured(comparison: Json, value: float) -> str:
    """A compared value as a person reads it: a share as a percentage, a mean as a number."""
    is_share = comparison.get("share", comparison.get("test") == PROPORTION_TEST)
    return percent(value) if is_share else f"{value:.2f}"


def _flag_disagreements(found: list[Json], agents: list[str]) -> None:
    """Flag each tested finding whose conclusion differs between the agents that were run."""
    if len(agents) < 2:
        return
    groups: dict[tuple[Any, ...], list[Json]] = {}
    for f in found:
        if f["significant"] is not None:
            groups.setdefault((f["players"], f["kind"], f["key"]), []).append(f)
    for (_, kind, _), group in groups.items():
        holds = sorted(f["agent"] for f in group if f["significant"])
        if kind == "fact":  # a fact absent for an agent was simply not significant for it
            missing = sorted(set(agents) - {f["agent"] for f in group})
        else:
            missing = sorted(f["agent"] for f in group if not f["significant"])
        if holds and missing:
            flag = f"holds for {', '.join(holds)}, not for {', '.join(missing)}"
            for f in group:
                f["flag"] = flag
