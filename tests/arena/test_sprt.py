"""The sequential test (GSPRT, normal approximation) on per-deal results: verdicts, the LLR, bad settings."""

from __future__ import annotations

import math
import random

import pytest

from oakwood.arena.sprt import H0, H1, Sprt


def _shares(mean: float, deals: int, seed: int) -> list[float]:
    """Per-deal win shares of a duplicate two-player match (each deal two games: 0, 0.5 or 1) around ``mean``."""
    rng = random.Random(seed)
    return [((rng.random() < mean) + (rng.random() < mean)) / 2 for _ in range(deals)]


def _run(test: Sprt, results: list[float]) -> int | None:
    """Feed ``results`` one at a time; the number fed when the test decided (None: it never did)."""
    for count, x in enumerate(results, 1):
        test.add(x)
        if test.verdict() is not None:
            return count
    return None


def test_a_stream_clearly_above_h1_accepts_h1_early() -> None:
    test = Sprt(0.6, 0.7)
    decided = _run(test, _shares(0.85, 400, seed=1))
    assert test.verdict() == H1 and decided is not None and decided < 100, (decided, test.describe())
    assert test.llr >= test.upper == pytest.approx(math.log(0.95 / 0.05))


def test_a_stream_clearly_below_h0_accepts_h0_early() -> None:
    test = Sprt(0.6, 0.7)
    decided = _run(test, _shares(0.4, 400, seed=2))
    assert test.verdict() == H0 and decided is not None and decided < 100, (decided, test.describe())
    assert test.llr <= test.lower == pytest.approx(math.log(0.05 / 0.95))


def test_a_stream_between_the_hypotheses_keeps_going() -> None:
    # Deals of a match halfway between the hypotheses (a mean of 0.65 every ten deals): no evidence either way,
    # the LLR wanders near 0 and comes back to it every ten deals.
    test = Sprt(0.6, 0.7)
    assert _run(test, [1.0, 0.5, 1.0, 0.0, 1.0, 0.5, 0.5, 1.0, 0.5, 0.5] * 20) is None
    assert test.verdict() is None and test.llr == pytest.approx(0.0, abs=1e-9) and "undecided" in test.describe()


def test_the_llr_is_the_normal_approximation() -> None:
    test = Sprt(0.6, 0.7, 0.05, 0.05)
    results = [1.0, 0.5, 0.5, 1.0, 0.0, 1.0]
    test.extend(results)
    mean = sum(results) / len(results)
    variance = sum((x - mean) ** 2 for x in results) / (len(results) - 1)
    expected = (0.7 - 0.6) / variance * (sum(results) - len(results) * 0.65)
    assert test.count == 6 and test.mean == pytest.approx(mean) and test.variance == pytest.approx(variance)
    assert test.llr == pytest.approx(expected)
    half = 1.959964 * math.sqrt(variance / 6)
    assert test.interval() == pytest.approx((mean - half, mean + half))
    assert f"mean {mean:.3f} [{mean - half:.3f}, {mean + half:.3f}]" in test.describe()
    assert test.verdict() is None  # fewer than the minimum of 10 results: no verdict whatever the LLR


def test_no_verdict_before_the_minimum_even_for_a_sweep() -> None:
    test = Sprt(0.6, 0.7, minimum=12)
    assert _run(test, [1.0] * 11) is None and test.llr > test.upper
    test.add(1.0)
    assert test.verdict() == H1


def test_paired_score_gains_of_a_solo_game() -> None:
    # Nutty solo: the level's score minus medium's on the same deal, H0 no gain against H1 three points.
    rng = random.Random(3)
    ahead = Sprt(0.0, 3.0, scale=None)
    _run(ahead, [rng.gauss(6.0, 4.0) for _ in range(300)])
    behind = Sprt(0.0, 3.0, scale=None)
    _run(behind, [rng.gauss(-2.0, 4.0) for _ in range(300)])
    assert ahead.verdict() == H1 and behind.verdict() == H0
    with pytest.raises(ValueError, match="lies in"):
        Sprt(0.6, 0.7).add(3.0)  # a win share cannot be 3


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((0.7, 0.6), {}, "H0 below H1"),
        ((0.6, 0.6), {}, "H0 below H1"),
        ((math.nan, 0.6), {}, "finite bounds"),
        ((0.6, 1.2), {}, "must lie in"),
        ((-0.1, 0.5), {}, "must lie in"),
        ((0.6, 0.7, 0.0, 0.05), {}, "alpha and beta"),
        ((0.6, 0.7, 0.05, 1.0), {}, "alpha and beta"),
        ((0.6, 0.7, 0.6, 0.5), {}, "alpha and beta"),
        ((0.6, 0.7), {"minimum": 1}, "at least 2"),
    ],
)
def test_bad_settings_are_refused_in_one_line(args: tuple[float, ...], kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message) as refused:
        Sprt(*args, **kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(refused.value)


def test_a_bad_observation_is_refused() -> None:
    test = Sprt(0.0, 3.0, scale=None)
    with pytest.raises(ValueError, match="finite"):
        test.add(math.inf)
    assert test.count == 0
