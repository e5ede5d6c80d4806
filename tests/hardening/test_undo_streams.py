"""A take-back seen by an event stream, through real `hearts serve` processes: the game's
move count goes down while the stored actions grow, and a stream on the game (the page of a
game against computer players opens none, but the API serves one) sends the game as it
stands, in the same process and, on PostgreSQL, in another one."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pg_support import Cluster

from .driver import stored_actions
from .people import Person, State
from .server import Server

SOLO = ["you", "easy", "easy", "easy"]


async def until(person: Person, wanted: Any, timeout: float = 30) -> State:
    """The person's streamed state, once `wanted(state)` holds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while person.state is None or not wanted(person.state):
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, "the stream never showed it"
        try:
            await person.news(left)
        except TimeoutError:
            continue
    return person.state


async def take_back_watched(player: Person, watcher: Person) -> tuple[State, State, State]:
    """`player` passes, plays a card and takes it back, then plays another; `watcher` has
    the game's stream open. The answers to the card, the take-back and the other card."""
    made = await player.create(SOLO, {})
    watcher.client.cookies = player.client.cookies
    watcher.game_id, watcher.seat = made["id"], made["table"]["seat"]
    await watcher.open_stream(since=made["move"], header=False)
    game = f"/api/games/{made['id']}"
    cards = made["view"]["hand"][:3]
    state = (await player.post(f"{game}/pass", {"move": made["move"], "cards": cards})).json()
    while len(state["view"]["legal"]) < 2:  # on to a choice of cards
        body = {"move": state["move"], "card": state["view"]["legal"][0]}
        state = (await player.post(f"{game}/play", body)).json()
    first, other = state["view"]["legal"][:2]
    played = (await player.post(f"{game}/play", {"move": state["move"], "card": first})).json()
    await until(watcher, lambda s: s["move"] == played["move"] and s["undo"]["used"] == 0)
    answer = await player.post(f"{game}/undo", {"move": played["move"]})
    assert answer.status_code == 200, answer.text
    back = answer.json()
    shown = await until(watcher, lambda s: s["undo"]["used"] == 1)
    assert shown["move"] == back["move"] == state["move"]
    assert shown["view"] == back["view"] == state["view"]
    again = (await player.post(f"{game}/play", {"move": back["move"], "card": other})).json()
    shown = await until(watcher, lambda s: s["view"]["hand"] == again["view"]["hand"])
    assert shown["move"] == again["move"] and first in shown["view"]["hand"]
    return played, back, again


@pytest.mark.usefixtures("database")
def test_a_stream_in_the_same_process_shows_the_take_back(tmp_path: Path) -> None:
    async def scenario(server: Server) -> tuple[str, State]:
        player, watcher = Person(server.url, "Solo"), Person(server.url, "Solo's tab")
        try:
            _, back, _ = await take_back_watched(player, watcher)
            return player.game_id, back
        finally:
            await watcher.aclose()
            await player.aclose()

    data_dir = tmp_path / "data"
    with Server(data_dir) as server:
        game_id, back = asyncio.run(scenario(server))
    assert {"type": "undo", "to": back["move"]} in stored_actions(data_dir, game_id)


def test_a_stream_in_another_process_shows_the_take_back(
    pg_cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Moves reach another process's streams through PostgreSQL's NOTIFY only.
    monkeypatch.setenv("HEARTS_DATABASE_URL", pg_cluster.new_database())

    async def scenario(a: Server, b: Server) -> None:
        player, watcher = Person(a.url, "Solo"), Person(b.url, "Solo's other tab")
        try:
            await take_back_watched(player, watcher)
        finally:
            await watcher.aclose()
            await player.aclose()

    data_dir = tmp_path / "data"
    with Server(data_dir) as a, Server(data_dir) as b:
        asyncio.run(scenario(a, b))
