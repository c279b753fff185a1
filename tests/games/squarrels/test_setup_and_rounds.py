"""Setup through ``new_state`` (SQ-2, scenario 1) and the rulings between rounds (SQ-17, SQ-18, SQ-19).

The setup tests compare the engine's deal with an independent reference deal built from the same ``Rng``
stream, and choose seeds by scanning for the deal each ruling needs.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import oakwood
from oakwood.engine import Rng, State
from oakwood.games.squarrels.cards import HAND_KINDS, HOARD, NAMES, SYMBOLS, WINTER, full_deck
from tests.games.squarrels.helpers import GAME, fields, hands, last_events, play, position, storage, turn


# ---------------------------------------------------------------------------------------------- reference deal
@cache
def reference_deal(seed: int, players: int) -> tuple[int, dict[int, list[int]], dict[int, list[int]], list[int]]:
    """``(dealer, first seven cards per seat, hands after replacement, set-aside cards)`` for a fresh match.

    Written from the rulebook: shuffle, deal seven one at a time from the dealer's left, then replace every
    Action card in seat order until each hand holds only Number and Special cards.
    """
    rng = Rng(seed)
    dealer = rng.randbelow(players)  # SQ-19: the first dealer is random
    deck = full_deck()
    rng.shuffle(deck)
    order = [(dealer + 1 + i) % players for i in range(players)]
    dealt: dict[int, list[int]] = {s: [] for s in order}
    for _ in range(7):
        for seat in order:
            dealt[seat].append(deck.pop())
    final = {s: [c for c in dealt[s] if c < HAND_KINDS] for s in order}
    aside = [c for s in order for c in dealt[s] if c >= HAND_KINDS]
    for seat in order:
        while len(final[seat]) < 7:
            card = deck.pop()
            (final[seat] if card < HAND_KINDS else aside).append(card)
    return dealer, dealt, final, aside


def find_seed(players: int, want: str) -> int:
    """The first seed whose deal fits ``want``: ``p2_hoard_winter`` or ``no_winter``."""
    for seed in range(5000):
        _, dealt, _, aside = reference_deal(seed, players)
        if want == "p2_hoard_winter" and WINTER in dealt[1] and HOARD in dealt[1]:
            return seed
        if want == "no_winter" and WINTER not in aside and len(aside) >= 3:
            return seed
    raise AssertionError(f"no seed found for {want}")


def symbols(cards: list[int]) -> str:
    return "".join(SYMBOLS[c] for c in sorted(cards)) or "-"


def zone_total(state: State) -> int:
    obs = state.observe(None)
    stored = sum(3 * len(sets) for sets in obs["storage"])
    loose = obs["deck_size"] + sum(obs["hand_sizes"]) + sum(obs["action_discard"].values()) + obs["hoard_pile_size"]
    return int(loose + stored)


# ---------------------------------------------------------------------------------------------- SQ-2 / scenario 1
def test_scenario1_winter_in_setup_reshuffles_every_set_aside_card() -> None:
    seed = find_seed(4, "p2_hoard_winter")
    dealer, _, final, aside = reference_deal(seed, 4)
    state = GAME.new_state(4, seed)
    start = last_events(state, "round_start")[0]
    assert start["winter_reshuffle"] is True
    assert "hoard" in start["set_aside"] and "winter" in start["set_aside"]
    assert sorted(start["set_aside"]) == sorted(NAMES[c] for c in aside)
    assert hands(state) == "/".join(symbols(final[s]) for s in range(4))  # hands are kept
    obs = state.observe(None)
    assert obs["action_discard"] == {} and obs["deck_size"] == 120 - 7 * 4
    assert obs["hand_sizes"] == [7] * 4
    deck = Counter(fields(state)["deck"])
    assert deck["W"] == 1 and deck["H"] == 8 and deck["Q"] == 8  # every Action is back in the Deck
    assert obs["dealer"] == dealer and turn(state) == (f"P{(dealer + 1) % 4 + 1}", "must_draw")


def test_sq2_winter_only_variant_returns_only_winter() -> None:
    seed = find_seed(4, "p2_hoard_winter")
    _, _, final, aside = reference_deal(seed, 4)
    state = oakwood.load("squarrels", setup_winter_reshuffle="winter_only").new_state(4, seed)
    assert last_events(state, "round_start")[0]["winter_reshuffle"] is True
    assert hands(state) == "/".join(symbols(final[s]) for s in range(4))
    others = Counter(NAMES[c] for c in aside if c != WINTER)
    assert state.observe(None)["action_discard"] == dict(others)
    assert state.observe(None)["deck_size"] == 120 - 28 - sum(others.values())
    assert "W" in fields(state)["deck"]


def test_sq2_without_winter_the_set_aside_cards_go_to_discard() -> None:
    seed = find_seed(3, "no_winter")
    _, _, final, aside = reference_deal(seed, 3)
    state = GAME.new_state(3, seed)
    assert last_events(state, "round_start")[0]["winter_reshuffle"] is False
    assert hands(state) == "/".join(symbols(final[s]) for s in range(3))
    assert state.observe(None)["action_discard"] == dict(Counter(NAMES[c] for c in aside))
    assert state.observe(None)["deck_size"] == 120 - 21 - len(aside)


def test_sq19_first_dealer_is_random() -> None:
    dealers = {GAME.new_state(4, seed).observe(None)["dealer"] for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    for seed in range(5):
        state = GAME.new_state(4, seed)
        assert last_events(state, "match_start")[0]["dealer"] == reference_deal(seed, 4)[0]


# ---------------------------------------------------------------------------------------------- SQ-17
def test_sq17_between_rounds_everything_resets_but_the_totals() -> None:
    state = position(
        3, "2G/55/R", deck="W", storage="13/4/-", hoard="3@2", round_no=2, last="3,4,5", totals="3,4,5", dealer=3
    )
    play(state, "P1 draw")
    obs = state.observe(None)
    assert obs["round"] == 3
    assert obs["last_round_scores"] == [9, 4, -5]
    assert obs["scores"] == [12, 8, 0]
    assert storage(state) == "-/-/-" and fields(state)["hoard"] == "-"
    assert obs["hand_sizes"] == [7, 7, 7]
    assert zone_total(state) == 120
    state.check_invariants()
    assert last_events(state, "round_start")[-1]["round"] == 3


# ---------------------------------------------------------------------------------------------- SQ-18
def test_sq18_reaching_the_target_ends_the_match() -> None:
    state = position(2, "1/2", deck="W", storage="5/55", round_no=3, last="22,25", totals="47,45", dealer=2)
    play(state, "P1 draw")
    assert state.is_terminal() and state.scores() == [52.0, 55.0] and state.winners() == [1]
    state = position(2, "1/2", deck="W", storage="5/-", round_no=2, last="45,0", totals="45,0", dealer=1)
    play(state, "P1 draw")
    assert state.is_terminal() and state.winners() == [0]  # exactly the target counts as reaching it


def test_sq18_equal_totals_at_the_target_play_an_extra_round() -> None:
    state = position(2, "1/2", deck="W", storage="34/34", round_no=3, last="22,22", totals="45,45")
    play(state, "P1 draw")
    assert not state.is_terminal()
    assert state.observe(None)["round"] == 4 and state.scores() == [52.0, 52.0]


def test_sq18_shared_win_variant() -> None:
    game = oakwood.load("squarrels", target_tie="shared_win")
    state = position(2, "1/2", deck="W", storage="34/34", round_no=3, last="22,22", totals="45,45", game=game)
    play(state, "P1 draw")
    assert state.is_terminal() and state.winners() == [0, 1] and state.returns() == [0.5, 0.5]


def test_sq18_single_round_highest_round_score_wins() -> None:
    game = oakwood.load("squarrels", single_round=True)
    state = position(3, "1/2/3", deck="W", storage="5/13/5", game=game)
    play(state, "P1 draw")
    assert state.is_terminal() and state.winners() == [0, 2] and state.returns() == [0.5, 0.0, 0.5]
    state = position(3, "G/2/3", deck="W", storage="5/13/5", game=game)
    play(state, "P1 draw")
    assert state.winners() == [0] and state.observe(None)["terminal"] is True


# ---------------------------------------------------------------------------------------------- SQ-19
def test_sq19_round_winner_deals_next() -> None:
    state = position(3, "1/2/3", deck="W", storage="-/5/3", dealer=1, active=1)
    play(state, "P1 draw")
    obs = state.observe(None)
    assert obs["dealer"] == 1 and obs["round"] == 2
    assert turn(state) == ("P3", "must_draw")  # play starts at the dealer's left


def test_sq19_tied_round_winners_highest_total_deals() -> None:
    state = position(3, "1/2/3", deck="W", storage="5/5/-", round_no=2, last="10,20,0", totals="10,20,0", dealer=2)
    play(state, "P1 draw")
    assert state.observe(None)["dealer"] == 1


def test_sq19_tied_totals_nearest_clockwise_from_dealers_left_deals() -> None:
    # P2 dealt; P1 and P3 tie on round and total: the order from P2's left is P3, P1, so P3 deals.
    state = position(3, "1/2/3", deck="W", storage="5/-/5", dealer=2, active=1)
    play(state, "P1 draw")
    assert state.observe(None)["dealer"] == 2
    assert last_events(state, "round_start")[-1]["dealer"] == 2
