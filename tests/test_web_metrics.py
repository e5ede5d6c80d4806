"""The Prometheus metrics (`hearts.web.metrics`): counted by the app, served by `hearts serve`
on a listener of its own, bound to loopback, and off unless a port is given."""

from __future__ import annotations

import itertools
import logging
import re
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from hardening.server import HOST, Server, free_port
from hearts import Game, Rules
from hearts.web.app import create_app
from hearts.web.bots import advance_record
from hearts.web.logs import Outage
from hearts.web.metrics import Metrics
from hearts.web.settings import Settings
from hearts.web.stores import UNAVAILABLE, StoreUnavailable
from pg_support import Cluster

from helpers import run_serve

#: A metrics port for the app in the tests that run it in-process (nothing listens there).
IN_PROCESS = 9101

Key = tuple[str, frozenset[tuple[str, str]]]
"""A sample's name and labels."""
Samples = dict[Key, float]


def parse(text: str) -> Samples:
    """Prometheus's text format read back: (name, labels) -> value."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def key(name: str, **labels: str) -> Key:
    return name, frozenset(labels.items())


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get(key(name, **labels), 0.0)


def changes(before: Samples, after: Samples) -> Samples:
    """The samples whose value moved, by how much (the process's own figures left out)."""
    moved = {}
    for sample, now in after.items():
        if sample[0].startswith("hearts_") and now != before.get(sample, 0.0):
            moved[sample] = now - before.get(sample, 0.0)
    return moved


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path / "data", metrics_port=IN_PROCESS, games_per_hour=3)
    with TestClient(create_app(settings=settings, bot_workers=0)) as client:
        yield client


def scraped(client: TestClient) -> Samples:
    metrics: Metrics = client.app.state.metrics  # type: ignore[attr-defined]
    return parse(generate_latest(metrics.registry).decode())


def play_a_short_game(
    client: httpx.Client | TestClient, state: dict[str, Any] | None = None
) -> tuple[dict[str, Any], int]:
    """A game to 1 point (one round) against easy players (or the game `state` begins),
    played to its end: the last state, and the person's moves."""
    if state is None:
        state = client.post("/api/games", json={"rules": {"target_score": 1}}).json()
    mine = 0
    while state["phase"] != "game-over":
        game, move, view = state["id"], state["move"], state["view"]
        if state["phase"] == "passing":
            body = {"cards": view["hand"][: view["cards_to_pass"]], "move": move}
            answer = client.post(f"/api/games/{game}/pass", json=body)
        elif state["phase"] == "playing":
            answer = client.post(
                f"/api/games/{game}/play", json={"card": view["legal"][0], "move": move}
            )
        elif state["phase"] == "moon-choice":
            answer = client.post(f"/api/games/{game}/moon", json={"choice": "add", "move": move})
        else:
            answer = client.post(f"/api/games/{game}/next", json={"move": move})
        assert answer.status_code == 200, answer.text
        state = answer.json()
        mine += 1
    return state, mine


# --- counted by the app ---------------------------------------------------------------------


def test_a_game_moves_each_counter_by_what_was_done(app_client: TestClient) -> None:
    before = scraped(app_client)
    created = app_client.post("/api/games", json={}).json()
    view = created["view"]
    body = {"cards": view["hand"][: view["cards_to_pass"]], "move": created["move"]}
    passed = app_client.post(f"/api/games/{created['id']}/pass", json=body).json()
    card = {"card": passed["view"]["legal"][0], "move": passed["move"]}
    played = app_client.post(f"/api/games/{created['id']}/play", json=card).json()
    after = scraped(app_client)
    # Every move the person did not make, a computer player decided (easy, at this table).
    computers = played["move"] - 2
    assert computers > 0
    routes = ("/api/games", "/api/games/{game_id}/pass", "/api/games/{game_id}/play")
    moved = changes(before, after)
    # Each histogram's buckets and sum move too: the request's is checked by its count, and
    # the +Inf bucket (every observation) with it.
    timed = {s: moved.pop(s) for s in list(moved) if s[0].endswith(("_bucket", "_sum"))}
    assert moved == {
        **{
            key("hearts_http_requests_total", route=r, method="POST", status="2xx"): 1
            for r in routes
        },
        **{
            key("hearts_http_request_duration_seconds_count", route=r, method="POST"): 1
            for r in routes
        },
        key("hearts_games_started_total"): 1,
        key("hearts_moves_total", kind="pass"): 1,
        key("hearts_moves_total", kind="play"): 1,
        key("hearts_computer_decision_seconds_count", level="easy"): computers,
    }
    for route in routes:
        every = key(
            "hearts_http_request_duration_seconds_bucket", route=route, method="POST", le="+Inf"
        )
        assert timed[every] == 1
        assert (
            timed[key("hearts_http_request_duration_seconds_sum", route=route, method="POST")] > 0
        )
    assert (
        timed[key("hearts_computer_decision_seconds_bucket", level="easy", le="+Inf")] == computers
    )


def test_a_game_played_to_its_end_counts_as_finished(app_client: TestClient) -> None:
    before = scraped(app_client)
    state, mine = play_a_short_game(app_client)
    moved = changes(before, scraped(app_client))
    assert moved[key("hearts_games_started_total")] == 1
    assert moved[key("hearts_games_finished_total")] == 1
    kinds = ("pass", "play", "moon", "next")
    assert sum(moved.get(key("hearts_moves_total", kind=kind), 0) for kind in kinds) == mine
    decided = moved[key("hearts_computer_decision_seconds_count", level="easy")]
    assert decided == state["move"] - mine


def test_the_coachs_hints_and_reviews_are_timed_and_counted(app_client: TestClient) -> None:
    before = scraped(app_client)
    created = app_client.post("/api/games", json={"rules": {"target_score": 1}}).json()
    hint = app_client.post(f"/api/games/{created['id']}/hint", json={})
    assert hint.status_code == 200, hint.text
    assert app_client.post(f"/api/games/{created['id']}/hint", json={}).status_code == 200  # kept
    state, mine = play_a_short_game(app_client, created)
    review = app_client.get(f"/api/games/{state['id']}/review", params={"round": 1})
    assert review.status_code == 200, review.text
    reviewed = len(review.json()["decisions"])
    assert reviewed == mine  # the pass and every card of the one round
    after = scraped(app_client)
    moved = changes(before, after)
    assert moved[key("hearts_coach_seconds_count", kind="hint")] == 1
    assert moved[key("hearts_coach_seconds_sum", kind="hint")] > 0
    assert moved[key("hearts_coach_seconds_count", kind="review")] == reviewed
    assert moved[key("hearts_reviews_made_total", by="asked")] == reviewed
    assert value(after, "hearts_reviews_pending") == 0
    assert value(after, "hearts_reviews_dropped_total") == 0


def test_an_address_that_leads_nowhere_counts_under_one_label(app_client: TestClient) -> None:
    before = scraped(app_client)
    nowhere = ["/no-such-page", "/api/nothing/here", "/wp-login.php?x=1", "/api/games/abc/xyz"]
    for path in nowhere:
        assert app_client.get(path).status_code == 404
    # A path under a route is counted by its template: no game id is ever a label.
    assert app_client.get("/api/games/AbCdEf123").status_code == 404
    after = scraped(app_client)
    requests = "hearts_http_requests_total"
    unknown = {"route": "unknown", "method": "GET", "status": "4xx"}
    assert value(after, requests, **unknown) - value(before, requests, **unknown) == len(nowhere)
    game = {"route": "/api/games/{game_id}", "method": "GET", "status": "4xx"}
    assert value(after, requests, **game) - value(before, requests, **game) == 1
    labels = {label for _, pairs in after for _, label in pairs}
    assert not any("nothing" in label or "AbCdEf" in label or "wp-" in label for label in labels)
    # An odd method is "other", not its own label.
    app_client.request("BREW", "/api/options")
    other = {"route": "/api/options", "method": "other", "status": "4xx"}
    assert value(scraped(app_client), requests, **other) == 1


def test_quota_refusals_and_store_errors_are_counted_by_kind(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(3):  # the browser's quota in these tests
        assert app_client.post("/api/games", json={}).status_code == 201
    assert app_client.post("/api/games", json={}).status_code == 429
    store = app_client.app.state.service.store  # type: ignore[attr-defined]

    def away() -> None:
        raise StoreUnavailable("connection refused")

    def locked() -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store, "ping", away)
    assert app_client.get("/api/health").status_code == 503
    monkeypatch.setattr(store, "ping", locked)
    assert app_client.get("/api/health").status_code == 500
    samples = scraped(app_client)
    assert value(samples, "hearts_quota_refusals_total", kind="browser") == 1
    assert value(samples, "hearts_quota_refusals_total", kind="address") == 0
    assert value(samples, "hearts_store_errors_total", kind="unavailable") == 1
    assert value(samples, "hearts_store_errors_total", kind="error") == 1
    health = {"route": "/api/health", "method": "GET"}
    assert value(samples, "hearts_http_requests_total", status="5xx", **health) == 2


@contextmanager
def not_a_database(client: TestClient) -> Iterator[None]:
    """The SQLite file of `client`'s server overwritten with something that is no database
    (a restore gone wrong, another program), and put back as it was after."""
    store = client.app.state.service.store  # type: ignore[attr-defined]
    path: Path = store.path
    with closing(sqlite3.connect(path)) as db:  # every page in the file itself, none in the WAL
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    kept = path.read_bytes()
    path.write_bytes(b"not a database " * 1000)
    # A connection answers from the pages it holds until it reads the file again; new ones
    # (each thread of the server opens its own) read it at once. The old ones stay open
    # meanwhile: the last to close would copy the WAL into the file.
    held, store._local = store._local, threading.local()
    try:
        yield
    finally:
        path.write_bytes(kept)  # nothing was written meanwhile: the file as it was
        store._local = threading.local()
        del held


def test_a_sqlite_file_that_cannot_be_read_is_the_database_away(
    app_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    # The file overwritten under the server (a restore gone wrong, another program): every
    # request was an unexpected error with a traceback, and hearts_database_away stayed 0 on
    # SQLite, so the alert on it never fired. Now it counts as PostgreSQL's absences do.
    game = app_client.post("/api/games", json={}).json()
    names = ("away", "outages_total", "away_seconds_total")

    def database() -> tuple[float, ...]:
        samples = scraped(app_client)
        return tuple(value(samples, f"hearts_database_{name}") for name in names)

    assert database() == (0, 0, 0)
    with caplog.at_level(logging.INFO, logger="hearts"):
        with not_a_database(app_client):
            answers = [app_client.get("/api/health") for _ in range(2)]
            away, outages, _ = database()
        back = app_client.get("/api/health")
    assert [a.status_code for a in answers] == [503, 503] and back.status_code == 200
    assert answers[0].json() == {"detail": UNAVAILABLE}
    assert answers[0].headers["retry-after"] == "2"
    assert (away, outages) == (1, 1)
    assert database()[:2] == (0, 1) and database()[2] > 0
    samples = scraped(app_client)
    assert value(samples, "hearts_store_errors_total", kind="unavailable") == 2
    assert value(samples, "hearts_store_errors_total", kind="error") == 0
    said = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "hearts.web"]
    unavailable = ("WARNING", "database unavailable on GET /api/health: file is not a database")
    assert said == [unavailable, unavailable, ("INFO", said[-1][1])], said
    assert re.fullmatch(r"the database answers again after \d+ s away", said[-1][1])
    # Nothing was lost: the game goes on where it was.
    assert app_client.get(f"/api/games/{game['id']}").json()["move"] == game["move"]


def test_a_game_read_while_the_sqlite_file_cannot_be_read_is_not_called_damaged(
    app_client: TestClient,
) -> None:
    # A game not in the server's memory, read while SQLite could not read its file: the
    # person was told the saved game was damaged (500), and its live stream the same, as if
    # it were lost for good. As with PostgreSQL away, it is a moment's absence: 503 with
    # Retry-After, and the stream says it is reconnecting.
    game = app_client.post("/api/games", json={}).json()
    service = app_client.app.state.service  # type: ignore[attr-defined]
    service.forget([game["id"]])  # read from the store, not from memory
    with not_a_database(app_client):
        answer = app_client.get(f"/api/games/{game['id']}")
        with app_client.stream("GET", f"/api/games/{game['id']}/events") as stream:
            opened = stream.status_code, stream.read().decode()
        samples = scraped(app_client)
    assert (answer.status_code, answer.json()) == (503, {"detail": UNAVAILABLE})
    assert answer.headers["retry-after"] == "2"
    assert opened[0] == 200 and "event: reconnecting" in opened[1], opened
    assert UNAVAILABLE in opened[1] and "damaged" not in opened[1]
    assert value(samples, "hearts_database_away") == 1
    assert app_client.get(f"/api/games/{game['id']}").json()["move"] == game["move"]


def test_the_database_away_is_a_gauge_a_count_and_seconds() -> None:
    now = [100.0]
    outage = Outage(logging.getLogger("hearts.test.metrics"), lambda: now[0])
    metrics = Metrics()

    class Pool:
        waiting = 3

    metrics.watch(outage, Pool())

    def read() -> tuple[float, ...]:
        samples = parse(generate_latest(metrics.registry).decode())
        names = ("away", "outages_total", "away_seconds_total")
        return tuple(value(samples, f"hearts_database_{name}") for name in names)

    assert read() == (0, 0, 0)
    outage.failed()
    now[0] = 112.0
    outage.failed()
    assert read() == (1, 1, 12)
    outage.answered()
    now[0] = 200.0
    assert read() == (0, 1, 12)
    outage.failed()
    now[0] = 203.0
    assert read() == (1, 2, 15)
    samples = parse(generate_latest(metrics.registry).decode())
    assert value(samples, "hearts_computer_requests_waiting") == 3


def test_a_pool_worker_sends_its_decisions_back_with_its_moves() -> None:
    game = Game(Rules(), 7)
    person, *others = range(game.rules.players)
    view = game.view(person)
    game.give(person, view.hand[: view.cards_to_pass])  # the person passes; the others' turn
    levels = dict(zip(others, itertools.cycle(["medium", "easy"]), strict=False))
    moves, spent = advance_record(game.rules.to_dict(), 7, list(game.moves), levels, {})
    assert len(spent) == len(moves) > len(levels)  # a decision a move: passes, then cards
    assert {level for level, _ in spent} == {"easy", "medium"}
    assert all(seconds >= 0 for _, seconds in spent)


def test_metrics_are_off_by_default(tmp_path: Path) -> None:
    settings = Settings.from_env({})
    assert settings.metrics_port == 0 and settings.metrics_host == "127.0.0.1"
    # Off, requests are not even timed (no middleware): nothing is served to read them.
    with TestClient(create_app(settings=Settings(data_dir=tmp_path), bot_workers=0)) as client:
        assert client.get("/api/options").status_code == 200
        samples = scraped(client)
    assert not [name for name, _ in samples if name.startswith("hearts_http_")]


# --- the settings ---------------------------------------------------------------------------


def test_the_metrics_settings_are_checked_in_one_line_each() -> None:
    def problems(env: dict[str, str], **flags: Any) -> list[str]:
        return Settings.from_env(env, **flags).problems()

    assert problems({"HEARTS_METRICS_PORT": "9101"}) == []
    assert problems({}, metrics_port=9101, metrics_host="::1") == []
    assert problems({"HEARTS_METRICS_PORT": "70000"}) == [
        "HEARTS_METRICS_PORT must be between 1 and 65535 (0: no metrics), not 70000."
    ]
    assert problems({}, metrics_port=-1) == [
        "--metrics-port must be between 1 and 65535 (0: no metrics), not -1."
    ]
    assert problems({}, port=8001, metrics_port=8001) == [
        "--metrics-port must be a port of its own, not the game's (8001)."
    ]
    for wildcard in ("0.0.0.0", "::"):
        assert problems({"HEARTS_METRICS_PORT": "9101", "HEARTS_METRICS_HOST": wildcard}) == [
            f"HEARTS_METRICS_HOST must be one address of this machine, never every address"
            f" ({wildcard}): the metrics are for Prometheus alone."
        ]
    assert problems({}, metrics_port=9101, metrics_host="localhost") == [
        "--metrics-host must be an IP address of this machine (such as 127.0.0.1), not 'localhost'."
    ]
    # An address without a port would be a setting that quietly does nothing.
    assert problems({"HEARTS_METRICS_HOST": "10.0.0.5"}) == [
        "HEARTS_METRICS_HOST is set but the metrics are off: give --metrics-port"
        " (HEARTS_METRICS_PORT) too, or leave the address out."
    ]
    with pytest.raises(ValueError, match=r"^HEARTS_METRICS_PORT must be a whole number, not 'on'"):
        Settings.from_env({"HEARTS_METRICS_PORT": "on"})
    for variable in ("HEARTS_METRICS_PORT", "HEARTS_METRICS_HOST"):
        with pytest.raises(ValueError, match=rf"^{variable} is set but empty; give it a value"):
            Settings.from_env({variable: " "})
    with pytest.raises(ValueError, match=r"^--metrics-host is empty; give an IP address"):
        Settings.from_env({}, metrics_host="")


def test_serve_refuses_bad_metrics_settings_in_one_line(tmp_path: Path) -> None:
    data = ("--data-dir", str(tmp_path / "data"))
    done = run_serve("--metrics-port", "9101", "--metrics-host", "0.0.0.0", *data)
    assert done.returncode == 2
    assert done.stderr == (
        "hearts serve: --metrics-host must be one address of this machine, never every address"
        " (0.0.0.0): the metrics are for Prometheus alone.\n"
    )
    done = run_serve(*data, env={"HEARTS_METRICS_PORT": "ninety"})
    assert done.returncode == 2
    assert (
        done.stderr == "hearts serve: HEARTS_METRICS_PORT must be a whole number, not 'ninety'.\n"
    )
    assert not (tmp_path / "data").exists()


def test_a_taken_metrics_port_is_one_sentence(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_serve("--metrics-port", str(port), "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 1
    assert done.stderr == (
        f"hearts serve: Port {port} on 127.0.0.1 is taken by another program; stop it or"
        " choose another --metrics-port.\n"
    )
    assert done.stdout == "" and not (tmp_path / "data").exists()


# --- served by hearts serve -----------------------------------------------------------------


def listening(pid: int) -> set[tuple[str, int]]:
    """The (address, port) pairs process `pid` listens on over TCP, from /proc."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = fd.readlink().name
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    found = set()
    for table, width in (("tcp", 4), ("tcp6", 16)):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state != "0A" or inode not in inodes:  # 0A: LISTEN
                continue
            address, port = local.split(":")
            raw = bytes.fromhex(address)
            # /proc writes each 32-bit word in the machine's order (little-endian here).
            words = b"".join(raw[i : i + 4][::-1] for i in range(0, width, 4))
            family = socket.AF_INET if width == 4 else socket.AF_INET6
            found.add((socket.inet_ntop(family, words), int(port, 16)))
    return found


needs_proc = pytest.mark.skipif(
    not Path("/proc/net/tcp").exists() or sys.byteorder != "little",
    reason="reads the listening sockets from Linux's /proc",
)


@needs_proc
def test_without_a_metrics_port_only_the_game_listens(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    try:
        assert server.process is not None
        assert listening(server.process.pid) == {(HOST, server.port)}
        assert httpx.get(f"{server.url}/metrics", timeout=10).status_code == 404
    finally:
        server.stop()


@needs_proc
def test_hearts_serve_answers_prometheus_on_a_loopback_port_of_its_own(tmp_path: Path) -> None:
    port = free_port()
    server = Server(tmp_path / "data", args=("--metrics-port", str(port))).start()
    url = f"http://{HOST}:{port}/metrics"
    try:
        assert server.process is not None
        # Loopback by default; the game's port does not serve them (nginx passes that one on).
        assert listening(server.process.pid) == {(HOST, server.port), (HOST, port)}
        assert httpx.get(f"{server.url}/metrics", timeout=10).status_code == 404
        assert httpx.get(f"http://{HOST}:{port}/", timeout=10).status_code == 404

        answer = httpx.get(url, timeout=10)
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
        before = parse(answer.text)
        assert value(before, "process_cpu_seconds_total") > 0
        assert value(before, "process_open_fds") > 0
        assert value(before, "hearts_event_streams_open") == 0

        with httpx.Client(base_url=server.url, timeout=30) as browser:
            state, mine = play_a_short_game(browser)
            with browser.stream("GET", f"/api/games/{state['id']}/events") as stream:
                # Kept while the stream is read: a line iterator dropped closes the connection.
                lines = stream.iter_lines()
                for line in lines:
                    if line.startswith("event: state"):
                        break
                during = parse(httpx.get(url, timeout=10).text)
        after = parse(httpx.get(url, timeout=10).text)
        deadline = time.monotonic() + 10
        while value(after, "hearts_event_streams_open") and time.monotonic() < deadline:
            time.sleep(0.1)
            after = parse(httpx.get(url, timeout=10).text)
    finally:
        server.stop()
    assert value(during, "hearts_event_streams_open") == 1
    assert value(after, "hearts_event_streams_open") == 0
    moved = changes(before, after)
    assert value(moved, "hearts_games_started_total") == 1
    assert value(moved, "hearts_games_finished_total") == 1
    kinds = ("pass", "play", "moon", "next")
    assert sum(value(moved, "hearts_moves_total", kind=kind) for kind in kinds) == mine
    requests = "hearts_http_requests_total"
    posted = [f"/api/games/{{game_id}}/{kind}" for kind in kinds]
    assert sum(value(moved, requests, route=r, method="POST", status="2xx") for r in posted) == mine
    assert value(moved, requests, route="/api/games", method="POST", status="2xx") == 1
    opened = {"route": "/api/games/{game_id}/events", "method": "GET", "status": "2xx"}
    assert value(moved, requests, **opened) == 1
    decided = value(moved, "hearts_computer_decision_seconds_count", level="easy")
    assert decided == state["move"] - mine
    # The computer players decided in worker processes, whose CPU the process's own
    # figure leaves out: counted apart (starting a worker alone takes tenths of a second).
    assert value(moved, "hearts_worker_cpu_seconds_total") > 0


def test_a_database_that_refuses_writes_is_a_store_error_said_as_one(
    pg_cluster: Cluster, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A standby, or a database made read-only: every request was an "unexpected error" with
    # its traceback's place, and hearts_store_errors_total did not move, so no alert fired.
    import psycopg

    url = pg_cluster.new_database()
    settings = Settings(data_dir=tmp_path / "data", metrics_port=IN_PROCESS, database_url=url)
    with TestClient(create_app(settings=settings, bot_workers=0)) as client:
        game = client.post("/api/games", json={}).json()
        name = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
        with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
            admin.execute(  # the pool's sessions end: those it opens again are read-only
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )
        for _ in range(40):  # the pool's new sessions (the sessions ended count as away)
            if client.get("/api/health").status_code != 503:
                break
            time.sleep(0.25)
        before = value(scraped(client), "hearts_store_errors_total", kind="error")
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="hearts"):
            answers = [client.get("/api/health") for _ in range(3)]
            started = client.post("/api/games", json={})
            card = game["view"]["hand"][:3]
            passed = client.post(
                f"/api/games/{game['id']}/pass", json={"cards": card, "move": game["move"]}
            )
        assert [a.status_code for a in answers] == [500] * 3
        assert started.status_code == passed.status_code == 500
        assert passed.json()["detail"] == answers[0].json()["detail"]
        samples = scraped(client)
        assert value(samples, "hearts_store_errors_total", kind="error") - before == 5
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 5 and all(e.startswith("store error on ") for e in errors), errors
        assert "read-only transaction" in errors[0]
        # Writable again, the game goes on where it was.
        with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} RESET default_transaction_read_only")
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )
        for _ in range(40):
            if client.get("/api/health").status_code == 200:
                break
            time.sleep(0.25)
        assert client.get(f"/api/games/{game['id']}").json()["move"] == game["move"]
        again = client.post(
            f"/api/games/{game['id']}/pass", json={"cards": card, "move": game["move"]}
        )
        assert again.status_code == 200, again.text
