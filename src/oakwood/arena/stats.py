"""Statistics for simulations: Wilson score intervals, seed derivation, per-entry summaries."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054
_MASK = 0xFFFFFFFFFFFFFFFF
_GAMMA = 0x9E3779B97F4A7C15


def _splitmix64(x: int) -> int:
    """The splitmix64 finaliser (kept here so seeds never change when the engine's generator does)."""
    x = (x + _GAMMA) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / trials``.

    ``successes`` may be fractional (a shared win counts as a fraction, as ``State.returns()`` gives it).
    With no trials the interval is the whole range ``(0, 1)``.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes {successes} outside 0..{trials}")
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def derive_seed(base: int, index: int) -> int:
    """A well-mixed non-negative 63-bit seed for item ``index`` of a run seeded with ``base``.

    Deterministic (same inputs, same seed on every machine), and neighbouring indices give unrelated seeds.
    """
    mixed = _splitmix64((_splitmix64(base & _MASK) + (index & _MASK) * _GAMMA) & _MASK)
    return mixed >> 1


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one simulated game. ``seating[seat]`` is the lineup entry that played that seat;
    ``actions`` the history as JSON text, ``[[seat, codec index], …]``, when the simulation kept it (for the
    store; empty otherwise)."""

    index: int
    seed: int
    seating: tuple[int, ...]
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    steps: int
    actions: str = ""

    def to_json(self) -> dict[str, object]:
        """JSON-ready form, for ``--json`` files (the outcome; the history lives in the store)."""
        return {
            "index": self.index,
            "seed": self.seed,
            "seating": list(self.seating),
            "scores": list(self.scores),
            "returns": list(self.returns),
            "winners": list(self.winners),
            "steps": self.steps,
        }


@dataclass(frozen=True)
class EntrySummary:
    """How one lineup entry (a seat, or an agent when seats rotate) did over all games."""

    label: str
    games: int
    wins: float
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float

    def to_json(self) -> dict[str, object]:
        """JSON-ready form."""
        return {
            "label": self.label,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": [self.ci_low, self.ci_high],
            "mean_score": self.mean_score,
        }


def summarize(records: Sequence[GameRecord], labels: Sequence[str]) -> list[EntrySummary]:
    """One summary per lineup entry: win share (ties fractional) with its 95% Wilson interval, mean score.

    An entry that holds several seats of one game (a short lineup cycled round a bigger table) plays that
    game once: its share of the win is the sum over its seats, and its score the mean over every seat it
    played. An entry sitting a game out does not count it.
    """
    out = []
    for entry, label in enumerate(labels):
        wins = 0.0
        score = 0.0
        games = 0
        seats_played = 0
        for record in records:
            share = 0.0
            present = False
            for seat, who in enumerate(record.seating):
                if who == entry:
                    share += record.returns[seat]
                    score += record.scores[seat]
                    seats_played += 1
                    present = True
            if present:
                wins += share
                games += 1
        low, high = wilson_interval(min(wins, games), games)
        out.append(
            EntrySummary(
                label=label,
                games=games,
                wins=wins,
                win_rate=wins / games if games else 0.0,
                ci_low=low,
                ci_high=high,
                mean_score=score / seats_played if seats_played else 0.0,
            )
        )
    return out


@dataclass(frozen=True)
class DealSummary:
    """How one lineup entry did over duplicate deals: its mean share of the win with a 95 % interval taken
    over deals (each deal's games, one per seating, averaged first), so the interval knows the games of a
    deal are related."""

    label: str
    deals: int
    games: int
    win_rate: float
    ci_low: float
    ci_high: float


def deal_summary(records: Sequence[GameRecord], entry: int, label: str = "") -> DealSummary:
    """``entry``'s win share over the deals of a duplicate simulation (games sharing a seed are one deal).

    The interval is the normal one over per-deal means (their standard error, times ``Z95``), clipped to
    [0, 1]. A normal interval needs some spread: where every deal came out the same (the heuristic beating
    random play in every game), the Wilson interval over deals, each deal's mean a fractional success, stands
    in, so a sure-looking result still has a width. With fewer than two deals it is the whole range.
    """
    by_deal: dict[int, list[float]] = {}
    for record in records:
        share = sum(record.returns[seat] for seat, who in enumerate(record.seating) if who == entry)
        if entry in record.seating:
            by_deal.setdefault(record.seed, []).append(share)
    means = [sum(shares) / len(shares) for shares in by_deal.values()]
    games = sum(len(shares) for shares in by_deal.values())
    deals = len(means)
    if deals < 2:
        rate = means[0] if means else 0.0
        return DealSummary(label, deals, games, rate, 0.0, 1.0)
    rate = sum(means) / deals
    spread = math.sqrt(sum((m - rate) ** 2 for m in means) / (deals - 1) / deals)
    if spread == 0.0:
        low, high = wilson_interval(sum(means), deals)
        return DealSummary(label, deals, games, rate, low, high)
    return DealSummary(label, deals, games, rate, max(0.0, rate - Z95 * spread), min(1.0, rate + Z95 * spread))


def mean_length(records: Sequence[GameRecord]) -> float:
    """The average number of applied actions per game."""
    return sum(r.steps for r in records) / len(records) if records else 0.0
