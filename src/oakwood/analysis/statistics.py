"""The statistics of a report: intervals, the tests it states, and the Holm correction it applies.

Every share carries a 95 % Wilson interval; every mean a 95 % Student-t interval. Differences are tested
two-sided: shares with a two-proportion z-test, means with Welch's t-test, a seat table against equal
shares with a chi-square goodness-of-fit test. A report makes many comparisons, so their p-values are
adjusted together with Holm's step-down method (family-wise error 5 %).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats as sps

from oakwood.arena.stats import wilson_interval

#: The significance level after correction.
ALPHA = 0.05

PROPORTION_TEST = "two-proportion z-test"
MEAN_TEST = "Welch's t-test"
UNIFORM_TEST = "chi-square goodness of fit against equal shares"
CORRECTION = "Holm–Bonferroni over every test in the report (family-wise error 5 %)"


@dataclass(frozen=True)
class Share:
    """A proportion with its 95 % Wilson interval (``successes`` may be fractional: a shared win)."""

    successes: float
    trials: int
    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        """JSON form."""
        return {
            "successes": self.successes,
            "trials": self.trials,
            "value": self.value,
            "low": self.low,
            "high": self.high,
        }


@dataclass(frozen=True)
class Mean:
    """A mean with its 95 % Student-t interval."""

    count: int
    value: float
    low: float
    high: float
    sd: float

    def to_json(self) -> dict[str, float]:
        """JSON form."""
        return {"count": self.count, "value": self.value, "low": self.low, "high": self.high, "sd": self.sd}


def share(successes: float, trials: int) -> Share:
    """``successes`` out of ``trials`` with its interval."""
    low, high = wilson_interval(successes, trials)
    return Share(successes, trials, successes / trials if trials else math.nan, low, high)


def mean(values: Sequence[float]) -> Mean:
    """The mean of ``values`` with its interval (a single value has no interval: NaN bounds)."""
    count = len(values)
    if count == 0:
        return Mean(0, math.nan, math.nan, math.nan, math.nan)
    centre = math.fsum(values) / count
    if count == 1:
        return Mean(1, centre, math.nan, math.nan, math.nan)
    sd = math.sqrt(math.fsum((v - centre) ** 2 for v in values) / (count - 1))
    half = float(sps.t.ppf(0.975, count - 1)) * sd / math.sqrt(count)
    return Mean(count, centre, centre - half, centre + half, sd)


def proportion_test(a: Share, b: Share) -> float:
    """Two-sided p-value that two shares are equal (pooled two-proportion z-test)."""
    if a.trials == 0 or b.trials == 0:
        return 1.0
    pooled = (a.successes + b.successes) / (a.trials + b.trials)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials))
    if spread == 0:
        return 1.0
    z = (a.value - b.value) / spread
    return math.erfc(abs(z) / math.sqrt(2))


def mean_test(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided p-value that two means are equal (Welch's t-test; 1 when either side cannot vary)."""
    if len(a) < 2 or len(b) < 2:
        return 1.0
    if min(a) == max(a) and min(b) == max(b):
        return 1.0 if a[0] == b[0] else 0.0
    return float(sps.ttest_ind(a, b, equal_var=False).pvalue)


def uniform_test(counts: Sequence[float]) -> float:
    """p-value that ``counts`` (wins per seat, possibly fractional) come from equal shares."""
    total = math.fsum(counts)
    if total <= 0 or len(counts) < 2:
        return 1.0
    return float(sps.chisquare(list(counts)).pvalue)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted = [1.0] * len(pvalues)
    running = 0.0
    count = len(pvalues)
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (count - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def p_text(p: float) -> str:
    """A p-value as a reader needs it: two significant figures, scientific below 0.001, and never "0" (a value
    below what a double holds is "< 1e-300")."""
    if p < 1e-300:
        return "< 1e-300"
    return f"{p:.1e}" if p < 1e-3 else f"{p:.2g}"


def histogram(values: Sequence[float], bins: int = 30) -> dict[str, list[float]]:
    """Bin edges and counts: whole-number values get one bin per value when there are few of them."""
    if not values:
        return {"edges": [], "counts": []}
    low, high = min(values), max(values)
    whole = all(float(v).is_integer() for v in values)
    if whole and high - low + 1 <= bins:
        edges = [low - 0.5 + k for k in range(int(high - low) + 2)]
    else:
        width = (high - low) / bins or 1.0
        edges = [low + width * k for k in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    last = len(counts) - 1
    for v in values:
        k = min(last, max(0, int((v - edges[0]) / (edges[1] - edges[0]))))
        counts[k] += 1
    return {"edges": edges, "counts": [float(c) for c in counts]}
