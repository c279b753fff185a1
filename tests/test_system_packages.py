"""``make test`` installs the Debian packages its checks need (Chromium, PostgreSQL, Caddy, Redis) when run as root, and
otherwise stops at once with the one command to run: ``scripts/system-packages``, run with a fake ``apt-get``."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "system-packages"


def run(tmp_path: Path, *, as_root: bool) -> subprocess.CompletedProcess[str]:
    """The script with Chromium, PostgreSQL and Caddy looked for in ``tmp_path`` (absent at first) and an
    ``apt-get`` that records its arguments and "installs" Chromium there."""
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    apt = fake / "apt-get"
    apt.write_text(
        f'#!/bin/sh\necho "$@" >> {tmp_path}/apt.log\ntouch {tmp_path}/chromium\nchmod +x {tmp_path}/chromium\n'
    )
    apt.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}",
        "OAKWOOD_CHROMIUM": str(tmp_path / "chromium"),
        "OAKWOOD_POSTGRES_GLOB": str(tmp_path / "postgresql" / "*" / "bin" / "initdb"),
        "OAKWOOD_CADDY": str(tmp_path / "caddy"),
        "OAKWOOD_REDIS_SERVER": str(tmp_path / "redis-server"),
    }
    command = [str(SCRIPT)]
    if not as_root and os.geteuid() == 0:
        if shutil.which("runuser") is None:
            pytest.fail("runuser is needed to run the script as another user")
        command = [
            "runuser",
            "-u",
            "nobody",
            "--",
            "env",
            *(f"{k}={v}" for k, v in env.items() if k != "HOME"),
            *command,
        ]
    elif as_root and os.geteuid() != 0:
        pytest.fail("this test runs as root (as CI does) to check the install path")
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)


def test_as_root_the_missing_packages_are_installed_with_apt_get(tmp_path: Path) -> None:
    done = run(tmp_path, as_root=True)
    assert done.returncode == 0, done.stderr
    assert "install -y -qq chromium postgresql caddy redis-server" in (tmp_path / "apt.log").read_text()


def test_otherwise_one_line_names_the_command_and_the_checks_stop(tmp_path: Path) -> None:
    done = run(tmp_path, as_root=False)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "make test needs these Debian packages: sudo apt-get install -y chromium postgresql caddy redis-server"
    )
    assert not (tmp_path / "apt.log").exists()


def test_only_what_is_missing_is_installed(tmp_path: Path) -> None:
    (tmp_path / "chromium").write_text("")
    (tmp_path / "chromium").chmod(0o755)
    initdb = tmp_path / "postgresql" / "15" / "bin" / "initdb"
    initdb.parent.mkdir(parents=True)
    initdb.write_text("")
    done = run(tmp_path, as_root=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "apt.log").read_text().split() == ["install", "-y", "-qq", "caddy", "redis-server"]


def test_nothing_is_done_when_all_are_there(tmp_path: Path) -> None:
    for name in ("chromium", "caddy", "redis-server"):
        (tmp_path / name).write_text("")
        (tmp_path / name).chmod(0o755)
    initdb = tmp_path / "postgresql" / "15" / "bin" / "initdb"
    initdb.parent.mkdir(parents=True)
    initdb.write_text("")
    done = run(tmp_path, as_root=True)
    assert done.returncode == 0 and done.stdout == done.stderr == ""
    assert not (tmp_path / "apt.log").exists()
