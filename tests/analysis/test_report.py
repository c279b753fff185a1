"""``oakwood analyze`` end to end: the figures of a small report equal a direct computation from the stored
games; the same seeds give the same files; stored games are reused, never played twice; an interrupted
analysis resumes; a dask cluster gives the local figures; bad input is one line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import LocalCluster
from typer.testing import CliRunner

from oakwood.analysis.features import extractor_for, extractor_key
from oakwood.arena.stats import wilson_interval
from oakwood.cli.main import app
from oakwood.engine import load
from oakwood.store import open_store
from tests.interrupting import interrupting_backend

runner = CliRunner()
GAMES = 16
ANALYSIS = [
    "analyze",
    "barrell",
    "--players",
    "2-3",
    "--games",
    str(GAMES),
    "--vary",
    "heart_gift_timing=seat_order",
    "--seed",
    "5",
    "--workers",
    "1",
]


def invoke(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output


def figures(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """One small analysis of Barrell at 2 and 3 players with one variant: its database and report folder."""
    folder = tmp_path_factory.mktemp("analysis")
    db, out = folder / "games.db", folder / "report"
    result = runner.invoke(app, [*ANALYSIS, "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    yield db, out


def stored_outcomes(db: Path, players: int, options: dict[str, Any]) -> list[tuple[Any, Any]]:
    """Every stored game of the analysis at ``players`` seats with these options, rebuilt from its moves and
    measured afresh: (stored game, features)."""
    found = []
    extractor = extractor_for("barrell")
    with open_store(f"sqlite:///{db}") as store:
        listed = store.list_games(limit=10_000)
        for listing in listed:
            game = store.get_game(listing.id)
            if game.players != players or game.options != options or game.source != "analyze":
                continue
            state = game.replay().play()
            found.append((game, extractor.extract(load("barrell", **options), state)))
    return sorted(found, key=lambda pair: pair[0].game_index)


def test_the_figures_equal_a_direct_computation_from_the_stored_games(report: tuple[Path, Path]) -> None:
    db, out = report
    data = figures(out)
    base = data["plan"]["options"]
    for section in data["sections"]:
        players = section["players"]
        games = stored_outcomes(db, players, base)
        assert [g.game_index for g, _ in games] == list(range(GAMES))
        shown = section["agents"]["heuristic"]
        assert shown["games"] == GAMES
        # Win share by place in the turn order: the stored returns, summed by each seat's place.
        wins = [0.0] * players
        for game, features in games:
            for seat in range(players):
                wins[features.order[seat]] += game.returns[seat]
        for place in range(players):
            figure = shown["order"]["shares"][place]
            assert figure["value"] == pytest.approx(wins[place] / GAMES)
            assert (figure["low"], figure["high"]) == pytest.approx(wilson_interval(wins[place], GAMES))
        # How the games ended, and how long they were.
        for ending in shown["endings"]:
            assert ending["successes"] == sum(f.ending == ending["key"] for _, f in games)
        steps = [g.steps for g, _ in games]
        assert steps == [len(g.actions) for g, _ in games]
        assert shown["length"]["actions"]["mean"]["value"] == pytest.approx(sum(steps) / GAMES)
        battles = [f.numbers["battles"] for _, f in games]
        assert shown["numbers"]["battles"]["mean"]["value"] == pytest.approx(sum(battles) / GAMES)
        # Each fact: the win share of the seats that had it.
        for fact in shown["facts"]:
            having = [(g.returns[s]) for g, f in games for s in range(players) if f.seat_facts[fact["key"]][s]]
            assert fact["with"]["trials"] == len(having)
            assert fact["with"]["successes"] == pytest.approx(sum(having))
        scores = [s for g, _ in games for s in g.scores]
        assert shown["scores"]["all"]["mean"]["value"] == pytest.approx(sum(scores) / len(scores))


def test_variants_are_compared_with_the_base_on_the_same_deals(report: tuple[Path, Path]) -> None:
    db, out = report
    data = figures(out)
    assert data["plan"]["varies"] == {"heart_gift_timing": ["seat_order"]}
    for section in data["sections"]:
        (comparison,) = section["variants"]
        assert [row["variant"] for row in comparison["rows"]] == ["base", "heart_gift_timing=seat_order"]
        variant_options = {**data["plan"]["options"], "heart_gift_timing": "seat_order"}
        games = stored_outcomes(db, section["players"], variant_options)
        assert len(games) == GAMES
        base_games = stored_outcomes(db, section["players"], data["plan"]["options"])
        assert [g.seed for g, _ in games] == [g.seed for g, _ in base_games]  # common random numbers
        length = next(c for c in comparison["comparisons"] if c["measure"] == "mean length (actions)")
        assert length["value"] == pytest.approx(sum(g.steps for g, _ in games) / GAMES)
        assert length["base"] == pytest.approx(sum(g.steps for g, _ in base_games) / GAMES)
        assert 0 <= length["p"] <= length["p_adjusted"] <= 1


def test_every_test_is_corrected_together_and_the_findings_come_first(report: tuple[Path, Path]) -> None:
    _, out = report
    data = figures(out)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert data["statistics"]["tests"] > 10
    assert "Holm" in data["statistics"]["correction"]
    assert html.index("Findings") < html.index("<h2>2 players</h2>") < html.index("<h2>Method</h2>")
    for finding in data["findings"]:
        assert finding["text"] in html.replace("&#x27;", "'")
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert {"overview.png", "wins-2p.png", "endings-3p.png", "facts-2p-heuristic.png"} <= set(pngs)
    assert html.count('src="data:image/png;base64,') == len(pngs)  # self-contained: every plot inside


def test_the_same_seeds_give_the_same_report_and_stored_games_are_reused(
    report: tuple[Path, Path], tmp_path: Path
) -> None:
    db, out = report
    again = invoke(*ANALYSIS, "--db", str(db), "--out", str(tmp_path / "again"))
    assert f"{4 * GAMES} of {4 * GAMES} games are already stored and reused." in again
    fresh = invoke(*ANALYSIS, "--db", str(tmp_path / "fresh.db"), "--out", str(tmp_path / "fresh"))
    assert "already stored" not in fresh
    for name in ("figures.json", "report.html", "wins-3p.png"):
        assert (tmp_path / "again" / name).read_bytes() == (out / name).read_bytes(), name
        assert (tmp_path / "fresh" / name).read_bytes() == (out / name).read_bytes(), name


def test_a_larger_analysis_plays_only_the_games_not_stored(tmp_path: Path) -> None:
    db = str(tmp_path / "grow.db")
    small = ["analyze", "barrell", "--players", "2", "--games", "6", "--workers", "1", "--db", db]
    invoke(*small, "--out", str(tmp_path / "small"))
    out = invoke(*small[:-4], "--games", "10", "--workers", "1", "--db", db, "--out", str(tmp_path / "large"))
    assert "6 of 10 games are already stored and reused." in out
    with open_store(f"sqlite:///{db}") as store:
        assert len(store.list_games(limit=100)) == 10  # never played twice
    assert figures(tmp_path / "large")["sections"][0]["agents"]["heuristic"]["games"] == 10


def test_an_interrupted_analysis_keeps_its_games_and_resumes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    args = ["analyze", "barrell", "--players", "2", "--games", "12", "--db", str(tmp_path / "cut.db")]
    with monkeypatch.context() as patch:
        patch.setattr("oakwood.cli.arena_command.LocalBackend", interrupting_backend(5))
        cut = invoke(*args, "--out", str(tmp_path / "cut"), code=130)
    assert "Interrupted: every finished game is stored; run the same command again" in cut
    assert not (tmp_path / "cut" / "report.html").exists()
    resumed = invoke(*args, "--workers", "1", "--out", str(tmp_path / "resumed"))
    assert "5 of 12 games are already stored and reused." in resumed
    invoke(*args[:-2], "--workers", "1", "--db", str(tmp_path / "whole.db"), "--out", str(tmp_path / "whole"))
    assert figures(tmp_path / "resumed") == figures(tmp_path / "whole")


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_a_dask_cluster_gives_the_local_figures(dask_scheduler: str, tmp_path: Path) -> None:
    args = ["analyze", "barrell", "--players", "3", "--games", "10", "--seed", "2"]
    invoke(*args, "--workers", "2", "--db", str(tmp_path / "local.db"), "--out", str(tmp_path / "local"))
    invoke(
        *args,
        "--backend",
        "dask",
        "--scheduler",
        dask_scheduler,
        "--db",
        str(tmp_path / "dask.db"),
        "--out",
        str(tmp_path / "dask"),
    )
    assert figures(tmp_path / "dask") == figures(tmp_path / "local")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "1"], "--players 1: Barrell takes 2–4 players"),
        (["--players", "4-2"], "a range goes from the smaller size to the larger"),
        (["--vary", "heart_gift_timing"], "--vary takes OPTION=a,b,…"),
        (["--vary", "colour=red"], "--vary 'colour': Barrell has no such option"),
        (["--vary", "heart_gift_timing=simultaneous"], "every value listed is the base value"),
        (["--vary", "heart_gift_timing=sometimes"], "heart_gift_timing"),
        (["--agents", "nobody"], "unknown agent 'nobody'"),
        (["--games", "0"], "--games"),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    out = invoke("analyze", "barrell", *args, "--out", str(tmp_path / "r"), code=2)
    assert out.startswith("error: ") and message in out and len(out.strip().splitlines()) == 1, out


def test_two_agents_are_measured_apart_and_their_findings_compared(tmp_path: Path) -> None:
    args = ["analyze", "barrell", "--players", "3", "--games", "30", "--agents", "heuristic,random", "--workers", "1"]
    invoke(*args, "--out", str(tmp_path / "two"))
    data = figures(tmp_path / "two")
    (section,) = data["sections"]
    assert list(section["agents"]) == ["heuristic", "random"]
    assert section["agents"]["random"]["games"] == section["agents"]["heuristic"]["games"] == 30
    # every finding is about one of the two agents, or about the skill ladder (its own levels, whatever the agents)
    assert {f["agent"] for f in data["findings"]} == {"heuristic", "random", "skill ladder"}
    for finding in data["findings"]:
        if finding["flag"]:
            assert finding["flag"].startswith("holds for ") and ", not for " in finding["flag"]
    assert (tmp_path / "two" / "facts-3p-random.png").exists()


def test_the_designers_notes_appear_under_the_findings_as_text(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Keep the proposed deck.\n\nThe <b>short</b> deck\nends games sooner.\n", encoding="utf-8")
    args = ["analyze", "nutty", "--players", "1", "--games", "4", "--workers", "1", "--notes", str(notes)]
    invoke(*args, "--out", str(tmp_path / "r"))
    html = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "<p>Keep the proposed deck.</p>\n<p>The &lt;b&gt;short&lt;/b&gt; deck ends games sooner.</p>" in html
    assert html.index("Findings") < html.index("<h2>Notes</h2>") < html.index("<h2>Solo</h2>")
    assert figures(tmp_path / "r")["notes"].startswith("Keep the proposed deck.")
    missing = invoke(*args[:-1], str(tmp_path / "nothing.txt"), "--out", str(tmp_path / "r"), code=2)
    assert "there is no file" in missing and len(missing.strip().splitlines()) == 1


def test_ctrl_c_while_measuring_keeps_what_was_measured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import oakwood.analysis.measure as measure

    measured_chunks = []
    real = measure._measure_chunk

    def then_interrupt(*args: Any) -> Any:
        if measured_chunks:
            raise KeyboardInterrupt
        measured_chunks.append(real(*args))
        return measured_chunks[-1]

    args = ["analyze", "barrell", "--players", "2", "--games", "120", "--workers", "1", "--db", str(tmp_path / "m.db")]
    with monkeypatch.context() as patch:
        patch.setattr(measure, "_measure_chunk", then_interrupt)
        cut = invoke(*args, "--out", str(tmp_path / "cut"), code=130)
    assert "Interrupted while measuring: what was measured is stored; run the same command again." in cut
    with open_store(f"sqlite:///{tmp_path / 'm.db'}") as store:
        ids = [g.id for g in store.list_games(limit=200)]
        assert (
            len(store.game_features(ids, extractor_key(extractor_for("barrell")))) == measure.CHUNK
        )  # the first chunk landed
    again = invoke(*args, "--out", str(tmp_path / "again"))
    assert "120 of 120 games are already stored and reused." in again
    assert (tmp_path / "again" / "report.html").exists()


def test_a_run_piped_to_a_log_says_each_cell_as_it_is_done_and_what_was_varied_first(tmp_path: Path) -> None:
    # CliRunner's output is not a terminal, as a log or a pipe is not: the progress bar prints nothing there
    args = ["analyze", "barrell", "--players", "2", "--games", "4", "--vary", "heart_gift_timing=seat_order"]
    output = invoke(
        *args, "--seed", "5", "--workers", "1", "--db", str(tmp_path / "g.db"), "--out", str(tmp_path / "r")
    )
    for verb in ("played", "measured"):
        assert f"{verb} cell 1 of 2 (2p · heuristic · base): 4 games" in output, output
        assert f"{verb} cell 2 of 2 (2p · heuristic · " in output, output
    first = next(line for line in output.splitlines() if line.startswith("• "))
    assert "seat_order" in first, output  # the summary's first finding is about the question asked


def test_the_question_asked_leads_the_findings_the_page_and_the_terminal(report: tuple[Path, Path]) -> None:
    _, out = report
    found = figures(out)["findings"]
    asked = [f for f in found if f["kind"] == "variant"]
    # the variant at 2 and at 3 players, and its skill ladder at each, before anything else
    assert len(asked) == 4 and found[:4] == asked
    for finding in asked:
        if not finding["significant"] and finding["agent"] != "skill ladder":  # absence is not evidence of absence
            assert "no difference from the base options shown" in finding["text"]
            assert "Not showing a difference is not showing there is none." in finding["text"]
    html = (out / "report.html").read_text(encoding="utf-8").replace("&#x27;", "'")
    folded = html.find("more findings</summary>")
    assert all(0 <= html.index(f["text"]) < (folded if folded >= 0 else len(html)) for f in asked)
