"""Two tabs, one game: moves sent at once for the same move number. Exactly one applies;
a different move gets a 409 carrying the game as it now stands; the same move sent twice
is a retry and gets the same answer. Checked with both tabs on one server, and with each
tab on its own server process over the same store (two app instances here, so the store's
own conflict check decides, not the in-process lock)."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from hearts.web.app import create_app
from hearts.web.tokens import COOKIE, Tokens

from .driver import (
    Replayer,
    choose_action,
    game_ids,
    hidden_from,
    leaked_cards,
    store_at,
    stored_actions,
)
from .server import Server

# Every test here runs on SQLite and on PostgreSQL (`database`, tests/conftest.py).
pytestmark = pytest.mark.usefixtures("database")


def cookie_for(data_dir: Path) -> dict[str, str]:
    """One browser's cookie for every tab: a token signed with the store's secret, as the
    servers over that store issue (they made the secret when they started)."""
    return {COOKIE: Tokens.in_directory(data_dir).issue()}


def two_different_requests(
    state: dict[str, Any], rng: random.Random
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Two requests for the same move that differ when the position allows it."""
    route, first = choose_action(state, rng)
    for _ in range(20):
        again_route, second = choose_action(state, rng)
        if again_route == route and second != first:
            return route, first, second
    return route, first, first


async def race_a_game(apps: list[Any], rounds_of_racing: int, data_dir: Path) -> dict[str, int]:
    cookie = cookie_for(data_dir)
    tabs = [
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://tab", cookies=cookie
        )
        for app in apps
    ]
    tally = {"raced": 0, "conflicts": 0, "retries": 0}
    replayer = Replayer(data_dir)
    rng = random.Random(11)
    try:
        created = await tabs[0].post("/api/games", json={"rules": {"target_score": 100}})
        state = created.json()
        game_id = state["id"]
        while state["phase"] != "game-over" and tally["raced"] < rounds_of_racing:
            route, first, second = two_different_requests(state, rng)
            url = f"/api/games/{game_id}/{route}"
            answers = await asyncio.gather(
                tabs[0].post(url, json=first), tabs[-1].post(url, json=second)
            )
            now = (await tabs[0].get(f"/api/games/{game_id}")).json()
            actions = stored_actions(data_dir, game_id)
            move = state["move"]
            # Exactly one of the two was applied, once: the record holds one action at `move`.
            assert len(actions) == now["move"] > move
            person_actions = [a for a in actions[move:] if a.get("seat", 0) == 0]
            assert person_actions[0] in (_recorded(route, first), _recorded(route, second))
            assert actions[move] == person_actions[0]
            statuses = sorted(a.status_code for a in answers)
            if first == second:
                assert statuses == [200, 200]
                assert answers[0].json()["move"] == answers[1].json()["move"] == now["move"]
                tally["retries"] += 1
            else:
                assert statuses == [200, 409], [a.text for a in answers]
                winner = next(a for a in answers if a.status_code == 200).json()
                loser = next(a for a in answers if a.status_code == 409).json()
                assert "already made" in loser["detail"]
                # The loser catches up from the state it was sent: the game as it stands.
                assert loser["state"]["move"] == winner["move"] == now["move"]
                assert loser["state"]["view"] == now["view"]
                hidden = hidden_from(replayer.at(game_id, now["move"]))
                assert leaked_cards(loser, hidden, frozenset({("state", "view", "rules")})) == []
                tally["conflicts"] += 1
            tally["raced"] += 1
            state = now
    finally:
        for tab in tabs:
            await tab.aclose()
    return tally


def _recorded(route: str, body: dict[str, Any]) -> dict[str, Any]:
    if route == "play":
        return {"type": "play", "seat": 0, "card": body["card"]}
    if route == "pass":
        return {"type": "pass", "seat": 0, "cards": body["cards"]}
    if route == "moon":
        return {"type": "moon", "seat": 0, "choice": body["choice"]}
    return {"type": "next"}


@pytest.mark.parametrize("servers", [1, 2], ids=["one-server", "two-servers"])
def test_two_tabs_racing_apply_each_move_once(
    servers: int, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refused_appends = []
    kind = type(store_at(data_dir))
    append = kind.append

    def counted_append(self: Any, *args: Any) -> bool:
        stored: bool = append(self, *args)
        if not stored:
            refused_appends.append(args[1])
        return stored

    monkeypatch.setattr(kind, "append", counted_append)
    apps = [create_app(data_dir, bot_workers=0) for _ in range(servers)]
    tally = asyncio.run(race_a_game(apps, 60, data_dir))
    assert tally["raced"] == 60
    assert tally["conflicts"] > 30, tally
    if servers == 2:
        # With two servers the store's primary key settled races, not a lock in memory.
        assert refused_appends, "no race reached the store"
    # The whole record replays, and holds exactly one of the person's actions per race.
    (game_id,) = tally_ids(data_dir)
    actions = stored_actions(data_dir, game_id)
    assert sum(1 for a in actions if a.get("seat", 0) == 0) == tally["raced"]


def tally_ids(data_dir: Path) -> list[str]:
    return game_ids(data_dir)


def test_a_move_from_the_future_is_a_conflict_with_the_state(data_dir: Path) -> None:
    async def run() -> httpx.Response:
        app = create_app(data_dir, bot_workers=0)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://tab", cookies=cookie_for(data_dir)
        ) as tab:
            state = (await tab.post("/api/games", json={})).json()
            hand = state["view"]["hand"]
            return await tab.post(
                f"/api/games/{state['id']}/pass", json={"move": 5, "cards": hand[:3]}
            )

    answer = asyncio.run(run())
    assert answer.status_code == 409
    body = answer.json()
    assert "has not been reached" in body["detail"]
    assert body["state"]["move"] == 0 and body["state"]["phase"] == "passing"


def race(tabs: list[httpx.Client], url: str, bodies: list[dict[str, Any]]) -> list[Any]:
    """Each tab posts its body to `url` at the same moment (threads behind a barrier)."""
    start = threading.Barrier(len(tabs))
    answers: list[Any] = [None] * len(tabs)

    def send(index: int) -> None:
        start.wait()
        answers[index] = tabs[index].post(url, json=bodies[index])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(tabs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


def test_two_real_servers_over_one_store_apply_each_move_once(tmp_path: Path) -> None:
    """Two `hearts serve` processes over one data directory, a tab on each, racing."""
    data_dir = tmp_path / "data"
    servers = [Server(data_dir), Server(data_dir)]
    rng = random.Random(8)
    conflicts = 0
    try:
        for server in servers:
            server.start()
        cookie = cookie_for(data_dir)
        tabs = [httpx.Client(base_url=s.url, cookies=cookie, timeout=20) for s in servers]
        state = tabs[0].post("/api/games", json={"levels": ["medium"] * 3}).json()
        for _ in range(20):
            if state["phase"] == "game-over":
                break
            route, first, second = two_different_requests(state, rng)
            url = f"/api/games/{state['id']}/{route}"
            answers = race(tabs, url, [first, second])
            statuses = sorted(a.status_code for a in answers)
            now = tabs[1].get(f"/api/games/{state['id']}").json()
            if first != second:
                assert statuses == [200, 409], [a.text for a in answers]
                loser = next(a for a in answers if a.status_code == 409).json()
                assert loser["state"]["move"] == now["move"]
                assert loser["state"]["view"] == now["view"]
                conflicts += 1
            else:
                assert statuses == [200, 200]
            actions = stored_actions(data_dir, state["id"])
            assert actions[state["move"]] in (_recorded(route, first), _recorded(route, second))
            assert len(actions) == now["move"]
            state = now
        for tab in tabs:
            tab.close()
    finally:
        for server in servers:
            server.kill()
    assert conflicts >= 10
    person = [a for a in stored_actions(data_dir, state["id"]) if a.get("seat", 0) == 0]
    assert len(person) == 20
