"""`POST /api/games/{id}/hint`: the hard player's pass or card for the person, with a reason;
refused when it is not the person's turn (409) and for another browser's game (404)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import hearts
from client_support import another_browser
from hardening.driver import store_at
from hearts.ai.hint import hint
from hearts.ai.search import FullSearch
from hearts.web import coach
from hearts.web.bots import decision_seed
from hearts.web.coach import GAME_OVER, NOT_YOUR_TURN, ROUND_OVER
from hearts.web.deals import replayed
from hearts.web.service import Table
from hearts.web.store import Person, owner_key
from hearts.web.tokens import COOKIE

from .support import State, start, step


def stored(data_dir: Path, game_id: str) -> tuple[hearts.Game, int | str]:
    record = store_at(data_dir).load(game_id)
    assert record is not None
    game = replayed(hearts.Rules.from_dict(record.rules), record.seed, record.actions)
    return game, record.seed


def hint_for(client: TestClient, state: State) -> dict[str, object]:
    response = client.post(f"/api/games/{state['id']}/hint", json={})
    assert response.status_code == 200, response.text
    found: dict[str, object] = response.json()
    return found


def test_the_hint_is_the_full_searchs_pass_then_its_card(
    client: TestClient, data_dir: Path
) -> None:
    state = start(client)
    assert state["phase"] == "passing"
    advice = hint_for(client, state)
    game, seed = stored(data_dir, state["id"])
    hard = FullSearch(seed=decision_seed(seed, state["move"], 0))
    assert advice["cards"] == [str(c) for c in hard.choose_pass(game.view(0))]
    assert advice["move"] == state["move"]
    reason = str(advice["reason"])
    assert reason.startswith("Pass the ") and reason.endswith(".") and "Marisol" in reason
    # The hint changes nothing, and the pass it gives is one the game takes.
    assert client.get(f"/api/games/{state['id']}").json()["move"] == state["move"]
    response = client.post(
        f"/api/games/{state['id']}/pass", json={"cards": advice["cards"], "move": state["move"]}
    )
    assert response.status_code == 200, response.text
    state = response.json()
    reasons = set()
    while state["phase"] == "playing":
        advice = hint_for(client, state)
        game, seed = stored(data_dir, state["id"])
        hard = FullSearch(seed=decision_seed(seed, state["move"], 0))
        assert advice["cards"] == [str(hard.choose_play(game.view(0)))]
        card = advice["cards"][0]
        assert card in state["view"]["legal"]
        reasons.add(str(advice["reason"]))
        response = client.post(
            f"/api/games/{state['id']}/play", json={"card": card, "move": state["move"]}
        )
        assert response.status_code == 200, response.text
        state = response.json()
    assert len(reasons) >= 10  # a sentence of its own for (nearly) every position
    assert state["phase"] in ("round-over", "game-over")
    response = client.post(f"/api/games/{state['id']}/hint", json={})
    over = GAME_OVER if state["phase"] == "game-over" else ROUND_OVER
    assert response.status_code == 409 and response.json() == {"detail": over}


def test_a_hint_at_three_and_eight_players(client: TestClient) -> None:
    for players in (3, 8):
        state = start(client, players)
        seen = set()
        for _ in range(3):
            advice = hint_for(client, state)
            cards = advice["cards"]
            assert isinstance(cards, list)
            if state["phase"] == "passing":
                assert len(cards) == state["view"]["cards_to_pass"]
                assert set(cards) <= set(state["view"]["hand"])
            else:
                assert len(cards) == 1 and cards[0] in state["view"]["legal"]
            seen.add(state["phase"])
            state = step(client, state)
        assert "playing" in seen


def test_no_hint_when_it_is_not_your_turn(client: TestClient, data_dir: Path) -> None:
    start(client)  # for the browser's cookie
    owner = owner_key(client.cookies[COOKIE])
    rules = hearts.Rules()
    # A table of friends waiting on another person's lead: everyone has passed and the 2♣
    # is in Bo's hand. (A game waiting on a computer player's move is moved on as it is
    # opened, and then it is the person's turn.)
    table = Table((None, None, "easy", "easy"), invite="x")
    people = [Person(0, owner, "Ann"), Person(1, "someone else", "Bo")]
    for seed in range(50):
        game = hearts.Game(rules, seed)
        for seat in range(4):
            game.give(seat, game.round.hand(seat)[:3])
        if game.round.turn == 1:
            break
    actions = hearts.record.actions_of(game)
    store = store_at(data_dir)
    settings = table.to_settings()
    store.create("waiting", owner, rules.to_dict(), seed, settings, actions, "active", people)
    response = client.post("/api/games/waiting/hint", json={})
    assert response.status_code == 409 and response.json() == {"detail": NOT_YOUR_TURN}


def test_another_browsers_game_gets_no_hint(client: TestClient) -> None:
    state = start(client)
    stranger = another_browser(client)
    missing = stranger.post("/api/games/no-such-game/hint", json={})
    theirs = stranger.post(f"/api/games/{state['id']}/hint", json={})
    assert missing.status_code == theirs.status_code == 404
    assert theirs.json() == missing.json() == {"detail": "This browser has no game with that id."}


def test_asking_again_for_the_same_move_runs_one_search(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def slow_hint(*args: object) -> Any:
        calls.append(1)
        time.sleep(0.3)  # long enough for the second request to arrive while it runs
        return hint(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(coach, "hint", slow_hint)
    state = step(client, start(client))
    with ThreadPoolExecutor(2) as pool:
        answers = list(
            pool.map(lambda _: client.post(f"/api/games/{state['id']}/hint", json={}), range(2))
        )
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json() == answers[1].json() and len(calls) == 1
    assert client.post(f"/api/games/{state['id']}/hint", json={}).json() == answers[0].json()
    assert len(calls) == 1
    state = step(client, state)  # a new move: a new search
    if state["phase"] == "playing":
        client.post(f"/api/games/{state['id']}/hint", json={})
        assert len(calls) == 2
