"""A sequential probability ratio test (SPRT) on a stream of per-deal results: stop a comparison when it is decided.

Chess-engine testing decides "is the new version stronger?" this way (Fishtest, Stockfish's testing framework):
games are played in batches and, after each, a log-likelihood ratio (LLR) of two hypotheses is compared with
two bounds; a clear result stops early, a result between the hypotheses keeps playing (up to a cap the caller
sets, where the test is reported undecided). Here the observations are **per-deal results**: each deal of a
duplicate match (the same cards played once with the bot under test at every seat) averaged over its games
first, as ``stats.deal_summary`` does, since a deal's games share the cards and are not independent. Either

- **win shares** in [0, 1] (the bot's mean return over the deal's seatings; ties as fractional wins), with the
  hypotheses ``H0: mean = h0`` and ``H1: mean = h1`` as win shares (e.g. 0.60 against 0.70), or
- **paired gains** of a solo game (the bot's score minus the other bot's on the same deal), with ``h0`` and
  ``h1`` as mean score differences (e.g. 0 against +3 points): ``scale=None``, any real observation.

**The test** is the generalized SPRT with the normal approximation that Fishtest uses, as derived in Michel Van
den Bergh's notes ("A simple derivation of the GSPRT", and "Normalized Elo" for Fishtest): for observations with
mean ``m`` and variance ``v`` estimated from the stream itself, the log-likelihood ratio of ``H1`` against
``H0`` is approximately

    LLR = (h1 - h0) / v * (sum(x) - n * (h0 + h1) / 2)

(the LLR of two normal distributions of the same variance, means ``h0`` and ``h1``, with the variance replaced
by its estimate). Wald's bounds: ``H1`` is accepted when the LLR reaches ``log((1 - beta) / alpha)``, ``H0`` when
it falls to ``log(beta / (1 - alpha))``. **What a verdict means**: if the true mean is ``h0`` or below, the test
accepts ``H1`` with probability at most about ``alpha``; if it is ``h1`` or above, it accepts ``H0`` with
probability at most about ``beta``; a true mean between the two may go either way (it favours the nearer
one). Accepting ``H0`` says "not as strong as ``h1``", not "exactly ``h0``". The approximation wants a
settled variance, so no verdict is given before ``minimum`` observations (the error rates hold only
approximately: the stream is looked at after every batch and the variance is an estimate).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

#: The verdicts: ``H1`` accepted, ``H0`` accepted, or go on (None).
H0, H1 = "H0", "H1"


class Sprt:
    """The GSPRT of ``H0: mean = h0`` against ``H1: mean = h1`` on a stream of per-deal results.

    ``scale`` is the range observations and hypotheses must lie in: ``(0, 1)`` for win shares (the default),
    ``None`` for paired score gains of a solo game. ``minimum`` observations come before any verdict.
    """

    def __init__(
        self,
        h0: float,
        h1: float,
        alpha: float = 0.05,
        beta: float = 0.05,
        *,
        scale: tuple[float, float] | None = (0.0, 1.0),
        minimum: int = 10,
    ) -> None:
        if not (math.isfinite(h0) and math.isfinite(h1) and h0 < h1):
            raise ValueError(f"the SPRT needs finite bounds with H0 below H1, not {h0} and {h1}")
        if scale is not None and not scale[0] <= h0 < h1 <= scale[1]:
            raise ValueError(
                f"the SPRT's bounds are win shares: they must lie in [{scale[0]}, {scale[1]}], not {h0}, {h1}"
            )
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise ValueError(f"alpha and beta must lie between 0 and 1 with a sum below 1, not {alpha} and {beta}")
        if minimum < 2:
            raise ValueError(f"the SPRT needs at least 2 observations before a verdict (a variance), not {minimum}")
        self.h0, self.h1 = h0, h1
        self.alpha, self.beta = alpha, beta
        self.scale = scale
        self.minimum = minimum
        #: The LLR at or above which ``H1`` is accepted, and at or below which ``H0`` is.
        self.upper = math.log((1 - beta) / alpha)
        self.lower = math.log(beta / (1 - alpha))
        self.count = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, x: float) -> None:
        """One more per-deal result (a win share in ``scale``, or a paired gain)."""
        if not math.isfinite(x) or (self.scale is not None and not self.scale[0] <= x <= self.scale[1]):
            raise ValueError(f"an observation of this SPRT lies in {list(self.scale or ())} and is finite, not {x}")
        self.count += 1
        self.total += x
        self.squares += x * x

    def extend(self, xs: Iterable[float]) -> None:
        """Several results, in order."""
        for x in xs:
            self.add(x)

    @property
    def mean(self) -> float:
        """The mean result so far (nan before the first)."""
        return self.total / self.count if self.count else math.nan

    @property
    def variance(self) -> float:
        """The sample variance so far (0 before two results); floored where used, see ``llr``."""
        if self.count < 2:
            return 0.0
        mean = self.total / self.count
        return max((self.squares - self.count * mean * mean) / (self.count - 1), 0.0)

    @property
    def llr(self) -> float:
        """The log-likelihood ratio of ``H1`` against ``H0`` so far (0 before two results). A stream with no
        spread at all (every deal won) has its variance floored at a millionth of the squared gap between the
        hypotheses: the LLR is then very large, of the stream's sign, as it should be."""
        if self.count < 2:
            return 0.0
        gap = self.h1 - self.h0
        variance = max(self.variance, 1e-6 * gap * gap)
        return gap / variance * (self.total - self.count * (self.h0 + self.h1) / 2)

    def verdict(self) -> str | None:
        """``"H1"`` or ``"H0"`` once the LLR crosses a bound (after ``minimum`` results), else None: go on."""
        if self.count < self.minimum:
            return None
        llr = self.llr
        if llr >= self.upper:
            return H1
        if llr <= self.lower:
            return H0
        return None

    def interval(self) -> tuple[float, float]:
        """The mean's 95 % normal interval so far (the whole real line before two results)."""
        if self.count < 2:
            return -math.inf, math.inf
        half = 1.959964 * math.sqrt(self.variance / self.count)
        return self.mean - half, self.mean + half

    def describe(self) -> str:
        """One line: the verdict, the LLR between its bounds and the results so far (mean and 95 % interval),
        so that a run stopped by hand still says what it reached."""
        verdict = self.verdict()
        outcome = {H1: f"H1 accepted ({self.h1:g})", H0: f"H0 accepted ({self.h0:g})", None: "undecided"}[verdict]
        low, high = self.interval()
        return (
            f"SPRT H0 {self.h0:g} / H1 {self.h1:g} (alpha {self.alpha:g}, beta {self.beta:g}): {outcome}; "
            f"LLR {self.llr:.2f} in [{self.lower:.2f}, {self.upper:.2f}] after {self.count} deals, "
            f"mean {self.mean:.3f} [{low:.3f}, {high:.3f}]"
        )
