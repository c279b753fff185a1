"""A generic fuzzer for the loaders: mutated notation and saved states must be refused or be real positions.

Every loader is a trust boundary (a pasted position, a saved game, a replay sent to the server). For each
entry point the property is the same: the loader either raises the documented error
(:class:`InvalidNotationError`) or returns a state that is a real position of the game — it passes the
kit's per-position checks and a random playout from it ends with every invariant intact. Any other
exception, a livelock or a broken invariant fails with the offending input in the message.

Mutations start from positions met in seeded random playouts. Notations are ``key=value`` fields separated
by spaces in every game, so the most telling mutation swaps a field's value with the same field of another
position (each value is well formed; the combination usually is not a position); the others bump numbers,
insert, delete and replace characters, drop and repeat fields. Saved states (``to_json``) are mutated in
their seed, players, history, events, start and notation.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from oakwood.engine import Game, InvalidNotationError, Rng, State
from oakwood.engine.errors import shown

from .kit import check_step_basics, random_step

#: Numbers worth trying wherever a number stands: bounds, off-by-ones, and values far out of range.
_NUMBERS = ("0", "1", "-1", "2", "3", "7", "9", "10", "99", "65", str(2**64), str(2**70), "1" + "0" * 5000, "01", "+1")
_MAX_PLAYOUT = 20_000


@dataclass
class FuzzReport:
    """How many mutated inputs were refused with the documented error and how many loaded as positions."""

    refused: int = 0
    accepted: int = 0

    @property
    def cases(self) -> int:
        """Every input tried."""
        return self.refused + self.accepted


def positions(game: Game[Any], players: int, seeds: Sequence[int] | range, every: int = 7) -> list[State]:
    """Positions met in seeded random playouts: the start, one in ``every`` steps, and the end."""
    found: list[State] = []
    for seed in seeds:
        rng = Rng(seed * 31 + players)
        state = game.new_state(players, seed)
        found.append(state.clone())
        steps = 0
        while not state.is_terminal():
            random_step(state, rng)
            steps += 1
            if rng.randbelow(every) == 0:
                found.append(state.clone())
            assert steps < _MAX_PLAYOUT, "a seeded random game did not end"
        found.append(state)
    return found


def check_loaded(state: State, rng: Rng, origin: str) -> None:
    """A loaded state is a real position: its checks pass along a random playout that ends."""
    try:
        state.check_invariants()
        text = state.to_notation()
        again = state.game.from_notation(text)
        assert again.to_notation() == text, "the loaded position does not round-trip"
        json.dumps(state.to_json())
        for seat in [None, *range(state.num_players)]:
            json.dumps(state.observe(seat))
        steps = 0
        while not state.is_terminal():
            check_step_basics(state)
            random_step(state, rng)
            steps += 1
            assert steps < _MAX_PLAYOUT, "the game never ends from this position (a livelock)"
        state.check_invariants()
        assert state.to_act() == (), "a finished game has a seat to act"
    except Exception as exc:  # every failure names the input that caused it
        raise AssertionError(f"{type(exc).__name__}: {exc}\n  from the loaded input: {origin[:2000]}") from exc


def _load_or_refuse(load: Callable[[], State], origin: str, rng: Rng, report: FuzzReport) -> None:
    try:
        state = load()
    except InvalidNotationError as exc:
        assert str(exc), "a refusal must say why"
        assert len(str(exc)) < 2000, f"a refusal echoes its input back: {str(exc)[:200]}…"
        report.refused += 1
        return
    except Exception as exc:
        raise AssertionError(
            f"{type(exc).__name__} instead of InvalidNotationError: {exc}\n  input: {origin[:2000]}"
        ) from exc
    report.accepted += 1
    check_loaded(state, rng, origin)


# ---------------------------------------------------------------------- notation
def mutate_notation(text: str, donors: Sequence[str], rng: Rng) -> str:
    """One to three random mutations of a notation line (see the module docstring)."""
    for _ in range(1 + rng.randbelow(3)):
        text = _NOTATION_MUTATIONS[rng.randbelow(len(_NOTATION_MUTATIONS))](text, donors, rng)
    return text


def _fields(text: str) -> list[str]:
    return text.split(" ")


def _swap_field(text: str, donors: Sequence[str], rng: Rng) -> str:
    parts = _fields(text)
    i = rng.randbelow(len(parts))
    key = parts[i].partition("=")[0]
    donor = {p.partition("=")[0]: p for p in _fields(rng.choice(donors))}
    if key in donor:
        parts[i] = donor[key]
    return " ".join(parts)


def _bump_number(text: str, donors: Sequence[str], rng: Rng) -> str:
    spans = []
    i = 0
    while i < len(text):
        if text[i].isdigit():
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    if not spans:
        return text
    start, end = rng.choice(spans)
    value = int(text[start:end]) if end - start < 30 else 0
    new = rng.choice([str(value + 1), str(max(0, value - 1)), rng.choice(_NUMBERS)])
    return text[:start] + new + text[end:]


def _replace_char(text: str, donors: Sequence[str], rng: Rng) -> str:
    if not text:
        return text
    i = rng.randbelow(len(text))
    alphabet = rng.choice(donors)
    return text[:i] + alphabet[rng.randbelow(len(alphabet))] + text[i + 1 :]


def _insert_char(text: str, donors: Sequence[str], rng: Rng) -> str:
    i = rng.randbelow(len(text) + 1)
    alphabet = rng.choice(donors) + "-,.|/:=*~@"
    return text[:i] + alphabet[rng.randbelow(len(alphabet))] + text[i:]


def _delete_span(text: str, donors: Sequence[str], rng: Rng) -> str:
    if not text:
        return text
    i = rng.randbelow(len(text))
    return text[:i] + text[i + 1 + rng.randbelow(3) :]


def _drop_or_repeat_field(text: str, donors: Sequence[str], rng: Rng) -> str:
    parts = _fields(text)
    i = 1 + rng.randbelow(max(1, len(parts) - 1))
    if i >= len(parts):
        return text
    if rng.randbelow(2):
        del parts[i]
    else:
        parts.insert(rng.randbelow(len(parts) + 1), parts[i])
    return " ".join(parts)


_NOTATION_MUTATIONS: tuple[Callable[[str, Sequence[str], Rng], str], ...] = (
    _swap_field,
    _swap_field,
    _swap_field,
    _bump_number,
    _bump_number,
    _replace_char,
    _insert_char,
    _delete_span,
    _drop_or_repeat_field,
)


def fuzz_notation(game: Game[Any], found: Sequence[State], cases: int, seed: int) -> FuzzReport:
    """``cases`` mutated notations through ``game.from_notation``: refused, or a real position."""
    rng = Rng(seed)
    texts = [state.to_notation() for state in found]
    report = FuzzReport()
    for _ in range(cases):
        text = mutate_notation(rng.choice(texts), texts, rng)
        _load_or_refuse(lambda text=text: game.from_notation(text), text, rng.clone(), report)  # type: ignore[misc]
        rng.next_u64()
    return report


# ---------------------------------------------------------------------- saved states
def mutate_json(
    data: dict[str, Any], donors: Sequence[dict[str, Any]], notations: Sequence[str], rng: Rng
) -> dict[str, Any]:
    """One or two random mutations of a saved state (a deep copy; ``data`` is left as it was)."""
    out = copy.deepcopy(data)
    for _ in range(1 + rng.randbelow(2)):
        _JSON_MUTATIONS[rng.randbelow(len(_JSON_MUTATIONS))](out, donors, notations, rng)
    return out


def _odd_value(rng: Rng) -> Any:
    return rng.choice([None, -1, 0, 1, 2**64, 2**70, 10**5000, 1.5, float("nan"), "7", "x" * 100_000, [], {}, True])


def _plus_one(value: Any) -> Any:
    """``value + 1`` for an integer; an earlier mutation may have left anything there."""
    return value + 1 if type(value) is int else 1


def _j_seed(d: dict[str, Any], donors: Sequence[dict[str, Any]], notations: Sequence[str], rng: Rng) -> None:
    d["seed"] = rng.choice([rng.choice(donors)["seed"], _plus_one(d.get("seed")), _odd_value(rng)])


def _j_players(d: dict[str, Any], donors: Sequence[dict[str, Any]], notations: Sequence[str], rng: Rng) -> None:
    players = d.get("players")
    d["players"] = rng.choice([_plus_one(players), _plus_one(players) - 2, _odd_value(rng)])


def _j_history(d: dict[str, Any], donors: Sequence[dict[str, Any]], notations: Sequence[str], rng: Rng) -> None:
    history = d.get("history")
    if not isinstance(history, list) or not history:
        d["history"] = rng.choice([[], [[0, 0]], None, "x", rng.choice(donors)["history"]])
        return
    i = rng.randbelow(len(history))
    if not isinstance(history[i], list) or len(history[i]) != 2 or not all(type(x) is int for x in history[i]):
        history[i] = [0, 0]  # an earlier mutation broke this entry: make it a pair again
    choice = rng.randbelow(6)
    if choice == 0:
        del history[i:]
    elif choice == 1:
        history[i] = [history[i][0], history[i][1] + 1]
    elif choice == 2:
        history[i] = [(history[i][0] + 1) % 7, history[i][1]]
    elif choice == 3:
        history[i] = _odd_value(rng)
    elif choice == 4:
        history.append(list(history[i]))
    else:
        d["history"] = rng.choice(donors)["history"]


def _deep_event() -> dict[str, Any]:
    nested: dict[str, Any] = {"kind": "x", "public": {}}
    for _ in range(100_000):
        nested = {"kind": "deep", "public": {"inner": nested}}
    return nested


_DEEP_EVENT = _deep_event()  # an event nested 100,000 deep: dumping it would overflow the stack


def _j_events(d: dict[str, Any], donors: Sequence[dict[str, Any]], notations: Sequence[str], rng: Rng) -> None:
    d["events"] = rng.choice([[], [_DEEP_EVENT], _odd_value(rng), [{"kind": "forged", "public": {"card": "Golden"}}]])


def _j_start(d: dict[str, Any], donors: Sequence[dict[str, Any]], notations: Sequence[str], rng: Rng) -> None:
    base = rng.choice(notations)
    d["start"] = rng.choice([None, base, mutate_notation(base, notations, rng), _odd_value(rng)])


def _j_notation(d: dict[str, Any], donors: Sequence[dict[str, Any]], notations: Sequence[str], rng: Rng) -> None:
    base = d.get("notation") if isinstance(d.get("notation"), str) else rng.choice(notations)
    d["notation"] = rng.choice([rng.choice(notations), mutate_notation(base, notations, rng), _odd_value(rng)])


def _j_top(d: dict[str, Any], donors: Sequence[dict[str, Any]], notations: Sequence[str], rng: Rng) -> None:
    if not d:
        return
    key = rng.choice(sorted(d))
    choice = rng.randbelow(3)
    if choice == 0:
        del d[key]
    elif choice == 1:
        d[key] = _odd_value(rng)
    else:
        options = d.get("options") if isinstance(d.get("options"), dict) else {}
        d["options"] = rng.choice([{1: 2}, {"no_such_option": 1}, None, {**options, "players": 3}])


_JSON_MUTATIONS: tuple[Callable[[dict[str, Any], Sequence[dict[str, Any]], Sequence[str], Rng], None], ...] = (
    _j_seed,
    _j_players,
    _j_history,
    _j_history,
    _j_history,
    _j_events,
    _j_start,
    _j_notation,
    _j_notation,
    _j_top,
)


def fuzz_json(game: Game[Any], found: Sequence[State], cases: int, seed: int) -> FuzzReport:
    """``cases`` mutated saved states through ``game.from_json``: refused, or a real position."""
    rng = Rng(seed)
    saved = [state.to_json() for state in found]
    notations = [d["notation"] for d in saved]
    report = FuzzReport()
    for _ in range(cases):
        data = mutate_json(rng.choice(saved), saved, notations, rng)
        origin = _describe(data)
        _load_or_refuse(lambda data=data: game.from_json(data), origin, rng.clone(), report)  # type: ignore[misc]
        rng.next_u64()
    return report


def _describe(data: Any) -> str:
    """A short, printable account of a (possibly huge or deeply nested) mutated input."""
    if not isinstance(data, dict):
        return shown(data, 2000)
    return "{" + ", ".join(f"{shown(key)}: {shown(value, 600)}" for key, value in data.items()) + "}"
