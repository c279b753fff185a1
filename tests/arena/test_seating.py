"""Seat rotation: every agent sits in every seat equally often, whatever the table size."""

from __future__ import annotations

from collections import Counter

import pytest

from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import Z95, GameRecord, deal_summary, summarize, wilson_interval


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


def test_duplicate_deals_play_each_deal_once_per_seating() -> None:
    spec = SimulationSpec("squarrels", ("a", "b", "b"), games=9, seed=5, rotate=True, duplicate=True)
    deals = [
        [spec.seating(i) for i in range(spec.games) if spec.game_seed(i) == seed]
        for seed in {spec.game_seed(i) for i in range(spec.games)}
    ]
    assert len(deals) == 3
    for seatings in deals:  # entry 0 sits at every seat once with the same cards
        assert sorted(seating.index(0) for seating in seatings) == [0, 1, 2]
    plain = SimulationSpec("squarrels", ("a", "b", "b"), games=9, seed=5, rotate=True)
    assert len({plain.game_seed(i) for i in range(9)}) == 9
    with pytest.raises(ValueError, match="duplicate deals need rotating seats"):
        SimulationSpec("squarrels", ("a", "b"), games=2, duplicate=True)


def test_a_deal_summary_averages_each_deal_before_its_interval() -> None:
    # Two deals of two games: entry 0 wins both games of deal 1, and one of the two of deal 2.
    records = [
        GameRecord(0, 1, (0, 1), (3.0, 1.0), (1.0, 0.0), (0,), 10),
        GameRecord(1, 1, (1, 0), (1.0, 3.0), (0.0, 1.0), (1,), 10),
        GameRecord(2, 2, (0, 1), (1.0, 3.0), (0.0, 1.0), (1,), 10),
        GameRecord(3, 2, (1, 0), (1.0, 3.0), (0.0, 1.0), (1,), 10),
    ]
    summary = deal_summary(records, 0, "a")
    assert (summary.deals, summary.games) == (2, 4)
    assert summary.win_rate == pytest.approx(0.75)
    spread = (0.25 / 2) ** 0.5 / 2**0.5  # per-deal means 1.0 and 0.5: standard error 0.25
    assert summary.ci_low == pytest.approx(max(0.0, 0.75 - Z95 * spread))
    assert summary.ci_high == pytest.approx(1.0)
    # Deals that all came out the same have no spread: the Wilson interval over deals gives the width.
    even = [GameRecord(i, i // 2, (i % 2, 1 - i % 2), (1.0, 1.0), (1.0, 0.0), (0,), 5) for i in range(6)]
    summary = deal_summary(even, 0)
    assert summary.win_rate == 0.5  # seat 0 always wins: every deal at 0.5
    assert (summary.ci_low, summary.ci_high) == pytest.approx(wilson_interval(1.5, 3))
    sweep = [
        GameRecord(i, i // 2, (i % 2, 1 - i % 2), (1.0, 1.0), (1.0, 0.0) if i % 2 == 0 else (0.0, 1.0), (0,), 5)
        for i in range(200)
    ]
    summary = deal_summary(sweep, 0)  # entry 0 wins all 200 games of 100 deals
    assert summary.win_rate == 1.0 and summary.ci_high == 1.0 and 0.95 < summary.ci_low < 0.97
