"""How S'Quarrels draws its worlds (issue 36): from the searching bot's own stream, the deck grown by insertion.

A world's deck is the rest of the shuffled pool with each Action card put in at a uniform place of it, which must
keep the deck's order uniform: these tests count where the Action cards land over many worlds.
"""

from __future__ import annotations

import oakwood
from oakwood.engine import Rng
from oakwood.games.squarrels.cards import HAND_KINDS


def _state() -> oakwood.State:
    """A fresh single-round table of four: most of the deck unseen, its Action cards among it."""
    return oakwood.load("squarrels", single_round=True).new_state(4, 11)


def test_a_world_draws_from_the_given_stream_and_repeats_for_the_same_position_of_it() -> None:
    state = _state()
    rng = Rng(5)
    first = state.determinize(0, rng)
    assert rng.counter > 1  # the world's cards came from this stream (it used to take one word: a seed)
    second = state.determinize(0, rng)
    again = state.determinize(0, Rng(5))
    assert again.to_notation() == first.to_notation()
    assert second.to_notation() != first.to_notation()


def test_the_action_cards_land_uniformly_in_a_worlds_deck() -> None:
    state = _state()
    rng = Rng(2026)
    worlds = 600
    top_is_action = 0
    positions = 0.0
    actions = 0
    size = 0
    for _ in range(worlds):
        deck = state.determinize(0, rng).deck
        size = len(deck)
        places = [i for i, card in enumerate(deck) if card >= HAND_KINDS]
        actions = len(places)
        top_is_action += deck[0] >= HAND_KINDS
        positions += sum(places) / len(places)
    assert actions > 0 and size > 2 * actions
    # The top card is an Action card with probability actions / size (a binomial count, within 4.5 sigma).
    p = actions / size
    mean, sigma = worlds * p, (worlds * p * (1 - p)) ** 0.5
    assert abs(top_is_action - mean) < 4.5 * sigma, (top_is_action, mean)
    # The Action cards' mean place is (size - 1) / 2 on average: the variance of the mean of ``actions`` places
    # drawn without replacement from range(size) is (size**2 - 1) / 12 / actions * (size - actions) / (size - 1).
    spread = ((size**2 - 1) / 12 / actions * (size - actions) / (size - 1) / worlds) ** 0.5
    assert abs(positions / worlds - (size - 1) / 2) < 4.5 * spread, (positions / worlds, (size - 1) / 2)
