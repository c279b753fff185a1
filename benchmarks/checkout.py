"""Which ``oakwood`` a benchmark runs: this checkout's sources, or a build that PYTHONPATH names.

Every benchmark imports this module before ``oakwood`` (it lies beside them: a script run as
``python benchmarks/NAME.py`` finds it). It puts this checkout's ``src`` before the installed package, so that a
benchmark run in a second work tree (``git worktree``) measures that tree's code, not the editable install's;
but after the entries of PYTHONPATH, so that ``PYTHONPATH=build/compiled python benchmarks/NAME.py`` runs the
compiled build (issue 36). Until 2026-12-05 the scripts put ``src`` first of all, and a run meant to be compiled
ran the pure sources without a word: ``strength.json``'s times now name the form that was timed.

It also makes a run stopped by Ctrl-C end with one line instead of Python's traceback (``stopped_in_one_line``):
the runs are long, and stopping one is an ordinary thing to do. Every other error keeps its traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import TracebackType

SOURCES = str(Path(__file__).resolve().parent.parent / "src")


def pythonpath_entries() -> int:
    """How many entries PYTHONPATH put at the front of ``sys.path`` (after the script's own directory)."""
    return len([entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry])


_FRONT = 1 + pythonpath_entries()  # the script's directory and PYTHONPATH's entries
if SOURCES not in sys.path[:_FRONT]:
    sys.path.insert(_FRONT, SOURCES)


def stopped_in_one_line(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    """``sys.excepthook``: Ctrl-C, met by a script itself or by ``simulate`` (which stops its workers and raises
    ``SimulationStopped``), prints one line; anything else Python's usual traceback."""
    if issubclass(kind, KeyboardInterrupt):
        print("stopped (Ctrl-C)", file=sys.stderr)
        return
    simulate = sys.modules.get("oakwood.arena.simulate")  # never imported here: only a run of games raises it
    if simulate is not None and isinstance(error, simulate.SimulationStopped):
        print(f"stopped: {error.reason}, after {len(error.records)} finished games", file=sys.stderr)
        return
    sys.__excepthook__(kind, error, trace)


sys.excepthook = stopped_in_one_line
