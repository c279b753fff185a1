"""Quoting what a person typed: at most about 80 characters of it, on one line, control characters escaped."""

from __future__ import annotations

from oakwood.cli.messages import QUOTE_LIMIT, one_line, quote, shorten


def test_shorten_keeps_short_text_and_counts_long_text() -> None:
    assert shorten("abc") == "abc"
    assert shorten("x" * QUOTE_LIMIT) == "x" * QUOTE_LIMIT
    assert shorten("x" * 1000) == "x" * QUOTE_LIMIT + "… (1,000 characters)"


def test_quote_escapes_and_shortens() -> None:
    assert quote("a\x1b[2Jb") == "'a\\x1b[2Jb'"
    assert quote("y" * 200) == repr("y" * QUOTE_LIMIT) + "… (200 characters)"


def test_one_line_shortens_whatever_a_message_quotes_in_full() -> None:
    engine_message = "option 'rounds' must be int; got " + repr("9" * 10_000_000)
    line = one_line(engine_message)
    assert line == "option 'rounds' must be int; got '" + "9" * QUOTE_LIMIT + "… (10,000,000 characters)'"
    assert one_line("No such option: --" + "z" * 500).endswith("… (502 characters)")
    spaced = one_line("got '" + "a b " * 100 + "' there")
    assert spaced.endswith("… (400 characters)' there")


def test_one_line_never_shortens_twice_and_escapes_control_characters() -> None:
    already = "unknown seat " + quote("w" * 500) + " in --seats"
    assert one_line(already) == already
    assert one_line("two\nlines\x1b[3J") == "two\\nlines\\x1b[3J"
    assert len(one_line("word " * 10_000)) <= 410
