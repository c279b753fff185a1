"""openskill ratings over a tournament's games: winners rise, ties tie, the order of play does not matter."""

from __future__ import annotations

from oakwood.arena.ratings import rate
from oakwood.store import TournamentGame


def game(index: int, agents: tuple[str, ...], returns: tuple[float, ...]) -> TournamentGame:
    winners = tuple(seat for seat, share in enumerate(returns) if share > 0)
    return TournamentGame(index, index, agents, tuple(0.0 for _ in agents), returns, winners, 5)


def test_the_agent_that_keeps_winning_is_rated_highest() -> None:
    games = [
        game(i, ("strong", "weak") if i % 2 else ("weak", "strong"), (0.0, 1.0) if i % 2 == 0 else (1.0, 0.0))
        for i in range(20)
    ]
    strong, weak = rate(games, ["strong", "weak"])
    assert strong.agent == "strong" and strong.mu > 25 > weak.mu
    assert strong.sigma < 25 / 3 and strong.ordinal == strong.mu - 3 * strong.sigma
    assert strong.games == weak.games == 20


def test_equal_shares_are_equal_ranks() -> None:
    shared = [game(0, ("a", "b", "c"), (0.5, 0.5, 0.0))]
    a, b, c = rate(shared, ["a", "b", "c"])
    assert a.mu == b.mu > c.mu


def test_games_are_rated_in_index_order_whatever_order_they_come_in() -> None:
    games = [game(i, ("a", "b"), (1.0, 0.0) if i % 3 else (0.0, 1.0)) for i in range(9)]
    assert rate(games, ["a", "b"]) == rate(list(reversed(games)), ["a", "b"])


def test_a_game_with_one_agent_at_the_table_is_not_rated() -> None:
    solo = [game(0, ("a",), (1.0,)), game(1, ("b",), (0.0,))]
    a, b = rate(solo, ["a", "b"])
    assert a.games == b.games == 0 and a.mu == b.mu == 25.0


def test_an_agent_in_several_seats_adds_its_shares() -> None:
    # "a" holds two of three seats and wins one of them: it ranks first, "b" second.
    a, b = rate([game(0, ("a", "b", "a"), (0.0, 0.0, 1.0))], ["a", "b"])
    assert a.mu > b.mu and a.games == b.games == 1
