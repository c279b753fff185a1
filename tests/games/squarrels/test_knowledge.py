"""SQ-24, perfect recall: worlds keep every card a seat saw go somewhere until it may have left, and vary the rest.

Each scenario is a position in notation played forward with real moves; then, over many worlds drawn for an
observing seat, the cards it knows are where it saw them, everything else varies, and every world shows the
seat exactly what the truth shows it.
"""

from __future__ import annotations

from collections import Counter

import pytest

from oakwood.engine import InvalidNotationError, Rng, State
from tests.games.squarrels.helpers import GAME, fields, notation, play, position

WORLDS = 200


def cards(text: str) -> Counter[str]:
    return Counter(text.replace("-", ""))


def discards_of(state: State, player: int) -> Counter[str]:
    """P``player``'s own face-down cards in the Hoard Pile."""
    pile = fields(state)["hoard"]
    return Counter(item[0] for item in pile.split(",") if item != "-" and item.endswith(f"@{player}"))


def worlds(state: State, observer: int) -> list[State]:
    rng = Rng(99)
    view = state.observe(observer - 1)
    out = [state.determinize(observer - 1, rng) for _ in range(WORLDS)]
    for world in out:
        assert world.observe(observer - 1) == view
        world.check_invariants()
    return out


def has(state: State, player: int, wanted: str, *, with_discards: bool = False) -> bool:
    held = cards(fields(state)["hands"].split("/")[player - 1])
    if with_discards:
        held += discards_of(state, player)
    return not cards(wanted) - held


def quarrel_won_by_p2() -> State:
    """P1 draws a Quarrel; P1 plays 1, P2 plays 5, P3 plays 3: P2 takes all three."""
    state = position(3, "134/225/1234", deck="VQ")
    return play(state, "P1 draw", "P1 play 1", "P2 play 5", "P3 play 3")


def test_quarrel_winner_keeps_the_revealed_cards_in_every_world() -> None:
    state = quarrel_won_by_p2()
    assert fields(state)["hands"].split("/")[1] == "12235"
    assert fields(state)["known"] == "*>2:135,1>2:135,3>2:135"
    assert state.observe(0)["known_in_hands"][1] == ["1", "3", "5"]
    for observer in (1, 3):
        found = worlds(state, observer)
        assert all(has(w, 2, "135") for w in found)
        assert len({fields(w)["hands"].split("/")[1] for w in found}) > 5  # P2's other two cards vary


def test_a_face_down_discard_keeps_the_known_cards_in_the_hand_or_the_discard() -> None:
    state = play(quarrel_won_by_p2(), "P2 discard 5")
    assert fields(state)["known"] == "*>2:135,1>2:135,3>2:135"  # nobody saw which card went
    found = worlds(state, 1)
    assert all(has(w, 2, "135", with_discards=True) for w in found)
    # …and either place is possible: sometimes the known 5 is still in the hand, sometimes in the pile.
    in_hand = sum(has(w, 2, "5") for w in found)
    assert 0 < in_hand < WORLDS


def test_a_whirlwind_mixes_every_hand_and_the_known_cards_vary_again() -> None:
    state = play(quarrel_won_by_p2(), "P2 discard 2", "P3 draw")  # P3 draws the Whirlwind
    assert "known" not in fields(state)
    assert state.observe(0)["known_in_hands"] == [[], [], []]
    found = worlds(state, 1)
    assert 0 < sum(has(w, 2, "135") for w in found) < WORLDS // 2


def test_the_hoard_winner_holds_the_discards_each_seat_made() -> None:
    state = position(2, "41/33", deck="H22")
    # P1 draws the Hoard: with two players the other player, P2, wins the pile (P1's 4 and P2's own 3).
    play(state, "P1 draw", "P1 discard 4", "P2 draw", "P2 discard 3", "P1 draw")
    assert fields(state)["known"] == "1>2:4"  # only P1 knows which card it discarded
    assert state.observe(0)["known_in_hands"][1] == ["4"]
    assert state.observe(1)["known_in_hands"][1] == []  # what everyone knows of P2's hand: nothing
    assert all(has(w, 2, "4") for w in worlds(state, 1))


def test_an_ambush_is_known_to_the_taker_and_each_victim_only() -> None:
    state = position(3, "11/5/4", deck="A")
    play(state, "P1 draw")  # P1 takes P2's 5 and P3's 4
    assert fields(state)["known"] == "2>1:5,3>1:4"
    for observer, known, unknown in ((2, "5", "4"), (3, "4", "5")):
        found = worlds(state, observer)
        assert all(has(w, 1, known) for w in found)
        assert 0 < sum(has(w, 1, unknown) for w in found) < WORLDS


def test_a_stored_set_leaves_what_is_known() -> None:
    # P2 wins a Quarrel with a 5 (the 5 comes back with the 1 and the 2), then stores its three 5s.
    state = position(3, "14/555/523", deck="Q")
    play(state, "P1 draw", "P1 play 1", "P2 play 5", "P3 play 2")
    assert fields(state)["known"] == "*>2:125,1>2:125,3>2:125"
    play(state, "P2 store 5")
    assert fields(state)["known"] == "*>2:12,1>2:12,3>2:12"


@pytest.mark.parametrize(
    ("known", "message"),
    [
        ("1>2:5", "cannot know"),  # P2 holds no 5
        ("*>2:3", "at least what every seat knows"),  # public knowledge that P1 lacks
        ("2>2:3", "own hand"),
        ("1>2:3,1>2:3", "once"),
        ("-", "leave the field out"),
    ],
)
def test_impossible_knowledge_is_refused(known: str, message: str) -> None:
    text = notation(2, "11/33") + f" known={known}"
    with pytest.raises(InvalidNotationError, match=message):
        GAME.from_notation(text)


def test_knowledge_round_trips_through_notation() -> None:
    state = play(quarrel_won_by_p2(), "P2 discard 5")
    again = GAME.from_notation(state.to_notation())
    assert again.to_notation() == state.to_notation()
    assert again.observe(2) == state.observe(2)
