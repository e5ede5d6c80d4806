"""`hearts serve` from the command line: it starts, makes its data directory, and stops."""

from __future__ import annotations

import math
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from hearts.cli import build_parser
from hearts.web.settings import ENVIRONMENT, Settings, default_trusted_hosts

from helpers import run_serve


def test_serve_options() -> None:
    args = build_parser().parse_args(["serve", "--port", "8123", "--data-dir", "games"])
    assert (args.host, args.port, args.data_dir) == ("127.0.0.1", 8123, Path("games"))
    defaults = build_parser().parse_args(["serve"])
    assert (defaults.host, defaults.port, defaults.data_dir) == ("127.0.0.1", 8000, None)


def test_serve_help_names_every_settings_variable(capsys: pytest.CaptureFixture[str]) -> None:
    # An operator reading --help met $HEARTS_HTTPS in the docs and not in the help.
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert all(variable in said for variable in ENVIRONMENT.values())
    assert "docs/hardening.md#settings" in said


def test_serve_starts_and_makes_the_data_directory(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    data_dir = tmp_path / "fresh" / "data"
    hearts = Path(sys.executable).with_name("hearts")
    command = [str(hearts), "serve", "--port", str(port), "--data-dir", str(data_dir)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # A bound, not a speed limit: thirty seconds ran out once on a machine loaded twenty
        # deep. A server that stopped instead is told at once, with what it said.
        deadline = time.monotonic() + 120
        page = None
        while page is None and server.poll() is None and time.monotonic() < deadline:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
            except httpx.HTTPError:
                time.sleep(0.2)
        assert server.poll() is None, server.communicate()[1].decode()
        assert page is not None and page.status_code == 200
        assert "Hearts" in page.text
        created = httpx.post(f"http://127.0.0.1:{port}/api/games", json={}, timeout=30)
        assert created.status_code == 201
        assert (data_dir / "hearts.sqlite3").exists()
    finally:
        server.terminate()
        server.wait(timeout=30)
    # A stop on SIGTERM that went well is status 0, as a stop by Ctrl-C is.
    assert server.returncode == 0


def test_ctrl_c_stops_the_server_and_its_workers_in_one_clean_line(tmp_path: Path) -> None:
    # Ctrl-C reaches the whole process group: each computer player's worker printed a
    # KeyboardInterrupt traceback ("Process ForkServerProcess-1: ...") before the server's
    # own "Hearts stopped".
    import os
    import signal

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    hearts = Path(sys.executable).with_name("hearts")
    command = [str(hearts), "serve", "--port", str(port), "--data-dir", str(tmp_path / "data")]
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        address = f"http://127.0.0.1:{port}"
        for _ in range(150):
            try:
                httpx.get(address, timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        # A game makes the computer players choose their passes: their workers start.
        assert httpx.post(f"{address}/api/games", json={}, timeout=30).status_code == 201
        workers: list[int] = []
        for _ in range(150):
            workers = [
                int(entry)
                for entry in os.listdir("/proc")
                if entry.isdigit() and _group_of(int(entry)) == server.pid
                and int(entry) != server.pid
                and "forkserver" in Path(f"/proc/{entry}/cmdline").read_text(errors="replace")
            ]  # fmt: skip
            if len(workers) >= 2:  # the forkserver and at least one worker of it
                break
            time.sleep(0.2)
        assert len(workers) >= 2, workers
        os.killpg(server.pid, signal.SIGINT)
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=30)
    assert server.returncode == 0
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 2 and " Hearts stopped (" in lines[1], err


def _group_of(pid: int) -> int | None:
    import os

    try:
        return os.getpgid(pid)
    except OSError:
        return None


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
        "--header-timeout (HEARTS_HEADER_TIMEOUT) must be above 0 and at most 300 s."
    ]
    # No number that is not one: an expiry of NaN days matched every unfinished game in
    # PostgreSQL (NaN sorts above every number there) and removed them all at start-up.
    for text in ("nan", "NaN", "inf", "-inf", "1e400"):
        with pytest.raises(ValueError, match="HEARTS_EXPIRE_DAYS must be a number"):
            Settings.from_env({"HEARTS_EXPIRE_DAYS": text})
    assert Settings(expire_days=math.nan).problems() == [
        "HEARTS_EXPIRE_DAYS must be above 0 and at most 3650."
    ]
    assert Settings(cache_actions=-5, min_free_bytes=-1).problems() == [
        "HEARTS_CACHE_ACTIONS must be 0 or more (0: no games kept in memory).",
        "HEARTS_MIN_FREE_BYTES must be 0 or more.",
    ]


def test_serve_refuses_bad_settings_in_one_line(tmp_path: Path) -> None:
    data = ("--data-dir", str(tmp_path))
    done = run_serve("--header-timeout", "0", *data)
    assert done.returncode == 2
    assert (
        done.stderr.strip() == "hearts serve: --header-timeout must be above 0 and at most 300 s."
    )
    done = run_serve(*data, env={"HEARTS_GAMES_PER_HOUR": "many"})
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == "hearts serve: HEARTS_GAMES_PER_HOUR must be a whole number, not 'many'."
    )


def test_a_setting_is_named_as_it_was_given() -> None:
    from_env = Settings.from_env({"HEARTS_HEADER_TIMEOUT": "0", "HEARTS_DATABASE_POOL": "0"})
    assert from_env.problems() == [
        "HEARTS_HEADER_TIMEOUT must be above 0 and at most 300 s.",
        "HEARTS_DATABASE_POOL must be at least 1.",
    ]
    # A flag wins over its variable, and its problem names the flag.
    flagged = Settings.from_env({"HEARTS_HEADER_TIMEOUT": "5"}, header_timeout=0.0)
    assert flagged.problems() == ["--header-timeout must be above 0 and at most 300 s."]


SWITCHES = [name for name, value in vars(Settings()).items() if isinstance(value, bool)]


@pytest.mark.parametrize("name", SWITCHES)
def test_a_switch_takes_exactly_the_values_its_refusal_names(name: str) -> None:
    # HEARTS_API_DOCS=yes was taken while the refusal of a bad value said "1 or 0".
    variable = ENVIRONMENT[name]
    with pytest.raises(ValueError) as refused:
        Settings.from_env({variable: "maybe"})
    said = str(refused.value)
    assert said.startswith(f"{variable} must be ") and said.endswith("; not 'maybe'.")
    on, _, off = said.removeprefix(f"{variable} must be ").partition(" to turn it on, or ")
    named = {
        True: re.split(r", | or ", on),
        False: re.split(r", | or ", off.partition(" to turn it off")[0]),
    }
    assert named == {True: ["1", "true", "yes", "on"], False: ["0", "false", "no", "off"]}
    for value, words in named.items():
        for word in words:
            for written in (word, word.upper()):
                assert getattr(Settings.from_env({variable: written}), name) is value
    for unnamed in ("y", "n", "enabled", "2", "-1", "none"):
        with pytest.raises(ValueError, match=rf"^{variable} must be 1, true, yes or on to"):
            Settings.from_env({variable: unnamed})


@pytest.mark.parametrize("empty", ["", " "])
def test_a_variable_set_but_empty_is_refused(empty: str) -> None:
    # An empty HEARTS_DATABASE_URL once started a process on SQLite, behind nginx beside
    # processes on PostgreSQL: a game made on it was unknown to the others.
    with pytest.raises(ValueError, match=r"^HEARTS_DATABASE_URL is set but empty; give a "):
        Settings.from_env({"HEARTS_DATABASE_URL": empty})
    for variable in ("HEARTS_DATA_DIR", "HEARTS_HTTPS", "HEARTS_DATABASE_POOL"):
        with pytest.raises(ValueError, match=rf"^{variable} is set but empty; give it a value"):
            Settings.from_env({variable: empty})
    with pytest.raises(ValueError, match=r"^HEARTS_TRUSTED_PROXIES is set but empty"):
        Settings.from_env({"HEARTS_TRUSTED_PROXIES": empty + ", ,"})
    with pytest.raises(ValueError, match=r"^--database is empty; give a postgresql:// URL"):
        Settings.from_env({}, database_url=empty)


def test_an_empty_database_url_stops_the_server_in_one_line(tmp_path: Path) -> None:
    done = run_serve("--data-dir", str(tmp_path), env={"HEARTS_DATABASE_URL": ""})
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "hearts serve: HEARTS_DATABASE_URL is set but empty; give a postgresql:// URL, or unset"
        " it to keep games in SQLite in the data directory."
    )
    assert done.stdout == "" and not (tmp_path / "hearts.sqlite3").exists()


@pytest.mark.parametrize("proxies", ["*", "0.0.0.0/0", "127.0.0.1 ::/0", "proxy.internal"])
def test_trusted_proxies_are_addresses_never_a_wildcard(proxies: str) -> None:
    problems = Settings.from_env({"HEARTS_TRUSTED_PROXIES": proxies}).problems()
    assert len(problems) == 1 and problems[0].startswith("HEARTS_TRUSTED_PROXIES must list")
    flagged = Settings.from_env({}, trusted_proxies=tuple(proxies.split())).problems()
    assert len(flagged) == 1 and flagged[0].startswith("--trusted-proxy must list")
    fine = Settings.from_env({"HEARTS_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8 ::1"})
    assert fine.problems() == []


def test_a_wildcard_proxy_stops_the_server_in_one_line(tmp_path: Path) -> None:
    done = run_serve("--data-dir", str(tmp_path), env={"HEARTS_TRUSTED_PROXIES": "*"})
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "hearts serve: HEARTS_TRUSTED_PROXIES must list the proxies' addresses, never a"
        " wildcard ('*')."
    )
