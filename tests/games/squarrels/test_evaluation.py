"""``estimate_returns`` for S'Quarrels: shares in [0, 1] summing to 1 that follow who is ahead."""

from __future__ import annotations

import pytest

from tests.games.squarrels.helpers import GAME, SINGLE, play, position


def shares(state: object) -> list[float]:
    out = GAME.estimate_returns(state)  # type: ignore[arg-type]
    assert all(0.0 <= s <= 1.0 for s in out)
    assert sum(out) == pytest.approx(1.0)
    return out


def test_equal_positions_share_equally() -> None:
    state = position(3, "12/12/12", game=SINGLE)
    assert shares(state) == pytest.approx([1 / 3] * 3)


def test_stored_sets_lead_the_round() -> None:
    state = position(2, "12/12", storage="55/1", game=SINGLE)
    first, second = shares(state)
    assert first > 0.9 > 0.1 > second


def test_golden_and_rotten_in_hand_count() -> None:
    golden, rotten = shares(position(2, "1G/1R", game=SINGLE))
    assert golden > 0.9 and rotten < 0.1


def test_pairs_in_hand_are_worth_more_than_singles() -> None:
    pairs, singles = shares(position(2, "5544/5431", game=SINGLE))
    assert pairs > singles


def test_match_totals_count_and_the_target_sharpens_a_lead() -> None:
    # The same 6-point lead decides more when the leader is 2 points from the target than at the start.
    early = shares(position(2, "1/1", storage="5/-", totals="0,0"))
    late = shares(position(2, "1/1", storage="5/-", totals="43,42", round_no=4, last="10,12", dealer=2))
    assert 0.5 < early[0] < late[0]
    behind_on_totals = shares(position(2, "1/1", storage="5/-", totals="0,20", round_no=2, last="0,20", dealer=2))
    assert behind_on_totals[0] < 0.5


def test_a_finished_match_gives_its_returns() -> None:
    state = position(2, "1/1", deck="W", active=1, game=SINGLE, storage="3/-")
    play(state, "P1 draw")  # Winter: the round and the single-round match end
    assert state.is_terminal()
    assert SINGLE.estimate_returns(state) == state.returns() == [1.0, 0.0]
