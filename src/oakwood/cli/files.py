"""Files the command line reads or writes: option values read from a file, output paths checked up front.

Reading is bounded and never blocks: a path that is not a regular file (a named pipe, a device such as
``/dev/zero``, a directory) is refused from ``os.stat`` before it is opened, and the file is opened
non-blocking and checked again, so a path swapped for a pipe in between cannot hang the command either.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from .errors import CliInputError
from .messages import quote

#: The largest option value read from a file.
MAX_OPTION_FILE = 64 * 1024


def read_value_file(label: str, path: str) -> str:
    """The text of the file at ``path`` (UTF-8, at most 64 KiB, surrounding whitespace stripped).

    ``label`` names what was typed (``--option deck=@x.json``) in the one-line error for a missing,
    unreadable, too large, non-regular or non-UTF-8 file.
    """
    if not path:
        raise CliInputError(f"{label}: give a file name after '@' (write '@@' for a value starting with '@')")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise CliInputError(f"{label}: there is no file {quote(path)}") from None
    except OSError as exc:
        raise CliInputError(f"{label}: cannot read {quote(path)} ({exc.strerror})") from None
    except ValueError:  # a NUL character in the name
        raise CliInputError(f"{label}: {quote(path)} is not a file name") from None
    _check_regular(label, path, info)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise CliInputError(f"{label}: cannot read {quote(path)} ({exc.strerror})") from None
    try:
        _check_regular(label, path, os.fstat(fd))  # the file actually opened
        chunks = []
        size = 0
        while size <= MAX_OPTION_FILE:
            chunk = os.read(fd, MAX_OPTION_FILE + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise CliInputError(f"{label}: cannot read {quote(path)} ({exc.strerror})") from None
    finally:
        os.close(fd)
    if size > MAX_OPTION_FILE:
        raise CliInputError(f"{label}: {quote(path)} is larger than {MAX_OPTION_FILE // 1024} KiB")
    try:
        return b"".join(chunks).decode("utf-8").strip()
    except UnicodeDecodeError:
        raise CliInputError(f"{label}: {quote(path)} is not UTF-8 text") from None


def _check_regular(label: str, path: str, info: os.stat_result) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise CliInputError(f"{label}: {quote(path)} is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise CliInputError(f"{label}: {quote(path)} is not a regular file (a pipe or a device cannot be read)")
    if info.st_size > MAX_OPTION_FILE:
        raise CliInputError(f"{label}: {quote(path)} is larger than {MAX_OPTION_FILE // 1024} KiB")


def check_writable(flag: str, path: Path) -> None:
    """Refuse, before any work is done, an output path that cannot be written: a missing directory, a
    directory, or a place this user may not write to. Nothing is left behind by the check."""
    shown = f"{flag} {quote(str(path))}"
    try:
        _check_writable(shown, path)
    except CliInputError:  # a ValueError too, like every Oakwood error
        raise
    except OSError as exc:  # a name too long, a loop of links…
        raise CliInputError(f"{shown}: cannot be written ({exc.strerror or exc})") from None
    except ValueError:  # a NUL character in the name
        raise CliInputError(f"{shown}: is not a file name") from None


def _check_writable(shown: str, path: Path) -> None:
    if path.is_dir():
        raise CliInputError(f"{shown}: is a directory; give a file name")
    parent = path.parent
    if not parent.is_dir():
        raise CliInputError(f"{shown}: the directory {quote(str(parent))} does not exist")
    if path.exists():
        if not path.is_file():
            raise CliInputError(f"{shown}: is not a regular file")
        try:
            with open(path, "ab"):  # appending nothing changes nothing, but proves we may write
                pass
        except OSError as exc:
            raise CliInputError(f"{shown}: cannot be written ({exc.strerror})") from None
        return
    try:
        # Creating a file is what the write will do; permission bits alone do not tell (root, read-only mounts).
        fd, probe = tempfile.mkstemp(prefix=".oakwood-", dir=parent)
    except OSError as exc:
        raise CliInputError(f"{shown}: cannot create a file in {quote(str(parent))} ({exc.strerror})") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
