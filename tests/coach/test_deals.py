"""A shuffle anyone can check, through the API: every round of a new game is dealt from its
own key; the state carries the key's SHA-256 while the round is played, the round's result
carries the key once it is over, and the key re-deals exactly the hands that were played.
Games stored before keyed deals (an integer seed) keep loading and playing as they were."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import hearts
from hardening.driver import store_at
from hearts.web.bots import advance
from hearts.web.deals import replayed
from hearts.web.store import owner_key
from hearts.web.tokens import COOKIE

from .support import State, play_to_end, start, step


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def stored_game(data_dir: Path, game_id: str) -> hearts.Game:
    stored = store_at(data_dir).load(game_id)
    assert stored is not None
    return replayed(hearts.Rules.from_dict(stored.rules), stored.seed, stored.actions)


# Each target is above the most one round can give anyone, so every game has two rounds.
@pytest.mark.parametrize(("players", "target"), [(4, 40), (3, 40), (8, 60)])
def test_every_round_is_dealt_from_the_key_it_committed_to(
    players: int, target: int, client: TestClient, data_dir: Path
) -> None:
    rules = hearts.Rules(players=players, target_score=target)
    state = start(client, players, target_score=target)
    dealt: dict[int, list[str]] = {}  # the person's hand as first shown in each round
    committed: dict[int, str] = {}
    revealed_early: list[int] = []

    def watch(state: State) -> None:
        view, number = state["view"], state["view"]["hand_number"]
        if state["phase"] in ("passing", "playing"):
            commitment = state["commitment"]
            assert isinstance(commitment, str) and len(commitment) == 64
            committed.setdefault(number, commitment)
            assert committed[number] == commitment  # one key for the whole round
            dealt.setdefault(number, sorted(view["hand"]))
            # The round's key is never in the state before the round is over.
            key = stored_game(data_dir, state["id"]).deal_key(number)
            if key in json.dumps(state):
                revealed_early.append(number)
        else:
            assert state["commitment"] is None
        for result in state["results"]:
            assert sha256(result["deal_key"]) == committed[result["hand_number"]]

    state = play_to_end(client, state, watch)
    assert not revealed_early
    results = state["results"]
    assert len(results) >= 2 and len(results) == len(dealt)
    keys = [result["deal_key"] for result in results]
    assert len(set(keys)) == len(keys) and all(len(key) >= 32 for key in keys)
    for number, key in enumerate(keys):
        again = hearts.Round.deal(rules, seed=key, hand_number=number)
        assert sorted(str(card) for card in again.hand(0)) == dealt[number]
    # Every seat's hand of the last round, not only the person's, comes from its key.
    game = stored_game(data_dir, state["id"])
    last = len(keys) - 1
    assert hearts.Round.deal(rules, seed=keys[last], hand_number=last).dealt == game.round.dealt


def test_a_new_game_has_a_secret_of_at_least_128_random_bits(
    client: TestClient, data_dir: Path
) -> None:
    secrets: list[str] = []
    ids = [start(client)["id"] for _ in range(3)]
    for game_id in ids:
        stored = store_at(data_dir).load(game_id)
        assert stored is not None and isinstance(stored.seed, str)
        assert len(bytes.fromhex(stored.seed)) * 8 >= 128
        secrets.append(stored.seed)
    assert len(set(secrets)) == len(secrets)
    # The secret is never sent, not even in the game's state.
    state = client.get(f"/api/games/{ids[-1]}").json()
    assert secrets[-1] not in json.dumps(state)


def test_a_game_stored_before_keyed_deals_plays_on_as_it_was(
    client: TestClient, data_dir: Path
) -> None:
    start(client)  # for the browser's cookie
    owner = owner_key(client.cookies[COOKIE])
    rules = hearts.Rules(target_score=30)
    seed = 2**61 + 17  # what `secrets.randbits(62)` made
    game = hearts.Game(rules, seed)
    seats = [None, "easy", "easy", "easy"]
    advance(game, {seat: level for seat, level in enumerate(seats) if level}, seed)
    actions = hearts.record.actions_of(game)
    store_at(data_dir).create(
        "old-game", owner, rules.to_dict(), seed, {"seats": seats}, actions, "active"
    )
    state = client.get("/api/games/old-game").json()
    assert state["commitment"] is None
    # Dealt from the integer seed, exactly as before.
    assert sorted(state["view"]["hand"]) == sorted(
        str(card) for card in hearts.Round.deal(rules, seed=seed, hand_number=0).hand(0)
    )
    while state["phase"] != "round-over":
        state = step(client, state)
    assert "deal_key" not in state["results"][0]
    state = step(client, state)
    assert state["view"]["hand_number"] == 1 and state["commitment"] is None
    stored = store_at(data_dir).load("old-game")
    assert stored is not None and stored.seed == seed
    old = hearts.record.replay(rules, seed, stored.actions)
    assert old.view(0).to_dict() == state["view"]
