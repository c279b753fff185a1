"""Golden playthrough: one full 4-player single-round S'Quarrels game between heuristic bots, as a spectator sees it.

The file ``golden/heuristic_4p_seed2024.txt`` holds every event as ``game.describe_event(view)`` for a
spectator, then the final scores and winners. The test replays the game and compares line by line, so any
change to the rules, the RNG, the bot or the English wording shows up as a readable diff.

To regenerate the file on purpose (after an intended change), run either::

    OAKWOOD_UPDATE_GOLDEN=1 .venv/bin/pytest tests/games/squarrels/test_golden.py
    .venv/bin/python -m tests.games.squarrels.test_golden

and review the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import oakwood
from oakwood.arena.match import play_match
from oakwood.games.squarrels.heuristic import SQuarrelsHeuristic

SEED = 2024
PLAYERS = 4
GOLDEN_FILE = Path(__file__).parent / "golden" / f"heuristic_{PLAYERS}p_seed{SEED}.txt"


def playthrough() -> str:
    """The text of the golden game: a header, one line per spectator event, the final scores."""
    game = oakwood.load("squarrels", single_round=True)
    agents = [SQuarrelsHeuristic(seed=seat) for seat in range(PLAYERS)]
    result = play_match(game, agents, SEED)
    lines = [
        f"# S'Quarrels golden playthrough: {PLAYERS} players, single round, match seed {SEED}, "
        f"heuristic bots seeded 0..{PLAYERS - 1}.",
        "# Regenerate: OAKWOOD_UPDATE_GOLDEN=1 pytest tests/games/squarrels/test_golden.py",
    ]
    lines.extend(game.describe_event(view) for view in result.state.events_seen_by(None))
    scores = ", ".join(f"P{seat + 1} {int(score)}" for seat, score in enumerate(result.scores))
    lines.append(f"Final scores: {scores}")
    lines.append(f"Winners: {', '.join(f'P{seat + 1}' for seat in result.winners)}")
    return "\n".join(lines) + "\n"


def write_golden() -> None:
    """Regenerate the golden file."""
    GOLDEN_FILE.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN_FILE.write_text(playthrough(), encoding="utf-8")


def test_golden_playthrough() -> None:
    if os.environ.get("OAKWOOD_UPDATE_GOLDEN"):
        write_golden()
    expected = GOLDEN_FILE.read_text(encoding="utf-8").splitlines()
    actual = playthrough().splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"line {number} of {GOLDEN_FILE.name} differs"
    assert len(actual) == len(expected)
    assert actual[-2].startswith("Final scores: ") and any("Winter ends round 1" in line for line in actual)


if __name__ == "__main__":
    write_golden()
    print(f"wrote {GOLDEN_FILE}")
