"""strength.py's sequential tests and other opponents (issue 37): time-matched PIMC, SPRT verdicts, the cap; and
its table of the stored figures."""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

import pytest

from oakwood.agents import make_agent
from oakwood.arena.simulate import simulate
from oakwood.arena.spec import SimulationSpec
from oakwood.arena.stats import deal_summary
from oakwood.engine import load as load_game
from tests.benchmarks.test_scripts import load


def test_pimc_is_time_matched_with_the_searching_level_only() -> None:
    strength = load("strength")
    matched = {"seconds": 1.0, "iterations": None}
    assert strength.settings_for("expert", "pimc", 1.0) == {"expert": matched, "pimc": matched}
    assert strength.settings_for("medium", "pimc", 1.0) == {"pimc": matched}  # the heuristic takes no budget
    assert strength.settings_for("expert", "medium", 1.0) == strength.capped("expert", 1.0)
    with pytest.raises(ValueError, match="time-matched"):
        strength.settings_for("expert", "pimc", None)


def test_a_variant_changes_the_searching_level_only() -> None:
    strength = load("strength")
    variant = {"guide_epsilon": 0.5}
    matched = {"seconds": 1.0, "iterations": None}
    assert strength.settings_for("expert", "pimc", 1.0, variant) == {"expert": {**matched, **variant}, "pimc": matched}
    assert strength.settings_for("hard", "medium", None, variant) == {"hard": variant}
    assert strength.settings_for("expert", "medium", 1.0, variant) == {"expert": {"seconds": 1.0, **variant}}
    assert strength.settings_for("medium", "pimc", 1.0, variant) == {"pimc": matched}  # no search to change
    assert strength.parse_settings(["guide_epsilon=0.5", "confirm=None"]) == {"guide_epsilon": 0.5, "confirm": None}


def test_the_variant_reaches_the_bot_the_spec_makes() -> None:
    strength = load("strength")
    settings = strength.settings_for("expert", "pimc", 0.01, {"guide_epsilon": 0.75, "guide_z": 1.5})
    spec = strength.duplicate_spec("barrell-2", "expert", "pimc", 1, 3, settings)
    # as the arena's run_game makes each seat's bot: the level, then the spec's settings by name on top
    expert = make_agent(load_game("barrell"), "expert", seed=1, **spec.settings["expert"])
    assert (expert.guide_epsilon, expert.guide_z, expert.seconds, expert.iterations) == (0.75, 1.5, 0.01, None)
    assert expert.guide is not None  # the level's own settings stay beneath the variant
    assert simulate(spec, workers=1, indices=range(1))[0].returns  # and a game plays with them


def test_the_table_names_the_form_each_time_was_measured_in() -> None:
    strength = load("strength")
    result = {"win_share": 0.78, "ci95": [0.68, 0.87], "opponent": "medium", "games": 80, "commit": "3d19116"}
    timing = {"expert_seconds_per_move": 0.888, "iterations_per_second": 169, "form": "compiled"}
    stored = {"nutty-2": {"players": 2, "commit": "3d19116", "levels": {"expert": result}, "time": timing}}
    assert "| 0.89 compiled | 169 |" in strength.markdown_table(stored)
    del timing["form"]  # a time stored before the form was recorded
    assert "| 0.89 | 169 |" in strength.markdown_table(stored)


def test_deal_shares_average_each_deals_games_as_deal_summary_does() -> None:
    strength = load("strength")
    spec = SimulationSpec("barrell", ("medium", "easy"), games=8, seed=2, rotate=True, duplicate=True)
    records = simulate(spec, workers=1)
    shares = strength.deal_shares(records, 2)
    assert len(shares) == 4 and all(share in (0.0, 0.5, 1.0) for share in shares)
    assert sum(shares) / 4 == pytest.approx(deal_summary(records, 0).win_rate)
    assert strength.deal_shares(records[4:], 2) == shares[2:]  # a later batch: its own deals, in order


def test_a_clear_comparison_stops_when_the_test_decides() -> None:
    strength = load("strength")
    test = strength.SequentialTest(0.3, 0.4, max_deals=100, batch=10)
    result = strength.sequential("barrell-2", "medium", "easy", test, workers=1, seed=3, seconds=None)
    assert result["sprt"]["outcome"] == "H1" and result["deals"] < 100 and result["deals"] % 10 == 0
    assert result["games"] == 2 * result["deals"] and result["sprt"]["llr"] >= result["sprt"]["bounds"][1]
    assert result["win_share"] > 0.5 and result["opponent"] == "easy"


def test_an_undecided_comparison_stops_at_the_cap() -> None:
    strength = load("strength")
    test = strength.SequentialTest(0.6, 0.9, max_deals=5, batch=2)  # too few deals for any verdict
    result = strength.sequential("barrell-2", "medium", "easy", test, workers=1, seed=3, seconds=None)
    assert result["sprt"]["outcome"] == "undecided" and (result["deals"], result["games"]) == (5, 10)


def test_a_solo_comparison_tests_the_score_gain_on_the_same_deals() -> None:
    strength = load("strength")
    test = strength.SequentialTest(0.0, 3.0, max_deals=40, batch=10)
    result = strength.sequential("nutty-solo", "medium", "easy", test, workers=1, seed=3, seconds=None)
    gain = result["over_easy"]["score"]["mean"]
    assert result["sprt"]["outcome"] == "H1" and gain > 3 and result["games"] == result["deals"] <= 40


def test_the_command_line_plays_against_pimc_and_reports_the_test(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    strength = load("strength")
    argv = ["strength.py", "--cases", "barrell-2", "--levels", "medium", "--opponent", "pimc", "--seconds", "0.005"]
    monkeypatch.setattr(sys, "argv", [*argv, "--sprt", "0.6,0.7", "--max-deals", "2", "--workers", "1"])
    strength.main()
    out = capsys.readouterr().out
    assert "time-matched" in out and "medium vs pimc" in out
    assert "SPRT 0.6/0.7: undecided at the cap of 2 deals" in out and "over 4 games" in out


def test_a_seconds_variant_is_named_in_the_first_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The level searches the variant's seconds, PIMC the --seconds: the first line must not say "both search".
    strength = load("strength")
    argv = ["strength.py", "--cases", "barrell-2", "--levels", "expert", "--opponent", "pimc", "--seconds", "0.005"]
    argv += ["--variant", "seconds=0.01", "--sprt", "0.6,0.7", "--max-deals", "2", "--batch", "2", "--workers", "1"]
    monkeypatch.setattr(sys, "argv", argv)
    strength.main()
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "PIMC searches 0.005 s a move, the searching level 0.01 s (--variant)"


def test_a_result_against_pimc_is_written_beside_the_levels_own(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    strength = load("strength")
    stored = {"barrell-2": {"game": "barrell", "players": 2, "commit": "aaaaaaa", "measured": "2026-12-01"}}
    medium = {"win_share": 0.7, "ci95": [0.6, 0.8], "opponent": "easy", "games": 9, "commit": "aaaaaaa"}
    stored["barrell-2"]["levels"] = {"medium": {**medium, "measured": "2026-12-01"}}
    stored["barrell-2"]["time"] = {"expert_seconds_per_move": 0.7, "form": "pure"}
    path = tmp_path / "strength.json"
    path.write_text(json.dumps(stored))
    monkeypatch.setattr(strength, "STRENGTH_FILE", path)
    argv = ["strength.py", "--cases", "barrell-2", "--levels", "medium", "--opponent", "pimc", "--seconds", "0.005"]
    monkeypatch.setattr(sys, "argv", [*argv, "--sprt", "0.6,0.7", "--max-deals", "2", "--workers", "1", "--write"])
    strength.main()
    assert "written to" in capsys.readouterr().out
    case = json.loads(path.read_text())["barrell-2"]
    # the levels' own figures, their stamp and time stay as they were
    assert case["levels"] == stored["barrell-2"]["levels"] and case["time"] == stored["barrell-2"]["time"]
    assert (case["commit"], case["measured"]) == ("aaaaaaa", "2026-12-01")
    result = case["against_pimc"]["medium"]
    assert result["opponent"] == "pimc" and result["seconds_a_move"] == 0.005 and result["form"] in ("pure", "compiled")
    assert result["sprt"]["outcome"] == "undecided" and (result["deals"], result["games"], result["seed"]) == (2, 4, 1)
    assert result["measured"] == datetime.date.today().isoformat()
    assert "| barrell-2 | medium | pimc, both 0.005 s a move" in strength.markdown_table(json.loads(path.read_text()))
    # a later run of the levels' own opponents keeps the result against PIMC
    hard = {"win_share": 0.8, "ci95": [0.7, 0.9], "opponent": "medium", "games": 9}
    now = {key: value for key, value in case.items() if key != "against_pimc"}
    again = strength.merged(case, {**now, "levels": {"hard": hard}, "commit": "bbbbbbb"})
    assert again["against_pimc"] == case["against_pimc"] and again["commit"] == "bbbbbbb"
    assert set(again["levels"]) == {"medium", "hard"}


def test_a_sequential_verdict_against_the_levels_own_opponent_is_written_beside_its_fixed_sample(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    strength = load("strength")
    medium = {"win_share": 0.7, "ci95": [0.6, 0.8], "opponent": "easy", "games": 9}
    medium |= {"commit": "aaaaaaa", "measured": "2026-12-01"}
    stored = {"barrell-2": {"game": "barrell", "players": 2, "commit": "aaaaaaa", "measured": "2026-12-01"}}
    stored["barrell-2"] |= {"levels": {"medium": medium}, "time": {"expert_seconds_per_move": 0.7}}
    path = tmp_path / "strength.json"
    path.write_text(json.dumps(stored))
    monkeypatch.setattr(strength, "STRENGTH_FILE", path)
    argv = ["strength.py", "--cases", "barrell-2", "--levels", "medium", "--sprt", "0.6,0.7", "--max-deals", "2"]
    monkeypatch.setattr(sys, "argv", [*argv, "--workers", "1", "--write"])
    strength.main()
    assert "written to" in capsys.readouterr().out
    case = json.loads(path.read_text())["barrell-2"]
    # the fixed sample, the case's stamp and its time stay; the verdict is kept beside them with its seed and form
    assert case["levels"] == stored["barrell-2"]["levels"] and case["time"] == stored["barrell-2"]["time"]
    assert (case["commit"], case["measured"]) == ("aaaaaaa", "2026-12-01") and "against_pimc" not in case
    verdict = case["sequential"]["medium"]
    assert verdict["opponent"] == "easy" and verdict["sprt"]["outcome"] == "undecided" and verdict["deals"] == 2
    assert (verdict["seed"], verdict["measured"]) == (1, datetime.date.today().isoformat())
    assert verdict["moves"] == strength.moves_print("barrell-2", "medium", "easy")  # what the bots played, to check
    table = strength.markdown_table({"barrell-2": case})
    assert "| barrell-2 | medium | easy; SPRT 0.6/0.7: undecided at the cap of 2 deals, LLR" in table


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--opponent", "pimc"], "--opponent pimc is time-matched: give --seconds"),
        (["--sprt", "0.7,0.6"], "--sprt: the SPRT needs finite bounds with H0 below H1"),
        (["--sprt", "0.6"], "--sprt takes two bounds H0,H1"),
        (["--opponent", "random", "--write"], "drop --write"),
        (["--seconds", "1", "--write"], "drop --write"),
        (["--variant", "guide_z=1", "--write"], "--variant measures a change to the levels, not the levels"),
        (["--variant", "guide_z"], "settings are KEY=VALUE, not 'guide_z'"),
        (["--variant", "guide_zed=1"], "'guide_zed' is not a setting of the search; choose from iterations, seconds"),
        (["--variant", "guide_z=one"], "the value of guide_z is a Python literal (3, 2.5, None), not 'one'"),
        (["--sprt", "0.6,0.7", "--max-deals", "1"], "--max-deals must be at least 2"),
    ],
)
def test_bad_options_are_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    strength = load("strength")
    monkeypatch.setattr(sys, "argv", ["strength.py", "--cases", "barrell-2", *extra])
    with pytest.raises(SystemExit):
        strength.main()
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in error, error
