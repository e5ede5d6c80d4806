"""PostgreSQL going away under real `hearts serve` processes: stopped mid-game, requests are
answered 503 with a sentence within a few seconds (no hang), and the game goes on with
nothing lost when it is back; a full connection pool is a 503 too, not a hang."""

from __future__ import annotations

import concurrent.futures
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from hearts.web.stores import BUSY, UNAVAILABLE
from pg_support import Cluster
from stream_support import Stream

from .driver import choose_action, stored_actions
from .server import Server

#: Seconds within which a request must be answered while the database is away: the pool's
#: wait (3 s) or the statement timeout (5 s), plus a busy machine's slack.
PROMPT = 12.0


@pytest.fixture
def pg_url(pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch) -> str:
    url = pg_cluster.new_database()
    monkeypatch.setenv("HEARTS_DATABASE_URL", url)
    return url


def play(browser: httpx.Client, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    route, body = choose_action(state, rng)
    answer = browser.post(f"/api/games/{state['id']}/{route}", json=body)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def unavailable(answer: httpx.Response, started: float, detail: str = UNAVAILABLE) -> None:
    assert time.monotonic() - started < PROMPT, "the request hung"
    assert answer.status_code == 503, answer.text
    assert answer.json() == {"detail": detail}


def test_postgresql_restarted_mid_game_is_503_then_the_game_goes_on(
    pg_cluster: Cluster, pg_url: str, tmp_path: Path
) -> None:
    rng = random.Random(3)
    data_dir = tmp_path / "data"
    with Server(data_dir) as server, httpx.Client(base_url=server.url, timeout=60) as browser:
        state = browser.post("/api/games", json={}).json()
        for _ in range(4):
            state = play(browser, state, rng)
        # A process killed with SIGKILL mid-game, then PostgreSQL stopped under the next one.
        server.kill()
        server.start()
        pg_cluster.stop()
        try:
            started = time.monotonic()
            unavailable(browser.get(f"/api/games/{state['id']}"), started)
            route, body = choose_action(state, rng)
            started = time.monotonic()
            unavailable(browser.post(f"/api/games/{state['id']}/{route}", json=body), started)
            started = time.monotonic()
            unavailable(browser.post("/api/games", json={}), started)
            assert browser.get("/api/options").status_code == 200  # the rest still serves
        finally:
            pg_cluster.start()
        # Back: the same request is answered (within a few tries while the pool reconnects).
        deadline = time.monotonic() + 30
        while True:
            answer = browser.post(f"/api/games/{state['id']}/{route}", json=body)
            if answer.status_code != 503 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert answer.status_code == 200, answer.text
        state = answer.json()
        for _ in range(4):
            state = play(browser, state, rng)
        assert len(stored_actions(data_dir, state["id"])) == state["move"]


def test_after_a_long_outage_the_first_requests_are_answered_again_at_once(
    pg_cluster: Cluster, pg_url: str, tmp_path: Path
) -> None:
    # With requests all through a 16-second outage, the first ones after it are answered.
    # (An operator saw 25 s of 503s after a 30-second outage with event streams open; the
    # pool's retries double without a ceiling, so they are now given up after 10 s and
    # started afresh by the next request. This test did not reproduce the long tail.)
    data_dir = tmp_path / "data"
    with Server(data_dir) as server, httpx.Client(base_url=server.url, timeout=60) as browser:
        state = browser.post("/api/games", json={}).json()
        url = f"/api/games/{state['id']}"
        pg_cluster.stop()
        try:
            down = time.monotonic()
            while time.monotonic() - down < 16:
                started = time.monotonic()
                unavailable(browser.get(url), started)
                started = time.monotonic()
                unavailable(browser.get("/api/health"), started)  # a monitor sees it too
                time.sleep(1)
        finally:
            pg_cluster.start()
        back = time.monotonic()
        while (answer := browser.get(url)).status_code == 503 and time.monotonic() - back < 30:
            time.sleep(0.25)
        assert answer.status_code == 200, answer.text
        assert time.monotonic() - back < RECOVERY, "503s long after PostgreSQL was back"
        assert browser.get("/api/health").json() == {"ok": True}
    # About 32 requests were refused, and the pool tried again and again: the log says each
    # kind of warning once (the first of each kind within its 30 s), not one a request.
    lines = server.log_path.read_text().splitlines()
    warnings = [line for line in lines if " WARNING " in line]
    refused = [line for line in warnings if "database unavailable" in line]
    assert len(refused) == 1, refused
    assert len(warnings) <= 6, warnings
    # One line an event, each with its time, level and process (PostgreSQL's own message
    # is two lines: "Connection refused" and, on the next, "Is the server running ...").
    for line in lines:
        assert LOG_LINE.match(line), line
    # Its return is said once, with how long it was away and how many lines were held back.
    returned = [line for line in lines if "the database answers again" in line]
    assert len(returned) == 1, returned
    found = re.search(r"after (\d+) s away \((\d+) warnings were held back\)$", returned[0])
    assert found is not None, returned[0]
    assert 14 <= int(found[1]) <= 40 and int(found[2]) >= 20, returned[0]


#: A line of the service's log: time, level, process, and the event.
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (INFO|WARNING|ERROR) hearts\[\d+\] \S")


#: Seconds within which requests are answered again once PostgreSQL is back: the pool's
#: wait between two tries (a second, `store_pg.SteadyRetries`), plus a busy machine's slack.
RECOVERY = 8.0


def test_a_full_pool_and_a_stuck_database_answer_503_not_hang(pg_url: str, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    server = Server(data_dir, env={"HEARTS_DATABASE_POOL": "1"})
    with server, httpx.Client(base_url=server.url, timeout=60) as browser:
        state = browser.post("/api/games", json={}).json()
        url = f"/api/games/{state['id']}"
        # Another client holds the games table: the server's one connection waits on it
        # (until the statement timeout) and every other request waits for that connection.
        with psycopg.connect(pg_url) as holder:
            holder.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
            started = time.monotonic()
            with concurrent.futures.ThreadPoolExecutor(4) as pool:
                stuck = pool.submit(browser.get, url)
                time.sleep(0.5)  # the game's request has the one connection now
                waiting = [pool.submit(browser.post, "/api/games", json={}) for _ in range(3)]
                answers = [stuck.result(), *(f.result() for f in waiting)]
            # Said as busy, not as the database away: it answered the whole time.
            for answer in answers:
                unavailable(answer, started, BUSY)
            holder.rollback()
        assert browser.get(url).json()["move"] == state["move"]
    # The log says busy, and never that the database went away or came back.
    lines = server.log_path.read_text().splitlines()
    assert any("database busy on " in line for line in lines), lines
    assert not [line for line in lines if "unavailable" in line or "answers again" in line]


def test_a_stream_says_it_is_reconnecting_and_carries_on_when_postgresql_is_back(
    pg_cluster: Cluster, pg_url: str, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    server = Server(data_dir, env={"HEARTS_STREAM_PING": "1"})
    with (
        server,
        httpx.Client(base_url=server.url, timeout=60) as ann,
        httpx.Client(base_url=server.url, timeout=60) as bea,
    ):
        body = {"seats": ["you", "friend", "medium", "medium"], "turn_time": 0}
        made = ann.post("/api/games", json=body).json()
        token = made["table"]["invite"].split("#invite=")[1]
        joined = bea.post(f"/api/games/{made['id']}/join", json={"invite": token, "name": "B"})
        assert joined.status_code == 200, joined.text
        stream = Stream(bea, made["id"])
        stream.wait_for(lambda kind, data: kind == "state")
        pg_cluster.stop()
        try:
            kind, data = stream.wait_for(lambda kind, data: kind == "reconnecting", 30)
            assert data == {"detail": UNAVAILABLE}
        finally:
            pg_cluster.start()
        # Back: Ann passes; Bea's stream, still the same connection, shows the pass.
        state = ann.get(f"/api/games/{made['id']}").json()
        deadline = time.monotonic() + 30
        while True:
            cards = state["view"]["hand"][:3]
            answer = ann.post(
                f"/api/games/{made['id']}/pass", json={"move": state["move"], "cards": cards}
            )
            if answer.status_code != 503 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert answer.status_code == 200, answer.text
        kind, data = stream.wait_for(
            lambda kind, data: kind == "state" and data["move"] >= 1 and data["events"]
        )
        passes = [e for e in data["events"] if e["type"] == "pass"]
        assert passes and passes[0]["seat"] == 0 and "cards" not in passes[0]
        after = [k for k, _ in stream.messages[stream.messages.index((kind, data)) :]]
        assert "reconnecting" not in after
