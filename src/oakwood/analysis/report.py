"""The whole report as data: the plan, a section per table size (each agent's figures, each option's
variants, each grid of two options), every test corrected together, and the findings in plain words on top."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import oakwood

from .features import FeatureExtractor, extractor_key
from .figures import Json, cell_figures, grid_comparison, skill_comparison, variant_comparison
from .findings import findings
from .measure import MeasuredGame
from .plan import Cell, Plan
from .skill import SkillLadder
from .statistics import ALPHA, CORRECTION, EQUIVALENCE_CORRECTION, holm


def build_report(
    plan: Plan,
    title: str,
    cells: Mapping[Cell, Sequence[MeasuredGame]],
    extractor: FeatureExtractor,
    *,
    notes: str = "",
    margins: Mapping[str, float] | None = None,
    ladders: Mapping[int, Mapping[str, SkillLadder]] | None = None,
) -> Json:
    """Every figure of the report over the measured games of every cell (``notes``: the designer's own text,
    shown under the findings; ``margins``: the equivalence margin of each kind of measure, ``share``,
    ``length``, ``score`` or a game measure's key: none given, no equivalence is tested; ``ladders``: the skill
    ladder of each variant by table size and variant label, none for a size not climbed)."""
    ladders = ladders or {}
    margins = dict(margins or {})
    sections = []
    for players in plan.players:
        agents = {
            agent: cell_figures(cells[Cell(players, agent, plan.base)], players, agent, extractor)
            for agent in plan.agents
        }
        variants = [
            variant_comparison(plan, option, agent, players, cells, extractor, margins)
            for option, _ in plan.varies
            for agent in plan.agents
        ]
        grids = [
            grid_comparison(plan, first, second, agent, players, cells, extractor, margins)
            for first, second in plan.pairs()
            for agent in plan.agents
        ]
        skill = skill_comparison(plan, players, ladders[players], margins) if players in ladders else None
        sections.append({"players": players, "agents": agents, "variants": variants, "grids": grids, "skill": skill})
    tree: Json = {
        "game": plan.game,
        "title": title,
        "oakwood": oakwood.__version__,
        "measures": extractor_key(extractor),
        "plan": {
            "players": list(plan.players),
            "agents": list(plan.agents),
            "games": plan.games,
            "seed": plan.seed,
            "options": plan.base.options,
            "varies": {option: [v.shown for v in variants] for option, variants in plan.varies},
            "grid": bool(plan.combined),
            "skill": _skill_plan(ladders),
            "margins": margins,
        },
        "labels": {
            "endings": dict(extractor.endings),
            "numbers": dict(extractor.numbers),
            "seat_facts": dict(extractor.seat_facts),
        },
        "statistics": {
            "alpha": ALPHA,
            "correction": CORRECTION,
            "tests": 0,
            "equivalence_correction": EQUIVALENCE_CORRECTION,
            "equivalence_tests": 0,
        },
        "notes": notes,
        "sections": sections,
    }
    tree["statistics"]["tests"] = adjust(tree)
    tree["statistics"]["equivalence_tests"] = adjust_equivalence(tree)
    tree["findings"] = findings(tree)
    return tree


def _skill_plan(ladders: Mapping[int, Mapping[str, SkillLadder]]) -> Json | None:
    """What the skill ladders climbed: their levels and deals per rung (none climbed: ``None``)."""
    for by_variant in ladders.values():
        for ladder in by_variant.values():
            first = ladder.rungs[0]
            return {"levels": [first.weaker, *(r.stronger for r in ladder.rungs)], "deals": first.deals}
    return None


def _tests(node: Any) -> Iterator[Json]:
    """Every test in the tree: each dict carrying a raw p-value ``p``."""
    if isinstance(node, dict):
        if isinstance(node.get("p"), float):
            yield node
        for value in node.values():
            yield from _tests(value)
    elif isinstance(node, list):
        for value in node:
            yield from _tests(value)


def adjust(tree: Json) -> int:
    """Holm-adjust every p-value of the report together: each test gains ``p_adjusted`` and ``significant``.
    How many tests there were."""
    tests = list(_tests(tree["sections"]))
    for test, adjusted in zip(tests, holm([t["p"] for t in tests]), strict=True):
        test["p_adjusted"] = adjusted
        test["significant"] = adjusted < ALPHA
    return len(tests)


def _equivalence_tests(node: Any) -> Iterator[Json]:
    """Every equivalence test in the tree: each dict carrying a raw TOST p-value ``p_tost``."""
    if isinstance(node, dict):
        if isinstance(node.get("p_tost"), float):
            yield node
        for value in node.values():
            yield from _equivalence_tests(value)
    elif isinstance(node, list):
        for value in node:
            yield from _equivalence_tests(value)


def adjust_equivalence(tree: Json) -> int:
    """Holm-adjust the equivalence (TOST) tests of the report together, as a family apart from the difference
    tests: each gains ``p_adjusted`` and ``equivalent`` (shown within its margin). How many there were.

    Apart, because the two families ask different questions of the same differences (is there a change; is
    every change small): mixing them would make each pay for the other's number of tests."""
    tests = list(_equivalence_tests(tree["sections"]))
    for test, adjusted in zip(tests, holm([t["p_tost"] for t in tests]), strict=True):
        test["p_adjusted"] = adjusted
        test["equivalent"] = adjusted < ALPHA
    return len(tests)
