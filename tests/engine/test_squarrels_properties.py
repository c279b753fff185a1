"""Hypothesis-driven S'Quarrels playouts and notation fuzzing against the engine contract.

Playouts: Hypothesis picks the seed, the player count, the options and every choice; after each of the first
100 steps the game's invariants must hold and the state must survive a JSON round trip, and whole single-round
games keep their invariants and notation at every step. Fuzzing: ``from_notation`` on arbitrary or mutated text
may only ever raise ``InvalidNotationError``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oakwood
from oakwood.engine import InvalidNotationError, State
from oakwood.games.squarrels.notation import FIELDS

VARIANT_OPTIONS: dict[str, list[Any]] = {
    "setup_winter_reshuffle": ["all_setup_discards", "winter_only"],
    "whirlwind_draw": ["optional", "mandatory_to_7"],
    "quarrel_winner_may_draw": [False, True],
    "quarrel_exhaustion": ["drop_out", "any_out_draws", "survivor_plays"],
    "golden_lost_scope": ["round", "match"],
    "golden_wild_in_sets": [False, True],
    "hoard_drawer_may_race": [False, True],
    "hoard_empty_skips": [False, True],
    "hoard_race": ["realtime", "random", "seat_order"],
    "set_scoring": ["face_value", "per_card"],
    "target_tie": ["extra_round", "shared_win"],
}
options = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in VARIANT_OPTIONS.items()})
GAME = oakwood.load("squarrels")
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def json_round_trip(state: State) -> None:
    data = json.loads(json.dumps(state.to_json()))
    again = state.game.from_json(data)
    assert again.to_json() == data
    assert again.to_notation() == state.to_notation()


@FAST
@given(
    seed=st.integers(min_value=0, max_value=2**63),
    players=st.integers(min_value=2, max_value=6),
    chosen=options,
    target=st.integers(min_value=5, max_value=15),
    choices=st.lists(st.integers(min_value=0, max_value=2**16), min_size=1, max_size=64),
)
def test_random_playouts_keep_invariants_and_round_trip(
    seed: int, players: int, chosen: dict[str, object], target: int, choices: list[int]
) -> None:
    game = oakwood.load("squarrels", target_score=target, **chosen)
    state = game.new_state(players, seed)
    step = 0
    while not state.is_terminal() and step < 100:
        seats = state.to_act()
        seat = seats[choices[step % len(choices)] % len(seats)]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[(choices[(step + 1) % len(choices)] + step) % len(legal)])
        state.check_invariants()
        json_round_trip(state)
        step += 1


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63),
    players=st.integers(min_value=2, max_value=6),
    chosen=options,
    choices=st.lists(st.integers(min_value=0, max_value=2**16), min_size=1, max_size=64),
)
def test_whole_single_round_playouts(seed: int, players: int, chosen: dict[str, object], choices: list[int]) -> None:
    game = oakwood.load("squarrels", single_round=True, **chosen)
    state = game.new_state(players, seed)
    step = 0
    while not state.is_terminal():
        seats = state.to_act()
        seat = seats[choices[step % len(choices)] % len(seats)]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[(choices[(step + 1) % len(choices)] + step) % len(legal)])
        state.check_invariants()
        text = state.to_notation()
        assert game.from_notation(text).to_notation() == text
        step += 1
        assert step < 5000
    json_round_trip(state)
    assert state.winners() and abs(sum(state.returns()) - 1.0) < 1e-9


def parses_or_explains(text: str) -> None:
    """``from_notation`` either builds a state that re-writes stably or raises InvalidNotationError."""
    try:
        state = GAME.from_notation(text)
    except InvalidNotationError as exc:
        assert str(exc)
        return
    written = state.to_notation()
    assert GAME.from_notation(written).to_notation() == written


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_arbitrary_text(text: str) -> None:
    parses_or_explains(text)
    parses_or_explains("squarrels " + text)


VALID = GAME.new_state(4, seed=3).to_notation()
SYMBOLISH = st.text(alphabet="R12345GQHAVW-/,@|*:0123456789slapsx= ", max_size=40)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FIELDS), SYMBOLISH | st.text(max_size=12))
def test_fuzz_one_mutated_field(key: str, value: str) -> None:
    text = re.sub(rf"(?<= ){key}=\S*", lambda _: f"{key}={value}", VALID)
    parses_or_explains(text)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), SYMBOLISH.filter(lambda s: " " not in s), max_size=len(FIELDS)))
def test_fuzz_several_mutated_fields(values: dict[str, str]) -> None:
    text = VALID
    for key, value in values.items():
        text = re.sub(rf"(?<= ){key}=\S*", lambda _, k=key, v=value: f"{k}={v}", text)  # type: ignore[misc]
    parses_or_explains(text)
    phase_text = text.replace("phase=must_draw", "phase=quarrel").replace(
        "quarrel=-", "quarrel=" + values.get("quarrel", "1|1,2|-|-")
    )
    parses_or_explains(phase_text)
