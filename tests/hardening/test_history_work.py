"""No request does work as long as a game's history on the event loop: a resent old move is
a conflict answered from the state, a retry of the latest move is answered from what that
move did, replays run in a thread, and one answer carries a bounded number of events."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hearts import Game, Rules, play_out
from hearts.ai import make_player
from hearts.events import Played
from hearts.record import actions_of
from hearts.web import events as web_events
from hearts.web import service
from hearts.web.app import create_app
from hearts.web.deals import replayed
from hearts.web.store import Store

LONG_TARGET = 1000


def long_game(client: TestClient, data_dir: Path) -> tuple[dict[str, Any], int]:
    """A game to 1,000 points, played out in the store by random players up to the
    person's turn in its last round: thousands of moves. Returns its state and length."""
    created = client.post("/api/games", json={"rules": {"target_score": LONG_TARGET}}).json()
    store = Store(data_dir)
    stored = store.load(created["id"])
    assert stored is not None
    game = replayed(Rules.from_dict(stored.rules), stored.seed, stored.actions)
    players = [make_player("random", seed=s) for s in range(4)]
    person = created["view"]["seat"]
    rng = random.Random(5)
    for _ in play_out(game, players, next_round=False):
        pass
    while max(game.scores) < LONG_TARGET - 60:
        game.next_round()
        for _ in play_out(game, players, next_round=False):
            pass
    game.next_round()
    others = {s: p for s, p in enumerate(players) if s != person}
    for _ in play_out(game, others, next_round=False):
        pass
    while game.phase == "playing" and game.round.turn == person:
        game.play(rng.choice(game.round.legal_cards()))
        for _ in play_out(game, others, next_round=False):
            pass
    moves = actions_of(game)
    assert store.append(created["id"], len(stored.actions), moves[len(stored.actions) :], "active")
    return created, len(moves)


def test_resending_an_old_move_of_a_long_game_is_a_small_conflict(
    client: TestClient, data_dir: Path
) -> None:
    created, length = long_game(client, data_dir)
    assert length > 3000
    first = {"move": 0, "cards": created["view"]["hand"][:3]}
    answer = client.post(f"/api/games/{created['id']}/pass", json=first)
    assert answer.status_code == 409, answer.text
    body = answer.json()
    assert "already made" in body["detail"]
    assert body["state"]["move"] == length and body["state"]["events"] == []
    # The answer is the game's state, no bigger than asking for it: no events of history.
    state = client.get(f"/api/games/{created['id']}")
    assert len(answer.content) < len(state.content) + 200


def test_a_retry_of_the_latest_move_is_answered_as_it_was(client: TestClient) -> None:
    state = client.post("/api/games", json={}).json()
    body = {"move": state["move"], "cards": state["view"]["hand"][:3]}
    url = f"/api/games/{state['id']}/pass"
    first = client.post(url, json=body)
    again = client.post(url, json=body)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert [e["type"] for e in again.json()["events"]].count("pass") == 4
    # A different move at the same number is a conflict, not a retry.
    other = {"move": state["move"], "cards": state["view"]["hand"][-3:]}
    assert client.post(url, json=other).status_code == 409


def test_a_retry_after_a_restart_replays_in_a_thread(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_loop: list[bool] = []
    real_replayed, real_since = service._replayed, service._replayed_since

    def running_loop() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    def replayed(stored: Any) -> Any:
        on_loop.append(running_loop())
        return real_replayed(stored)

    def since(loaded: Any, number: int) -> Any:
        on_loop.append(running_loop())
        return real_since(loaded, number)

    monkeypatch.setattr(service, "_replayed", replayed)
    monkeypatch.setattr(service, "_replayed_since", since)
    with TestClient(create_app(data_dir, bot_workers=0)) as first:
        state = first.post("/api/games", json={}).json()
        body = {"move": state["move"], "cards": state["view"]["hand"][:3]}
        url = f"/api/games/{state['id']}/pass"
        answered = first.post(url, json=body).json()
        cookies = dict(first.cookies)
    with TestClient(create_app(data_dir, bot_workers=0), cookies=cookies) as second:
        again = second.post(url, json=body)  # not cached here: loaded and replayed
    assert again.status_code == 200 and again.json()["events"] == answered["events"]
    # One load and one replay of the moves before the retried one, neither on the loop.
    assert on_loop == [False, False]


def test_one_answer_carries_a_bounded_number_of_events() -> None:
    game = Game(Rules(pass_cycle=("hold",), target_score=LONG_TARGET), seed=3)
    players = [make_player("random", seed=s) for s in range(4)]
    events = list(play_out(game, players))
    assert sum(isinstance(e, Played) for e in events) > web_events.MAX_EVENTS
    shown = web_events.for_browser(events, 0)
    assert len(shown) == web_events.MAX_EVENTS
    assert shown[-1]["type"] == "game-over"
