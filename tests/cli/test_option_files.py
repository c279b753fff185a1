"""``--option KEY=@PATH``: the value is read from a regular file, bounded, and never from a pipe or device."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oakwood.cli.common import load_game, parse_option_pairs
from oakwood.cli.errors import CliInputError
from oakwood.cli.files import MAX_OPTION_FILE, check_writable
from oakwood.cli.main import app
from tests.cli.toygame import TOY_NAME


def test_the_value_is_the_files_text(tmp_path: Path) -> None:
    rounds = tmp_path / "rounds.txt"
    rounds.write_text("2\n", encoding="utf-8")
    assert parse_option_pairs([f"rounds=@{rounds}"]) == {"rounds": "2"}
    assert load_game(TOY_NAME, [f"rounds=@{rounds}"]).options.rounds == 2
    assert parse_option_pairs(["name=@@home"]) == {"name": "@home"}  # '@@' is a literal '@'


def test_a_file_value_works_on_the_command_line(tmp_path: Path) -> None:
    rounds = tmp_path / "rounds.txt"
    rounds.write_text("1", encoding="utf-8")
    args = ["simulate", TOY_NAME, "-g", "4", "-s", "random,random", "-w", "1", "-o", f"rounds=@{rounds}"]
    result = CliRunner().invoke(app, [*args, "--json", str(tmp_path / "out.json")])
    assert result.exit_code == 0, result.output
    assert '"rounds": 1' in (tmp_path / "out.json").read_text(encoding="utf-8")


def refused(value: str) -> str:
    with pytest.raises(CliInputError) as error:
        parse_option_pairs([f"rounds={value}"])
    return str(error.value)


def test_a_named_pipe_is_refused_before_it_is_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer forever
    message = refused(f"@{fifo}")
    assert message.startswith("--option rounds=@")  # what was typed (shortened if long), then why
    assert message.endswith("' is not a regular file (a pipe or a device cannot be read)")


def test_devices_directories_and_missing_files_are_refused(tmp_path: Path) -> None:
    assert "'/dev/zero' is not a regular file" in refused("@/dev/zero")
    assert refused(f"@{tmp_path}").endswith("' is a directory, not a file")  # (temporary paths may be long)
    assert ": there is no file '" in refused(f"@{tmp_path / 'none'}")
    assert "give a file name after '@'" in refused("@")


def test_too_large_and_not_utf8_files_are_refused(tmp_path: Path) -> None:
    large = tmp_path / "large.json"
    large.write_bytes(b"1" * (MAX_OPTION_FILE + 1))
    assert "is larger than 64 KiB" in refused(f"@{large}")
    exactly = tmp_path / "exactly.txt"
    exactly.write_bytes(b" " * (MAX_OPTION_FILE - 1) + b"3")
    assert parse_option_pairs([f"rounds=@{exactly}"]) == {"rounds": "3"}  # 64 KiB itself is allowed
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00")
    assert "is not UTF-8 text" in refused(f"@{binary}")


def test_output_paths_are_checked_without_leaving_anything(tmp_path: Path) -> None:
    check_writable("--json", tmp_path / "new.json")
    assert list(tmp_path.iterdir()) == [], "the check leaves no probe file behind"
    existing = tmp_path / "old.json"
    existing.write_text("keep", encoding="utf-8")
    check_writable("--json", existing)
    assert existing.read_text(encoding="utf-8") == "keep"
    with pytest.raises(CliInputError, match="is a directory"):
        check_writable("--json", tmp_path)
    with pytest.raises(CliInputError, match="does not exist"):
        check_writable("--json", tmp_path / "missing" / "r.json")
    with pytest.raises(CliInputError, match="cannot create a file"):
        check_writable("--json", Path("/proc/oakwood.json"))  # not writable, even for root
