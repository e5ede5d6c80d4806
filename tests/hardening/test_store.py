"""The store under damage: a file that is not SQLite or fails `PRAGMA quick_check` stops
`hearts serve` with one line; a stored count is checked against the rows; a full disk and
any unexpected error are answered in one sentence of JSON; the files are private."""

from __future__ import annotations

import os
import random
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from hearts.web import app as app_module
from hearts.web.app import create_app
from hearts.web.service import DAMAGED, GameService
from hearts.web.store import Store
from hearts.web.stores import BUSY

from .driver import choose_action, stored_actions
from .server import Server, free_port


def serve_once(data_dir: Path) -> subprocess.CompletedProcess[str]:
    """`hearts serve` over `data_dir`, expected to refuse to start."""
    hearts = Path(sys.executable).with_name("hearts")
    command = [str(hearts), "serve", "--port", str(free_port()), "--data-dir", str(data_dir)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_a_file_that_is_not_sqlite_stops_the_server_in_one_line(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "hearts.sqlite3").write_bytes(b"these are my notes, not a database\n" * 50)
    done = serve_once(data_dir)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "is not a SQLite database" in lines[0], done.stderr
    assert (data_dir / "hearts.sqlite3").read_bytes().startswith(b"these are my notes")


def test_scribbled_pages_stop_the_server_before_any_game_is_written(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with Server(data_dir) as server, httpx.Client(base_url=server.url) as browser:
        for _ in range(5):
            assert browser.post("/api/games", json={}).status_code == 201
    path = data_dir / "hearts.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        # The schema's own tables (the migrations' bookkeeping) come first in the file.
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
    assert pages >= 4
    data = bytearray(path.read_bytes())
    # Scribble over the games' root page from its cell pointers (or right child) on.
    start = (root - 1) * page_size + 8
    data[start : start + 512] = b"\xa5" * 512
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    done = serve_once(data_dir)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    # SQLite either lists the damage (quick_check) or cannot read that far (the games'
    # rows vary in size, so which happens depends on where the scribble lands): one
    # sentence either way, saying what to do.
    assert len(lines) == 1, done.stderr
    assert "is damaged" in lines[0] or "cannot be read" in lines[0], done.stderr
    assert "restore a backup or move it aside" in lines[0], done.stderr
    assert path.read_bytes() == before  # nothing was written into the broken file


def test_a_stored_move_count_is_checked_against_the_rows(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with Server(data_dir) as server, httpx.Client(base_url=server.url) as browser:
        game = browser.post("/api/games", json={}).json()
        cookies = dict(browser.cookies)
    with sqlite3.connect(data_dir / "hearts.sqlite3") as db:
        db.execute("UPDATE games SET moves = ? WHERE id = ?", (10**12, game["id"]))
    with (
        Server(data_dir) as server,
        httpx.Client(base_url=server.url, cookies=cookies, timeout=10) as browser,
    ):
        started = time.perf_counter()
        answer = browser.get(f"/api/games/{game['id']}")
        assert time.perf_counter() - started < 2
        assert answer.status_code == 500 and answer.json() == {"detail": DAMAGED}
        assert browser.get("/api/options").status_code == 200


def test_the_files_are_private_and_loose_ones_are_tightened(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    with Server(fresh) as server:
        assert httpx.post(f"{server.url}/api/games", json={}).status_code == 201
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in fresh.iterdir() if p.is_file()}
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o700
    assert modes["hearts.sqlite3"] == 0o600 and modes["cookie-secret"] == 0o600
    assert all(mode == 0o600 for name, mode in modes.items() if name.startswith("hearts")), modes
    # A store made by an older version, readable by everyone, is made private at start.
    fresh.chmod(0o755)
    (fresh / "hearts.sqlite3").chmod(0o644)
    with Server(fresh):
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o700
        assert stat.S_IMODE((fresh / "hearts.sqlite3").stat().st_mode) == 0o600


def test_a_full_disk_is_one_sentence_and_loses_nothing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with TestClient(create_app(data_dir, bot_workers=0)) as browser:
        state = browser.post("/api/games", json={}).json()
        cookies = dict(browser.cookies)
    before = stored_actions(data_dir, state["id"])
    patch = pytest.MonkeyPatch()
    try:
        real = Store._connection

        def capped(self: Store) -> sqlite3.Connection:
            db = real(self)
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            db.execute(f"PRAGMA max_page_count = {pages}")
            return db

        patch.setattr(Store, "_connection", capped)
        rng = random.Random(5)
        app = create_app(data_dir, bot_workers=0)
        with TestClient(app, raise_server_exceptions=False, cookies=cookies) as browser:
            # Enough moves to need a new page of actions.
            answer = None
            for _ in range(60):
                now = browser.get(f"/api/games/{state['id']}").json()
                route, body = choose_action(now, rng)
                answer = browser.post(f"/api/games/{state['id']}/{route}", json=body)
                if answer.status_code != 200:
                    break
            assert answer is not None and answer.status_code == 507, answer and answer.text
            assert answer.json() == {"detail": app_module.DISK_FULL}
            after = stored_actions(data_dir, state["id"])
            assert after[: len(before)] == before
            assert len(after) == browser.get(f"/api/games/{state['id']}").json()["move"]
    finally:
        patch.undo()


def test_an_unexpected_error_is_one_sentence_of_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: object) -> None:
        raise RuntimeError("a bug with a long message\nand a second line")

    monkeypatch.setattr(GameService, "state_of", broken)
    with TestClient(
        create_app(tmp_path / "data", bot_workers=0), raise_server_exceptions=False
    ) as c:
        answer = c.get("/api/games/anything")
    assert answer.status_code == 500
    assert answer.json() == {"detail": app_module.SERVER_ERROR}
    assert os.linesep not in answer.json()["detail"]


def test_a_lock_held_past_the_wait_is_busy_and_the_move_goes_through_when_sent_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An operator's sqlite3 session (or a backup, a VACUUM) holding the write lock past the
    # wait made every write a 500 "Something went wrong", which the page does not send
    # again: the card was lost. It is the busy 503 of PostgreSQL now, which the page retries.
    data_dir = tmp_path / "data"
    monkeypatch.setattr(Store, "LOCK_WAIT", 0.2)
    app = create_app(data_dir, bot_workers=0)
    with TestClient(app, raise_server_exceptions=False) as browser:
        state = browser.post("/api/games", json={}).json()
        before = stored_actions(data_dir, state["id"])
        body = {"move": state["move"], "cards": state["view"]["hand"][:3]}
        holder = sqlite3.connect(data_dir / "hearts.sqlite3", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            answer = browser.post(f"/api/games/{state['id']}/pass", json=body)
            started = browser.post("/api/games", json={})
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        for refused in (answer, started):
            assert refused.status_code == 503, refused.text
            assert refused.json() == {"detail": BUSY} and int(refused.headers["retry-after"]) > 0
        assert stored_actions(data_dir, state["id"]) == before
        again = browser.post(f"/api/games/{state['id']}/pass", json=body)
        assert again.status_code == 200, again.text
        assert len(stored_actions(data_dir, state["id"])) > len(before)
        assert browser.get(f"/api/games/{state['id']}").json()["move"] == again.json()["move"]
