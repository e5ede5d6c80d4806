"""The tests' live server (`browser_support.LiveServer`) stops as `hearts serve` does: its
open event streams end first. Before, uvicorn's plain stop waited for every connection, an
event stream never ends by itself, so a page left open held `stop()` for its whole wait of
ten seconds and left the server thread running on past the test (its review tasks then
failed at the interpreter's exit)."""

from __future__ import annotations

import errno
import socket
import time
from pathlib import Path

import httpx
import pytest

from hearts.web.app import create_app
from stream_support import Stream

from browser_support import LiveServer


def test_a_server_with_an_event_stream_open_stops_at_once(app_dir: Path) -> None:
    server = LiveServer(create_app(app_dir, bot_workers=0)).start()
    with httpx.Client(base_url=server.url, timeout=30) as person:
        answer = person.post("/api/games", json={"seats": ["you", "friend", "easy", "easy"]})
        assert answer.status_code == 201, answer.text
        stream = Stream(person, answer.json()["id"])
        stream.wait_for(lambda kind, data: kind == "state")
        began = time.monotonic()
        server.stop()
        took = time.monotonic() - began
        assert not server.thread.is_alive(), f"the server still runs after {took:.1f} s"
        stream.ended(seconds=5)


def test_a_server_holds_its_port_from_the_moment_it_is_made(app_dir: Path) -> None:
    # The port was looked up (bound, let go) and bound again by uvicorn once the thread ran:
    # in between, another test run's server on the same machine could take it.
    server = LiveServer(create_app(app_dir, bot_workers=0))
    with socket.socket() as other:
        with pytest.raises(OSError) as refused:
            other.bind(("127.0.0.1", server.port))
        assert refused.value.errno == errno.EADDRINUSE
    server.start()
    try:
        assert httpx.get(f"{server.url}/api/games", timeout=30).status_code == 200
    finally:
        server.stop()
