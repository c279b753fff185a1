"""The terminal race: the window closes at the first bot slap; the earliest slap wins."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping

from rich.console import Console

from oakwood.agents import make_agent
from oakwood.cli.play import PlaySession, SeatPlan
from oakwood.cli.terminal import Terminal
from oakwood.engine import Game, State, load
from tests.cli.toygame import TOY_NAME


class ScriptedRace(Terminal):
    """A terminal whose race answer is fixed; it records the keys and the window it was offered."""

    def __init__(self, answer: tuple[int | None, float]) -> None:
        super().__init__(Console(file=io.StringIO(), width=100), stdin=io.StringIO(""), interactive=False)
        self.answer = answer
        self.offered: list[tuple[dict[str, int], float]] = []

    def race(self, keys: Mapping[str, int], window: float, *, enter_passes: bool) -> tuple[int | None, float]:
        self.offered.append((dict(keys), window))
        return self.answer


def race_state(game: Game, revealed: list[int]) -> State:  # type: ignore[type-arg]
    """A 3-player toy position at the slap race after the reveal of ``revealed``."""
    data = {
        "players": 3,
        "rng": [1, 5],
        "deck": [1, 2, 3, 4, 5, 6, 1, 2, 3],
        "hands": [[4, 5], [6, 6], [2, 3]],
        "commits": [None, None, None],
        "revealed": revealed,
        "points": [0, 0, 0],
        "round": 0,
        "phase": "race",
        "racers": [0, 1, 2],
    }
    return game.from_notation(json.dumps(data))


def session(answer: tuple[int | None, float], seats: list[str]) -> tuple[PlaySession, ScriptedRace]:
    game = load(TOY_NAME)
    state = race_state(game, [1, 2, 4])  # odd sum: the heuristic bot slaps
    plans = [SeatPlan(s) if s == "human" else SeatPlan(s, make_agent(game, s, seed=1)) for s in seats]
    term = ScriptedRace(answer)
    return PlaySession(game, state, plans, term, seed=9, delay=0, race_window=5.0), term


def last_slapper(state: State) -> int:
    slaps = [e for e in state.events_seen_by(None) if e["kind"] == "slap"]
    assert len(slaps) == 1, "exactly one slap lands: the race ends at the first"
    return int(slaps[0]["player"])


def test_window_closes_at_the_first_bot_slap_and_a_faster_human_wins() -> None:
    s, term = session((2, 0.1), ["human", "heuristic", "human"])
    s.race()
    (keys, window), *_ = term.offered
    assert keys == {"a": 0, "l": 2}
    assert 0.3 <= window <= 0.5, "the heuristic bot's reaction delay bounds the humans' window"
    assert last_slapper(s.state) == 2
    assert s.state.decision.value == "turn"


def test_humans_who_press_nothing_pass_and_the_bot_wins() -> None:
    s, _ = session((None, 0.4), ["human", "heuristic", "human"])
    s.race()
    assert last_slapper(s.state) == 1


def test_without_bot_slaps_the_window_is_the_full_race_window() -> None:
    game = load(TOY_NAME)
    state = race_state(game, [1, 3, 4])  # even sum: the heuristic bot passes
    plans = [SeatPlan("human"), SeatPlan("heuristic", make_agent(game, "heuristic", seed=1)), SeatPlan("human")]
    term = ScriptedRace((None, 5.0))
    s = PlaySession(game, state, plans, term, seed=9, delay=0, race_window=5.0)
    s.race()
    assert term.offered[0][1] == 5.0
    kinds = [e["kind"] for e in s.state.events_seen_by(None)]
    assert kinds.count("pass") == 3 and "slap" not in kinds
    assert s.state.observe(None)["round"] == 1
