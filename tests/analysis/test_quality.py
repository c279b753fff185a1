"""Game-quality measures: each equals a hand computation on constructed traces and on one replayed game of each
game (random bots, so no bot change moves them); they are stored with the game's features and read back
without a second replay; a stored measure of an older extractor version is measured again."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from oakwood.agents import make_agent
from oakwood.analysis import measure as measure_module
from oakwood.analysis.features import extractor_for, extractor_key
from oakwood.analysis.measure import measure, measured_features
from oakwood.analysis.quality import (
    QUALITY_NUMBERS,
    Trace,
    branching,
    decided_at,
    drama,
    duration_spread,
    lead_changes,
    quality_numbers,
    replay_traced,
)
from oakwood.arena.local import LocalBackend
from oakwood.arena.match import play_match
from oakwood.arena.tournament import play_tournament
from oakwood.engine import State, load
from oakwood.store import PlayedGame, TournamentSettings, open_store

# ------------------------------------------------------------------ constructed traces

#: Three seats, ten actions. Standings (after t actions): 0-0-0 until t=2, then 1-0-0 (seat 0 leads), at t=5
#: 1-2-0 (seat 1 leads), at t=7 1-2-2 (seats 1 and 2 share the top), at t=9 3-2-2 (seat 0 leads to the end).
TRACE = Trace(
    players=3,
    steps=10,
    standings=((0, (0, 0, 0)), (2, (1, 0, 0)), (5, (1, 2, 0)), (7, (1, 2, 2)), (9, (3, 2, 2))),
    decisions=10,
    legal_moves=35,
    forced=2,
)


def test_measures_of_a_constructed_trace_equal_a_hand_computation() -> None:
    # sole leaders: none, 0, 1, none (a tie), 0 -> the lead passed 0 -> 1 and 1 -> 0
    assert lead_changes(TRACE) == 2
    # seat 0 won; positions (before each action) 0..9: behind by 1 at positions 5, 6 (1-2-0) and 7, 8 (1-2-2)
    behind_share, depth = drama(TRACE, [0]) or (math.nan, math.nan)
    assert behind_share == pytest.approx(4 / 10)
    assert depth == pytest.approx(1 / 3)  # worst deficit 1, final score 3
    # ahead from t = 9 to the end, not at t = 7..8
    assert decided_at(TRACE, [0]) == pytest.approx(9 / 10)
    assert branching(TRACE) == (3.5, 0.2)
    assert quality_numbers(TRACE, [0]) == pytest.approx(
        {
            "lead_changes": 2,
            "drama_behind_share": 0.4,
            "drama_depth": 1 / 3,
            "decided_at": 0.9,
            "branching": 3.5,
            "forced_share": 0.2,
        }
    )
    assert set(quality_numbers(TRACE, [0])) == set(QUALITY_NUMBERS)


def test_a_shared_win_is_followed_by_its_lowest_winner() -> None:
    trace = Trace(3, 8, ((0, (0, 0, 0)), (3, (0, 0, 1)), (6, (2, 2, 1))), 8, 8, 8)
    # winners 0 and 1 behind seat 2 by 1 at positions 3, 4, 5; ahead (both above seat 2) from t = 6
    assert drama(trace, [0, 1]) == (pytest.approx(3 / 8), pytest.approx(1 / 2))
    assert decided_at(trace, [0, 1]) == pytest.approx(6 / 8)
    assert lead_changes(trace) == 0  # seat 2 took the lead, then the top was shared
    assert branching(trace) == (1.0, 1.0)  # every decision forced


def test_a_winner_never_ahead_is_decided_at_the_end_and_a_game_without_a_winner_has_no_winner_measures() -> None:
    tied = Trace(2, 4, ((0, (0, 0)), (2, (1, 1))), 4, 6, 2)
    assert decided_at(tied, [0]) == 1.0  # a tie broken by the rules: never ahead
    assert drama(tied, [0]) == (0.0, 0.0)
    assert drama(tied, []) is None and decided_at(tied, []) is None
    assert drama(tied, [0, 1]) is None and decided_at(tied, [0, 1]) is None  # everybody won
    assert quality_numbers(tied, []) == {"lead_changes": 0.0, "branching": 1.5, "forced_share": 0.5}
    solo = Trace(1, 3, ((0, (0,)), (3, (20,))), 3, 9, 0)
    assert quality_numbers(solo, [0]) == {"branching": 3.0, "forced_share": 0.0}


@pytest.mark.parametrize(
    ("standings", "message"),
    [
        ((), "starts with the standing before the first action"),
        (((1, (0, 0)),), "starts with the standing before the first action"),
        (((0, (0, 0)), (3, (1, 0)), (2, (1, 1))), "increasing steps"),
        (((0, (0, 0)), (9, (1, 0))), "increasing steps within 0..4"),
        (((0, (0, 0, 0)),), "one score per seat"),
    ],
)
def test_a_malformed_trace_is_refused_in_one_line(standings: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Trace(2, 4, standings, 4, 4, 0)


def test_duration_spread_equals_a_hand_computation() -> None:
    spread = duration_spread([10, 20, 30, 40])
    sd = math.sqrt((15**2 + 5**2 + 5**2 + 15**2) / 3)
    assert (spread.games, spread.mean, spread.sd) == (4, 25, pytest.approx(sd))
    assert spread.cv == pytest.approx(sd / 25)
    assert (spread.q1, spread.q3, spread.iqr) == (17.5, 32.5, 15)  # inclusive quartiles: 10 + 0.75 * 10 ...
    assert duration_spread([7]).sd == 0 and duration_spread([7]).iqr == 0
    with pytest.raises(ValueError, match="at least one game"):
        duration_spread([])


# ------------------------------------------------------------------ one replayed game of each game


def _played(name: str, players: int, seed: int) -> PlayedGame:
    """A seeded game between random bots, as the store keeps it."""
    game = load(name)
    agents = [make_agent(game, "random", seed=seed * 10 + i) for i in range(players)]
    result = play_match(game, agents, seed, record_events=False)
    actions = [(seat, game.encode(action)) for seat, action in result.state.history]
    scores, returns, winners = tuple(result.scores), tuple(result.returns), tuple(result.winners)
    return PlayedGame(1, 0, seed, actions, scores, returns, winners, result.steps)


def _mask_count(name: str, players: int, played: PlayedGame) -> tuple[int, int]:
    """Legal moves summed over decisions, and forced decisions, by another path (the codec's legal mask)."""
    game = load(name)
    state = game.new_state(players, played.seed)
    total = forced = 0
    for seat, index in played.actions:
        count = sum(state.legal_mask(seat))
        total += count
        forced += count == 1
        state.apply_index(seat, index)
    return total, forced


def _public(state: State, kind: str) -> list[dict[str, Any]]:
    return [event.public for event in state.events if event.kind == kind]


def test_a_replayed_barrell_game() -> None:
    """Seed 0, 3 random bots: battles won at actions 30 (P3), 52 (P2) and 63 (P2: 2-1, the game)."""
    played = _played("barrell", 3, 0)
    state, trace = replay_traced(load("barrell"), 3, played)
    # the standings are the battle wins the log gives after each battle
    assert [scores for _, scores in trace.standings] == [
        (0, 0, 0),
        *(tuple(r["wins"]) for r in _public(state, "battle_result")),
    ]
    assert [t for t, _ in trace.standings] == [0, 30, 52, 63] and trace.steps == 63
    assert state.winners() == [1]
    numbers = quality_numbers(trace, state.winners())
    # P3 led, P2 tied it, P2 led: one change; P2 was behind 1 battle at positions 30..51 (22 of 63), worst 1
    # battle of its final 2; P2 was ahead only after the last action
    assert numbers["lead_changes"] == 1
    assert numbers["drama_behind_share"] == pytest.approx(22 / 63)
    assert numbers["drama_depth"] == pytest.approx(1 / 2)
    assert numbers["decided_at"] == 1.0
    assert (trace.legal_moves, trace.forced) == _mask_count("barrell", 3, played) == (397, 0)
    assert numbers["branching"] == pytest.approx(397 / 63) and numbers["forced_share"] == 0


def test_a_replayed_squarrels_match() -> None:
    """Seed 3, 2 random bots, six rounds: totals 3-3, 6-6, 18-30, 18-30, 45-35, 61-50 (P1 wins)."""
    played = _played("squarrels", 2, 3)
    state, trace = replay_traced(load("squarrels"), 2, played)
    totals = [tuple(float(x) for x in r["totals"]) for r in _public(state, "round_end")]
    # the standings are the round totals; the fourth round (0-0) changed nothing, so it is no new standing
    assert [scores for _, scores in trace.standings] == [(0, 0), *totals[:3], *totals[4:]]
    assert [t for t, _ in trace.standings] == [0, 24, 61, 265, 502, 629]
    assert state.winners() == [0]
    numbers = quality_numbers(trace, [0])
    # the lead: none, none, P2 (18-30), P1 (45-35): one change; P1 behind at positions 265..501 (237 of 629)
    # by 12 points at worst, of its final 61; ahead for good from action 502
    assert numbers["lead_changes"] == 1
    assert numbers["drama_behind_share"] == pytest.approx(237 / 629)
    assert numbers["drama_depth"] == pytest.approx(12 / 61)
    assert numbers["decided_at"] == pytest.approx(502 / 629)
    assert (trace.legal_moves, trace.forced) == _mask_count("squarrels", 2, played) == (2075, 262)
    assert numbers["branching"] == pytest.approx(2075 / 629)
    assert numbers["forced_share"] == pytest.approx(262 / 629)


def test_a_replayed_nutty_game() -> None:
    """Seed 1, 2 random bots: P1 buries 1 point at action 112, P2 5 at 272 and 1 more at 280 (P2 wins 6-1 at
    the round limit)."""
    played = _played("nutty", 2, 1)
    state, trace = replay_traced(load("nutty"), 2, played)
    buried = [(r["seat"], r["points"]) for r in _public(state, "bury")]
    assert buried == [(0, 1), (1, 5), (1, 6)]  # each bury gives the seat's new total
    assert trace.standings == ((0, (0, 0)), (112, (1, 0)), (272, (1, 5)), (280, (1, 6)))
    assert trace.steps == 381 and state.winners() == [1]
    numbers = quality_numbers(trace, [1])
    assert numbers["lead_changes"] == 1  # P1, then P2
    assert numbers["drama_behind_share"] == pytest.approx((272 - 112) / 381)
    assert numbers["drama_depth"] == pytest.approx(1 / 6)
    assert numbers["decided_at"] == pytest.approx(272 / 381)
    assert (trace.legal_moves, trace.forced) == _mask_count("nutty", 2, played) == (1776, 17)
    assert numbers["branching"] == pytest.approx(1776 / 381)


def test_measured_features_are_the_extractors_plus_the_quality_numbers_of_the_same_replay() -> None:
    game = load("barrell")
    played = _played("barrell", 3, 0)
    features = measured_features(game, 3, played)
    state, trace = replay_traced(game, 3, played)
    alone = extractor_for("barrell").extract(game, state)
    assert features.numbers == {**alone.numbers, **quality_numbers(trace, state.winners())}
    assert (features.ending, features.seat_facts, features.order) == (alone.ending, alone.seat_facts, alone.order)
    assert set(features.numbers) == set(extractor_for("barrell").numbers)


# ------------------------------------------------------------------ stored once, read back


def test_quality_numbers_are_stored_with_the_features_and_read_back_without_a_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = TournamentSettings("squarrels", {}, 2, ("easy",), 11, 4)
    with open_store(f"sqlite:///{tmp_path / 'q.db'}") as store:
        tournament, _ = store.tournament_for(settings)
        play_tournament(store, tournament, LocalBackend(1))
        games = store.played_games([tournament.id], 4)
        key = extractor_key(extractor_for("squarrels"))
        assert key == "squarrels/3"
        # what an older extractor version stored is not read: those games are measured again
        store.save_game_features(
            "squarrels/2", {g.id: {"ending": "winter_early", "numbers": {}, "seat_facts": {}} for g in games}
        )
        first = measure(store, "squarrels", {}, 2, games, workers=1)
        game = load("squarrels")
        for played, measured in zip(games, first, strict=True):
            assert measured.features == measured_features(game, 2, played)
            assert set(measured.features.numbers) == set(extractor_for("squarrels").numbers)
        stored = store.game_features([g.id for g in games], key)
        assert stored[games[0].id]["numbers"]["branching"] == first[0].features.numbers["branching"]

        def no_replay(*args: Any) -> Any:
            raise AssertionError("a stored game was replayed again")

        monkeypatch.setattr(measure_module, "replay_traced", no_replay)
        again = measure(store, "squarrels", {}, 2, games, workers=1)
        assert again == first
