"""The statistics of a report: intervals, the tests it states, and the Holm correction it applies.

Every share carries a 95 % Wilson interval; every mean a 95 % Student-t interval. Within one cell, shares
are compared with a two-proportion z-test and a seat table against equal shares with a chi-square
goodness-of-fit test. A variant is compared with the base game by game: both are played on the same deals
(common random numbers), so the difference of each measure is the mean of the per-game differences, with a
95 % paired Student-t interval and a paired t-test (Welch's interval and test when the games do not pair up).
"No change larger than a margin" is an equivalence test, TOST: two one-sided tests at 5 %, its p-value the
larger of the two (the 90 % interval of the difference lies inside ± the margin). The spread of a length
(median, standard deviation, interquartile range) carries a 95 % percentile bootstrap interval, seeded, so
the same games give the same interval. A report makes many comparisons, so the p-values of its difference
tests are adjusted together with Holm's step-down method (family-wise error 5 %), and those of its
equivalence tests together, apart, with Holm's method too.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from oakwood.arena.stats import wilson_interval

#: The significance level after correction.
ALPHA = 0.05

PROPORTION_TEST = "two-proportion z-test"
MEAN_TEST = "Welch's t-test"
UNIFORM_TEST = "chi-square goodness of fit against equal shares"
PAIRED_TEST = "paired t-test (same deals)"
TOST_TEST = "TOST: two one-sided t-tests against the margin"
CORRECTION = "Holm–Bonferroni over every test in the report (family-wise error 5 %)"
EQUIVALENCE_CORRECTION = "Holm–Bonferroni over the equivalence (TOST) tests, apart (family-wise error 5 %)"
#: Bootstrap resamples for the interval of a median, a standard deviation or an interquartile range.
RESAMPLES = 1000
#: The bootstrap's seed: the same games give the same intervals.
BOOTSTRAP_SEED = 20260


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


def p_is(p: float, name: str = "p") -> str:
    """``p = 0.012``, ``p = 4.2e-04``, or ``p < 1e-300`` (never ``p = < …``)."""
    shown = p_text(p)
    return f"{name} {shown}" if shown.startswith("<") else f"{name} = {shown}"


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


@dataclass(frozen=True)
class Difference:
    """A difference (variant minus base) with its 95 % interval, its two-sided p-value and how it was taken:
    ``paired`` (the mean of per-game differences over the same deals) or not (Welch). ``se`` and ``df`` are
    kept for the equivalence test."""

    count: int
    value: float
    low: float
    high: float
    p: float
    paired: bool
    se: float
    df: float

    def to_json(self) -> dict[str, float | bool]:
        """JSON form (the test's p-value is kept apart, in the comparison it belongs to)."""
        return {"count": self.count, "value": self.value, "low": self.low, "high": self.high, "paired": self.paired}


def _t_difference(centre: float, se: float, df: float, count: int, *, paired: bool) -> Difference:
    if not math.isfinite(df) or df <= 0:
        return Difference(count, centre, math.nan, math.nan, 1.0, paired, math.nan, math.nan)
    if se == 0:  # every game moved by the same amount: exactly that difference
        return Difference(count, centre, centre, centre, 1.0 if centre == 0 else 0.0, paired, 0.0, df)
    half = float(sps.t.ppf(0.975, df)) * se
    p = float(2 * sps.t.sf(abs(centre) / se, df))
    return Difference(count, centre, centre - half, centre + half, p, paired, se, df)


def paired_difference(base: Sequence[float], other: Sequence[float]) -> Difference:
    """``other`` minus ``base``, game by game (``base[i]`` and ``other[i]`` played on the same deal): the mean
    difference, its 95 % paired t interval and the paired t-test's two-sided p-value."""
    if len(base) != len(other):
        raise ValueError(f"paired values differ in number: {len(base)} and {len(other)}")
    diffs = [b - a for a, b in zip(base, other, strict=True)]
    count = len(diffs)
    if count == 0:
        return Difference(0, math.nan, math.nan, math.nan, 1.0, True, math.nan, math.nan)
    centre = math.fsum(diffs) / count
    if count == 1:
        return Difference(1, centre, math.nan, math.nan, 1.0, True, math.nan, math.nan)
    sd = math.sqrt(math.fsum((d - centre) ** 2 for d in diffs) / (count - 1))
    return _t_difference(centre, sd / math.sqrt(count), count - 1, count, paired=True)


def welch_difference(base: Sequence[float], other: Sequence[float]) -> Difference:
    """``mean(other) - mean(base)`` of two independent samples: Welch's interval and test."""
    a, b = mean(base), mean(other)
    count = min(a.count, b.count)
    if a.count < 2 or b.count < 2:
        centre = b.value - a.value if a.count and b.count else math.nan
        return Difference(count, centre, math.nan, math.nan, 1.0, False, math.nan, math.nan)
    va, vb = a.sd**2 / a.count, b.sd**2 / b.count
    se = math.sqrt(va + vb)
    centre = b.value - a.value
    if se == 0:
        return _t_difference(centre, 0.0, 1.0, count, paired=False)
    df = (va + vb) ** 2 / (va**2 / (a.count - 1) + vb**2 / (b.count - 1))
    return _t_difference(centre, se, df, count, paired=False)


def tost(difference: Difference, margin: float) -> float:
    """The equivalence test's p-value that the true difference lies within ``± margin`` (two one-sided t-tests,
    Schuirmann 1987): the larger of the two one-sided p-values. Below 0.05 exactly when the difference's 90 %
    interval lies inside ``(-margin, margin)``."""
    if margin <= 0:
        raise ValueError(f"an equivalence margin is positive, got {margin}")
    if not math.isfinite(difference.se) or not math.isfinite(difference.value):
        return 1.0
    if difference.se == 0:
        return 0.0 if abs(difference.value) < margin else 1.0
    below = float(sps.t.sf((difference.value + margin) / difference.se, difference.df))  # H0: d <= -margin
    above = float(sps.t.sf((margin - difference.value) / difference.se, difference.df))  # H0: d >= +margin
    return max(below, above)


def equivalence_bound(difference: Difference) -> float:
    """The smallest margin TOST would accept at 5 % with these games: the larger end (in size) of the
    difference's 90 % interval. NaN when the difference has no interval."""
    if not math.isfinite(difference.se) or not math.isfinite(difference.value):
        return math.nan
    half = float(sps.t.ppf(0.95, difference.df)) * difference.se if difference.se else 0.0
    return abs(difference.value) + half


def _bootstrap_stats(samples: np.ndarray) -> np.ndarray:
    """Median, standard deviation and interquartile range along the last axis (rows of resamples).

    The quantiles interpolate linearly between order statistics, as numpy's ``percentile`` does, from one sort
    of each row (``percentile`` partitions once per quantile: five times slower on a thousand resamples)."""
    ordered = np.sort(samples, axis=-1)
    q25, q50, q75 = (_quantile(ordered, q) for q in (0.25, 0.5, 0.75))
    sd = np.std(samples, axis=-1, ddof=1) if samples.shape[-1] > 1 else np.full(q50.shape, math.nan)
    return np.stack([q50, sd, q75 - q25], axis=-1)


def _quantile(ordered: np.ndarray, q: float) -> np.ndarray:
    """The ``q`` quantile of each sorted row (linear interpolation between the two nearest order statistics)."""
    position = (ordered.shape[-1] - 1) * q
    below = math.floor(position)
    above = min(below + 1, ordered.shape[-1] - 1)
    low, high = ordered[..., below], ordered[..., above]
    return np.asarray(low + (position - below) * (high - low))


SPREAD_STATS = ("median", "sd", "iqr")


def spread(values: Sequence[float]) -> dict[str, dict[str, float] | float]:
    """The median, standard deviation and interquartile range of ``values``, each with a 95 % percentile
    bootstrap interval, and the 10/25/75/90 % quantiles (linear interpolation, as numpy's ``percentile``)."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return {}
    found = _bootstrap_stats(data)
    resampled = _bootstrap_stats(data[_resample_indices(data.size)])
    low, high = np.percentile(resampled, [2.5, 97.5], axis=0)
    result: dict[str, dict[str, float] | float] = {
        name: {"value": float(found[k]), "low": float(low[k]), "high": float(high[k])}
        for k, name in enumerate(SPREAD_STATS)
    }
    for q in (10, 25, 75, 90):
        result[f"p{q}"] = float(np.percentile(data, q))
    return result


def spread_difference(base: Sequence[float], other: Sequence[float]) -> dict[str, dict[str, float]]:
    """``other`` minus ``base`` for the median, standard deviation and interquartile range, each with a 95 %
    paired percentile bootstrap interval (the same games are drawn from both: they share their deals)."""
    a, b = np.asarray(base, dtype=float), np.asarray(other, dtype=float)
    if a.size != b.size:
        raise ValueError(f"paired values differ in number: {a.size} and {b.size}")
    if a.size == 0:
        return {}
    found = _bootstrap_stats(b) - _bootstrap_stats(a)
    indices = _resample_indices(a.size)
    resampled = _bootstrap_stats(b[indices]) - _bootstrap_stats(a[indices])
    low, high = np.percentile(resampled, [2.5, 97.5], axis=0)
    return {
        name: {"value": float(found[k]), "low": float(low[k]), "high": float(high[k])}
        for k, name in enumerate(SPREAD_STATS)
    }


@functools.lru_cache(maxsize=4)
def _resample_indices(count: int) -> np.ndarray:
    """The bootstrap's resamples of ``count`` games: the same for the same count, so intervals are reproducible
    and a paired difference draws the same games from both sides (kept: every cell of a report has as many)."""
    indices = np.random.default_rng(BOOTSTRAP_SEED).integers(0, count, size=(RESAMPLES, count))
    indices.flags.writeable = False
    return indices
