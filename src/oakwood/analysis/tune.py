"""Tuning a game's options toward a designer's targets (``oakwood tune``), with Optuna.

A *trial* is one setting of the searched options. It is measured by playing bot games at every table size
asked for, on seeded deals shared by every trial (common random numbers: trial *a* and trial *b* play game
*i* from the same seed, so their difference is the rules', not the deal's), through the store like any
analysis cell — a setting tried twice, or a run cut short, never plays a stored game again.

Each target is one objective to minimise, in the designer's unit, and met when it is within its tolerance:

- ``seats=P``: every place's win share within ``P`` points of fair (the place in the turn order when the game
  draws its first player — ``GameFeatures.order``, as the report measures the first-player advantage — else
  the seat number); the objective is the largest gap, in points, over places and table sizes.
- ``first=P``: the first place's win share within ``P`` points of fair.
- ``length=A-B``: the mean game length (actions) between ``A`` and ``B``; the objective is how far outside.
- ``number:KEY=A-B``: the mean of one of the numbers the game's extractor measures (rounds, battles, the
  game-quality measures such as ``decided_at``, decisiveness; a name it does not measure is refused with the
  list of those it does) between ``A`` and ``B``.
- ``skill=P``: the skill ladder kept — a stronger bot (``--agent``, the heuristic by default) at a table of
  weaker ones (``--weak``, the random bot) wins at least ``P`` % of the games; the objective is the shortfall.

One target is searched with TPE, several with NSGA-II (a Pareto front). The study lives in the project's
database (Optuna's RDB storage on the store's own URL), so a run resumes and a later run adds trials. A
resumed study equals an uninterrupted one: the sampler is rebuilt before every trial with a seed derived
from the study's seed and the trial's number, so what it draws depends only on the trials before it, never
on how many processes the study took.

Then the noise: the best trials are re-measured on fresh deals (another seed, more games) before one is
recommended — the best of many noisy trials is flattered by its luck — and every one-step change of the
recommended setting (each option moved one notch, as TAG's NTBEA reports it) is measured, so a designer sees
whether the setting sits on a plateau or a cliff edge.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from oakwood.arena.backend import Backend
from oakwood.arena.recording import GameWriter
from oakwood.arena.simulate import SimulationStopped, simulate
from oakwood.arena.stats import derive_seed
from oakwood.arena.tournament import simulation_spec
from oakwood.engine import Game, InvalidOptionError, game_class, load
from oakwood.store import PlayedGame, Store, TournamentSettings

from .features import FeatureExtractor, extractor_for
from .measure import measure
from .statistics import Mean, Share, mean, share

if TYPE_CHECKING:
    import optuna

Json = dict[str, Any]

#: Target kinds, with the words a report uses for their objective.
TARGET_KINDS = {
    "seats": "largest seat gap from fair (points)",
    "first": "first seat's gap from fair (points)",
    "length": "mean length outside the range (actions)",
    "number": "mean outside the range",
    "skill": "stronger bot's shortfall (points)",
}

#: How far an integer option is searched either side of its default when no range is given.
INT_SPAN = 3
#: How far each card count of a deck is searched either side of its base count when no width is given.
COUNT_SPAN = 1
#: Importance: Optuna's PED-ANOVA evaluator, on the best fifth of the trials for each target.
IMPORTANCE_QUANTILE = 0.2
IMPORTANCE_EVALUATOR = "PED-ANOVA (optuna PedAnovaImportanceEvaluator, target_quantile 0.2)"
#: The seed index of the fresh deals the leaders and the robustness check are measured on.
FRESH = 1


class TuneError(ValueError):
    """A target, a searched option or a study that cannot be used; the message is one line."""


# ---------------------------------------------------------------------------------------------------- targets


@dataclass(frozen=True)
class Target:
    """One designer's target: an objective (minimised) and the tolerance within which it is met."""

    kind: str
    text: str  # as the designer wrote it
    tolerance: float = 0.0  # seats/first: points from fair; the range kinds are met at 0
    low: float = 0.0  # length/number: the range; skill: the least share (points)
    high: float = 0.0
    key: str = ""  # number: the measured number

    @property
    def label(self) -> str:
        """The objective in words."""
        if self.kind == "number":
            return f"mean {self.key} outside {self.low:g}–{self.high:g}"
        return TARGET_KINDS[self.kind]

    def excess(self, value: float) -> float:
        """How far an objective value is from meeting the target (0 when met)."""
        return max(0.0, value - self.tolerance)

    def met(self, value: float) -> bool:
        """Whether an objective value meets the target."""
        return self.excess(value) <= 1e-12


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise TuneError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise TuneError(f"{what}: {text!r} must be a non-negative number")
    return value


def _range(text: str, what: str) -> tuple[float, float]:
    low, dash, high = text.partition("-")
    if not dash:
        raise TuneError(f"{what}: give a range A-B, got {text!r}")
    first, last = _number(low.strip(), what), _number(high.strip(), what)
    if last < first:
        raise TuneError(f"{what}: the range {text!r} goes from the smaller to the larger")
    return first, last


def parse_target(text: str, extractor: FeatureExtractor, players: Sequence[int]) -> Target:
    """A ``--target`` as written (``seats=3``, ``first=2``, ``length=40-80``, ``number:rounds=3-6``,
    ``skill=60``); a bad one raises :class:`TuneError` naming what is wrong."""
    name, sep, value = (part.strip() for part in text.partition("="))
    what = f"--target {text.strip()!r}"
    kind, _, key = name.partition(":")
    kind = kind.lower()
    if kind not in TARGET_KINDS:
        raise TuneError(f"{what}: unknown target {kind!r}; choose {', '.join(TARGET_KINDS)}")
    if kind in ("seats", "first") and min(players) < 2:
        raise TuneError(f"{what}: a seat target needs tables of two or more players")
    if kind == "seats":
        return Target(kind, text.strip(), tolerance=_number(value, what) if sep else 3.0)
    if kind == "first":
        return Target(kind, text.strip(), tolerance=_number(value, what) if sep else 2.0)
    if kind == "skill":
        least = _number(value, what) if sep else 50.0
        if least > 100:
            raise TuneError(f"{what}: a win share is at most 100 %")
        if min(players) < 2:
            raise TuneError(f"{what}: the skill ladder needs tables of two or more players")
        return Target(kind, text.strip(), low=least)
    if not sep:
        raise TuneError(f"{what}: give a range, for example {kind}{':KEY' if kind == 'number' else ''}=40-80")
    low, high = _range(value, what)
    if kind == "number":
        if not key:
            raise TuneError(f"{what}: name the number, for example number:rounds=3-6")
        if key not in extractor.numbers:
            known = ", ".join(extractor.numbers) or "none"
            raise TuneError(f"{what}: {extractor.game} measures no number {key!r} (it measures {known})")
    elif key:
        raise TuneError(f"{what}: only number targets name a key")
    return Target(kind, text.strip(), low=low, high=high, key=key)


# ------------------------------------------------------------------------------------------------ the space


@dataclass(frozen=True)
class Dimension:
    """One searched parameter: an option's choices, an integer option's range, or one card count of a deck."""

    name: str  # the Optuna parameter: the option, or ``option:item`` for a deck count
    option: str
    choices: tuple[Any, ...] = ()  # a choice option (booleans included)
    low: int = 0  # an integer option, or a count
    high: int = 0
    item: str | None = None  # a deck count: the card kind

    def distribution(self) -> optuna.distributions.BaseDistribution:
        """The Optuna distribution of this parameter."""
        import optuna

        if self.choices:
            return optuna.distributions.CategoricalDistribution(self.choices)
        return optuna.distributions.IntDistribution(self.low, self.high)

    def notches(self, value: Any) -> list[Any]:
        """The values one step from ``value``: every other choice, or one up and one down."""
        if self.choices:
            return [c for c in self.choices if c != value]
        return [v for v in (value - 1, value + 1) if self.low <= v <= self.high]

    def describe(self) -> str:
        """The searched values in words."""
        if self.choices:
            return " | ".join(_shown(c) for c in self.choices)
        return f"{self.low}–{self.high}"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _choice_text(values: str, info: Any, what: str) -> tuple[Any, ...]:
    """``a|b|c`` (or ``a,b``) read as values of a choice or boolean option."""
    parts = [v.strip() for v in values.replace("|", ",").split(",") if v.strip()]
    if len(parts) < 2:
        raise TuneError(f"{what}: list two values or more")
    out: list[Any] = []
    for part in parts:
        if isinstance(info.default, bool):
            low = part.lower()
            if low not in ("true", "false"):
                raise TuneError(f"{what}: {part!r} is not true or false")
            value: Any = low == "true"
        else:
            value = part
        if info.choices is not None and value not in info.choices:
            raise TuneError(f"{what}: {part!r} is not one of {' | '.join(map(_shown, info.choices))}")
        if value in out:
            raise TuneError(f"{what}: {part!r} is listed twice")
        out.append(value)
    return tuple(out)


def search_space(game: Game[Any], searched: Sequence[str], fixed: Mapping[str, Any]) -> list[Dimension]:
    """The searched parameters. ``searched`` holds ``OPTION`` (its every value; an integer ±3 of its default;
    a deck's named decks), ``OPTION=a|b`` (these values), ``OPTION=LO-HI`` (an integer range), ``OPTION=±K``
    (a deck's every card count ±K) or ``OPTION:KIND,KIND=LO-HI`` (these card counts); empty, or ``all`` among
    them, adds every other option that has choices, is a boolean or an integer. ``fixed`` (``--option``) is
    held and never searched."""
    infos = {info.name: info for info in type(game.options).describe()}
    editors = type(game.options).editors()
    base = game.options.to_dict()
    wanted: list[tuple[str, str | None]] = []
    every = not searched or any(text.strip().lower() == "all" for text in searched)
    for text in searched:
        if text.strip().lower() == "all":
            continue
        name, sep, values = (part.strip() for part in text.partition("="))
        name = name.replace("-", "_")
        what = f"--search {text.strip()!r}"
        option_name, _, items = name.partition(":")
        if option_name not in infos:
            raise TuneError(f"{what}: {game.title} has no option {option_name!r} (see oakwood games {game.name})")
        if items and editors.get(option_name, {}).get("kind") != "counts":
            raise TuneError(f"{what}: only a deck option names card kinds (OPTION:KIND,KIND=LO-HI)")
        if option_name in fixed:
            raise TuneError(f"{what}: {option_name} is also fixed by --option; search it or fix it, not both")
        if any(name == done or (not items and done.partition(":")[0] == name) for done, _ in wanted):
            raise TuneError(f"{what}: {name} is searched twice")
        if sep and not values:
            raise TuneError(f"{what}: give values after '='")
        wanted.append((name, values if sep else None))
    if every:  # every option that has choices, is a boolean or an integer (and a deck with named decks)
        named = {done.partition(":")[0] for done, _ in wanted}
        for name, info in infos.items():
            # a deck is searched by default over its named decks, when it has several (its card counts only
            # when asked: OPTION=±K, or OPTION:KIND,KIND=LO-HI)
            decks = len(editors.get(name, {}).get("presets", {})) > 1
            searchable = info.choices is not None or isinstance(info.default, bool | int) or decks
            if name not in fixed and name not in named and searchable:
                wanted.append((name, None))
    space: list[Dimension] = []
    for name, given in wanted:
        option_name, _, items = name.partition(":")
        info = infos[option_name]
        what = f"--search {name}" + (f"={given}" if given is not None else "")
        editor = editors.get(option_name, {})
        if editor.get("kind") == "counts" and (items or given is None or given.lstrip().startswith(("±", "+"))):
            space.extend(_count_dimensions(option_name, base[option_name], editor, items, given, what))
        elif info.choices is not None or isinstance(info.default, bool):
            choices = (
                (tuple(info.choices) if info.choices is not None else (False, True))
                if given is None
                else _choice_text(given, info, what)
            )
            space.append(Dimension(name, name, choices=choices))
        elif isinstance(info.default, int):
            low, high = _int_range(info, given, what)
            space.append(Dimension(name, name, low=low, high=high))
        elif isinstance(info.default, str) and given is not None:
            choices = _choice_text(given, info, what)
            for value in choices:  # a free-text option: each listed value checked now, not in a trial
                try:
                    type(game.options).create(**{**fixed, name: value})
                except InvalidOptionError as exc:
                    raise TuneError(f"{what}: {exc}") from None
            space.append(Dimension(name, name, choices=choices))
        elif isinstance(info.default, str):
            raise TuneError(f"{what}: a text option is searched over listed values: --search {name}=a|b")
        else:
            raise TuneError(f"{what}: a {type(info.default).__name__} option is not searched; fix it with --option")
    if not space:
        raise TuneError("nothing to search: every option is fixed (name one with --search)")
    return space


def _int_range(info: Any, values: str | None, what: str) -> tuple[int, int]:
    least = -(10**9) if info.minimum is None else int(info.minimum)
    most = 10**9 if info.maximum is None else int(info.maximum)
    if values is None:
        low, high = max(least, info.default - INT_SPAN), min(most, info.default + INT_SPAN)
    else:
        first, last = _range(values, what)
        if first != int(first) or last != int(last):
            raise TuneError(f"{what}: an integer option takes a whole-number range")
        low, high = int(first), int(last)
        if low < least or high > most:
            raise TuneError(f"{what}: {info.name} takes {least}–{most}")
    if low == high:
        raise TuneError(f"{what}: a range of one value searches nothing; fix it with --option instead")
    return low, high


def deck_counts(value: Any, editor: Mapping[str, Any]) -> dict[str, int]:
    """The count of every card kind of a deck option's value (a named deck, or a JSON object of counts)."""
    presets = editor.get("presets", {})
    found = (
        presets[value]
        if isinstance(value, str) and value in presets
        else (json.loads(value) if isinstance(value, str) else dict(value))
    )
    return {item["code"]: int(found.get(item["code"], 0)) for item in editor["items"]}


def _count_dimensions(
    name: str, base: Any, editor: Mapping[str, Any], items: str, given: str | None, what: str
) -> list[Dimension]:
    """A deck as data: one integer parameter per card kind searched — ``OPTION=±K`` (every kind, ±K around
    the base deck's count), ``OPTION`` alone (its named decks when it has several, else every kind ±1), or
    ``OPTION:KIND,KIND=LO-HI`` (these kinds over a range)."""
    counts = deck_counts(base, editor)
    limits = {item["code"]: int(item.get("max", 10**6)) for item in editor["items"]}
    floors = {item["code"]: int(item.get("min", 0)) for item in editor["items"]}  # an item may bound its count
    if given is None and not items and len(editor.get("presets", {})) > 1:
        return [Dimension(name, name, choices=tuple(editor["presets"]))]
    if items:
        kinds = [k.strip() for k in items.split(",") if k.strip()]
        for kind in kinds:
            if kind not in counts:
                raise TuneError(f"{what}: no card kind {kind!r} (kinds: {', '.join(counts)})")
        if given is None:
            raise TuneError(f"{what}: give the counts searched, for example {name}=0-1")
        first, last = _range(given, what)
        if first != int(first) or last != int(last) or first == last:
            raise TuneError(f"{what}: card counts are a whole-number range of two values or more")
        dims = [
            Dimension(
                f"{name}:{kind}", name, low=max(int(first), floors[kind]), high=min(int(last), limits[kind]), item=kind
            )
            for kind in kinds
        ]
        for dim in dims:
            if dim.low >= dim.high:
                raise TuneError(
                    f"{what}: {dim.item} takes {floors[dim.item]}–{limits[dim.item]} cards; nothing to search"
                )
        return dims
    width = COUNT_SPAN
    if given is not None:
        text = given.lstrip("±+")
        if not text.isdigit() or int(text) < 1:
            raise TuneError(f"{what}: a deck is searched as ±K around its base counts (K a whole number ≥ 1)")
        width = int(text)
    return [
        Dimension(
            f"{name}:{kind}",
            name,
            low=max(floors[kind], count - width),
            high=min(count + width, limits[kind]),
            item=kind,
        )
        for kind, count in counts.items()
        if max(floors[kind], count - width) < min(count + width, limits[kind])
    ]


def options_for(
    space: Sequence[Dimension],
    params: Mapping[str, Any],
    base: Mapping[str, Any],
    editors: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The full options of a trial: the base (defaults and ``--option``) with the searched values set; a deck
    searched card by card is the base deck with the searched counts."""
    options = dict(base)
    decks: dict[str, dict[str, int]] = {}
    for dim in space:
        value = params[dim.name]
        if dim.item is not None:
            if dim.option not in decks:
                decks[dim.option] = deck_counts(base[dim.option], (editors or {})[dim.option])
            decks[dim.option][dim.item] = int(value)
        else:
            options[dim.option] = value
    for option, counts in decks.items():
        options[option] = json.dumps(counts, sort_keys=True, separators=(",", ":"))
    return options


def base_params(
    space: Sequence[Dimension], base: Mapping[str, Any], editors: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """The parameters of the base options (the first trial: what the rules are now); a parameter whose base
    value is outside its searched values is left to the sampler."""
    params: dict[str, Any] = {}
    for dim in space:
        value = base[dim.option]
        if dim.item is not None:
            value = deck_counts(value, editors[dim.option])[dim.item]
        if dim.choices and value not in dim.choices:
            continue  # the base value is not among the listed ones: the sampler draws this one
        if not dim.choices and not dim.low <= value <= dim.high:
            continue
        params[dim.name] = value
    return params


# ------------------------------------------------------------------------------------------------ measuring


@dataclass(frozen=True)
class Settings:
    """Everything a study is defined by: the same settings and seed give the same trials."""

    game: str
    base: dict[str, Any]  # the options every trial starts from (defaults with --option)
    space: tuple[Dimension, ...]
    targets: tuple[Target, ...]
    players: tuple[int, ...]
    agent: str = "heuristic"
    weak: str = "random"
    games: int = 400  # per table size and trial
    skill_games: int = 150  # mixed tables per table size and trial (with a skill target)
    seed: int = 0
    leaders: int = 3  # re-measured on fresh deals
    leader_games: int = 1200
    population: int = 12  # NSGA-II's generation size

    def to_json(self) -> Json:
        """What is kept with the study, so a resumed run is checked to be the same study."""
        return {
            "game": self.game,
            "base": self.base,
            "space": [{"name": d.name, "choices": list(d.choices), "low": d.low, "high": d.high} for d in self.space],
            "targets": [t.text for t in self.targets],
            "players": list(self.players),
            "agent": self.agent,
            "weak": self.weak,
            "games": self.games,
            "skill_games": self.skill_games,
            "seed": str(self.seed),
            "population": self.population,
        }

    @property
    def needs_skill(self) -> bool:
        """Whether mixed tables are played (a skill target)."""
        return any(t.kind == "skill" for t in self.targets)


@dataclass(frozen=True)
class SizeFigures:
    """What one setting measured at one table size."""

    players: int
    places: tuple[Share, ...]  # win share of each place in the turn order (or each seat)
    by_order: bool  # places are turn-order places (the game draws its first player)
    length: Mean  # actions per game
    numbers: dict[str, Mean]
    skill: Share | None  # the stronger bot's win share at a table of weaker ones

    def to_json(self) -> Json:
        """JSON form (kept with each trial)."""
        return {
            "players": self.players,
            "places": [s.to_json() for s in self.places],
            "by_order": self.by_order,
            "length": self.length.to_json(),
            "numbers": {k: m.to_json() for k, m in self.numbers.items()},
            "skill": None if self.skill is None else self.skill.to_json(),
        }


@dataclass(frozen=True)
class Evaluation:
    """A setting measured: its figures at each table size and its objective values (one per target)."""

    options: dict[str, Any]
    seed: int
    games: int
    sizes: tuple[SizeFigures, ...]
    values: tuple[float, ...]

    def to_json(self) -> Json:
        """JSON form."""
        return {
            "seed": str(self.seed),
            "games": self.games,
            "sizes": [s.to_json() for s in self.sizes],
            "values": list(self.values),
        }


def objective(target: Target, sizes: Sequence[SizeFigures]) -> float:
    """A target's objective value over every table size: the worst table counts."""
    worst = 0.0
    for figures in sizes:
        fair = 1 / figures.players
        if target.kind == "seats":
            value = max(abs(s.value - fair) for s in figures.places) * 100
        elif target.kind == "first":
            value = abs(figures.places[0].value - fair) * 100
        elif target.kind == "skill":
            assert figures.skill is not None
            value = max(0.0, target.low - figures.skill.value * 100)
        else:
            measured = figures.length if target.kind == "length" else figures.numbers[target.key]
            centre = measured.value
            value = max(0.0, target.low - centre, centre - target.high)
        worst = max(worst, value)
    return worst


Progress = Callable[[int], None]


class Evaluator:
    """Measures settings: plays what the store lacks on ``backend``, reads the rest, computes the figures."""

    def __init__(
        self,
        store: Store,
        backend: Backend,
        settings: Settings,
        *,
        workers: int | None = None,
        on_progress: Progress | None = None,
    ) -> None:
        self.store, self.backend, self.settings = store, backend, settings
        self.workers, self.on_progress = workers, on_progress
        self.extractor = extractor_for(settings.game)

    def _games(self, tournament: TournamentSettings) -> list[PlayedGame]:
        """The games of ``tournament``: stored ones reused (from any tournament with its settings), the
        missing ones played and stored."""
        own, _ = self.store.tournament_for(tournament)
        ids = (own.id, *(t.id for t in self.store.tournaments_like(tournament) if t.id != own.id))
        done: set[int] = set()
        for tournament_id in ids:
            done |= self.store.finished_indices(tournament_id)
        missing = [i for i in range(tournament.games) if i not in done]
        if missing:
            spec = simulation_spec(tournament)
            writer = GameWriter(
                self.store,
                spec,
                source="analyze",  # the workbench's games (the store knows no "tune" source)
                tournament_id=own.id,
            )
            try:
                simulate(spec, backend=self.backend, indices=missing, on_batch=writer.add, on_progress=self.on_progress)
            except SimulationStopped:
                with contextlib.suppress(KeyboardInterrupt):
                    writer.flush()
                raise
            writer.flush()
        return self.store.played_games(ids, tournament.games)

    def evaluate(self, options: Mapping[str, Any], seed: int, games: int) -> Evaluation:
        """The figures and objective values of one setting, from ``games`` games per table size at ``seed``."""
        s = self.settings
        sizes = []
        for players in s.players:
            table = TournamentSettings(s.game, dict(options), players, (s.agent,), seed, games)
            measured = measure(self.store, s.game, dict(options), players, self._games(table), workers=self.workers)
            by_order = all(len(g.features.order) == players for g in measured)
            wins = [0.0] * players
            for g in measured:
                for seat in range(players):
                    wins[g.features.order[seat] if by_order else seat] += g.returns[seat]
            numbers = {
                key: mean([g.features.numbers[key] for g in measured if key in g.features.numbers])
                for key in self.extractor.numbers
            }
            skill = None
            if s.needs_skill:
                lineup = (s.agent, *([s.weak] * (players - 1)))
                mixed = TournamentSettings(s.game, dict(options), players, lineup, seed, s.skill_games)
                spec = simulation_spec(mixed)
                won = sum(g.returns[spec.seating(g.index).index(0)] for g in self._games(mixed))
                skill = share(won, s.skill_games)
            sizes.append(
                SizeFigures(
                    players=players,
                    places=tuple(share(w, len(measured)) for w in wins),
                    by_order=by_order,
                    length=mean([float(g.steps) for g in measured]),
                    numbers=numbers,
                    skill=skill,
                )
            )
        values = tuple(objective(t, sizes) for t in s.targets)
        return Evaluation(dict(options), seed, games, tuple(sizes), values)


# ------------------------------------------------------------------------------------------------ the study


def storage_for(store: Store) -> optuna.storages.RDBStorage:
    """Optuna's RDB storage in the store's own database (its tables beside Oakwood's).

    Optuna keeps its schema revision in an ``alembic_version`` table, the name Oakwood's migrations use too:
    in a shared database that table holds Oakwood's revision, which Optuna's check would take for an unknown
    Optuna schema, so the check is skipped (Optuna still creates its tables; the Optuna version is pinned by
    the ``analysis`` extra)."""
    import optuna

    url = store.engine.url.render_as_string(hide_password=False)
    return optuna.storages.RDBStorage(url, skip_compatibility_check=True)


def _sampler(settings: Settings, number: int) -> optuna.samplers.BaseSampler:
    """The sampler that draws trial ``number``: seeded from the study's seed and the number alone, so a
    resumed study draws what an uninterrupted one would (an Optuna sampler's RNG is not stored)."""
    import optuna

    seed = derive_seed(settings.seed, 1_000_003 + number) % 2**32
    if len(settings.targets) == 1:
        return optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(10, settings.population))
    return optuna.samplers.NSGAIISampler(seed=seed, population_size=settings.population)


def open_study(store: Store, name: str, settings: Settings) -> optuna.Study:
    """The study ``name`` in the store's database, created with ``settings`` or checked to have them."""
    import optuna

    optuna.logging.set_verbosity(logging.WARNING)
    storage = storage_for(store)
    directions: list[optuna.study.StudyDirection] = [optuna.study.StudyDirection.MINIMIZE] * len(settings.targets)
    kept = json.dumps(settings.to_json(), sort_keys=True)
    try:
        study = optuna.load_study(study_name=name, storage=storage, sampler=_sampler(settings, 0))
    except KeyError:
        study = optuna.create_study(
            study_name=name, storage=storage, directions=directions, sampler=_sampler(settings, 0)
        )
        study.set_user_attr("settings", kept)
        study.enqueue_trial(base_params(settings.space, settings.base, editors_of(settings.game)))
        return study
    if study.user_attrs.get("settings") != kept:
        raise TuneError(
            f"--study {name!r} was made with other settings (game, targets, options, sizes, games or seed); "
            "give another name to start a new study"
        )
    return study


TrialDone = Callable[["optuna.trial.FrozenTrial", Evaluation | None, float], None]


def run_trials(
    study: optuna.Study,
    settings: Settings,
    evaluator: Evaluator,
    count: int,
    *,
    on_trial: TrialDone | None = None,
) -> None:
    """Run trials until the study holds ``count`` finished ones (a trial left running by an interrupted run
    is measured first, with the values it drew). Trials run one at a time: each plays its games in parallel."""
    from optuna.trial import TrialState

    space = {d.name: d.distribution() for d in settings.space}
    while True:
        trials = study.get_trials(deepcopy=False)
        finished = [t for t in trials if t.state.is_finished()]
        if len(finished) >= count:
            return
        running = [t for t in trials if t.state == TrialState.RUNNING]
        started = time.monotonic()
        if running:
            number, params = running[0].number, dict(running[0].params)
        else:
            study.sampler = _sampler(settings, len(trials))
            trial = study.ask(space)
            number, params = trial.number, dict(trial.params)
        handle = _trial_handle(study, number)
        try:
            options = settings_options(settings, params)
        except InvalidOptionError as exc:  # a deck the option's own check refuses (a count total out of bounds)
            handle.set_user_attr("refused", str(exc))
            study.tell(number, state=TrialState.FAIL)
            if on_trial is not None:
                on_trial(study.trials[number], None, time.monotonic() - started)
            continue
        evaluation = evaluator.evaluate(options, settings.seed, settings.games)
        handle.set_user_attr("figures", evaluation.to_json())
        study.tell(number, list(evaluation.values))
        if on_trial is not None:
            on_trial(study.trials[number], evaluation, time.monotonic() - started)


def _trial_handle(study: optuna.Study, number: int) -> optuna.trial.Trial:
    """A live handle on trial ``number`` (also one a previous, interrupted run left running)."""
    import optuna

    trial_id = study._storage.get_trial_id_from_study_id_trial_number(study._study_id, number)
    return optuna.trial.Trial(study, trial_id)


def settings_options(settings: Settings, params: Mapping[str, Any]) -> dict[str, Any]:
    """The full, validated options of a trial's parameters (:class:`InvalidOptionError` if refused)."""
    options = options_for(settings.space, params, settings.base, editors_of(settings.game))
    return dict(load(settings.game, **options).options.to_dict())


def editors_of(game: str) -> dict[str, dict[str, Any]]:
    """How the game's structured options are edited (a deck's card kinds and named decks)."""
    return game_class(game).options_class.editors()


def completed(study: optuna.Study) -> list[optuna.trial.FrozenTrial]:
    """The trials that finished with values, in order."""
    from optuna.trial import TrialState

    return [t for t in study.get_trials(deepcopy=False) if t.state == TrialState.COMPLETE]


def _rank(settings: Settings, values: Sequence[float], changed: int) -> tuple[float, int, float]:
    """How a setting ranks: total excess over the targets' tolerances, then fewer rules changed, then the
    total of the objectives (scaled by each tolerance so points and actions add up sensibly)."""
    excess = sum(t.excess(v) / max(t.tolerance, 1.0) for t, v in zip(settings.targets, values, strict=True))
    total = sum(v / max(t.tolerance, 1.0) for t, v in zip(settings.targets, values, strict=True))
    return (round(excess, 9), changed, round(total, 9))


def changed_options(settings: Settings, options: Mapping[str, Any]) -> dict[str, str]:
    """The rule changes a setting makes from the base, as a designer reads them: each changed option with its
    value, and a changed deck card kind by card kind (``deck_composition:BJ`` = ``1→0``)."""
    editors = editors_of(settings.game)
    changes: dict[str, str] = {}
    for key, value in options.items():
        old = settings.base.get(key)
        if old == value:
            continue
        if editors.get(key, {}).get("kind") == "counts":
            before, after = deck_counts(old, editors[key]), deck_counts(value, editors[key])
            for kind, count in after.items():
                if before.get(kind) != count:
                    changes[f"{key}:{kind}"] = f"{before.get(kind, 0)}→{count}"
        else:
            changes[key] = _shown(value)
    return changes


def _trial_options(settings: Settings, trial: optuna.trial.FrozenTrial) -> dict[str, Any]:
    return settings_options(settings, trial.params)


@dataclass
class Outcome:
    """What a study found: its trials, its front, the leaders re-measured, the recommendation and its
    neighbourhood."""

    trials: list[Json]
    front: list[int]
    importances: list[Json]
    leaders: list[Json]
    recommended: Json | None
    base: Json | None = None  # the rules as they are, on the leaders' fresh deals
    centre: Json | None = None  # the recommendation on the neighbours' games (the robustness check's centre)
    neighbours: list[Json] = field(default_factory=list)


def _importances(study: optuna.Study, settings: Settings) -> list[Json]:
    """Each option's importance per target, by Optuna's PED-ANOVA evaluator: how much the option's values
    among the best trials (the top fifth on that target) differ from its values over all trials. (fANOVA, the
    default, needs scikit-learn, which the workbench does not install; PED-ANOVA is deterministic.)"""
    import optuna

    done = completed(study)
    varied = [d.name for d in settings.space if len({repr(t.params.get(d.name)) for t in done}) > 1]
    out = []
    for k, target in enumerate(settings.targets):
        entry: Json = {"target": target.text, "evaluator": IMPORTANCE_EVALUATOR}
        values = {t.values[k] for t in done}
        if len(done) < 3 or len(values) < 2 or not varied:
            entry["importances"] = {}
            entry["note"] = "too few distinct trials to apportion"
        else:
            evaluator = optuna.importance.PedAnovaImportanceEvaluator(target_quantile=IMPORTANCE_QUANTILE)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # it warns that it ranks toward low values: ours are minimised
                    found = optuna.importance.get_param_importances(
                        study, evaluator=evaluator, params=varied, target=_objective_of(k)
                    )
            except (ValueError, RuntimeError) as exc:  # too few trials in the top quantile to tell them apart
                entry["importances"], entry["note"] = {}, f"not apportioned: {exc}"
            else:
                entry["importances"] = {name: float(v) for name, v in found.items()}
        out.append(entry)
    return out


def _objective_of(k: int) -> Callable[[optuna.trial.FrozenTrial], float]:
    def value(trial: optuna.trial.FrozenTrial) -> float:
        return float(trial.values[k])

    return value


def _setting_json(settings: Settings, evaluation: Evaluation, **extra: Any) -> Json:
    return {
        **extra,
        "changed": changed_options(settings, evaluation.options),
        "met": [t.met(v) for t, v in zip(settings.targets, evaluation.values, strict=True)],
        **evaluation.to_json(),
    }


def conclude(
    study: optuna.Study,
    settings: Settings,
    evaluator: Evaluator,
    *,
    robustness: bool = True,
    on_step: Callable[[str], None] | None = None,
) -> Outcome:
    """Re-measure the leaders on fresh deals, recommend one, and measure each one-step change of it."""
    done = completed(study)
    if not done:
        raise TuneError("the study has no finished trial yet")
    fresh = derive_seed(settings.seed, FRESH)
    trials = []
    for t in done:
        options = _trial_options(settings, t)
        trials.append(
            {
                "number": t.number,
                "values": list(t.values),
                "met": [tg.met(v) for tg, v in zip(settings.targets, t.values, strict=True)],
                "changed": changed_options(settings, options),
                "figures": t.user_attrs.get("figures"),
            }
        )
    front = sorted(t.number for t in study.best_trials) if len(settings.targets) > 1 else [study.best_trial.number]
    ranked = sorted(
        done,
        key=lambda t: (
            _rank(settings, t.values, len(changed_options(settings, _trial_options(settings, t)))),
            t.number,
        ),
    )
    seen: set[str] = set()
    picked = []
    for t in ranked:
        key = json.dumps(_trial_options(settings, t), sort_keys=True)
        if key not in seen:
            seen.add(key)
            picked.append(t)
        if len(picked) == settings.leaders:
            break
    leaders = []
    best: tuple[Any, Evaluation] | None = None
    for t in picked:
        if on_step is not None:
            on_step(f"re-measuring trial {t.number} on fresh deals ({settings.leader_games} games a table size)")
        evaluation = evaluator.evaluate(_trial_options(settings, t), fresh, settings.leader_games)
        rank = _rank(settings, evaluation.values, len(changed_options(settings, evaluation.options)))
        leaders.append(_setting_json(settings, evaluation, trial=t.number, trial_values=list(t.values)))
        if best is None or rank < best[0]:
            best = (rank, evaluation)
    assert best is not None
    recommended_eval = best[1]
    recommended = _setting_json(
        settings,
        recommended_eval,
        trial=next(x["trial"] for x in leaders if x["values"] == list(recommended_eval.values)),
    )
    outcome = Outcome(trials, front, _importances(study, settings), leaders, recommended)
    if on_step is not None:
        on_step(f"measuring the rules as they are on the same fresh deals ({settings.leader_games} games)")
    outcome.base = _setting_json(settings, evaluator.evaluate(dict(settings.base), fresh, settings.leader_games))
    if robustness:
        # the centre on the neighbours' own games (the first --games of the fresh deals), so each one-step
        # change is compared with the recommendation game for game
        centre = evaluator.evaluate(recommended_eval.options, fresh, settings.games)
        outcome.centre = _setting_json(settings, centre, trial=recommended["trial"])
        params = _params_of(settings, recommended_eval.options)
        for dim in settings.space:
            for value in dim.notches(params[dim.name]):
                moved = {**params, dim.name: value}
                try:
                    options = settings_options(settings, moved)
                except InvalidOptionError as exc:
                    outcome.neighbours.append({"param": dim.name, "value": _shown(value), "refused": str(exc)})
                    continue
                if on_step is not None:
                    on_step(f"one step: {dim.name} → {_shown(value)}")
                evaluation = evaluator.evaluate(options, fresh, settings.games)
                outcome.neighbours.append(_setting_json(settings, evaluation, param=dim.name, value=_shown(value)))
    return outcome


def _params_of(settings: Settings, options: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters that give ``options`` (the inverse of :func:`options_for`)."""
    params: dict[str, Any] = {}
    editors = editors_of(settings.game)
    for dim in settings.space:
        value = options[dim.option]
        if dim.item is not None:
            value = deck_counts(value, editors[dim.option])[dim.item]
        params[dim.name] = value
    return params
