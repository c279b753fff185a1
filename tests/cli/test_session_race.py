"""The terminal race: the window closes at the first bot slap; the earliest slap wins."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Mapping

from rich.console import Console

from oakwood.agents import make_agent
from oakwood.cli.play import PlaySession, SeatPlan
from oakwood.cli.terminal import Terminal
from oakwood.engine import Game, State, load
from tests.cli.toygame import TOY_NAME


class ScriptedRace(Terminal):
    """A terminal whose race answer is fixed; it records the keys and the window it was offered."""

    def __init__(self, answer: tuple[int | None, float], *, interactive: bool = False) -> None:
        console = Console(file=io.StringIO(), width=100, color_system=None)
        super().__init__(console, stdin=io.StringIO(""), interactive=interactive)
        self.answer = answer
        self.offered: list[tuple[dict[str, int], float]] = []

    def race(
        self,
        keys: Mapping[str, int],
        window: float,
        *,
        enter_passes: bool,
        on_open: Callable[[], None] | None = None,
    ) -> tuple[int | None, float]:
        self.offered.append((dict(keys), window))
        if on_open is not None:
            on_open()
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


def session(
    answer: tuple[int | None, float], seats: list[str], *, interactive: bool = False
) -> tuple[PlaySession, ScriptedRace]:
    game = load(TOY_NAME)
    state = race_state(game, [1, 2, 4])  # odd sum: the heuristic bot slaps
    plans = [SeatPlan(s) if s == "human" else SeatPlan(s, make_agent(game, s, seed=1)) for s in seats]
    term = ScriptedRace(answer, interactive=interactive)
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


def output(term: ScriptedRace) -> str:
    return term.console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


def test_the_winner_and_the_time_are_announced_and_kept_for_the_next_screen() -> None:
    s, term = session((2, 0.1), ["human", "heuristic", "human"], interactive=True)
    s.race()
    assert "⚡ P3 (human) slapped first (0.10 s)." in output(term)
    assert s.notice is not None and "P3 (human) slapped first" in s.notice.plain  # the next screen clears this one


def test_a_bot_that_wins_is_announced_with_its_reaction_time() -> None:
    s, term = session((None, 0.4), ["human", "heuristic", "human"], interactive=True)
    s.race()
    assert re.search(r"⚡ P2 \(heuristic\) slapped first \(0\.[345]\d s\)\.", output(term))


def test_in_line_mode_a_human_slap_has_no_time_to_report() -> None:
    s, term = session((0, 0.0), ["human", "heuristic", "human"])
    s.race()
    assert "⚡ P1 (human) slapped first." in output(term)
    assert s.notice is None  # nothing is cleared in line mode: the line stays in the transcript
