"""Tune and check a strategist's figures (``games/<game>/strategist.py``) on duplicate deals, for Barrell,
S'Quarrels and Nutty Squirrels solo.

Two commands, each for one game (``barrell``, ``squarrels`` or ``nutty``):

- ``tune``: an Optuna study (TPE, seeded) over the strategist's figures. Each trial plays the strategist with the
  trial's figures against the heuristic on the same ``--deals`` duplicate deals (each deal once with the
  strategist at every seat, so both bots play the same cards) and scores its win share. The study is kept in
  ``--storage`` (SQLite) under ``--study`` (by default one study per game and table size), so a stopped run goes
  on where it stopped; at the end it prints the best figures as the entry of ``TUNED`` (by table size) to put in
  the strategist's module.
- ``check``: the strategist (its committed figures, or ``--set NAME=VALUE`` on top of them) against the
  heuristic on other deals (``--seed``), with the 95 % interval over deals: a tuned result must hold on deals
  it was not tuned on.

Solo (``--players 1``, Nutty Squirrels' solo game) has no rival at the table: a trial scores the strategist's
mean score over the deals, and ``check`` plays the heuristic on the same deals too and gives the strategist's
mean gain over it in points, with the 95 % interval of the paired differences.

A game's options are its defaults but for ``DEFAULT_OPTIONS`` (S'Quarrels: one round a game, a tenth of a
match's time, as the ``squarrels-2`` strength case plays), and ``-o KEY=VALUE`` sets one, as in ``oakwood play``.

    python benchmarks/tune_strategist.py barrell tune --trials 250 --deals 2000 --seed 1
    python benchmarks/tune_strategist.py barrell tune --players 3 --trials 120 --deals 1000 --seed 1
    python benchmarks/tune_strategist.py barrell check --deals 4000 --seed 2
    python benchmarks/tune_strategist.py barrell check --deals 4000 --seed 2 --set card_value=3.2 --set heart_value=1
    python benchmarks/tune_strategist.py squarrels tune --trials 200 --deals 4000 --seed 1
    python benchmarks/tune_strategist.py nutty tune --trials 130 --deals 4000 --seed 1          # solo
    python benchmarks/tune_strategist.py nutty check --deals 4000 --seed 2
"""

from __future__ import annotations

import argparse
import ast
import importlib
import math
import statistics
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import checkout  # noqa: F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)

from oakwood.agents import make_agent
from oakwood.arena.simulate import SimulationStopped, simulate
from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import Z95, GameRecord, deal_summary
from oakwood.cli.common import load_game

HERE = Path(__file__).resolve().parent
#: Each game's figures' ranges in the search: (low, high); integers where the figure is a count or a rank.
SPACES: dict[str, dict[str, tuple[float, float]]] = {
    "barrell": {
        "card_value": (2.0, 9.0),
        "heart_value": (0.0, 3.0),
        "safe_lead": (0.0, 20.0),
        "safe_lead_per_rival": (0.0, 10.0),
        "small_lead": (0.0, 12.0),
        "small_hand": (0, 6),
        "lock_lead": (0.0, 10.0),
        "reach_cards": (1, 8),
        "hopeless_hand": (0, 10),
        "min_gain": (-1.0, 4.0),
        "jh_gain": (0.0, 12.0),
        "ks_gain": (-1.0, 6.0),
        "kc_field": (4.0, 20.0),
        "kc_cost": (0.0, 10.0),
        "js_cost": (0.0, 10.0),
        "mulligan_rank": (1, 6),
        "mulligan_hand": (2, 9),
        "joker_insures": (0.0, 15.0),
        "kh_returns": (0.0, 11.0),
        "jd_protects": (0.0, 15.0),
    },
    "squarrels": {
        "pile_weight": (0.0, 4.0),
        "set_risk": (0.0, 4.0),
        "fight_rank": (1, 6),
        "fight_share": (0.0, 2.0),
        "fight_margin": (-1.0, 3.0),
        "always_play_rank": (1, 6),
        "golden_pot": (1, 8),
        "slap_card_value": (0.0, 2.0),
        "slap_rotten_cost": (0.0, 15.0),
        "pair_worth": (0.0, 12.0),
    },
    "nutty": {  # solo
        "later_share": (0.0, 1.0),
        "owl_ruin": (5.0, 200.0),
        "uninsured_fall": (1.0, 20.0),
        "fall_weight": (0.0, 6.0),
        "explore_margin": (-3.0, 3.0),
        "lasso_at": (3, 12),
        "swinging_at": (3, 12),
        "min_net": (-1.0, 2.0),
        "min_flip_net": (-3.0, 2.0),
    },
}
#: The table size of a game whose strategist has figures at one size only (Nutty Squirrels: solo).
ONLY_PLAYERS: dict[str, int] = {"nutty": 1}
#: Options a study plays over the game's defaults.
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"squarrels": {"single_round": True}}


def strategist_module(game: str) -> Any:
    """The module of ``game``'s strategist, with its ``FIGURES`` and ``TUNED``."""
    return importlib.import_module(f"oakwood.games.{game}.strategist")


@cache
def own_figures(game: str) -> dict[str, float]:
    """The figures a strategist of ``game`` has before any table size's are set: the class's (the heuristic's).
    Cached: every trial reads it for the figures' kinds (an int is suggested as an int); callers do not change it."""
    bot = make_agent(load_game(game, []), "strategist", seed=0)
    return {name: getattr(bot, name) for name in SPACES[game]}


def options(args: argparse.Namespace) -> dict[str, Any]:
    """The options the study or check plays: the game's, ``DEFAULT_OPTIONS``, then every ``-o``."""
    defaults = [f"{key}={str(value).lower()}" for key, value in DEFAULT_OPTIONS.get(args.game, {}).items()]
    return load_game(args.game, defaults + args.option).options.to_dict()


@dataclass(frozen=True)
class Result:
    """What the strategist scored over the deals, with its 95 % interval: its win share against the heuristic
    (every deal's games averaged first), or solo its mean score."""

    value: float
    low: float
    high: float
    deals: int


def play(args: argparse.Namespace, bot: str, figures: dict[str, float]) -> list[GameRecord]:
    """``bot`` (with ``figures``, if the strategist) against the heuristic at every other seat, on ``args.deals``
    duplicate deals of ``args.seed``; solo, ``bot`` alone on those deals."""
    lineup = (bot,) + ("heuristic",) * (args.players - 1)
    spec = SimulationSpec(
        args.game,
        lineup,
        games=args.deals * args.players,
        seed=args.seed,
        rotate=True,
        duplicate=True,
        options=options(args),
        settings={"strategist": figures} if bot == "strategist" else {},
    )
    return simulate(spec, workers=args.workers)


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal 95 % interval (the whole real line with fewer than two)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def duel(args: argparse.Namespace, figures: dict[str, float]) -> Result:
    """The strategist with ``figures`` (over its committed ones) on ``args.deals`` duplicate deals: its win share
    against the heuristic, or solo its mean score."""
    records = play(args, "strategist", figures)
    if args.players == 1:
        return Result(*mean_interval([record.scores[0] for record in records]), len(records))
    summary = deal_summary(records, 0, "strategist")
    return Result(summary.win_rate, summary.ci_low, summary.ci_high, summary.deals)


def _suggest(trial: Any, game: str) -> dict[str, float]:
    figures: dict[str, float] = {}
    kinds = own_figures(game)
    for name, (low, high) in SPACES[game].items():
        if isinstance(kinds[name], int):
            figures[name] = trial.suggest_int(name, int(low), int(high))
        else:
            figures[name] = trial.suggest_float(name, low, high)
    return figures


def tune(args: argparse.Namespace) -> None:
    import optuna  # the analysis extra; only this command needs it

    optuna.logging.set_verbosity(optuna.logging.ERROR)  # its warning on a trial stopped by Ctrl-C is a traceback
    study = optuna.create_study(
        study_name=args.study or f"{args.game}-strategist-{args.players}",
        storage=args.storage,
        direction="maximize",
        load_if_exists=True,
    )
    # Seeded by the trials so far: a resumed study must not draw again the points its first run drew.
    study.sampler = optuna.samplers.TPESampler(seed=args.seed + len(study.trials), multivariate=True)
    if not study.trials:
        # Start from where the bot stands: its committed figures at this size (the heuristic's where none).
        tuned = strategist_module(args.game).TUNED.get(args.players, {})
        study.enqueue_trial(own_figures(args.game) | tuned)

    def objective(trial: Any) -> float:
        started = time.perf_counter()
        summary = duel(args, _suggest(trial, args.game))
        print(
            f"trial {trial.number}: {summary.value:.4f} [{summary.low:.4f}, {summary.high:.4f}] "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        return summary.value

    # Only completed trials count: an enqueued one is still to run, one stopped by Ctrl-C is run again.
    done = sum(1 for trial in study.trials if trial.state == optuna.trial.TrialState.COMPLETE)
    try:
        study.optimize(objective, n_trials=max(0, args.trials - done))
    except (SimulationStopped, KeyboardInterrupt):
        done = sum(1 for trial in study.trials if trial.state == optuna.trial.TrialState.COMPLETE)
        raise SystemExit(
            f"stopped: {done} trials are kept in study {study.study_name!r} of {args.storage}; "
            "the same command goes on from there"
        ) from None
    best = study.best_trial
    what = "mean score" if args.players == 1 else "win share"
    print(f"best: trial {best.number}, {what} {best.value:.4f} over {args.deals} deals (seed {args.seed})")
    print(f"TUNED[{args.players}] = {{")
    for name in SPACES[args.game]:
        value = best.params[name]
        print(f'    "{name}": {value if isinstance(value, int) else round(value, 2)},')
    print("}")


def check(args: argparse.Namespace) -> None:
    figures: dict[str, float] = {}
    names = strategist_module(args.game).FIGURES
    for item in args.set:
        name, _, text = item.partition("=")
        if name not in names:
            raise SystemExit(f"--set {item}: no figure {name!r}; choose from {', '.join(names)}")
        try:
            figures[name] = float(ast.literal_eval(text))
        except (ValueError, SyntaxError):
            raise SystemExit(f"--set {item}: {text!r} is not a number") from None
    started = time.perf_counter()
    try:
        text = solo_gain(args, figures) if args.players == 1 else win_share(args, figures)
    except SimulationStopped as stopped:
        raise SystemExit(f"stopped after {len(stopped.records)} of {args.deals * args.players} games") from None
    given = f"strategist{' ' + ' '.join(args.set) if args.set else ''}"
    equal = f"; equal share {1 / args.players:.3f}" if args.players > 1 else ""
    print(
        f"{args.game} at {args.players}: {given} against heuristic: {text} (seed {args.seed}{equal}); "
        f"{time.perf_counter() - started:.0f} s"
    )


def win_share(args: argparse.Namespace, figures: dict[str, float]) -> str:
    """The strategist's win share against the heuristic, said with its interval."""
    summary = duel(args, figures)
    return f"win share {summary.value:.4f} [{summary.low:.4f}, {summary.high:.4f}] over {summary.deals} deals"


def solo_gain(args: argparse.Namespace, figures: dict[str, float]) -> str:
    """Solo: the strategist's mean score and its gain over the heuristic's on the same deals, with the interval
    of the paired differences."""
    mine = {record.seed: record.scores[0] for record in play(args, "strategist", figures)}
    theirs = {record.seed: record.scores[0] for record in play(args, "heuristic", {})}
    gain, low, high = mean_interval([score - theirs[seed] for seed, score in mine.items()])
    return (
        f"mean score {statistics.fmean(mine.values()):.2f}, {gain:+.2f} [{low:+.2f}, {high:+.2f}] points over the "
        f"heuristic's {statistics.fmean(theirs.values()):.2f} on the same {len(mine)} deals"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=sorted(SPACES), help="the game whose strategist to tune or check")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, helptext in (("tune", "an Optuna study of the figures"), ("check", "the figures on other deals")):
        sub = commands.add_parser(name, help=helptext)
        sub.add_argument("--deals", type=int, default=2000)
        sub.add_argument("--seed", type=int, default=1)
        sub.add_argument("--players", type=int, help="the table size (default: 2; Nutty Squirrels: 1, solo)")
        sub.add_argument("--workers", type=int, default=2)
        sub.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE, as in oakwood play")
    commands.choices["tune"].add_argument("--trials", type=int, default=200)
    commands.choices["tune"].add_argument("--study", help="the study's name (default: GAME-strategist-PLAYERS)")
    commands.choices["tune"].add_argument("--storage", default=f"sqlite:///{HERE / '.strategist_studies.db'}")
    commands.choices["check"].add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    only = ONLY_PLAYERS.get(args.game)
    if args.players is None:
        args.players = only or 2
    elif only and args.command == "tune" and args.players != only:
        parser.error(f"the {args.game} strategist's figures are played at {only} player(s) only: --players {only}")
    tune(args) if args.command == "tune" else check(args)


if __name__ == "__main__":
    main()
