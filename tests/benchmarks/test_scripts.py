"""The benchmark scripts keep working as the engine changes (they are run by hand; nothing is timed here)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

import oakwood
from oakwood.agents import make_agent
from oakwood.engine import PlayerView, Rng

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str) -> ModuleType:
    """Import a benchmark script as a module (benchmarks/ is not a package; its scripts import ``checkout`` and
    each other from beside them, as they do when run)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.append(str(BENCHMARKS))  # last: none of its script names shadows a module the tests import
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_engine_speed_plays_every_case_to_the_end() -> None:
    speed = load("engine_speed")
    for _, name, players, options, _ in speed.CASES:
        steps, seconds = speed.playouts(oakwood.load(name, **options), players, games=2, seed=0)
        assert steps >= 2 and seconds > 0


def test_engine_speed_clone_rate_counts_clones() -> None:
    speed = load("engine_speed")
    game = oakwood.load("squarrels", single_round=True)
    samples = speed.sample_states(game, 4, 10, seed=0)
    assert len(samples) == 10
    assert speed.clone_rate(samples, rounds=2) > 0


def test_instructions_child_plays_the_same_games_as_engine_speed(capsys: pytest.CaptureFixture[str]) -> None:
    speed = load("engine_speed")
    instructions = load("instructions")
    instructions.child("squarrels", 1, 3)
    counted = int(capsys.readouterr().out.strip())
    assert counted == speed.playouts(oakwood.load("squarrels", single_round=True), 4, games=3, seed=1)[0]
    instructions.child("nutty:1", 1, 5)  # a case by game and table size: Nutty Squirrels solo
    counted = int(capsys.readouterr().out.strip())
    assert counted == speed.playouts(oakwood.load("nutty"), 1, games=5, seed=1)[0]
    instructions.child(instructions.FLOOR, 0, 2)
    assert int(capsys.readouterr().out.strip()) == 2 * 108  # the idle state's fixed game length


def test_engine_speed_world_rate_counts_worlds() -> None:
    speed = load("engine_speed")
    game = oakwood.load("barrell")
    samples = [s for s in speed.sample_states(game, 3, 6, seed=0) if not s.is_terminal()]
    assert samples and speed.world_rate(samples, rounds=1) > 0


def test_view_cost_child_plays_the_simulation_it_measures(capsys: pytest.CaptureFixture[str]) -> None:
    view_cost = load("view_cost")
    view_cost.child(str(BENCHMARKS.parent / "src"), "squarrels", "random", 1, 2)
    assert int(capsys.readouterr().out.strip()) > 0


def test_store_cost_stores_the_games_it_measures(tmp_path: Path) -> None:
    store_cost = load("store_cost")
    assert store_cost.run("barrell", 3, 1, tmp_path) > 0  # asserts inside that the 3 games were stored
    assert store_cost.run("barrell", 3, 1, None) > 0
    assert len(list(tmp_path.glob("barrell-*.db"))) == 1


def test_strength_keeps_the_levels_it_did_not_measure_again() -> None:
    strength = load("strength")
    before = {
        "commit": "old",
        "levels": {"medium": {"win_share": 0.9, "commit": "old"}, "expert": {"win_share": 0.5, "commit": "old"}},
        "time": {"iterations_per_second": 100},
    }
    now = {"commit": "new", "levels": {"expert": {"win_share": 0.7, "commit": "new"}}, "time": {}}
    after = strength.merged(before, now)
    assert after["levels"]["medium"] == {"win_share": 0.9, "commit": "old", "measured": None}
    assert after["levels"]["expert"] == {"win_share": 0.7, "commit": "new"}
    assert after["commit"] == "new" and after["time"] == {"iterations_per_second": 100}
    assert strength.merged(None, now) is now


@pytest.mark.parametrize(("game", "players"), [("squarrels", 3), ("barrell", 2), ("nutty", 1)])
def test_rl_speed_loops_play_whole_games_through_every_adapter(game: str, players: int) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    rl_speed = load("rl_speed")
    loops = {
        "engine": rl_speed.engine_loop(game, players, observe=True),
        "AEC": rl_speed.aec_loop(lambda: rl_speed.oz.env(game, players=players)),
        "Gymnasium": rl_speed.gymnasium_loop(game, players),
        "OpenSpiel": rl_speed.openspiel_loop(game, players),
    }
    for kind, loop in loops.items():
        assert loop(30) >= 30, kind  # whole games until at least 30 steps
        assert rl_speed.timed(loop, 10) > 0, kind


def test_strength_plays_whole_duplicate_deals() -> None:
    strength = load("strength")
    result = strength.against("barrell-2", "medium", "easy", games=5, workers=1, seed=3)
    assert (result["games"], result["deals"]) == (6, 3)  # rounded up to whole deals of two seatings
    low, high = result["ci95"]
    assert 0 <= low <= result["win_share"] <= high <= 1 and result["opponent"] == "easy"


def test_strength_caps_only_the_searching_levels() -> None:
    strength = load("strength")
    assert strength.capped("expert", 1.0) == {"expert": {"seconds": 1.0}}
    assert strength.capped("medium", 1.0) == {} and strength.capped("expert", None) == {}
    result = strength.against("barrell-2", "expert", "medium", games=2, workers=1, seed=3, seconds=0.01)
    assert (result["games"], result["deals"]) == (2, 1) and result["opponent"] == "medium"


@pytest.mark.parametrize("extra", [["--seconds", "0"], ["--seconds", "1", "--write"]])
def test_strength_refuses_a_cap_it_cannot_use(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    strength = load("strength")
    monkeypatch.setattr(sys, "argv", ["strength.py", "--cases", "barrell-2", *extra])
    with pytest.raises(SystemExit):
        strength.main()
    assert "--seconds" in capsys.readouterr().err


def test_duel_prints_the_first_bots_share_over_deals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    duel = load("duel")
    argv = ["duel.py", "squarrels", "strategist", "heuristic", "--deals", "4", "--workers", "1"]
    monkeypatch.setattr(sys, "argv", [*argv, "-o", "single_round=true"])
    duel.main()
    out = capsys.readouterr().out
    assert "strategist against heuristic" in out and "over 4 deals (8 games" in out


def test_departures_plays_both_moves_out_on_the_same_fresh_worlds() -> None:
    departures = load("departures")
    game = oakwood.load("nutty")
    state = game.new_state(1, 5)
    first, second = state.legal_actions(0)[:2]
    view = PlayerView.of(state, 0, world_rng=Rng(1))
    same = departures.gains(game, view, first, first, 3, Rng(2))
    assert same == [(0.0, 0.0)] * 3  # one move against itself on the same worlds: no gain, no noise
    found = departures.gains(game, view, first, second, 3, Rng(2))
    assert len(found) == 3 and all(-1 <= wins <= 1 for wins, _ in found)
    expert = make_agent(game, "expert", seed=1)
    proposals = departures.note_departures(expert)
    verdict = expert._confirmed(view, first, second)  # solo: checked on the game's 40 fresh worlds
    assert proposals == [(first, second, verdict)]


@pytest.mark.parametrize(
    ("game", "players", "figure"),
    [("barrell", 2, "jd_protects"), ("squarrels", 2, "pair_worth"), ("nutty", 1, "lasso_at")],
)
def test_tune_strategist_tunes_every_figure_and_checks_on_other_deals(game: str, players: int, figure: str) -> None:
    tuning = load("tune_strategist")
    assert set(tuning.SPACES[game]) == set(tuning.strategist_module(game).FIGURES)  # every figure, and only those
    script = str(BENCHMARKS / "tune_strategist.py")
    tune = [script, game, "tune", "--trials", "2", "--deals", "3", "--workers", "1", "--storage", "sqlite:///:memory:"]
    run = subprocess.run([sys.executable, *tune], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "trial 1:" in run.stdout and f"TUNED[{players}] = {{" in run.stdout and f'"{figure}":' in run.stdout
    check = [script, game, "check", "--deals", "3", "--workers", "1", "--set", f"{figure}=3.2"]
    run = subprocess.run([sys.executable, *check], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    said = "points over the heuristic's" if players == 1 else "win share"
    assert f"{game} at {players}: strategist {figure}=3.2 against heuristic: " in run.stdout and said in run.stdout
    run = subprocess.run([sys.executable, script, game, "check", "--set", "rng=1"], capture_output=True, text=True)
    assert run.returncode != 0 and "no figure 'rng'" in run.stderr


def test_tune_strategist_scores_solo_by_points_paired_with_the_heuristic() -> None:
    tuning = load("tune_strategist")
    args = argparse.Namespace(game="nutty", players=1, deals=6, seed=3, workers=1, option=[])
    mine = tuning.play(args, "strategist", {})
    theirs = tuning.play(args, "heuristic", {})
    assert [record.seed for record in mine] == [record.seed for record in theirs]  # the same deals
    result = tuning.duel(args, {})
    assert result.deals == 6 and result.value == statistics.fmean(record.scores[0] for record in mine)
    assert result.low < result.value < result.high
    gains = [a.scores[0] - b.scores[0] for a, b in zip(mine, theirs, strict=True)]
    assert f"{statistics.fmean(gains):+.2f} [" in tuning.solo_gain(args, {})
    script = str(BENCHMARKS / "tune_strategist.py")
    run = subprocess.run([sys.executable, script, "nutty", "tune", "--players", "2"], capture_output=True, text=True)
    assert run.returncode == 2 and "played at 1 player(s) only: --players 1" in run.stderr


def test_tune_strategist_plays_one_round_of_squarrels_unless_told_otherwise() -> None:
    tuning = load("tune_strategist")
    parser_args = argparse.Namespace(game="squarrels", option=[])
    assert tuning.options(parser_args)["single_round"] is True  # as the squarrels-2 strength case
    parser_args.option = ["single_round=false"]
    assert tuning.options(parser_args)["single_round"] is False
    assert tuning.options(argparse.Namespace(game="barrell", option=[])) == oakwood.load("barrell").options.to_dict()


def test_tune_strategist_study_goes_on_where_it_stopped(tmp_path: Path) -> None:
    script = str(BENCHMARKS / "tune_strategist.py")
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    tune = [script, "barrell", "tune", "--deals", "2", "--workers", "1", "--storage", storage]
    first = subprocess.run([sys.executable, *tune, "--trials", "2"], capture_output=True, text=True)
    assert first.returncode == 0 and "trial 1:" in first.stdout, first.stderr[-2000:]
    again = subprocess.run([sys.executable, *tune, "--trials", "3"], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr[-2000:]
    assert [line.split(":")[0] for line in again.stdout.splitlines() if line.startswith("trial")] == ["trial 2"]


#: The scripts that run the engines, which must run the form they are given (issue 36): ``checkout`` first.
ENGINE_SCRIPTS = (
    "barrell_heuristic", "departures", "duel", "expert_sprt", "inference", "openspiel_match", "store_cost",
    "strength", "tune_strategist", "value_net",
)  # fmt: skip


@pytest.mark.parametrize("script", ENGINE_SCRIPTS)
def test_a_script_runs_the_oakwood_pythonpath_names(script: str, tmp_path: Path) -> None:
    # PYTHONPATH=build/compiled must run the compiled build: a script that put the checkout's src first ran the
    # pure sources instead, and every run of 2026-12-04 meant to be compiled was pure
    stub = tmp_path / "oakwood"
    stub.mkdir()
    (stub / "__init__.py").write_text("raise SystemExit('the oakwood of PYTHONPATH')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, str(BENCHMARKS / f"{script}.py"), "--help"], env=env, capture_output=True, text=True
    )
    assert "the oakwood of PYTHONPATH" in run.stderr, run.stderr[-2000:]


def test_without_pythonpath_a_script_runs_its_own_checkout_s_sources(tmp_path: Path) -> None:
    # a benchmark in a second work tree measures that tree's code, not the installed package's
    copy = tmp_path / "tree"
    (copy / "benchmarks").mkdir(parents=True)
    (copy / "src" / "oakwood").mkdir(parents=True)
    (copy / "benchmarks" / "checkout.py").write_text((BENCHMARKS / "checkout.py").read_text())
    (copy / "benchmarks" / "duel.py").write_text((BENCHMARKS / "duel.py").read_text())
    (copy / "src" / "oakwood" / "__init__.py").write_text("raise SystemExit('the tree's own oakwood')\n")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    script = copy / "benchmarks" / "duel.py"
    run = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)
    assert "the tree's own oakwood" in run.stderr, run.stderr[-2000:]


@pytest.mark.parametrize(
    ("script", "arguments", "last_line", "status"),
    [
        # a script's own loop: the KeyboardInterrupt reaches Python's hook, and Python ends by SIGINT as usual
        ("departures.py", ["--case", "nutty-solo", "--games", "1"], "stopped (Ctrl-C)", -signal.SIGINT),
        # simulate stops its workers and raises SimulationStopped with the games finished
        (
            "strength.py",
            ["--cases", "nutty-solo", "--levels", "expert", "--matches", "4", "--workers", "2"],
            "stopped: interrupted, after 0 finished games",
            1,
        ),
    ],
)
def test_ctrl_c_stops_a_benchmark_with_one_line(script: str, arguments: list[str], last_line: str, status: int) -> None:
    """Stopping a long run is ordinary: one line on stderr, no traceback (``checkout.stopped_in_one_line``)."""
    run = subprocess.Popen(
        [sys.executable, "-u", str(BENCHMARKS / script), *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert run.stdout is not None
    if script == "departures.py":
        run.stdout.readline()  # its header: the game has started
    else:  # until its workers are playing (a solo expert game takes far longer than this test)
        children = Path(f"/proc/{run.pid}/task/{run.pid}/children")
        deadline = time.monotonic() + 60
        while len(children.read_text().split()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)  # and playing, not still starting
    run.send_signal(signal.SIGINT)
    _, stderr = run.communicate(timeout=60)
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines()[-1] == last_line
    assert run.returncode == status
