"""`GET /api/games/{id}/replay`: a finished game, or a finished round of a game still played,
as frames; checked against the game's own record replayed here with the engine alone."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import hearts
from client_support import another_browser
from hardening.driver import store_at
from hearts.record import action_to_move, actions_of, from_record
from hearts.web.replay import GAME_GOES_ON, ROUND_GOES_ON
from hearts.web.store import owner_key
from hearts.web.tokens import COOKIE

from .support import State, play_to_end, start, step
from .test_stats_api import moon_game

NO_GAME = {"detail": "This browser has no game with that id."}


def engine_rounds(record: dict[str, Any]) -> list[dict[str, Any]]:
    """What the engine says of each round of a record: the hands at the start of every
    trick, the tricks (leader, cards, winner) and the result."""
    game = from_record({**record, "actions": []})
    rounds: list[dict[str, Any]] = []
    starts: list[list[list[str]]] = []

    def close() -> None:
        rnd = game.round
        rounds.append({"starts": starts[:], "tricks": list(rnd.tricks), "result": game.results[-1]})
        starts.clear()

    for action in record["actions"]:
        move = action_to_move(action)
        rnd = game.round
        if isinstance(move, hearts.Play) and not rnd.trick:
            starts.append([sorted(str(c) for c in rnd.hand(s)) for s in range(rnd.players)])
        scored = len(game.results)
        game.apply(move)
        if len(game.results) > scored:
            close()
    return rounds


def check_against_record(replay: dict[str, Any], record: dict[str, Any], state: State) -> None:
    rules = hearts.Rules.from_dict(record["rules"])
    players = rules.players
    truth = engine_rounds(record)
    assert len(replay["rounds"]) == len(truth) == len(state["results"])
    for number, (shown, want, result) in enumerate(
        zip(replay["rounds"], truth, state["results"], strict=True), start=1
    ):
        assert shown["round"] == number
        frames = shown["frames"]
        tricks = [f for f in frames if f["kind"] == "trick"]
        kinds = [f["kind"] for f in frames]
        assert kinds[0] == "deal" and kinds[-1] == "scored"
        assert kinds[1:-1] == (["pass"] if shown["passes"] else []) + ["trick"] * len(tricks)
        # The hands as dealt are the ones the round's key deals.
        dealt = hearts.Round.deal(rules, seed=result["deal_key"], hand_number=result["hand_number"])
        assert shown["dealt"] == frames[0]["hands"]
        assert [sorted(h) for h in shown["dealt"]] == [
            sorted(str(c) for c in dealt.hand(s)) for s in range(players)
        ]
        # Every card dealt is played exactly once, and each trick is the engine's.
        played = Counter(card for f in tricks for _, card in f["trick"]["plays"])
        assert played == Counter(card for hand in shown["dealt"] for card in hand)
        assert len(tricks) == len(want["tricks"])
        points = [0] * players
        for frame, trick, hands in zip(tricks, want["tricks"], want["starts"], strict=True):
            shown_trick = frame["trick"]
            assert shown_trick["leader"] == trick.leader
            assert shown_trick["winner"] == trick.winner
            assert [c for _, c in shown_trick["plays"]] == [str(c) for c in trick.cards]
            assert [sorted(h) for h in frame["hands"]] == hands
            points[trick.winner] += shown_trick["points"]
            for event in frame["events"]:
                if event["type"] == "kitty-taken":
                    points[event["seat"]] += event["points"]
            assert frame["taken"] == points
            assert frame["totals"] == (
                state["results"][number - 2]["totals"] if number > 1 else [0] * players
            )
        # The score is the engine's, the key the one the game revealed.
        end = frames[-1]
        assert end["result"] == {"round": number, **result}
        assert shown["result"] == end["result"]
        assert end["taken"] == list(want["result"].points_taken) == points
        assert end["totals"] == result["totals"]
    assert replay["rounds"][-1]["frames"][-1]["totals"] == state["scores"]
    assert replay["winners"] == state["winners"]


@pytest.mark.parametrize(("players", "target"), [(4, 30), (3, 30), (8, 20)])
def test_a_finished_game_replays_as_the_engine_played_it(
    client: TestClient, players: int, target: int
) -> None:
    state = play_to_end(client, start(client, players=players, target_score=target))
    response = client.get(f"/api/games/{state['id']}/replay")
    assert response.status_code == 200, response.text
    replay = response.json()
    record = client.get(f"/api/games/{state['id']}/record").json()
    assert (
        replay["over"]
        and replay["seat"] == 0
        and replay["rounds_finished"] == len(state["results"])
    )
    assert replay["rules"]["players"] == players == len(replay["players"])
    assert [p["name"] for p in replay["players"]] == [p["name"] for p in record["players"]]
    check_against_record(replay, record, state)
    # One round alone is that round's frames, the same as in the whole game.
    last = len(state["results"])
    alone = client.get(f"/api/games/{state['id']}/replay", params={"round": last}).json()
    assert alone["rounds"] == [replay["rounds"][-1]]
    assert "secret" not in response.text and str(record["seed"]) not in response.text


def test_a_finished_round_of_a_game_still_played(client: TestClient) -> None:
    state = start(client)
    while state["phase"] != "round-over":
        state = step(client, state)
    url = f"/api/games/{state['id']}/replay"
    response = client.get(url, params={"round": 1})
    assert response.status_code == 200, response.text
    replay = response.json()
    assert not replay["over"] and replay["rounds_finished"] == 1 and len(replay["rounds"]) == 1
    (shown,) = replay["rounds"]
    key = state["results"][0]["deal_key"]
    assert shown["result"]["deal_key"] == key
    assert shown["frames"][-1]["totals"] == state["scores"]
    rules = hearts.Rules.from_dict(state["view"]["rules"])
    dealt = hearts.Round.deal(rules, seed=key, hand_number=0)
    assert [sorted(h) for h in shown["dealt"]] == [
        sorted(str(c) for c in dealt.hand(s)) for s in range(rules.players)
    ]
    # The next round, once dealt, is refused while it is played, and nothing of it is sent.
    state = step(client, state)
    assert state["phase"] == "passing"
    response = client.get(url, params={"round": 2})
    assert response.status_code == 409
    assert response.json() == {"detail": ROUND_GOES_ON.format(n=2)}
    assert client.get(url, params={"round": 1}).json() == replay  # round 1 only, as before
    # The whole game waits for its end; a round not reached is not there.
    response = client.get(url)
    assert response.status_code == 409 and response.json() == {"detail": GAME_GOES_ON}
    response = client.get(url, params={"round": 3})
    assert response.status_code == 404
    assert response.json() == {"detail": "This game has no round 3: it has round 1 so far."}


def test_refusals(client: TestClient) -> None:
    done = play_to_end(client, start(client, target_score=10))
    url = f"/api/games/{done['id']}/replay"
    rounds = len(done["results"])
    for bad in ("0", "-1", "x", "", "1.5", "99999"):
        response = client.get(url, params={"round": bad})
        assert response.status_code == 422, bad
        assert response.json()["detail"].endswith(".")
    response = client.get(url, params={"round": rounds + 1})
    assert response.status_code == 404
    words = f"rounds 1 to {rounds}" if rounds > 1 else "round 1"
    assert response.json() == {"detail": f"This game has no round {rounds + 1}: it has {words}."}
    stranger = another_browser(client)
    assert stranger.get(url).status_code == 404 and stranger.get(url).json() == NO_GAME
    play_to_end(stranger, start(stranger, target_score=10))  # a browser with games of its own
    assert stranger.get(url, params={"round": 1}).json() == NO_GAME
    assert client.get("/api/games/nope/replay").json() == NO_GAME
    nobody = another_browser(client)  # no cookie at all
    response = nobody.get(url)
    assert response.status_code == 404 and response.json() == NO_GAME


def test_a_moon_and_a_kitty_are_shown_as_the_engine_reports_them(
    client: TestClient, data_dir: Path
) -> None:
    start(client)
    owner = owner_key(client.cookies[COOKIE])
    store = store_at(data_dir)
    game, _ = moon_game(1, target=60)
    seats = {"seats": [None, "easy", "easy", "easy"]}
    store.create("moon", owner, game.rules.to_dict(), 1, seats, actions_of(game), "over")
    replay = client.get("/api/games/moon/replay").json()
    shooters = [r["result"]["shooter"] for r in replay["rounds"]]
    assert shooters == [r.shooter for r in game.results] and 0 in shooters
    for shown, result in zip(replay["rounds"], game.results, strict=True):
        (scored,) = [e for e in shown["frames"][-1]["events"] if e["type"] == "round-scored"]
        assert scored["result"] == result.to_dict()
    assert replay["rounds"][-1]["frames"][-1]["events"][-1] == {
        "type": "game-over", "winners": list(game.winners), "totals": list(game.scores),
    }  # fmt: skip
    # A kitty at three players: taken with the first points, shown with that trick.
    rules = hearts.Rules(players=3, kitty=True, target_score=40)
    kitty_game = hearts.Game(rules, 11)
    from helpers import play_game

    play_game(kitty_game)
    seats = {"seats": [None, "easy", "easy"]}
    store.create("kitty", owner, rules.to_dict(), 11, seats, actions_of(kitty_game), "over")
    replay = client.get("/api/games/kitty/replay").json()
    record = json.loads(json.dumps({**hearts.record.to_record(kitty_game), "players": []}))
    state = {
        "results": [r.to_dict() for r in kitty_game.results],
        "scores": list(kitty_game.scores),
        "winners": list(kitty_game.winners),
    }
    takers = [
        e for r in replay["rounds"] for f in r["frames"] for e in f["events"]
        if e["type"] == "kitty-taken"
    ]  # fmt: skip
    assert takers and all(r["kitty_size"] > 0 for r in replay["rounds"])
    for shown in replay["rounds"]:
        shown["result"].pop("deal_key", None)
    _check_unkeyed(replay, record, state)


def _check_unkeyed(replay: dict[str, Any], record: dict[str, Any], state: dict[str, Any]) -> None:
    """The record checks of a game dealt from an integer seed (no deal keys)."""
    truth = engine_rounds(record)
    for shown, want in zip(replay["rounds"], truth, strict=True):
        tricks = [f for f in shown["frames"] if f["kind"] == "trick"]
        assert [f["trick"]["winner"] for f in tricks] == [t.winner for t in want["tricks"]]
        assert [[sorted(h) for h in f["hands"]] for f in tricks] == want["starts"]
        kitty = sum(e["points"] for f in tricks for e in f["events"] if e["type"] == "kitty-taken")
        assert sum(f["trick"]["points"] for f in tricks) + kitty == sum(want["result"].points_taken)
        assert shown["frames"][-1]["taken"] == list(want["result"].points_taken)
    assert replay["rounds"][-1]["frames"][-1]["totals"] == state["scores"]


@pytest.mark.parametrize("players", [4, 6])
def test_a_scatter_pass_is_replayed_card_by_card(client: TestClient, players: int) -> None:
    # A scatter sends each card to its own player, in the order chosen: the replay says
    # which card went to whom (its card list alone is sorted), as each seat received it.
    state = start(client, players=players, pass_cycle=["scatter"], target_score=1)
    chosen = list(reversed(state["view"]["hand"][-(players - 1) :]))  # not in hand order
    passed = client.post(
        f"/api/games/{state['id']}/pass", json={"cards": chosen, "move": state["move"]}
    )
    assert passed.status_code == 200, passed.text
    state = play_to_end(client, passed.json())
    round_one = client.get(f"/api/games/{state['id']}/replay", params={"round": 1}).json()
    frame = next(f for f in round_one["rounds"][0]["frames"] if f["kind"] == "pass")
    mine = next(p for p in round_one["rounds"][0]["passes"] if p["seat"] == 0)
    assert [e["card"] for e in mine["each"]] == chosen  # in the order chosen
    assert {e["card"]: e["to"] for e in mine["each"]} == dict(
        zip(chosen, state_pass_to(players), strict=True)
    )
    assert frame["kind"] == "pass"
    received = {r["seat"]: r["cards"] for r in round_one["rounds"][0]["received"]}
    for other in round_one["rounds"][0]["passes"]:
        for entry in other["each"]:
            assert entry["card"] in received[entry["to"]]


def state_pass_to(players: int) -> list[int]:
    """Seat 0's scatter: the cards go to the seats on its left in turn."""
    return list(range(1, players))
