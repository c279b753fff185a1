"""Tune and check a strategist's figures (``games/<game>/strategist.py``) on duplicate deals, for Barrell and
S'Quarrels.

Two commands, each for one game (``barrell`` or ``squarrels``):

- ``tune``: an Optuna study (TPE, seeded) over the strategist's figures. Each trial plays the strategist with the
  trial's figures against the heuristic on the same ``--deals`` duplicate deals (each deal once with the
  strategist at every seat, so both bots play the same cards) and scores its win share. The study is kept in
  ``--storage`` (SQLite) under ``--study`` (by default one study per game and table size), so a stopped run goes
  on where it stopped; at the end it prints the best figures as the entry of ``TUNED`` (by table size) to put in
  the strategist's module.
- ``check``: the strategist (its committed figures, or ``--set NAME=VALUE`` on top of them) against the
  heuristic on other deals (``--seed``), with the 95 % interval over deals: a tuned result must hold on deals
  it was not tuned on.

A game's options are its defaults but for ``DEFAULT_OPTIONS`` (S'Quarrels: one round a game, a tenth of a
match's time, as the ``squarrels-2`` strength case plays), and ``-o KEY=VALUE`` sets one, as in ``oakwood play``.

    python benchmarks/tune_strategist.py barrell tune --trials 250 --deals 2000 --seed 1
    python benchmarks/tune_strategist.py barrell tune --players 3 --trials 120 --deals 1000 --seed 1
    python benchmarks/tune_strategist.py barrell check --deals 4000 --seed 2
    python benchmarks/tune_strategist.py barrell check --deals 4000 --seed 2 --set card_value=3.2 --set heart_value=1
    python benchmarks/tune_strategist.py squarrels tune --trials 200 --deals 4000 --seed 1
"""

from __future__ import annotations

import argparse
import ast
import importlib
import time
from functools import cache
from pathlib import Path
from typing import Any

import checkout  # noqa: F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)

from oakwood.agents import make_agent
from oakwood.arena.simulate import SimulationStopped, simulate
from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import DealSummary, deal_summary
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
}
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


def duel(args: argparse.Namespace, figures: dict[str, float]) -> DealSummary:
    """The strategist with ``figures`` (over its committed ones) against the heuristic at every other seat, on
    ``args.deals`` duplicate deals of ``args.seed``."""
    lineup = ("strategist",) + ("heuristic",) * (args.players - 1)
    spec = SimulationSpec(
        args.game,
        lineup,
        games=args.deals * args.players,
        seed=args.seed,
        rotate=True,
        duplicate=True,
        options=options(args),
        settings={"strategist": figures},
    )
    return deal_summary(simulate(spec, workers=args.workers), 0, "strategist")


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
            f"trial {trial.number}: {summary.win_rate:.4f} [{summary.ci_low:.4f}, {summary.ci_high:.4f}] "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        return summary.win_rate

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
    print(f"best: trial {best.number}, win share {best.value:.4f} over {args.deals} deals (seed {args.seed})")
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
        summary = duel(args, figures)
    except SimulationStopped as stopped:
        raise SystemExit(f"stopped after {len(stopped.records)} of {args.deals * args.players} games") from None
    print(
        f"{args.game} at {args.players}: strategist{' ' + ' '.join(args.set) if args.set else ''} against heuristic: "
        f"win share {summary.win_rate:.4f} [{summary.ci_low:.4f}, {summary.ci_high:.4f}] over {summary.deals} "
        f"deals (seed {args.seed}; equal share {1 / args.players:.3f}); {time.perf_counter() - started:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=sorted(SPACES), help="the game whose strategist to tune or check")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, helptext in (("tune", "an Optuna study of the figures"), ("check", "the figures on other deals")):
        sub = commands.add_parser(name, help=helptext)
        sub.add_argument("--deals", type=int, default=2000)
        sub.add_argument("--seed", type=int, default=1)
        sub.add_argument("--players", type=int, default=2)
        sub.add_argument("--workers", type=int, default=2)
        sub.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE, as in oakwood play")
    commands.choices["tune"].add_argument("--trials", type=int, default=200)
    commands.choices["tune"].add_argument("--study", help="the study's name (default: GAME-strategist-PLAYERS)")
    commands.choices["tune"].add_argument("--storage", default=f"sqlite:///{HERE / '.strategist_studies.db'}")
    commands.choices["check"].add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    tune(args) if args.command == "tune" else check(args)


if __name__ == "__main__":
    main()
