"""A browser's event stream is for the seat it holds: once the friend gives the seat back
(leaving the lobby in another tab) the stream ends, so the next holder's hand never reaches
the one who left, and the leaver's open page does not count as the newcomer's."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from hearts.web.app import create_app
from hearts.web.live import SEAT_LEFT
from stream_support import Stream

from browser_support import LiveServer


def test_a_friend_who_left_the_lobby_hears_nothing_of_the_next_holder(app_dir: Path) -> None:
    server = LiveServer(create_app(app_dir, bot_workers=0)).start()
    try:
        with (
            httpx.Client(base_url=server.url, timeout=30) as ann,
            httpx.Client(base_url=server.url, timeout=30) as bea,
            httpx.Client(base_url=server.url, timeout=30) as dee,
        ):
            made = ann.post(
                "/api/games",
                json={
                    "seats": ["you", "friend", "friend", "medium"],
                    "name": "Ann",
                    "turn_time": 0,
                },
            ).json()
            game, token = made["id"], made["table"]["invite"].split("#invite=", 1)[1]
            joined = bea.post(f"/api/games/{game}/join", json={"invite": token, "name": "Bea"})
            assert joined.status_code == 200, joined.text
            seat = joined.json()["table"]["seat"]
            other_tab = Stream(bea, game)  # a second tab of Bea's, on the lobby
            other_tab.wait_for(lambda kind, data: kind == "state")
            assert bea.post(f"/api/games/{game}/leave", json={}).status_code == 200
            _, said = other_tab.wait_for(lambda kind, data: kind == "left", seconds=10)
            assert said["detail"] == SEAT_LEFT
            other_tab.ended(seconds=5)
            heard = len(other_tab.messages)
            # Dee takes the seat and Ann starts the table: Dee's hand is hers alone.
            taken = dee.post(f"/api/games/{game}/join", json={"invite": token, "name": "Dee"})
            assert taken.status_code == 200, taken.text
            assert taken.json()["table"]["seat"] == seat
            started = ann.post(f"/api/games/{game}/start", json={})
            assert started.status_code == 200, started.text
            time.sleep(0.5)  # a stream still open would have sent the start by now
            assert len(other_tab.messages) == heard
            assert not any(
                "view" in data and data["view"].get("hand") for _, data in other_tab.messages[1:]
            )
            # Dee is here: nothing of Bea's page counted as Dee's going.
            assert ann.get(f"/api/games/{game}").json()["players"][seat]["name"] == "Dee"
            assert bea.get(f"/api/games/{game}").status_code == 404
    finally:
        server.stop()
