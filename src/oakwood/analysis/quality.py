"""Game-quality measures of one game, read from its trace during the replay the workbench already does.

``docs/quality.md`` defines each measure with its source (Browne's criteria, Ludii's metrics). In short, for a
game of ``T`` actions:

- The **standing** after ``t`` actions (``0 <= t <= T``) is the game's public running score, ``scores()`` of the
  engine contract: battles won in Barrell, match points after each finished round in S'Quarrels, buried points
  in Nutty Squirrels. All three are public, so no measure leans on a hidden card.
- The **positions** are the standings before each action, ``t = 0 .. T-1`` (where each decision is taken); a
  share "of the game" counts positions, so every action weighs the same.
- The **eventual winners** ``W`` are ``winners()`` at the end; the others are every other seat. The winners are
  *ahead* at a standing when the lowest of them is strictly above the best other seat, and the *deficit* is
  how far the lowest winner stands below the best other seat (0 when it does not).

A measure that a game cannot have is left out of its numbers (a report's mean then skips that game): the
standings measures in a one-seat game, and the winner's measures when nobody won or everybody shared the win.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from oakwood.engine import Game, State
from oakwood.store import PlayedGame

#: Quality number key -> plain words with its unit, as a report shows it (``docs/quality.md`` defines each).
QUALITY_NUMBERS: Mapping[str, str] = MappingProxyType(
    {
        "lead_changes": "lead changes: times the sole lead passed from one seat to another",
        "drama_behind_share": "drama: share of the game the eventual winner spent behind",
        "drama_depth": "drama: the eventual winner's worst deficit, as a share of its final score",
        "decided_at": "decisiveness: share of the game played when the winner took the lead for good",
        "branching": "branching: mean legal moves per decision",
        "forced_share": "share of decisions with a single legal move (forced)",
    }
)


@dataclass(frozen=True)
class Trace:
    """What the measures need of one game, recorded step by step during its replay.

    ``standings`` holds ``(t, scores)`` for ``t = 0`` and for every ``t`` at which the scores changed (the
    standing after ``t`` actions), so a standing holds from its ``t`` to the next entry's. ``legal_moves`` is
    the number of legal moves of the seat that acted, at each of its decisions, summed; ``forced`` counts
    the decisions with a single legal move.
    """

    players: int
    steps: int
    standings: tuple[tuple[int, tuple[float, ...]], ...]
    decisions: int
    legal_moves: int
    forced: int

    def __post_init__(self) -> None:
        if not self.standings or self.standings[0][0] != 0:
            raise ValueError("a trace starts with the standing before the first action (t = 0)")
        times = [t for t, _ in self.standings]
        if times != sorted(set(times)) or times[-1] > self.steps:
            raise ValueError(f"trace standings must be at increasing steps within 0..{self.steps}: {times}")
        if any(len(scores) != self.players for _, scores in self.standings):
            raise ValueError(f"every standing of a trace has one score per seat ({self.players})")

    def spans(self) -> list[tuple[int, int, tuple[float, ...]]]:
        """``(start, end, scores)``: the standing ``scores`` holds at positions ``start .. end - 1``; the last
        span ends at ``steps + 1`` so that it covers the final standing (after the last action) too."""
        ends = [t for t, _ in self.standings[1:]] + [self.steps + 1]
        return [(t, end, scores) for (t, scores), end in zip(self.standings, ends, strict=True)]

    @property
    def final(self) -> tuple[float, ...]:
        """The standing after the last action."""
        return self.standings[-1][1]


def replay_traced(game: Game[Any], players: int, played: PlayedGame) -> tuple[State, Trace]:
    """One stored game of ``game`` replayed to its end with its events (as ``measure.replayed`` does), and its
    trace: the standings after each action and the legal moves at each decision."""
    state = game.new_state(players, played.seed)
    decode = game.decode
    last = tuple(state.scores())
    standings: list[tuple[int, tuple[float, ...]]] = [(0, last)]
    legal_moves = forced = 0
    step = 0
    for seat, index in played.actions:
        moves = len(state.legal_actions(seat))  # the acting seat's choices, before its action
        legal_moves += moves
        forced += moves == 1
        state.apply(seat, decode(index))
        step += 1
        now = tuple(state.scores())
        if now != last:
            standings.append((step, now))
            last = now
    trace = Trace(players, step, tuple(standings), step, legal_moves, forced)
    return state, trace


def sole_leader(scores: Sequence[float]) -> int | None:
    """The seat strictly ahead of every other, or ``None`` when the top is shared."""
    top = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == top]
    return leaders[0] if len(leaders) == 1 else None


def lead_changes(trace: Trace) -> int:
    """Times the sole lead passed from one seat to another over the game's standings (the first lead taken is
    not a change, and a tie at the top in between is not one of its own: A leads, A and B tie, B leads is one
    change; A leads, tie, A leads again is none)."""
    changes = 0
    previous: int | None = None
    for _, scores in trace.standings:
        leader = sole_leader(scores)
        if leader is None:
            continue
        if previous is not None and leader != previous:
            changes += 1
        previous = leader
    return changes


def _deficit(scores: Sequence[float], winners: Sequence[int], others: Sequence[int]) -> float:
    """How far the lowest winner stands below the best other seat (0 when it does not)."""
    return max(0.0, max(scores[o] for o in others) - min(scores[w] for w in winners))


def _others(trace: Trace, winners: Sequence[int]) -> list[int] | None:
    """The seats that did not win, or ``None`` when the winner measures do not apply (no winner, everybody
    won, or a one-seat game)."""
    if trace.players < 2 or not winners:
        return None
    others = [seat for seat in range(trace.players) if seat not in winners]
    return others or None


def drama(trace: Trace, winners: Sequence[int]) -> tuple[float, float] | None:
    """``(behind_share, depth)``: the share of the positions at which the eventual winners were behind (a
    deficit above 0), and the worst deficit over every standing as a share of the lowest winner's final score
    (0 when that score is not above 0). ``None`` when the game has no winner to follow."""
    others = _others(trace, winners)
    if others is None or trace.steps == 0:
        return None
    behind = 0
    worst = 0.0
    for start, end, scores in trace.spans():
        deficit = _deficit(scores, winners, others)
        if deficit > 0:
            behind += min(end, trace.steps) - start  # positions stop before the final standing
            worst = max(worst, deficit)
    final = min(trace.final[w] for w in winners)
    return behind / trace.steps, (worst / final if final > 0 else 0.0)


def decided_at(trace: Trace, winners: Sequence[int]) -> float | None:
    """The share of the game played when the eventual winners took the lead for good: the smallest ``t`` from
    which they are ahead at every standing to the end, over ``T``; 1 when they are not ahead even at the end
    (a tie broken by the rules). ``None`` when the game has no winner to follow."""
    others = _others(trace, winners)
    if others is None or trace.steps == 0:
        return None
    since = trace.steps
    for start, _, scores in reversed(trace.spans()):
        lowest = min(scores[w] for w in winners)
        if lowest > max(scores[o] for o in others):
            since = start
        else:
            break
    return since / trace.steps


def branching(trace: Trace) -> tuple[float, float] | None:
    """``(mean legal moves per decision, share of forced decisions)``; ``None`` for a game without actions."""
    if trace.decisions == 0:
        return None
    return trace.legal_moves / trace.decisions, trace.forced / trace.decisions


def quality_numbers(trace: Trace, winners: Sequence[int]) -> dict[str, float]:
    """Every quality measure of one game (keys of :data:`QUALITY_NUMBERS`), leaving out those it cannot have."""
    numbers: dict[str, float] = {}
    if trace.players > 1:
        numbers["lead_changes"] = float(lead_changes(trace))
    found = drama(trace, winners)
    if found is not None:
        numbers["drama_behind_share"], numbers["drama_depth"] = found
    decided = decided_at(trace, winners)
    if decided is not None:
        numbers["decided_at"] = decided
    moves = branching(trace)
    if moves is not None:
        numbers["branching"], numbers["forced_share"] = moves
    return numbers


@dataclass(frozen=True)
class DurationSpread:
    """How much game lengths vary in a cell: the standard deviation, the coefficient of variation (standard
    deviation over the mean, so cells of different lengths compare) and the interquartile range."""

    games: int
    mean: float
    sd: float
    cv: float
    q1: float
    q3: float

    @property
    def iqr(self) -> float:
        """The interquartile range, ``q3 - q1``."""
        return self.q3 - self.q1


def duration_spread(lengths: Sequence[float]) -> DurationSpread:
    """The spread of game lengths (in actions, or any unit) over a cell's games. Quartiles are the inclusive
    method's (``statistics.quantiles(..., method="inclusive")``); one game has no spread (0)."""
    if not lengths:
        raise ValueError("the duration spread needs at least one game")
    count = len(lengths)
    centre = math.fsum(lengths) / count
    sd = statistics.stdev(lengths) if count > 1 else 0.0
    if count > 1:
        q1, _, q3 = statistics.quantiles(lengths, n=4, method="inclusive")
    else:
        q1 = q3 = float(lengths[0])
    return DurationSpread(count, centre, sd, sd / centre if centre else 0.0, q1, q3)
