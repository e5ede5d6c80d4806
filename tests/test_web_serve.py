"""`hearts serve` from the command line: it starts, makes its data directory, and stops."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from hearts.cli import build_parser


def test_serve_options() -> None:
    args = build_parser().parse_args(["serve", "--port", "8123", "--data-dir", "games"])
    assert (args.host, args.port, args.data_dir) == ("127.0.0.1", 8123, Path("games"))
    defaults = build_parser().parse_args(["serve"])
    assert (defaults.host, defaults.port, defaults.data_dir) == ("127.0.0.1", 8000, None)


def test_serve_starts_and_makes_the_data_directory(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    data_dir = tmp_path / "fresh" / "data"
    hearts = Path(sys.executable).with_name("hearts")
    command = [str(hearts), "serve", "--port", str(port), "--data-dir", str(data_dir)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        page = None
        while page is None and time.monotonic() < deadline:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
            except httpx.HTTPError:
                time.sleep(0.2)
        assert page is not None and page.status_code == 200
        assert "Hearts" in page.text
        created = httpx.post(f"http://127.0.0.1:{port}/api/games", json={}, timeout=30)
        assert created.status_code == 201
        assert (data_dir / "hearts.sqlite3").exists()
    finally:
        server.terminate()
        server.wait(timeout=30)
    # uvicorn shuts down cleanly on SIGTERM, then re-raises it as its exit status.
    assert server.returncode in (0, -signal.SIGTERM)


def test_serve_refuses_a_bad_port(tmp_path: Path) -> None:
    hearts = Path(sys.executable).with_name("hearts")
    done = subprocess.run(
        [str(hearts), "serve", "--port", "70000", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "between 1 and 65535" in done.stderr
