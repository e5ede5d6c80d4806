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

    def slow(rules: dict[str, Any], seed: int, moves: list[Any], levels: dict[int, str]) -> Any:
        with lock:
            asked.append(list(levels.values()))
        time.sleep(0.05)
        return real(rules, seed, moves, dict.fromkeys(levels, "easy"))

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

    styled = [o["style"] for o in OPPONENTS if o.get("style")]
    assert len(styled) == 3 and set(styled) <= set(STYLES)
    asked: dict[int, str | None] = {}

    def spy(level: str, seed: Any = None, budget: Any = None, style: str | None = None) -> Any:
        asked[len(asked)] = style
        return make_player(level, seed=seed, budget=budget, style=style)

    monkeypatch.setattr(bots, "make_player", spy)
    game = Game(Rules(), 3)
    game.give(0, game.round.hand(0)[:3])
    bots.advance(game, dict.fromkeys((1, 2, 3), "hard"), 3)  # three pass, then play to seat 0
    asked = dict(list(asked.items())[:3])  # the passes: one decision per seat
    assert sorted(str(s) for s in asked.values()) == sorted(styled)
