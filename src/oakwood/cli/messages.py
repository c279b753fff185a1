"""Keeping what the CLI prints about user input short and on one line.

Anything a person typed may be huge (a 10 MB token pasted by mistake) or hold control characters (an escape
sequence that would redraw their terminal). Every message that quotes input goes through :func:`shorten`,
and every error line goes through :func:`one_line` as a safety net, which also catches messages built
elsewhere (the engine, the argument parser) that quote a value in full.
"""

from __future__ import annotations

import re

from oakwood.engine.errors import QUOTE_LIMIT, shown

#: The longest error line printed, whatever it quotes.
LINE_LIMIT = 400

# A long quoted value (kept in its quotes), or any other long run without spaces; one pass, so a shortened
# value is never shortened again.
_COUNT = re.compile(r" \([\d,]+ characters\)")
_LONG = re.compile(rf"(['\"])([^'\"\n]{{{QUOTE_LIMIT + 1},}})\1|\S{{{QUOTE_LIMIT + 1},}}")


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` if it has at most ``limit`` characters, else its start and ``… (N characters)``."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """A value as a message quotes it: ``repr`` (so control characters show as escapes), shortened (the engine's
    errors quote values the same way)."""
    return shown(text, limit)


def one_line(message: str, limit: int = LINE_LIMIT) -> str:
    """``message`` made safe to print as one line: long quotes and tokens shortened, the whole cut to about
    ``limit`` characters, control characters (newlines, escape sequences) shown as escapes."""
    text = _LONG.sub(_shorten_match, message)
    if len(text) > limit:
        text = text[:limit] + "…"
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _shorten_match(match: re.Match[str]) -> str:
    if _COUNT.match(match.string, match.end()):  # already shortened (shorten, quote, the engine's errors)
        return match.group(0)
    if match.group(1):
        return match.group(1) + shorten(match.group(2)) + match.group(1)
    return shorten(match.group(0))
