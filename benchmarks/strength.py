"""How strong each difficulty level is: matches on duplicate deals per game and table size, and the time per move.

Each case is a game at a table size. At several seats it plays duplicate deals: every deal once with the level
under test at each seat, so no level is favoured by position and the luck of the cards cancels out,

- ``medium`` (the heuristic) against ``easy`` (random), and ``hard`` and ``expert`` against ``medium``: one
  seat of the level under test, the other seats its opponent; the level's share of the wins (ties as
  fractional wins) with its 95 % interval over deals (each deal's games averaged first, since they share the
  cards) against the equal share ``1 / players``;

and alone (a solo game) each level's win rate with its interval and mean score. Then it plays one game of
``expert`` (alone, or against ``medium``) in this process, timing every search: the median seconds per move of
``expert``, that of ``hard`` (scaled by the ratio of budgets) and the iterations per second, with the form that
ran them (``compiled`` or ``pure``: the compiled one searches about twice as fast).

``--write`` stores the figures in ``src/oakwood/agents/strength.json`` (shown by ``oakwood games``);
``--table`` prints the stored figures as the Markdown table of ``benchmarks/README.md``. ``--seconds S`` caps
every search of ``hard`` and ``expert`` at ``S`` seconds as well as their iterations (whichever ends first):
the strength at a time a move on this machine, not the levels' own, so it cannot be written.

``--opponent NAME`` puts another bot at the other seats of every level measured (alone: the bot the level's
scores are compared with on the same deals). ``--opponent pimc`` is the time-matched baseline of issue 37
(``agents/pimc.py``: random playouts, no knowledge of the game) and needs ``--seconds S``: then the PIMC bot and
a searching level (``hard``, ``expert``) both search for ``S`` seconds a move and have no iteration budget, so
that neither thinks longer than the other (the level's own budget would stop it early on a fast machine).

``--write`` with ``--opponent pimc`` stores each level's result against time-matched PIMC beside the case's
figures (``against_pimc``, with the seconds a move, the seed and the form that ran it), as issue 37 asks every
strength figure to be reported; another opponent, or a cap without PIMC, measures something no level plays and
cannot be written.

``--variant KEY=VALUE`` (repeatable) changes the ISMCTS settings of ``hard`` and ``expert`` (any keyword of
``ISMCTSAgent``: ``guide_epsilon=0.5``, ``guide_z=1`` …), to try a change against the opponent a goal names before
building it into a level (``expert_sprt.py`` tries it against the level itself). A variant is not the level, so
it cannot be written.

``--sprt H0,H1`` decides each comparison by a sequential test (``oakwood.arena.sprt``: the GSPRT with error
rates ``--alpha`` and ``--beta``) instead of a fixed number of games: duplicate deals are played ``--batch`` at
a time, each deal's games averaged first, and the run stops when the test accepts a hypothesis, or after
``--max-deals`` deals as "undecided". The bounds are the level's win shares (e.g. ``0.6,0.7``); alone, its mean
score gain over the other bot on the same deals (e.g. ``0,3`` points). A line after each batch shows the LLR so
far, so a run stopped by hand still says what it reached. ``--write`` with ``--sprt`` against the levels' own
opponents stores each level's verdict beside its fixed sample (``sequential``, with the seed and the form that
ran it; ``oakwood games`` shows both): a test that stops early decides a goal, a fixed sample measures the gain.

``--check`` plays each stored result's moves print (``moves_print``: the first moves of one seeded game of the
level against its opponent, with its searches' visits) and says whether the bots still play as they did when the
result was measured; with ``--write`` it marks those that do not ``stale`` (``oakwood games`` says so beside the
figure) until they are measured again. ``tests/benchmarks/test_strength_prints.py`` runs the same check, so a
change to a bot cannot leave the figures describing the bot before it without a word.

    python benchmarks/strength.py --check --write                    # mark the results the bots have outgrown
    python benchmarks/strength.py                                   # every case, the default number of games
    python benchmarks/strength.py --cases barrell-2 --matches 60 --write
    python benchmarks/strength.py --cases nutty-4 --levels expert --seconds 1      # expert at 1 s a move at most
    python benchmarks/strength.py --cases barrell-2 --levels expert --opponent pimc --seconds 1 --sprt 0.6,0.7
    python benchmarks/strength.py --cases nutty-2 --levels expert --opponent pimc --seconds 1 --sprt 0.6,0.7 --write
    python benchmarks/strength.py --cases nutty-solo --levels expert --sprt 0,3 --write   # expert vs medium, +3 points
    python benchmarks/strength.py --cases barrell-2 --levels expert --opponent pimc --seconds 1 --sprt 0.6,0.7 \
        --variant guide_epsilon=0.5
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import datetime
import hashlib
import inspect
import json
import math
import statistics
import subprocess
import time
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
import checkout  # noqa: E402, F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)

from oakwood.agents import make_agent  # noqa: E402
from oakwood.agents.ismcts import ISMCTSAgent  # noqa: E402
from oakwood.agents.levels import LEVELS  # noqa: E402
from oakwood.arena.match import play_match  # noqa: E402
from oakwood.arena.simulate import simulate  # noqa: E402
from oakwood.arena.spec import SimulationSpec  # noqa: E402
from oakwood.arena.sprt import Sprt  # noqa: E402
from oakwood.arena.stats import Z95, GameRecord, deal_summary, wilson_interval  # noqa: E402
from oakwood.engine import Choice, PlayerView, load  # noqa: E402
from oakwood.form import inspect as inspect_form  # noqa: E402

STRENGTH_FILE = HERE.parent / "src" / "oakwood" / "agents" / "strength.json"

#: case → (game, players, options, what the options mean)
CASES: dict[str, tuple[str, int, dict[str, Any], str]] = {
    # A full S'Quarrels match is several rounds of about a hundred moves; one round keeps two-player runs
    # affordable. At four players one round shows too little of the play to measure (the strategist, with no
    # search, is 0.276 [0.268, 0.284] against the heuristic over 2,000 duplicate deals): the match to 50,
    # where a better player's edge adds up round after round, shows it in a few hundred games.
    "squarrels-2": ("squarrels", 2, {"single_round": True}, "one round"),
    # The game as a person plays it by default: a round is too short for a player's edge to show fully (the
    # strategist alone, no search: 0.574 a round, 0.64 [0.61, 0.67] a match against the heuristic over 600
    # duplicate deals), and a match is several rounds.
    "squarrels-2-match": ("squarrels", 2, {}, "a match to 50"),
    "squarrels-4": ("squarrels", 4, {}, "a match to 50"),
    "barrell-2": ("barrell", 2, {}, "best of three battles"),
    "barrell-4": ("barrell", 4, {}, "best of three battles"),
    "nutty-2": ("nutty", 2, {}, "the proposed deck"),
    "nutty-4": ("nutty", 4, {}, "the proposed deck"),
    "nutty-solo": ("nutty", 1, {}, "solo"),
}

#: (level, opponent) pairs, in the order they are played (the opponent fills every other seat).
PAIRS = (("medium", "easy"), ("hard", "medium"), ("expert", "medium"))

#: The bots that search, and so take a time budget.
SEARCHING = ("hard", "expert", "ismcts", "pimc")


@dataclass(frozen=True)
class SequentialTest:
    """``--sprt``: the hypotheses, error rates and the deals a comparison may play."""

    h0: float
    h1: float
    alpha: float = 0.05
    beta: float = 0.05
    max_deals: int = 200
    batch: int = 4


def commit() -> str:
    """The measured code's commit (``unknown`` outside a git checkout)."""
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE)
    except OSError:
        return "unknown"
    return done.stdout.strip() or "unknown"


def interval(share: float, low: float, high: float, games: int) -> dict[str, Any]:
    """A measured share as stored in the strength file."""
    return {"games": games, "win_share": round(share, 3), "ci95": [round(low, 3), round(high, 3)]}


def capped(level: str, seconds: float | None) -> dict[str, dict[str, float]]:
    """The spec's settings that cap ``level``'s searches at ``seconds`` (none without a cap)."""
    return {} if seconds is None or level not in ("hard", "expert") else {level: {"seconds": seconds}}


def settings_for(
    level: str, opponent: str | None, seconds: float | None, variant: dict[str, Any] | None = None
) -> dict[str, dict[str, Any]]:
    """The spec's settings of ``level`` against ``opponent``: against ``pimc``, time-matched (both search for
    ``seconds`` a move, with no iteration budget: see the module docstring); else ``capped``. A ``variant``
    (``--variant``) changes a searching level's settings on top."""
    if opponent != "pimc":
        settings: dict[str, dict[str, Any]] = capped(level, seconds)
    elif seconds is None:
        raise ValueError("the PIMC opponent is time-matched: give --seconds")
    else:
        matched: dict[str, Any] = {"seconds": seconds, "iterations": None}
        settings = {name: matched for name in (level, opponent) if name in SEARCHING}
    if variant and level in ("hard", "expert"):
        settings = {**settings, level: {**settings.get(level, {}), **variant}}
    return settings


def parse_settings(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` settings of a search (keywords of ``ISMCTSAgent``, values as Python literals: ``3``, ``2.5``,
    ``None``). ``ValueError`` says what is wrong with one, for the command line to report before a game is played."""
    known = [name for name in inspect.signature(ISMCTSAgent).parameters if name != "seed"]
    variant: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"settings are KEY=VALUE, not {item!r}")
        if key not in known:
            raise ValueError(f"{key!r} is not a setting of the search; choose from {', '.join(known)}")
        try:
            variant[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            raise ValueError(f"the value of {key} is a Python literal (3, 2.5, None), not {value!r}") from None
    return variant


def against(
    case: str,
    level: str,
    opponent: str,
    games: int,
    workers: int,
    seed: int,
    seconds: float | None = None,
    settings: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``level`` at one seat, ``opponent`` at the others, on duplicate deals: every deal played once with the
    level at each seat (``games`` rounded up to whole deals). The level's share of the wins, with its interval
    over deals (``deal_summary``). ``seconds`` caps the level's searches; ``settings`` (``settings_for``)
    replaces that cap where given."""
    players = CASES[case][1]
    deals = -(-games // players)
    spec = duplicate_spec(case, level, opponent, deals, seed, capped(level, seconds) if settings is None else settings)
    mine = deal_summary(simulate(spec, workers=workers), 0)
    return {
        "opponent": opponent,
        **interval(mine.win_rate, mine.ci_low, mine.ci_high, mine.games),
        "deals": mine.deals,
    }


def duplicate_spec(
    case: str, level: str, opponent: str, deals: int, seed: int, settings: dict[str, dict[str, Any]]
) -> SimulationSpec:
    """``deals`` duplicate deals of ``case``: ``level`` at one seat, ``opponent`` at the others, every deal played
    once with the level at each seat (games ``d * players`` to ``d * players + players - 1`` are deal ``d``)."""
    name, players, options, _ = CASES[case]
    lineup = (level,) + (opponent,) * (players - 1)
    return SimulationSpec(
        name,
        lineup,
        games=deals * players,
        seed=seed,
        rotate=True,
        duplicate=True,
        options=options,
        settings=settings,
    )


def alone(
    case: str,
    level: str,
    games: int,
    workers: int,
    seed: int,
    seconds: float | None = None,
    versus: str | None = None,
    variant: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``level`` playing solo: its win rate and mean score; above ``medium``, also what it gains over
    ``medium`` on the same deals (``paired_gain``), or over ``versus`` if given (key ``over_<versus>``).
    ``seconds`` caps the level's searches (time-matched with ``versus`` if that is ``pimc``)."""
    name, _, options, _ = CASES[case]
    settings = settings_for(level, versus, seconds, variant)
    spec = SimulationSpec(name, (level,), games=games, seed=seed, options=options, settings=settings)
    records = simulate(spec, workers=workers)
    wins = sum(record.returns[0] for record in records)
    low, high = wilson_interval(wins, len(records))
    mean_score = statistics.fmean(record.scores[0] for record in records)
    result = {"opponent": None, **interval(wins / len(records), low, high, len(records)), "mean_score": mean_score}
    other = versus if versus is not None else "medium" if level in ("hard", "expert") else None
    if other is not None and other != level:
        # The same seeds deal the same games: the other bot plays them too, and the gains are paired by deal.
        theirs = simulate(
            SimulationSpec(name, (other,), games=games, seed=seed, options=options, settings=settings), workers=workers
        )
        result[f"over_{other}"] = {
            "score": paired_gain([r.scores[0] for r in records], [r.scores[0] for r in theirs]),
            "wins": paired_gain([r.returns[0] for r in records], [r.returns[0] for r in theirs]),
        }
    return result


def deal_shares(records: list[GameRecord], players: int) -> list[float]:
    """Entry 0's mean return over each deal's games (``records`` in game order, whole deals of ``players``
    games): the per-deal results a sequential test reads, as ``deal_summary`` averages them."""
    shares = [0.0] * (len(records) // players)
    for record in records:
        shares[record.index // players - records[0].index // players] += sum(
            record.returns[seat] for seat, who in enumerate(record.seating) if who == 0
        )
    return [share / players for share in shares]


def sequential(
    case: str,
    level: str,
    opponent: str,
    test: SequentialTest,
    workers: int,
    seed: int,
    seconds: float | None,
    variant: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``level`` against ``opponent`` decided by an SPRT (``--sprt``): duplicate deals ``test.batch`` at a time
    until the test accepts a hypothesis or ``test.max_deals`` are played. Win shares at a table; alone, the
    level's score gain over ``opponent`` on the same deals. A line after every batch shows where the test is."""
    name, players, options, _ = CASES[case]
    settings = settings_for(level, opponent, seconds, variant)
    sprt = Sprt(test.h0, test.h1, test.alpha, test.beta, scale=None if players == 1 else (0.0, 1.0))
    if players > 1:
        spec = duplicate_spec(case, level, opponent, test.max_deals, seed, settings)
        mine = theirs = spec
    else:
        mine = SimulationSpec(name, (level,), games=test.max_deals, seed=seed, options=options, settings=settings)
        theirs = SimulationSpec(name, (opponent,), games=test.max_deals, seed=seed, options=options, settings=settings)
    started = time.perf_counter()
    records: list[GameRecord] = []
    others: list[GameRecord] = []
    deals = 0
    while deals < test.max_deals and sprt.verdict() is None:
        upto = min(deals + test.batch, test.max_deals)
        if players > 1:
            batch = simulate(mine, workers=workers, indices=range(deals * players, upto * players))
            sprt.extend(deal_shares(batch, players))
        else:  # the same deals for both bots, paired by index
            batch = simulate(mine, workers=workers, indices=range(deals, upto))
            their_batch = simulate(theirs, workers=workers, indices=range(deals, upto))
            sprt.extend(a.scores[0] - b.scores[0] for a, b in zip(batch, their_batch, strict=True))
            others.extend(their_batch)
        records.extend(batch)
        deals = upto
        print(f"  {case} {level} vs {opponent}: {sprt.describe()}, {time.perf_counter() - started:.0f} s", flush=True)
    verdict = sprt.verdict()
    result: dict[str, Any] = {
        "opponent": opponent,
        "sprt": {
            "h0": test.h0,
            "h1": test.h1,
            "alpha": test.alpha,
            "beta": test.beta,
            "outcome": verdict or "undecided",
            "llr": round(sprt.llr, 3),
            "bounds": [round(sprt.lower, 3), round(sprt.upper, 3)],
        },
        "deals": deals,
        "seconds": round(time.perf_counter() - started),
    }
    if players > 1:
        summary = deal_summary(records, 0)
        result.update(interval(summary.win_rate, summary.ci_low, summary.ci_high, summary.games))
    else:
        wins = sum(record.returns[0] for record in records)
        low, high = wilson_interval(wins, len(records))
        result.update(interval(wins / len(records), low, high, len(records)))
        result["mean_score"] = statistics.fmean(record.scores[0] for record in records)
        result[f"over_{opponent}"] = {
            "score": paired_gain([r.scores[0] for r in records], [r.scores[0] for r in others]),
            "wins": paired_gain([r.returns[0] for r in records], [r.returns[0] for r in others]),
        }
    return result


def paired_gain(mine: list[float], theirs: list[float]) -> dict[str, Any]:
    """The mean of ``mine[i] - theirs[i]`` (two players of the same deals) with its 95 % normal interval."""
    gains = [a - b for a, b in zip(mine, theirs, strict=True)]
    mean = statistics.fmean(gains)
    half = Z95 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
    return {"mean": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)]}


class SearchLog:
    """An ISMCTS bot that notes each search's iterations and seconds (its report, ``ISMCTSAgent.last``).

    A wrapper, not a replaced method: compiled, the bot is a native class whose methods cannot be reassigned."""

    searches = True

    def __init__(self, bot: ISMCTSAgent) -> None:
        self.bot = bot
        self.name = bot.name
        #: (iterations, seconds) of every search: every move with a choice (a forced move is not searched).
        self.searched: list[tuple[int, float]] = []

    def act(self, view: PlayerView) -> Hashable | Choice:
        """The bot's answer; its search's report noted where it searched."""
        answer = self.bot.act(view)
        if len(view.legal_actions) > 1 and self.bot.last is not None:
            self.searched.append((self.bot.last.iterations, self.bot.last.seconds))
        return answer


def search_times(case: str, seed: int, seconds: float | None = None) -> dict[str, Any]:
    """Seconds per move of ``hard`` and ``expert``, iterations per second and the form, from one timed game
    (``expert``'s searches capped at ``seconds``)."""
    name, players, options, _ = CASES[case]
    game = load(name, **options)
    expert = SearchLog(make_agent(game, "expert", seed=seed, **capped("expert", seconds).get("expert", {})))
    others = [make_agent(game, "medium", seed=seed + seat) for seat in range(1, players)]
    play_match(game, [expert, *others], seed, record_events=False)
    searches = expert.searched
    budgets = game.level_iterations
    assert budgets is not None
    hard, full = budgets
    expert_seconds = statistics.median(seconds for _, seconds in searches)
    return {
        "searches": len(searches),
        "iterations_per_second": round(statistics.median(n / seconds for n, seconds in searches)),
        "expert_seconds_per_move": round(expert_seconds, 3),
        "hard_seconds_per_move": round(expert_seconds * hard / full, 3),
        # the compiled form searches about twice as fast as the pure one: a time means little without its form
        "form": "compiled" if inspect_form().compiled else "pure",
    }


def measure(
    case: str,
    matches: int,
    baseline: int,
    workers: int,
    seed: int,
    only: tuple[str, ...] = LEVELS,
    seconds: float | None = None,
    opponent: str | None = None,
    test: SequentialTest | None = None,
    variant: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Every level of one case (or those in ``only``), printed as it goes; ``seconds`` caps the searches.
    ``opponent`` replaces every level's usual opponent; ``test`` decides each comparison by an SPRT; ``variant``
    changes the searching levels' settings."""
    name, players, _, meaning = CASES[case]
    game = load(name)
    figures: dict[str, Any] = {
        "game": name,
        "players": players,
        "settings": f"{players} player{'s' if players > 1 else ''}, {meaning}" if players > 1 else meaning,
        "iterations": dict(zip(("hard", "expert"), game.level_iterations or (), strict=False)),
        "measured": datetime.date.today().isoformat(),
        "commit": commit(),
        "levels": {},
    }
    levels = [("easy", None), *PAIRS] if players == 1 else list(PAIRS)
    if game.level_iterations is None:  # hard and expert are the heuristic: nothing more to measure
        levels = [(level, opponent) for level, opponent in levels if level in ("easy", "medium")]
    levels = [(level, opponent) for level, opponent in levels if level in only]
    if opponent is not None:  # every level measured against the one bot asked for (the bot itself excepted)
        levels = [(level, opponent) for level, _ in levels if level != opponent]
    for level, versus in levels:
        games = baseline if level in ("easy", "medium") else matches
        started = time.perf_counter()
        if test is not None and versus is not None:
            result = sequential(case, level, versus, test, workers, seed, seconds, variant)
        elif players == 1:
            result = alone(case, level, games, workers, seed, seconds, opponent, variant)
        else:
            settings = settings_for(level, versus, seconds, variant)
            result = against(case, level, str(versus), games, workers, seed, settings=settings)
        figures["levels"][level] = {**result, "commit": figures["commit"], "measured": figures["measured"]}
        if versus != "pimc":  # time-matched PIMC plays differently on every run: no print to check
            figures["levels"][level]["moves"] = moves_print(case, level, versus)
        low, high = result["ci95"]
        shown = f"vs {versus:6}" if players > 1 else "solo     "
        print(
            f"{case:11} {level:>6} {shown}: {result['win_share']:.2f} [{low:.2f}, {high:.2f}] over "
            f"{result['games']} games (equal share {1 / players:.2f}){_score(result)}{_sprt(result)} "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    searched = game.level_iterations is not None and ("hard" in only or "expert" in only)
    # The time a move is the levels' own budget; a sequential test, another opponent or a variant measures
    # something else.
    own = test is None and opponent is None and not variant
    figures["time"] = search_times(case, seed, seconds) if searched and own else {}
    print(f"{case:11} time: {figures['time']}", flush=True)
    return figures


#: The level's decisions with a choice that a moves print covers (see ``moves_print``).
PRINT_DECISIONS = 4


class _Printed(Exception):
    """The moves print has seen the decisions it covers: the game stops there."""


class _Printing:
    """A bot whose decisions with a choice are counted (the game stops after ``left`` of them) and whose searches'
    iterations and visits by action go into ``digest`` (a bot that does not search adds only its moves)."""

    def __init__(self, bot: Any, left: int, digest: Any, index: dict[Hashable, int]) -> None:
        self.bot, self.left, self.digest, self.index = bot, left, digest, index
        self.name = getattr(bot, "name", "bot")
        self.searches = getattr(bot, "searches", False)
        self.reads_observation = getattr(bot, "reads_observation", True)

    def act(self, view: PlayerView) -> Hashable | Choice:
        """The bot's answer; the game stops at its decision after the last one covered."""
        if len(view.legal_actions) > 1:
            if self.left == 0:
                raise _Printed
            self.left -= 1
        answer = self.bot.act(view)
        report = getattr(self.bot, "last", None)
        if report is not None and len(view.legal_actions) > 1:
            visits = sorted((self.index[action], n) for action, n in report.visits.items())
            self.digest.update(f"search {report.iterations} {visits};".encode())
        return answer  # type: ignore[no-any-return]


def moves_print(case: str, level: str, opponent: str | None) -> str:
    """What ``level`` and ``opponent`` (None: solo) play today, as 16 hex digits: one seeded game of ``case``, the
    level at seat 0, until the level's decision after its first ``PRINT_DECISIONS`` with a choice — every action
    applied, and each search's iterations and visits by action. A budget in iterations makes it the same in
    either form and on any machine, so a result stored with its print (``"moves"``) can be checked against the
    bots of today (``check_prints``): a change to a level, its guide or its opponent changes the print, and the
    figure measured before it no longer describes them. Against time-matched PIMC there is none (a time budget
    plays differently on every run)."""
    name, players, options, _ = CASES[case]
    game = load(name, **options)
    digest = hashlib.sha256()
    index = game.codec.index
    agents: list[Any] = [_Printing(make_agent(game, level, seed=1), PRINT_DECISIONS, digest, index)]
    agents += [make_agent(game, str(opponent), seed=1 + seat) for seat in range(1, players)]

    def applied(_state: Any, seat: int, action: Hashable) -> None:
        digest.update(f"{seat}:{index[action]};".encode())

    with contextlib.suppress(_Printed):  # the decisions covered are seen: the rest of the game is not played
        play_match(game, agents, 0, record_events=False, on_step=applied)
    return digest.hexdigest()[:16]


def stored_results(stored: dict[str, Any]) -> list[tuple[str, str, str, dict[str, Any]]]:
    """Every stored result that a moves print can check: (case, where, level, result), ``where`` being ``levels``
    or ``sequential`` (results against time-matched PIMC have no print)."""
    return [
        (case, where, level, result)
        for case, figures in stored.items()
        for where in ("levels", "sequential")
        for level, result in figures.get(where, {}).items()
    ]


def check_prints(stored: dict[str, Any], mark: str | None = None) -> list[str]:
    """Each checkable result's state, one line each: ``current`` (its print is today's), ``stale`` (the bots play
    otherwise now) or ``unchecked`` (stored without a print). With ``mark`` (a commit), a result whose print
    differs is marked ``stale`` in ``stored`` (``{"since": mark}``), and one whose print is today's again loses
    the mark."""
    lines = []
    for case, where, level, result in stored_results(stored):
        if "moves" not in result:
            state = "unchecked"
        elif result["moves"] == moves_print(case, level, result["opponent"]):
            state = "current"
            if mark is not None:
                result.pop("stale", None)
        else:
            state = "stale"
            if mark is not None:
                result.setdefault("stale", {"since": mark})
        lines.append(f"{case:17} {where:10} {level:6} measured at {result['commit']}: {state}")
    return lines


#: Where a case keeps results that are not its levels' fixed samples: sequential tests against the levels' own
#: opponents, and results against time-matched PIMC (in the order the table shows them).
BESIDE = ("sequential", "against_pimc")


def against_pimc(figures: dict[str, Any], seconds: float, seed: int) -> dict[str, Any]:
    """A case's figures measured against time-matched PIMC, as they are stored: each level's result under
    ``against_pimc`` (with the seconds a move both bots searched, the seed and the form that ran them), none
    under ``levels``, whose opponents are the levels' own."""
    return stored_beside(figures, "against_pimc", seed, seconds_a_move=seconds)


def sequential_verdicts(figures: dict[str, Any], seed: int) -> dict[str, Any]:
    """A case's comparisons against the levels' own opponents decided by sequential tests, as they are stored:
    each level's verdict under ``sequential`` (with the seed and the form that ran it), none under ``levels``,
    which are fixed samples (a test that stops early overstates the gain it stops on)."""
    return stored_beside(figures, "sequential", seed)


def stored_beside(figures: dict[str, Any], key: str, seed: int, **extra: Any) -> dict[str, Any]:
    """``figures`` with each level's result moved from ``levels`` to ``key``, stamped with the commit, date,
    seed, form and ``extra``; no search times (they are the levels' own, measured with their fixed samples)."""
    form = "compiled" if inspect_form().compiled else "pure"  # time-matched against PIMC: both bots in this form
    stamp = {"commit": figures["commit"], "measured": figures["measured"], **extra, "seed": seed, "form": form}
    results = {level: {**result, **stamp} for level, result in figures["levels"].items()}
    return {**figures, "levels": {}, "time": {}, key: results}


def merged(before: dict[str, Any] | None, now: dict[str, Any]) -> dict[str, Any]:
    """A case's new figures over its stored ones: levels not measured this time keep theirs (each level
    records the commit and date it was measured at), the search times are replaced only if measured, and
    results against PIMC only for the levels measured against it. The case's own commit and date are those of
    its latest measurement against its levels' own opponents; sequential tests are kept by level as PIMC's are."""
    if before is None:
        return now
    stamp = {"commit": before.get("commit"), "measured": before.get("measured")}  # levels stored before stamps
    levels = {**{lv: {**stamp, **r} for lv, r in before.get("levels", {}).items()}, **now["levels"]}
    beside = {key: {**before.get(key, {}), **now.get(key, {})} for key in BESIDE}
    case = {**before, **now, "levels": levels, "time": now["time"] or before.get("time", {})}
    if not now["levels"]:  # only PIMC or a sequential test was measured: the case's stamp stays its levels'
        case.update(stamp)
    return case | {key: results for key, results in beside.items() if results}


def _score(result: dict[str, Any]) -> str:
    """A solo level's mean score, and its gains over medium (or another bot) on the same deals where measured."""
    if "mean_score" not in result:
        return ""
    text = f", mean score {result['mean_score']:.1f}"
    for key in [key for key in result if key.startswith("over_")]:
        score, wins = result[key]["score"], result[key]["wins"]
        text += (
            f" ({score['mean']:+.1f} [{score['ci95'][0]:+.1f}, {score['ci95'][1]:+.1f}] points and "
            f"{wins['mean']:+.0%} [{wins['ci95'][0]:+.0%}, {wins['ci95'][1]:+.0%}] wins over {key[5:]})"
        )
    return text


def _sprt(result: dict[str, Any]) -> str:
    """A sequential test's outcome, deals and time, where one decided the comparison."""
    test = result.get("sprt")
    if test is None:
        return ""
    outcome = {"H1": f"H1 ({test['h1']:g}) accepted", "H0": f"H0 ({test['h0']:g}) accepted"}.get(
        test["outcome"], f"undecided at the cap of {result['deals']} deals"
    )
    low, high = test["bounds"]
    return (
        f"; SPRT {test['h0']:g}/{test['h1']:g}: {outcome}, LLR {test['llr']:.2f} in [{low:.2f}, {high:.2f}], "
        f"{result['deals']} deals"
    )


def _stale(result: dict[str, Any]) -> str:
    """After a result's commit: that its bots play otherwise now, and the commit that found it (``--check --write``)."""
    return f" (stale, found at {result['stale']['since']})" if "stale" in result else ""


def _form(timing: dict[str, Any]) -> str:
    """The form a time was measured in, after the time (times stored before the form was recorded have none)."""
    return f" {timing['form']}" if "form" in timing else ""


def markdown_table(stored: dict[str, Any]) -> str:
    """The stored figures as a Markdown table, one row per case and level."""
    rows = [
        "| case | level | against | games | win share [95 %] | equal share | s a move | iterations/s | commit |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for case, figures in stored.items():
        players, timing = figures["players"], figures.get("time", {})
        for level in [level for level in LEVELS if level in figures["levels"]]:
            result = figures["levels"][level]
            low, high = result["ci95"]
            seconds = timing.get(f"{level}_seconds_per_move")
            rows.append(
                f"| {case} | {level} | {result['opponent'] or 'solo'}{_score(result)} | {result['games']} "
                f"| {result['win_share']:.2f} [{low:.2f}, {high:.2f}] | {1 / players:.2f} "
                f"| {'' if seconds is None else f'{seconds:.2f}'}{_form(timing) if seconds is not None else ''} "
                f"| {timing.get('iterations_per_second', '') if seconds is not None else ''} "
                f"| {result.get('commit', figures['commit'])}{_stale(result)} |"
            )
        for key in BESIDE:
            for level in [level for level in LEVELS if level in figures.get(key, {})]:
                result = figures[key][level]
                low, high = result["ci95"]
                against = (
                    f"pimc, both {result['seconds_a_move']:g} s a move {result['form']}"
                    if key == "against_pimc"
                    else result["opponent"]  # budgets, not seconds: the same games in either form
                )
                rows.append(
                    f"| {case} | {level} | {against}{_score(result)}{_sprt(result)} | {result['games']} | "
                    f"{result['win_share']:.2f} [{low:.2f}, {high:.2f}] | {1 / players:.2f} | | | {result['commit']}"
                    f"{_stale(result)} |"
                )
    return "\n".join(rows)


def sequential_test(parser: argparse.ArgumentParser, args: argparse.Namespace) -> SequentialTest:
    """``--sprt`` and its companions, checked (``parser.error`` on bad ones: one line each)."""
    try:
        h0, h1 = (float(bound) for bound in args.sprt.split(","))
    except ValueError:
        parser.error(f"--sprt takes two bounds H0,H1 (e.g. 0.6,0.7), not {args.sprt!r}")
    batch = args.batch if args.batch is not None else 2 * max(args.workers, 1)
    if args.max_deals < 2 or batch < 1:
        parser.error("--max-deals must be at least 2 and --batch at least 1")
    solo = any(CASES[case][1] == 1 for case in args.cases)
    try:  # the bounds are checked as the test will check them (win shares at a table)
        Sprt(h0, h1, args.alpha, args.beta, scale=None if solo else (0.0, 1.0))
    except ValueError as error:
        parser.error(f"--sprt: {error}")
    if solo and len(args.cases) > 1:
        parser.error("--sprt bounds are score gains alone and win shares at a table: test a solo case on its own")
    return SequentialTest(h0, h1, args.alpha, args.beta, args.max_deals, batch)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    parser.add_argument("--matches", type=int, default=40, help="games of hard and expert (default 40)")
    parser.add_argument("--baseline-matches", type=int, default=200, help="games of easy and medium (default 200)")
    parser.add_argument("--levels", default=",".join(LEVELS), help="the levels to measure (default: all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="store the figures in the package's strength.json")
    parser.add_argument("--table", action="store_true", help="print the stored figures as Markdown and stop")
    parser.add_argument(
        "--check",
        action="store_true",
        help="check each stored result's moves print against today's bots and stop (with --write: mark the stale)",
    )
    parser.add_argument("--seconds", type=float, help="cap every search of hard and expert at this many seconds")
    parser.add_argument("--opponent", help="the bot at every other seat of every level measured (pimc: time-matched)")
    parser.add_argument("--sprt", metavar="H0,H1", help="decide each comparison by an SPRT with these bounds")
    parser.add_argument("--alpha", type=float, default=0.05, help="the SPRT's false H1 rate (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.05, help="the SPRT's false H0 rate (default 0.05)")
    parser.add_argument("--max-deals", type=int, default=200, help="deals an SPRT may play (default 200)")
    parser.add_argument("--batch", type=int, help="deals between two looks of the SPRT (default: 2 a worker)")
    parser.add_argument(
        "--variant", action="append", default=[], metavar="KEY=VALUE", help="an ISMCTS setting of hard and expert"
    )
    args = parser.parse_args()
    try:
        variant = parse_settings(args.variant)
    except ValueError as error:
        parser.error(f"--variant: {error}")
    if variant and args.write:
        parser.error("--variant measures a change to the levels, not the levels: drop --write")
    if args.seconds is not None and not args.seconds > 0:
        parser.error(f"--seconds must be above 0, not {args.seconds}")
    if args.seconds is not None and args.write and args.opponent != "pimc":
        parser.error("--seconds measures the levels under a time cap, not as they play: drop --write")
    if args.opponent not in (None, "pimc") and args.write:
        parser.error("--opponent measures against another bot than the levels' own (or pimc): drop --write")
    if args.opponent == "pimc" and args.seconds is None:
        parser.error("--opponent pimc is time-matched: give --seconds (e.g. --seconds 1)")
    test = None
    if args.sprt is not None:
        test = sequential_test(parser, args)
    if args.seconds is not None and args.opponent == "pimc" and isinstance(variant.get("seconds"), int | float):
        print(
            f"PIMC searches {args.seconds:g} s a move, the searching level {variant['seconds']:g} s (--variant)",
            flush=True,
        )
    elif args.seconds is not None and args.opponent == "pimc":
        print(f"time-matched: the searching level and PIMC both search {args.seconds:g} s a move", flush=True)
    elif args.seconds is not None:
        print(f"every search of hard and expert capped at {args.seconds:g} s", flush=True)
    if variant:
        print(f"hard and expert with {', '.join(args.variant)}", flush=True)
    if args.table:
        print(markdown_table(json.loads(STRENGTH_FILE.read_text())))
        return
    if args.check:
        stored = json.loads(STRENGTH_FILE.read_text())
        for line in check_prints(stored, mark=commit() if args.write else None):
            print(line, flush=True)
        if args.write:
            STRENGTH_FILE.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n")
            print(f"written to {STRENGTH_FILE}")
        return
    for case in args.cases:
        only = tuple(level.strip() for level in args.levels.split(","))
        figures = measure(
            case,
            args.matches,
            args.baseline_matches,
            args.workers,
            args.seed,
            only,
            args.seconds,
            args.opponent,
            test,
            variant,
        )
        if args.opponent == "pimc":
            figures = against_pimc(figures, args.seconds, args.seed)
        elif test is not None:
            figures = sequential_verdicts(figures, args.seed)
        if args.write:  # after every case, so an interrupted run keeps what it measured
            stored: dict[str, Any] = json.loads(STRENGTH_FILE.read_text()) if STRENGTH_FILE.exists() else {}
            stored[case] = merged(stored.get(case), figures)
            STRENGTH_FILE.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n")
    if args.write:
        print(f"written to {STRENGTH_FILE}")


if __name__ == "__main__":
    main()
