"""Quotas against a real `hearts serve`: new games per browser and per address per hour,
a few unfinished games per browser, a cap on every list in the rules, old unfinished games
removed, and no new game when the disk is nearly full. The hourly counts across processes
and restarts are checked with app instances sharing one store, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from hearts.web.app import create_app
from hearts.web.quotas import EXPIRY_RETRY, HOUR, OverQuota, Quotas, expire_while_serving
from hearts.web.settings import Settings
from hearts.web.store import Away, Start, Starts, owner_key
from hearts.web.stores import StoreUnavailable, open_store
from hearts.web.tokens import COOKIE, Tokens

from .server import Server

#: A client address (one kept for documentation, RFC 5737).
ADDRESS = "203.0.113.9"


def game_ids(data_dir: Path) -> set[str]:
    with sqlite3.connect(data_dir / "hearts.sqlite3") as db:
        return {row[0] for row in db.execute("SELECT id FROM games")}


def test_new_games_per_browser_per_hour(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    env = {"HEARTS_GAMES_PER_HOUR": "3"}
    with Server(data_dir, env=env) as server, httpx.Client(base_url=server.url) as browser:
        for _ in range(3):
            assert browser.post("/api/games", json={}).status_code == 201
        refused = browser.post("/api/games", json={})
        assert refused.status_code == 429
        said = refused.json()["detail"]
        # Games started count, finished or not: the sentence says when, not "finish one".
        assert "3 games in the last hour: a new one can start in 60 minutes." in said
        assert "finish one" not in said
        assert 3590 <= int(refused.headers["retry-after"]) <= 3600
        assert len(game_ids(data_dir)) == 3
        # Another browser is not held back by this one.
        with httpx.Client(base_url=server.url) as other:
            assert other.post("/api/games", json={}).status_code == 201


def test_new_games_per_address_per_hour(tmp_path: Path) -> None:
    """A client that drops its cookie for each game still meets a limit."""
    env = {"HEARTS_GAMES_PER_HOUR_PER_ADDRESS": "4"}
    with Server(tmp_path / "data", env=env) as server:
        answers = []
        for _ in range(5):
            with httpx.Client(base_url=server.url) as fresh_browser:
                answers.append(fresh_browser.post("/api/games", json={}))
        assert [a.status_code for a in answers] == [201] * 4 + [429]
        assert "from this address" in answers[-1].json()["detail"]
        assert int(answers[-1].headers["retry-after"]) > 0


def test_the_hourly_quota_holds_for_a_browser_that_never_finishes_a_game(tmp_path: Path) -> None:
    # Its unfinished games past a few are closed as it starts more, and the hour's count was
    # of the games left: it never reached the limit (20 of 20 started with these settings).
    data_dir = tmp_path / "data"
    env = {"HEARTS_GAMES_PER_HOUR": "4", "HEARTS_UNFINISHED_PER_BROWSER": "2"}
    with Server(data_dir, env=env) as server, httpx.Client(base_url=server.url) as browser:
        answers = [browser.post("/api/games", json={}) for _ in range(6)]
        assert [a.status_code for a in answers] == [201] * 4 + [429] * 2
        said = answers[-1].json()["detail"]
        assert "started 4 games in the last hour: a new one can start in 60 minutes." in said
        assert len(game_ids(data_dir)) == 2  # the first two were closed, and still count


@contextmanager
def app_over(data_dir: Path, per_address: int) -> Iterator[TestClient]:
    """One app instance (a process behind nginx, say) over the store of `data_dir`, allowing
    `per_address` new games an hour from one address."""
    settings = Settings.from_env(data_dir=data_dir, games_per_hour_per_address=per_address)
    with TestClient(create_app(settings=settings, bot_workers=0)) as client:
        yield client


def fresh_browser_starts(client: TestClient, json: object = None) -> Any:
    """A new game from a browser that dropped its cookie."""
    client.cookies.clear()
    return client.post("/api/games", json={} if json is None else json)


def test_the_address_quota_holds_across_processes_and_restarts(
    database: str, tmp_path: Path
) -> None:
    # Each process kept its own count in memory: behind nginx with two of them an address
    # started twice the limit, and a restart forgot it.
    data_dir = tmp_path / "data"
    with app_over(data_dir, per_address=4) as one:
        with app_over(data_dir, per_address=4) as two:
            answers = [fresh_browser_starts(app) for app in (one, two, one, two, one, two)]
        assert [a.status_code for a in answers] == [201] * 4 + [429] * 2
        assert answers[-1].json() == {
            "detail": "Too many new games have started from this address in the last hour: a"
            " new one can start in about 60 minutes."
        }
        assert 3590 <= int(answers[-1].headers["retry-after"]) <= 3600
    with app_over(data_dir, per_address=4) as restarted:
        assert fresh_browser_starts(restarted).status_code == 429


def test_a_request_refused_for_its_seats_costs_no_start(tmp_path: Path) -> None:
    with app_over(tmp_path / "data", per_address=2) as app:
        for _ in range(3):
            # Past the schema's checks, refused by the service (two seats for "you").
            wrong = fresh_browser_starts(app, {"seats": ["you", "you", "easy"]})
            assert wrong.status_code == 422, wrong.text
        answers = [fresh_browser_starts(app).status_code for _ in range(3)]
    assert answers == [201, 201, 429]


def test_starts_racing_at_the_limit_from_two_processes_pass_only_up_to_it(
    database: str, tmp_path: Path
) -> None:
    # Each start is counted and added in one transaction: at the limit's edge the second of
    # two processes waits for the first and then counts its start.
    settings = Settings.from_env(
        data_dir=tmp_path / "data", games_per_hour_per_address=3, min_free_bytes=0
    )
    stores = [open_store(settings), open_store(settings)]
    processes = [Quotas(store, settings, Tokens(b"k" * 32).address_key) for store in stores]
    admitted: list[str] = []
    refused: list[int] = []
    together = threading.Barrier(8)

    def start(n: int) -> None:
        together.wait()
        try:
            admitted.append(processes[n % 2].admit(f"browser {n}", ADDRESS))
        except OverQuota as over:
            refused.append(over.status)

    threads = [threading.Thread(target=start, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in stores:
        store.close()
    assert len(admitted) == 3 and refused == [429] * 5


def test_starts_are_kept_for_an_hour(database: str, tmp_path: Path) -> None:
    now = [1_000_000.0]
    settings = Settings.from_env(
        data_dir=tmp_path / "data", games_per_hour_per_address=2, min_free_bytes=0
    )
    store = open_store(settings)
    key = Tokens(b"k" * 32).address_key
    quotas = Quotas(store, settings, key, clock=lambda: now[0])
    seen: list[Starts | None] = []

    def look(mine: Starts, here: Starts | None) -> None:
        seen.append(here)
        raise LookupError  # refused: nothing added

    try:
        quotas.admit("a", ADDRESS)
        now[0] += 600
        quotas.admit("b", ADDRESS)
        with pytest.raises(OverQuota) as over:
            quotas.admit("c", ADDRESS)
        assert over.value.retry_after == HOUR - 600
        now[0] += HOUR - 600  # the first start's hour is over, the second's is not
        quotas.admit("c", ADDRESS)
        now[0] += 2 * HOUR
        quotas.expire()  # a quiet site, where no start removes them, loses them too
        with pytest.raises(LookupError):
            store.add_start(Start("look", "d", key(ADDRESS), 0.0), -1.0, look)
    finally:
        store.close()
    assert seen == [Starts(0, None)]


def test_the_address_is_kept_only_as_a_keyed_hash(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with Server(data_dir) as server, httpx.Client(base_url=server.url) as browser:
        assert browser.post("/api/games", json={}).status_code == 201
        cookie = browser.cookies[COOKIE]
    with sqlite3.connect(data_dir / "hearts.sqlite3") as db:
        rows = db.execute("SELECT owner, address FROM starts").fetchall()
    tokens = Tokens.in_directory(data_dir)
    assert rows == [(owner_key(cookie), tokens.address_key("127.0.0.1"))]
    # Keyed by the secret, which is not in the database: a copy of the database alone cannot
    # be searched for an address by hashing every one.
    assert tokens.address_key("127.0.0.1") != Tokens(b"k" * 32).address_key("127.0.0.1")
    for name in ("hearts.sqlite3", "hearts.sqlite3-wal"):
        path = data_dir / name
        assert not path.exists() or b"127.0.0.1" not in path.read_bytes()


def test_a_browser_keeps_a_few_unfinished_games_and_the_oldest_goes(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    env = {"HEARTS_UNFINISHED_PER_BROWSER": "2"}
    with Server(data_dir, env=env) as server, httpx.Client(base_url=server.url) as browser:
        ids = [browser.post("/api/games", json={}).json()["id"] for _ in range(2)]
        # The first is played on, so the second is the one untouched longest.
        first = browser.get(f"/api/games/{ids[0]}").json()
        moved = browser.post(
            f"/api/games/{ids[0]}/pass",
            json={"move": first["move"], "cards": first["view"]["hand"][:3]},
        )
        assert moved.status_code == 200
        ids.append(browser.post("/api/games", json={}).json()["id"])
        assert game_ids(data_dir) == {ids[0], ids[2]}
        gone = browser.get(f"/api/games/{ids[1]}")
        assert gone.status_code == 404 and gone.json()["detail"]
        assert browser.get(f"/api/games/{ids[0]}").status_code == 200


def test_games_of_ones_own_never_close_a_table_others_sit_at(tmp_path: Path) -> None:
    # A host starting games of their own closed, as the oldest past the few, the table of
    # friends they had made: the friend's game was gone (404), and a lobby's invitation
    # answered "not valid for this table". Only the host's own games are trimmed.
    data_dir = tmp_path / "data"
    env = {"HEARTS_UNFINISHED_PER_BROWSER": "2"}
    with (
        Server(data_dir, env=env) as server,
        httpx.Client(base_url=server.url) as host,
        httpx.Client(base_url=server.url) as friend,
    ):
        seats = {"seats": ["you", "friend", "easy", "easy"], "name": "Ann"}
        playing, lobby = (host.post("/api/games", json=seats).json() for _ in range(2))
        token = playing["table"]["invite"].split("#invite=", 1)[1]
        joined = friend.post(
            f"/api/games/{playing['id']}/join", json={"invite": token, "name": "Bea"}
        )
        assert joined.status_code == 200 and joined.json()["table"]["started"] is True
        own = [host.post("/api/games", json={}).json()["id"] for _ in range(3)]
        assert game_ids(data_dir) == {playing["id"], lobby["id"], *own[1:]}
        assert friend.get(f"/api/games/{playing['id']}").status_code == 200
        assert host.get(f"/api/games/{playing['id']}").status_code == 200
        lobby_token = lobby["table"]["invite"].split("#invite=", 1)[1]
        asked = friend.post(f"/api/games/{lobby['id']}/invitation", json={"invite": lobby_token})
        assert asked.status_code == 200, asked.text


def test_the_start_screens_list_holds_every_game_the_browser_keeps(tmp_path: Path) -> None:
    # The list held five games of any kind: a browser allowed seven kept two it could not
    # see, and a table of friends hid the oldest of its own.
    settings = Settings(data_dir=tmp_path / "data", unfinished_per_browser=7)
    with TestClient(create_app(bot_workers=0, settings=settings)) as browser:
        own = [browser.post("/api/games", json={}).json()["id"] for _ in range(8)]
        seats = {"seats": ["you", "friend", "easy", "easy"], "name": "Ann"}
        tables = [browser.post("/api/games", json=seats).json()["id"] for _ in range(2)]
        listed = [line["id"] for line in browser.get("/api/games").json()]
    assert listed == [*reversed(tables), *reversed(own[1:])]  # the first one closed


def test_every_list_in_the_rules_is_capped(tmp_path: Path) -> None:
    with Server(tmp_path / "data") as server, httpx.Client(base_url=server.url) as browser:
        long_cycle = browser.post("/api/games", json={"rules": {"pass_cycle": ["left"] * 1500}})
        assert long_cycle.status_code == 422
        assert long_cycle.json()["detail"] == "pass_cycle may have at most 16 entries, not 1500."
        number = browser.post("/api/games", json={"rules": {"pass_cycle": 5}})
        assert number.status_code == 422
        assert number.json()["detail"] == (
            "The pass cycle is a list of directions such as left and right."
        )
        long_text = browser.post("/api/games", json={"rules": {"moon_rule": "x" * 5000}})
        assert long_text.status_code == 422 and len(long_text.text) < 200
        sixteen = browser.post("/api/games", json={"rules": {"pass_cycle": ["left"] * 16}})
        assert sixteen.status_code == 201, sixteen.text


def test_unfinished_games_untouched_for_30_days_are_removed(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    server = Server(data_dir)
    with server, httpx.Client(base_url=server.url) as browser:
        ids = [browser.post("/api/games", json={}).json()["id"] for _ in range(3)]
    month_ago = time.time() - 31 * 86400
    with sqlite3.connect(data_dir / "hearts.sqlite3") as db:
        db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (month_ago, ids[0]))
        # A finished game is kept however old: only unfinished ones expire.
        db.execute(
            "UPDATE games SET updated_at = ?, status = 'over' WHERE id = ?", (month_ago, ids[1])
        )
        db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (month_ago + 2 * 86400, ids[2]))
    with Server(data_dir):
        deadline = time.monotonic() + 10
        while ids[0] in game_ids(data_dir) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert game_ids(data_dir) == {ids[1], ids[2]}
    with sqlite3.connect(data_dir / "hearts.sqlite3") as db:
        left = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (ids[0],)).fetchone()
    assert left == (0,)


def test_no_new_game_when_the_disk_is_nearly_full(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with Server(data_dir) as server, httpx.Client(base_url=server.url) as browser:
        started = browser.post("/api/games", json={}).json()
        cookies = dict(browser.cookies)
    env = {"HEARTS_MIN_FREE_BYTES": str(10**18)}  # more than any disk has free
    with (
        Server(data_dir, env=env) as server,
        httpx.Client(base_url=server.url, cookies=cookies) as browser,
    ):
        refused = browser.post("/api/games", json={})
        assert refused.status_code == 507
        assert refused.json() == {
            "detail": "The server is short of disk space, so no new game can start just now."
        }
        assert len(game_ids(data_dir)) == 1
        # Games already started go on (a move is a few hundred bytes).
        moved = browser.post(
            f"/api/games/{started['id']}/pass",
            json={"move": started["move"], "cards": started["view"]["hand"][:3]},
        )
        assert moved.status_code == 200, moved.text


def test_an_ipv6_client_is_counted_by_its_64(tmp_path: Path) -> None:
    # Each address was counted apart: a client given a /64 could start games from 2**64
    # addresses. (RFC 3849's documentation prefix.)
    settings = Settings.from_env(
        data_dir=tmp_path / "data", games_per_hour_per_address=2, min_free_bytes=0
    )
    store = open_store(settings)
    quotas = Quotas(store, settings, Tokens(b"k" * 32).address_key)
    try:
        quotas.admit("a", "2001:db8:0:1::1")
        quotas.admit("b", "2001:db8:0:1:ffff:ffff:ffff:fffe")
        with pytest.raises(OverQuota) as over:
            quotas.admit("c", "2001:db8:0:1:1234::5")
        assert over.value.kind == "address"
        quotas.admit("d", "2001:db8:0:2::1")  # the next /64 is another customer's
        quotas.admit("e", "::ffff:203.0.113.9")  # an IPv4 address, as IPv6 shows it
        quotas.admit("f", ADDRESS)
        with pytest.raises(OverQuota):
            quotas.admit("g", ADDRESS)
    finally:
        store.close()


def test_expiry_waits_a_minute_not_an_hour_for_a_database_that_is_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A database away when the server started (or at the hour) left old games for another
    # hour, with a traceback in the log for what the requests report as one line each.
    settings = Settings.from_env(data_dir=tmp_path / "data", min_free_bytes=0)
    store = open_store(settings)
    quotas = Quotas(store, settings, Tokens(b"k" * 32).address_key)
    answers: list[Exception | list[str]] = [
        Away("disk I/O error"),
        StoreUnavailable("PostgreSQL is not answering"),
        sqlite3.IntegrityError("UNIQUE constraint failed"),  # not an absence: in full
        ["old"],
    ]

    def expire(before: float) -> list[str]:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(store, "expire", expire)
    forgotten: list[list[str]] = []
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if not answers:
            raise asyncio.CancelledError

    caplog.set_level(logging.INFO, logger="hearts.web")
    try:
        with pytest.raises(asyncio.CancelledError):
            asyncio.run(expire_while_serving(quotas, forgotten.append, sleep))
    finally:
        store.close()
    assert waits == [EXPIRY_RETRY, EXPIRY_RETRY, HOUR, HOUR]
    assert forgotten == [["old"]]
    said = [(r.levelname, r.getMessage(), r.exc_info is not None) for r in caplog.records]
    assert said == [
        (
            "WARNING",
            "expiring old games waits for the database (disk I/O error): trying again in 60 s",
            False,
        ),
        (
            "WARNING",
            "expiring old games waits for the database (PostgreSQL is not answering): "
            "trying again in 60 s",
            False,
        ),
        ("ERROR", "expiring old games failed", True),
        ("INFO", "removed 1 unfinished game untouched too long", False),
    ]
