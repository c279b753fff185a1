"""Which ``oakwood`` a benchmark runs: this checkout's sources, or a build that PYTHONPATH names.

Every benchmark imports this module before ``oakwood`` (it lies beside them: a script run as
``python benchmarks/NAME.py`` finds it). It puts this checkout's ``src`` before the installed package, so that a
benchmark run in a second work tree (``git worktree``) measures that tree's code, not the editable install's;
but after the entries of PYTHONPATH, so that ``PYTHONPATH=build/compiled python benchmarks/NAME.py`` runs the
compiled build (issue 36). Until 2026-12-05 the scripts put ``src`` first of all, and a run meant to be compiled
ran the pure sources without a word: ``strength.json``'s times now name the form that was timed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SOURCES = str(Path(__file__).resolve().parent.parent / "src")


def pythonpath_entries() -> int:
    """How many entries PYTHONPATH put at the front of ``sys.path`` (after the script's own directory)."""
    return len([entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry])


_FRONT = 1 + pythonpath_entries()  # the script's directory and PYTHONPATH's entries
if SOURCES not in sys.path[:_FRONT]:
    sys.path.insert(_FRONT, SOURCES)
