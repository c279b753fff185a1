"""Steps per second through the PettingZoo AEC environments, against the bare engine and PettingZoo's own
``texas_holdem_v4`` in the same run.

Every loop plays whole games with uniformly random legal actions (Python's ``random``, seeded):

- **engine**: the bare public API (``to_act``, ``legal_actions``, ``apply``), event log off as in the adapter;
- **engine + observe**: the same, plus ``observe(seat)`` of the seat that acted (what every AEC step must pay
  to build its observation, whatever the encoder);
- **AEC**: ``oakwood.rl.pettingzoo.env(game, players=…)`` (order-enforced, as users get it): ``agent_iter``,
  ``last()``, a random index of the mask, ``step``; the environment is seeded at its first reset only;
- **engine + mask**, **engine + tensor + mask**: the same, plus the acting seat's mask (the action drawn from it)
  and then its tensor (the direct path): what an AEC step must compute besides the adapter's bookkeeping;
- **AEC raw**: the same loop over ``raw_env`` (no order-enforcing wrapper, whose attribute forwarding costs);
- **texas_holdem_v4**: PettingZoo's classic environment (RLCard inside), through exactly the same loop;
- **Gymnasium**: ``gymnasium.make("oakwood/<Game>-v0", players=…, opponents="easy")`` (the learner at seat 0
  against random bots, with Gymnasium's own wrappers): a random legal index of the mask, ``step``, ``reset`` at
  the end. Its steps are the learner's; the opponents' moves between them are paid inside each step, so it is
  read against the engine's steps a seat takes, not compared with the AEC column;
- **OpenSpiel**: ``pyspiel.load_game("python_oakwood_<game>", {"players": …})`` with random legal actions
  (uniform chance outcomes, simultaneous nodes with every listed seat's choice at once) and the
  observation tensor of each seat about to act, as an RL loop reads it.

A step is one agent's action (dead-agent ``step(None)`` calls are not counted; at an OpenSpiel simultaneous
node, each seat that chooses is a step). Each figure is the median of
``--repeats`` repeats; the ratios to texas_holdem (the AEC loop's, and the Gymnasium loop's: the issue's goals are
5× and 4×) pair each repeat with the texas_holdem repeat run just before it, so a slow phase of the machine hits
both. Needs ``pettingzoo``, ``rlcard`` and ``pygame`` (texas_holdem's
imports).

A second table breaks an AEC step into its parts, in microseconds from the medians: the engine's step, the tensor
and mask, the adapter's bookkeeping and PettingZoo's order-enforcing wrapper, against the budget the 5× goal leaves.

A third table times the learner's steps through vector environments, all against random bots: one unwrapped
``OakwoodEnv``, Gymnasium's ``SyncVectorEnv`` of ``--vector-envs`` copies (same-step auto-reset) and the batched
``OakwoodVectorEnv`` (``oakwood.rl.vector``) of as many, with the batched/sync ratio paired within each repeat.

    python benchmarks/rl_speed.py                        # every case, 5 repeats
    python benchmarks/rl_speed.py --repeats 3 --steps 3000 --json rl_speed.json
    python benchmarks/rl_speed.py --only vector --vector-envs 8
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import oakwood
from oakwood.rl import pettingzoo as oz

#: The clock of :func:`timed`: wall-clock seconds (``compiled_paired.py --clock cpu`` sets ``time.process_time``,
#: the process's CPU seconds, which a shared VM's other jobs do not inflate).
CLOCK: Callable[[], float] = time.perf_counter

#: (label, game, players)
CASES: list[tuple[str, str, int]] = [
    ("S'Quarrels 2p", "squarrels", 2),
    ("S'Quarrels 4p", "squarrels", 4),
    ("Barrell 2p", "barrell", 2),
    ("Barrell 4p", "barrell", 4),
    ("Nutty Squirrels 4p", "nutty", 4),
    ("Nutty Squirrels solo", "nutty", 1),
]


def pin_to_one_core() -> None:
    """Run on a single core so figures are per core (Linux only; elsewhere a no-op)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def timed(loop: Callable[[int], int], steps: int) -> float:
    """Steps per second of ``loop(steps)`` (which returns the steps it played), the collector off."""
    gc.collect()
    gc.disable()
    try:
        start = CLOCK()
        played = loop(steps)
        return played / (CLOCK() - start)
    finally:
        gc.enable()


def engine_loop(game_name: str, players: int, observe: bool) -> Callable[[int], int]:
    """Whole random games through the bare engine until ``steps`` are played."""
    game = oakwood.load(game_name)

    def loop(steps: int) -> int:
        rng = random.Random(0)
        played = 0
        seed = 0
        while played < steps:
            state = game.new_state(players, seed)
            state.record_events = False
            seed += 1
            while not state.is_terminal():
                seat = rng.choice(state.to_act())
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                if observe:
                    state.observe(seat)
                played += 1
        return played

    return loop


def engine_mask_loop(game_name: str, players: int, tensor: bool) -> Callable[[int], int]:
    """The engine loop plus what an AEC step must build for the seat asked: its mask (the adapter's mask cache),
    the action drawn from it as the AEC loop does, and with ``tensor`` its tensor (the direct path the adapter
    uses). Their cost over the bare engine is the observation's; the AEC loop's cost over them is the adapter's.
    (The game loop is written out here as in ``engine_loop`` rather than shared through a callback: a call a step
    would be measured too.)"""
    from oakwood.rl.common import observation_encoder
    from oakwood.rl.gymnasium import MaskCache

    game = oakwood.load(game_name)
    encoder = observation_encoder(game, players)
    masks = MaskCache()
    actions = game.codec.actions

    def loop(steps: int) -> int:
        rng = random.Random(0)
        played = 0
        seed = 0
        while played < steps:
            state = game.new_state(players, seed)
            state.record_events = False
            seed += 1
            while not state.is_terminal():
                seat = rng.choice(state.to_act())
                if tensor:
                    encoder.encode_state(state, seat)
                mask = masks.mask(state, seat)
                state.apply(seat, actions[int(rng.choice(np.flatnonzero(mask)))])
                played += 1
        return played

    return loop


def aec_loop(make: Callable[[], Any]) -> Callable[[int], int]:
    """Whole games through a PettingZoo AEC environment with random legal actions from the mask."""
    env = make()

    def loop(steps: int) -> int:
        rng = random.Random(0)
        played = 0
        env.reset(seed=0)  # seeded once: later games continue its generator, as training loops do
        while played < steps:
            for _agent in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                played += 1
            env.reset()
        return played

    return loop


def gymnasium_loop(game_name: str, players: int) -> Callable[[int], int]:
    """Whole games of the learner (seat 0) against random bots through the registered Gymnasium environment."""
    import gymnasium

    from oakwood.rl.gymnasium import ENVIRONMENTS

    env_id = next(env_id for env_id, game in ENVIRONMENTS.items() if game == game_name)
    env = gymnasium.make(env_id, players=players, opponents="easy")

    def loop(steps: int) -> int:
        rng = random.Random(0)
        played = 0
        observation, _ = env.reset(seed=0)
        while played < steps:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, terminated, truncated, _ = env.step(action)
            played += 1
            if terminated or truncated:
                observation, _ = env.reset()
        return played

    return loop


def single_env_loop(game_name: str, players: int) -> Callable[[int], int]:
    """The learner's steps through one unwrapped ``OakwoodEnv`` against random bots (the vector baseline)."""
    from oakwood.rl.gymnasium import OakwoodEnv

    env = OakwoodEnv(game_name, players=players, opponents="random")

    def loop(steps: int) -> int:
        rng = np.random.default_rng(0)
        played = 0
        observation, _ = env.reset(seed=0)
        while played < steps:
            keys = rng.random(observation["action_mask"].shape) * observation["action_mask"]  # as the vector loop
            observation, _, terminated, truncated, _ = env.step(int(keys.argmax()))
            played += 1
            if terminated or truncated:
                observation, _ = env.reset()
        return played

    return loop


def vector_loop(game_name: str, players: int, n: int, batched: bool) -> Callable[[int], int]:
    """The learner's steps (``n`` a call) through Gymnasium's ``SyncVectorEnv`` of ``n`` environments (same-step
    auto-reset) or through the batched ``OakwoodVectorEnv``; random bots; a random legal action in every game."""
    import gymnasium

    from oakwood.rl.gymnasium import ENVIRONMENTS

    env_id = next(env_id for env_id, game in ENVIRONMENTS.items() if game == game_name)
    mode = "vector_entry_point" if batched else "sync"
    kwargs: dict[str, Any] = {} if batched else {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}
    envs = gymnasium.make_vec(
        env_id, num_envs=n, vectorization_mode=mode, vector_kwargs=kwargs, players=players, opponents="random"
    )

    def loop(steps: int) -> int:
        rng = np.random.default_rng(0)
        played = 0
        observation, _ = envs.reset(seed=0)
        while played < steps:
            # One uniform draw per game among its legal actions: argmax of random keys over the mask.
            keys = rng.random(observation["action_mask"].shape) * observation["action_mask"]
            observation, *_ = envs.step(keys.argmax(axis=1))
            played += n
        return played

    return loop


def run_vector(repeats: int, steps: int, cases: list[tuple[str, str, int]], n: int) -> dict[str, Any]:
    """Learner steps/s: one environment, ``SyncVectorEnv`` of ``n`` and ``OakwoodVectorEnv`` of ``n`` (medians),
    and the batched env's ratio to the sync one, paired within each repeat."""
    loops = {
        label: {
            "single": single_env_loop(game, players),
            f"SyncVectorEnv ×{n}": vector_loop(game, players, n, batched=False),
            f"OakwoodVectorEnv ×{n}": vector_loop(game, players, n, batched=True),
        }
        for label, game, players in cases
    }
    for kinds in loops.values():
        for loop in kinds.values():
            loop(200)
    runs: dict[str, dict[str, list[float]]] = {label: {} for label in loops}
    for _ in range(repeats):
        for label, kinds in loops.items():
            for kind, loop in kinds.items():
                runs[label].setdefault(kind, []).append(timed(loop, steps))
    ratios = {
        label: [b / s for b, s in zip(kinds[f"OakwoodVectorEnv ×{n}"], kinds[f"SyncVectorEnv ×{n}"], strict=True)]
        for label, kinds in runs.items()
    }
    return {
        "table": {label: {k: statistics.median(v) for k, v in kinds.items()} for label, kinds in runs.items()},
        "ratio_to_sync": {label: statistics.median(v) for label, v in ratios.items()},
        "ratios": ratios,
        "runs": runs,
    }


def print_vector_table(result: dict[str, Any], repeats: int, n: int) -> None:
    """The Markdown table of the vector figures."""
    print(
        f"| case | one env (learner steps/s) | SyncVectorEnv ×{n} | OakwoodVectorEnv ×{n} "
        f"| batched / sync (median of {repeats}) |"
    )
    print("|---|---|---|---|---|")
    for label, figures in result["table"].items():
        single, sync, batched = figures.values()
        print(f"| {label} | {single:,.0f} | {sync:,.0f} | {batched:,.0f} | **{result['ratio_to_sync'][label]:.2f}×** |")


def openspiel_loop(game_name: str, players: int) -> Callable[[int], int]:
    """Whole games through the pyspiel game, the observation tensor of every seat about to act."""
    from oakwood.rl import openspiel

    game = openspiel.load_game(game_name, players=players)

    def loop(steps: int) -> int:
        rng = random.Random(0)
        played = 0
        while played < steps:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():  # every chance node of these games is uniform (the seed, race order)
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                elif state.is_simultaneous_node():
                    choices = []
                    for player in range(players):
                        legal = state.legal_actions(player)
                        if legal:
                            state.observation_tensor(player)
                            played += 1
                        choices.append(rng.choice(legal) if legal else 0)
                    state.apply_actions(choices)
                else:
                    player = state.current_player()
                    state.observation_tensor(player)
                    state.apply_action(rng.choice(state.legal_actions(player)))
                    played += 1
        return played

    return loop


def texas_holdem() -> Any:
    """PettingZoo's ``texas_holdem_v4`` AEC environment."""
    from pettingzoo.classic import texas_holdem_v4

    return texas_holdem_v4.env()


def run(repeats: int, steps: int, cases: list[tuple[str, str, int]]) -> dict[str, Any]:
    """Every figure of the table (medians) and the per-repeat ratios."""
    texas = aec_loop(texas_holdem)
    loops = {
        label: {
            "engine": engine_loop(game, players, observe=False),
            "engine + observe": engine_loop(game, players, observe=True),
            "engine + mask": engine_mask_loop(game, players, tensor=False),
            "engine + tensor + mask": engine_mask_loop(game, players, tensor=True),
            "AEC": aec_loop(lambda game=game, players=players: oz.env(game, players=players)),
            "AEC raw": aec_loop(lambda game=game, players=players: oz.raw_env(game, players)),
            "Gymnasium": gymnasium_loop(game, players),
            "OpenSpiel": openspiel_loop(game, players),
        }
        for label, game, players in cases
    }
    for label in loops:  # warm-up: memo tables, imports, first-call costs
        for loop in loops[label].values():
            loop(200)
    texas(200)
    runs: dict[str, dict[str, list[float]]] = {label: {} for label in loops}
    ratios: dict[str, list[float]] = {label: [] for label in loops}
    gymnasium_ratios: dict[str, list[float]] = {label: [] for label in loops}
    texas_runs: list[float] = []
    for _ in range(repeats):
        for label, kinds in loops.items():
            texas_speed = timed(texas, steps)
            texas_runs.append(texas_speed)
            for kind, loop in kinds.items():
                runs[label].setdefault(kind, []).append(timed(loop, steps))
            ratios[label].append(runs[label]["AEC"][-1] / texas_speed)
            gymnasium_ratios[label].append(runs[label]["Gymnasium"][-1] / texas_speed)
    table = {
        label: {kind: statistics.median(values) for kind, values in kinds.items()} for label, kinds in runs.items()
    }
    return {
        "table": table,
        "texas_holdem_v4": statistics.median(texas_runs),
        "ratio_to_texas": {label: statistics.median(values) for label, values in ratios.items()},
        "ratios": ratios,
        "gymnasium_ratio_to_texas": {label: statistics.median(values) for label, values in gymnasium_ratios.items()},
        "gymnasium_ratios": gymnasium_ratios,
        "runs": runs,
        "texas_runs": texas_runs,
    }


def print_table(result: dict[str, Any], repeats: int) -> None:
    """The Markdown table of the medians."""
    print(
        "| case | engine steps/s | engine + observe | AEC steps/s | AEC raw | Gymnasium | OpenSpiel "
        f"| AEC / texas_holdem_v4 (median of {repeats} pairs) | Gymnasium / texas_holdem_v4 |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for label, figures in result["table"].items():
        ratio = result["ratio_to_texas"][label]
        print(
            f"| {label} | {figures['engine']:,.0f} | {figures['engine + observe']:,.0f} | {figures['AEC']:,.0f} "
            f"| {figures['AEC raw']:,.0f} | {figures['Gymnasium']:,.0f} | {figures['OpenSpiel']:,.0f} "
            f"| **{ratio:.2f}×** | {result['gymnasium_ratio_to_texas'][label]:.2f}× |"
        )
    texas = result["texas_holdem_v4"]
    print(f"| texas_holdem_v4 (PettingZoo classic, AEC) | – | – | {texas:,.0f} | – | – | – | 1× | 1× |")


def print_breakdown(result: dict[str, Any]) -> None:
    """Where an AEC step's time goes, in microseconds (from the medians): the engine's step, the mask of the seat
    asked (and the action drawn from it, which texas_holdem's loop pays too), its tensor, the adapter's
    bookkeeping (``last()``, rewards, the decision queue), PettingZoo's order-enforcing wrapper; against
    texas_holdem_v4's whole step and the fifth of it the 5× goal allows."""
    texas = 1e6 / result["texas_holdem_v4"]
    print(
        "| case | engine step (µs) | + mask and draw | + tensor | + adapter | + order wrapper | AEC step "
        f"| texas_holdem_v4 step | 5× budget ({texas / 5:.1f} µs) exceeded by |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    kinds = ("engine", "engine + mask", "engine + tensor + mask", "AEC raw", "AEC")
    for label, figures in result["table"].items():
        engine, masked, observed, raw, wrapped = (1e6 / figures[kind] for kind in kinds)
        parts = (engine, masked - engine, observed - masked, raw - observed, wrapped - raw, wrapped, texas)
        cells = " | ".join(f"{part:.1f}" for part in parts)
        print(f"| {label} | {cells} | {wrapped - texas / 5:+.1f} µs |")


def main() -> None:
    """Parse the command line, run, print the table (and write JSON if asked)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=5000, help="steps per repeat (whole games, so a few more)")
    parser.add_argument("--games", nargs="*", help="only these games (squarrels, barrell, nutty)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    parser.add_argument("--vector-envs", type=int, default=8, help="environments in each vector env")
    parser.add_argument("--only", choices=("adapters", "vector"), help="run one table only")
    args = parser.parse_args()
    if not args.no_pin:
        pin_to_one_core()
    cases = [case for case in CASES if not args.games or case[1] in args.games]
    result: dict[str, Any] = {}
    if args.only != "vector":
        result = run(args.repeats, args.steps, cases)
        print_table(result, args.repeats)
        print()
        print_breakdown(result)
    if args.only != "adapters":
        result["vector"] = run_vector(args.repeats, args.steps, cases, args.vector_envs)
        print()
        print_vector_table(result["vector"], args.repeats, args.vector_envs)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=2)


if __name__ == "__main__":
    main()
