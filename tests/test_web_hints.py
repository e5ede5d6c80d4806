"""The coach's hints at a table of friends: a setting chosen when the table is made (hints
allowed unless the host says no), refused by the server at a table without them, and at a
table with them each hint told to the others on their event streams and counted per person
in the stored game. Each test runs on SQLite and on PostgreSQL (the `database` fixture)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from client_support import another_browser
from hearts.web.app import create_app
from hearts.web.service import Table
from stream_support import Stream
from test_web_friends import finished_table, move

from browser_support import LiveServer

State = dict[str, Any]


def table(host: Any, seats: list[str], **options: Any) -> State:
    answer = host.post("/api/games", json={"seats": seats, "name": "Ann", **options})
    assert answer.status_code == 201, answer.text
    state: State = answer.json()
    return state


def invite_of(state: State) -> str:
    return str(state["table"]["invite"].split("#invite=", 1)[1])


def join(browser: Any, state: State, name: str) -> State:
    body = {"invite": invite_of(state), "name": name}
    answer = browser.post(f"/api/games/{state['id']}/join", json=body)
    assert answer.status_code == 200, answer.text
    joined: State = answer.json()
    return joined


def look(browser: Any, state: State) -> State:
    body = {"invite": invite_of(state)}
    answer = browser.post(f"/api/games/{state['id']}/invitation", json=body)
    assert answer.status_code == 200, answer.text
    seen: State = answer.json()
    return seen


def pass_cards(browser: Any, state: State) -> State:
    view = state["view"]
    body = {"move": state["move"], "cards": view["hand"][: view["cards_to_pass"]]}
    answer = browser.post(f"/api/games/{state['id']}/pass", json=body)
    assert answer.status_code == 200, answer.text
    passed: State = answer.json()
    return passed


def test_the_hints_setting_is_kept_with_the_table_and_told_before_joining(
    app_dir: Path,
) -> None:
    app = create_app(app_dir, bot_workers=0)
    with TestClient(app) as ann:
        bea = another_browser(ann)
        strict = table(ann, ["you", "friend", "friend", "easy"], hints=False)
        usual = table(ann, ["you", "friend", "easy", "easy"])
        assert strict["table"]["hints"] is False and usual["table"]["hints"] is True
        # A friend reads it on the page the link opens, before giving a name.
        assert look(bea, strict)["hints"] is False and look(bea, usual)["hints"] is True
        assert join(bea, strict, "Bea")["table"]["hints"] is False
        # A game against computer players always has hints: the setting is for friends.
        alone = ann.post("/api/games", json={"levels": ["easy"], "hints": False}).json()
        assert alone["table"]["hints"] is True
        assert ann.post(f"/api/games/{alone['id']}/hint", json={}).status_code == 200
        assert (
            ann.post(
                "/api/games", json={"seats": ["you", "friend", "easy"], "hints": "no"}
            ).status_code
            == 422
        )
    # Kept across a restart.
    with TestClient(create_app(app_dir, bot_workers=0)) as again:
        again.cookies = ann.cookies
        assert again.get(f"/api/games/{strict['id']}").json()["table"]["hints"] is False
        assert look(again, strict)["hints"] is False


def test_a_rematch_keeps_the_tables_hints_setting(browsers: list[TestClient]) -> None:
    ann, bea, _ = browsers
    game = finished_table(browsers, hints=False)
    rematch = bea.post(f"/api/games/{game}/rematch", json={}).json()
    assert rematch["table"]["hints"] is False
    assert ann.post(f"/api/games/{game}/rematch", json={}).json()["table"]["hints"] is False


def test_a_table_from_before_the_setting_allows_hints() -> None:
    old = {"seats": [None, None, "easy", "easy"], "host": 0, "invite": "x", "fill": "easy"}
    assert Table.from_settings(old, 4).hints is True
    assert Table.from_settings({**old, "hints": False}, 4).hints is False
    assert Table.from_settings({**old, "hints": False}, 4).to_settings()["hints"] is False


def test_a_table_without_hints_refuses_them_to_everyone(browsers: list[TestClient]) -> None:
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "easy", "easy"], hints=False, turn_time=0)
    bea_state = join(bea, made, "Bea")
    assert bea_state["table"]["started"]
    for browser in (ann, bea):
        # A page shows no Hint button there; a request made all the same is refused.
        answer = browser.post(f"/api/games/{made['id']}/hint", json={})
        assert answer.status_code == 403, answer.text
        said = answer.json()["detail"]
        assert said == (
            "The coach's hints were switched off when this table was made: everyone here "
            "plays without them."
        )
    assert cal.post(f"/api/games/{made['id']}/hint", json={}).status_code == 404  # no seat there
    state = ann.get(f"/api/games/{made['id']}").json()
    assert [p["hints"] for p in state["players"][:2]] == [0, 0]


def hints_taken(browser: Any, state: State) -> list[int]:
    players = browser.get(f"/api/games/{state['id']}").json()["players"]
    return [p["hints"] for p in players if p["person"]]


def test_a_get_of_the_hint_changes_nothing(browsers: list[TestClient]) -> None:
    # Asking for a hint counts it and tells the others, so it is a POST: a GET (a link
    # followed, a page fetched ahead, a crawler) must change nothing. A GET of the address
    # is refused with a sentence, as other requests by the wrong method are.
    ann, bea, _ = browsers
    made = table(ann, ["you", "friend", "easy", "easy"], turn_time=0)
    assert join(bea, made, "Bea")["table"]["started"]
    address = f"/api/games/{made['id']}/hint"
    for _ in range(2):
        answer = ann.get(address)
        assert answer.status_code == 405, answer.text
        assert answer.json() == {"detail": "This address does not take GET requests."}
        assert answer.headers["allow"] == "POST"
    assert hints_taken(ann, made) == [0, 0]
    # Asked with a POST, it is counted, once a decision however often it is asked.
    first = ann.post(address, json={})
    assert first.status_code == 200, first.text
    assert ann.post(address, json={}).json() == first.json()
    assert hints_taken(ann, made) == [1, 0]


def test_a_hint_asked_from_another_site_is_refused_as_the_tables_other_requests_are(
    browsers: list[TestClient],
) -> None:
    # A page on another site may send a POST without the browser asking this server first
    # only with a form's body or plain text, and the browser's cookie (SameSite=strict)
    # stays at home. The hint takes a JSON object as the table's other requests do, so it is
    # refused as they are, with the same sentence, and nothing is counted.
    ann, bea, _ = browsers
    made = table(ann, ["you", "friend", "easy", "easy"], turn_time=0)
    assert join(bea, made, "Bea")["table"]["started"]
    foreign = {"origin": "https://elsewhere.example", "referer": "https://elsewhere.example/"}
    bodies = [
        ("text/plain", b"{}"),
        ("application/x-www-form-urlencoded", b"hint=1"),
        ("multipart/form-data; boundary=x", b"--x--"),
    ]
    cookieless = another_browser(ann, raise_server_exceptions=False)
    for route in ("hint", "start", "leave"):
        address = f"/api/games/{made['id']}/{route}"
        answers = [
            ann.post(address, content=body, headers={**foreign, "content-type": kind})
            for kind, body in bodies
        ]
        answers.append(cookieless.post(address, json={}, headers=foreign))
        said = [(a.status_code, a.json()) for a in answers]
        assert said == [
            *[(422, {"detail": "The request body must be a JSON object."})] * len(bodies),
            (404, {"detail": "This browser has no game with that id."}),
        ], route
    assert hints_taken(ann, made) == [0, 0]
    players = ann.get(f"/api/games/{made['id']}").json()["players"]
    assert not any(p["away"] for p in players)  # nor did anyone leave


def hint_notices(stream: Stream) -> list[dict[str, Any]]:
    return [
        event
        for kind, data in stream.messages
        if kind == "table"
        for event in data["events"]
        if event["type"] == "hint"
    ]


def play_until(people: dict[int, httpx.Client], game: str, seat: int) -> None:
    """Play the people's cards (their lowest legal) until it is `seat`'s turn to play."""
    for _ in range(200):
        state = people[seat].get(f"/api/games/{game}").json()
        waiting = state["table"]["waiting_on"]
        if state["phase"] == "playing" and waiting == [seat]:
            return
        mover = people[waiting[0]] if waiting and waiting[0] in people else None
        if mover is None:
            time.sleep(0.05)  # the computer players are answering
            continue
        mine = mover.get(f"/api/games/{game}").json()
        card = {"move": mine["move"], "card": mine["view"]["legal"][0]}
        assert mover.post(f"/api/games/{game}/play", json=card).status_code == 200
    raise AssertionError(f"seat {seat} never came to play")


def test_a_hint_is_told_to_the_others_and_counted_in_the_game(app_dir: Path) -> None:
    server = LiveServer(create_app(app_dir, bot_workers=0)).start()
    try:
        with (
            httpx.Client(base_url=server.url, timeout=30) as ann,
            httpx.Client(base_url=server.url, timeout=30) as bea,
        ):
            made = table(ann, ["you", "friend", "easy", "easy"], turn_time=0)
            game = made["id"]
            join(bea, made, "Bea")
            ann_stream, bea_stream = Stream(ann, game), Stream(bea, game)
            for stream in (ann_stream, bea_stream):
                stream.wait_for(lambda kind, data: kind == "state")
            answer = ann.post(f"/api/games/{game}/hint", json={})
            assert answer.status_code == 200, answer.text
            _, told = bea_stream.wait_for(
                lambda kind, data: (
                    kind == "table" and any(e["type"] == "hint" for e in data["events"])
                )
            )
            notice = next(e for e in told["events"] if e["type"] == "hint")
            assert notice["seat"] == 0 and notice["hints"] == 1
            assert told["players"][0]["name"] == "Ann" and told["players"][0]["hints"] == 1
            # The same pass asked again (a second tap, another tab) is the same hint.
            assert ann.post(f"/api/games/{game}/hint", json={}).json() == answer.json()
            # Bea passes; Ann's pass is the same decision still.
            pass_cards(bea, bea.get(f"/api/games/{game}").json())
            assert ann.post(f"/api/games/{game}/hint", json={}).status_code == 200
            # Ann passes; once it is her turn to play, a hint for her card is another one.
            pass_cards(ann, ann.get(f"/api/games/{game}").json())
            people = {0: ann, 1: bea}
            play_until(people, game, 0)
            assert ann.post(f"/api/games/{game}/hint", json={}).status_code == 200
            bea_stream.wait_for(lambda kind, data: data["players"][0]["hints"] == 2)
            # Bea asks on her turn: Ann is told of Bea's hint, never of her own.
            play_until(people, game, 1)
            assert bea.post(f"/api/games/{game}/hint", json={}).status_code == 200
            ann_stream.wait_for(lambda kind, data: data["players"][1]["hints"] == 1)
            time.sleep(0.3)  # a notice of anyone's own hint would have come by now
            assert [n["seat"] for n in hint_notices(bea_stream)] == [0, 0]
            assert [n["seat"] for n in hint_notices(ann_stream)] == [1]
            counted = bea.get(f"/api/games/{game}").json()["players"]
            assert [p["hints"] for p in counted[:2]] == [2, 1]
            assert [p["hints"] for p in counted[2:]] == [None, None]  # computer players
    finally:
        server.stop()
    # Kept in the stored game: a restarted server says the same.
    cookie = "; ".join(f"{name}={value}" for name, value in ann.cookies.items())
    with TestClient(create_app(app_dir, bot_workers=0)) as again:
        players = again.get(f"/api/games/{game}", headers={"Cookie": cookie}).json()["players"]
        assert [p["hints"] for p in players[:2]] == [2, 1]


def test_your_games_says_the_hints_the_person_took(browsers: list[TestClient]) -> None:
    """Each person's line of a finished table of friends in Your games (`GET /api/history`)
    has the hints they took there, as the game's end said them; a game of their own, none."""
    ann, bea, _ = browsers
    made = table(ann, ["you", "friend", "easy"], rules={"players": 3, "target_score": 20})
    join(bea, made, "Bea")
    game = made["id"]
    people = {0: ann, 1: bea}
    wanted = {0: 2, 1: 1}  # hints to ask for, each at a decision of its own
    for _ in range(2000):
        state = ann.get(f"/api/games/{game}").json()
        if state["phase"] == "game-over":
            break
        seat = (state["table"]["waiting_on"] or [0])[0]
        mine = people[seat].get(f"/api/games/{game}").json()
        if wanted[seat] and mine["phase"] in ("passing", "playing"):
            assert people[seat].post(f"/api/games/{game}/hint", json={}).status_code == 200
            wanted[seat] -= 1
        assert move(people[seat], mine).status_code == 200
    assert state["phase"] == "game-over" and wanted == {0: 0, 1: 0}
    alone = ann.post("/api/games", json={"levels": ["easy"] * 3, "rules": {"target_score": 5}})
    assert alone.status_code == 201, alone.text
    mine = alone.json()
    for _ in range(2000):
        if mine["phase"] == "game-over":
            break
        if mine["phase"] in ("passing", "playing") and mine["view"].get("legal", True):
            assert ann.post(f"/api/games/{mine['id']}/hint", json={}).status_code == 200
        answer = move(ann, mine)
        assert answer.status_code == 200, answer.text
        mine = answer.json()
    history = {line["id"]: line["hints"] for line in ann.get("/api/history").json()}
    assert history == {game: 2, mine["id"]: 0}
    assert [line["hints"] for line in bea.get("/api/history").json()] == [1]
