"""The ``oakwood`` command group: every failure ends as one line and an exit code, never a traceback.

The argument parser's own errors (an unknown flag, a missing argument) would otherwise be a usage block and
a framed panel that quote a bad value in full; an unexpected exception would be a traceback. Both are
caught here, around the whole command, so the commands themselves only raise.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from typer.core import TyperGroup

from .errors import EXIT_FAILURE, print_error

#: Set this environment variable to see the traceback of an unexpected error (for developers).
DEBUG_VARIABLE = "OAKWOOD_DEBUG"


class OakwoodGroup(TyperGroup):
    """A Typer group whose ``main`` turns every error into one line on standard error."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command; in standalone mode (the script, the test runner) exit with its code."""
        if not standalone_mode:  # a caller that handles errors itself
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except BrokenPipeError:
            _quiet_stdout()
            sys.exit(EXIT_FAILURE)
        except Exception as exc:  # the last line of defence: no traceback reaches a person
            _fail(exc)
        sys.exit(code if isinstance(code, int) else 0)


def _fail(exc: Exception) -> NoReturn:
    """Report an exception that escaped a command as one line, and exit."""
    kind = type(exc).__name__
    # The parser's exceptions (whether from Typer's bundled Click or Click itself) carry these two members.
    if hasattr(exc, "format_message") and isinstance(getattr(exc, "exit_code", None), int):
        if kind == "NoArgsIsHelpError":  # ``oakwood`` alone: the help is the answer, not an error
            exc.show()  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        context = getattr(exc, "ctx", None)
        hint = f" (see '{context.command_path} --help')" if context is not None else ""
        print_error(f"{exc.format_message()}{hint}")
        sys.exit(exc.exit_code)  # type: ignore[attr-defined]
    if kind == "Abort":  # end of input at a prompt of the parser's own
        print_error("aborted")
        sys.exit(EXIT_FAILURE)
    if os.environ.get(DEBUG_VARIABLE):
        raise exc
    print_error(f"unexpected internal error ({kind}: {exc}); please report it (set {DEBUG_VARIABLE}=1 for details)")
    sys.exit(EXIT_FAILURE)


def _quiet_stdout() -> None:
    """After a closed pipe (``oakwood games | head -1``), point standard output at /dev/null so that the
    interpreter's final flush cannot fail with a second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
