"""`POST /api/stats/reset`: a browser's statistics start afresh, its history and records stay."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from client_support import another_browser
from hearts.web.app import create_app
from hearts.web.coach import RESET_HOW

from .support import State, play_to_end, start

CONFIRM = {"confirm": True}


def finished_game(client: TestClient) -> State:
    return play_to_end(client, start(client, target_score=10))


def test_a_reset_starts_the_statistics_afresh_and_keeps_the_games(
    client: TestClient, data_dir: Path
) -> None:
    first = finished_game(client)
    before = client.get("/api/stats").json()
    assert before["games"] == 1 and before["since"] is None
    stranger = another_browser(client)
    finished_game(stranger)

    response = client.post("/api/stats/reset", json=CONFIRM)
    assert response.status_code == 200, response.text
    after = response.json()
    assert after["games"] == after["wins"] == after["rounds"] == 0
    assert after["win_rate"] is None and after["best_game"] is None
    assert after["since"].endswith("Z") and after["since"] >= before["best_game"]["finished"]
    assert client.get("/api/stats").json() == after
    # Nothing deleted: the game is in the history, its record and its replay still there.
    (line,) = client.get("/api/history").json()
    assert line["id"] == first["id"]
    assert client.get(f"/api/games/{first['id']}/record").status_code == 200
    assert client.get(f"/api/games/{first['id']}/replay").status_code == 200
    # Another browser's statistics are its own.
    assert stranger.get("/api/stats").json()["games"] == 1

    # A game finished after the reset counts; the one before does not.
    second = finished_game(client)
    stats = client.get("/api/stats").json()
    assert stats["games"] == 1 and stats["best_game"]["id"] == second["id"]
    assert stats["rounds"] == len(second["results"])
    assert [line["id"] for line in client.get("/api/history").json()] == [
        second["id"],
        first["id"],
    ]
    # The moment is kept in the store: a server started afresh on it counts the same.
    with TestClient(create_app(data_dir, bot_workers=0), cookies=client.cookies) as again:
        assert again.get("/api/stats").json() == stats
        # A second reset moves the moment on.
        later = again.post("/api/stats/reset", json=CONFIRM).json()
        assert later["games"] == 0 and later["since"] >= stats["since"]


@pytest.mark.parametrize(
    "body",
    [None, {}, {"confirm": False}, {"confirm": "yes"}, {"confirm": 1},
     {"confirm": True, "delete": "everything"}, [True], "confirm"],
)  # fmt: skip
def test_a_malformed_reset_is_refused_and_changes_nothing(client: TestClient, body: object) -> None:
    finished_game(client)
    before = client.get("/api/stats").json()
    response = client.post("/api/stats/reset", json=body)
    assert response.status_code == 422, response.text
    assert response.json() == {"detail": RESET_HOW}
    assert client.get("/api/stats").json() == before


def test_a_reset_that_is_not_json_or_not_a_post(client: TestClient) -> None:
    finished_game(client)
    before = client.get("/api/stats").json()
    response = client.post(
        "/api/stats/reset", content=b"confirm=true", headers={"content-type": "text/plain"}
    )
    assert response.status_code == 422 and response.json() == {"detail": RESET_HOW}
    response = client.post("/api/stats/reset", content=b"\xff\xfe{")
    assert response.status_code == 422 and response.json() == {"detail": RESET_HOW}
    # Nested deeper than Python reads: a 500 from a RecursionError (found by the fuzzer).
    response = client.post("/api/stats/reset", content=b"[" * 5000 + b"]" * 5000)
    assert response.status_code == 422 and response.json() == {"detail": RESET_HOW}
    assert client.get("/api/stats/reset").status_code == 405
    assert client.get("/api/stats").json() == before


def test_a_browser_without_a_cookie_has_nothing_to_reset(client: TestClient) -> None:
    finished_game(client)
    nobody = another_browser(client)
    response = nobody.post("/api/stats/reset", json=CONFIRM)
    assert response.status_code == 200
    assert response.json()["games"] == 0 and response.json()["since"] is None
    assert not nobody.cookies  # no browser is made up for it
    assert client.get("/api/stats").json()["games"] == 1  # nobody else's statistics change
