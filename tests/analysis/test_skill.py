"""The skill ladder on a tiny run (random against the heuristic, a few Barrell deals): its figures equal a direct
computation from the stored games, every deal seats the stronger level at every seat, the same seed gives the
same ladder, two option sets compare deal by deal, and bad input is refused in one line."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from oakwood.analysis.skill import SkillLadder, compare_ladders, ladder_html, ladder_lines, skill_ladder
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


def test_two_option_sets_compare_deal_by_deal(ladders: tuple[SkillLadder, SkillLadder, Path]) -> None:
    base, variant, _ = ladders
    (change,) = compare_ladders(base, variant)
    diffs = [b - a for a, b in zip(base.rungs[0].per_deal, variant.rungs[0].per_deal, strict=True)]
    centre = sum(diffs) / DEALS
    assert change.difference == pytest.approx(variant.rungs[0].share - base.rungs[0].share) == pytest.approx(centre)
    half = Z95 * math.sqrt(sum((d - centre) ** 2 for d in diffs) / (DEALS - 1)) / math.sqrt(DEALS)
    assert (change.low, change.high) == (pytest.approx(centre - half), pytest.approx(centre + half))
    assert 0 <= change.p <= 1
    assert change.to_json()["ci95"] == [change.low, change.high] and change.to_json()["base"] == base.rungs[0].to_json()
    (same,) = compare_ladders(base, base)
    assert (same.difference, same.low, same.high, same.p, same.flatter) == (0, 0, 0, 1, False)
    with pytest.raises(ValueError, match="same game, table size, levels, seed and deals"):
        compare_ladders(base, skill_ladder("barrell", {}, 3, deals=2, seed=4, workers=1))


def test_the_renderings_show_each_rung_with_its_interval(ladders: tuple[SkillLadder, SkillLadder, Path]) -> None:
    base, variant, _ = ladders
    rung = base.rungs[0]
    shown = f"{rung.share * 100:.1f} % [{rung.low * 100:.1f}–{rung.high * 100:.1f}]"
    lines = ladder_lines(base)
    assert "fair share 33.3 %" in lines[0] and "5 deals" in lines[0]
    assert lines[2].startswith("  medium over easy (heuristic over random): " + shown)
    compared = ladder_lines(base, variant)
    assert compared[2] == "  B: battle_tie=all_tied_win" and compared[3].count("%") == 2
    html = ladder_html(base, variant)
    assert html.startswith('<section class="skill-ladder">') and html.count("<th>") == 5 and shown in html
    assert ladder_html(base).count("<tr>") == 2  # the header and the one rung


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
