"""The report's statistics against textbook values, and the findings' agent flags."""

from __future__ import annotations

import math

import pytest
from scipy import stats as sps

from oakwood.analysis.findings import _flag_disagreements, percent, plus_minus
from oakwood.analysis.statistics import (
    histogram,
    holm,
    mean,
    mean_test,
    p_text,
    proportion_test,
    share,
    uniform_test,
)


def test_holm_adjusts_in_step_down_order_and_never_lowers_a_p_value() -> None:
    # Holm (1979): sorted 0.01, 0.02, 0.03, 0.04 with m = 4 -> 0.04, 0.06, 0.06, 0.06 (monotone).
    assert holm([0.03, 0.01, 0.04, 0.02]) == pytest.approx([0.06, 0.04, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_a_share_carries_its_wilson_interval() -> None:
    s = share(30, 100)
    assert s.value == 0.3 and s.low == pytest.approx(0.2189, abs=1e-4) and s.high == pytest.approx(0.3958, abs=1e-4)
    empty = share(0, 0)
    assert math.isnan(empty.value) and (empty.low, empty.high) == (0.0, 1.0)


def test_a_mean_carries_a_student_t_interval() -> None:
    m = mean([1.0, 2.0, 3.0, 4.0])
    half = sps.t.ppf(0.975, 3) * math.sqrt(5 / 3) / 2
    assert m.value == 2.5 and (m.low, m.high) == pytest.approx((2.5 - half, 2.5 + half))
    assert math.isnan(mean([7.0]).low) and mean([]).count == 0


def test_the_tests_agree_with_scipy() -> None:
    a, b = share(60, 100), share(40, 100)
    z = (0.6 - 0.4) / math.sqrt(0.5 * 0.5 * (2 / 100))
    assert proportion_test(a, b) == pytest.approx(2 * sps.norm.sf(z))
    assert proportion_test(share(0, 10), share(0, 10)) == 1.0
    xs, ys = [1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 6.0, 8.0, 9.0]
    assert mean_test(xs, ys) == pytest.approx(sps.ttest_ind(xs, ys, equal_var=False).pvalue)
    assert mean_test([3.0, 3.0], [3.0, 3.0]) == 1.0 and mean_test([3.0, 3.0], [4.0, 4.0]) == 0.0
    assert uniform_test([50.0, 50.0]) == pytest.approx(1.0)
    assert uniform_test([70.0, 30.0]) == pytest.approx(sps.chisquare([70, 30]).pvalue)


def test_a_histogram_gives_whole_numbers_a_bin_each() -> None:
    whole = histogram([1.0, 2.0, 2.0, 4.0])
    assert whole["edges"] == [0.5, 1.5, 2.5, 3.5, 4.5] and whole["counts"] == [1.0, 2.0, 0.0, 1.0]
    spread = histogram([0.1 * k for k in range(100)], bins=10)
    assert len(spread["counts"]) == 10 and sum(spread["counts"]) == 100


def test_figures_read_as_plain_percentages() -> None:
    assert percent(0.312) == "31 %" and percent(0.05) == "5.0 %"
    assert plus_minus({"value": 0.31, "low": 0.29, "high": 0.33}) == "31 % ± 2.0 %"


def _finding(agent: str, significant: bool, kind: str = "advantage", key: str = "order") -> dict[str, object]:
    return {"players": 4, "agent": agent, "kind": kind, "key": key, "significant": significant, "flag": None}


def test_a_finding_that_holds_for_one_agent_and_not_another_is_flagged() -> None:
    found = [_finding("heuristic", True), _finding("expert", False)]
    _flag_disagreements(found, ["heuristic", "expert"])
    assert [f["flag"] for f in found] == ["holds for heuristic, not for expert"] * 2
    agreed = [_finding("heuristic", True), _finding("expert", True)]
    _flag_disagreements(agreed, ["heuristic", "expert"])
    assert [f["flag"] for f in agreed] == [None, None]
    # A fact is named only where it is significant: its absence for the other agent is a disagreement.
    fact = [_finding("expert", True, "fact", "golden_at_winter")]
    _flag_disagreements(fact, ["heuristic", "expert"])
    assert fact[0]["flag"] == "holds for expert, not for heuristic"
    alone = [_finding("heuristic", True)]
    _flag_disagreements(alone, ["heuristic"])
    assert alone[0]["flag"] is None


def test_a_p_value_is_never_printed_as_zero() -> None:
    assert [p_text(p) for p in (0.5, 0.0123, 0.00042, 3e-45, 0.0)] == ["0.5", "0.012", "4.2e-04", "3.0e-45", "< 1e-300"]
