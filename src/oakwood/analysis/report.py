"""The whole report as data: the plan, a section per table size (each agent's figures, each option's
variants), every test corrected together, and the findings in plain words on top."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import oakwood

from .features import FeatureExtractor, extractor_key
from .figures import Json, cell_figures, variant_comparison
from .findings import findings
from .measure import MeasuredGame
from .plan import Cell, Plan
from .statistics import ALPHA, CORRECTION, holm


def build_report(
    plan: Plan,
    title: str,
    cells: Mapping[Cell, Sequence[MeasuredGame]],
    extractor: FeatureExtractor,
    *,
    notes: str = "",
) -> Json:
    """Every figure of the report over the measured games of every cell (``notes``: the designer's own text,
    shown under the findings)."""
    sections = []
    for players in plan.players:
        agents = {
            agent: cell_figures(cells[Cell(players, agent, plan.base)], players, agent, extractor)
            for agent in plan.agents
        }
        variants = [
            variant_comparison(plan, option, agent, players, cells, extractor)
            for option, _ in plan.varies
            for agent in plan.agents
        ]
        sections.append({"players": players, "agents": agents, "variants": variants})
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
        },
        "labels": {
            "endings": dict(extractor.endings),
            "numbers": dict(extractor.numbers),
            "seat_facts": dict(extractor.seat_facts),
        },
        "statistics": {"alpha": ALPHA, "correction": CORRECTION, "tests": 0},
        "notes": notes,
        "sections": sections,
    }
    tree["statistics"]["tests"] = adjust(tree)
    tree["findings"] = findings(tree)
    return tree


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
