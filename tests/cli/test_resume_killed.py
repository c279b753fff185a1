"""Resume after a killed process loses nothing: ``oakwood play`` runs in a real subprocess (pipes), a person
makes a few moves, the process is killed with SIGKILL (no handler, no cleanup), and ``play --resume`` carries
on from exactly the same position and history, to the end of the game."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from typer.testing import CliRunner

from oakwood.cli.main import app
from oakwood.store import open_store

SRC = Path(__file__).resolve().parents[2] / "src"
BY_NUMBERS = "1\na\nl\n" * 1500  # plays any S'Quarrels game to its end (see test_play_squarrels)
PROMPTS = re.compile(r"(P1 › |slap key › )$")


class Child:
    """``oakwood play`` in a subprocess, its output collected by a thread (prompts end without a newline)."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "oakwood.cli.main", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
        )
        self.output = ""
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        while chunk := os.read(self.proc.stdout.fileno(), 4096):
            with self._lock:
                self.output += chunk.decode("utf-8", errors="replace")

    def wait_for_prompt(self, count: int, timeout: float = 60.0) -> str:
        """Wait until the ``count``-th prompt is on screen; the prompt's text."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                text = self.output
            prompts = re.findall(r"(P1 › |slap key › )", text)
            if len(prompts) >= count and PROMPTS.search(text):
                return str(prompts[count - 1])
            assert self.proc.poll() is None, f"play ended early:\n{text[-3000:]}"
            time.sleep(0.02)
        raise AssertionError(f"no prompt {count} within {timeout} s:\n{self.output[-3000:]}")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()


def last_board(output: str) -> str:
    """The last board panel printed for P1 (its frame lines), as text."""
    start = output.rindex("╭─ S'Quarrels · P1 (you)")
    end = output.index("╰", start)
    return output[start:end]


def test_a_killed_game_resumes_at_the_same_position_and_can_be_finished(tmp_path: Path) -> None:
    db = tmp_path / "killed.db"
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "120", "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}
    args = ["play", "squarrels", "--db", str(db), "--seed", "5", "--delay", "0", "-o", "single_round=true"]
    child = Child([*args, "--seats", "human,random"], env)
    moves = 0
    prompt_number = 1
    try:
        while moves < 4:  # P1's first moves; a race (if one comes) is passed
            prompt = child.wait_for_prompt(prompt_number)
            child.send("1" if prompt.startswith("P1") else "")
            moves += prompt.startswith("P1")
            prompt_number += 1
        child.wait_for_prompt(prompt_number)  # the move before is stored by now: it is shown, then asked again
        with open_store(f"sqlite:///{db}") as store:
            before = store.get_game(1)
        screen = last_board(child.output)
    finally:
        child.proc.send_signal(signal.SIGKILL)
        child.proc.wait(timeout=30)
    assert child.proc.returncode == -signal.SIGKILL
    assert before.status == "running" and sum(1 for seat, _ in before.actions if seat == 0) >= moves

    runner = CliRunner()
    result = runner.invoke(
        app, ["play", "--resume", "--db", str(db), "--delay", "0"], input="quit\n", env={"COLUMNS": "120"}
    )
    assert result.exit_code == 0, result.output
    assert f"Resuming game 1 of S'Quarrels after {before.steps} moves (seed 5)" in result.output
    assert last_board(result.output) == screen, "the same position, shown as before the kill"
    with open_store(f"sqlite:///{db}") as store:
        assert store.get_game(1).actions == before.actions, "quitting the resumed game changed nothing"

    state = before.replay().play()
    result = runner.invoke(
        app, ["play", "--resume", "1", "--db", str(db), "--delay", "0"], input=BY_NUMBERS, env={"COLUMNS": "120"}
    )
    assert result.exit_code == 0, result.output[-3000:]
    assert "Final result" in result.output
    with open_store(f"sqlite:///{db}") as store:
        after = store.get_game(1)
        assert [g.id for g in store.list_games()] == [1], "the same row, no new game"
    assert after.finished and after.actions[: before.steps] == before.actions
    finished = after.replay().play()
    assert list(finished.history)[: len(state.history)] == list(state.history), "the history goes on from the kill"
    assert finished.is_terminal() and finished.winners() == after.winners
