"""Shared by the coach's API tests (keyed deals, hint, history, statistics): a new game at
any table, the person's simplest move in any phase, a game played to its end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

State = dict[str, Any]


def start(
    client: TestClient, players: int = 4, levels: list[str] | None = None, **rules: Any
) -> State:
    body = {"levels": levels or ["easy"], "rules": {"players": players, **rules}}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    state: State = response.json()
    return state


def lowest_move(state: State) -> tuple[str, dict[str, Any]]:
    """The person's simplest move: the first cards to pass, the first legal card."""
    phase, view = state["phase"], state["view"]
    if phase == "passing":
        return "pass", {"cards": view["hand"][: view["cards_to_pass"]]}
    if phase == "playing":
        return "play", {"card": view["legal"][0]}
    if phase == "moon-choice":
        return "moon", {"choice": "add"}
    return "next", {}


def step(
    client: TestClient,
    state: State,
    choose: Callable[[State], tuple[str, dict[str, Any]]] = lowest_move,
) -> State:
    path, body = choose(state)
    response = client.post(f"/api/games/{state['id']}/{path}", json={**body, "move": state["move"]})
    assert response.status_code == 200, response.text
    result: State = response.json()
    return result


def play_to_end(
    client: TestClient, state: State, on_state: Callable[[State], None] | None = None
) -> State:
    for _ in range(5000):
        if on_state is not None:
            on_state(state)
        if state["phase"] == "game-over":
            return state
        state = step(client, state)
    raise AssertionError("the game did not end")
