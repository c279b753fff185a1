"""NS-18, perfect recall: every card a seat has seen stays where it saw it go in every world; only cards
nobody has seen are drawn again, uniformly. Scenarios in notation, then a sweep over random games."""

from __future__ import annotations

from collections import Counter
from typing import Any

import oakwood
from oakwood.engine import Rng, State

from .helpers import board, load, play, position
from .test_scenarios import tree

WORLDS = 60


def worlds(state: State, seat: int, count: int = WORLDS) -> list[Any]:
    """``count`` worlds of ``seat``, each checked to look exactly like the truth to that seat."""
    view = state.observe(seat)
    out = []
    for k in range(count):
        world = state.determinize(seat, Rng(1000 + k))
        assert world.observe(seat) == view
        world.check_invariants()
        out.append(world)
    return out


def hidden_cards(state: Any) -> Counter[str]:
    """Every card nobody has seen: face down on the tree, the Leaf Deck, cut face down by a break."""
    cards = Counter(slot[0] for limb in state.limbs for slot in limb if not slot[1])
    return cards + Counter(state.deck) + Counter(state.out_hidden)


def seen_cards(state: Any) -> tuple[Any, ...]:
    """Every card some seat has seen, where it is now: face-up slots (with their acorns and position),
    out of play face up, on the boards, beside them (Sappy Feet), set aside and in the market (solo)."""
    tree = tuple(
        (limb, pos, slot) for limb, cards in enumerate(state.limbs) for pos, slot in enumerate(cards) if slot[1]
    )
    return (
        tree,
        sorted(state.out_known),
        tuple(state.powers),
        tuple(state.sappy_next),
        tuple(state.sappy_now),
        sorted(state.box),
        sorted(state.market),
    )


def assert_recall(state: State, varying: list[tuple[int, int]]) -> None:
    """In every world of every seat the seen cards are as in the truth, the unseen ones are the same
    multiset, and each face-down slot in ``varying`` holds different cards in different worlds."""
    truth_seen, truth_hidden = seen_cards(state), hidden_cards(state)
    for seat in range(state.num_players):
        drawn = worlds(state, seat)
        for world in drawn:
            assert seen_cards(world) == truth_seen
            assert hidden_cards(world) == truth_hidden
        for limb, pos in varying:
            kinds = {world.limbs[limb][pos][0] for world in drawn}
            assert not any(world.limbs[limb][pos][1] for world in drawn)
            assert len(kinds) >= 3, f"L{limb + 1}c{pos + 1} hardly varies: {kinds}"


def test_a_card_seen_when_flipped_and_later_shifted_is_still_that_card() -> None:
    """The issue's example: P1 flips a 2-brown leaf at L1c3, then flips and claims the Lasso at L1c2; the
    leaf slides to L1c2 with its acorns and a card nobody has seen refills L1c5."""
    text = position(tree("~1,~LA,~2*1.0,~1,~1*1.0"), [board(at="L1c3"), board()])
    state = play(load(text), "flip", "move L1c2", "flip", "claim")
    view = state.observe(0)
    assert [card["card"] for card in view["tree"][0]] == [None, "2", None, None, None]
    assert view["tree"][0][1]["brown"] == 3  # the leaf's two and the setup acorn shifted with it
    assert view["boards"][0]["powers"] == ["LA"]
    assert_recall(state, varying=[(0, 0), (0, 2), (0, 4)])
    for world in worlds(state, 1):
        assert world.limbs[0][1] == ("2", True, 3, 0)


def test_cards_the_arborist_revealed_stay_revealed() -> None:
    """NS-10: the Arborist shows every other card of its limb; the leaves and the power stay face up where
    they are, the Wind Gust it found leaves play face up, and the two refills are unseen."""
    text = position(tree("~AR,~1,~SW,~WG,~2"), [board(at="L1c1"), board()])
    state = play(load(text), "flip")
    view = state.observe(None)
    assert [card["card"] for card in view["tree"][0]] == ["1", "SW", "2", None, None]
    assert view["out_of_play"]["cards"] == ["WG", "AR"]
    assert_recall(state, varying=[(0, 3), (0, 4), (1, 0)])


def test_a_limb_break_keeps_the_face_up_cards_it_cuts_and_redraws_the_rest() -> None:
    """NS-6: beyond a break, the face-up leaf leaves play face up (known); the two face-down cards leave
    unseen, drawn again in every world from everything nobody has seen."""
    text = position(tree("BB,~BB,~1,2*2.0,~1"), [board(at="L1c2"), board()])
    state = play(load(text), "flip")
    assert state.limbs[0] == [("BB", True, 0, 0), ("BB", True, 0, 0)]
    assert sorted(state.out_known) == ["2"]
    assert len(state.out_hidden) == 2
    assert_recall(state, varying=[(1, 0), (2, 4)])
    kinds = {tuple(sorted(world.out_hidden)) for world in worlds(state, 1)}
    assert len(kinds) >= 3


def test_a_power_swapped_onto_the_tree_is_known_there() -> None:
    """NS-5: with three powers, claiming leaves one of them face up on the card: everyone saw it go there."""
    text = position(tree("SW,~1,~1,~1,~2"), [board(at="L1c1", powers="FL,BP,LA"), board()])
    state = play(load(text), "claim swap lasso")
    assert state.limbs[0][0] == ("LA", True, 0, 0)
    assert_recall(state, varying=[(0, 1), (0, 4)])


def test_solo_a_revealed_card_shifted_by_a_paid_owl() -> None:
    """NS-17: landing on the Owl flips it; bribed, it leaves and the face-up leaf beyond it closes the gap,
    still that leaf with its acorns; the cards further out, never seen, vary."""
    text = position(tree("~1,~OW,2*2.0,~1,~1"), [board(nest="3.0")], solo=True)
    state = play(load(text), "move L1c1", "move L1c2")
    assert state.limbs[0][:2] == [("1", True, 1, 0), ("2", True, 2, 0)]
    assert sorted(state.out_known) == ["OW"]
    assert_recall(state, varying=[(0, 2), (0, 3), (1, 0)])


def test_random_games_never_forget_a_seen_card() -> None:
    """Over random games (solo, 2, 4 and 6 players, a variant set), at every tenth step, the worlds of every
    seat keep every seen card and redraw only the unseen ones."""
    for options, players in (({}, 1), ({}, 2), ({"arborist_mode": "chain"}, 4), ({"solo_keep_events": True}, 1),
                             ({"break_tokens_beyond": "slide_to_break"}, 6)):  # fmt: skip
        game = oakwood.load("nutty", **options)
        for seed in range(3):
            state = game.new_state(players, seed)
            rng = Rng(seed)
            step = 0
            while not state.is_terminal():
                if step % 10 == 0:
                    seat = rng.randbelow(players)
                    for _ in range(3):
                        world = state.determinize(seat, rng)
                        assert seen_cards(world) == seen_cards(state)
                        assert hidden_cards(world) == hidden_cards(state)
                        assert world.observe(seat) == state.observe(seat)
                actor = state.to_act()[0]
                legal = state.legal_actions(actor)
                state.apply(actor, legal[rng.randbelow(len(legal))])
                step += 1
