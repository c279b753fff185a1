"""A throwaway PostgreSQL server for the store tests.

CI (``.ci/run``) starts one and exports its URL as ``OAKWOOD_TEST_POSTGRES_URL``. Without that variable the
tests start their own from Debian's binaries (``/usr/lib/postgresql/*/bin``): a temporary data directory,
a server listening only on a Unix socket inside it, no fsync; stopped and deleted when the tests end. Run
as root, the server runs as the ``postgres`` user (initdb refuses root).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

URL_VARIABLE = "OAKWOOD_TEST_POSTGRES_URL"
MISSING = (
    "the PostgreSQL store tests need a PostgreSQL server: set {var} to a server's URL, or install Debian's "
    "binaries so the tests can start their own (apt-get install -y postgresql)"
)


@dataclass
class Cluster:
    """A running throwaway server: its URL (a superuser on a Unix socket) and how to stop it."""

    url: str
    directory: Path | None = None
    bin_dir: Path | None = None

    def stop(self) -> None:
        """Stop the server and delete its data (only for a server these tests started)."""
        if self.directory is None or self.bin_dir is None:
            return
        try:
            _as_postgres([str(self.bin_dir / "pg_ctl"), "stop", "-D", str(self.directory / "data"), "-m", "immediate"])
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def binaries() -> Path | None:
    """The newest Debian PostgreSQL bin directory with initdb, if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def _as_postgres(command: list[str]) -> None:
    """Run a server command, as the ``postgres`` user when we are root."""
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)


def start() -> Cluster:
    """The server to test against: ``$OAKWOOD_TEST_POSTGRES_URL``, else a new throwaway one."""
    url = os.environ.get(URL_VARIABLE)
    if url:
        return Cluster(url)
    bin_dir = binaries()
    if bin_dir is None:
        raise RuntimeError(MISSING.format(var=URL_VARIABLE))
    directory = Path(tempfile.mkdtemp(prefix="oakpg"))  # short: a socket path has at most ~100 characters
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
    data = directory / "data"
    try:
        _as_postgres([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync"])
        fast = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"  # throwaway data: no durability
        settings = f"-k {directory} -c listen_addresses='' {fast}"
        log = directory / "server.log"
        _as_postgres([str(bin_dir / "pg_ctl"), "start", "-w", "-D", str(data), "-l", str(log), "-o", settings])
    except (OSError, subprocess.SubprocessError) as exc:
        shutil.rmtree(directory, ignore_errors=True)
        detail = getattr(exc, "stderr", b"") or b""
        message = f"could not start a throwaway PostgreSQL server: {exc} {detail.decode(errors='replace')}"
        raise RuntimeError(message) from None
    return Cluster(f"postgresql+psycopg://postgres@/postgres?host={directory}", directory, bin_dir)
