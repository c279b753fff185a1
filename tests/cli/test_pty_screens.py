"""Whole games played at 80x24 in a pseudo-terminal, through the real ``oakwood play``.

pexpect runs the command on a pty of 80 columns and 24 rows; pyte keeps the screen a person would see. At
every prompt the test looks at that screen: the board's title is still on the top row (nothing scrolled
off), the hand and the move menu are there, and the prompt is the last line. A move the game warns about
(Nutty solo) asks ``are you sure? (y/n)``: the test checks that screen too (the warning above the menu,
the question on the last line) and answers ``y``, so the game goes on to its end. Every screen is saved, in
order, as a transcript under the test's temporary directory (and under ``$OAKWOOD_TRANSCRIPTS`` when set,
for CI artifacts).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ROOT = Path(__file__).resolve().parents[2]
COLUMNS, ROWS = 80, 24
TIMEOUT = 60  # only a broken build waits this long
PROMPT = r"P\d › "
RACE = r"RACE!"
PAUSE = r"Press Enter to continue"
CONFIRM = r"\(y/n\) › "  # after a warned move (``PlaySession.confirm``)
SGR = re.compile(r"\x1b\[[0-9;]*m")
MOVE_LINE = re.compile(r"^ ?1 +\S")  # the menu's first move


@dataclass
class Played:
    """What one pty game showed: every screen at a prompt, and the raw bytes."""

    screens: list[str] = field(default_factory=list)
    raw: str = ""
    exit_status: int | None = None
    summaries: int = 0  # pauses on a round or battle summary
    confirmations: int = 0  # warned moves confirmed with y


def play(tmp_path: Path, name: str, args: list[str], *, colour: bool, answer: str = "1") -> Played:
    """Play ``oakwood play ARGS`` as P1, answering at every prompt with the next of the comma-separated
    ``answer`` (round and round) and with ``y`` when a warned move asks to be confirmed; returns what was
    shown."""
    answers = answer.split(",")
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}", "TERM": "xterm-256color"}
    for key in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR"):
        env.pop(key, None)
    if colour:
        env["FORCE_COLOR"] = "1"
    else:
        env["NO_COLOR"] = "1"
    command = ["-m", "oakwood.cli.main", "play", *args, "--delay", "0", "--db", str(tmp_path / "games.sqlite")]
    child = pexpect.spawn(sys.executable, command, env=env, cwd=str(ROOT), dimensions=(ROWS, COLUMNS), encoding="utf-8")
    screen = pyte.Screen(COLUMNS, ROWS)
    stream = pyte.Stream(screen)
    played = Played()
    try:
        for _ in range(2000):
            found = child.expect([PROMPT, RACE, PAUSE, pexpect.EOF, CONFIRM], timeout=TIMEOUT)
            chunk = child.before + (child.after if isinstance(child.after, str) else "")
            played.raw += chunk
            stream.feed(chunk)
            shown = "\n".join(line.rstrip() for line in screen.display)
            if found == 3:
                played.screens.append(shown)
                break
            if found == 4:  # a warned move: play it, as a person who means it would
                played.screens.append(shown)
                played.confirmations += 1
                check_confirm_screen(shown, name)
                child.send("y\r")
                continue
            if found == 0:
                played.screens.append(shown)
                check_prompt_screen(shown, name)
                child.send(answers[len(played.screens) % len(answers)] + "\r")
            elif found == 1:
                child.expect(r"Enter passes at once|press nothing", timeout=TIMEOUT)
                played.raw += child.before + child.after
                stream.feed(child.before + child.after)
                shown = "\n".join(line.rstrip() for line in screen.display)
                played.screens.append(shown)
                assert "· race!" in shown.split("\n")[0], f"{name}: the race board scrolled off:\n{shown}"
                child.send("\r")
            else:
                played.screens.append(shown)
                played.summaries += 1
                assert re.search(r"╭─ (Battle \d+ is over|Winter ends round \d+)", shown), shown
                child.send("\r")
        else:
            pytest.fail(f"{name}: no end after 2000 prompts")
    finally:
        child.close(force=True)
        played.exit_status = child.exitstatus
        save(tmp_path, name, played)
    return played


def check_prompt_screen(shown: str, name: str) -> None:
    """At a prompt: board title on top, a hand, a menu, and the prompt on the last used row."""
    rows = shown.split("\n")
    used = [row for row in rows if row.strip()]
    assert re.search(r"· P1 \(you\)", rows[0]), f"{name}: the board's title scrolled off:\n{shown}"
    assert re.match(PROMPT.strip(), used[-1]), f"{name}: the prompt is not the last line:\n{shown}"
    headings = [i for i, row in enumerate(used) if re.search(r"your move:|choose in secret", row)]
    assert headings, f"{name}: no heading:\n{shown}"
    assert MOVE_LINE.match(used[headings[-1] + 1]), f"{name}: no move menu under the heading:\n{shown}"
    hand = r"^[ >]P1 " if name.startswith("nutty") else r"Your hand"
    assert re.search(hand, shown, re.MULTILINE), f"{name}: the hand is not on screen:\n{shown}"


def check_confirm_screen(shown: str, name: str) -> None:
    """At the question after a warned move: the whole screen is still there (board title on top, the move
    menu), the warning is above the menu and the question is on the last used row."""
    rows = shown.split("\n")
    used = [row for row in rows if row.strip()]
    assert re.search(r"· P1 \(you\)", rows[0]), f"{name}: the board's title scrolled off:\n{shown}"
    assert re.match(r"are you sure\? \(y/n\) ›", used[-1]), f"{name}: the question is not the last line:\n{shown}"
    warning = [i for i, row in enumerate(used) if row.startswith("⚠ ")]
    headings = [i for i, row in enumerate(used) if re.search(r"your move:", row)]
    assert warning and headings and warning[-1] < headings[-1], f"{name}: no warning above the menu:\n{shown}"
    assert MOVE_LINE.match(used[headings[-1] + 1]), f"{name}: no move menu under the heading:\n{shown}"


def save(tmp_path: Path, name: str, played: Played) -> None:
    """Every screen, numbered, to ``NAME.screens.txt`` (and to ``$OAKWOOD_TRANSCRIPTS`` when set)."""
    text = "\n".join(f"──── screen {i + 1} ────\n{s}" for i, s in enumerate(played.screens))
    (tmp_path / f"{name}.screens.txt").write_text(text, encoding="utf-8")
    target = os.environ.get("OAKWOOD_TRANSCRIPTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        (Path(target) / f"{name}.screens.txt").write_text(text, encoding="utf-8")


GAMES = [
    ("squarrels-2p", ["squarrels", "--seats", "human,heuristic", "--seed", "3", "-o", "single_round=true"], "1"),
    ("barrell-2p", ["barrell", "--seats", "human,heuristic", "--seed", "3"], "1"),
    ("nutty-2p", ["nutty", "--seats", "human,heuristic", "--seed", "3"], "1"),
    ("nutty-solo", ["nutty", "--solo", "--seed", "3", "-o", "solo_max_actions=60"], "1,2,1,3"),
    # The most crowded tables.
    (
        "squarrels-6p",
        ["squarrels", "--seats", "human" + ",heuristic" * 5, "--seed", "5", "-o", "single_round=true"],
        "1",
    ),
    ("barrell-4p", ["barrell", "--seats", "human" + ",heuristic" * 3, "--seed", "5"], "1"),
    ("nutty-6p", ["nutty", "--seats", "human" + ",heuristic" * 5, "--seed", "5"], "1"),
]


@pytest.mark.parametrize(("name", "args", "answer"), GAMES, ids=[g[0] for g in GAMES])
def test_whole_game_fits_80x24_without_colour(tmp_path: Path, name: str, args: list[str], answer: str) -> None:
    played = play(tmp_path, name, args, colour=False, answer=answer)
    assert len(played.screens) >= 3
    assert "Final result" in played.screens[-1] or "Final result" in played.raw, played.screens[-1]
    assert "Traceback" not in played.raw
    assert not SGR.search(played.raw), "NO_COLOR is set, yet the output has colour codes"
    assert played.exit_status == 0
    if name.startswith("barrell"):
        assert played.summaries >= 1  # at least the first battle paused before the next deal
    if name == "nutty-solo":
        assert played.confirmations >= 1  # this deal reaches a warned move: its screen was checked too
    else:
        assert played.confirmations == 0  # only Nutty solo warns of a move


def test_colour_on_a_terminal(tmp_path: Path) -> None:
    played = play(tmp_path, "barrell-colour", GAMES[1][1], colour=True)
    assert played.exit_status == 0
    assert "\x1b[1;31m" in played.raw or "\x1b[31m" in played.raw, "no red hearts or diamonds"
    assert "\x1b[2m" in played.raw, "face-down cards are not dim"


def test_refused_moves_and_the_log_keep_the_screen_whole(tmp_path: Path) -> None:
    """A refused move and a hint are shown on the redrawn screen (typing errors again and again scrolls
    nothing away); the log pager returns to the same screen."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}", "TERM": "xterm", "NO_COLOR": "1"}
    for key in ("COLUMNS", "LINES", "PAGER"):
        env.pop(key, None)
    args = ["-m", "oakwood.cli.main", "play", *GAMES[1][1], "--delay", "0", "--db", str(tmp_path / "g.sqlite")]
    child = pexpect.spawn(sys.executable, args, env=env, cwd=str(ROOT), dimensions=(ROWS, COLUMNS), encoding="utf-8")
    screen = pyte.Screen(COLUMNS, ROWS)
    stream = pyte.Stream(screen)

    def prompt() -> str:
        child.expect(PROMPT, timeout=TIMEOUT)
        stream.feed(child.before + child.after)
        return "\n".join(line.rstrip() for line in screen.display)

    try:
        prompt()
        for typed in ("zzz", "play 99♥", "pass", "hint"):
            child.send(typed + "\r")
            shown = prompt()
            check_prompt_screen(shown, "barrell-refusals")
            assert ("Hint:" if typed == "hint" else "✗") in shown, shown
        child.send("log\r")
        # less, with its prompt, or (without less) Oakwood's own pager
        own = child.expect(["q returns to the game", "q quit › "], timeout=TIMEOUT)
        child.send("q\r" if own else "q")
        check_prompt_screen(prompt(), "barrell-after-log")
        child.send("quit\r")
        child.expect(pexpect.EOF, timeout=TIMEOUT)
    finally:
        child.close(force=True)
