"""A friend whose connection drops without the socket closing (a phone gone offline) is
shown to the others as reconnecting soon, long before the hold time hands the seat to a
computer player, and no longer once their page is heard from again."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from hearts.web.app import create_app
from hearts.web.service import QUIET_BEATS
from hearts.web.settings import Settings
from stream_support import Stream

from browser_support import LiveServer

PING = 0.5  # seconds between the stream's pings in this test (15 s in use)


def until(test: Callable[[], Any], seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = test()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s")


def news(kind: str, seat: int) -> Callable[[str, dict[str, Any]], bool]:
    """A test for a stream's table news that says `kind` of `seat`."""
    return lambda said, data: (
        said == "table"
        and any(event["type"] == kind and event["seat"] == seat for event in data["events"])
    )


def open_stream(port: int, game: str, cookies: httpx.Cookies) -> socket.socket:
    """A page's event stream on a real socket, read up to its first whole state and then
    never again, and never closed: a phone that went offline with the page open."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    sock.sendall(
        f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Accept: text/event-stream\r\nCookie: {cookie}\r\n\r\n".encode()
    )
    sock.settimeout(30)
    got = b""
    while b"event: state" not in got or got.split(b"event: state", 1)[1].count(b"\n\n") < 1:
        chunk = sock.recv(65536)
        assert chunk, got
        got += chunk
    assert got.startswith(b"HTTP/1.1 200"), got[:200]
    return sock


def test_a_friend_whose_connection_drops_silently_is_shown_reconnecting(app_dir: Path) -> None:
    settings = replace(Settings.from_env(data_dir=app_dir), stream_ping=PING)
    server = LiveServer(create_app(app_dir, bot_workers=0, settings=settings)).start()
    try:
        with (
            httpx.Client(base_url=server.url, timeout=30) as ann,
            httpx.Client(base_url=server.url, timeout=30) as bea,
        ):
            made = ann.post(
                "/api/games",
                json={"seats": ["you", "friend", "medium", "medium"], "name": "Ann"},
            ).json()
            game, token = made["id"], made["table"]["invite"].split("#invite=", 1)[1]
            joined = bea.post(f"/api/games/{game}/join", json={"invite": token, "name": "Bea"})
            assert joined.status_code == 200, joined.text
            seat = joined.json()["table"]["seat"]
            anns_page = Stream(ann, game)
            anns_page.wait_for(lambda kind, data: kind == "state")
            beas_page = open_stream(server.port, game, bea.cookies)

            def bea_as_ann_sees() -> dict[str, Any]:
                player: dict[str, Any] = ann.get(f"/api/games/{game}").json()["players"][seat]
                return player

            assert bea_as_ann_sees()["connected"] is True
            assert bea_as_ann_sees()["reconnecting"] is False
            # Bea's page goes quiet: its stream stays open, and the server's pings go on into
            # the socket, unread and unanswered. Ann's page is told within a few pings.
            quiet = QUIET_BEATS * PING
            went = time.monotonic()
            _, told = anns_page.wait_for(
                news("reconnecting", seat),
                seconds=quiet + 6 * PING + 5,
            )
            assert told["players"][seat]["reconnecting"] is True
            assert told["players"][seat]["connected"] is False
            assert bea_as_ann_sees()["reconnecting"] is True
            assert bea_as_ann_sees()["away"] is False  # the seat is still hers (hold time 120 s)
            assert time.monotonic() - went < 60
            # Back: her page answers a ping, and Ann's is told she is here again.
            assert bea.post(f"/api/games/{game}/here", json={}).status_code == 204
            _, back = anns_page.wait_for(
                news("reconnected", seat),
                seconds=4 * PING + 5,
            )
            assert back["players"][seat]["reconnecting"] is False
            assert back["players"][seat]["connected"] is True
            # A browser with no seat at the table is not heard as anyone's.
            with httpx.Client(base_url=server.url, timeout=30) as stranger:
                stranger.post("/api/games", json={"seats": ["you", "easy", "easy", "easy"]})
                assert stranger.post(f"/api/games/{game}/here", json={}).status_code == 404
            beas_page.close()
    finally:
        server.stop()
