"""A person's live event stream (`GET /api/games/{id}/events`) read in a thread, for tests
that talk to a real server over httpx."""

from __future__ import annotations

import concurrent.futures
import json
import time
from collections.abc import Callable
from typing import Any

import httpx

Message = tuple[str, dict[str, Any]]


class Stream:
    """One person's event stream, read in a thread: (kind, data) of every message, until the
    server says the table is "gone" or the seat "left" this browser."""

    def __init__(self, client: httpx.Client, game_id: str) -> None:
        self.messages: list[Message] = []
        self._pool = concurrent.futures.ThreadPoolExecutor(1)
        self._done = self._pool.submit(self._read, client, game_id)

    def _read(self, client: httpx.Client, game_id: str) -> None:
        with client.stream("GET", f"/api/games/{game_id}/events", timeout=None) as answer:
            assert answer.status_code == 200
            kind = "message"
            for line in answer.iter_lines():
                if line.startswith("event: "):
                    kind = line[len("event: ") :]
                elif line.startswith("data: "):
                    self.messages.append((kind, json.loads(line[len("data: ") :])))
                    if kind in ("gone", "left"):
                        return

    def wait_for(self, test: Callable[[str, dict[str, Any]], bool], seconds: float = 60) -> Message:
        """The first message `test` accepts, waiting at most `seconds` for it; a reader that
        failed is said at once."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for message in self.messages:
                if test(*message):
                    return message
            assert not self._done.done() or self._done.exception() is None, self._done.exception()
            time.sleep(0.05)
        raise AssertionError(f"no such message in {[kind for kind, _ in self.messages]}")

    def ended(self, seconds: float) -> None:
        """Wait at most `seconds` for the server to end the stream; raises if it has not."""
        self._done.result(timeout=seconds)
