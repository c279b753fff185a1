"""ISMCTS with a bounded tree between moves (``keep``, as the web server's bots play): the bound, what it keeps,
determinism, and letting go of the tree (``forget``)."""

from __future__ import annotations

import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.agents.ismcts import ISMCTSAgent
from oakwood.arena.match import play_match
from oakwood.engine import PlayerView, Rng


def _searched_moves(agent: ISMCTSAgent, other: ISMCTSAgent | None = None, moves: int = 8) -> list[int]:
    """Play a two-player Barrell game's first legal moves, asking ``agent`` (and ``other``, on the same view) at
    each of seat 0's choices; the size of ``agent``'s tree after each of its moves."""
    game = oakwood.load("barrell")
    state = game.new_state(2, 11)
    rng = Rng(5)
    sizes: list[int] = []
    while not state.is_terminal() and len(sizes) < moves:
        seat = state.to_act()[0]
        if seat == 0 and len(state.legal_actions(seat)) > 1:
            view = PlayerView.for_agent(state, seat, agent, rng)
            agent.act(view)
            if other is not None:
                other.act(view)
            sizes.append(len(agent.tree))
        state.apply(seat, state.legal_actions(seat)[0])
    return sizes


def test_keep_bounds_the_tree_after_every_move() -> None:
    bounded, whole = ISMCTSAgent(seed=3, iterations=60, keep=10), ISMCTSAgent(seed=3, iterations=60)
    sizes = _searched_moves(bounded, whole)
    assert sizes and max(sizes) <= 10
    assert len(whole.tree) > 10 * len(sizes)  # kept whole, the tree grows by about an iteration's node each time


def test_what_is_kept_is_what_the_last_search_reached() -> None:
    agent = ISMCTSAgent(seed=3, iterations=60, keep=10**9)  # no cut by number: only the last search's nodes
    whole = ISMCTSAgent(seed=3, iterations=60)
    sizes = _searched_moves(agent, whole)
    assert len({node.reached for node in agent.tree.values()}) == 1  # one search reached them all
    assert 0 < sizes[-1] < len(whole.tree)


def test_keep_zero_keeps_nothing_between_moves() -> None:
    assert set(_searched_moves(ISMCTSAgent(seed=3, iterations=30, keep=0))) == {0}


def test_a_bounded_bot_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    game = oakwood.load("squarrels", single_round=True)

    def moves() -> list[tuple[int, object]]:
        agents = [make_agent(game, "ismcts", seed=1, iterations=25, keep=5), make_agent(game, "random", seed=2)]
        return play_match(game, agents, seed=3).state.history

    assert moves() == moves()


def test_forget_lets_go_of_the_tree_and_the_moves_played() -> None:
    agent = ISMCTSAgent(seed=3, iterations=30)
    _searched_moves(agent, moves=2)
    assert agent.tree and agent.played
    kept = agent.tree
    agent.forget()
    assert not agent.tree and not agent.played and kept  # a search running meanwhile keeps its own tree


def test_keep_is_a_number_of_nodes() -> None:
    with pytest.raises(ValueError, match="keep"):
        ISMCTSAgent(keep=-1)
