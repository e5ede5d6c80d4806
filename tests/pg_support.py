"""A throwaway PostgreSQL cluster for the tests: initdb into a temporary directory as an
unprivileged user, listening on a free 127.0.0.1 port, removed at the end of the session.

`make test` installs Debian's postgresql-15 when it is missing (scripts/ensure-postgres.sh).
Without the binaries the PostgreSQL tests skip, unless HEARTS_REQUIRE_POSTGRES=1, which makes
them fail (CI sets it).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

BIN = Path(os.environ.get("HEARTS_PG_BIN", "/usr/lib/postgresql/15/bin"))
REQUIRED = os.environ.get("HEARTS_REQUIRE_POSTGRES") == "1"
HOST = "127.0.0.1"
SUPERUSER = "hearts"


#: How many free ports the first start of a cluster tries before it gives up.
PORT_TRIES = 5


class PortTaken(RuntimeError):
    """The port PostgreSQL was to listen on was bound by another process first."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class Cluster:
    """One PostgreSQL server in `directory`; `stop()` and `start()` for fault tests."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.data = directory / "data"
        self.port = free_port()
        self.log = directory / "postgres.log"

    def _run(self, *command: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        prefix: list[str] = []
        if os.geteuid() == 0:
            # initdb and postgres refuse root: run them as Debian's postgres user.
            prefix = ["runuser", "-u", "postgres", "--"]
        return subprocess.run(
            [*prefix, *command], capture_output=True, text=True, timeout=timeout, check=False
        )

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres", "postgres")
        self.directory.chmod(0o700)
        done = self._run(
            str(BIN / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "-A",
            "trust",
            "--no-sync",
            "-E",
            "UTF8",
        )
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr[-2000:]}")
        # The port was free when it was looked up, seconds ago (initdb came between): should
        # another process have bound it since, the first start tries another free port.
        for _ in range(PORT_TRIES - 1):
            try:
                self.start()
                return
            except PortTaken:
                self.port = free_port()
        self.start()

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.directory} -c listen_addresses={HOST}"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            " -c max_connections=200"
        )
        done = self._run(
            str(BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options,
            "-w", "-t", "60", "start",
        )  # fmt: skip
        if done.returncode != 0:
            said = self.log.read_text(errors="replace") if self.log.exists() else ""
            if "could not bind" in said and "Address already in use" in said:
                self.log.rename(self.log.with_suffix(f".port-{self.port}.log"))
                raise PortTaken(f"port {self.port} was taken")
            raise RuntimeError(f"PostgreSQL did not start: {done.stderr[-1000:]}")

    def stop(self) -> None:
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@{HOST}:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = "t_" + secrets.token_hex(6)
        with psycopg.connect(self.url(), autocommit=True, connect_timeout=10) as db:
            db.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return self.url(name)


def start_cluster() -> Iterator[Cluster]:
    if not (BIN / "initdb").exists():
        message = f"PostgreSQL 15 is not installed ({BIN}); make test installs it as root."
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    directory = Path(tempfile.mkdtemp(prefix="hearts-pg-"))
    cluster = Cluster(directory)
    try:
        try:
            cluster.init()
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as error:
            if REQUIRED:
                pytest.fail(f"the test PostgreSQL cannot start: {error}")
            pytest.skip(f"the test PostgreSQL cannot start: {error}")
        yield cluster
    finally:
        with contextlib.suppress(Exception):
            cluster.stop()
        shutil.rmtree(directory, ignore_errors=True)
