"""The OpenSpiel games: pyspiel's random simulation test, no leak through strings or tensors, races and commits as
OpenSpiel nodes, and OpenSpiel's ISMCTS playing whole games through the determinize resampler."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("oakwood.rl.openspiel")

from oakwood.engine import Decision  # noqa: E402

# Short games keep the suite fast: one S'Quarrels round, a few Nutty rounds.
SHORT: dict[str, dict[str, Any]] = {
    "squarrels": {"single_round": "true"},
    "barrell": {},
    "nutty": {"max_rounds": "4"},
}
#: Every game at every table size it seats.
CASES = [("squarrels", n) for n in range(2, 7)] + [("barrell", n) for n in range(2, 5)]
CASES += [("nutty", n) for n in range(1, 7)]


def load(name: str, players: int, **params: Any) -> Any:
    return openspiel.load_game(name, players=players, num_seeds=64, **{**SHORT[name], **params})


def random_walk(state: Any, rng: random.Random, steps: int) -> Any:
    """Play up to ``steps`` random nodes (chance, simultaneous or a turn) and return the state."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        elif state.is_simultaneous_node():
            joint = []
            for seat in range(state.num_players()):
                legal = state.legal_actions(seat)
                joint.append(rng.choice(legal) if legal else 0)
            state.apply_actions(joint)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("turn_based", [False, True], ids=["simultaneous", "turn_based"])
@pytest.mark.parametrize(("name", "players"), CASES)
def test_pyspiel_random_simulation(name: str, players: int, turn_based: bool) -> None:
    game = load(name, players, turn_based=turn_based)
    dynamics = pyspiel.GameType.Dynamics
    assert game.get_type().dynamics == (dynamics.SEQUENTIAL if turn_based else dynamics.SIMULTANEOUS)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_simulation_with_fixed_seeds(seed: int) -> None:
    # A seed parameter skips the chance node: the same seed deals the same game.
    for name, players in [("squarrels", 4), ("barrell", 4), ("nutty", 1)]:
        first = load(name, players, seed=seed).new_initial_state()
        second = load(name, players, seed=seed).new_initial_state()
        assert not first.is_chance_node()
        assert str(first) == str(second)
        pyspiel.random_sim_test(load(name, players, seed=seed), num_sims=1, serialize=False, verbose=False)


def test_options_are_game_parameters_as_strings() -> None:
    game = openspiel.load_game("squarrels", players=4, hoard_race="seat_order", target_score="30")
    assert game.oakwood.options.hoard_race == "seat_order"
    assert game.oakwood.options.target_score == 30
    assert game.get_parameters()["hoard_race"] == "seat_order"
    with pytest.raises(Exception, match="hoard_race"):
        openspiel.load_game("squarrels", players=4, hoard_race="telepathy")
    assert pyspiel.load_game("python_oakwood_nutty", {"players": 1}).num_players() == 1


def test_the_seed_is_a_hidden_chance_outcome() -> None:
    state = load("barrell", 2).new_initial_state()
    assert state.is_chance_node()
    assert [o for o, _ in state.chance_outcomes()] == list(range(64))
    state.apply_action(7)
    twin = load("barrell", 2, seed=7).new_initial_state()
    assert str(state) == str(twin)
    for seat in (0, 1):
        assert '"seed"' not in state.information_state_string(seat)


def seen_node(name: str, players: int, decision: Decision, turn_based: bool, seeds: range) -> Any:
    """The first state of a random game whose engine faces ``decision`` with several seats listed."""
    for seed in seeds:
        state = load(name, players, seed=seed, turn_based=turn_based).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            engine = state.oakwood_state
            if engine.decision is decision and len(engine.to_act()) > 1 and not state.is_chance_node():
                return state
            random_walk(state, rng, 1)
    raise AssertionError(f"no {decision} with several seats in {name}")


def test_a_commit_is_a_simultaneous_node() -> None:
    state = seen_node("squarrels", 2, Decision.COMMIT, False, range(20))
    assert state.is_simultaneous_node()
    assert state.legal_actions(0) and state.legal_actions(1)
    turn_based = seen_node("squarrels", 2, Decision.COMMIT, True, range(20))
    assert turn_based.current_player() == 0  # the listed seats choose in seat order
    twin = turn_based.clone()
    turn_based.apply_action(turn_based.legal_actions()[0])
    twin.apply_action(twin.legal_actions()[-1])
    # Seat 0's choice went into the engine, which shows nothing of it until the last commit is in.
    assert turn_based.current_player() == twin.current_player() == 1
    assert turn_based.observation_string(1) == twin.observation_string(1)
    assert turn_based.information_state_string(1) == twin.information_state_string(1)


@pytest.mark.parametrize("turn_based", [False, True], ids=["simultaneous", "turn_based"])
def test_a_race_resolves_in_a_chance_order(turn_based: bool) -> None:
    state = seen_node("squarrels", 4, Decision.RACE, turn_based, range(30))
    engine = state.oakwood_state
    seats = engine.to_act()
    slap = state.get_game().oakwood.encode(next(a for a in engine.legal_actions(seats[0]) if "slap" in str(a)))
    if turn_based:
        for seat in sorted(seats):  # the listed seats answer in seat order
            assert state.current_player() == seat
            state.apply_action(slap)
    else:
        assert state.is_simultaneous_node()
        state.apply_actions([slap if seat in seats else 0 for seat in range(4)])
    # Everyone slapped: a chance node says whose answer lands first, uniformly.
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == sorted(seats)
    assert all(p == pytest.approx(1 / len(seats)) for _, p in outcomes)
    winner = seats[-1]
    state.apply_action(winner)
    # The first slap won the race: the other answers were discarded.
    assert not state.is_chance_node()
    assert state.oakwood_state.history[-1][0] == winner
    assert sum(1 for seat, action in state.oakwood_state.history[-len(seats) :] if "slap" in str(action)) == 1


def test_strings_and_tensors_hide_what_the_seat_cannot_see() -> None:
    resample = openspiel.Resampler(seed=5)
    differed = 0
    for name, players in [("squarrels", 4), ("barrell", 4), ("nutty", 2), ("nutty", 1)]:
        for turn_based in (False, True):
            game = load(name, players, turn_based=turn_based)
            for seed in range(3):
                rng = random.Random(seed)
                state = game.new_initial_state()
                while not state.is_terminal():
                    random_walk(state, rng, rng.randint(1, 25))
                    if state.is_terminal() or state.is_chance_node():
                        continue
                    for seat in range(players):
                        world = resample(state, seat)
                        assert world.observation_string(seat) == state.observation_string(seat)
                        assert world.information_state_string(seat) == state.information_state_string(seat)
                        assert np.array_equal(world.observation_tensor(seat), state.observation_tensor(seat))
                        assert world.legal_actions(seat) == state.legal_actions(seat)
                        differed += str(world) != str(state)
    assert differed > 0  # the worlds really re-dealt what was hidden


def test_a_turn_based_race_answer_stays_hidden_from_the_others() -> None:
    state = seen_node("squarrels", 4, Decision.RACE, True, range(30))
    first, second = sorted(state.oakwood_state.to_act())[:2]
    before = state.information_state_string(second)
    legal = state.legal_actions()
    twin = state.clone()
    state.apply_action(legal[0])
    twin.apply_action(legal[-1])
    assert state.information_state_string(second) == twin.information_state_string(second) == before
    assert state.information_state_string(first) != twin.information_state_string(first)  # its own answer
    world = openspiel.Resampler(seed=1)(state, second)
    assert world.information_state_string(second) == state.information_state_string(second)


def test_the_observation_tensor_has_documented_fields() -> None:
    from open_spiel.python.observation import make_observation

    game = load("barrell", 2)
    state = random_walk(game.new_initial_state(), random.Random(0), 5)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() == game.encoder.size
    assert game.encoder.describe().startswith("| field |")
    engine = state.oakwood_state
    assert engine is not None
    for seat in range(2):
        expected = game.encoder.encode(engine.observe(seat))
        assert np.array_equal(state.observation_tensor(seat), expected)
        observation = make_observation(game)  # OpenSpiel's Python observation over our observer
        observation.set_from(state, seat)
        assert list(observation.dict) == ["observation"] and np.array_equal(observation.tensor, expected)
        hand = game.encoder.layout.field("hand")  # a field is a slice of the one tensor, found by the layout
        assert observation.tensor[hand.offset : hand.offset + hand.size].sum() == len(engine.observe(seat)["hand"])


@pytest.mark.parametrize(("name", "players"), [("squarrels", 2), ("barrell", 2), ("nutty", 2), ("nutty", 1)])
def test_openspiel_ismcts_plays_a_whole_game(name: str, players: int) -> None:
    game = load(name, players, turn_based=True, seed=11)
    bots = [openspiel.ismcts_bot(game, seed=seat, max_simulations=4) for seat in range(players)]
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        seat = state.current_player()
        action = bots[seat].step(state)
        assert action in state.legal_actions()
        searched += bots[seat].simulations
        state.apply_action(action)
    assert searched > 0
    assert sum(state.returns()) <= 1.0 + 1e-9


def test_ismcts_needs_the_turn_based_form() -> None:
    with pytest.raises(ValueError, match="turn-based"):
        openspiel.ismcts_bot(load("barrell", 2))
