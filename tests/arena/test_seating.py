"""Seat rotation: every agent sits in every seat equally often, whatever the table size."""

from __future__ import annotations

from collections import Counter

import pytest

from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import GameRecord, summarize


@pytest.mark.parametrize(("agents", "players"), [(3, 3), (3, 4), (2, 4), (4, 2), (5, 3)])
def test_every_agent_sits_in_every_seat_equally_often(agents: int, players: int) -> None:
    lineup = tuple(f"agent{i}" for i in range(agents))
    spec = SimulationSpec("squarrels", lineup, games=agents * 4, rotate=True, players=players)
    seatings = [spec.seating(i) for i in range(spec.games)]
    assert all(len(seating) == players for seating in seatings)
    for seat in range(players):
        assert Counter(seating[seat] for seating in seatings) == dict.fromkeys(range(agents), 4)
    appearances = Counter(entry for seating in seatings for entry in seating)
    assert len(set(appearances.values())) == 1, "every agent plays as many seats in all"


def test_a_full_lineup_turns_one_seat_per_game() -> None:
    spec = SimulationSpec("squarrels", ("a", "b", "c"), games=3, rotate=True)
    assert [spec.seating(i) for i in range(3)] == [(0, 1, 2), (2, 0, 1), (1, 2, 0)]  # entry e at seat (e + i) % 3


def test_a_fixed_lineup_must_fill_the_table() -> None:
    with pytest.raises(ValueError, match="4 players but the lineup names 2 seats"):
        SimulationSpec("squarrels", ("a", "b"), games=1, players=4)
    with pytest.raises(ValueError, match="at least one agent"):
        SimulationSpec("squarrels", (), games=1)


def test_an_agent_holding_two_seats_plays_the_game_once() -> None:
    # Two agents round a table of four: agent 0 holds seats 0 and 2, agent 1 seats 1 and 3.
    record = GameRecord(0, 1, (0, 1, 0, 1), (5.0, 3.0, 1.0, 3.0), (1.0, 0.0, 0.0, 0.0), (0,), 10)
    tie = GameRecord(1, 2, (1, 0, 1, 0), (2.0, 2.0, 2.0, 0.0), (1 / 3, 1 / 3, 1 / 3, 0.0), (0, 1, 2), 10)
    first, second = summarize([record, tie], ["a", "b"])
    assert first.games == second.games == 2
    assert first.wins == pytest.approx(1 + 1 / 3) and second.wins == pytest.approx(2 / 3)
    assert first.mean_score == pytest.approx((5 + 1 + 2 + 0) / 4) and second.mean_score == pytest.approx(
        (3 + 3 + 2 + 2) / 4
    )
