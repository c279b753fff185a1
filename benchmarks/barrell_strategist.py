"""Tune and check the Barrell strategist's figures (``games/barrell/strategist.py``) on duplicate deals.

Two commands:

- ``tune``: an Optuna study (TPE, seeded) over the strategist's figures. Each trial plays the strategist with the
  trial's figures against the heuristic on the same ``--deals`` duplicate deals (each deal once with the
  strategist at every seat, so both bots play the same cards) and scores its win share. The study is kept in
  ``--storage`` (SQLite) under ``--study`` (by default one study per table size), so a stopped run goes on where
  it stopped; at the end it prints the best figures as the entry of ``TUNED`` (by table size) to put in
  ``strategist.py``.
- ``check``: the strategist (its committed figures, or ``--set NAME=VALUE`` on top of them) against the
  heuristic on other deals (``--seed``), with the 95 % interval over deals: a tuned result must hold on deals
  it was not tuned on.

    python benchmarks/barrell_strategist.py tune --trials 250 --deals 2000 --seed 1
    python benchmarks/barrell_strategist.py tune --players 3 --trials 120 --deals 1000 --seed 1
    python benchmarks/barrell_strategist.py check --deals 4000 --seed 2
    python benchmarks/barrell_strategist.py check --deals 4000 --seed 2 --set card_value=3.2 --set heart_value=1
"""

from __future__ import annotations

import argparse
import ast
import time
from pathlib import Path
from typing import Any

import checkout  # noqa: F401  (oakwood: this checkout's sources, or a build PYTHONPATH names)

from oakwood.arena.simulate import SimulationStopped, simulate
from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import DealSummary, deal_summary
from oakwood.games.barrell.strategist import FIGURES, TUNED, BarrellStrategist

HERE = Path(__file__).resolve().parent
#: Each figure's range in the search: (low, high); integers where the figure is a count or a rank.
SPACE: dict[str, tuple[float, float]] = {
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
}


def duel(figures: dict[str, float], deals: int, seed: int, players: int, workers: int) -> DealSummary:
    """The strategist with ``figures`` (over its committed ones) against the heuristic at every other seat."""
    lineup = ("strategist",) + ("heuristic",) * (players - 1)
    spec = SimulationSpec(
        "barrell",
        lineup,
        games=deals * players,
        seed=seed,
        rotate=True,
        duplicate=True,
        settings={"strategist": figures},
    )
    return deal_summary(simulate(spec, workers=workers), 0, "strategist")


def _suggest(trial: Any) -> dict[str, float]:
    figures: dict[str, float] = {}
    kinds = BarrellStrategist()
    for name, (low, high) in SPACE.items():
        if isinstance(getattr(kinds, name), int):
            figures[name] = trial.suggest_int(name, int(low), int(high))
        else:
            figures[name] = trial.suggest_float(name, low, high)
    return figures


def tune(args: argparse.Namespace) -> None:
    import optuna  # the analysis extra; only this command needs it

    optuna.logging.set_verbosity(optuna.logging.ERROR)  # its warning on a trial stopped by Ctrl-C is a traceback
    study = optuna.create_study(
        study_name=args.study or f"barrell-strategist-{args.players}",
        storage=args.storage,
        direction="maximize",
        load_if_exists=True,
    )
    # Seeded by the trials so far: a resumed study must not draw again the points its first run drew.
    study.sampler = optuna.samplers.TPESampler(seed=args.seed + len(study.trials), multivariate=True)
    if not study.trials:
        # Start from where the bot stands: its committed figures at this size (the heuristic's where none).
        own = BarrellStrategist()
        study.enqueue_trial({name: getattr(own, name) for name in SPACE} | TUNED.get(args.players, {}))

    def objective(trial: Any) -> float:
        started = time.perf_counter()
        summary = duel(_suggest(trial), args.deals, args.seed, args.players, args.workers)
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
    for name in SPACE:
        value = best.params[name]
        print(f'    "{name}": {value if isinstance(value, int) else round(value, 2)},')
    print("}")


def check(args: argparse.Namespace) -> None:
    figures: dict[str, float] = {}
    for item in args.set:
        name, _, text = item.partition("=")
        if name not in FIGURES:
            raise SystemExit(f"--set {item}: no figure {name!r}; choose from {', '.join(FIGURES)}")
        try:
            figures[name] = float(ast.literal_eval(text))
        except (ValueError, SyntaxError):
            raise SystemExit(f"--set {item}: {text!r} is not a number") from None
    started = time.perf_counter()
    try:
        summary = duel(figures, args.deals, args.seed, args.players, args.workers)
    except SimulationStopped as stopped:
        raise SystemExit(f"stopped after {len(stopped.records)} of {args.deals * args.players} games") from None
    print(
        f"barrell at {args.players}: strategist{' ' + ' '.join(args.set) if args.set else ''} against heuristic: "
        f"win share {summary.win_rate:.4f} [{summary.ci_low:.4f}, {summary.ci_high:.4f}] over {summary.deals} "
        f"deals (seed {args.seed}; equal share {1 / args.players:.3f}); {time.perf_counter() - started:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, helptext in (("tune", "an Optuna study of the figures"), ("check", "the figures on other deals")):
        sub = commands.add_parser(name, help=helptext)
        sub.add_argument("--deals", type=int, default=2000)
        sub.add_argument("--seed", type=int, default=1)
        sub.add_argument("--players", type=int, default=2)
        sub.add_argument("--workers", type=int, default=2)
    commands.choices["tune"].add_argument("--trials", type=int, default=200)
    commands.choices["tune"].add_argument("--study", help="the study's name (default: barrell-strategist-PLAYERS)")
    commands.choices["tune"].add_argument("--storage", default=f"sqlite:///{HERE / '.barrell_strategist.db'}")
    commands.choices["check"].add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    tune(args) if args.command == "tune" else check(args)


if __name__ == "__main__":
    main()
