"""The web game's JSON API through TestClient: a whole game, every refusal, retries, restarts."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest
from fastapi.testclient import TestClient

import hearts
from client_support import another_browser
from hardening.driver import store_at
from hearts.record import actions_of
from hearts.web.app import create_app
from hearts.web.bots import BotPool, advance
from hearts.web.deals import replayed
from hearts.web.options import RULE_OPTIONS
from hearts.web.settings import Settings
from hearts.web.store import owner_key

State = dict[str, Any]


@pytest.fixture
def data_dir(tmp_path: Path, database: str) -> Path:
    # Every test with a store runs on SQLite and on PostgreSQL (`database`, tests/conftest.py).
    return tmp_path / "data"


@pytest.fixture
def client(data_dir: Path) -> Iterator[TestClient]:
    # Computer players in threads: the same decisions, without starting processes.
    with TestClient(create_app(data_dir, bot_workers=0)) as test_client:
        yield test_client


def new_game(client: TestClient, **rules: Any) -> State:
    response = client.post(
        "/api/games", json={"levels": ["easy", "easy", "medium"], "rules": rules}
    )
    assert response.status_code == 201, response.text
    state: State = response.json()
    return state


def step(client: TestClient, state: State) -> State:
    """The person's simplest move in any phase: lowest cards, first legal card."""
    game = state["id"]
    phase = state["phase"]
    if phase == "passing":
        body: dict[str, Any] = {"cards": state["view"]["hand"][:3]}
        path = "pass"
    elif phase == "playing":
        body, path = {"card": state["view"]["legal"][0]}, "play"
    elif phase == "moon-choice":
        body, path = {"choice": "add"}, "moon"
    else:
        body, path = {}, "next"
    response = client.post(f"/api/games/{game}/{path}", json={**body, "move": state["move"]})
    assert response.status_code == 200, response.text
    result: State = response.json()
    return result


def stored_game(data_dir: Path, game_id: str) -> hearts.Game:
    stored = store_at(data_dir).load(game_id)
    assert stored is not None
    return replayed(hearts.Rules.from_dict(stored.rules), stored.seed, stored.actions)


def test_a_whole_game_by_api(client: TestClient, data_dir: Path) -> None:
    state = new_game(client, target_score=40)
    assert state["phase"] == "passing"
    assert state["players"][0]["name"] == "You"
    rounds_seen = 0
    while state["phase"] != "game-over":
        before = state
        state = step(client, state)
        assert state["move"] > before["move"]
        if state["phase"] == "playing":
            # Back to the person: the computer players have answered.
            assert state["view"]["turn"] == 0
            assert state["view"]["legal"]
        if state["phase"] == "round-over":
            rounds_seen += 1
            assert any(e["type"] == "round-over" for e in state["events"])
    assert rounds_seen + 1 == len(state["results"])
    assert max(state["scores"]) >= 40
    assert state["winners"] == [s for s in range(4) if state["scores"][s] == min(state["scores"])]
    last = state["events"][-1]
    assert last == {"type": "game-over", "winners": state["winners"], "n": state["move"]}
    # The store holds the whole record: replaying it gives the same totals.
    assert stored_game(data_dir, state["id"]).scores == state["scores"]


def test_play_events_show_the_trick_and_only_what_the_person_may_see(client: TestClient) -> None:
    state = step(client, new_game(client))
    kinds = [e["type"] for e in state["events"]]
    assert kinds[0] == "pass" and "exchange" in kinds
    other_passes = [e for e in state["events"] if e["type"] == "pass" and e["seat"] != 0]
    assert len(other_passes) == 3 and all("cards" not in e for e in other_passes)
    move = state["move"]
    state = step(client, state)
    plays = [e for e in state["events"] if e["type"] == "play"]
    # Each event carries the move count after its move: the person's card is the next move.
    assert plays[0] == {"type": "play", "seat": 0, "card": plays[0]["card"], "n": move + 1}
    assert [e["n"] for e in state["events"]] == sorted(e["n"] for e in state["events"])
    text = json.dumps(state)
    assert '"seed"' not in text
    assert set(state["view"]) >= {"hand", "legal", "trick", "tricks", "points_taken"}


def test_every_dimmed_card_has_the_engines_reason(client: TestClient) -> None:
    state = step(client, new_game(client))
    view = state["view"]
    dimmed = [card for card in view["hand"] if card not in view["legal"]]
    assert set(state["reasons"]) == set(dimmed)
    for card in dimmed:
        assert state["reasons"][card].endswith(".")


class Answer(Protocol):
    """A response from either client: Starlette's test client (httpx2) or httpx itself."""

    @property
    def status_code(self) -> int: ...

    @property
    def text(self) -> str: ...

    def json(self) -> Any: ...


def refusal(response: Answer, status: int) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail
    return detail


def unchanged(client: TestClient, state: State) -> None:
    now = client.get(f"/api/games/{state['id']}").json()
    assert now["move"] == state["move"]
    assert now["view"]["hand"] == state["view"]["hand"]
    assert now["view"]["trick"] == state["view"]["trick"]


def test_an_illegal_card_is_refused_with_the_reason(client: TestClient) -> None:
    state = step(client, new_game(client))
    view = state["view"]
    dimmed = [card for card in view["hand"] if card not in view["legal"]]
    assert dimmed, "the person holds cards that cannot be played on the first trick"
    response = client.post(
        f"/api/games/{state['id']}/play", json={"card": dimmed[0], "move": state["move"]}
    )
    assert refusal(response, 422) == state["reasons"][dimmed[0]]
    unchanged(client, state)


def test_a_card_not_held_and_a_word_that_is_not_a_card(client: TestClient) -> None:
    state = step(client, new_game(client))
    held = set(state["view"]["hand"])
    missing = next(str(c) for c in hearts.CARDS[:52] if str(c) not in held)
    url = f"/api/games/{state['id']}/play"
    assert "do not hold" in refusal(
        client.post(url, json={"card": missing, "move": state["move"]}), 422
    )
    assert "not a card" in refusal(
        client.post(url, json={"card": "ZZ", "move": state["move"]}), 422
    )
    unchanged(client, state)


def test_out_of_turn_and_wrong_phase_are_conflicts(client: TestClient) -> None:
    state = new_game(client)
    card = state["view"]["hand"][0]
    response = client.post(
        f"/api/games/{state['id']}/play", json={"card": card, "move": state["move"]}
    )
    assert "passed" in refusal(response, 409)
    response = client.post(f"/api/games/{state['id']}/next", json={"move": state["move"]})
    assert "not over" in refusal(response, 409)
    response = client.post(
        f"/api/games/{state['id']}/moon", json={"choice": "add", "move": state["move"]}
    )
    assert "moon" in refusal(response, 409)
    unchanged(client, state)


def test_a_wrong_pass_is_refused(client: TestClient) -> None:
    state = new_game(client)
    hand = state["view"]["hand"]
    url = f"/api/games/{state['id']}/pass"
    assert "exactly 3" in refusal(client.post(url, json={"cards": hand[:2], "move": 0}), 422)
    assert "twice" in refusal(client.post(url, json={"cards": [hand[0]] * 3, "move": 0}), 422)
    unchanged(client, state)


def test_the_largest_pass_a_table_allows_can_be_made(client: TestClient) -> None:
    # Three players hold 17 cards and may pass 16: a body of 16 cards was refused (at most
    # 13), so such a game could never get past its pass.
    state = new_game_with(client, {"players": 3, "pass_count": 16}, ["medium", "medium"])
    url = f"/api/games/{state['id']}/pass"
    response = client.post(url, json={"cards": state["view"]["hand"][:16], "move": 0})
    assert response.status_code == 200, response.text
    assert response.json()["phase"] == "playing"


def new_game_with(client: TestClient, rules: dict[str, Any], levels: list[str]) -> State:
    response = client.post("/api/games", json={"levels": levels, "rules": rules})
    assert response.status_code == 201, response.text
    state: State = response.json()
    return state


def test_a_wrong_move_number_is_refused(client: TestClient) -> None:
    state = step(client, new_game(client))
    url = f"/api/games/{state['id']}/play"
    card = state["view"]["legal"][0]
    ahead = refusal(client.post(url, json={"card": card, "move": state["move"] + 5}), 409)
    assert "has not been reached" in ahead
    behind = refusal(client.post(url, json={"card": card, "move": 0}), 409)
    assert "already made" in behind
    unchanged(client, state)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("not json", "not valid JSON"),
        ({"card": "QS"}, "move"),
        ({"card": "QS", "move": "3"}, "move"),
        ({"card": "QS", "move": -1}, "move"),
        ({"card": 7, "move": 0}, "card"),
        ({"card": "QS", "move": 0, "seat": 2}, "seat"),
    ],
)
def test_a_malformed_body_gets_one_sentence(client: TestClient, body: Any, words: str) -> None:
    state = step(client, new_game(client))
    url = f"/api/games/{state['id']}/play"
    if isinstance(body, str):
        response = client.post(url, content=body, headers={"Content-Type": "application/json"})
    else:
        response = client.post(url, json=body)
    assert words in refusal(response, 422)
    unchanged(client, state)


@pytest.mark.parametrize("name", ["\n", "a\nb", "x" * 500, " padded "])
def test_an_odd_field_name_is_quoted_in_one_short_line(client: TestClient, name: str) -> None:
    """The fuzzer found a field named by a line break echoed into the refusal."""
    detail = refusal(client.post("/api/games", json={name: 1}), 422)
    assert "\n" not in detail and len(detail) < 100
    assert "does not take a field called" in detail


def test_the_health_check_answers_while_the_store_does(client: TestClient) -> None:
    answer = client.get("/api/health")
    assert answer.status_code == 200 and answer.json() == {"ok": True}
    assert answer.headers["cache-control"] == "no-store"
    # (While PostgreSQL is away it is the usual 503: tests/hardening/test_postgres_faults.py.)
    # Many monitors ask with HEAD: the same answer, without a body.
    head = client.head("/api/health")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["cache-control"] == "no-store"


def test_a_bad_since_on_the_event_stream_says_what_it_is(client: TestClient) -> None:
    state = new_game(client)
    answer = client.get(f"/api/games/{state['id']}/events", params={"since": "abc"})
    assert refusal(answer, 422) == (
        "The move count given as since must be a whole number, not 'abc'."
    )


def test_an_unknown_game(client: TestClient) -> None:
    assert "no game" in refusal(client.get("/api/games/nope"), 404)
    response = client.post("/api/games/nope/play", json={"card": "2C", "move": 0})
    assert "no game" in refusal(response, 404)


def test_another_browsers_game_is_refused(client: TestClient, data_dir: Path) -> None:
    state = step(client, new_game(client))
    stranger = another_browser(client)
    # Answered exactly as a game that does not exist, so ids cannot be probed.
    missing = refusal(stranger.get("/api/games/no-such-id"), 404)
    assert refusal(stranger.get(f"/api/games/{state['id']}"), 404) == missing
    response = stranger.post(
        f"/api/games/{state['id']}/play",
        json={"card": state["view"]["legal"][0], "move": state["move"]},
    )
    assert refusal(response, 404) == missing
    assert stranger.get("/api/games/current").json() == {"id": None}
    unchanged(client, state)


def test_the_cookie_is_http_only_and_the_store_keeps_only_its_hash(
    client: TestClient, data_dir: Path
) -> None:
    response = client.post("/api/games", json={})
    header = response.headers["set-cookie"]
    assert "HttpOnly" in header and "SameSite=strict" in header
    assert "Secure" not in header  # plain HTTP on loopback: a Secure cookie would be dropped
    cookie = client.cookies["hearts_browser"]
    stored = store_at(data_dir).load(response.json()["id"])
    assert stored is not None and stored.owner == owner_key(cookie) != cookie


def test_bad_rules_are_refused_in_one_sentence(client: TestClient) -> None:
    cases = [
        ({"players": 11}, "3 to 10 players"),
        ({"target_score": 0}, "positive"),
        ({"target_score": 5000}, "at most"),
        ({"no_such_rule": True}, "Unknown rule"),
        ({"moon_rule": "maybe"}, "moon rule"),
    ]
    for rules, words in cases:
        response = client.post("/api/games", json={"rules": rules})
        assert words in refusal(response, 422)
    response = client.post("/api/games", json={"levels": ["easy", "genius", "easy"]})
    assert "levels" in refusal(response, 422)
    # The start screen's box takes the lengths the server takes, from /api/options: the
    # longest is accepted, one more is refused.
    low, high = client.get("/api/options").json()["target_range"]
    assert low == 1 and client.post("/api/games", json={"rules": {"target_score": high}}).is_success
    over = client.post("/api/games", json={"rules": {"target_score": high + 1}})
    assert f"at most {high} points" in refusal(over, 422)


def test_a_retried_play_is_answered_from_the_record(client: TestClient, data_dir: Path) -> None:
    state = step(client, new_game(client))
    body = {"card": state["view"]["legal"][0], "move": state["move"]}
    first = client.post(f"/api/games/{state['id']}/play", json=body)
    again = client.post(f"/api/games/{state['id']}/play", json=body)
    assert first.status_code == again.status_code == 200
    assert again.json()["move"] == first.json()["move"]
    assert again.json()["events"] == first.json()["events"]
    game = stored_game(data_dir, state["id"])
    assert len(actions_of(game)) == first.json()["move"]


def test_raced_plays_apply_once(data_dir: Path) -> None:
    app = create_app(data_dir, bot_workers=0)

    async def race() -> tuple[list[int], State]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as browser:
            created = await browser.post("/api/games", json={})
            state = created.json()
            hand = state["view"]["hand"]
            url = f"/api/games/{state['id']}/pass"
            answers = await asyncio.gather(
                browser.post(url, json={"cards": hand[:3], "move": 0}),
                browser.post(url, json={"cards": hand[:3], "move": 0}),
                browser.post(url, json={"cards": hand[-3:], "move": 0}),
            )
            final = (await browser.get(f"/api/games/{state['id']}")).json()
            return [a.status_code for a in answers], final

    statuses, final = asyncio.run(race())
    assert sorted(statuses) == [200, 200, 409]
    game = stored_game(data_dir, final["id"])
    assert [a["cards"] for a in actions_of(game)[:1]] == [final["view"]["passed"]]
    assert sum(1 for a in actions_of(game) if a["type"] == "pass" and a["seat"] == 0) == 1


def test_a_restarted_server_continues_at_the_same_card(data_dir: Path) -> None:
    with TestClient(create_app(data_dir, bot_workers=0)) as first:
        state = step(first, step(first, new_game(first)))
        cookie = first.cookies["hearts_browser"]
        assert first.get("/api/games/current").json() == {"id": state["id"]}
    with TestClient(
        create_app(data_dir, bot_workers=0), cookies={"hearts_browser": cookie}
    ) as again:
        assert again.get("/api/games/current").json() == {"id": state["id"]}
        now = again.get(f"/api/games/{state['id']}").json()
        for key in ("move", "phase", "view", "reasons", "scores"):
            assert now[key] == state[key]
        step(again, now)


def test_the_process_pool_plays_as_the_players_would_in_process() -> None:
    game = hearts.Game(hearts.Rules(), seed=11)
    game.give(0, game.round.hand(0)[:3])
    here, there = game.copy(), game.copy()
    # Hard players search, so they think in the pool (the quick levels use a thread).
    advance(here, {1: "hard", 2: "easy", 3: "hard"}, 11)
    pool = BotPool(workers=1)
    try:
        asyncio.run(pool.advance(there, {1: "hard", 2: "easy", 3: "hard"}, 11))
    finally:
        pool.close()
    assert actions_of(there) == actions_of(here)
    assert len(actions_of(there)) > 4  # three passes, then play up to the person's turn
    assert there.phase == "playing" and there.round.turn == 0


def test_every_rule_has_a_line_of_explanation(client: TestClient) -> None:
    options = client.get("/api/options").json()
    explained = {rule["field"] for rule in options["rules"]}
    assert explained == {f.name for f in dataclasses.fields(hearts.Rules)}
    assert all(rule["help"].endswith(".") for rule in RULE_OPTIONS)
    assert [o["id"] for o in options["opponents"]][:3] == ["marisol", "bertie", "tamsin"]
    for preset in options["presets"]:
        response = client.post("/api/games", json={"rules": preset["rules"]})
        assert response.status_code == 201, (preset["name"], response.text)


def test_the_options_are_sent_once_and_then_revalidated(client: TestClient) -> None:
    first = client.get("/api/options")
    assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
    etag = first.headers["etag"]
    # Sent compressed (the test client takes gzip), so its tag is weak.
    assert first.headers["content-encoding"] == "gzip" and etag.startswith('W/"')
    assert first.json()["levels"]
    again = client.get("/api/options", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    strong = etag.removeprefix("W/")
    plain = client.get("/api/options", headers={"If-None-Match": f'"other", {strong}'})
    assert plain.status_code == 304 and plain.headers["etag"] == strong
    stale = client.get("/api/options", headers={"If-None-Match": '"0123"'})
    assert stale.status_code == 200 and stale.json() == first.json()


def test_pages_are_served_and_docs_only_when_asked(client: TestClient, data_dir: Path) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "Content-Security-Policy" in page.headers
    for other in ("/rules", "/stats", "/replay", "/scorekeeper", "/game/js/main.js"):
        assert "Content-Security-Policy" in client.get(other).headers, other
    assert 'type="module"' in page.text
    assert "Breaking hearts" in client.get("/rules").text
    assert client.get("/game/js/main.js").status_code == 200
    assert client.get("/openapi.json").status_code == 404
    assert client.get("/docs").status_code == 404
    assert client.get("/scorekeeper").status_code in (200, 307)
    settings = Settings(data_dir=data_dir, api_docs=True)
    with TestClient(create_app(bot_workers=0, settings=settings)) as documented:
        spec = documented.get("/openapi.json").json()
        assert spec["paths"]["/api/games/{game_id}/play"]


def test_the_person_chooses_how_their_moon_scores(client: TestClient, data_dir: Path) -> None:
    # A keep-every-round game (seed 392) in which the person, always playing high while the
    # others duck, takes every point card; stored as if played here, up to the moon choice.
    rules = hearts.Rules(moon_rule="choose", pass_cycle=("hold",))
    game = hearts.Game(rules, 392)
    while game.phase == "playing":
        legal = game.round.legal_cards()
        if game.round.turn == 0:
            game.play(max(legal, key=lambda c: (c.rank, c.suit)))
        else:
            safe = [c for c in legal if c.suit != 2 and str(c) != "QS"]
            game.play(min(safe or legal, key=lambda c: c.rank))
    assert game.phase == "moon-choice" and game.moon_pending == 0
    client.post("/api/games", json={})  # gives this browser its cookie
    owner = owner_key(client.cookies["hearts_browser"])
    store_at(data_dir).create(
        "moon-game",
        owner,
        rules.to_dict(),
        392,
        {"levels": ["easy"] * 3},
        actions_of(game),
        "active",
    )
    state = client.get("/api/games/moon-game").json()
    assert state["phase"] == "moon-choice" and state["moon_pending"] == 0
    assert state["moon_stake"] == 26 and state["view"]["round_points"] == 26
    # Each choice's scores, as the engine will give them (the bonus card would count here).
    assert state["moon_scores"] == {"add": [0, 26, 26, 26], "subtract": [-26, 0, 0, 0]}
    move = state["move"]
    wrong = client.post("/api/games/moon-game/moon", json={"choice": "both", "move": move})
    assert "add" in refusal(wrong, 422)
    chosen = client.post("/api/games/moon-game/moon", json={"choice": "subtract", "move": move})
    after = chosen.json()
    assert after["phase"] == "round-over"
    assert after["scores"] == [-26, 0, 0, 0]
    assert after["moon_stake"] is None and after["moon_scores"] is None
    assert after["results"][-1]["moon_choice"] == "subtract"
    assert after["events"][0] == {
        "type": "moon-choice", "seat": 0, "choice": "subtract", "n": move + 1,
    }  # fmt: skip


def test_the_kitty_is_announced_to_everyone(client: TestClient) -> None:
    state = new_game(client, kitty=True)
    assert len(state["view"]["hand"]) == 12
    kitty_events = []
    while state["phase"] in ("passing", "playing"):
        state = step(client, state)
        kitty_events += [e for e in state["events"] if e["type"] == "kitty"]
    assert len(kitty_events) == 1
    assert len(kitty_events[0]["cards"]) == 4
    assert state["view"]["kitty"] == kitty_events[0]["cards"]


def test_two_server_processes_share_one_store(data_dir: Path) -> None:
    # Two apps over the same data directory stand for two server processes.
    with TestClient(create_app(data_dir, bot_workers=0)) as one:
        state = new_game(one)
        cookie = {"hearts_browser": one.cookies["hearts_browser"]}
        with TestClient(create_app(data_dir, bot_workers=0), cookies=cookie) as two:
            assert two.get(f"/api/games/{state['id']}").json()["move"] == state["move"]
            moved = step(one, state)  # the second app's cached copy is now behind
            assert two.get(f"/api/games/{state['id']}").json()["move"] == moved["move"]
            # A stale retry of the same pass at the other process is answered from the record.
            again = two.post(
                f"/api/games/{state['id']}/pass",
                json={"cards": state["view"]["hand"][:3], "move": state["move"]},
            )
            assert again.status_code == 200 and again.json()["move"] == moved["move"]


def test_without_a_loadable_main_the_players_think_in_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Worker processes load __main__ first; a program read from stdin has none to load.
    fake_main = types.ModuleType("__main__")
    fake_main.__file__ = "<stdin>"
    monkeypatch.setitem(sys.modules, "__main__", fake_main)
    pool = BotPool(workers=2)
    game = hearts.Game(hearts.Rules(), seed=5)
    game.give(0, game.round.hand(0)[:3])
    try:
        asyncio.run(pool.advance(game, dict.fromkeys((1, 2, 3), "hard"), 5))
    finally:
        pool.close()
    assert pool.workers == 0
    assert game.phase == "playing" and game.round.turn == 0


def test_quick_players_do_not_wait_for_the_pool() -> None:
    game = hearts.Game(hearts.Rules(), seed=8)
    game.give(0, game.round.hand(0)[:3])
    pool = BotPool(workers=1)
    try:
        asyncio.run(pool.advance(game, {1: "medium", 2: "easy", 3: "medium"}, 8))
        assert pool._pool is None  # no process was needed, so none was started
    finally:
        pool.close()
    assert game.phase == "playing" and game.round.turn == 0


def test_the_cookie_is_secure_over_https(data_dir: Path) -> None:
    with TestClient(create_app(data_dir, bot_workers=0), base_url="https://testserver") as tls:
        response = tls.post("/api/games", json={})
        assert response.status_code == 201
        assert "Secure" in response.headers["set-cookie"]
