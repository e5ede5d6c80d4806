"""A corrupt or hand-edited saved game is reported in one sentence, never served broken,
and the report names no card (the engine's own reason, which may, goes to the log)."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hearts.web.app import create_app
from hearts.web.service import DAMAGED

from .driver import card_tokens, choose_action

Edit = Callable[[sqlite3.Connection, str], None]


def _set_action(seq: int, change: Callable[[dict[str, Any]], Any]) -> Edit:
    def edit(db: sqlite3.Connection, game_id: str) -> None:
        (text,) = db.execute(
            "SELECT action FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq)
        ).fetchone()
        action = json.loads(text)
        db.execute(
            "UPDATE actions SET action = ? WHERE game_id = ? AND seq = ?",
            (json.dumps(change(action)), game_id, seq),
        )

    return edit


def _sql(statement: str, *args: Any) -> Edit:
    def edit(db: sqlite3.Connection, game_id: str) -> None:
        db.execute(statement, (*args, game_id))

    return edit


def _raw_action(seq: int, text: str) -> Edit:
    return _sql(f"UPDATE actions SET action = ? WHERE seq = {seq} AND game_id = ?", text)


def _play_other_card(action: dict[str, Any]) -> dict[str, Any]:
    # Action 8 leads the second trick; the 2♣ went in the first, so nobody holds it now.
    # (Any other card could be legal for that seat, and the edit would make a valid game.)
    assert action["type"] == "play" and action["card"] != "2C"
    return {**action, "card": "2C"}


EDITS: dict[str, Edit] = {
    "action-not-json": _raw_action(5, "{not json"),
    "action-not-an-object": _raw_action(5, "[1, 2, 3]"),
    "action-of-unknown-type": _set_action(5, lambda a: {**a, "type": "teleport"}),
    "card-changed": _set_action(8, _play_other_card),
    "card-not-a-card": _set_action(8, lambda a: {**a, "card": 12345}),
    "seat-changed": _set_action(8, lambda a: {**a, "seat": (a["seat"] + 1) % 4}),
    "middle-action-deleted": _sql("DELETE FROM actions WHERE seq = 6 AND game_id = ?"),
    "last-action-deleted": _sql(
        "DELETE FROM actions WHERE game_id = ?1 AND seq = "
        "(SELECT MAX(seq) FROM actions WHERE game_id = ?1)"
    ),
    "extra-action-added": _sql(
        "INSERT INTO actions (game_id, seq, action) SELECT game_id, seq + 1000, action "
        "FROM actions WHERE seq = 0 AND game_id = ?"
    ),
    # A game is dealt from its secret (keyed deals); the integer seed only for older games.
    "secret-changed": _sql("UPDATE games SET secret = secret || '0' WHERE id = ?"),
    "secret-lost": _sql("UPDATE games SET secret = NULL WHERE id = ?"),
    "seed-not-a-number": _sql("UPDATE games SET secret = NULL, seed = 'abc' WHERE id = ?"),
    "rules-not-json": _sql("UPDATE games SET rules = '{oops' WHERE id = ?"),
    "rules-unknown-field": _sql("UPDATE games SET rules = '{\"jokers\": true}' WHERE id = ?"),
    "rules-five-players": _sql("UPDATE games SET rules = '{\"players\": 5}' WHERE id = ?"),
    "levels-unknown": _sql(
        'UPDATE games SET settings = \'{"levels": ["easy", "genius", "easy"]}\' WHERE id = ?'
    ),
    "levels-missing": _sql("UPDATE games SET settings = '{}' WHERE id = ?"),
    "levels-too-few": _sql('UPDATE games SET settings = \'{"levels": ["easy"]}\' WHERE id = ?'),
}


def _played_game(client: TestClient, moves: int) -> dict[str, Any]:
    state: dict[str, Any] = client.post("/api/games", json={}).json()
    rng = random.Random(4)
    while state["move"] < moves:
        route, body = choose_action(state, rng)
        state = client.post(f"/api/games/{state['id']}/{route}", json=body).json()
    return state


def _rows(path: Path, game_id: str) -> list[Any]:
    with sqlite3.connect(path) as db:
        game = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchall()
        actions = db.execute(
            "SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    return [game, actions]


@pytest.mark.parametrize("damage", list(EDITS), ids=list(EDITS))
def test_a_damaged_game_is_reported_not_served(
    damage: str, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with TestClient(create_app(data_dir, bot_workers=0)) as first:
        state = _played_game(first, 20)
        healthy = _played_game(first, 12)
        cookie = first.cookies["hearts_browser"]
    database = data_dir / "hearts.sqlite3"
    with sqlite3.connect(database) as db:
        EDITS[damage](db, state["id"])
    damaged_rows = _rows(database, state["id"])

    # A restarted server (nothing cached) opens the edited store.
    app = create_app(data_dir, bot_workers=0)
    with TestClient(app, raise_server_exceptions=False, cookies={"hearts_browser": cookie}) as c:
        url = f"/api/games/{state['id']}"
        answers = [
            c.get(url),
            c.post(f"{url}/play", json={"move": state["move"], "card": "2C"}),
            c.post(f"{url}/next", json={"move": state["move"]}),
        ]
        for answer in answers:
            assert answer.status_code == 500, answer.text
            assert answer.json() == {"detail": DAMAGED}
            assert not card_tokens(answer.text)
        # Nothing was written to the damaged game, and other games play on.
        assert _rows(database, state["id"]) == damaged_rows
        other = c.get(f"/api/games/{healthy['id']}")
        assert other.status_code == 200 and other.json()["move"] == healthy["move"]
        route, body = choose_action(other.json(), random.Random(1))
        assert c.post(f"/api/games/{healthy['id']}/{route}", json=body).status_code == 200
        # The start screen's list says it is there and cannot be read: it went unsaid.
        listed = {line["id"]: line for line in c.get("/api/games").json()}
        assert listed[state["id"]]["damaged"] is True and listed[state["id"]]["names"] == []
        assert listed[healthy["id"]]["damaged"] is False
    assert "cannot be" in caplog.text  # the full reason is in the server's log


def _finished_game(client: TestClient) -> dict[str, Any]:
    state: dict[str, Any] = client.post("/api/games", json={"rules": {"target_score": 10}}).json()
    rng = random.Random(5)
    while state["phase"] != "game-over":
        route, body = choose_action(state, rng)
        state = client.post(f"/api/games/{state['id']}/{route}", json=body).json()
    return state


def test_a_damaged_finished_game_is_said_in_the_history_and_the_statistics(
    data_dir: Path,
) -> None:
    # It left "Your games" and the statistics without a word; its record said "please
    # start a new game".
    with TestClient(create_app(data_dir, bot_workers=0)) as first:
        older = _finished_game(first)
        damaged = _finished_game(first)
        newer = _finished_game(first)
        cookie = first.cookies["hearts_browser"]
    with sqlite3.connect(data_dir / "hearts.sqlite3") as db:
        _raw_action(5, "{not json")(db, damaged["id"])
    app = create_app(data_dir, bot_workers=0)
    with TestClient(app, raise_server_exceptions=False, cookies={"hearts_browser": cookie}) as c:
        history = c.get("/api/history").json()
        assert [line["id"] for line in history] == [newer["id"], damaged["id"], older["id"]]
        assert history[1]["damaged"] is True and history[1]["finished"]
        assert "damaged" not in history[0] and history[0]["result"]
        stats = c.get("/api/stats").json()
        assert stats["games"] == 2 and stats["unreadable"] == 1
        for url in (f"/api/games/{damaged['id']}/record", f"/api/games/{damaged['id']}/replay"):
            answer = c.get(url)
            assert answer.status_code == 500 and answer.json() == {"detail": DAMAGED}


@pytest.mark.parametrize(
    ("column", "value"),
    [("seen_at", "abc"), ("reaction_at", "soon"), ("ready", "x")],
)
def test_a_table_with_a_damaged_seat_is_reported_not_served(
    column: str, value: object, data_dir: Path
) -> None:
    # A seat's time written as text: every request for the table was a 500 "Something went
    # wrong" (a TypeError in the turn clock), and the start screen's list left it out unsaid.
    with TestClient(create_app(data_dir, bot_workers=0)) as host:
        seats = {"seats": ["you", "friend", "easy", "easy"], "name": "Ann"}
        table = host.post("/api/games", json=seats).json()
        solo = host.post("/api/games", json={}).json()
        cookie = host.cookies["hearts_browser"]
    with sqlite3.connect(data_dir / "hearts.sqlite3") as db:
        db.execute(
            f"UPDATE seats SET {column} = ? WHERE game_id = ? AND seat = 0", (value, table["id"])
        )
    app = create_app(data_dir, bot_workers=0)
    with TestClient(app, raise_server_exceptions=False, cookies={"hearts_browser": cookie}) as c:
        answer = c.get(f"/api/games/{table['id']}")
        assert answer.status_code == 500 and answer.json() == {"detail": DAMAGED}, answer.text
        listed = {line["id"]: line for line in c.get("/api/games").json()}
        assert listed[table["id"]]["damaged"] is True
        assert c.get(f"/api/games/{solo['id']}").status_code == 200
