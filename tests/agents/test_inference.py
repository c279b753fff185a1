"""Inference (``oakwood.agents.inference``): worlds weighted by what the opponents did, never by the truth."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any

import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.agents.inference import Belief, InferenceAgent, InferenceView, NoisyBot, game_carry
from oakwood.agents.ismcts import ISMCTSAgent
from oakwood.engine import Choice, Game, PlayerView, Rng, State
from oakwood.games.barrell.cards import IS_JACK


def _model(game: Game[Any], noise: float = 0.1, seed: int = 3) -> NoisyBot:
    return NoisyBot(lambda s: make_agent(game, "medium", seed=s), noise, seed=seed)


def _move(bot: Any, view: PlayerView) -> Hashable:
    chosen = bot.act(view)
    return chosen.action if isinstance(chosen, Choice) else chosen


def _follow(game: Game[Any], seed: int, particles: int, check: Any = None) -> Belief:
    """A medium-against-medium game with a filter on seat 0, fed only seat 0's views and moves; ``check(view,
    belief, truth)`` runs after every update."""
    state = game.new_state(2, seed)
    bots = [make_agent(game, "medium", seed=s) for s in range(2)]
    belief = Belief(_model(game), particles=particles, seed=1)
    rng = Rng(seed)
    while not state.is_terminal():
        seat = state.to_act()[0]
        view = PlayerView.of(state, seat, world_rng=rng)
        action = _move(bots[seat], view)
        if seat == 0:
            belief.update(view)
            if check is not None:
                check(view, belief, state)
            belief.acted(action)
        state.apply(seat, action)
    return belief


@pytest.mark.parametrize(("name", "options", "seed"), [("barrell", {}, 11), ("squarrels", {"single_round": True}, 3)])
def test_particles_and_carried_worlds_stay_worlds_of_what_the_seat_knows(
    name: str, options: dict[str, Any], seed: int
) -> None:
    game = oakwood.load(name, **options)
    assert game_carry(game) is not None

    def check(view: PlayerView, belief: Belief, truth: State) -> None:
        key = game.information_key(view.observation)
        sampled = [belief.sample(view, Rng(len(belief.pool) + i)) for i in range(4)]
        for world in [p.world for p in belief.pool] + sampled:
            assert game.information_key(world.observe(0)) == key  # the seat's observation, unchanged
            world.check_invariants()  # every card once, knowledge consistent
            assert world is not truth

    belief = _follow(game, seed, 6, check)
    # the trail was followed at most stretches and broken (then carried) at some: both paths ran
    assert belief.stats.followed > 0 and belief.stats.carried > 0


@pytest.mark.parametrize(("name", "options"), [("barrell", {}), ("squarrels", {"single_round": True})])
def test_carry_moves_the_hidden_hand_to_where_the_particle_has_it(name: str, options: dict[str, Any]) -> None:
    game = oakwood.load(name, **options)
    truth = game.new_state(2, 6)
    seat = truth.to_act()[0]
    carry = game_carry(game)
    assert carry is not None
    closer = 0
    for i in range(10):
        believed, fresh = truth.determinize(seat, Rng(i)), truth.determinize(seat, Rng(100 + i))
        carried = carry(believed, fresh, seat)
        assert carried.observe(seat) == fresh.observe(seat) and fresh.observe(1 - seat) != carried.observe(1 - seat)
        hand = Counter(carried.observe(1 - seat)["hand"])
        assert hand == Counter(believed.observe(1 - seat)["hand"])  # nothing known yet: the whole hand moves
        closer += 1
    assert closer == 10


def test_a_game_without_a_carry_hook_starts_a_broken_trail_afresh() -> None:
    game = oakwood.load("nutty", max_rounds=2)
    assert game_carry(game) is None
    belief = _follow(game, 2, 4)
    assert belief.stats.updates > 5 and belief.stats.followed > 0


def test_weighted_worlds_put_the_true_hidden_cards_where_they_are_more_often_than_uniform_worlds() -> None:
    # The claim of issue 37's inference, on one seeded game (benchmarks/inference.py measures it over many).
    game = oakwood.load("barrell")
    found: list[tuple[float, float]] = []

    def check(view: PlayerView, belief: Belief, truth: State) -> None:
        if belief.stats.updates < 2:
            return
        hidden = [c for c in truth.observe(1)["hand"] if c not in view.observation["known_in_hands"][1]]
        uniform = [truth.determinize(0, Rng(i)) for i in range(len(belief.pool))]
        for card in hidden:
            weighted = sum(
                w for p, w in zip(belief.pool, belief.weights(), strict=True) if card in p.world.observe(1)["hand"]
            )
            plain = sum(card in world.observe(1)["hand"] for world in uniform) / len(uniform)
            found.append((weighted, plain))

    _follow(game, 11, 16, check)
    weighted = sum(w for w, _ in found) / len(found)
    plain = sum(u for _, u in found) / len(found)
    assert len(found) > 50 and weighted > plain + 0.03, (weighted, plain)


def test_two_truths_the_seat_cannot_tell_apart_give_the_same_weighted_worlds() -> None:
    # The second truth is a world of the first (the opponent's hand and the Deck re-dealt); in each, seat 0 plays
    # the same card and the opponent plays a card face down (a different one: its hand differs), so seat 0 sees
    # the same thing in both. The filter, fed only its views, must end with the very same particles and weights.
    game = oakwood.load("barrell")
    truth = game.new_state(2, 4)
    while not (truth.observe(0)["phase"] == "play" and truth.to_act() == (0,)):
        seat = truth.to_act()[0]
        truth.apply(
            seat, _face_down(truth, seat) if truth.observe(0)["phase"] == "play" else truth.legal_actions(seat)[-1]
        )
    other = truth.determinize(0, Rng(99))
    assert other.observe(0) == truth.observe(0) and other.to_json() != truth.to_json()
    ends = []
    for state in (truth, other):
        belief = Belief(_model(game), particles=12, seed=5)
        rng = Rng(7)
        for _ in range(2):
            view = PlayerView.of(state, 0, world_rng=rng)
            belief.update(view)
            mine = _face_down(state, 0)
            belief.acted(mine)
            state.apply(0, mine)
            state.apply(1, _face_down(state, 1))
        belief.update(PlayerView.of(state, 0, world_rng=rng))
        ends.append(([p.world.to_notation() for p in belief.pool], belief.weights(), state.observe(0)))
    assert ends[0][2] == ends[1][2]  # the seat saw the same thing …
    assert ends[0][:2] == ends[1][:2]  # … and believes the same thing
    assert len(set(ends[0][1])) > 1  # weights that differ: the moves seen were weighed


def _face_down(state: State, seat: int) -> Hashable:
    """A card ``seat`` may play face down (the first that is not a Jack)."""
    return next(a for a in state.legal_actions(seat) if a.verb == "play" and not IS_JACK[a.card])  # type: ignore[attr-defined]


def _history(game: Game[Any], seed: int, steps: int = 40) -> list[tuple[int, object]]:
    """The first ``steps`` moves of the inference bot (a small search) against the heuristic."""
    bot = InferenceAgent(ISMCTSAgent(seed=seed, iterations=6, playout_steps=6), _model(game), particles=6, seed=seed)
    agents = [bot, make_agent(game, "medium", seed=2)]
    state = game.new_state(2, 3)
    rng = Rng(4)
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        state.apply(seat, _move(agents[seat], PlayerView.for_agent(state, seat, agents[seat], rng)))
    return state.history


def test_the_bot_plays_deterministically_for_a_seed() -> None:
    # Each bot plays the first 40 moves of a game (or the whole game, if shorter) twice over.
    for name, options in (("barrell", {}), ("squarrels", {"single_round": True})):
        game = oakwood.load(name, **options)
        first = _history(game, 1)
        assert len(first) > 10 and first == _history(game, 1)


def test_the_view_draws_from_the_belief_and_the_bot_forgets() -> None:
    game = oakwood.load("barrell")
    state = game.new_state(2, 2)
    seat = state.to_act()[0]
    view = PlayerView.of(state, seat, world_rng=Rng(1))
    bot = InferenceAgent(ISMCTSAgent(seed=1, iterations=5), _model(game), particles=4, seed=1)
    bot.act(view)
    pool = {id(p.world) for p in bot.belief.pool}
    wrapped = InferenceView.over(view, bot.belief)
    assert wrapped.observation == view.observation and wrapped.legal_actions == view.legal_actions
    worlds = list(wrapped.sample_states(3, Rng(2)))
    assert len(worlds) == 3 and not any(id(world) in pool for world in worlds)  # fresh worlds, carried into
    bot.forget()
    assert bot.belief.pool == [] and bot.inner.tree == {}


def test_bad_settings_are_refused_in_one_line() -> None:
    game = oakwood.load("barrell")
    with pytest.raises(ValueError, match="noise"):
        _model(game, noise=0.0)
    with pytest.raises(ValueError, match="particle"):
        Belief(_model(game), particles=0)
    with pytest.raises(ValueError, match="branch_nodes"):
        Belief(_model(game), branch_nodes=0)
