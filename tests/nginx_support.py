"""Debian's nginx running the shipped site (deploy/nginx-hearts.conf) on a free loopback
port, in front of the servers a test gives it, for tests of what nginx itself answers.

nginx that is missing skips such a test, unless HEARTS_REQUIRE_NGINX=1 (CI), which makes it
fail instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

import pytest

SITE = Path(__file__).parent.parent / "deploy" / "nginx-hearts.conf"
HOST = "127.0.0.1"


def nginx_path() -> str:
    """Debian's nginx (/usr/sbin is not on every user's PATH); a skip when it is missing,
    or a failure under HEARTS_REQUIRE_NGINX=1 (CI: `make test` installs it when root)."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
    if found:
        return found
    if os.environ.get("HEARTS_REQUIRE_NGINX") == "1":
        pytest.fail("nginx required (HEARTS_REQUIRE_NGINX=1) but not installed")
    pytest.skip("nginx is not installed")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def site(upstreams: list[int], port: int, edits: dict[str, str] | None = None) -> str:
    """The shipped site with its placeholders filled in (and `edits`, text for text)."""
    text = SITE.read_text()
    servers = " ".join(f"server {HOST}:{upstream};" for upstream in upstreams)
    text = text.replace("@UPSTREAMS@", servers).replace("@PORT@", str(port))
    for old, new in (edits or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    return text


def main_conf(folder: Path, daemon: bool = False) -> str:
    """nginx.conf around the site, everything of nginx's in `folder`."""
    temp = folder / "temp"
    temp.mkdir(exist_ok=True)
    paths = " ".join(
        f"{kind}_temp_path {temp};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"daemon {'on' if daemon else 'off'}; pid {folder}/nginx.pid;"
        f" error_log {folder}/error.log;\n"
        "events { worker_connections 64; }\n"
        f"http {{ access_log off; {paths} include {folder}/site.conf; }}\n"
    )


class Nginx:
    """The shipped site under nginx in front of `upstreams` (loopback ports), `edits` made to
    it; a context manager that starts it and stops it."""

    def __init__(
        self, folder: Path, upstreams: list[int], edits: dict[str, str] | None = None
    ) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "site.conf").write_text(site(upstreams, self.port, edits))
        (folder / "nginx.conf").write_text(main_conf(folder))
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Nginx:
        command = [nginx_path(), "-c", str(self.folder / "nginx.conf"), "-p", str(self.folder)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        for _ in range(200):
            if self.process.poll() is not None:
                said = self.process.stderr.read() if self.process.stderr else b""
                raise RuntimeError(f"nginx did not start: {said.decode(errors='replace')}")
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.__exit__(None, None, None)
        raise RuntimeError("nginx did not listen")

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None
