"""oracle.py (issue 37): the expert handed the truth's hidden cards, a ceiling for inference."""

from __future__ import annotations

from oakwood.arena.simulate import simulate
from oakwood.arena.stats import deal_summary
from oakwood.engine import Rng
from oakwood.engine import load as load_game
from oakwood.engine.agent import PlayerView
from tests.benchmarks.test_scripts import load


def test_an_oracle_world_is_the_truth_but_for_the_deck_order_and_the_future() -> None:
    oracle = load("oracle")
    state = load_game("squarrels", single_round=True).new_state(2, 7)
    for _ in range(6):  # a few moves in, so hands and the Hoard have moved
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    world = oracle.unknowable_redrawn(state, Rng(3))
    assert world.hands == state.hands and world.hoard == state.hoard  # every hidden card where it truly is
    assert sorted(world.deck) == sorted(state.deck) and world.deck != state.deck  # the Deck's order unknown
    assert world.rng.seed != state.rng.seed


def test_the_oracle_searches_worlds_of_the_truth() -> None:
    oracle = load("oracle")
    state = load_game("squarrels", single_round=True).new_state(2, 11)
    seen: list[object] = []

    class Spy:
        def act(self, view: PlayerView) -> object:
            seen.extend(view.sample_states(3, Rng(1)))
            return view.legal_actions[0]

    seat = state.to_act()[0]
    oracle.Oracle(Spy(), state).act(PlayerView.of(state, seat))
    assert len(seen) == 3 and all(world.hands == state.hands for world in seen)  # type: ignore[attr-defined]


def test_the_plain_expert_plays_strength_pys_deals_and_the_oracle_plays_them_too() -> None:
    oracle, strength = load("oracle"), load("strength")
    settings = {"iterations": 12}
    spec = strength.duplicate_spec("squarrels-2", "expert", "medium", 1, 5, {"expert": settings})
    stored = deal_summary(simulate(spec, workers=1), 0).win_rate
    assert oracle.play_deal(("squarrels-2", 5, 0, False, settings)) == stored  # the same games, seat for seat
    assert 0.0 <= oracle.play_deal(("squarrels-2", 5, 0, True, settings)) <= 1.0
