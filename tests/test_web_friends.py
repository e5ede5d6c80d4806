"""Tables of several people through the API: seats, invitations, joining, starting, moves for
the caller's seat, reactions, away and back, rematch; every refusal with one sentence.
Each test runs on SQLite and on PostgreSQL (the `database` fixture)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from client_support import another_browser
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS
from hearts.web.app import create_app
from hearts.web.service import LEAVE_GAP, RETURN_GRACE, START_GRACE, GameService, Table
from hearts.web.settings import Settings
from hearts.web.store import Person, Seating
from hearts.web.stores import StoreUnavailable

State = dict[str, Any]


def table(host: TestClient, seats: list[str], **options: Any) -> State:
    answer = host.post("/api/games", json={"seats": seats, "name": "Ann", **options})
    assert answer.status_code == 201, answer.text
    state: State = answer.json()
    return state


def invite_of(state: State) -> str:
    link = state["table"]["invite"]
    assert link.startswith(f"/?table={state['id']}#invite=")
    return str(link.split("#invite=", 1)[1])


def join(browser: TestClient, state: State, name: str, token: str | None = None) -> Any:
    body = {"invite": token or invite_of(state), "name": name}
    return browser.post(f"/api/games/{state['id']}/join", json=body)


def sentence(answer: Any, status: int) -> str:
    assert answer.status_code == status, answer.text
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and detail.endswith(".")
    return detail


def move(browser: TestClient, state: State) -> Any:
    """The simplest move for the browser's seat in `state` (its own view)."""
    game, phase, view = state["id"], state["phase"], state["view"]
    if phase == "passing":
        body: dict[str, Any] = {"cards": view["hand"][: view["cards_to_pass"]]}
        route = "pass"
    elif phase == "playing":
        body, route = {"card": view["legal"][0]}, "play"
    elif phase == "moon-choice":
        body, route = {"choice": "add"}, "moon"
    else:
        body, route = {}, "next"
    return browser.post(f"/api/games/{game}/{route}", json={"move": state["move"], **body})


def test_a_table_fills_by_invitation_and_starts_when_full(browsers: list[TestClient]) -> None:
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "medium", "friend"])
    assert made["table"]["started"] is False and made["table"]["open_seats"] == [1, 3]
    token = invite_of(made)
    assert len(token) >= 32  # 192 random bits, URL-safe
    kinds = [(p["person"], p["open"], p["you"]) for p in made["players"]]
    assert kinds == [(True, False, True), (True, True, False), (False, False, False),
                     (True, True, False)]  # fmt: skip
    # Before the table starts nobody moves.
    assert "starts" in sentence(move(ann, made), 409)
    joined = join(bea, made, "  Bea  ")
    assert joined.status_code == 200, joined.text
    bea_state = joined.json()
    assert bea_state["table"]["seat"] == 1 and bea_state["table"]["host"] is False
    assert bea_state["table"]["invite"] is None  # only the host hands out the link
    assert bea_state["players"][1]["name"] == "Bea" and bea_state["players"][1]["you"]
    assert bea_state["view"]["hand"] != made["view"]["hand"]
    assert bea_state["table"]["started"] is False
    # Opening the link again returns to the same seat.
    again = join(bea, made, "Bea again")
    assert again.status_code == 200 and again.json()["table"]["seat"] == 1
    # The last friend's seat taken: the table starts; the computer player has passed.
    last = join(cal, made, "Cal").json()
    assert last["table"]["started"] is True and last["table"]["seat"] == 3
    assert last["table"]["waiting_on"] == [0, 1, 2, 3] and last["phase"] == "passing"
    names = [p["name"] for p in ann.get(f"/api/games/{made['id']}").json()["players"]]
    assert names[0] == "Ann" and names[1] == "Bea" and names[3] == "Cal"


def test_a_table_without_rules_players_has_as_many_seats_as_it_lists(
    browsers: list[TestClient],
) -> None:
    """`seats` has one entry per seat: without `rules.players` the table has that many (a
    table of three was refused as "A table of 4 needs 4 seats, not 3."); a size given as
    well must agree."""
    ann = browsers[0]
    for players in (MIN_PLAYERS, MAX_PLAYERS):
        seats = ["you", "friend", *["easy"] * (players - 2)]
        made = ann.post("/api/games", json={"seats": seats, "name": "Ann"})
        assert made.status_code == 201, made.text
        state = made.json()
        assert state["view"]["players"] == players and len(state["players"]) == players
        assert state["view"]["rules"]["players"] == players
        assert state["table"]["open_seats"] == [1]
    seats = ["you", "friend", "easy"]
    wrong = ann.post("/api/games", json={"seats": seats, "rules": {"players": 4}})
    assert sentence(wrong, 422) == "A table of 4 needs 4 seats, not 3."


def test_names_with_emoji_and_joiners_are_taken_and_hidden_controls_refused(
    browsers: list[TestClient],
) -> None:
    """Everyday emoji are made with U+200D ZERO WIDTH JOINER ("👩‍💻"), and Persian or Indic
    names hold U+200C ZERO WIDTH NON-JOINER: both are names. Control characters, bidi
    controls (which could reorder the page's words round the name), line separators and
    other invisible characters stay refused; the length counts what a person sees."""
    ann = browsers[0]
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    for name in ("Ana \U0001f469\u200d\U0001f4bb", "Dad \U0001f468\u200d\U0001f467", family,
                 "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "Zo\u00eb \u2764\ufe0f",
                 f"{family} " * 11 + family, "W" * 24):  # fmt: skip
        made = ann.post(
            "/api/games",
            json={"seats": ["you", "friend", "easy"], "rules": {"players": 3}, "name": name},
        )
        assert made.status_code == 201, (name, made.text)
        assert made.json()["players"][0]["name"] == name
    refused = {
        "Bea\u202e": "invisible", "Bea\u2067x": "invisible", "a\u200bb": "invisible",
        "a\x07b": "invisible", "a\u00adb": "invisible",
        "\u200d": "Please give a name", "W" * 25: "at most 24", family * 25: "at most 24",
        # Nothing that shows by itself: a variation selector, a skin tone's modifier
        # alone... the name box said nothing wrong and the table showed a blank name.
        "\ufe0f": "Please give a name", "\u0301": "Please give a name",
        "\u0e31\u0e34\u0e35": "Please give a name",
        "e" + "\u0301" * 100: "at most 24",
    }  # fmt: skip
    for name, words in refused.items():
        answer = ann.post(
            "/api/games",
            json={"seats": ["you", "friend", "easy"], "rules": {"players": 3}, "name": name},
        )
        assert words in sentence(answer, 422), name
        assert answer.json()["field"] == "name"  # the start screen says it by the name box


def test_joining_is_refused_with_a_sentence(browsers: list[TestClient]) -> None:
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "easy"], rules={"players": 3})
    game = made["id"]
    assert "invitation" in sentence(join(bea, made, "Bea", token="x" * 32), 404)
    assert "invitation" in sentence(
        bea.post("/api/games/no-such/join", json={"invite": invite_of(made), "name": "B"}), 404
    )
    for name in ("", "   ", "x" * 25, "Bea\u202e", "a\x07b"):
        sentence(join(bea, made, name), 422)
    # Ann made the table: another Ann (in any case) could not be told apart from her. She is
    # named as she is called, not as typed ("called aNN already" when she is Ann).
    taken = sentence(join(bea, made, " aNN "), 409)
    assert taken == (
        "Someone at this table is called \u2068Ann\u2069 already:"
        " add an initial, or choose another name."
    )
    assert join(bea, made, "<b>Bea</b>").status_code == 200  # shown as text, never markup
    # Bea took the last seat, so the table started: there is no seat for Cal.
    assert "full" in sentence(join(cal, made, "Cal"), 409)
    # A stranger sees nothing of the table, not even that it exists.
    assert cal.get(f"/api/games/{game}").status_code == 404
    assert cal.post(f"/api/games/{game}/react", json={"reaction": "nice"}).status_code == 404


def test_nobody_takes_a_computer_players_name(browsers: list[TestClient]) -> None:
    # A friend who called herself Marisol sat beside the computer's Marisol: the table,
    # the scores and the chat could not tell the two apart.
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "easy", "friend"])
    computer = next(p["name"] for p in made["players"] if p["level"] and not p["open"])
    stand_ins = [p["stand_in"] for p in made["players"] if p["open"]]
    told = bea.post(f"/api/games/{made['id']}/invitation", json={"invite": invite_of(made)})
    characters = told.json()["characters"]
    assert computer in characters and len(characters) == 3 == len(stand_ins) + 1, characters
    for taken in characters:
        said = sentence(join(bea, made, f" {taken.upper()} "), 409)
        assert said == (
            f"Someone at this table is called \u2068{taken}\u2069 already:"
            " add an initial, or choose another name."
        )
    assert join(bea, made, "Bea").status_code == 200
    assert join(cal, made, "Cal").status_code == 200  # the last seat: the table starts
    # The host of a table for friends is told by the name box, and no game is made.
    for name in characters:
        answer = cal.post(
            "/api/games", json={"seats": ["you", "friend", "easy", "friend"], "name": name}
        )
        assert answer.status_code == 409 and answer.json()["field"] == "name", answer.text
        assert name in answer.json()["detail"]
    assert [g["id"] for g in cal.get("/api/games").json()] == [made["id"]]  # none made
    # Alone at a table a person is "You": any name is theirs.
    alone = cal.post("/api/games", json={"levels": ["easy"], "name": characters[0]})
    assert alone.status_code == 201, alone.text
    # A name no character has is taken.
    assert table(cal, ["you", "friend", "easy", "friend"])["players"][0]["name"] == "Ann"


def test_an_id_no_game_could_have_is_no_game(browsers: list[TestClient]) -> None:
    # A NUL, a slash or a space in an id: the same 404 as any unknown game, on every route
    # (on PostgreSQL a NUL reached the database and came back as a damaged game, a 500).
    ann = browsers[0]
    made = table(ann, ["you", "friend", "easy", "easy"])
    token = invite_of(made)
    for bad in ("ab%00cd", "%00", "a%20b", made["id"] + "%00"):
        assert "no game" in sentence(ann.get(f"/api/games/{bad}"), 404)
        assert "no game" in sentence(ann.get(f"/api/games/{bad}/events"), 404)
        assert "no game" in sentence(ann.post(f"/api/games/{bad}/start", json={}), 404)
        answer = ann.post(f"/api/games/{bad}/play", json={"card": "2C", "move": 0})
        assert "no game" in sentence(answer, 404)
        answer = ann.post(f"/api/games/{bad}/join", json={"invite": token, "name": "Bo"})
        assert "invitation" in sentence(answer, 404)
        answer = ann.post(f"/api/games/{bad}/invitation", json={"invite": token})
        assert "invitation" in sentence(answer, 404)


def test_an_invitation_shows_the_table_before_joining(browsers: list[TestClient]) -> None:
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "hard", "friend"], rules={"target_score": 50})
    game = made["id"]

    def look(browser: TestClient, token: str | None = None) -> Any:
        body = {"invite": token or invite_of(made)}
        return browser.post(f"/api/games/{game}/invitation", json=body)

    first = look(bea)
    assert first.status_code == 200, first.text
    assert first.json() == {
        "host": "Ann", "players": 4, "target_score": 50, "seated": ["Ann"], "open": 2,
        "computers": 1, "characters": ["Marisol", "Bertie", "Tamsin"], "started": False,
        "yours": False, "closed": None, "seat": 1,
        "host_seat": 0, "partnership": False, "hints": True, "turn_time": 30, "house_rules": [],
    }  # fmt: skip
    # Partners and the house rules are told before a friend sits down.
    rules = {"partnership": True, "bonus_card": "JD", "moon_rule": "choose"}
    teams = table(ann, ["you", "hard", "friend", "hard"], rules=rules)
    told = bea.post(f"/api/games/{teams['id']}/invitation", json={"invite": invite_of(teams)})
    assert told.json()["partnership"] is True
    assert told.json()["house_rules"] == [
        "Bonus card: jack of diamonds", "Shooting the moon: the shooter chooses", "Partners",
    ]  # fmt: skip
    assert look(ann).json()["yours"] is True  # the host's own browser
    assert join(bea, made, "Bea").status_code == 200
    seen = look(bea).json()
    assert seen["yours"] and seen["seated"] == ["Ann", "Bea"] and seen["open"] == 1
    assert seen["seat"] == 1  # her own: the link is her way back to it
    # Looking changes nothing: Cal, who only looked, still takes the last seat, the one
    # his look said.
    assert look(cal).json()["yours"] is False and look(cal).json()["seat"] == 3
    cal_seated = join(cal, made, "Cal").json()["table"]
    assert cal_seated["started"] is True and cal_seated["seat"] == 3
    stranger = another_browser(ann, raise_server_exceptions=False)
    late = look(stranger).json()
    assert late["started"] and late["open"] == 0 and "full" in late["closed"]
    assert late["seat"] is None and late["host_seat"] == 0
    assert look(bea).json()["closed"] is None  # seated: the link is a way back
    # Refusals: the wrong token or table says nothing of the table; a malformed body is a 422.
    assert "invitation" in sentence(look(stranger, token="x" * 32), 404)
    missing = stranger.post("/api/games/no-such/invitation", json={"invite": invite_of(made)})
    assert "invitation" in sentence(missing, 404)
    for body in ({}, {"invite": 7}, {"invite": "x" * 201}, {"invite": "x", "name": "B"}):
        assert stranger.post(f"/api/games/{game}/invitation", json=body).status_code == 422


def test_an_invitation_to_a_started_table_says_what_joining_would(
    browsers: list[TestClient],
) -> None:
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "friend"], rules={"players": 3})
    assert join(bea, made, "Bea").status_code == 200
    # The host started before Cal came: Cal's seat went to a computer player.
    assert ann.post(f"/api/games/{made['id']}/start", json={}).status_code == 200
    seen = cal.post(f"/api/games/{made['id']}/invitation", json={"invite": invite_of(made)})
    assert seen.json()["closed"] == sentence(join(cal, made, "Cal"), 409)
    assert seen.json()["closed"] == (
        "The host started this game before you joined, and a computer player took the open "
        "seat. Ask the host to start a new table for you."
    )


def test_a_link_to_a_table_whose_last_seat_was_just_taken_says_it_is_full(
    browsers: list[TestClient],
) -> None:
    # Cal lost the race for the last seat (or opened the link of a full table) and read
    # "This game started without a free seat for this link", which did not say it was full.
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "easy"], rules={"players": 3})
    seen = cal.post(f"/api/games/{made['id']}/invitation", json={"invite": invite_of(made)})
    assert seen.json()["closed"] is None  # Cal is on the join page, about to give a name
    assert join(bea, made, "Bea").json()["table"]["started"] is True  # Bea was quicker
    full = (
        "This table is full: someone took the last seat and the game has begun. "
        "Ask the host to start a new table for you."
    )
    assert sentence(join(cal, made, "Cal"), 409) == full
    seen = cal.post(f"/api/games/{made['id']}/invitation", json={"invite": invite_of(made)})
    assert seen.json()["closed"] == full


def test_an_invitation_to_a_finished_game_says_it_is_over(browsers: list[TestClient]) -> None:
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "easy"], rules={"players": 3, "target_score": 1})
    state = join(bea, made, "Bea").json()
    players = {0: ann, state["table"]["seat"]: bea}
    for _ in range(500):
        state = ann.get(f"/api/games/{made['id']}").json()
        if state["phase"] == "game-over":
            break
        for seat, browser in players.items():
            mine = browser.get(f"/api/games/{made['id']}").json()
            if seat in mine["table"]["waiting_on"]:
                move(browser, mine)
    assert state["phase"] == "game-over"
    seen = cal.post(f"/api/games/{made['id']}/invitation", json={"invite": invite_of(made)})
    assert seen.json()["closed"] == "This game is over; ask the host for a new table."
    assert sentence(join(cal, made, "Cal"), 409) == seen.json()["closed"]


def test_the_host_starts_and_computer_players_take_the_empty_seats(
    browsers: list[TestClient],
) -> None:
    ann, bea, _ = browsers
    made = table(ann, ["friend", "you", "friend", "hard"], fill="easy")
    assert made["table"]["seat"] == 1 and made["table"]["host"] is True
    bea_state = join(bea, made, "Bea").json()
    assert bea_state["table"]["seat"] == 0
    assert made["table"]["can_start"] and not bea_state["table"]["can_start"]
    assert bea_state["table"]["rematch_of"] is None  # only a rematch lets anyone start it
    assert "Only" in sentence(bea.post(f"/api/games/{made['id']}/start", json={}), 403)
    started = ann.post(f"/api/games/{made['id']}/start", json={})
    assert started.status_code == 200, started.text
    state = started.json()
    assert state["table"]["started"] is True and state["table"]["open_seats"] == []
    seat2 = state["players"][2]
    assert (seat2["person"], seat2["level"], seat2["open"]) == (False, "easy", False)
    # The computer player of the lobby keeps its name at the table; the seat filled at the
    # start takes its own seat's character (once it took the first, and the lobby's Marisol
    # became Bertie on the way to the table).
    lobby = made["players"][3]
    assert (state["players"][3]["name"], state["players"][3]["level"]) == (lobby["name"], "hard")
    names = [p["name"] for p in state["players"]]
    assert len(set(names)) == len(names) and seat2.get("character")
    assert state["table"]["waiting_on"] == [0, 1, 2, 3]  # people pass first
    assert "already" in sentence(ann.post(f"/api/games/{made['id']}/start", json={}), 409)
    assert join(browsers[2], made, "Cal").status_code == 409


SHOWN = ("name", "level", "open", "character")


def seating(browser: TestClient, seats: list[str], fill: str = "medium") -> Any:
    return browser.get("/api/seating", params={"seats": seats, "fill": fill})


@pytest.mark.parametrize(
    "seats",
    [
        ["you", "friend", "friend", "easy", "hard"],
        ["friend", "you", "friend", "hard"],
        ["you", *(["friend", "expert"] * ((MAX_PLAYERS - 1) // 2)), "friend"][:MAX_PLAYERS],
    ],
)
def test_the_seating_asked_for_is_the_lobby_and_the_start_it_makes(
    browsers: list[TestClient], seats: list[str]
) -> None:
    # The start screen asks the server who an invite will seat where, in place of a copy of
    # its rule in JavaScript: the answer is the lobby of the table those seats make, seat
    # by seat, and nothing is made or stored to give it.
    ann, bea, _ = browsers
    answer = seating(bea, seats, fill="hard")
    assert answer.status_code == 200, answer.text
    assert "set-cookie" not in answer.headers and bea.get("/api/games").json() == []
    shown = answer.json()
    made = table(ann, seats, fill="hard")
    lobby = made["players"]
    mine = seats.index("you")
    assert [s["you"] for s in shown] == [seat == mine for seat in range(len(seats))]
    assert [{k: s[k] for k in SHOWN} for s in shown if not s["you"]] == [
        {k: p.get(k) for k in SHOWN} for p in lobby if not p["you"]
    ]
    # The characters go by seat, as the start screen shows them: the first on the host's
    # left, the next after, round the table, whoever sits where (once the computer seats
    # took them first: a friend's seat in between moved those after it, and Bertie, across
    # on the start screen, was on the right in the lobby). So every friend's seat names its
    # stand-in, whoever comes.
    friends = [seat for seat, kind in enumerate(seats) if kind == "friend"]
    opponents = [o["id"] for o in bea.get("/api/options").json()["opponents"]]
    size = len(seats)
    by_seat = {(mine + step) % size: opponents[step - 1] for step in range(1, size)}
    stand_ins = {s["seat"]: s["stand_in"] for s in shown if s["open"]}
    assert set(stand_ins) == set(friends)
    assert {s["seat"]: s["character"] or s["stand_in"] for s in shown if not s["you"]} == by_seat
    # Nobody comes: each friend's seat is played by the character named.
    started = ann.post(f"/api/games/{made['id']}/start", json={}).json()
    assert {seat: started["players"][seat]["character"] for seat in friends} == stand_ins
    if len(friends) > 1:
        # Someone takes the first friend's seat: the second's stand-in is still the one named.
        other = table(ann, seats, fill="hard")
        assert join(bea, other, "Bea").json()["table"]["seat"] == friends[0]
        after = ann.post(f"/api/games/{other['id']}/start", json={}).json()
        second = friends[1]
        assert after["players"][second]["character"] == stand_ins[second]


def test_a_table_made_before_characters_went_by_seat_keeps_its_own() -> None:
    # A game under way (or finished, in the history) keeps the characters it was dealt with:
    # only tables made since say that theirs go by seat.
    before = {"seats": [None, None, "easy", "hard"], "host": 0, "invite": "x", "fill": "easy"}
    people = {
        0: Person(0, "ann", "Ann"),
        1: Person(1, None, ""),  # a friend's seat nobody took
    }
    started = Seating(True, None, 0.0, 0, people)

    def names(table: Table) -> dict[int, str]:
        return {seat: c["name"] for seat, c in table.characters(started).items()}

    old = Table.from_settings(before, 4)
    assert names(old) == {2: "Marisol", 3: "Bertie", 1: "Tamsin"}
    assert "cast" not in old.to_settings()
    new = Table.from_settings({**before, "cast": "seat"}, 4)
    assert names(new) == {1: "Marisol", 2: "Bertie", 3: "Tamsin"}
    assert Table.from_settings(new.to_settings(), 4) == new


def others(browsers: list[TestClient], count: int) -> list[TestClient]:
    """`count` browsers of their own (cookie jars) on the server of `browsers`."""
    more = [another_browser(browsers[0], raise_server_exceptions=False) for _ in range(count)]
    return (browsers[1:] + more)[:count]


@pytest.mark.parametrize(
    "seats",
    [
        ["you", "friend", *["hard"] * (MIN_PLAYERS - 2)],
        ["friend", "you", *["friend"] * (MIN_PLAYERS - 2)],
        ["easy", "friend", "you", "friend", "friend"],
        ["friend", "hard", "friend", "you", "easy", "friend"],
        ["you", *["friend"] * (MAX_PLAYERS - 1)],
        ["easy", "friend", "you", *["friend", "expert"] * ((MAX_PLAYERS - 3) // 2)][:MAX_PLAYERS],
    ],
)
def test_the_lobby_names_who_plays_each_open_seat_if_the_table_starts_now(
    browsers: list[TestClient], seats: list[str]
) -> None:
    # Each open seat of the lobby names its stand-in ("Waiting for a friend; else Tamsin, a
    # medium computer player"): with each number of friends come, the table started then
    # seats exactly the characters the lobby named, and the names follow as people join.
    ann = browsers[0]
    friends = [seat for seat, kind in enumerate(seats) if kind == "friend"]
    named_before: dict[int, str] = {}
    for come in range(len(friends)):
        made = table(ann, seats, fill="easy")
        for number, friend in enumerate(others(browsers, come)):
            assert join(friend, made, f"Friend {number}").status_code == 200
        lobby = ann.get(f"/api/games/{made['id']}").json()
        assert lobby["table"]["started"] is False
        open_seats = friends[come:]
        assert lobby["table"]["open_seats"] == open_seats
        stand_ins = {p["seat"]: p.get("stand_in") for p in lobby["players"]}
        assert all(stand_ins[seat] is not None for seat in open_seats)
        assert all(stand_ins[seat] is None for seat in stand_ins if seat not in open_seats)
        started = ann.post(f"/api/games/{made['id']}/start", json={})
        assert started.status_code == 200, started.text
        players = started.json()["players"]
        for seat in open_seats:
            assert players[seat]["character"] == stand_ins[seat]
            assert (players[seat]["person"], players[seat]["level"]) == (False, "easy")
        # A seat still open once more friends have come is played by the same character as
        # before: characters go by seat (once those seated from the start came first, and a
        # seat's stand-in changed as friends came).
        if come:
            assert all(named_before[seat] == stand_ins[seat] for seat in open_seats)
        named_before = {seat: str(stand_ins[seat]) for seat in open_seats}


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ({}, "The seats are missing from the address."),
        ({"seats": ["you", "friend"]}, f"There must be at least {MIN_PLAYERS} seats, not 2."),
        (
            {"seats": ["you"] + ["friend"] * MAX_PLAYERS},
            f"There can be at most {MAX_PLAYERS} seats, not {MAX_PLAYERS + 1}.",
        ),
        (
            {"seats": ["you"] + ["easy"] * 5000},
            f"There can be at most {MAX_PLAYERS} seats, not 5001.",
        ),
        (
            {"seats": ["you", "friend", "godlike"]},
            "The seats must each be you, friend, easy, medium, hard or expert, not 'godlike'.",
        ),
        ({"seats": ["friend", "friend", "easy"]}, 'Exactly one seat must be "you".'),
        ({"seats": ["you", "you", "easy"]}, 'Exactly one seat must be "you".'),
        (
            {"seats": ["you", "friend", "easy"], "fill": "<b>x</b>"},
            "The fill must be easy, medium, hard or expert, not '<b>x</b>'.",
        ),
    ],
)
def test_the_seating_asked_for_refuses_with_a_sentence(
    browsers: list[TestClient], query: dict[str, Any], said: str
) -> None:
    assert sentence(browsers[0].get("/api/seating", params=query), 422) == said


def test_a_long_seat_is_quoted_short(browsers: list[TestClient]) -> None:
    query = {"seats": ["you", "friend", "x" * 10_000]}
    said = sentence(browsers[0].get("/api/seating", params=query), 422)
    assert said.startswith("The seats must each be you, friend, easy, medium, hard or expert")
    assert len(said) < 200 and said.endswith("\u2026'."), said


def test_moves_act_for_the_callers_seat_and_a_stale_move_is_a_conflict(
    browsers: list[TestClient],
) -> None:
    ann, bea, _ = browsers
    made = table(ann, ["you", "friend", "medium", "medium"])
    bea_state = join(bea, made, "Bea").json()
    ann_state = ann.get(f"/api/games/{made['id']}").json()
    # Both pass at once: Bea's pass, sent with the move number from before Ann's was
    # stored, still stands (a pass depends on the passer's hand alone); whoever passes
    # second sees the exchange and the computers' passes.
    first = move(ann, ann_state)
    assert first.status_code == 200, first.text
    second = move(bea, bea_state)
    assert second.status_code == 200, second.text
    after = second.json()
    # Ann's pass sent again is a retry (answered as it was); a different pass from her at
    # that number is a conflict, answered with the state.
    assert move(ann, ann_state).status_code == 200
    different = {"move": ann_state["move"], "cards": ann_state["view"]["hand"][-3:]}
    again = ann.post(f"/api/games/{made['id']}/pass", json=different)
    assert again.status_code == 409 and "state" in again.json()
    kinds = [e["type"] for e in after["events"]]
    assert "exchange" in kinds and after["phase"] == "playing"
    # Each seat is told the cards only of its own pass.
    mine = [e for e in after["events"] if e["type"] == "pass" and "cards" in e]
    assert [e["seat"] for e in mine] == [1]
    # The game plays on with each person moving in turn, never for another seat.
    for _ in range(40):
        states = [b.get(f"/api/games/{made['id']}").json() for b in (ann, bea)]
        turn = states[0]["table"]["waiting_on"]
        if states[0]["phase"] != "playing":
            break
        assert turn in ([0], [1]), states[0]["table"]
        mover = 0 if turn == [0] else 1
        other = 1 - mover
        held = states[other]["view"]["hand"]
        if held:  # not that seat's turn: refused, whatever card it names
            body = {"move": states[other]["move"], "card": held[0]}
            wrong = (ann, bea)[other].post(f"/api/games/{made['id']}/play", json=body)
            assert wrong.status_code == 409, wrong.text
        assert move((ann, bea)[mover], states[mover]).status_code == 200
    assert states[0]["phase"] in ("round-over", "playing")


def test_reactions_are_from_a_fixed_set_and_not_too_quick(browsers: list[TestClient]) -> None:
    ann, bea, _ = browsers
    made = table(ann, ["you", "friend", "medium"], rules={"players": 3})
    join(bea, made, "Bea")
    offered = [r["key"] for r in ann.get("/api/options").json()["reactions"]]
    assert "nice" in offered
    url = f"/api/games/{made['id']}/react"
    assert "not one of" in sentence(ann.post(url, json={"reaction": "<script>"}), 422)
    assert ann.post(url, json={"reaction": offered[0]}).status_code == 200
    too_soon = ann.post(url, json={"reaction": offered[1]})
    assert "moment" in sentence(too_soon, 429)
    assert 1 <= int(too_soon.headers["retry-after"]) <= 2  # when to try again, as 429s say
    assert bea.post(url, json={"reaction": offered[1]}).status_code == 200


def wait_past(browser: TestClient, game: str, phase: str, limit: float = 20) -> State:
    """The game once it has left `phase` (the turn clock acts), as `browser` sees it."""
    deadline = time.monotonic() + limit
    state: State = browser.get(f"/api/games/{game}").json()
    while state["phase"] == phase and time.monotonic() < deadline:
        time.sleep(0.5)
        state = browser.get(f"/api/games/{game}").json()
    return state


def test_a_late_person_still_here_has_that_move_made_and_keeps_the_seat(
    browsers: list[TestClient],
) -> None:
    # Everyone's first late move once marked them away: a computer player then played the
    # whole round in a second while three people sat at the pass screen.
    ann, bea, _ = browsers
    made = table(ann, ["you", "friend", "medium", "medium"], turn_time=5)
    join(bea, made, "Bea")  # heard from just now: she is here, only slow
    game = made["id"]
    ann_state = ann.get(f"/api/games/{game}").json()
    assert ann_state["table"]["deadline"] is not None
    assert (
        0 < ann_state["table"]["deadline"] - ann_state["table"]["now"] <= 5 + START_GRACE
    )  # the first pass
    assert move(ann, ann_state).status_code == 200
    state = wait_past(ann, game, "passing")
    assert state["phase"] == "playing", state["table"]
    assert state["players"][1]["away"] is False
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    stored = service.store.load(game)
    assert stored is not None
    made_for_her = [a for a in stored.actions if a.get("seat") == 1]
    assert [a.get("stand_in") for a in made_for_her] == [True]  # her pass, and no more
    mine = bea.get(f"/api/games/{game}").json()
    assert mine["table"]["stood_in"] == 1


def test_a_late_person_gone_past_the_hold_time_is_played_for_and_takes_the_seat_back(
    browsers: list[TestClient],
) -> None:
    ann, bea, _ = browsers
    made = table(ann, ["you", "friend", "medium", "medium"], turn_time=5)
    join(bea, made, "Bea")
    game = made["id"]
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    service.store.touch(game, 1, time.time() - 3600)  # not heard from for an hour
    assert move(ann, ann.get(f"/api/games/{game}").json()).status_code == 200
    state = wait_past(ann, game, "passing")
    assert state["phase"] == "playing", state["table"]
    assert state["players"][1]["away"] is True
    # Any request from her takes the seat back, and the turn clock starts again for her.
    asked = time.time()
    back = bea.get(f"/api/games/{game}").json()
    assert back["players"][1]["away"] is False
    if back["table"]["deadline"] is not None:
        assert back["table"]["deadline"] >= asked + 5 - 1
    assert ann.get(f"/api/games/{game}").json()["players"][1]["away"] is False


def test_a_person_who_leaves_is_played_for_at_once_and_takes_the_seat_back(
    browsers: list[TestClient],
) -> None:
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "medium", "medium"], turn_time=0)
    game = made["id"]
    leave = f"/api/games/{game}/leave"
    assert "your table" in sentence(ann.post(leave, json={}), 409)  # the host's stays
    assert join(bea, made, "Bea").json()["table"]["started"]  # every person's seat taken
    assert "no game" in sentence(cal.post(leave, json={}), 404)
    state = ann.get(f"/api/games/{game}").json()
    assert move(ann, state).status_code == 200
    waiting = ann.get(f"/api/games/{game}").json()
    assert waiting["phase"] == "passing" and 0 not in waiting["table"]["waiting_on"]
    assert 1 in waiting["table"]["waiting_on"]
    # Bea leaves while the table waits for her pass: a computer player passes for her now
    # (no turn time at this table: without leaving it would wait for the hold time).
    left = bea.post(leave, json={})
    assert left.status_code == 200, left.text
    assert left.json()["players"][1]["away"] is True
    seen = ann.get(f"/api/games/{game}").json()
    assert seen["players"][1]["away"] is True and seen["phase"] == "playing"
    assert seen["players"][1]["connected"] is False  # gone now, not a heartbeat ago
    assert seen["move"] > waiting["move"]
    # Leaving twice is leaving once; the start screen's list of her unfinished games only
    # reads the table (it says which are tables of friends); her next look at the game
    # takes the seat back.
    assert bea.post(leave, json={}).json()["players"][1]["away"] is True
    listed = bea.get("/api/games").json()
    assert [(g["id"], g["friends"]) for g in listed] == [(game, True)]
    assert ann.get(f"/api/games/{game}").json()["players"][1]["away"] is True
    assert bea.get(f"/api/games/{game}").json()["players"][1]["away"] is False
    assert ann.get(f"/api/games/{game}").json()["players"][1]["away"] is False


def test_leaving_and_coming_back_over_and_over_is_slowed(browsers: list[TestClient]) -> None:
    # Each leaving tells everyone at the table, and any request brings the person back: a
    # loop of the two sent the others a hundred updates in eight seconds.
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "friend", "medium"], turn_time=0)
    game = made["id"]
    leave = f"/api/games/{game}/leave"
    join(bea, made, "Bea")
    assert bea.post(leave, json={}).status_code == 200  # before the start: the seat freed
    join(bea, made, "Bea")
    too_soon = bea.post(leave, json={})
    assert "a moment ago" in sentence(too_soon, 429)
    assert 1 <= int(too_soon.headers["retry-after"]) <= LEAVE_GAP
    seen = ann.get(f"/api/games/{game}").json()
    assert seen["table"]["open_seats"] == [2]  # she kept her seat
    assert join(cal, made, "Cal").json()["table"]["started"] is True
    # Once the table has started: the same, and leaving again while away is still nothing.
    service = ann.app.state.service  # type: ignore[attr-defined]
    service._left.clear()  # as if five seconds had passed
    assert bea.post(leave, json={}).json()["players"][1]["away"] is True
    assert bea.post(leave, json={}).status_code == 200  # away already: nothing to say
    assert bea.get(f"/api/games/{game}").json()["players"][1]["away"] is False  # back
    refused = bea.post(leave, json={})
    assert "a moment ago" in sentence(refused, 429)
    assert ann.get(f"/api/games/{game}").json()["players"][1]["away"] is False
    # Another person's leaving is their own.
    assert cal.post(leave, json={}).json()["players"][2]["away"] is True


def test_a_friend_who_leaves_before_the_start_gives_the_seat_back(
    browsers: list[TestClient],
) -> None:
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "friend", "medium"])
    game = made["id"]
    before = ann.get(f"/api/games/{game}").json()
    assert join(bea, made, "Bea").json()["table"]["seat"] == 1
    left = bea.post(f"/api/games/{game}/leave", json={})
    assert left.status_code == 200, left.text
    # The host sees the seat open again, waiting for a friend; Bea has no seat there now,
    # and no unfinished game to continue on her start screen.
    seen = ann.get(f"/api/games/{game}").json()
    assert seen["table"]["open_seats"] == [1, 2] and seen["table"]["started"] is False
    assert seen["players"] == before["players"]  # as if never taken, stand-ins and all
    assert bea.get(f"/api/games/{game}").status_code == 404
    assert bea.get("/api/games").json() == []
    # The host's start screen knows the table waits for friends, and which seats are open.
    [waiting] = ann.get("/api/games").json()
    assert waiting["started"] is False and waiting["open_seats"] == [1, 2]
    asked = cal.post(f"/api/games/{game}/invitation", json={"invite": invite_of(made)}).json()
    assert asked["seated"] == ["Ann"] and asked["open"] == 2
    # The seat is anyone's with the link again, and her name is free: she may come back.
    assert join(cal, made, "Bea's friend").json()["table"]["seat"] == 1
    back = join(bea, made, "Bea").json()
    assert back["table"]["seat"] == 2 and back["table"]["started"] is True


def test_a_game_for_one_cannot_be_left(browsers: list[TestClient]) -> None:
    ann, _, _ = browsers
    made = ann.post("/api/games", json={"levels": ["easy"]}).json()
    answer = ann.post(f"/api/games/{made['id']}/leave", json={})
    assert "nobody else" in sentence(answer, 409)


def play_to_round_end(people: dict[int, TestClient], game: str) -> State:
    """Each person moves when waited on, until the first round is over; that state."""
    host = people[0]
    for _ in range(500):
        state: State = host.get(f"/api/games/{game}").json()
        if state["phase"] == "round-over":
            return state
        seat = state["table"]["waiting_on"][0]
        mine = people[seat].get(f"/api/games/{game}").json()
        assert move(people[seat], mine).status_code == 200
    raise AssertionError("the round did not end")


def two_at_round_end(browsers: list[TestClient], turn_time: int) -> tuple[str, State]:
    """A table of Ann, Bea and a computer player, its first round played: the game's id and
    the state at the round's end."""
    ann, bea, _ = browsers
    made = table(ann, ["you", "friend", "easy"], rules={"players": 3}, turn_time=turn_time)
    join(bea, made, "Bea")
    return made["id"], play_to_round_end({0: ann, 1: bea}, made["id"])


def test_the_next_round_is_dealt_once_everyone_has_asked(browsers: list[TestClient]) -> None:
    ann, bea, _ = browsers
    game, over = two_at_round_end(browsers, turn_time=0)
    assert over["table"]["waiting_on"] == [0, 1]
    # Ann asks: the round's end stays on everyone's screen, now waiting on Bea alone.
    for _ in range(2):  # asking twice is asking once
        asked = move(ann, over)
        assert asked.status_code == 200, asked.text
        mine = asked.json()
        assert mine["phase"] == "round-over" and mine["move"] == over["move"]
        assert mine["table"]["waiting_on"] == [1]
    seen = bea.get(f"/api/games/{game}").json()
    assert seen["phase"] == "round-over" and seen["table"]["waiting_on"] == [1]
    # Bea asks too: dealt.
    dealt = move(bea, seen).json()
    assert dealt["phase"] in ("passing", "playing") and dealt["move"] == over["move"] + 1
    assert any(event["type"] == "deal" for event in dealt["events"])
    # The next round's end needs asking again.
    again = play_to_round_end({0: ann, 1: bea}, game)
    assert again["table"]["waiting_on"] == [0, 1]


def test_a_seats_news_is_told_in_the_order_it_happened(browsers: list[TestClient]) -> None:
    # The others' log said "Bea is away: a computer player plays for them." before "Bea is
    # ready for the next round." when she had asked for it and then left: a stream that
    # wakes once for both (two pokes close together) told a seat's news in a fixed order.
    ann, bea, _ = browsers
    game, _ = two_at_round_end(browsers, turn_time=0)
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    portal = ann.portal
    assert portal is not None
    leave = f"/api/games/{game}/leave"

    def told_to_ann(before: Any) -> list[tuple[str, int]]:
        """What Ann's stream, which last saw the table as `before`, is told now."""
        _, state = portal.call(service.table_news, game, 0, before)
        return [(event["type"], event["seat"]) for event in state["events"]]

    # Bea leaves, then comes back by asking for the next round: back, then ready.
    assert bea.post(leave, json={}).status_code == 200
    before = service.store.seating(game)
    assert move(bea, bea.get(f"/api/games/{game}").json()).status_code == 200
    assert told_to_ann(before) == [("back", 1), ("ready", 1)]
    # The next round's end: Bea asks for the next one, reacts, and leaves; in that order.
    assert move(ann, ann.get(f"/api/games/{game}").json()).status_code == 200  # dealt
    play_to_round_end({0: ann, 1: bea}, game)
    before = service.store.seating(game)
    assert move(bea, bea.get(f"/api/games/{game}").json()).status_code == 200
    assert bea.post(f"/api/games/{game}/react", json={"reaction": "nice"}).status_code == 200
    service._left.clear()  # a round takes people longer than LEAVE_GAP: a test, less
    assert bea.post(leave, json={}).status_code == 200
    assert told_to_ann(before) == [("ready", 1), ("reaction", 1), ("away", 1)]


def test_a_person_away_is_not_waited_for_between_rounds(
    browsers: list[TestClient], app_dir: Path
) -> None:
    ann, _, _ = browsers
    game, over = two_at_round_end(browsers, turn_time=0)
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    assert service.store.set_away(game, 1, True)  # as the hold time would, once she has gone
    state = ann.get(f"/api/games/{game}").json()
    assert state["table"]["waiting_on"] == [0]
    assert move(ann, state).json()["phase"] in ("passing", "playing")
    assert over["move"] < ann.get(f"/api/games/{game}").json()["move"]


def a_round_with_bea_away(
    ann: TestClient, bea: TestClient
) -> tuple[str, GameService, list[dict[str, Any]]]:
    """A table of three (Ann, Bea and an easy computer player, no turn time) whose first
    round Ann plays to its end with Bea gone, a computer player playing for her: the game,
    its service, and the events Ann's answers brought."""
    made = table(ann, ["you", "friend", "easy"], rules={"players": 3}, turn_time=0)
    join(bea, made, "Bea")
    game = made["id"]
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    assert service.store.set_away(game, 1, True)  # Bea has gone: a computer plays for her
    state = ann.get(f"/api/games/{game}").json()
    events: list[dict[str, Any]] = []
    while state["phase"] != "round-over":
        answer = move(ann, state)
        assert answer.status_code == 200, answer.text
        state = answer.json()
        events += state["events"]
    return game, service, events


def test_what_a_computer_player_plays_for_someone_away_is_not_reviewed_as_theirs(
    browsers: list[TestClient],
) -> None:
    ann, bea, _ = browsers
    game, service, _ = a_round_with_bea_away(ann, bea)
    stored = service.store.load(game)
    assert stored is not None
    marked = [a for a in stored.actions if a.get("stand_in")]
    bea_moves = [a for a in stored.actions if a.get("seat") == 1]
    assert marked == bea_moves and len(marked) == 1 + 17  # her pass and every card
    assert not any(a.get("stand_in") for a in stored.actions if a.get("seat") != 1)
    # Read back from the store (not the process's copy), the marks are the same.
    cached = service._cache.get(game)
    assert cached is not None and len(cached.stand_ins) == 18
    service.forget([game])
    review = bea.get(f"/api/games/{game}/review?round=1")
    assert review.status_code == 200, review.text
    assert review.json()["decisions"] == [] and review.json()["stood_in"] == 18
    again = service._cache.get(game)
    assert again is not None and again is not cached and again.stand_ins == cached.stand_ins


def test_the_cards_played_for_someone_away_are_marked_so_in_the_others_events(
    browsers: list[TestClient],
) -> None:
    # The pages read "Bea played the five of clubs" as if she had chosen it, and her own
    # page took a card played for her for a round playing itself to its end.
    ann, bea, _ = browsers
    _, _, events = a_round_with_bea_away(ann, bea)
    moves = [e for e in events if e["type"] in ("play", "pass")]
    hers = [e for e in moves if e["seat"] == 1]
    assert len(hers) == 1 + 17  # her pass and every card, each marked as played for her
    assert all(e.get("stand_in") is True for e in hers), hers
    assert not any("stand_in" in e for e in moves if e["seat"] != 1)


def test_the_turn_time_deals_on_without_marking_a_reader_away(browsers: list[TestClient]) -> None:
    ann, _, _ = browsers
    game, over = two_at_round_end(browsers, turn_time=5)
    ready = move(ann, over).json()
    assert ready["table"]["waiting_on"] == [1]
    # Bea reads on: the round's end waits for her twice the turn time (a card's time took
    # the coach's review away mid-read), then the clock deals the next round.
    waits = ready["table"]["deadline"] - ready["table"]["now"]
    assert 2 * 5 - 2 < waits <= 2 * 5, waits
    deadline = time.monotonic() + 25
    state = over
    while state["phase"] == "round-over" and time.monotonic() < deadline:
        time.sleep(0.5)
        state = ann.get(f"/api/games/{game}").json()
    assert state["phase"] in ("passing", "playing"), state["table"]
    assert state["players"][1]["away"] is False  # she was here, only reading


def test_a_short_hold_time_never_takes_an_open_page_for_gone(browsers: list[TestClient]) -> None:
    # An open page's stream notes its person as here every heartbeat (15 s): a hold time of
    # 10 s marked people away between two heartbeats, and played their round for them.
    ann, bea, _ = browsers
    made = table(ann, ["you", "friend", "easy"], rules={"players": 3}, turn_time=0, hold_time=10)
    join(bea, made, "Bea")
    state = ann.get(f"/api/games/{made['id']}").json()
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    # Said as it works: a hold time under two heartbeats is two heartbeats (it said 10).
    assert state["table"]["hold_time"] == 2 * service.heartbeat
    assert state["table"]["deadline"] - state["table"]["now"] > 2 * service.heartbeat - 2


def test_a_closed_page_shows_as_gone_at_once_and_the_turn_clock_is_not_hurried(
    browsers: list[TestClient],
) -> None:
    # Who is here was worked out from heartbeats alone: a friend who closed the page still
    # showed as connected for half a minute or more.
    ann, bea, _ = browsers
    made = table(ann, ["you", "friend", "easy"], rules={"players": 3}, turn_time=0)
    game = made["id"]
    bea_seat = join(bea, made, "Bea").json()["view"]["seat"]
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    portal = ann.portal
    assert portal is not None

    def bea_connected() -> bool:
        return bool(ann.get(f"/api/games/{game}").json()["players"][bea_seat]["connected"])

    async def written() -> None:
        """The service's tasks are done: a closed page is written to the store by a task of
        its own (it was waited for two seconds at most, and a busy machine could take more)."""
        while running := [task for task in service._tasks if not task.done()]:
            await asyncio.gather(*running)

    before = ann.get(f"/api/games/{game}").json()["table"]["deadline"]
    assert bea_connected()
    # Two pages of hers are open (two tabs): closing one leaves her here.
    portal.call(service.stream_opened, game, bea_seat)
    portal.call(service.stream_opened, game, bea_seat)
    portal.call(service.stream_closed, game, bea_seat)
    portal.call(written)
    assert bea_connected()
    portal.call(service.stream_closed, game, bea_seat)
    portal.call(written)
    assert not bea_connected()
    # Not played for sooner: the hold time still counts from when she was last heard from.
    assert ann.get(f"/api/games/{game}").json()["table"]["deadline"] >= before
    # Her page opens again: her first request shows her here at once.
    assert bea.get(f"/api/games/{game}").status_code == 200
    assert bea_connected()


def test_every_pass_of_a_round_runs_on_one_clock_from_the_deal(
    browsers: list[TestClient],
) -> None:
    # Each pass started the turn clock again for everyone still choosing: the slowest
    # passer had the whole turn time again after each of the others' passes.
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "friend", "easy"], turn_time=60)
    game = made["id"]
    join(bea, made, "Bea")
    join(cal, made, "Cal")
    dealt = cal.get(f"/api/games/{game}").json()
    assert dealt["phase"] == "passing"
    deadline = dealt["table"]["deadline"]
    assert deadline is not None
    time.sleep(0.05)  # a pass now would start a new clock later than the deal's
    for someone in (ann, bea):
        assert move(someone, someone.get(f"/api/games/{game}").json()).status_code == 200
        waiting = cal.get(f"/api/games/{game}").json()
        assert waiting["phase"] == "passing"
        assert waiting["view"]["seat"] in waiting["table"]["waiting_on"]
        assert waiting["table"]["deadline"] == deadline
    # The last pass ends the passing: the first lead's clock starts then (the game's first
    # pass had START_GRACE more).
    assert move(cal, cal.get(f"/api/games/{game}").json()).status_code == 200
    playing = cal.get(f"/api/games/{game}").json()
    assert playing["phase"] == "playing"
    assert playing["table"]["deadline"] > deadline - START_GRACE


def test_the_first_pass_after_the_table_starts_itself_has_a_few_seconds_more(
    browsers: list[TestClient],
) -> None:
    # The clock started the instant the last friend sat down, while the pages were still
    # drawing the table: at 15 s a move the computer players passed for everyone.
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "friend", "easy"], turn_time=15)
    join(bea, made, "Bea")
    started = join(cal, made, "Cal").json()
    assert started["table"]["started"] and started["phase"] == "passing"
    clock = started["table"]
    assert clock["deadline"] - clock["now"] >= 15 + START_GRACE - 1, clock
    # Every later turn has the turn time alone.
    for someone in (ann, bea, cal):
        assert move(someone, someone.get(f"/api/games/{made['id']}").json()).status_code == 200
    playing = ann.get(f"/api/games/{made['id']}").json()
    assert playing["phase"] == "playing"
    assert playing["table"]["deadline"] - playing["table"]["now"] <= 15, playing["table"]


def finished_table(browsers: list[TestClient], **options: Any) -> str:
    """Ann's table of three (Bea by invitation, an easy computer), played to its end;
    `options` for the table as `table` takes them."""
    ann, bea, _ = browsers
    rules = {"players": 3, "target_score": 20}
    made = table(ann, ["you", "friend", "easy"], rules=rules, **options)
    join(bea, made, "Bea")
    game = made["id"]
    people = {0: ann, 1: bea}
    assert "over" in sentence(ann.post(f"/api/games/{game}/rematch", json={}), 409)
    for _ in range(2000):
        state = ann.get(f"/api/games/{game}").json()
        if state["phase"] == "game-over":
            break
        waiting = state["table"]["waiting_on"] or [0]
        seat = waiting[0]
        mine = people[seat].get(f"/api/games/{game}").json()
        assert move(people[seat], mine).status_code == 200
    assert state["phase"] == "game-over"
    return str(game)


def test_a_rematch_keeps_the_table_and_its_people(browsers: list[TestClient]) -> None:
    ann, bea, _ = browsers
    game = finished_table(browsers)
    url = f"/api/games/{game}/rematch"
    first = bea.post(url, json={})
    assert first.status_code == 201, first.text
    new = first.json()
    assert new["id"] != game and new["table"]["seat"] == 1
    # It waits for Ann, still on the last game: no clock runs, nothing is played for her.
    assert not new["table"]["started"] and new["table"]["deadline"] is None
    assert new["table"]["rematch_of"] == game and new["table"]["can_start"]
    assert [p["away"] for p in new["players"]][:2] == [True, False]
    time.sleep(0.2)
    assert bea.get(f"/api/games/{new['id']}").json()["move"] == new["move"]
    # Ann comes: the rematch starts by itself.
    second = ann.post(url, json={})
    assert second.status_code == 200 and second.json()["id"] == new["id"]
    joined = second.json()
    assert joined["table"]["seat"] == 0 and joined["table"]["started"]
    assert [p["name"] for p in joined["players"]][:2] == ["Ann", "Bea"]
    assert [p["away"] for p in joined["players"]][:2] == [False, False]
    assert joined["table"]["waiting_on"] and not joined["table"]["can_start"]
    assert ann.get(f"/api/games/{game}").json()["table"]["rematch"] == new["id"]
    # The finished game is in both people's history, each from their own seat.
    for browser in (ann, bea):
        history = browser.get("/api/history").json()
        assert [line["id"] for line in history] == [game], history


def test_a_rematch_of_a_table_made_before_characters_went_by_seat_keeps_its_characters(
    browsers: list[TestClient],
) -> None:
    # The rematch of such a table seated its characters by the new rule, so the computer
    # player across the table from one game became another character in the next.
    ann, bea, _ = browsers
    game = finished_table(browsers)
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    with service.store._transaction() as db:  # as a table stored before 2026-12-05 was
        (settings,) = db.execute("SELECT settings FROM games WHERE id = ?", (game,)).fetchone()
        old = {k: v for k, v in json.loads(settings).items() if k != "cast"}
        db.execute("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(old), game))
    service._cache.discard(game)

    def characters(state: dict[str, Any]) -> list[str | None]:
        return [p.get("character") for p in state["players"]]

    before = characters(ann.get(f"/api/games/{game}").json())
    made = bea.post(f"/api/games/{game}/rematch", json={})
    assert made.status_code == 201, made.text
    after = characters(made.json())
    assert after == before and any(after), (before, after)
    # Ann, coming to the rematch, finds the same characters (it starts: the seats stay).
    again = ann.post(f"/api/games/{game}/rematch", json={}).json()
    assert characters(again) == before


def test_making_a_rematch_counts_as_a_new_game_and_joining_one_does_not(app_dir: Path) -> None:
    # A rematch made a game outside the quotas: a browser past its hour's games could go on
    # making them, one finished game at a time.
    settings = Settings.from_env(data_dir=app_dir, games_per_hour=1, min_free_bytes=0)
    app = create_app(settings=settings, bot_workers=0)
    with TestClient(app, raise_server_exceptions=False) as ann:
        bea, cal = (another_browser(ann, raise_server_exceptions=False) for _ in range(2))
        game = finished_table([ann, bea, cal])
        url = f"/api/games/{game}/rematch"
        said = sentence(ann.post(url, json={}), 429)
        assert "This browser has started 1 game in the last hour" in said
        assert sentence(cal.post(url, json={}), 404)  # no seat there: it costs him nothing
        made = bea.post(url, json={})
        assert made.status_code == 201, made.text
        # Ann's hour is spent, but joining the rematch makes no game.
        joined = ann.post(url, json={})
        assert joined.status_code == 200 and joined.json()["id"] == made.json()["id"]
        assert bea.post("/api/games", json={}).status_code == 429  # her start was counted
        assert cal.post("/api/games", json={}).status_code == 201


def test_a_rematch_started_without_someone_plays_for_them_until_they_come(
    browsers: list[TestClient],
) -> None:
    ann, bea, cal = browsers
    game = finished_table(browsers)
    new = bea.post(f"/api/games/{game}/rematch", json={}).json()
    start = f"/api/games/{new['id']}/start"
    assert cal.post(start, json={}).status_code == 404  # no seat there
    started = bea.post(start, json={})
    assert started.status_code == 200, started.text
    state = started.json()
    assert state["table"]["started"] and state["players"][0]["away"]
    assert "started already" in sentence(bea.post(start, json={}), 409)
    passed = move(bea, state)
    assert passed.status_code == 200, passed.text
    assert passed.json()["phase"] == "playing"  # the computer players passed, for Ann too
    # Ann comes to it: her seat is hers again, with the cards the computer kept for her.
    back = ann.post(f"/api/games/{game}/rematch", json={}).json()
    assert back["id"] == new["id"] and back["players"][0]["away"] is False
    assert back["table"]["stood_in"] >= 1  # at least her pass, made for her
    assert passed.json()["table"]["stood_in"] == 0  # Bea's own moves are hers
    assert back["view"]["hand"]


def test_single_player_games_are_as_they_were(browsers: list[TestClient]) -> None:
    ann = browsers[0]
    state = ann.post("/api/games", json={"levels": ["easy"]}).json()
    assert state["players"][0]["name"] == "You"
    assert state["table"] | {"now": None} == {
        "seat": 0, "host": True, "host_seat": 0, "can_start": False, "rematch_of": None,
        "friends": False, "started": True, "open_seats": [],
        "invite": None, "turn_time": None, "hold_time": 120, "fill": "medium", "hints": True,
        "waiting_on": [0, 1, 2, 3][: len(state["table"]["waiting_on"])], "deadline": None,
        "now": None, "rematch": None, "stood_in": 0, "pass_stood_in": False,
    }  # fmt: skip
    seats = ["you", "easy", "easy", "easy"]
    both = ann.post("/api/games", json={"levels": ["easy"], "seats": seats})
    assert "not both" in sentence(both, 422)
    two = ann.post("/api/games", json={"seats": ["you", "you", "easy", "easy"]})
    assert "Exactly one" in sentence(two, 422)
    # Three seats for a table said to be of four (without `rules.players`, three seats are
    # a table of three).
    short = ann.post("/api/games", json={"seats": ["you", "easy", "easy"], "rules": {"players": 4}})
    assert "seats" in sentence(short, 422)
    quick = ann.post(
        "/api/games", json={"seats": ["you", "friend", "easy", "easy"], "turn_time": 2}
    )
    assert "turn time" in sentence(quick, 422)


def test_the_service_never_keeps_a_clock_for_a_single_player(app_dir: Path) -> None:
    app = create_app(app_dir, bot_workers=0)
    with TestClient(app) as ann:
        ann.post("/api/games", json={})
        service: GameService = app.state.service
        assert service._clocks == {}


def app_loop(browser: TestClient) -> asyncio.AbstractEventLoop:
    """The event loop of the app `browser` serves: its lifespan's, where its clocks ring."""
    assert browser.portal is not None, "a browser outside the app's lifespan"
    return browser.portal.call(asyncio.get_running_loop)


def test_a_turn_clock_wound_by_any_browsers_request_is_on_the_apps_loop(
    browsers: list[TestClient],
) -> None:
    """Each look at a table of friends winds its turn clock on the loop the request is served
    on. Browsers served each request on a new loop of its own (test clients not entered)
    wound it on a loop that ended with the request, and the clock never rang until the host
    looked again: a test's wait on the clock passed or not by who asked last."""
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "friend"], rules={"players": 3}, turn_time=5)
    join(bea, made, "Bea")
    join(cal, made, "Cal")
    game = made["id"]
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    loop = app_loop(ann)
    for browser in browsers:
        assert browser.get(f"/api/games/{game}").status_code == 200
        clock = service._clocks[game]
        assert clock._loop is loop and not clock.cancelled()  # type: ignore[attr-defined]


def test_a_browser_waits_its_turn_for_a_game_the_clock_is_busy_with(
    browsers: list[TestClient],
) -> None:
    """The turn clock acts on the app's loop under the game's lock; a request that comes
    meanwhile waits for it. Browsers served on loops of their own met that lock once two
    tasks of the app's loop had waited on it (which binds an asyncio.Lock to that loop): a
    500, "<asyncio.locks.Lock [locked]> is bound to a different event loop", once in a run of
    this file (the clock playing for Bea as she came back). Here a task of the app's loop
    holds the lock as the clock does, with another waiting, until the browser's request
    waits too."""
    ann, bea, cal = browsers
    made = table(ann, ["you", "friend", "friend"], rules={"players": 3})
    join(bea, made, "Bea")
    join(cal, made, "Cal")
    game = made["id"]
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    answered = threading.Event()  # the holder lets go then in any case (no hang on a 500)

    async def busy_clock() -> None:
        lock = service._lock(game)
        async with lock:
            waiting = asyncio.create_task(lock.acquire())  # binds the lock to this loop
            while len(lock._waiters or ()) < 2 and not answered.is_set():
                await asyncio.sleep(0.01)
        await waiting
        lock.release()

    assert ann.portal is not None
    for browser in browsers:
        answered.clear()
        holder = ann.portal.start_task_soon(busy_clock)
        answer = browser.get(f"/api/games/{game}")
        answered.set()
        holder.result()
        assert answer.status_code == 200, answer.text


def test_the_others_are_told_of_a_friend_leaving_before_the_start() -> None:
    from hearts.web.service import _notices
    from hearts.web.store import Person, Seating

    def seating(*people: Person) -> Seating:
        return Seating(False, None, 0.0, 0, {p.seat: p for p in people})

    before = seating(Person(0, "a", "Ann"), Person(1, "z", "Zoë"))
    after = seating(Person(0, "a", "Ann"), Person(1, None, ""))
    assert _notices(before, after) == [{"type": "left", "seat": 1, "name": "Zoë"}]
    assert _notices(after, after) == []


def at_a_persons_turn(ann: TestClient, bea: TestClient) -> tuple[State, TestClient]:
    """A table of three (Ann, Bea and a computer player) with a 5 s turn, both passed: the
    game at the first turn that waits on a person, and that person's browser."""
    made = table(ann, ["you", "friend", "easy"], rules={"players": 3}, turn_time=5)
    join(bea, made, "Bea")
    game = made["id"]
    for browser in (ann, bea):
        assert move(browser, browser.get(f"/api/games/{game}").json()).status_code == 200
    state = ann.get(f"/api/games/{game}").json()
    assert state["phase"] == "playing", state["phase"]
    turn = state["view"]["turn"]
    assert state["table"]["waiting_on"] == [turn] and turn in (0, 1)
    who = ann if turn == 0 else bea
    return who.get(f"/api/games/{game}").json(), who


def past(deadline: float) -> None:
    """Wait until the turn clock's `deadline` has gone by (the server is away meanwhile)."""
    time.sleep(max(0.0, deadline - time.time()) + 0.5)


#: How far apart the wall clock and the event loop's clock may read when a turn clock is
#: wound by the one and rings by the other (they are read a moment apart).
CLOCKS_APART = 0.1


def clock_due_in(browser: TestClient, game: str) -> float:
    """Seconds until the game's turn clock rings (it was looked for by waiting half a second
    for a clock due at once: one due a second later went unseen)."""
    service: GameService = browser.app.state.service  # type: ignore[attr-defined]
    return service._clocks[game].when() - app_loop(browser).time()


def own_card_lands(browser: TestClient, state: State) -> None:
    """The card `browser` chose while the server was away goes, and is stored as theirs."""
    service: GameService = browser.app.state.service  # type: ignore[attr-defined]
    answer = move(browser, state)
    assert answer.status_code == 200, answer.text
    stored = service.store.load(state["id"])
    assert stored is not None
    card = stored.actions[state["move"]]
    assert card["type"] == "play" and card["card"] == state["view"]["legal"][0], card
    assert card["seat"] == state["view"]["seat"] and "stand_in" not in card, card


def test_a_turn_that_ran_out_while_the_server_was_down_gets_a_grace_once_it_is_back(
    app_dir: Path,
) -> None:
    # The server was killed on Mia's turn and came back after her time had run out: its
    # turn clock moved first and stored a computer player's card for her, though her page
    # held the card she had chosen meanwhile, to send once the server answered again.
    with TestClient(create_app(app_dir, bot_workers=0)) as ann:
        bea = another_browser(ann)
        state, who = at_a_persons_turn(ann, bea)
        cookie = who.cookies["hearts_browser"]
    past(state["table"]["deadline"])
    # The grace runs from the server's return, however long the first request then takes
    # on a loaded machine (a second's allowance from the request failed once).
    back_at = time.time()
    again = create_app(app_dir, bot_workers=0)
    with TestClient(again, cookies={"hearts_browser": cookie}) as back:
        now = back.get(f"/api/games/{state['id']}").json()
        assert now["move"] == state["move"]  # nothing was played for her on the way back
        assert now["table"]["deadline"] >= back_at + RETURN_GRACE, (back_at, now["table"])
        rings_at = time.time() + clock_due_in(back, now["id"])
        assert rings_at >= back_at + RETURN_GRACE - CLOCKS_APART, (back_at, rings_at)
        own_card_lands(back, now)


def test_a_turn_that_ran_out_while_the_database_was_away_gets_a_grace_once_it_is_back(
    browsers: list[TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bea, _ = browsers
    service: GameService = ann.app.state.service  # type: ignore[attr-defined]
    state, who = at_a_persons_turn(ann, bea)
    seating = service.store.seating

    def away(game_id: str) -> Any:
        raise StoreUnavailable("the database is away")

    monkeypatch.setattr(service.store, "seating", away)
    assert who.get(f"/api/games/{state['id']}").status_code == 503
    past(state["table"]["deadline"])
    monkeypatch.setattr(service.store, "seating", seating)
    back_at = time.time()
    now = who.get(f"/api/games/{state['id']}").json()
    assert now["move"] == state["move"]
    assert now["table"]["deadline"] >= back_at + RETURN_GRACE, (back_at, now["table"])
    rings_at = time.time() + clock_due_in(who, now["id"])
    assert rings_at >= back_at + RETURN_GRACE - CLOCKS_APART, (back_at, rings_at)
    own_card_lands(who, now)
