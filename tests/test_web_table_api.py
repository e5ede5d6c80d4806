"""The API behind issue 15's table changes: this browser's unfinished games, and a round
that finishes at once when no point can change hands any more."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import hearts
from hearts.cards import HEARTS
from hearts.claim import settled_points
from hearts.record import actions_of, replay
from hearts.web.app import create_app
from hearts.web.store import Store, owner_key

COOKIE = "hearts_browser"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def client(data_dir: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir, bot_workers=0)) as test_client:
        yield test_client


def new_game(client: TestClient, **rules: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"levels": ["easy"] * 3, "rules": rules})
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    return state


def test_every_unfinished_game_is_listed_newest_first(client: TestClient) -> None:
    assert client.get("/api/games").json() == []  # no cookie yet: nothing to list
    first = new_game(client, target_score=50)
    second = new_game(client)
    listed = client.get("/api/games").json()
    assert [game["id"] for game in listed] == [second["id"], first["id"]]
    assert listed[1]["target"] == 50 and listed[1]["round"] == 1
    assert listed[0]["names"][0] == "You" and len(listed[0]["scores"]) == len(listed[0]["names"])
    # Each says when it was last played, so two alike can be told apart.
    played = [datetime.fromisoformat(game["played"]) for game in listed]
    assert played[0] >= played[1] and abs(played[0].timestamp() - time.time()) < 60
    # Another browser sees none of them.
    client.cookies.clear()
    assert client.get("/api/games").json() == []


def test_a_finished_game_is_not_listed(client: TestClient, data_dir: Path) -> None:
    game = new_game(client)
    cookie = client.cookies[COOKIE]
    rules = hearts.Rules(target_score=1, pass_cycle=("hold",))
    done = hearts.Game(rules, 5)
    while done.phase == "playing":
        done.play(done.round.legal_cards()[0])
    assert done.is_over
    Store(data_dir).create(
        "over",
        owner_key(cookie),
        rules.to_dict(),
        5,
        {"levels": ["easy"] * 3},
        actions_of(done),
        "over",
    )
    assert [g["id"] for g in client.get("/api/games").json()] == [game["id"]]


def settled_position(rules: hearts.Rules) -> tuple[int, list[dict[str, Any]]]:
    """A seed and the actions of a game in which it is seat 0's turn, two or more tricks
    are left, and nothing can change any more."""
    for seed in range(300):
        game = hearts.Game(rules, seed)
        rng = random.Random(seed)
        while game.phase == "playing":
            rnd = game.round
            if rnd.turn == 0 and len(rnd.tricks) <= 10 and settled_points(rnd) is not None:
                return seed, list(actions_of(game))
            game.play(rng.choice(rnd.legal_cards()))
    raise AssertionError("no settled position found")


def store_settled(client: TestClient, data_dir: Path, game_id: str) -> tuple[Any, ...]:
    new_game(client)
    cookie = client.cookies[COOKIE]
    rules = hearts.Rules(pass_cycle=("hold",))
    seed, actions = settled_position(rules)
    expected = settled_points(replay(rules, seed, actions).round)
    levels = {"levels": ["easy"] * 3}
    Store(data_dir).create(
        game_id, owner_key(cookie), rules.to_dict(), seed, levels, actions, "active"
    )
    return rules, seed, expected


def test_a_settled_round_is_played_out_when_asked(client: TestClient, data_dir: Path) -> None:
    rules, seed, expected = store_settled(client, data_dir, "settled")
    state = client.get("/api/games/settled").json()
    tricks_left = 13 - len(state["view"]["tricks"])
    answer = client.post(
        "/api/games/settled/play?finish=true",
        json={"move": state["move"], "card": state["view"]["legal"][0]},
    ).json()
    assert answer["phase"] in ("round-over", "moon-choice", "game-over")
    assert tuple(answer["view"]["points_taken"]) == expected
    plays = [e for e in answer["events"] if e["type"] == "play"]
    assert len(plays) >= 4 * tricks_left - 3  # every card left, not just one trick
    # The record replays to the same place: the plays made for the person are real actions.
    stored = Store(data_dir).load("settled")
    assert stored is not None
    assert replay(rules, seed, stored.actions).phase == answer["phase"]


def moon_position(rules: hearts.Rules) -> tuple[int, list[dict[str, Any]]]:
    """A seed and the actions of a game in which it is seat 0's turn and seat 1 is sure to
    shoot the moon: seat 1 plays its highest card, the others their lowest, or a point card
    when they lead or cannot follow."""
    for seed in range(300):
        game = hearts.Game(rules, seed)
        while game.phase == "playing":
            rnd = game.round
            if rnd.turn == 0 and settled_points(rnd) == (0, rules.round_points, 0, 0):
                return seed, list(actions_of(game))
            legal = rnd.legal_cards()
            led = rnd.trick[0][1].suit if rnd.trick else None
            points = [c for c in legal if c.suit == HEARTS or str(c) == "QS"]
            if rnd.turn == 1:
                pick = max(legal, key=lambda c: c.rank)
            elif points and (led is None or all(c.suit != led for c in legal)):
                pick = points[-1]
            else:
                pick = min(legal, key=lambda c: c.rank)
            game.play(pick)
    raise AssertionError("no settled moon found")


def test_a_computer_players_moon_in_a_round_played_out_is_chosen_not_left_waiting(
    client: TestClient, data_dir: Path
) -> None:
    # A round played out for the person ended in a computer player's moon, with the shooter
    # to choose how it scores: nobody asked it, and the game waited for good.
    new_game(client)
    cookie = client.cookies[COOKIE]
    rules = hearts.Rules(pass_cycle=("hold",), moon_rule="choose")
    seed, actions = moon_position(rules)
    levels = {"levels": ["easy"] * 3}
    store = Store(data_dir)
    store.create("moon", owner_key(cookie), rules.to_dict(), seed, levels, actions, "active")
    state = client.get("/api/games/moon").json()
    answer = client.post(
        "/api/games/moon/play?finish=true",
        json={"move": state["move"], "card": state["view"]["legal"][0]},
    ).json()
    assert answer["phase"] == "round-over", answer["phase"]
    assert answer["results"][-1]["shooter"] == 1
    # A game a process left so (stored waiting on a computer player's choice) is taken up
    # as soon as it is opened.
    stuck = replay(rules, seed, actions)
    stuck.play(stuck.round.legal_cards()[0])
    while stuck.phase == "playing":
        stuck.play(stuck.round.legal_cards()[0])
    assert stuck.phase == "moon-choice" and stuck.moon_pending == 1
    stuck_actions = list(actions_of(stuck))
    store.create("stuck", owner_key(cookie), rules.to_dict(), seed, levels, stuck_actions, "active")
    assert client.get("/api/games/stuck").json()["phase"] == "round-over"


def test_without_asking_a_settled_round_is_played_card_by_card(
    client: TestClient, data_dir: Path
) -> None:
    # Each request then adds exactly one of the person's cards, as before.
    store_settled(client, data_dir, "settled")
    state = client.get("/api/games/settled").json()
    answer = client.post(
        "/api/games/settled/play", json={"move": state["move"], "card": state["view"]["legal"][0]}
    ).json()
    assert len(answer["view"]["hand"]) == len(state["view"]["hand"]) - 1
    mine = [e for e in answer["events"] if e["type"] == "play" and e["seat"] == 0]
    assert len(mine) == 1


def test_an_open_round_is_not_played_out(client: TestClient) -> None:
    state = new_game(client, pass_cycle=["hold"])
    answer = client.post(
        f"/api/games/{state['id']}/play?finish=true",
        json={"move": state["move"], "card": state["view"]["legal"][0]},
    ).json()
    assert answer["phase"] == "playing" and len(answer["view"]["hand"]) == 12


def test_each_unfinished_game_says_its_players_levels_and_house_rules(client: TestClient) -> None:
    # Three new games read alike on the start screen but for their times: each line now has
    # what sets its table apart.
    made = client.post(
        "/api/games",
        json={"levels": ["expert", "easy", "expert"], "rules": {"partnership": True}},
    )
    assert made.status_code == 201, made.text
    new_game(client, target_score=50)
    # The "Moon choice" preset was summed up as "Shooting the moon", which every game has:
    # a rule of several choices is named with the one chosen.
    new_game(client, moon_rule="choose", bonus_card="JD")
    partners, plain, moon = reversed(client.get("/api/games").json())
    assert partners["levels"] == [None, "expert", "easy", "expert"]
    assert partners["house_rules"] == ["Partners"]
    assert plain["levels"] == [None, "easy", "easy", "easy"] and plain["house_rules"] == []
    assert moon["house_rules"] == [
        "Bonus card: jack of diamonds", "Shooting the moon: the shooter chooses",
    ]  # fmt: skip
