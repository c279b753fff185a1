"""The engine's trust boundary: seats and actions are checked before the state is touched, loaders take
nothing but positions and actions from their input, and worlds carry no trace of the truth."""

from __future__ import annotations

import json
from typing import Any

import pytest

import oakwood
from oakwood.engine import (
    InvalidActionError,
    InvalidNotationError,
    NotYourTurnError,
    Replay,
    Rng,
    State,
)
from tests.conformance.kit import play_random

GAMES = [("squarrels", 4, {"single_round": True}), ("barrell", 3, {}), ("nutty", 4, {}), ("nutty", 1, {})]
NOT_SEATS: list[Any] = [1.0, True, False, "1", None, -1, 99, 2**70, (1,)]


def _midgame(name: str, players: int, options: dict[str, Any], steps: int = 12) -> State:
    """A running position ``steps`` random actions into a seeded game (the first seed whose game lasts)."""
    game = oakwood.load(name, **options)
    steps = steps if players > 1 else 2  # a random solo player ends the game within a few moves
    for seed in range(100):
        state, rng = game.new_state(players, seed=seed), Rng(11 + seed)
        for _ in range(steps):
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            if state.is_terminal():
                break
        else:
            return state
    raise AssertionError("no seeded game lasted")


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_every_entry_point_refuses_what_is_not_a_seat_before_touching_the_state(
    name: str, players: int, options: dict[str, Any]
) -> None:
    state = _midgame(name, players, options)
    before = state.to_json()
    seat = state.to_act()[0]
    action = state.legal_actions(seat)[0]
    for bad in NOT_SEATS:
        if type(bad) is int and 0 <= bad < players:
            continue
        calls = [
            lambda bad=bad: state.apply(bad, action),
            lambda bad=bad: state.legal_actions(bad),
            lambda bad=bad: state.legal_mask(bad),
            lambda bad=bad: state.determinize(bad, Rng(1)),
        ]
        if bad is not None:  # None is the spectator, whom observe and events_seen_by serve
            calls += [lambda bad=bad: state.observe(bad), lambda bad=bad: state.events_seen_by(bad)]
        for call in calls:
            with pytest.raises(NotYourTurnError, match="there is no seat"):
                call()
        state.check_invariants()
    # The seat equal to the one to act but of another type: the bug that moved a card before refusing.
    with pytest.raises(NotYourTurnError):
        state.apply(float(seat), action)  # type: ignore[arg-type]
    assert state.to_json() == before


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_no_seat_outside_the_table_is_served_at_any_step(name: str, players: int, options: dict[str, Any]) -> None:
    # A fused path's "nothing cached" marker once was -1, and ``-1 is -1``: legal_actions(-1) answered.
    game, rng = oakwood.load(name, **options), Rng(3)
    state = game.new_state(players, seed=8)
    for _ in range(150):
        for bad in (-1, players):
            with pytest.raises(NotYourTurnError, match="there is no seat"):
                state.legal_actions(bad)
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_an_unhashable_or_foreign_action_is_an_invalid_action(name: str, players: int, options: dict[str, Any]) -> None:
    state = _midgame(name, players, options)
    before = state.to_json()
    seat = state.to_act()[0]
    for bad in ([1, 2], {"verb": "draw"}, "draw", 3, None):
        with pytest.raises(InvalidActionError, match="is not an action"):
            state.apply(seat, bad)
    with pytest.raises(InvalidActionError, match="characters"):
        state.apply(seat, "x" * 10_000_000)  # quoted, not echoed
    assert state.to_json() == before


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_a_world_has_a_past_of_its_own(name: str, players: int, options: dict[str, Any]) -> None:
    state = _midgame(name, players, options, steps=20)
    for seat in range(players):
        world = state.determinize(seat, Rng(seat))
        assert world.history == [] and world.events == []
        assert world.replay().actions == [] and world.replay().start == world.to_notation()
        assert world.replay().seed == world.rng.seed != state.rng.seed
        assert world.replay().play().to_json() == world.to_json()
        assert state.game.from_json(world.to_json()).to_json() == world.to_json()
        play_random(world, Rng(seat))  # its future is its own generator's
        assert world.replay().play().to_json() == world.to_json()


# ---------------------------------------------------------------------- from_json
def _saved(steps: int = 30) -> tuple[oakwood.Game, dict[str, Any]]:
    state = _midgame("squarrels", 3, {"single_round": True}, steps=steps)
    return state.game, json.loads(json.dumps(state.to_json()))


def test_from_json_rebuilds_by_replaying_and_regenerates_events() -> None:
    game, data = _saved()
    original = game.from_json(data)
    assert original.to_json() == data
    forged = dict(data, events=[{"kind": "draw", "public": {"seat": 0}, "private": {"card": "Golden"}}])
    assert game.from_json(forged).to_json() == data  # events are never taken from input
    nested: dict[str, Any] = {"kind": "x", "public": {}}
    for _ in range(100_000):
        nested = {"kind": "deep", "public": {"inner": nested}}
    deep = dict(data, events=[nested])
    loaded = game.from_json(deep)
    json.dumps(loaded.to_json())  # no RecursionError: the deep event was never read


def test_from_json_refuses_a_history_that_does_not_arrive_at_the_position() -> None:
    game, data = _saved()
    with pytest.raises(InvalidNotationError, match=r"does not arrive at the saved position.*history"):
        game.from_json(dict(data, history=data["history"][:-1]))
    with pytest.raises(InvalidNotationError, match=r"step 1 cannot be played.*history"):
        game.from_json(dict(data, history=[[5, 0], *data["history"]]))
    with pytest.raises(InvalidNotationError, match="not a \\[seat, action\\] pair"):
        game.from_json(dict(data, history=[[0, 0, 0]]))


def test_from_json_without_history_starts_at_the_saved_position() -> None:
    game, data = _saved()
    loaded = game.from_json(dict(data, history=None, start=None))
    assert loaded.to_notation() == data["notation"] and loaded.history == [] and loaded.events == []
    assert loaded.replay().start == data["notation"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seed": 10**4400}, "seed"),
        ({"seed": 2**200}, "seed"),
        ({"seed": "7"}, "seed"),
        ({"options": {1: 2}}, "options"),
        ({"options": {"no_such_option": 1}}, "options"),
        ({"options": None}, "options"),
        ({"players": 9}, "players"),
        ({"players": 2.0}, "players"),
        ({"format": 2}, "format"),
        ({"game": "barrell"}, "game"),
        ({"history": "x"}, "history"),
        ({"notation": None}, "notation"),
        ({"start": 5}, "start"),
    ],
)
def test_from_json_names_the_bad_field(change: dict[str, Any], field: str) -> None:
    game, data = _saved()
    with pytest.raises(InvalidNotationError, match=f"in '{field}'"):
        game.from_json({**data, **change})


def test_a_generator_counter_out_of_range_is_refused_by_every_loader() -> None:
    game, data = _saved()
    text = data["notation"].rsplit("rng=", 1)[0] + f"rng=1:{2**70}"
    with pytest.raises(InvalidNotationError, match="rng"):
        game.from_notation(text)
    with pytest.raises(InvalidNotationError):
        game.from_json(dict(data, history=None, notation=text))


# ---------------------------------------------------------------------- replays
def test_replay_from_json_validates_every_field() -> None:
    game, data = _saved()
    replay = game.from_json(data).replay().to_json()
    assert Replay.from_json(replay).play().to_notation() == data["notation"]
    for change, field in [
        ({"game": "chess"}, "game"),
        ({"game": 3}, "game"),
        ({"options": {1: 2}}, "options"),
        ({"options": {"hoard_race_window_s": float("nan")}}, "options"),
        ({"players": 1}, "players"),
        ({"seed": 10**4400}, "seed"),
        ({"actions": [[0, "draw"]]}, "actions"),
        ({"actions": [[0, 1, 2]]}, "actions"),
        ({"start": ["x"]}, "start"),
    ]:
        with pytest.raises(InvalidNotationError, match=f"in '{field}'"):
            Replay.from_json({**replay, **change})
    with pytest.raises(InvalidNotationError, match="a replay is a JSON object"):
        Replay.from_json([replay])  # type: ignore[arg-type]
    broken = Replay.from_json({**replay, "actions": [[9, 0], *replay["actions"]]})
    with pytest.raises(InvalidNotationError, match="step 1 cannot be played"):
        broken.play()
