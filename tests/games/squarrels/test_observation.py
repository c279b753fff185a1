"""What each seat may see in S'Quarrels (RULINGS §1.2 "Information").

Each test builds two positions that differ only in something hidden from some seats and checks that those
seats' observations (and a spectator's) are identical, while the seat entitled to it does see a difference.
Then the event log: every private part reaches only its audience.
"""

from __future__ import annotations

import json

import oakwood
from oakwood.engine import Rng, State
from tests.conformance.kit import play_random
from tests.games.squarrels.helpers import last_events, play, position


def views(state: State) -> list[dict[str, object]]:
    """Spectator view first, then every seat's."""
    return [state.observe(None), *(state.observe(s) for s in range(state.num_players))]


def assert_same_except(a: State, b: State, entitled: set[int]) -> None:
    """The observations of ``a`` and ``b`` agree for everyone except the ``entitled`` seats, who see a change."""
    for seat in [None, *range(a.num_players)]:
        va, vb = a.observe(seat), b.observe(seat)
        json.dumps(va)
        if seat in entitled:
            assert va != vb, f"P{seat} (0-based) should see the difference"
        else:
            assert va == vb, f"{'spectator' if seat is None else f'P{seat + 1}'} can tell hidden facts apart"


def test_opponent_hand_is_hidden() -> None:
    a = position(3, "12/123/4")
    b = position(3, "12/455/4")
    assert_same_except(a, b, {1})
    assert a.observe(1)["hand"] == ["1", "2", "3"] and a.observe(None)["hand"] is None


def test_hoard_pile_contents_are_hidden_except_own_discards() -> None:
    a = position(3, "12/3/4", hoard="1@2,3@3,R@1")
    b = position(3, "12/3/4", hoard="5@2,2@3,R@1")
    assert_same_except(a, b, {1, 2})
    assert a.observe(0)["hoard_pile_yours"] == ["rotten"]
    assert a.observe(1)["hoard_pile_yours"] == ["1"] and a.observe(None)["hoard_pile_yours"] is None
    assert a.observe(None)["hoard_pile_size"] == 3


def test_deck_order_is_hidden() -> None:
    a = position(3, "12/3/4", deck="QW5")
    b = position(3, "12/3/4", deck="5QW")
    assert_same_except(a, b, set())
    assert a.observe(0)["deck_size"] == b.observe(0)["deck_size"]


def test_pending_quarrel_picks_are_hidden_until_the_reveal() -> None:
    a = play(position(3, "14/14/5", deck="Q"), "P1 draw", "P2 play 4")
    b = play(position(3, "14/14/5", deck="Q"), "P1 draw", "P2 play 1")
    assert_same_except(a, b, {1})
    assert a.observe(1)["quarrel"]["your_play"] == "4"
    assert a.observe(0)["quarrel"]["committed"] == [1] and a.observe(0)["quarrel"]["your_play"] is None
    for seat in (None, 0, 2):
        assert "4" not in json.dumps(a.events_seen_by(seat)[-1])


def test_race_answers_in_commit_modes_are_hidden() -> None:
    game = oakwood.load("squarrels", hoard_race="random")
    a = play(position(4, "1/2/3/4", deck="H", hoard="5@1", game=game), "P1 draw", "P2 slap")
    b = play(position(4, "1/2/3/4", deck="H", hoard="5@1", game=game), "P1 draw", "P2 pass")
    assert_same_except(a, b, {1})
    assert a.observe(1)["race"]["your_answer"] == "slap" and a.observe(2)["race"]["your_answer"] is None


def test_private_event_parts_reach_only_their_audience() -> None:
    state = position(4, "12/345/G/-", deck="4A3")
    play(state, "P1 draw")  # a 3, seen by P1 only
    draw = last_events(state, "draw", 0)[-1]
    assert draw == {"kind": "draw", "seat": 0, "card": "3"}
    for seat in (None, 1, 2, 3):
        assert last_events(state, "draw", seat)[-1] == {"kind": "draw", "seat": 0}
    play(state, "P1 draw")  # the Ambush: P1 takes one card from P2 and P3 (P4 has none)
    for event_index, victim in enumerate((1, 2)):
        for seat in (None, 0, 1, 2, 3):
            event = last_events(state, "ambush", seat)[event_index]
            assert event["victim"] == victim
            assert ("card" in event) == (seat in (0, victim))
    assert last_events(state, "ambush", 0)[1]["card"] == "golden"
    play(state, "P1 discard 1")
    for seat in (None, 0, 1, 2, 3):
        event = last_events(state, "discard", seat)[-1]
        assert ("card" in event) == (seat == 0)


def test_hoard_winner_alone_sees_the_pile() -> None:
    state = play(position(3, "1/2/3", deck="H", hoard="R@1,5@2"), "P1 draw", "P3 slap")
    for seat in (None, 0, 1, 2):
        event = last_events(state, "hoard_won", seat)[-1]
        assert event["count"] == 2
        assert ("cards" in event) == (seat == 2)
    assert last_events(state, "hoard_won", 2)[-1]["cards"] == ["5", "rotten"]


def test_spectator_sees_no_private_part_in_a_whole_game() -> None:
    state = oakwood.load("squarrels", single_round=True).new_state(4, seed=5)
    play_random(state, Rng(5))
    private_keys = {"card", "cards", "slap"}
    public_card_kinds = {"draw_action", "quarrel_won"}  # drawn Actions and revealed Quarrel cards are face up
    for event in state.events_seen_by(None):
        if event["kind"] not in public_card_kinds:
            assert not private_keys & set(event), event
