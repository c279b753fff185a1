"""``oakwood tune`` from the command line: a small study end to end writes its report, the same command again
resumes the stored study (nothing run twice) and writes the same files, and bad input is refused in one line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import LocalCluster
from typer.testing import CliRunner

from oakwood.cli.main import app

runner = CliRunner()
STUDY = [
    "tune",
    "barrell",
    "--players",
    "3",
    "--target",
    "seats=3",
    "--target",
    "skill=40",
    "--search",
    "battle_tie",
    "--search",
    "max_consecutive_drawn_battles=2-4",
    "--trials",
    "3",
    "--games",
    "6",
    "--skill-games",
    "3",
    "--leaders",
    "1",
    "--leader-games",
    "6",
    "--population",
    "2",
    "--workers",
    "1",
    "--study",
    "cli",
]


def with_value(flag: str, value: str) -> list[str]:
    """The study's command with one flag's value changed."""
    args = list(STUDY)
    args[args.index(flag) + 1] = value
    return args


def test_a_study_end_to_end_then_resumed(tmp_path: Path) -> None:
    db, out = tmp_path / "t.db", tmp_path / "report"
    first = runner.invoke(app, [*STUDY, "--db", str(db), "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert "0 trials stored, 3 to run (NSGA-II" in first.output
    assert "trial 2 of 3:" in first.output
    assert "Report:" in first.output
    tree = json.loads((out / "tuning.json").read_text(encoding="utf-8"))
    assert [t["number"] for t in tree["trials"]] == [0, 1, 2]
    assert tree["trials"][0]["changed"] == {}  # trial 0: the rules as they are
    assert tree["recommended"]["games"] == 6 and tree["base"]["games"] == 6
    # every one-step change of the recommended setting: the other battle_tie, and the limit one up or down
    assert {n["param"] for n in tree["neighbours"]} == {"battle_tie", "max_consecutive_drawn_battles"}
    assert tree["command"].startswith("oakwood tune barrell --target seats=3 --target skill=40 --players 3")
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Verdict" in html and "Robustness" in html and "importance" in html
    again = runner.invoke(app, [*STUDY, "--db", str(db), "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert "3 trials stored, 0 to run" in again.output
    assert json.loads((out / "tuning.json").read_text(encoding="utf-8")) == tree
    grown = runner.invoke(app, [*with_value("--trials", "4"), "--db", str(db), "--out", str(out)])
    assert grown.exit_code == 0, grown.output
    assert "3 trials stored, 1 to run" in grown.output
    changed = runner.invoke(app, [*with_value("--games", "7"), "--db", str(db), "--out", str(out)])
    assert changed.exit_code == 1
    assert "was made with other settings" in changed.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--target", "fair=3"], "unknown target 'fair'"),
        (["--target", "length=9-1"], "from the smaller to the larger"),
        ([], "name at least one --target"),
        (["--target", "seats=3", "--search", "nope"], "has no option 'nope'"),
        (["--target", "seats=3", "--search", "battle_tie", "-o", "battle_tie=all_tied_win"], "also fixed by --option"),
        (["--target", "seats=3", "--target", "seats=3"], "given twice"),
        (["--target", "seats=3", "--players", "9"], "takes 2–4 players"),
        (["--target", "seats=3", "--trials", "0"], "--trials"),
        (["--target", "seats=3", "--agent", "nobody"], "nobody"),
        (["--target", "seats=3", "--study", " "], "--study"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tune", "barrell", *args, "--db", str(tmp_path / "t.db"), "--out", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_a_dask_cluster_gives_the_local_study(dask_scheduler: str, tmp_path: Path) -> None:
    local = runner.invoke(app, [*STUDY, "--db", str(tmp_path / "local.db"), "--out", str(tmp_path / "local")])
    assert local.exit_code == 0, local.output
    at = STUDY.index("--workers")
    without_workers = STUDY[:at] + STUDY[at + 2 :]  # a dask cluster brings its own workers
    where = ["--backend", "dask", "--scheduler", dask_scheduler, "--db"]
    on_dask = runner.invoke(app, [*without_workers, *where, str(tmp_path / "dask.db"), "--out", str(tmp_path / "dask")])
    assert on_dask.exit_code == 0, on_dask.output
    assert "trial 2 of 3:" in on_dask.output

    def study(name: str) -> dict[str, object]:
        tree = json.loads((tmp_path / name / "tuning.json").read_text(encoding="utf-8"))
        tree.pop("command")  # names where the games were played; every figure must agree
        return tree

    assert study("dask") == study("local")
