"""`hearts serve` as a real subprocess on a free 127.0.0.1 port, for tests that kill it."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

import httpx

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class PortTaken(RuntimeError):
    """The port looked up for a server was taken by another program before it bound it."""


class Server:
    """One `hearts serve` process over `data_dir`; `kill()` is SIGKILL, no goodbye."""

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        log: Path | None = None,
        args: tuple[str, ...] = (),
        files: tuple[int, int] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        """`args`: more `hearts serve` flags; `files`: start it with these soft and hard
        limits on open files, as a small server would have."""
        self.data_dir = data_dir
        self.args = args
        self.files = files
        self.env = env or {}
        #: A port of its own choosing may be taken again by another program before the
        #: server binds it (it was free when looked up): then the server tries another.
        self.any_port = port is None
        self.port = port or free_port()
        self.log = log
        self.log_path = log or data_dir.parent / f"server-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> Server:
        for _ in range(4):
            try:
                return self._start(timeout)
            except PortTaken:
                self.port = free_port()
                self.log_path = self.log or self.data_dir.parent / f"server-{self.port}.log"
        return self._start(timeout)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def _start(self, timeout: float) -> Server:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        command = [
            # The installed `hearts` script, as a person runs it (with `python -c` the
            # computer players would think in threads: pool workers cannot re-import stdin).
            str(Path(sys.executable).with_name("hearts")),
            "serve",
            "--host",
            HOST,
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            *self.args,
        ]
        env = {**os.environ, "HEARTS_DATA_DIR": str(self.data_dir), **self.env}
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
                preexec_fn=self._limit_files if self.files else None,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                said = self.log_path.read_text()[-2000:]
                self.process = None
                if self.any_port and f"Port {self.port} on {HOST} is taken" in said:
                    raise PortTaken(said)
                raise RuntimeError(f"the server exited: {said}")
            try:
                if httpx.get(f"{self.url}/api/options", timeout=1.0).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not answer within {timeout} s")

    def _limit_files(self) -> None:
        assert self.files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, self.files)

    def kill(self) -> None:
        """SIGKILL the server and its process group (the computer players' workers too)."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        """A polite stop (SIGTERM), waiting for a clean exit."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()
        self.process = None

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.kill()
