"""A behaviour fingerprint of Oakwood's engines: run it on the pure and the compiled form, the hashes must be equal.

For every game, every option set that changes behaviour (the defaults, the conformance kit's variant sets, and
each option's every other value alone) and every table size, seeded random games are played to the end through
the public API, and one SHA-256 per (game, option set) is taken over, at every step: every seat's and the
spectator's observation, every acting seat's legal tuple and mask, a ``determinize`` world of one seat (its
notation, observation and legal actions; every ``--world-every`` steps), the action chosen, and at the end every
event (hidden parts included), the scores, winners, replay and saved JSON. A few ISMCTS decisions per game and the
moves of the game's own bots (heuristic, strategist) are hashed too (the search and the bots are compiled as
well). Which form runs is printed and recorded.

    python scripts/fingerprint.py --json pure.json                        # the form on sys.path (PYTHONPATH)
    PYTHONPATH=build/compiled python scripts/fingerprint.py --json compiled.json
    python scripts/fingerprint.py --compare pure.json compiled.json      # exit 1 naming every difference
    python scripts/fingerprint.py --both                                  # both forms, in two processes, compared
    python scripts/fingerprint.py --world-every 0 --json rules.json       # no worlds: the rules alone

A change to how worlds are drawn (``determinize``) changes every set's hash and the searches'; ``--world-every 0``
leaves worlds out, so the rules (deals, observations, legal tuples, events) can be compared across it.

The default plan plays 1,550 games per form (--scale to change it): 660 S'Quarrels, 640 Barrell, 250 Nutty.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: The conformance kit's variant sets (tests/conformance/), each one option set of its own.
VARIANT_SETS: dict[str, list[dict[str, Any]]] = {
    "squarrels": [
        {"single_round": True},
        {
            "single_round": True,
            "setup_winter_reshuffle": "winter_only",
            "whirlwind_draw": "mandatory_to_7",
            "quarrel_winner_may_draw": True,
            "quarrel_exhaustion": "survivor_plays",
            "golden_wild_in_sets": True,
            "hoard_drawer_may_race": True,
            "hoard_empty_skips": True,
            "hoard_race": "random",
            "set_scoring": "per_card",
        },
        {
            "target_score": 25,
            "quarrel_exhaustion": "any_out_draws",
            "golden_lost_scope": "match",
            "hoard_race": "seat_order",
            "target_tie": "shared_win",
        },
    ],
    "barrell": [
        {
            "queen_zone_order": "seat_order",
            "kod_scope": "global",
            "kh_timing": "before_scoring",
            "kh_given_with_hearts": True,
            "jos_initiator_may_look": True,
            "jod_scope": "cards_on_table_only",
            "joker_timing": "after_provisional_score",
            "battle_tie": "all_tied_win",
        },
        {
            "heart_gift_timing": "seat_order",
            "heart_gift": "split_per_card",
            "kod_ignores_hearts": True,
            "kc_after_queen": False,
            "jos_mode": "rotate_all",
            "jod_suppresses_ace_bonus": True,
            "max_consecutive_drawn_battles": 1,
        },
    ],
    "nutty": [
        {
            "break_tokens_beyond": "slide_to_break",
            "wind_gust_turn_end": "always",
            "fools_gold_includes_backpack": False,
            "arborist_mode": "chain",
            "lasso_lateral_with_flying": True,
            "doppelganger_duration": "single_use",
            "doppel_sticky": "take_tracked_loot",
            "end_trigger": "all_cards_revealed",
            "max_rounds": 25,
            "win_at_20": "finish_round",
            "tb_golden_scope": "all_possessed",
            "solo_keep_events": True,
        }
    ],
}

#: Seeded games per option set, the table sizes taking turns: (the defaults, each variant set, each option's
#: every other value alone). The full plan is 1,550 games per form (6 minutes of pure Python on one
#: core); CI runs a share of it (--scale).
GAMES = {"squarrels": (200, 60, 20), "barrell": (200, 60, 20), "nutty": (100, 40, 10)}


def option_sets(name: str) -> Iterator[tuple[str, dict[str, Any], int]]:
    """(label, options, which of GAMES' counts): defaults, variant sets, then every other value of each option."""
    import oakwood

    yield "default", {}, 0
    for i, values in enumerate(VARIANT_SETS[name]):
        yield f"variants_{i}", values, 1
    for info in oakwood.load(name).options.describe():
        if info.choices is not None:
            others = [c for c in info.choices if c != info.default]
        elif isinstance(info.default, bool):
            others = [not info.default]
        else:
            continue  # a number: its bounds are exercised by the variant sets and the kit
        for value in others:
            try:
                oakwood.load(name, **{info.name: value})
            except ValueError:
                continue  # a value another option's default does not admit
            yield f"{info.name}={value}", {info.name: value}, 2


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=repr, separators=(",", ":")).encode()


def fingerprint_set(name: str, options: dict[str, Any], games: int, world_every: int) -> tuple[str, int]:
    """The hash of ``games`` seeded random games per table size of one option set, and the steps played."""
    import oakwood
    from oakwood.engine import Rng

    game = oakwood.load(name, **options)
    digest = hashlib.sha256()
    update = digest.update
    steps = 0
    sizes = range(game.min_players, game.max_players + 1)
    for seed in range(games):
        players = sizes[seed % len(sizes)]
        state = game.new_state(players, seed)
        rng = Rng(seed * 7919 + players)
        while not state.is_terminal():
            seats = state.to_act()
            update(_canonical([state.decision.value, seats]))
            for seat in [*range(players), None]:
                update(_canonical(state.observe(seat)))
            for seat in seats:
                update(_canonical([repr(a) for a in state.legal_actions(seat)]))
                update(_canonical(state.legal_mask(seat)))
            if world_every and steps % world_every == 0:  # 0: no worlds (see --world-every)
                viewer = seats[steps % len(seats)]
                world = state.determinize(viewer, Rng(steps))
                update(_canonical([world.to_notation(), world.observe(viewer), world.to_act()]))
                update(_canonical([repr(a) for a in world.legal_actions(viewer)] if viewer in world.to_act() else []))
            seat = rng.choice(seats)
            action = rng.choice(state.legal_actions(seat))
            update(_canonical([seat, repr(action), game.encode(action)]))
            state.apply(seat, action)
            steps += 1
        update(_canonical([[e.kind, e.public, e.private, sorted(e.audience or ())] for e in state.events]))
        update(_canonical([state.scores(), state.winners(), state.returns(), state.to_json()]))
    return digest.hexdigest(), steps


def fingerprint_search(name: str) -> str:
    """The hash of a few ISMCTS searches (guided and not) and the game's own bots' moves along seeded games."""
    import oakwood
    from oakwood.agents import make_agent
    from oakwood.engine import PlayerView, Rng

    game = oakwood.load(name)
    digest = hashlib.sha256()
    for players in (game.min_players, min(game.max_players, 4)):
        for seed in range(2):
            state = game.new_state(players, seed)
            rng = Rng(seed)
            step = 0
            while not state.is_terminal() and step < 60:
                seats = state.to_act()
                seat = seats[0]
                if step % 15 == 0:
                    for agent_name in ("ismcts", *game.agents):  # the search, the heuristic, the strategist
                        settings = {"iterations": 40} if agent_name == "ismcts" else {}
                        agent = make_agent(game, agent_name, seed=step, **settings)
                        choice = agent.act(PlayerView.for_agent(state, seat, agent, Rng(step)))
                        digest.update(_canonical([agent_name, repr(choice)]))
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                step += 1
    return digest.hexdigest()


def run(scale: float, world_every: int, only: list[str] | None) -> dict[str, Any]:
    """Every fingerprint of this form, with the form it was taken on."""
    import oakwood
    from oakwood import form

    result: dict[str, Any] = {"form": form.inspect().describe(), "hashes": {}, "steps": 0}
    start = time.perf_counter()
    for name in only or ["squarrels", "barrell", "nutty"]:
        for label, options, kind in option_sets(name):
            games = max(1, round(GAMES[name][kind] * scale))
            digest, steps = fingerprint_set(name, options, games, world_every)
            result["hashes"][f"{name} {label}"] = digest
            result["steps"] += steps
        result["hashes"][f"{name} search"] = fingerprint_search(name)
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(
        f"{oakwood.__name__}: {len(result['hashes'])} fingerprints, {result['steps']:,} steps in"
        f" {result['seconds']} s on {result['form']}",
        file=sys.stderr,
    )
    return result


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Every fingerprint that differs between two runs (or is in one only)."""
    keys = sorted(set(a["hashes"]) | set(b["hashes"]))
    return [key for key in keys if a["hashes"].get(key) != b["hashes"].get(key)]


def main() -> None:
    """Fingerprint one form, compare two runs, or both forms at once."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, help="write this form's fingerprints here")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    parser.add_argument("--both", action="store_true", help="run on src and build/compiled, then compare")
    parser.add_argument("--scale", type=float, default=1.0, help="games per option set, relative to the plan")
    parser.add_argument(
        "--world-every",
        type=int,
        default=5,
        help="a determinize world every N steps; 0 hashes none (the rules alone, for a change that moves worlds)",
    )
    parser.add_argument("--game", action="append", help="only these games")
    args = parser.parse_args()
    if args.compare:
        a, b = (json.loads(path.read_text()) for path in args.compare)
        differ = compare(a, b)
        print(f"{a['form']}\n{b['form']}", file=sys.stderr)
        for key in differ:
            print(f"DIFFERS: {key}", file=sys.stderr)
        print(f"{len(a['hashes'])} fingerprints, {len(differ)} differ", file=sys.stderr)
        raise SystemExit(1 if differ else 0)
    if args.both:
        extra = [f"--scale={args.scale}", f"--world-every={args.world_every}"]
        extra += [f"--game={g}" for g in args.game or []]
        runs = [  # the two forms at once, one process each
            subprocess.Popen(
                [sys.executable, __file__, *extra], env=dict(os.environ, PYTHONPATH=str(path)), stdout=subprocess.PIPE
            )
            for path in (ROOT / "src", ROOT / "build" / "compiled")
        ]
        outputs = []
        for run_ in runs:
            out, _ = run_.communicate()
            if run_.returncode != 0:
                raise SystemExit(f"a fingerprint run failed (exit {run_.returncode})")
            outputs.append(json.loads(out))
        differ = compare(*outputs)
        for key in differ:
            print(f"DIFFERS: {key}", file=sys.stderr)
        compiled = outputs[1]["form"]
        if not compiled.startswith("compiled"):
            print(f"the second form is not compiled: {compiled}", file=sys.stderr)
            raise SystemExit(1)
        print(f"pure and compiled: {len(outputs[0]['hashes'])} fingerprints, {len(differ)} differ", file=sys.stderr)
        raise SystemExit(1 if differ else 0)
    result = run(args.scale, args.world_every, args.game)
    text = json.dumps(result, indent=1, sort_keys=True)
    if args.json:
        args.json.write_text(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
