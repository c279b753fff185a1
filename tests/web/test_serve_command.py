"""``oakwood serve`` refuses what it cannot do in one line: a bad port, a port in use, a bad database."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oakwood.cli.errors import CliInputError
from oakwood.cli.main import app
from oakwood.cli.serve_command import _check_port_free, _local_address

runner = CliRunner()


def test_a_port_that_is_not_one_is_refused() -> None:
    result = runner.invoke(app, ["serve", "--port", "99999"], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "--port" in result.output and "65535" in result.output


def test_a_port_in_use_is_refused_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = runner.invoke(
            app, ["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}"], env={"COLUMNS": "200"}
        )
    assert result.exit_code != 0 and f"port {port} is in use" in result.output
    assert "Traceback" not in result.output


def test_an_ipv6_host_is_probed_as_ipv6_and_a_port_it_holds_is_refused(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET6) as holder:
        holder.bind(("::1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        _check_port_free("::1", free_port_v6())  # an IPv6 host is not refused for being one (it was: AF_INET)
        with pytest.raises(CliInputError, match=f"port {port} is in use"):
            _check_port_free("::1", port)


def test_the_address_printed_for_a_host_is_one_a_browser_opens() -> None:
    assert [_local_address(h) for h in ("0.0.0.0", "::", "::1", "127.0.0.1", "games.lan")] == [
        "127.0.0.1",
        "[::1]",
        "[::1]",
        "127.0.0.1",
        "games.lan",
    ]


def free_port_v6() -> int:
    """A port nothing listens on at ::1 now."""
    with socket.socket(socket.AF_INET6) as probe:
        probe.bind(("::1", 0))
        return int(probe.getsockname()[1])


def test_a_host_that_is_not_one_is_refused_in_one_line(tmp_path: Path) -> None:
    flags = ["--host", "no such host.invalid", "--db", f"sqlite:///{tmp_path / 'x.db'}"]
    result = runner.invoke(app, ["serve", *flags], env={"COLUMNS": "200"})
    assert result.exit_code != 0 and "--host" in result.output and "Traceback" not in result.output


def test_a_database_that_cannot_be_opened_is_refused(tmp_path: Path) -> None:
    not_a_database = tmp_path / "notes.db"
    not_a_database.write_text("hello, this is not SQLite\n" * 100)
    result = runner.invoke(app, ["serve", "--db", f"sqlite:///{not_a_database}"], env={"COLUMNS": "200"})
    assert result.exit_code != 0 and "Traceback" not in result.output and result.output.strip()


def test_bad_seconds_are_refused() -> None:
    result = runner.invoke(app, ["serve", "--bot-pace", "soon"], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "--bot-pace" in result.output
