"""``Barrell.estimate_returns``: normalised shares that rank positions by battles won, fields and hands."""

from __future__ import annotations

import pytest

import oakwood
from oakwood.engine import Rng
from oakwood.games.barrell.evaluation import match_shares

from .helpers import position, state_of


@pytest.mark.parametrize(
    "options",
    [{}, {"battle_tie": "all_tied_win", "kh_timing": "before_scoring", "joker_timing": "after_provisional_score"}],
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_shares_are_normalised_all_game_long(players: int, options: dict[str, str]) -> None:
    game = oakwood.load("barrell", **options)
    rng = Rng(players)
    for seed in range(8):
        state = game.new_state(players, seed)
        while not state.is_terminal():
            shares = game.estimate_returns(state)
            assert len(shares) == players
            assert all(0.0 <= s <= 1.0 for s in shares)
            assert sum(shares) == pytest.approx(1.0)
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
        returns = state.returns()
        assert game.estimate_returns(state) == [r / sum(returns) for r in returns]


def test_a_won_battle_and_a_better_field_count() -> None:
    even = state_of(position(hands=["5C.6C.7C", "5D.6D.7D"], fields=["", ""]))
    assert even.game.estimate_returns(even) == pytest.approx([0.5, 0.5])
    ahead_in_wins = state_of(
        position(hands=["5C.6C.7C", "5D.6D.7D"], battle=2, wins="1.0", scores="9.3", bwin="1", first=1)
    )
    wins_share = ahead_in_wins.game.estimate_returns(ahead_in_wins)[0]
    assert wins_share > 0.6
    ahead_on_the_field = state_of(
        position(
            hands=["5C.6C.7C", "5D.6D.7D"], fields=["", "8D"], battle=2, wins="1.0", scores="9.3", bwin="1", first=2
        )
    )
    assert ahead_on_the_field.game.estimate_returns(ahead_on_the_field)[1] > 1 - wins_share


def test_hearts_count_against_the_rival_they_will_go_to() -> None:
    hearts = state_of(position(hands=["5C", "5D"], fields=["9H", "2D"], active="1"))
    assert hearts.game.estimate_returns(hearts)[0] > 0.5


def test_match_shares_follow_best_of_three() -> None:
    assert match_shares([1, 0], [0.5, 0.5], [0.5, 0.5]) == pytest.approx([0.75, 0.25])
    assert match_shares([1, 1], [0.9, 0.1], [0.5, 0.5]) == pytest.approx([0.9, 0.1])
    three = match_shares([0, 0, 0], [1 / 3] * 3, [1 / 3] * 3)
    assert three == pytest.approx([1 / 3] * 3)
