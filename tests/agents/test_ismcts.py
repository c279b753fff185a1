"""The ISMCTS agent: legal moves in every game, determinism, secrecy at commits, races, budgets."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.agents.ismcts import ISMCTSAgent, Node, _after_circle
from oakwood.arena.match import play_match
from oakwood.engine import Choice, Decision, PlayerView, Rng, State, load
from tests.cli.toygame import TOY_NAME

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("squarrels", 3, {"single_round": True}),
    ("squarrels", 4, {"single_round": True, "hoard_race": "random"}),
    ("barrell", 2, {}),
    ("barrell", 3, {"mulligan_mode": "simultaneous", "heart_gift_timing": "simultaneous"}),
    ("nutty", 2, {"max_rounds": 2}),
    ("nutty", 1, {"solo_max_actions": 40}),
    (TOY_NAME, 3, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_plays_only_legal_moves_to_the_end_of_every_game(name: str, players: int, options: dict[str, Any]) -> None:
    game = oakwood.load(name, **options)
    agents = [ISMCTSAgent(seed=s, iterations=12, playout_steps=10) for s in range(players)]
    result = play_match(game, agents, seed=5)  # the match runner refuses an illegal move: it would raise
    assert result.state.is_terminal() and all(a.last is not None for a in agents)


def test_same_seed_and_iteration_budget_same_game() -> None:
    game = oakwood.load("squarrels", single_round=True)

    def moves() -> list[tuple[int, object]]:
        agents = [ISMCTSAgent(seed=1, iterations=25), make_agent(game, "random", seed=2)]
        return play_match(game, agents, seed=3).state.history

    assert moves() == moves()


def _commit_position(other_card: int) -> State:
    """Toy Snap at its commit: P2 has secretly played ``other_card``, P1 is still to choose."""
    game = load(TOY_NAME)
    for seed in range(50):
        state = game.new_state(2, seed)
        state.apply(0, game.parse_action("stay"))
        hand = state.observe(1)["hand"]
        if other_card in hand and len(set(hand)) > 1 and state.decision is Decision.COMMIT:
            state.apply(1, game.parse_action(f"play {other_card}"))
            return state
    raise AssertionError("no seed gives P2 that card")


def test_a_commit_is_searched_without_the_other_seats_pending_choice() -> None:
    choices = set()
    for card in (1, 2, 3, 4, 5, 6):
        try:
            state = _commit_position(card)
        except AssertionError:
            continue
        if state.observe(0) != _commit_position(1).observe(0):
            continue  # a different deal: only positions P1 cannot tell apart are compared
        agent = ISMCTSAgent(seed=4, iterations=60)
        choices.add((card, str(agent.act(PlayerView.for_agent(state, 0, agent, Rng(8))))))
    assert len({choice for _, choice in choices}) == 1 and len(choices) >= 2, choices


def test_a_race_is_answered_with_a_human_like_delay() -> None:
    game = load(TOY_NAME)
    state = game.new_state(2, 1)
    agents = [ISMCTSAgent(seed=s, iterations=20, reaction=(0.3, 0.6)) for s in range(2)]
    while state.decision is not Decision.RACE:
        seat = state.to_act()[0]
        state.apply(seat, agents[seat].act(PlayerView.for_agent(state, seat, agents[seat], Rng(seat))))  # type: ignore[arg-type]
    answer = agents[0].act(PlayerView.for_agent(state, 0, agents[0], Rng(1)))
    assert isinstance(answer, Choice) and 0.3 <= answer.delay <= 0.6
    assert answer.action in state.legal_actions(0)


def test_budgets_and_the_report() -> None:
    game = oakwood.load("barrell")
    state = game.new_state(2, 4)
    seat = state.to_act()[0]
    counted = ISMCTSAgent(seed=1, iterations=30)
    counted.act(PlayerView.for_agent(state, seat, counted, Rng(2)))
    assert counted.last is not None and counted.last.iterations == 30
    assert sum(counted.last.visits.values()) == 30
    assert all(0.0 <= v <= 1.0 for v in counted.last.values.values())
    timed = ISMCTSAgent(seed=1, iterations=None, seconds=0.05)
    timed.act(PlayerView.for_agent(state, seat, timed, Rng(2)))
    assert timed.last is not None and timed.last.iterations >= 1
    with pytest.raises(ValueError, match="budget"):
        ISMCTSAgent(iterations=None, seconds=None)
    with pytest.raises(ValueError, match="positive"):
        ISMCTSAgent(iterations=0)


def test_an_evaluation_given_scores_every_playout_in_place_of_the_games_estimate() -> None:
    game = oakwood.load("barrell")
    state = game.new_state(2, 4)
    seat = state.to_act()[0]
    scored: list[State] = []

    def evaluate(world: State) -> list[float]:
        scored.append(world)
        return game.estimate_returns(world)

    given = ISMCTSAgent(seed=1, iterations=30, evaluate=evaluate)
    given.act(PlayerView.for_agent(state, seat, given, Rng(2)))
    assert len(scored) == 30 and all(world is not state for world in scored)  # one a playout, never the truth
    default = ISMCTSAgent(seed=1, iterations=30)
    default.act(PlayerView.for_agent(state, seat, default, Rng(2)))
    assert given.last is not None and default.last is not None
    assert given.last.visits == default.last.visits and given.last.values == default.last.values

    def indifferent(world: State) -> list[float]:  # a different evaluation makes a different search
        return [0.0, 1.0] if world.is_terminal() else [0.5, 0.5]

    other = ISMCTSAgent(seed=1, iterations=30, evaluate=indifferent)
    other.act(PlayerView.for_agent(state, seat, other, Rng(2)))
    assert other.last is not None and other.last.values != default.last.values


def _advance_to_a_choice(state: State, seat: int) -> None:
    """Play first legal moves until ``seat`` is to act with more than one legal move."""
    while not (seat in state.to_act() and len(state.legal_actions(seat)) > 1):
        mover = state.to_act()[0]
        state.apply(mover, state.legal_actions(mover)[0])


def test_the_tree_is_kept_between_moves() -> None:
    game = oakwood.load("squarrels", single_round=True)
    agent = ISMCTSAgent(seed=1, iterations=40)
    state = game.new_state(2, 6)
    seat = state.to_act()[0]
    _advance_to_a_choice(state, seat)
    agent.act(PlayerView.for_agent(state, seat, agent, Rng(1)))
    nodes = len(agent.tree)
    state.apply(seat, state.legal_actions(seat)[0])
    _advance_to_a_choice(state, seat)
    agent.act(PlayerView.for_agent(state, seat, agent, Rng(2)))
    assert nodes > 0 and len(agent.tree) > nodes


def test_a_solo_playout_never_stops_the_game_while_it_can_go_on() -> None:
    game = oakwood.load("nutty")
    state, rng = game.new_state(1, 3), Rng(2)
    stopped_by_choice = 0
    for _ in range(300):
        if state.is_terminal():
            break
        legal = state.legal_actions(0)
        action = game.playout_action(state, 0, legal, rng)
        assert action in legal
        stopped_by_choice += len(legal) > 1 and str(action) == "end game"
        state.apply(0, action)
    assert stopped_by_choice == 0
    assert str(game.playout_action(state, 0, [game.parse_action("end game")], rng)) == "end game"


def test_by_default_a_playout_move_is_uniformly_random() -> None:
    game, rng = oakwood.load("barrell"), Rng(4)
    state = game.new_state(2, 1)
    legal = state.legal_actions(state.to_act()[0])
    picks = {game.playout_action(state, 0, legal, rng) for _ in range(400)}
    assert picks == set(legal)


def test_back_at_an_information_set_it_plays_something_new() -> None:
    game = oakwood.load("nutty")
    state = game.new_state(2, 7)
    seat = state.to_act()[0]
    agent = ISMCTSAgent(seed=3, iterations=20, playout_steps=5)
    first = agent.act(PlayerView.for_agent(state, seat, agent, Rng(1)))
    again = agent.act(PlayerView.for_agent(state, seat, agent, Rng(1)))  # the same position, as after a cycle
    assert first != again and again in state.legal_actions(seat)


def test_the_solo_count_of_decisions_does_not_hide_a_cycle() -> None:
    # Solo, every action moves the count of decisions (`solo=`): the same position two decisions later, as
    # after stepping sideways and back with Flying Squirrel, is still the information set it has played from.
    game = oakwood.load("nutty")
    text = game.new_state(1, 7).to_notation()
    assert " solo=0 " in text
    before, after = game.from_notation(text), game.from_notation(text.replace(" solo=0 ", " solo=2 "))
    assert game.information_key(before.observe(0)) == game.information_key(after.observe(0))
    assert before.observe(0) != after.observe(0)
    agent = ISMCTSAgent(seed=3, iterations=20, playout_steps=5)
    first = agent.act(PlayerView.for_agent(before, 0, agent, Rng(1)))
    again = agent.act(PlayerView.for_agent(after, 0, agent, Rng(1)))
    assert first != again and again in after.legal_actions(0)


@pytest.mark.parametrize("guided", [False, True])
def test_free_moves_never_trap_it_in_a_cycle(guided: bool) -> None:
    # Nutty's free gather and drop can lead straight back to the same position: whole games must still end.
    game = oakwood.load("nutty")
    agents = [
        make_agent(game, "ismcts", seed=s, iterations=8, playout_steps=5)
        if guided
        else ISMCTSAgent(seed=s, iterations=8, playout_steps=5)
        for s in range(2)
    ]
    result = play_match(game, agents, seed=11, max_steps=5000)
    assert result.state.is_terminal()


def test_back_where_it_left_its_guide_it_plays_the_guides_move() -> None:
    # A circle of free moves starts where the bot left its guide (a Nutty unstash after a stash): back there
    # it plays the guide's move, not its next-ranked one (which unstashed acorns or ended the turn).
    ranking = ("unstash brown", "end", "stash brown")
    assert _after_circle(ranking, "stash brown", Counter()) == "unstash brown"  # first time: the search's pick
    assert _after_circle(ranking, "stash brown", Counter({"unstash brown": 1})) == "stash brown"
    assert _after_circle(ranking, "stash brown", Counter({"stash brown": 1})) == "stash brown"  # a second time
    assert _after_circle(ranking, "stash brown", Counter({"stash brown": 2, "unstash brown": 1})) == "end"
    assert _after_circle(ranking, None, Counter({"unstash brown": 1})) == "end"  # no guide: what is untried


def test_a_guided_bot_back_at_a_position_plays_its_guides_move_twice_then_something_new() -> None:
    game = oakwood.load("nutty")
    state = game.new_state(2, 7)
    seat = state.to_act()[0]
    loyal = make_agent(game, "ismcts", seed=3, iterations=20, playout_steps=5, guide_z=math.inf)
    moves = [loyal.act(PlayerView.for_agent(state, seat, loyal, Rng(n))) for n in range(3)]
    hint = loyal.tree[(seat, game.information_key(state.observe(seat)))].hint  # the guide's move there
    assert hint is not None and moves[:2] == [hint, hint]
    assert moves[2] != hint and moves[2] in state.legal_actions(seat)


# ---------------------------------------------------------------------- guided by the game's own bot
@pytest.mark.parametrize(("name", "players", "options"), [g for g in GAMES if g[0] != TOY_NAME])
def test_guided_search_plays_only_legal_moves(name: str, players: int, options: dict[str, Any]) -> None:
    game = oakwood.load(name, **options)
    agents = [make_agent(game, "ismcts", seed=s, iterations=12, playout_steps=10) for s in range(players)]
    assert all(agent.guide is not None for agent in agents)  # the catalog guides search by Game.search_guide
    guide = agents[0].guide
    assert guide is not None and type(guide(1)) is type(make_agent(game, game.search_guide, seed=1))
    result = play_match(game, agents, seed=5, max_steps=20_000)
    assert result.state.is_terminal()


def test_the_guide_plays_the_playouts_and_suggests_a_move_at_every_new_node() -> None:
    game = oakwood.load("barrell")
    asked: list[int] = []

    class Recording:
        def __init__(self, seed: int) -> None:
            self.bot = make_agent(game, "heuristic", seed=seed)

        def act(self, view: PlayerView) -> Any:
            asked.append(view.seat)
            move = self.bot.act(view)
            assert move in view.legal_actions
            return move

    agent = ISMCTSAgent(seed=1, iterations=60, playout_steps=6, guide=Recording, guide_epsilon=0.0)
    state = game.new_state(2, 4)
    seat = state.to_act()[0]
    agent.act(PlayerView.for_agent(state, seat, agent, Rng(2)))
    hinted = [node for node in agent.tree.values() if node.hint is not None]
    assert len(hinted) == len(agent.tree)  # every node has the guide's suggestion
    assert len(asked) > len(agent.tree)  # and the guide played moves in the playouts too
    assert set(asked) == {0, 1}  # at every seat


def test_at_the_root_it_keeps_the_guides_move_unless_search_is_sure() -> None:
    game = oakwood.load("squarrels", single_round=True)
    guide = make_agent(game, game.search_guide, seed=0)  # the strategist
    loyal = make_agent(game, "ismcts", seed=3, iterations=40, guide_z=math.inf)
    state = game.new_state(2, 8)
    agreed = 0
    while not state.is_terminal() and agreed < 12:
        seat = state.to_act()[0]
        view = PlayerView.for_agent(state, seat, loyal, Rng(agreed))
        move = loyal.act(view)
        move = move.action if isinstance(move, Choice) else move
        expected = guide.act(view)
        assert move == (expected.action if isinstance(expected, Choice) else expected)
        state.apply(seat, move)
        agreed += 1
    assert agreed > 3


def test_the_margin_counts_standard_errors_between_two_means() -> None:
    node = Node()
    for value in (1.0, 0.0) * 50:  # mean 0.5, spread 0.5
        node.update("a", value)
    for value in (0.5,) * 100:  # mean 0.5, no spread
        node.update("b", value)
    assert node.margin("a", "b") == pytest.approx(0.0)
    node.update("c", 1.0)
    assert node.margin("c", "a") == 0.0  # a single visit says nothing
    for value in (1.0, 0.8) * 50:  # mean 0.9, spread 0.1: 0.4 above "a" over a standard error of ~0.051
        node.update("d", value)
    assert node.margin("d", "a") == pytest.approx(0.4 / math.sqrt(0.25 / 100 + 0.01 / 100), rel=1e-6)
    assert node.margin("a", "d") < -7


def test_a_free_cycle_scores_what_the_tree_says_its_information_set_is_worth() -> None:
    # Solo, on L1c1 carrying one brown with another lying there: a drop and a gather lead back here. Scored by
    # a playout from the repeat, the cycle was judged by the guide's play alone while every real move was
    # judged through the tree's exploration as well, so it looked best: in the strength run (seed 9003) the
    # expert dropped and gathered until its memory of moves played forced another move, often a bad one.
    game = oakwood.load("nutty")
    here = game.from_notation(
        "nutty:solo players=1 tree=2*1.0,~BB,~G,~3,~G/~3,~2,~1,~2,~3/~G,~0,~1,~BB,~OW/~1,~0,~1,~0,~G/"
        "~2,~1,~1,~ST,~2/~ST,~3,~BB,~BB,~2 deck=3,G,1,1,2,2 out=- hidden=- box=WG,WG,FG,SF,SF,AR,AR,SW,FL,BP,LA,"
        "SR,SP,DO market=SW,FL,BP,LA supply=58.15 gone=0.0 p1=L1c1|-|1.0|-|0.0|0.0|0.0|0.0 solo=2 phase=play "
        "result=- rng=512692256111412569:36"
    )
    drop, gather = game.parse_action("drop brown"), game.parse_action("gather brown")
    dropped = here.clone()
    dropped.apply(0, drop)
    agent = ISMCTSAgent(seed=1, iterations=1, playout_steps=5)
    for state, favourite in ((here, drop), (dropped, gather)):  # every move tried once, the cycle's best
        node = agent.tree[(0, game.information_key(state.observe(0)))] = Node()
        for action in state.legal_actions(0):
            node.update(action, 0.9 if action == favourite else 0.1)
            node.available[action] = 1
    root = agent.tree[(0, game.information_key(here.observe(0)))]
    worth = sum(root.reward.values()) / sum(root.visits.values())  # what the tree says this place is worth
    agent._iterate(here.clone(), 0, Rng(3))
    assert root.visits[drop] == 2
    assert root.reward[drop] == pytest.approx(0.9 + worth)


# Two solo positions of the strength run's game (seed 9100) where the expert's search preferred another move to
# the strategist's: buying the backpack was much better (+0.6 wins on 200 fresh worlds), moving inwards with a
# nest brown instead of stashing the golden worse (-0.29).
BETTER_THAN_THE_GUIDE = (
    "nutty:solo players=1 tree=2,~3,~2,~1,~BB/ST,G,~G,~3,~1/~2,~0,~G,~2,~1/~3,~2,~3,~1,~0/~ST,~1,~1,~BB,~1/"
    "~BB,~1,~3,~BB,~G deck=2,OW,G,0,2,2 out=- hidden=- box=WG,WG,FG,SF,SF,AR,AR,SW,FL,BP,LA,SR,SP,DO "
    "market=SW,FL,BP,LA supply=58.14 gone=0.0 p1=L2c2|-|0.1|-|2.0|0.0|0.0|0.0 solo=9 phase=play result=- "
    "rng=9100:36",
    "move L2c1",
    "buy backpack",
)
WORSE_THAN_THE_GUIDE = (
    "nutty:solo players=1 tree=2,~3,~2,~1,~BB/ST,G,G*1.0,3*1.0,1/~2,~0,~G,~2,~1/~3,~2,~3,~1,~0/~ST,~1,~1,~BB,~1/"
    "~BB,~1,~3,~BB,~G deck=2,OW,G,0,2,2 out=- hidden=- box=WG,WG,FG,SF,SF,AR,AR,SW,FL,BP,LA,SR,SP,DO "
    "market=SW,FL,LA supply=53.14 gone=0.0 p1=T|BP|1.0|g|4.0|0.0|0.0|0.0 solo=24 phase=play result=- "
    "rng=9100:36",
    "stash golden",
    "move L1c1 with nest brown",
)


@pytest.mark.parametrize(
    ("position", "kept"), [(BETTER_THAN_THE_GUIDE, True), (WORSE_THAN_THE_GUIDE, False)], ids=["better", "worse"]
)
def test_a_departure_from_the_guide_is_played_only_if_fresh_worlds_confirm_it(
    position: tuple[str, str, str], kept: bool
) -> None:
    game = oakwood.load("nutty")
    notation, guide_move, departure = position
    state = game.from_notation(notation)
    hint, preferred = game.parse_action(guide_move), game.parse_action(departure)
    assert make_agent(game, game.search_guide).act(PlayerView.of(state, 0)) == hint

    trusting = make_agent(game, "ismcts", seed=1, iterations=1, confirm=0)
    _sure_of_a_departure(trusting, state, 0, hint, preferred)
    assert trusting.act(PlayerView.for_agent(state, 0, trusting, Rng(2))) == preferred
    careful = make_agent(game, "ismcts", seed=1, iterations=1)  # solo asks for confirmation
    assert careful.confirm is None and game.confirm_departures[1] > 0
    _sure_of_a_departure(careful, state, 0, hint, preferred)
    assert careful.act(PlayerView.for_agent(state, 0, careful, Rng(2))) == (preferred if kept else hint)


def _sure_of_a_departure(agent: ISMCTSAgent, state: State, seat: int, hint: Any, departure: Any) -> None:
    """Give ``agent`` a search tree whose root, ``seat``'s view of ``state``, ranks ``departure`` far above the
    guide's move ``hint``: what a search that followed its noise would hold."""
    root = agent.tree[(seat, state.game.information_key(state.observe(seat)))] = Node(hint=hint)
    for action in state.legal_actions(seat):
        for value in (0.8, 1.0) * 20 if action == departure else (0.1, 0.3):
            root.update(action, value)
            root.available[action] = root.available.get(action, 0) + 1


def test_at_two_players_too_a_departure_fresh_worlds_refute_is_not_played() -> None:
    """Nutty Squirrels asks two-player searches to confirm their departures as well (its expert was weaker than
    its guide alone without it: benchmarks/README.md). Ending the first turn without a step is far worse than
    the strategist's move, however sure the search's tree says it is."""
    game = oakwood.load("nutty")
    state = game.new_state(2, seed=5)
    seat = 1
    hint = make_agent(game, game.search_guide).act(PlayerView.of(state, seat))
    departure = game.parse_action("end")
    assert hint != departure and game.confirm_departures[2] > 0

    trusting = make_agent(game, "ismcts", seed=1, iterations=1, confirm=0)
    _sure_of_a_departure(trusting, state, seat, hint, departure)
    assert trusting.act(PlayerView.for_agent(state, seat, trusting, Rng(2))) == departure
    careful = make_agent(game, "ismcts", seed=1, iterations=1)  # the game's own confirmation at two players
    _sure_of_a_departure(careful, state, seat, hint, departure)
    assert careful.act(PlayerView.for_agent(state, seat, careful, Rng(2))) == hint
