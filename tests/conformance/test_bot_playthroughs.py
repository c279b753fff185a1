"""The conformance kit on realistic positions: games played by the heuristic bots.

Random play rarely reaches some endings (in Nutty Squirrels random squirrels almost never reveal the whole
tree, so the end trigger, the final round and the 20-point win come from sensible play). Here the heuristic
bots play whole games through the match runner, and the kit's deep checks run on a sample of the positions
they reach: JSON and notation round trips with identical futures, clone independence, no leak through
``determinize``, refusal of illegal actions, and at the end the terminal checks and the replay.
"""

from __future__ import annotations

from collections.abc import Hashable

import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.arena.match import play_match
from oakwood.engine import Rng, State
from tests.conformance.kit import (
    KitReport,
    check_replay,
    check_step_basics,
    check_terminal,
    deep_check,
)

CASES = [
    ("squarrels", {"target_score": 20}, 4, range(6)),
    ("squarrels", {"single_round": True}, 6, range(6)),
    ("barrell", {}, 2, range(8)),
    ("barrell", {}, 4, range(6)),
    ("nutty", {}, 2, range(6)),
    ("nutty", {}, 4, range(4)),
    ("nutty", {}, 1, range(10)),
]


def _checked_game(name: str, options: dict[str, object], players: int, seed: int) -> KitReport:
    game = oakwood.load(name, **options)
    agents = [make_agent(game, "heuristic", seed=seed * 10 + s) for s in range(players)]
    rng = Rng(seed + 7)
    report = KitReport()

    def after(state: State, seat: int, action: Hashable) -> None:
        report.steps += 1
        report.decisions.add(str(state.decision))
        if state.is_terminal():
            return
        check_step_basics(state)
        if rng.randbelow(15) == 0:
            deep_check(state, rng, report, worlds=2)

    result = play_match(game, agents, seed, on_step=after)
    state = result.state
    report.terminal = state.is_terminal()
    state.check_invariants()
    check_terminal(state)
    check_replay(state)
    return report


@pytest.mark.parametrize(("name", "options", "players", "seeds"), CASES, ids=lambda v: str(v))
def test_heuristic_games_pass_the_kit(name: str, options: dict[str, object], players: int, seeds: range) -> None:
    reports = [_checked_game(name, options, players, seed) for seed in seeds]
    assert all(r.terminal for r in reports)
    assert sum(r.deep_checks for r in reports) >= len(seeds)
    assert sum(r.hidden_resampled for r in reports) > 0
