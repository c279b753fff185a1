"""``oakwood --version``, default opponents, ``hint`` / ``--hints off``, ``play --resume`` and ``games --recent``
on the toy game, driven by scripted standard input (each test has a database of its own: ``OAKWOOD_DB``)."""

from __future__ import annotations

import dataclasses
import re
from importlib import metadata
from pathlib import Path

from typer.testing import CliRunner

from oakwood.cli.main import app
from oakwood.engine import load
from oakwood.store import Store, open_store
from tests.cli.toygame import TOY_NAME

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
ANY_GAME = "1\na\n" * 200  # finishes any toy game (see test_play_toy)
TOY = ["play", TOY_NAME, "--delay", "0"]


def invoke(*args: str, input: str | None = None, code: int = 0) -> str:
    result = runner.invoke(app, list(args), input=input, env=WIDE)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output


def store_at(path: Path) -> Store:
    return open_store(f"sqlite:///{path}")


# ---------------------------------------------------------------------- --version
def test_version_prints_the_package_version_and_exits_0() -> None:
    out = " ".join(invoke("--version").split())
    assert out.startswith(f"oakwood {metadata.version('oakwood')}, ")
    assert "pure Python (no compiled modules) from " in out or "compiled by mypyc (" in out  # the form that runs


# ---------------------------------------------------------------------- opponents
def test_default_opponents_are_the_medium_level(private_database: Path) -> None:
    out = invoke(*TOY, "--players", "3", "--seed", "4", input=ANY_GAME)
    assert "Seats: P1 (you), P2 (medium), P3 (medium)" in out
    with store_at(private_database) as store:
        assert store.get_game(1).agents == ["human", "medium", "medium"]


def test_seats_take_levels_and_raw_bot_names() -> None:
    out = invoke(*TOY, "--seats", "human,easy,Expert,heuristic", "--seed", "4", input=ANY_GAME)
    assert "Seats: P1 (you), P2 (easy), P3 (expert), P4 (heuristic)" in out
    assert "Final result" in out


# ---------------------------------------------------------------------- hints
def test_hint_shows_the_expert_choice_with_chances_and_plays_nothing(private_database: Path) -> None:
    # Seed 4: P1 leads and may draw or stay; the hint must not change whose turn it is.
    out = invoke(*TOY, "--seats", "human,random", "--seed", "4", input="hint\nquit\n")
    hint = out[out.index("P1 › hint") :]
    heading = re.search(r"Hint: the expert bot would play (\d)  (\w+)  \(([\d,]+) searches in [\d.]+ s\)", hint)
    assert heading, hint
    assert "chance to win" in hint
    rows = re.findall(r"^(★?)\s+(\d)  (draw|stay)\s+(\d+)%\s+(\d+)%\s*$", hint, re.MULTILINE)
    assert {row[2] for row in rows} == {"draw", "stay"}, hint
    assert [row[0] for row in rows] == ["★", ""], "the recommended move comes first, marked"
    assert rows[0][1:3] == heading.groups()[:2]
    assert all(0 <= int(row[3]) <= 100 for row in rows)
    assert sum(int(row[4]) for row in rows) in (99, 100, 101), "the shares of the search add up"
    with store_at(private_database) as store:
        assert store.get_game(1).steps == 0, "a hint plays nothing"


def test_hints_off_refuses_the_hint_command() -> None:
    out = invoke(*TOY, "--seats", "human,random", "--seed", "4", "--hints", "off", input="hint\nquit\n")
    assert "Hints are off in this game (--hints off)." in out
    assert "would play" not in out


def test_hints_flag_takes_on_or_off_only() -> None:
    out = invoke(*TOY, "--hints", "maybe", code=2)
    assert "--hints 'maybe': say on or off" in out


def test_help_lists_the_hint_command() -> None:
    out = invoke(*TOY, "--seats", "human,random", "--seed", "4", input="help\nquit\n")
    assert re.search(r"^\s+hint\s+ask the expert bot", out, re.MULTILINE)


# ---------------------------------------------------------------------- resume
def test_resume_continues_the_last_unfinished_game_in_the_same_row(private_database: Path) -> None:
    invoke(*TOY, "--seats", "human,heuristic", "--seed", "4", input="draw\nstay\nquit\n")
    with store_at(private_database) as store:
        before = store.get_game(1)
    assert before.status == "running" and before.steps >= 2
    out = invoke("play", "--resume", "--delay", "0", input="hint\n" + ANY_GAME)
    assert f"Resuming game 1 of Toy Snap after {before.steps} moves (seed 4)" in out
    assert "Seats: P1 (you), P2 (heuristic)" in out
    assert "Hint: the expert bot would play" in out, "hints are on again by default"
    assert "Final result" in out
    with store_at(private_database) as store:
        after = store.get_game(1)
        assert len(store.list_games()) == 1, "no new row"
    assert after.finished and after.actions[: before.steps] == before.actions
    state = after.replay().play()
    assert state.is_terminal() and state.winners() == after.winners


def test_resume_by_id_and_by_game_name_and_the_saved_line_on_quit(private_database: Path) -> None:
    first = invoke(*TOY, "--seats", "human,random", "--seed", "7", input="draw\nquit\n")
    assert "Game 1 is saved: continue it with oakwood play --resume 1" in first
    invoke(*TOY, "--seats", "human,random", "--seed", "8", input="quit\n")
    out = invoke("play", "--resume", "1", "--delay", "0", input="quit\n")
    assert "Resuming game 1 of Toy Snap after 1 moves (seed 7)" in out
    out = invoke("play", TOY_NAME, "--resume", "--delay", "0", input="quit\n")
    assert "Resuming game 2 of Toy Snap after 0 moves (seed 8)" in out, "the latest unfinished game of the toy"


def test_resume_restores_the_log_since_the_humans_last_move(private_database: Path) -> None:
    invoke(*TOY, "--seats", "human,heuristic", "--seed", "4", input="draw\nstay\nquit\n")
    with store_at(private_database) as store:
        stored = store.get_game(1)
    state = stored.replay().play()
    game = load(TOY_NAME)
    # the human's last move is the stay: its log starts there, as the killed session's did
    last = max(i for i, (seat, _) in enumerate(stored.actions) if seat == 0)
    start = len(dataclasses.replace(stored.replay(), actions=stored.actions[:last]).play().events)
    expected = [game.describe_event(e) for e in state.events_seen_by(0, start)]
    out = invoke("play", "--resume", "--delay", "0", input="quit\n")
    log = out[out.index("Since your last move") :]
    for line in expected:
        assert line in log


def test_resume_errors(private_database: Path) -> None:
    out = invoke("play", "--resume", code=2)
    assert "error: no unfinished game of oakwood play to resume in" in out
    out = invoke("play", TOY_NAME, "--resume", code=2)
    assert f"no unfinished game of {TOY_NAME} of oakwood play" in out
    out = invoke("play", "--resume", "99", code=2)
    assert "error: --resume: no game 99 in" in out and "oakwood games --recent" in out
    out = invoke("play", "--resume", "nosuchgame", code=2)
    assert "--resume 'nosuchgame': give a stored game's id or a game's name" in out
    out = invoke("play", code=2)
    assert "name a game to play" in out and "oakwood play --resume" in out
    for flag in (["--seats", "human,random"], ["--seed", "3"], ["--players", "2"], ["-o", "rounds=2"], ["--solo"]):
        out = invoke("play", "--resume", *flag, code=2)
        assert f"{flag[0] if flag[0] != '-o' else '--option'} cannot be given with --resume" in out

    invoke(*TOY, "--seats", "human,random", "--seed", "4", input=ANY_GAME)  # game 1: finished
    out = invoke("play", "--resume", "1", code=2)
    assert "game 1 is finished (watch it again with: oakwood replay 1)" in out
    invoke("simulate", TOY_NAME, "-g", "1", "-s", "random,random", "-w", "1")  # game 2: simulate
    out = invoke("play", "--resume", "2", code=2)
    assert "game 2 was played by oakwood simulate, not by oakwood play" in out

    toy = load(TOY_NAME)
    options = toy.options.to_dict()
    with store_at(private_database) as store:
        old = store.start_game(
            game=TOY_NAME,
            options=options,
            players=2,
            seed=1,
            agents=["human", "random"],
            source="play",
            version="0.0.1",
        )
        bad_options = store.start_game(
            game=TOY_NAME,
            options={**options, "colour": "red"},
            players=2,
            seed=1,
            agents=["human", "random"],
            source="play",
        )
        fewer_options = store.start_game(
            game=TOY_NAME, options={"rounds": 2}, players=2, seed=1, agents=["human", "random"], source="play"
        )
        bad_move = store.start_game(
            game=TOY_NAME, options=options, players=2, seed=1, agents=["human", "random"], source="play"
        )
        store.save_moves(bad_move, [(1, toy.encode(toy.parse_action("slap")))])
        unknown_bot = store.start_game(
            game=TOY_NAME, options=options, players=2, seed=1, agents=["human", "wizard"], source="play"
        )
    out = invoke("play", "--resume", str(old), code=2)
    assert f"game {old} was started with Oakwood 0.0.1 and this is Oakwood {metadata.version('oakwood')}" in out
    out = invoke("play", "--resume", str(bad_options), code=2)
    assert f"game {bad_options} was stored with options this version does not accept" in out
    out = invoke("play", "--resume", str(fewer_options), code=2)
    assert f"game {fewer_options} was stored with options rounds, but this version of Toy Snap has" in out
    out = invoke("play", "--resume", str(bad_move), code=2)
    assert f"game {bad_move} cannot be resumed: step 1 cannot be played" in out
    out = invoke("play", "--resume", str(unknown_bot), code=2)
    assert f"game {unknown_bot} has a seat played by 'wizard', which this version does not know" in out


# ---------------------------------------------------------------------- games --recent
def test_games_recent_lists_unfinished_play_games_first_with_the_resume_command() -> None:
    out = invoke("games", "--recent")
    assert "No games stored in" in out
    invoke(*TOY, "--seats", "human,random", "--seed", "4", input="draw\nquit\n")  # 1: unfinished
    invoke(*TOY, "--seats", "human,heuristic", "--seed", "5", input=ANY_GAME)  # 2: finished
    invoke("simulate", TOY_NAME, "-g", "2", "-s", "random,random", "-w", "1")  # 3, 4
    out = invoke("games", "--recent")
    rows = [line for line in out.splitlines() if re.match(r"^\s*\d+\s+" + TOY_NAME, line)]
    assert [int(row.split()[0]) for row in rows] == [1, 4, 3, 2], "unfinished play game first, then newest"
    assert re.search(r"^\s*1\s+toysnap\s+human, random\s+.*\s1\s+play\s+unfinished\s*$", rows[0])
    assert re.search(r"\ssimulate\s+finished\s+P\d(, P\d)? (won|shared) · ", rows[1])
    assert "Continue an unfinished game with: oakwood play --resume 1" in out
    assert "Watch a game again with: oakwood replay ID" in out
    out = invoke("games", "--recent", "--limit", "2")
    assert len([line for line in out.splitlines() if re.match(r"^\s*\d+\s+" + TOY_NAME, line)]) == 2


def test_games_recent_flag_errors(tmp_path: Path) -> None:
    out = invoke("games", "--db", str(tmp_path / "x.db"), code=2)
    assert "--db and --limit go with --recent" in out
    out = invoke("games", "--recent", "--limit", "0", code=2)
    assert "--limit" in out
    out = invoke("games", "--recent", "--db", str(tmp_path / "other.db"))
    assert "No games stored in" in out and "other.db" in out
