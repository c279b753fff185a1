"""The PIMC agent (issue 37's baseline): legal moves in every game, determinism, only the seat's information,
paired worlds, budgets, races, bad settings, and that it beats random play."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import oakwood
from oakwood.agents import agent_names, make_agent
from oakwood.agents.pimc import PLAYOUT_TO_THE_END, PIMCAgent
from oakwood.arena.match import play_match
from oakwood.arena.simulate import simulate
from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import deal_summary
from oakwood.engine import Choice, Decision, PlayerView, Rng, State, load
from tests.cli.toygame import TOY_NAME

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("squarrels", 2, {"single_round": True}),
    ("squarrels", 4, {"single_round": True, "hoard_race": "random"}),
    ("barrell", 2, {}),
    ("barrell", 4, {"mulligan_mode": "simultaneous", "heart_gift_timing": "simultaneous"}),
    ("nutty", 2, {"max_rounds": 2}),
    ("nutty", 4, {"max_rounds": 1}),
    ("nutty", 1, {"solo_max_actions": 40}),
    (TOY_NAME, 3, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_plays_only_legal_moves_to_the_end_of_every_game(name: str, players: int, options: dict[str, Any]) -> None:
    game = oakwood.load(name, **options)
    agents = [PIMCAgent(seed=s, iterations=6, playout_steps=8) for s in range(players)]
    result = play_match(game, agents, seed=5)  # the match runner refuses an illegal move: it would raise
    assert result.state.is_terminal() and all(a.last is not None for a in agents)


def test_the_catalog_knows_it_playing_out_to_the_end() -> None:
    for name in ("squarrels", "barrell", "nutty"):
        game = oakwood.load(name)
        agent = make_agent(game, "pimc", seed=1, iterations=10)
        assert isinstance(agent, PIMCAgent) and agent.playout_steps == PLAYOUT_TO_THE_END
        assert "pimc" in agent_names(game)


def test_same_seed_and_iteration_budget_same_game() -> None:
    game = oakwood.load("barrell")

    def moves(seed: int) -> list[tuple[int, object]]:
        agents = [PIMCAgent(seed=seed, iterations=20), make_agent(game, "random", seed=2)]
        return play_match(game, agents, seed=3).state.history

    assert moves(1) == moves(1)
    assert moves(1) != moves(7)  # the seed matters: the same moves above are not the only moves it can play


def _searched(agent: PIMCAgent, state: State, seat: int) -> dict[Any, float]:
    """The mean returns ``agent`` finds at ``state`` from a view whose world is drawn with a fixed seed."""
    return agent.search(PlayerView.for_agent(state, seat, agent, Rng(8))).values


def test_it_reads_only_what_its_seat_knows() -> None:
    # Two truths the seat cannot tell apart (the second is a world of the first: the opponent's hand and the
    # deck re-dealt) give the very same search: nothing of the hidden cards reaches it beyond the observation.
    game = oakwood.load("barrell")
    truth = game.new_state(2, 4)
    seat = truth.to_act()[0]
    other = truth.determinize(seat, Rng(99))
    assert other.observe(seat) == truth.observe(seat) and other.to_json() != truth.to_json()
    values = _searched(PIMCAgent(seed=1, iterations=60), truth, seat)
    assert values == _searched(PIMCAgent(seed=1, iterations=60), other, seat) and len(set(values.values())) > 1


def test_a_commit_is_searched_without_the_other_seats_pending_choice() -> None:
    # A simultaneous Barrell mulligan: P2 has secretly kept its hand, or sent one card or two back; P1 sees
    # only that P2 has chosen, and its search is the same whatever P2 chose.
    game = oakwood.load("barrell", mulligan_mode="simultaneous")
    start = game.new_state(2, 4)
    assert start.decision is Decision.COMMIT and start.to_act() == (0, 1)
    legal = start.legal_actions(1)
    found = []
    for chosen in ([], [legal[0]], [legal[0], legal[1]]):
        state = start.clone()
        for action in chosen:
            state.apply(1, action)
        while 1 in state.to_act():  # keep what is left (the last legal action)
            state.apply(1, state.legal_actions(1)[-1])
        found.append((state.observe(0), _searched(PIMCAgent(seed=4, iterations=60), state, 0)))
    assert all(observation == found[0][0] and values == found[0][1] for observation, values in found)
    assert len(set(found[0][1].values())) > 1  # a search that told the moves apart, not a flat one


def test_every_move_gets_the_same_worlds_and_the_budget_is_whole_worlds() -> None:
    game = oakwood.load("barrell")
    state = game.new_state(2, 4)
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    assert len(legal) > 2
    agent = PIMCAgent(seed=1, iterations=len(legal) * 3 + 1)  # one playout past three worlds: a fourth world
    agent.act(PlayerView.for_agent(state, seat, agent, Rng(2)))
    report = agent.last
    assert report is not None and report.iterations == len(legal) * 4
    assert report.visits == dict.fromkeys(legal, 4)
    assert all(0.0 <= value <= 1.0 for value in report.values.values())
    best = max(report.values.values())
    assert report.values[report.ranking[0]] == best and set(report.ranking) == set(legal)


def test_a_time_budget_stops_after_whole_worlds_and_the_iterations_bound_it_too() -> None:
    game = oakwood.load("barrell")
    state = game.new_state(2, 4)
    seat = state.to_act()[0]
    legal = len(state.legal_actions(seat))
    timed = PIMCAgent(seed=1, iterations=None, seconds=0.01)
    timed.act(PlayerView.for_agent(state, seat, timed, Rng(2)))
    assert timed.last is not None and timed.last.iterations >= legal and timed.last.iterations % legal == 0
    both = PIMCAgent(seed=1, iterations=2 * legal, seconds=3600.0)  # the iterations end it long before the hour
    both.act(PlayerView.for_agent(state, seat, both, Rng(2)))
    assert both.last is not None and both.last.iterations == 2 * legal


def test_playouts_are_scored_by_the_games_estimate_in_worlds_never_the_truth(monkeypatch: pytest.MonkeyPatch) -> None:
    game = oakwood.load("nutty")
    state = game.new_state(2, 3)
    seat = state.to_act()[0]
    scored: list[State] = []
    estimate = game.estimate_returns

    def spy(world: State) -> list[float]:
        scored.append(world)
        return estimate(world)

    monkeypatch.setattr(game, "estimate_returns", spy)
    agent = PIMCAgent(seed=1, iterations=12, playout_steps=3)  # too short to end a game: the estimate scores it
    agent.act(PlayerView.for_agent(state, seat, agent, Rng(2)))
    assert agent.last is not None and len(scored) == agent.last.iterations
    assert all(world is not state and not world.is_terminal() for world in scored)


def test_a_single_legal_move_is_played_without_a_search() -> None:
    game = load(TOY_NAME)
    state = game.new_state(2, 1)
    seat = state.to_act()[0]
    agent = PIMCAgent(seed=1, iterations=50)
    view = PlayerView.for_agent(state, seat, agent, Rng(1))
    forced = replace(view, legal_actions=view.legal_actions[:1])  # a view with one legal move
    assert agent.act(forced) == view.legal_actions[0] and agent.last is not None and agent.last.iterations == 0


def test_a_race_is_answered_with_a_human_like_delay() -> None:
    game = load(TOY_NAME)
    state = game.new_state(2, 1)
    agents = [PIMCAgent(seed=s, iterations=20, reaction=(0.3, 0.6)) for s in range(2)]
    while state.decision is not Decision.RACE:
        seat = state.to_act()[0]
        answer = agents[seat].act(PlayerView.for_agent(state, seat, agents[seat], Rng(seat)))
        assert not isinstance(answer, Choice)
        state.apply(seat, answer)
    answer = agents[0].act(PlayerView.for_agent(state, 0, agents[0], Rng(1)))
    assert isinstance(answer, Choice) and 0.3 <= answer.delay <= 0.6
    assert answer.action in state.legal_actions(0)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"iterations": None, "seconds": None}, "needs an iteration budget, a time budget, or both"),
        ({"iterations": 0}, "budgets must be positive"),
        ({"iterations": None, "seconds": 0.0}, "budgets must be positive"),
        ({"seconds": -1.0}, "budgets must be positive"),
        ({"playout_steps": -1}, "playout_steps is a number of actions"),
        ({"reaction": (0.5, 0.2)}, "reaction delay must be a range"),
    ],
)
def test_bad_settings_are_refused_in_one_line(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message) as refused:
        PIMCAgent(**settings)
    assert "\n" not in str(refused.value)


def test_it_beats_random_play_clearly_on_duplicate_deals() -> None:
    # 32 duplicate Barrell deals, 40 playouts to the end a move: 0.77 [0.65, 0.89] (seeds 3 and 4 give 0.85 and
    # 0.78, their intervals from 0.67): the bar of 0.6 leaves room and still excludes the equal share.
    spec = SimulationSpec(
        "barrell",
        ("pimc", "random"),
        games=2 * 32,
        seed=1,
        rotate=True,
        duplicate=True,
        settings={"pimc": {"iterations": 40}},
    )
    summary = deal_summary(simulate(spec, workers=1), 0)
    assert summary.deals == 32 and summary.ci_low > 0.6, summary
