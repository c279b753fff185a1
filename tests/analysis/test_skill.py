"""The skill ladder on a tiny run (random against the heuristic, a few Barrell deals): its figures equal a direct
computation from the stored games, every deal seats the stronger level at every seat, the same seed gives the
same ladder, and bad input is refused in one line (the report's comparison of two ladders: test_report_skill)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from oakwood.analysis.skill import SkillLadder, skill_ladder
from oakwood.arena.stats import Z95
from oakwood.store import open_store

DEALS = 5


@pytest.fixture(scope="module")
def ladders(tmp_path_factory: pytest.TempPathFactory) -> tuple[SkillLadder, SkillLadder, Path]:
    """Barrell at 3 players, easy < medium, on five deals: the base options (games stored) and a variant."""
    db = tmp_path_factory.mktemp("skill") / "skill.db"
    with open_store(f"sqlite:///{db}") as store:
        base = skill_ladder("barrell", {}, 3, deals=DEALS, seed=4, workers=1, store=store)
    variant = skill_ladder("barrell", {"battle_tie": "all_tied_win"}, 3, deals=DEALS, seed=4, workers=1)
    return base, variant, db


def test_the_rung_equals_a_direct_computation_from_the_stored_games(
    ladders: tuple[SkillLadder, SkillLadder, Path],
) -> None:
    base, _, db = ladders
    (rung,) = base.rungs
    assert (rung.weaker, rung.stronger, rung.weaker_bot, rung.stronger_bot) == ("easy", "medium", "random", "heuristic")
    assert (rung.deals, rung.games, rung.fair) == (DEALS, 3 * DEALS, 1 / 3)
    with open_store(f"sqlite:///{db}") as store:
        stored = [store.get_game(listing.id) for listing in store.list_games(limit=100)]
    assert len(stored) == 3 * DEALS and {g.source for g in stored} == {"analyze"}
    by_deal: dict[int, list[tuple[int, float]]] = {}
    for game in stored:
        assert sorted(game.agents) == ["easy", "easy", "medium"]  # one seat of the stronger level
        seat = game.agents.index("medium")
        assert game.returns is not None
        by_deal.setdefault(game.seed, []).append((seat, game.returns[seat]))
    assert len(by_deal) == DEALS
    for seats in by_deal.values():
        assert sorted(seat for seat, _ in seats) == [0, 1, 2]  # every seat in turn on the same deal
    means = sorted(sum(share for _, share in seats) / 3 for seats in by_deal.values())
    assert sorted(rung.per_deal) == pytest.approx(means)
    share = sum(means) / DEALS
    assert rung.share == pytest.approx(share)
    sd = math.sqrt(sum((m - share) ** 2 for m in means) / (DEALS - 1))
    if sd > 0:
        half = Z95 * sd / math.sqrt(DEALS)
        assert (rung.low, rung.high) == (pytest.approx(max(0, share - half)), pytest.approx(min(1, share + half)))
    assert rung.edge == pytest.approx(share - 1 / 3)
    assert rung.share > 1 / 3  # the heuristic beats random play at Barrell


def test_the_same_seed_gives_the_same_ladder(ladders: tuple[SkillLadder, SkillLadder, Path]) -> None:
    base, _, _ = ladders
    assert skill_ladder("barrell", {}, 3, deals=DEALS, seed=4, workers=1) == base


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"levels": ("easy", "grandmaster")}, "unknown level 'grandmaster'"),
        ({"levels": ("medium", "easy")}, "the levels of a ladder go up"),
        ({"levels": ("easy", "easy")}, "the levels of a ladder go up"),
        ({"levels": ("easy",)}, "at least two levels"),
        ({"players": 1}, "needs 2–4 players; got 1"),
        ({"players": 9}, "needs 2–4 players; got 9"),
        ({"deals": 0}, "at least one deal per rung"),
    ],
)
def test_bad_input_is_refused_in_one_line(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        skill_ladder("barrell", {}, **kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)
