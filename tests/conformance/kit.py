"""The conformance kit: generic checks every game must pass, through the public engine contract only.

``check_game(game, players, seed)`` plays one seeded random game to the end and checks, along the way:
progress (someone is always to act, and has a legal action); codec and mask agreement; the game's own
invariants (conservation of cards, acorns…); clone independence; JSON and notation round trips that also
agree on the future; no leak (``determinize(seat)`` keeps ``observe(seat)`` and the seat's legal actions,
while really re-sampling what it hides); illegal actions rejected without side effects; and at the end,
that the replay reproduces every event. ``check_same_seed`` checks determinism.
"""

from __future__ import annotations

import gc
import json
import types
from collections.abc import Hashable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from oakwood.engine import Decision, Game, IllegalActionError, NotYourTurnError, PlayerView, Replay, Rng, State


@dataclass
class KitReport:
    """What one checked game went through (lets the sweep assert the checks really ran)."""

    steps: int = 0
    deep_checks: int = 0
    hidden_resampled: int = 0
    decisions: set[str] = field(default_factory=set)
    terminal: bool = False


def random_step(state: State, rng: Rng) -> tuple[int, Hashable]:
    """Apply a uniformly random legal action of a random seat among those to act."""
    seats = state.to_act()
    assert seats, "a running game must have a seat to act"
    seat = rng.choice(seats)
    legal = state.legal_actions(seat)
    assert legal, f"seat {seat} is to act but has no legal action"
    action = rng.choice(legal)
    state.apply(seat, action)
    return seat, action


def play_random(state: State, rng: Rng, max_steps: int = 100_000) -> int:
    """Play random legal actions to the end; returns the number of steps."""
    steps = 0
    while not state.is_terminal():
        random_step(state, rng)
        steps += 1
        assert steps < max_steps, "game did not terminate"
    return steps


def check_step_basics(state: State) -> None:
    """Cheap checks, run before every step."""
    game = state.game
    seats = state.to_act()
    assert not state.is_terminal(), "check_step_basics needs a running game"
    assert seats, "non-terminal state with nobody to act"
    assert len(set(seats)) == len(seats)
    assert state.decision in (Decision.TURN, Decision.COMMIT, Decision.RACE)
    if state.decision is Decision.TURN:
        assert len(seats) == 1, "a turn decision lists exactly one seat"
    for seat in seats:
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} to act with no legal action"
        assert len(set(legal)) == len(legal), "duplicate legal actions"
        indices = [game.encode(a) for a in legal]
        assert indices == sorted(indices), "legal actions must come in codec order"
        mask = state.legal_mask(seat)
        assert len(mask) == game.num_actions
        assert [i for i, ok in enumerate(mask) if ok] == indices
    for seat in range(state.num_players):
        if seat not in seats:
            assert state.legal_actions(seat) == ()
    state.check_invariants()


def check_round_trips(state: State, rng: Rng) -> None:
    """JSON and notation round trips, and that the rebuilt states have the same future."""
    game = state.game
    data = state.to_json()
    json.dumps(data)  # JSON types only
    twin = game.from_json(json.loads(json.dumps(data)))
    assert twin.to_json() == data, "JSON round trip changed the state"
    text = state.to_notation()
    rebuilt = game.from_notation(text)
    assert rebuilt.to_notation() == text, "notation round trip changed the position"
    again = eval(repr(state), {"oakwood": __import__("oakwood")})  # repr() pastes back
    assert again.to_notation() == text
    for seat in [None, *range(state.num_players)]:
        assert rebuilt.observe(seat) == state.observe(seat)
    # The same next action from all three gives the same position: hidden order and RNG were kept.
    if not state.is_terminal():
        probe = state.clone()
        seat, action = random_step(probe, rng.clone())
        for other in (twin, rebuilt):
            other.apply(seat, action)
            assert other.to_notation() == probe.to_notation(), "round-tripped state diverged"


def check_clone(state: State, rng: Rng) -> None:
    """A clone equals its source, and mutating it leaves the source untouched."""
    before = state.to_json()
    twin = state.clone()
    assert twin.to_json() == before
    if not twin.is_terminal():
        random_step(twin, rng)
    assert state.to_json() == before, "mutating a clone changed the original"


def check_no_leak(state: State, rng: Rng, report: KitReport, worlds: int = 3) -> None:
    """Determinized worlds look identical to the seat (and to spectators) yet really re-sample the hidden;
    they hold nothing of the truth; and neither do views and observations."""
    truth = state.to_notation()
    spectator = state.observe(None)
    json.dumps(spectator)
    for seat in range(state.num_players):
        view = state.observe(seat)
        json.dumps(view)
        legal = state.legal_actions(seat)
        for _ in range(worlds):
            world = state.determinize(seat, rng)
            assert world.observe(seat) == view, f"determinize({seat}) changed what seat {seat} sees: a leak"
            assert world.observe(None) == spectator, "determinize changed the spectator view"
            assert world.legal_actions(seat) == legal
            assert world.to_act() == state.to_act()
            world.check_invariants()
            if world.to_notation() != truth:
                report.hidden_resampled += 1
        check_world_has_no_past(world)
        check_world_depends_only_on_the_seat(state, seat, rng)
    # Walking every reference is slow: one seat per position is enough, over the thousands of positions.
    seat = rng.randbelow(state.num_players)
    truth = truth_parts(state)
    check_unreachable(state.determinize(seat, rng), truth, "a determinized world")
    check_unreachable(state.observe(seat), truth, "an observation")
    check_unreachable(PlayerView.of(state, seat, world_rng=rng.clone()), truth, "a PlayerView")


def check_world_has_no_past(world: State) -> None:
    """A world starts where it was made: its replay, events and saved form describe the world, not the truth."""
    assert world.history == [] and world.events == [], "a world carries the true history or event log"
    assert world.replay().play().to_json() == world.to_json(), "a world's replay does not rebuild the world"
    assert world.game.from_json(json.loads(json.dumps(world.to_json()))).to_json() == world.to_json()


def check_world_depends_only_on_the_seat(state: State, seat: int, rng: Rng) -> None:
    """``determinize(seat)`` is a function of what ``seat`` knows and the generator, nothing else.

    Another state that the seat cannot tell from this one (a world of it) must give exactly the same world
    for the same generator: so nothing the seat cannot know can reach a world.
    """
    other = state.determinize(seat, rng)
    probe = rng.next_u64()
    mine = state.determinize(seat, Rng(probe))
    theirs = other.determinize(seat, Rng(probe))
    assert mine.to_json() == theirs.to_json(), f"determinize({seat}) depends on what seat {seat} cannot see"


_LEAVES = (str, bytes, int, float, complex, bool, type(None), Enum, type, types.ModuleType, range)


def _reachable(root: object, skip: set[int]) -> dict[int, object]:
    """Every mutable object reachable from ``root`` by reference (closures included), by id.

    Immutable leaves are not listed (nothing can be written through them) and ``skip`` ids are not entered;
    functions are entered through their closures and defaults only, not their modules' globals.
    """
    found: dict[int, object] = {}
    visited: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in visited or id(obj) in skip or isinstance(obj, _LEAVES):
            continue
        visited.add(id(obj))
        if isinstance(obj, types.FunctionType):
            stack.extend(cell.cell_contents for cell in obj.__closure__ or ())
            stack.extend(obj.__defaults__ or ())
            continue
        if isinstance(obj, (types.BuiltinFunctionType, types.WrapperDescriptorType, types.MethodDescriptorType)):
            continue
        if not isinstance(obj, (tuple, frozenset)):
            found[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return found


_SHARED_BY_GAME: dict[int, tuple[Game[Any], set[int]]] = {}


def _shared(game: Game[Any]) -> set[int]:
    """The ids of the game object and what it holds: the ruleset every state of the game shares, no truth."""
    if id(game) not in _SHARED_BY_GAME:  # memos inside the game only grow by immutable tuples: walk it once
        _SHARED_BY_GAME[id(game)] = (game, {id(game)} | set(_reachable(game, set())))
    return _SHARED_BY_GAME[id(game)][1]


@dataclass(frozen=True)
class TruthParts:
    """The live state and every mutable object it holds (the game's shared ruleset aside), by id."""

    state: State
    parts: dict[int, object]
    shared: set[int]


def truth_parts(state: State) -> TruthParts:
    """What must never be reachable from anything handed out of ``state``."""
    shared = _shared(state.game)
    return TruthParts(state, _reachable(state, shared), shared)


def check_unreachable(holder: object, truth: TruthParts, what: str) -> None:
    """Nothing reachable from ``holder`` is the live state or one of its mutable parts (the game aside)."""
    reached = _reachable(holder, truth.shared)
    common = [truth.parts[i] for i in reached.keys() & truth.parts.keys()]
    assert not common, f"{what} reaches the live state: {[type(o).__name__ for o in common][:5]} {common[:2]!r:.300}"


def check_illegal_rejected(state: State, rng: Rng) -> None:
    """An illegal action and an out-of-turn seat are refused with the right error, changing nothing."""
    game = state.game
    before = state.to_notation()
    seats = state.to_act()
    seat = rng.choice(seats)
    legal = set(state.legal_actions(seat))
    illegal = [a for a in game.codec.actions if a not in legal]
    if illegal:
        try:
            state.apply(seat, rng.choice(illegal))
        except IllegalActionError as exc:
            assert str(exc), "an illegal action must be explained"
        else:
            raise AssertionError("an illegal action was accepted")
    idle = [s for s in range(state.num_players) if s not in seats]
    if idle:
        try:
            state.apply(rng.choice(idle), game.codec.actions[0])
        except NotYourTurnError:
            pass
        else:
            raise AssertionError("an out-of-turn action was accepted")
    assert state.to_notation() == before, "a rejected action changed the state"


def check_estimate(state: State) -> None:
    """``game.estimate_returns``: a number per seat in [0, 1], shares summing to 1 with several seats, the true
    returns at the end."""
    shares = state.game.estimate_returns(state)
    assert len(shares) == state.num_players
    assert all(0.0 <= x <= 1.0 for x in shares), shares
    if state.num_players > 1:
        assert abs(sum(shares) - 1.0) < 1e-9, shares
    if state.is_terminal() and (sum(state.returns()) > 0 or state.num_players == 1):
        assert all(abs(a - b) < 1e-9 for a, b in zip(shares, state.returns(), strict=True)), shares


def deep_check(state: State, rng: Rng, report: KitReport, worlds: int = 3) -> None:
    """The expensive checks of one running position: round trips, clone, no leak, illegal actions."""
    report.deep_checks += 1
    check_estimate(state)
    check_round_trips(state, rng)
    check_clone(state, rng)
    check_no_leak(state, rng, report, worlds)
    check_illegal_rejected(state, rng)


def check_game(game: Game[Any], players: int, seed: int, *, deep_every: int = 25) -> KitReport:
    """Play one seeded random game with every check; deep checks run on about one step in ``deep_every``."""
    rng = Rng(seed * 7919 + players)
    state = game.new_state(players, seed)
    report = KitReport()
    while not state.is_terminal():
        check_step_basics(state)
        report.decisions.add(str(state.decision))
        if rng.randbelow(deep_every) == 0:
            deep_check(state, rng, report)
        random_step(state, rng)
        report.steps += 1
        assert report.steps < 200_000, "game did not terminate"
    report.terminal = True
    state.check_invariants()
    check_terminal(state)
    check_round_trips(state, rng)
    check_replay(state)
    return report


def check_terminal(state: State) -> None:
    """A finished game: nobody to act, winners and returns consistent."""
    assert state.to_act() == ()
    assert state.decision is Decision.NONE
    returns = state.returns()
    assert len(returns) == state.num_players
    assert abs(sum(returns) - 1.0) < 1e-9 or sum(returns) == 0.0
    winners = state.winners()
    assert all(returns[s] > 0 for s in winners)
    assert len(state.scores()) == state.num_players
    check_estimate(state)


def check_replay(state: State) -> None:
    """The replay record reproduces every event and the final position."""
    replay = Replay.from_json(json.loads(json.dumps(state.replay().to_json())))
    again = replay.play()
    assert again.to_json() == state.to_json(), "replay did not reproduce the game"


def check_same_seed(game: Game[Any], players: int, seed: int) -> None:
    """The same seed and the same choices give the same game; another seed deals differently."""
    a = game.new_state(players, seed)
    b = game.new_state(players, seed)
    assert a.to_json() == b.to_json()
    play_random(a, Rng(seed))
    play_random(b, Rng(seed))
    assert a.to_json() == b.to_json()
    c = game.new_state(players, seed + 1)
    assert c.to_notation() != game.new_state(players, seed).to_notation()
