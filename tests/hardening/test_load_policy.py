"""Hard players under load degrade gracefully, by a stated policy (hearts.web.bots):
once BUSY_PER_WORKER requests per worker are already waiting on the pool, a new request's
hard players play at medium strength for that request; when the queue drains, hard is back.
Easy and medium players are never changed."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from hearts import Game, Rules
from hearts.web import bots
from hearts.web.app import create_app
from hearts.web.bots import BUSY_PER_WORKER, BotPool
from hearts.web.settings import Settings


class SlowRecorder:
    """Stands in for the pool's task: notes the levels asked for, thinks for a while,
    then answers as the real task would."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.levels: list[list[str]] = []
        self.lock = threading.Lock()
        self.real = bots.advance_record

    def __call__(
        self,
        rules: dict[str, Any],
        seed: int,
        moves: list[Any],
        computers: dict[int, str],
        styles: Any,
    ) -> tuple[list[Any], Any]:
        with self.lock:
            self.levels.append(list(computers.values()))
        time.sleep(self.seconds)
        # The real work at easy strength: only the levels asked for are under test here.
        return self.real(rules, seed, moves, dict.fromkeys(computers, "easy"), styles)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> SlowRecorder:
    slow = SlowRecorder(0.05)
    monkeypatch.setattr(bots, "advance_record", slow)
    return slow


def test_hard_players_play_medium_while_the_pool_is_busy(recorder: SlowRecorder) -> None:
    pool = BotPool(workers=0)  # threads; one "worker" for the policy's arithmetic
    busy = BUSY_PER_WORKER * max(1, pool.workers)
    levels = ["hard", "medium", "hard"]
    computers = dict(enumerate(levels, start=1))

    async def burst(count: int) -> None:
        games = [Game(Rules(), seed) for seed in range(count)]
        for game in games:  # the person passes; the computer players answer
            game.give(0, game.round.hand(0)[:3])
        await asyncio.gather(
            *(pool.advance(game, computers, seed=i) for i, game in enumerate(games))
        )
        for game in games:
            assert game.phase == "playing"  # every request was answered, none dropped

    try:
        asyncio.run(burst(3 * busy))
        assert recorder.levels[:busy] == [levels] * busy
        assert recorder.levels[busy:] == [["medium", "medium", "medium"]] * (2 * busy)
        assert pool.waiting == 0
        # Quiet again: hard plays hard.
        recorder.levels.clear()
        asyncio.run(burst(1))
        assert recorder.levels == [levels]
    finally:
        pool.close()


def test_a_quiet_server_never_weakens_hard_players(recorder: SlowRecorder) -> None:
    pool = BotPool(workers=0)

    async def one_after_another() -> None:
        for seed in range(5):
            game = Game(Rules(), seed)
            game.give(0, game.round.hand(0)[:3])
            await pool.advance(game, dict.fromkeys((1, 2, 3), "hard"), seed)

    try:
        asyncio.run(one_after_another())
    finally:
        pool.close()
    assert recorder.levels == [["hard"] * 3] * 5


def test_many_hard_games_at_once_all_get_answers(recorder: SlowRecorder, data_dir: Path) -> None:
    """Through the API: a burst of hard games is served, degraded past the threshold."""
    # One browser with eight games at once: more than it may keep unfinished by default.
    settings = Settings(data_dir=data_dir, unfinished_per_browser=8)
    app = create_app(bot_workers=0, settings=settings)

    async def burst() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as browser:
            states = [
                (await browser.post("/api/games", json={"levels": ["hard"] * 3})).json()
                for _ in range(8)
            ]
            answers = await asyncio.gather(
                *(
                    browser.post(
                        f"/api/games/{s['id']}/pass",
                        json={"move": s["move"], "cards": s["view"]["hand"][:3]},
                    )
                    for s in states
                )
            )
            return [a.status_code for a in answers]

    assert asyncio.run(burst()) == [200] * 8
    passes = recorder.levels[-8:]
    assert ["hard"] * 3 in passes and ["medium"] * 3 in passes


def _random_actions(game: Game, rng: random.Random, count: int) -> None:
    for _ in range(count):
        if game.phase == "passing":
            seat = game.round.waiting_to_pass()[0]
            hand = game.round.hand(seat)
            game.give(seat, rng.sample(hand, game.round.cards_to_pass()))
        elif game.phase == "playing":
            game.play(rng.choice(game.round.legal_cards()))
        elif game.phase == "round-over":
            game.next_round()
        else:
            return


def test_a_worker_reuses_games_only_when_exact() -> None:
    """Workers keep games between requests; what they hand back is always the replay."""
    rules = Rules(target_score=60)
    rng = random.Random(3)
    game = Game(rules, seed=99)
    _random_actions(game, rng, 300)
    moves = game.moves
    for done in (0, 5, 6, 40, 41, 120, 119, len(moves)):  # forward, and a step back
        kept = bots._replay(rules.to_dict(), 99, moves[:done])
        exact = Game.replay(rules, 99, moves[:done])
        assert kept.moves == exact.moves
        assert kept.view(1).to_dict() == exact.view(1).to_dict()
        assert kept.scores == exact.scores
    # Another history from the same deal: nothing of the kept game leaks into it.
    other = Game(rules, seed=99)
    _random_actions(other, random.Random(4), 200)
    kept = bots._replay(rules.to_dict(), 99, other.moves)
    assert kept.moves == other.moves
    assert kept.view(2).to_dict() == other.view(2).to_dict()
