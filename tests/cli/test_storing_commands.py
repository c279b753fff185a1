"""What ``play``, ``simulate`` and ``arena`` store, and ``replay`` reading it back (the database is the
test's own: ``OAKWOOD_DB`` points every command at it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import LocalCluster
from typer.testing import CliRunner

from oakwood.agents import agent_names
from oakwood.cli.main import app
from oakwood.engine import load
from oakwood.store import Store, StoredGame, open_store
from tests.cli.toygame import TOY_NAME
from tests.interrupting import interrupting_backend

runner = CliRunner()
ANY_GAME = "1\na\n" * 200  # finishes any toy game (see test_play_toy)
ARENA = ["arena", TOY_NAME, "--agents", "heuristic,random", "--players", "3", "--games", "12", "--seed", "3"]


def store_at(path: Path) -> Store:
    return open_store(f"sqlite:///{path}")


def stored_game(path: Path, game_id: int) -> StoredGame:
    with store_at(path) as store:
        return store.get_game(game_id)


def invoke(*args: str, input: str | None = None, code: int = 0) -> str:
    result = runner.invoke(app, list(args), input=input)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output


def table_rows(output: str) -> list[str]:
    """The rows of the final table (agent lines), as printed."""
    return [line for line in output.splitlines() if line.strip().startswith(("heuristic ", "random "))]


# ---------------------------------------------------------------------- play
def test_a_played_game_is_stored_and_replays_to_its_result(private_database: Path) -> None:
    out = invoke("play", TOY_NAME, "--seats", "human,heuristic", "--seed", "4", "--delay", "0", input=ANY_GAME)
    assert "Stored as game 1 (watch it again with: oakwood replay 1)" in out
    game = stored_game(private_database, 1)
    assert game.finished and game.source == "play" and game.agents == ["human", "heuristic"] and game.seed == 4
    state = game.replay().play()
    assert state.is_terminal() and (state.scores(), state.winners()) == (game.scores, game.winners)


def test_a_game_cut_short_is_a_running_row_that_replays_to_where_it_stopped(private_database: Path) -> None:
    invoke("play", TOY_NAME, "--seats", "human,heuristic", "--seed", "4", "--delay", "0", input="draw\nstay\n", code=1)
    game = stored_game(private_database, 1)
    assert game.status == "running" and game.scores is None
    toy = load(TOY_NAME)
    assert game.actions[:2] == [(0, toy.encode(toy.parse_action("draw"))), (0, toy.encode(toy.parse_action("stay")))]
    state = game.replay().play()
    assert not state.is_terminal() and len(state.history) == game.steps
    assert 0 in state.to_act()  # waiting for the human's secret card, where the input ran out


def test_an_undone_move_is_taken_back_in_the_store_too(private_database: Path) -> None:
    invoke(
        "play",
        TOY_NAME,
        "--seats",
        "human,human",
        "--seed",
        "2",
        "--delay",
        "0",
        input="\nstay\nundo\ndraw\n" + ANY_GAME,
    )
    game = stored_game(private_database, 1)
    toy = load(TOY_NAME)
    assert game.finished and game.actions[0] == (0, toy.encode(toy.parse_action("draw")))


def test_a_database_that_cannot_be_opened_stops_play_before_the_game(tmp_path: Path) -> None:
    out = invoke("play", TOY_NAME, "--db", "nonsense://x", input="1\n", code=2)
    assert out.strip() == "error: --db: no database driver for 'nonsense' (in nonsense://x)"


# ---------------------------------------------------------------------- simulate
def test_simulate_stores_every_game_unless_told_not_to(private_database: Path, tmp_path: Path) -> None:
    out = invoke("simulate", TOY_NAME, "-g", "12", "-s", "heuristic,random", "--rotate", "--workers", "2")
    assert f"12 games stored in sqlite:///{private_database}" in out
    with store_at(private_database) as store:
        games = [store.get_game(g.id) for g in store.list_games(limit=50)]
    assert len(games) == 12 and {g.source for g in games} == {"simulate"}
    assert {tuple(g.agents) for g in games} == {("heuristic", "random"), ("random", "heuristic")}
    assert all(g.replay().play().winners() == g.winners for g in games)

    other = tmp_path / "other.db"
    invoke("simulate", TOY_NAME, "-g", "5", "-s", "heuristic,random", "--workers", "1", "--db", str(other))
    with store_at(other) as store:
        assert len(store.list_games()) == 5
    out = invoke("simulate", TOY_NAME, "-g", "5", "-s", "heuristic,random", "--no-store")
    assert "stored" not in out
    with store_at(private_database) as store:
        assert len(store.list_games(limit=50)) == 12


def test_simulate_refuses_a_bad_database_or_contradictory_flags() -> None:
    out = invoke("simulate", TOY_NAME, "-g", "2", "--db", "nonsense://", code=2)
    assert out.startswith("error: --db: no database driver for 'nonsense'")
    out = invoke("simulate", TOY_NAME, "-g", "2", "--db", "x.db", "--no-store", code=2)
    assert "--no-store and --db contradict each other" in out


# ---------------------------------------------------------------------- arena
def test_arena_prints_the_table_and_the_same_command_resumes_the_same_tournament(private_database: Path) -> None:
    first = invoke(*ARENA, "--workers", "2")
    assert "Tournament 1: Toy Snap, 3 players, agents heuristic, random, 12 games, seed 3" in first
    for column in ("Win share", "95% CI", "Avg score", "Rating μ ± σ", "Ordinal"):
        assert column in first
    assert len(table_rows(first)) == 2 and "12 played in this run" in first
    again = invoke(*ARENA)
    assert "12 already played, 0 to go" in again and "0 played in this run" in again
    assert table_rows(again) == table_rows(first)
    by_id = invoke("arena", "--resume", "1")
    assert table_rows(by_id) == table_rows(first)
    with store_at(private_database) as store:
        assert len(store.list_games(limit=50, tournament_id=1)) == 12
        assert {r.agent for r in store.ratings(1)} == {"heuristic", "random"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena"], "name a game and its agents"),
        (["arena", TOY_NAME], "--agents names the agents to compare"),
        (["arena", TOY_NAME, "-a", "heuristic", "-n", "2"], "an arena compares agents: name at least two"),
        (["arena", TOY_NAME, "-a", "random,random"], "--agents names random more than once"),
        (
            ["arena", TOY_NAME, "-a", "random,wizard"],
            f"unknown agent 'wizard' in --agents; choose from {', '.join(agent_names(load(TOY_NAME)))}",
        ),
        (
            ["arena", TOY_NAME, "-a", "random,heuristic", "--backend", "cloud"],
            "--backend 'cloud': choose local or dask",
        ),
        (["arena", TOY_NAME, "-a", "random,heuristic", "--backend", "dask"], "--backend dask needs --scheduler"),
        (
            ["arena", TOY_NAME, "-a", "random,heuristic", "--scheduler", "tcp://x:1"],
            "--scheduler is for --backend dask",
        ),
        (["arena", "--resume", "7"], "no tournament 7 in sqlite:///"),
        (["arena", "--games", "5"], "name a game and its agents"),
    ],
)
def test_arena_bad_input_is_one_line(args: list[str], message: str) -> None:
    out = invoke(*args, code=2)
    assert out.startswith("error: ") and message in out and len(out.strip().splitlines()) == 1, out


def test_resuming_with_other_settings_is_refused() -> None:
    invoke(*ARENA)
    out = invoke("arena", "--resume", "1", "--games", "20", code=2)
    assert "--resume 1: that tournament was started with --games 12" in out
    out = invoke("arena", TOY_NAME, "--agents", "random,heuristic", "--resume", "1", code=2)
    assert "that tournament was started with --agents heuristic,random" in out


def test_an_interrupted_arena_stores_what_finished_and_the_rerun_plays_the_rest(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr("oakwood.cli.arena_command.LocalBackend", interrupting_backend(3))
        cut = invoke(*ARENA, code=130)
    assert "3 of 12 games (partial)" in cut
    assert "Interrupted: 3 of 12 games are stored; run the same command again, or oakwood arena --resume 1" in cut
    resumed = invoke(*ARENA)
    assert "3 already played, 9 to go" in resumed and "9 played in this run" in resumed
    whole = invoke(*ARENA, "--db", str(tmp_path / "whole.db"))
    assert table_rows(resumed) == table_rows(whole)


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_arena_on_a_dask_cluster_prints_the_local_table(dask_scheduler: str, tmp_path: Path) -> None:
    local = invoke(*ARENA, "--workers", "2", "--db", str(tmp_path / "local.db"))
    on_dask = invoke(*ARENA, "--backend", "dask", "--scheduler", dask_scheduler, "--db", str(tmp_path / "dask.db"))
    assert table_rows(on_dask) == table_rows(local) and len(table_rows(local)) == 2
    with store_at(tmp_path / "local.db") as a, store_at(tmp_path / "dask.db") as b:
        games_a = {g.game_index: g.actions for g in map(a.get_game, range(1, 13))}
        games_b = {g.game_index: g.actions for g in map(b.get_game, range(1, 13))}
    assert games_a == games_b and sorted(games_a) == list(range(12))


# ---------------------------------------------------------------------- replay
def test_replay_steps_forward_and_back_from_one_seat_while_the_game_runs() -> None:
    invoke("play", TOY_NAME, "--seats", "human,heuristic", "--seed", "4", "--delay", "0", input="draw\nstay\n", code=1)
    as_p2 = invoke("replay", "1", "--as", "P2", input="n\nn\np\nf\nl\nq\n")
    assert "Game 1 · Toy Snap · step 0 of 3 · P2 (heuristic)" in as_p2
    assert (
        "P1 (human) acted." in as_p2
        and "P1 drew a card" in as_p2
        and "P1 drew a " not in as_p2.replace("P1 drew a card", "")
    )
    assert "P1 was dealt 3 cards" in as_p2 and "P2 was dealt [" in as_p2
    assert "every seat" not in as_p2
    assert as_p2.count("step 1 of 3") == 2 and as_p2.count("step 0 of 3") == 2  # back, then to the first
    assert "The stored game stops here: it was not played to the end." in as_p2

    as_p1 = invoke("replay", "1", "--as", "1", input="1\n")
    assert "P1 (human) played draw." in as_p1 and "P1 was dealt [" in as_p1 and "P2 was dealt 3 cards" in as_p1

    public = invoke("replay", "1", input="l\n")
    assert "the public view" in public and "The table" in public and "Your hand" not in public


def test_a_finished_game_is_replayed_from_every_seat() -> None:
    invoke("play", TOY_NAME, "--seats", "human,heuristic", "--seed", "4", "--delay", "0", input=ANY_GAME)
    everyone = invoke("replay", "1", input="q\n")
    assert "every seat's view" in everyone and "P1 (human) sees" in everyone and "P2 (heuristic) sees" in everyone
    assert "P1 was dealt [" in everyone and "P2 was dealt [" in everyone
    one_seat = invoke("replay", "1", "--as", "2", input="l\n")
    first, _, last = one_seat.partition("q › l")
    assert "· P2 (heuristic) ─" in first and "P1 (human) sees" not in first and "every seat" not in first
    assert "every seat's view" in last and "P1 (human) sees" in last and "Final result" in last


def test_replay_input_errors() -> None:
    invoke("play", TOY_NAME, "--seats", "human,heuristic", "--seed", "4", "--delay", "0", input="draw\n", code=1)
    assert "no game 99 in sqlite:///" in invoke("replay", "99", code=2)
    assert "GAME_ID abc: not a whole number" in invoke("replay", "abc", code=2)
    assert "--as '5': game 1 has seats P1 to P2" in invoke("replay", "1", "--as", "5", code=2)
    assert "--as 'me': name a seat as a number or P1, P2" in invoke("replay", "1", "--as", "me", code=2)
    stepping = invoke("replay", "1", input="7\nwhat\np\nn\nn\nhelp\n")
    assert "There is no step 7; the game has steps 0 to 1." in stepping
    assert "Type n, p, f, l, a step number or q" in stepping
    assert "This is the deal, the first step." in stepping and "This is the last step" in stepping
    assert "a number   go to that step" in stepping


def test_a_replayed_barrell_game_names_its_score_battles_won() -> None:
    invoke("simulate", "barrell", "--seats", "random,random", "--games", "1", "--seed", "2")
    out = runner.invoke(app, ["replay", "1"], input="l\n", env={"COLUMNS": "200"}).output
    assert "Final result" in out and "Battles won" in out
