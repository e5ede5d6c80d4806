"""Crashes: `hearts serve` is SIGKILLed at random moments while a browser plays, usually
with a request in flight, then restarted over the same store, many times. After every
restart the game is exactly where the browser was last told it was, or one move further
when the killed request had been stored before its answer was lost; the browser's retry of
that request is then answered from the record. No acknowledged move is ever lost, and no
move is ever applied twice.
from hearts.record import actions_of

HEARTS_CRASH_KILLS sets the number of kills (10 by default, about 2 s each on a busy
2-core machine, mostly the restart; HEARTS_CRASH_KILLS=100 for a deeper run).
"""

from __future__ import annotations

import os
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from .driver import Replayer, choose_action, stored_actions, stored_game
from .server import Server

# Every test here runs on SQLite and on PostgreSQL (`database`, tests/conftest.py).
pytestmark = pytest.mark.usefixtures("database")

KILLS = int(os.environ.get("HEARTS_CRASH_KILLS", "10"))
#: The browser's cookie, as the server issued it with the first game (a signed token).
COOKIE: dict[str, str] = {}


def recorded(route: str, body: dict[str, Any]) -> dict[str, Any]:
    """The record's form of the person's request."""
    if route == "play":
        return {"type": "play", "seat": 0, "card": body["card"]}
    if route == "pass":
        return {"type": "pass", "seat": 0, "cards": body["cards"]}
    if route == "moon":
        return {"type": "moon", "seat": 0, "choice": body["choice"]}
    return {"type": "next"}


@dataclass
class Browser:
    """What the browser knows: the last state it was told and every move acknowledged."""

    state: dict[str, Any]
    acknowledged: dict[int, dict[str, Any]] = field(default_factory=dict)
    in_flight: tuple[str, dict[str, Any]] | None = None
    finished: list[tuple[str, dict[int, dict[str, Any]]]] = field(default_factory=list)
    """Games played to the end: (id, the moves acknowledged in it)."""
    failure: BaseException | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def start(cls, client: httpx.Client) -> Browser:
        created = client.post("/api/games", json={"levels": ["medium"] * 3})
        assert created.status_code == 201, created.text
        return cls(created.json())

    def next_game(self, client: httpx.Client) -> None:
        """The game is over: start another (a creation lost to a kill is never acknowledged,
        so the browser simply stays on its finished game)."""
        fresh = Browser.start(client)
        with self.lock:
            self.finished.append((self.state["id"], dict(self.acknowledged)))
            self.state = fresh.state
            self.acknowledged = {}
            self.in_flight = None

    def send(self, client: httpx.Client, route: str, body: dict[str, Any]) -> None:
        with self.lock:
            self.in_flight = (route, body)
        response = client.post(f"/api/games/{self.state['id']}/{route}", json=body)
        assert response.status_code == 200, response.text
        with self.lock:
            self.acknowledged[body["move"]] = recorded(route, body)
            self.state = response.json()
            self.in_flight = None

    def play_until_broken(self, client: httpx.Client, stop: threading.Event) -> None:
        """Send moves one after another, game after game, until the server dies."""
        try:
            while not stop.is_set():
                if self.state["phase"] == "game-over":
                    self.next_game(client)
                    continue
                route, body = choose_action(self.state, self.rng)
                self.send(client, route, body)
        except httpx.TransportError:
            pass  # killed mid-request: the move stays in flight
        except BaseException as error:  # the main thread reports it
            self.failure = error


def check_resumed(browser: Browser, client: httpx.Client, data_dir: Path) -> str:
    """After a restart: the game is where the browser was told, or one move on."""
    game_id = browser.state["id"]
    now = client.get(f"/api/games/{game_id}")
    assert now.status_code == 200, now.text
    actions = stored_actions(data_dir, game_id)
    told = browser.state["move"]
    # No acknowledged move lost: each is in the record at the move it was sent for.
    for move, action in browser.acknowledged.items():
        assert actions[move] == action, f"acknowledged move {move} lost: {actions[move]}"
    # None applied twice: the person's actions are exactly the acknowledged ones, plus
    # the one in flight if it was stored before the kill.
    person = {i: a for i, a in enumerate(actions) if a.get("seat", 0) == 0}
    extra = set(person) - set(browser.acknowledged)
    outcome = "in-flight-not-stored" if browser.in_flight is not None else "idle"
    if len(actions) == told:
        assert not extra
        assert now.json()["view"] == browser.state["view"], "the game moved without the browser"
    else:
        assert browser.in_flight is not None, "the game moved on with nothing in flight"
        route, body = browser.in_flight
        assert extra == {body["move"]} and person[body["move"]] == recorded(route, body)
        outcome = "in-flight-stored"
    if browser.in_flight is not None:
        # The browser retries what it never heard back about: applied once either way.
        route, body = browser.in_flight
        browser.send(client, route, body)
        assert len(stored_actions(data_dir, game_id)) == browser.state["move"]
        if outcome == "in-flight-stored":
            assert browser.state["move"] == len(actions), "a stored move was applied again"
    return outcome


def test_sigkill_at_random_moments_loses_and_repeats_nothing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    rng = random.Random(2024)
    outcomes: dict[str, int] = {}
    browser: Browser | None = None
    server = Server(data_dir)
    COOKIE.clear()  # a cookie of an earlier run (the other store) is not this server's
    try:
        for _ in range(KILLS):
            server.start()
            with httpx.Client(base_url=server.url, cookies=COOKIE, timeout=20) as client:
                if browser is None:
                    browser = Browser.start(client)
                    COOKIE.update(dict(client.cookies))
                else:
                    outcome = check_resumed(browser, client, data_dir)
                    outcomes[outcome] = outcomes.get(outcome, 0) + 1
                stop = threading.Event()
                sender = threading.Thread(target=browser.play_until_broken, args=(client, stop))
                sender.start()
                time.sleep(rng.uniform(0.05, 0.6))
                server.kill()
                stop.set()
                sender.join(timeout=30)
                assert not sender.is_alive()
                if browser.failure is not None:
                    raise browser.failure
        server.start()
        assert browser is not None
        with httpx.Client(base_url=server.url, cookies=COOKIE, timeout=20) as client:
            check_resumed(browser, client, data_dir)
            final = client.get(f"/api/games/{browser.state['id']}").json()
    finally:
        server.kill()
    # The record replays, and the browser's last view is the record's view.
    replayed = stored_game(data_dir, browser.state["id"])
    assert (
        final["view"] == Replayer(data_dir).at(final["id"], len(replayed.moves)).view(0).to_dict()
    )
    assert sum(outcomes.values()) == KILLS - 1
    # Games finished between restarts kept every move acknowledged in them.
    for game_id, acknowledged in browser.finished:
        actions = stored_actions(data_dir, game_id)
        assert all(actions[move] == action for move, action in acknowledged.items())
        assert stored_game(data_dir, game_id).is_over
    # Most kills land with a request in flight; the test is not just killing idle servers.
    print(f"after {KILLS} kills: {outcomes}")
    assert outcomes.get("in-flight-not-stored", 0) + outcomes.get("in-flight-stored", 0) > 0
