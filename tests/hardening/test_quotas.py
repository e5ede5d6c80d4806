"""Quotas against a real `hearts serve`: new games per browser and per address per hour,
a few unfinished games per browser, a cap on every list in the rules, old unfinished games
removed, and no new game when the disk is nearly full."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import httpx

from .server import Server


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
