"""Ctrl-C for real, in a subprocess: an interrupted ``arena`` or ``simulate`` keeps every finished game in
the database (exit 130), and the interrupted tournament is there to resume."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from oakwood.store import open_store
from tests.cli.test_simulate_stop import ROOT, TIMEOUT, alive, children


def stored_games(path: Path) -> int:
    """How many games the database holds (0 before it exists)."""
    if not path.exists():
        return 0
    with sqlite3.connect(path) as connection:
        try:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
        except sqlite3.OperationalError:  # the schema is not there yet
            return 0


def interrupt_once_games_are_stored(command: list[str], database: Path) -> tuple[int, str, str]:
    """Run ``oakwood COMMAND`` until some games are stored, press Ctrl-C, and wait for it to stop."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "OAKWOOD_DB": f"sqlite:///{database}"}
    process = subprocess.Popen(
        [sys.executable, "-m", "oakwood.cli.main", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while stored_games(database) == 0:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no game was stored"
            time.sleep(0.05)
        workers = children(process.pid)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=TIMEOUT)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert not any(alive(pid) for pid in workers), "a worker outlived the run"
    return process.returncode, out, err


def test_ctrl_c_in_arena_keeps_the_finished_games_for_a_resume(tmp_path: Path) -> None:
    database = tmp_path / "arena.db"
    command = ["arena", "barrell", "--agents", "random,heuristic", "--games", "1000000", "-w", "2"]
    code, out, err = interrupt_once_games_are_stored(command, database)
    assert code == 130, out + err
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in out + err
    with open_store(f"sqlite:///{database}") as store:
        finished = store.finished_indices(1)
        assert len(finished) == stored_games(database) > 0
        assert f"{len(finished)} of 1000000 games (partial)" in out
    assert "Interrupted:" in out and "oakwood arena --resume 1" in out


def test_ctrl_c_in_simulate_keeps_the_finished_games(tmp_path: Path) -> None:
    database = tmp_path / "simulate.db"
    command = ["simulate", "barrell", "-g", "1000000", "-s", "random,random", "-w", "2"]
    code, out, err = interrupt_once_games_are_stored(command, database)
    assert code == 130, out + err
    assert "Traceback" not in out + err
    count = stored_games(database)
    assert f"{count} of 1000000 games (partial)" in out and f"{count} games stored in" in out
