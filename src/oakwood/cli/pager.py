"""Long texts during play (the whole log, the rules) shown a screen at a time, searchable.

On a real terminal the system pager does it: ``$PAGER`` when set (given plain text), else ``less`` (given the
colours, ``-R``), whose ``/`` searches. Without either, :func:`own_pager` pages through the lines itself with
the same keys (Enter, ``b``, ``/word``, ``n``, ``q``). A transcript (pipes, tests) has no screen to page: the
text is printed whole.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from .terminal import Terminal


def page(term: Terminal, content: RenderableType, *, title: str) -> None:
    """Show ``content`` under ``title``: in a pager on a terminal, printed whole in a transcript."""
    console = term.console
    if not term.interactive:
        console.rule(Text(title, style="bold"), align="left")
        console.print(content)
        console.rule(Text(f"end · {title}", style="dim"), align="left")
        return
    command = _system_pager()
    if command is not None:
        plain = bool(os.environ.get("PAGER"))
        with console.capture() as captured:
            console.print(content)
        text = captured.get()
        if plain:
            text = Text.from_ansi(text).plain
        if _run_pager(command, f"{title}\n\n{text}"):
            return
    width = console.size.width
    lines = [line.plain.rstrip() for line in _text_lines(term, content)]
    own_pager(term, lines, title=title, height=max(console.size.height - 2, 3), width=width)


def _text_lines(term: Terminal, content: RenderableType) -> list[Text]:
    """``content`` as lines of styled text at the console's width."""
    console = term.console
    rendered = console.render_lines(content, console.options.update(height=None), pad=False)
    out = []
    for segments in rendered:
        line = Text()
        for segment in segments:
            if not segment.control:
                line.append(segment.text, segment.style)
        out.append(line)
    return out


def _system_pager() -> list[str] | None:
    """``$PAGER`` split into words, else ``less`` with colours and a prompt that says how to search."""
    chosen = os.environ.get("PAGER")
    if chosen:
        words = shlex.split(chosen)
        return words if words and shutil.which(words[0]) else None
    less = shutil.which("less")
    if less is None:
        return None
    return [less, "-R", "-Ps/ searches, n finds the next, q returns to the game (line %lt of %L)"]


def _run_pager(command: list[str], text: str) -> bool:
    """Run the pager on ``text``; False when it could not run (then the caller pages by itself)."""
    try:
        subprocess.run(command, input=text.encode("utf-8"), check=False)
    except OSError:
        return False
    return True


def own_pager(term: Terminal, lines: Sequence[str], *, title: str, height: int, width: int = 80) -> None:
    """Page through ``lines``, ``height`` at a time, reading a command after each screen: Enter (or space)
    the next screen, ``b`` the previous one, ``/word`` the next line holding ``word`` (any case), ``n`` the
    next match again, ``q`` back to the game. The last screen ends the pager by itself on Enter."""
    console = term.console
    top = 0
    last_search = ""
    message: Text | None = None
    while True:
        term.clear()
        shown = lines[top : top + height]
        for line in shown:
            console.print(Text(line), no_wrap=True, overflow="ellipsis", crop=True, width=width)
        if message is not None:
            console.print(message)
            message = None
        bottom = min(top + height, len(lines))
        where = f"{top + 1}–{bottom} of {len(lines)}"
        command = term.read_line(f"{where} · Enter more · b back · /word search · n next · q quit › ").strip()
        if command in ("q", "quit", "exit"):
            return
        if command.startswith("/") or command == "n":
            word = command[1:].strip().lower() if command.startswith("/") else last_search
            if not word:
                continue
            last_search = word
            found = next((i for i in range(top + 1, len(lines)) if word in lines[i].lower()), None)
            if found is None:
                found = next((i for i in range(0, top + 1) if word in lines[i].lower()), None)  # wrap around
            if found is None:
                message = Text(f"“{word}” is not in {title}", style="yellow")
                continue
            top = found
            continue
        if command == "b":
            top = max(0, top - height)
            continue
        if bottom >= len(lines):
            return
        top = bottom
