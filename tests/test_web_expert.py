"""The web game offers the expert level, and a busy pool plays it as hard (never as medium)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hearts import Game, Rules
from hearts.web import bots
from hearts.web.app import create_app
from hearts.web.bots import BUSY_PER_WORKER, BotPool


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "data", bot_workers=0)) as test_client:
        yield test_client


def test_expert_is_offered_and_plays(client: TestClient) -> None:
    options = client.get("/api/options").json()
    names = [level["name"] for level in options["levels"]]
    assert names[-2:] == ["hard", "expert"]
    response = client.post("/api/games", json={"levels": ["expert", "easy", "easy"]})
    assert response.status_code == 201, response.text
    state = response.json()
    assert state["phase"] == "passing"
    game = state["id"]
    passed = client.post(
        f"/api/games/{game}/pass", json={"cards": state["view"]["hand"][:3], "move": state["move"]}
    )
    assert passed.status_code == 200, passed.text
    assert passed.json()["phase"] == "playing"


def test_a_busy_pool_plays_expert_as_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[list[str]] = []
    lock = threading.Lock()
    real = bots.advance_record

    def slow(
        rules: dict[str, Any], seed: int, moves: list[Any], levels: dict[int, str], styles: Any
    ) -> Any:
        with lock:
            asked.append(list(levels.values()))
        time.sleep(0.05)
        return real(rules, seed, moves, dict.fromkeys(levels, "easy"), styles)

    monkeypatch.setattr(bots, "advance_record", slow)
    pool = BotPool(workers=0)
    busy = BUSY_PER_WORKER * max(1, pool.workers)
    levels = ["expert", "medium", "hard"]

    async def burst(count: int) -> None:
        games = [Game(Rules(), seed) for seed in range(count)]
        for game in games:
            game.give(0, game.round.hand(0)[:3])
        computers = dict(enumerate(levels, start=1))
        await asyncio.gather(*(pool.advance(g, computers, seed=i) for i, g in enumerate(games)))

    try:
        asyncio.run(burst(2 * busy))
    finally:
        pool.close()
    assert asked[:busy] == [levels] * busy
    assert asked[busy:] == [["hard", "medium", "medium"]] * busy


def test_each_character_plays_with_its_own_style(monkeypatch: pytest.MonkeyPatch) -> None:
    from hearts.ai import STYLES, make_player
    from hearts.web.characters import OPPONENTS
    from hearts.web.service import Table
    from hearts.web.store import Seating

    styled = [o["style"] for o in OPPONENTS if o.get("style")]
    assert len(styled) == 3 and set(styled) <= set(STYLES)
    asked: dict[int, str | None] = {}

    def spy(level: str, seed: Any = None, budget: Any = None, style: str | None = None) -> Any:
        asked[len(asked)] = style
        return make_player(level, seed=seed, budget=budget, style=style)

    monkeypatch.setattr(bots, "make_player", spy)
    table = Table((None, "hard", "hard", "hard"))
    styles = table.styles(Seating(True, None, 0.0, 0, {}))
    game = Game(Rules(), 3)
    game.give(0, game.round.hand(0)[:3])
    bots.advance(game, table.computers, 3, styles)  # three pass, then play to seat 0
    asked = dict(list(asked.items())[:3])  # the passes: one decision per seat
    assert sorted(str(s) for s in asked.values()) == sorted(styled)


def test_a_character_keeps_its_name_face_and_style_wherever_the_people_sit() -> None:
    """At a table of friends the computer players take the characters in seat order, skipping
    the people's seats, then the seats nobody took (so the lobby's characters keep their
    seats at the start), and play with the taste of the character the table shows there."""
    from hearts.web.characters import OPPONENTS
    from hearts.web.service import Table, _players
    from hearts.web.store import Person, Seating

    table = Table((None, None, "hard", None, "hard"), invite="x")
    people = {
        0: Person(0, "a", "Ann"),
        1: Person(1, "b", "Bo"),
        3: Person(3, None, "Open seat"),  # nobody took it: a computer player holds it
    }
    seating = Seating(True, None, 0.0, 0, people)
    shown = {p["seat"]: p for p in _players(table, 0, seating)}
    styles = table.styles(seating)
    assert [shown[s]["name"] for s in (2, 4, 3)] == [o["name"] for o in OPPONENTS[:3]]
    for seat in (2, 3, 4):
        character = next(o for o in OPPONENTS if o["id"] == shown[seat]["character"])
        assert shown[seat]["name"] == character["name"]
        assert styles[seat] == character.get("style")
    assert "character" not in shown[0] and "character" not in shown[1]
    assert set(styles) == {2, 3, 4} and styles[2] is not None
