"""`hearts serve` from the command line: it starts, makes its data directory, and stops."""

from __future__ import annotations

import math
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from hearts.cli import build_parser
from hearts.web.settings import Settings, default_trusted_hosts


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


def test_serve_hardening_flags_reach_the_settings() -> None:
    args = build_parser().parse_args(
        [
            "serve",
            "--header-timeout",
            "5",
            "--api-docs",
            "--https",
            "--trusted-host",
            "a.example",
            "--trusted-host",
            "b.example",
            "--max-connections",
            "50",
        ]
    )
    assert (args.header_timeout, args.api_docs, args.https) == (5.0, True, True)
    assert args.trusted_host == ["a.example", "b.example"] and args.max_connections == 50
    defaults = build_parser().parse_args(["serve"])
    assert (defaults.api_docs, defaults.https, defaults.trusted_host) == (None, None, None)


def test_settings_come_from_defaults_then_environment_then_flags() -> None:
    env = {"HEARTS_HEADER_TIMEOUT": "7", "HEARTS_API_DOCS": "1", "HEARTS_EXPIRE_DAYS": "2.5"}
    settings = Settings.from_env(env, header_timeout=3.0, body_timeout=None)
    assert settings.header_timeout == 3.0  # the flag wins
    assert settings.body_timeout == Settings().body_timeout  # a flag not given changes nothing
    assert settings.api_docs is True and settings.expire_days == 2.5
    assert default_trusted_hosts("127.0.0.1") == ("localhost", "127.0.0.1", "::1")
    assert default_trusted_hosts("192.0.2.7")[-1] == "192.0.2.7"
    assert Settings(header_timeout=0).problems() == [
        "header timeout must be above 0 and at most 300 s."
    ]
    # No number that is not one: an expiry of NaN days matched every unfinished game in
    # PostgreSQL (NaN sorts above every number there) and removed them all at start-up.
    for text in ("nan", "NaN", "inf", "-inf", "1e400"):
        with pytest.raises(ValueError, match="HEARTS_EXPIRE_DAYS must be a number"):
            Settings.from_env({"HEARTS_EXPIRE_DAYS": text})
    assert Settings(expire_days=math.nan).problems() == [
        "expire days must be above 0 and at most 3650."
    ]
    assert Settings(cache_actions=-5, min_free_bytes=-1).problems() == [
        "cache actions must be 0 or more (0: no games kept in memory).",
        "min free bytes must be 0 or more.",
    ]


def run_serve(*flags: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    hearts = Path(sys.executable).with_name("hearts")
    return subprocess.run(
        [str(hearts), "serve", *flags],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_serve_refuses_bad_settings_in_one_line(tmp_path: Path) -> None:
    data = ("--data-dir", str(tmp_path))
    done = run_serve("--header-timeout", "0", *data)
    assert done.returncode == 2
    assert done.stderr.strip() == "header timeout must be above 0 and at most 300 s."
    done = run_serve(*data, env={"HEARTS_GAMES_PER_HOUR": "many"})
    assert done.returncode == 2
    assert done.stderr.strip() == "HEARTS_GAMES_PER_HOUR must be a whole number, not 'many'."
