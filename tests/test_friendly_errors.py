"""Refusals in plain words: a malformed request is told what is wrong in one sentence of our
own (never pydantic's wording), and a mistyped page address gets a page, not JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hearts.web.app import create_app
from hearts.web.headers import PAGE_POLICY

State = dict[str, Any]

#: Words of pydantic's and Starlette's own messages, which people should never see.
FRAMEWORK_WORDS = (
    "Input should",
    "List should",
    "String should",
    "Field required",
    "Extra inputs",
    "valid dictionary",
    "after validation",
    "error parsing",
    "Not Found",
    "Method Not Allowed",
)
#: What a browser sends when it asks for a page.
PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    # The wording does not depend on the store: SQLite only.
    monkeypatch.delenv("HEARTS_DATABASE_URL", raising=False)
    with TestClient(create_app(tmp_path / "data", bot_workers=0)) as test_client:
        yield test_client


@pytest.fixture
def game(client: TestClient) -> State:
    response = client.post("/api/games", json={"levels": ["easy"]})
    assert response.status_code == 201, response.text
    state: State = response.json()
    return state


def sentence(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith("."), detail
    assert "\n" not in detail and len(detail) < 160, detail
    for words in FRAMEWORK_WORDS:
        assert words not in detail, detail
    # Not led by a field's path, as in "query.round: ..." or "levels.0: ...".
    assert not re.match(r"[\w.]+: ", detail), detail
    return detail


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ([], "The request body must be a JSON object."),
        (
            {"levels": ["godlike"]},
            "The levels must each be easy, medium, hard or expert, not 'godlike'.",
        ),
        ({"seats": ["you"] + ["easy"] * 10}, "There can be at most 10 seats, not 11."),
        ({"hold_time": 1}, "The hold time must be a whole number from 10 to 3600, not 1."),
        ({"turn_time": "soon"}, "The turn time must be a whole number, not 'soon'."),
        ({"undo": "yes"}, "The undo must be true or false, not 'yes'."),
        ({"rules": []}, "The rules must be a JSON object."),
        ({"levels": []}, "The levels cannot be an empty list."),
        ({"colour": "red"}, "This request does not take a field called 'colour'."),
    ],
)
def test_a_new_game_is_refused_in_plain_words(client: TestClient, body: Any, expected: str) -> None:
    assert sentence(client.post("/api/games", json=body), 422) == expected


def test_a_move_is_refused_in_plain_words_and_changes_nothing(
    client: TestClient, game: State
) -> None:
    url = f"/api/games/{game['id']}"
    hand = game["view"]["hand"]
    refusals: dict[str, list[tuple[dict[str, Any], str]]] = {
        "play": [
            ({"card": "QS", "move": -1}, "The move must be a whole number of at least 0, not -1."),
            ({"card": "QS"}, "The move is missing from the request body."),
            ({"card": None, "move": 0}, "The card must be text, not null."),
            ({"card": "Q" * 20, "move": 0}, "The card can be at most 8 characters long."),
        ],
        "pass": [
            ({"cards": "QS", "move": 0}, "The cards must be a list, not 'QS'."),
            ({"cards": [1, 2, 3], "move": 0}, "The cards must each be text, not 1."),
        ],
        "moon": [
            ({"choice": "both", "move": 0}, "The choice must be add or subtract, not 'both'.")
        ],
    }
    for route, cases in refusals.items():
        for body, expected in cases:
            assert sentence(client.post(f"{url}/{route}", json=body), 422) == expected
    after = client.get(url).json()
    assert after["move"] == game["move"] and after["view"]["hand"] == hand


NO_FRACTION = "a whole number takes no decimal point or exponent."


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        (b"1e3", "The move must be written in digits alone, as 1000: " + NO_FRACTION),
        (b"1000.0", "The move must be written in digits alone, as 1000: " + NO_FRACTION),
        (b"1E+30", "The move must be written in digits alone: " + NO_FRACTION),
        (b"-1e3", "The move must be a whole number of at least 0, not -1000."),
        (b"2.5", "The move must be a whole number of at least 0, not 2.5."),
    ],
)
def test_a_whole_number_written_with_an_exponent_is_refused_in_sensible_words(
    client: TestClient, game: State, sent: bytes, expected: str
) -> None:
    # A move number sent as 1e3 was refused with "The move must be a whole number of at
    # least 0, not 1000.0.": JSON reads 1e3 as a float, which a field of whole numbers
    # refuses whatever its value, so the sentence says how to write it.
    body = b'{"card": "QS", "move": ' + sent + b"}"
    answer = client.post(
        f"/api/games/{game['id']}/play",
        content=body,
        headers={"Content-Type": "application/json"},
    )
    assert sentence(answer, 422) == expected
    made = client.post("/api/games", json={"hold_time": 60.0})
    said = sentence(made, 422)
    assert said == f"The hold time must be written in digits alone, as 60: {NO_FRACTION}"
    made = client.post("/api/games", json={"hold_time": 1.0})
    assert sentence(made, 422) == "The hold time must be a whole number from 10 to 3600, not 1."


@pytest.mark.parametrize("route", ["replay", "review"])
def test_a_round_in_the_address_is_refused_in_plain_words(
    client: TestClient, game: State, route: str
) -> None:
    url = f"/api/games/{game['id']}/{route}"
    words = "The round must be a whole number from 1 to 10000"
    assert sentence(client.get(f"{url}?round=abc"), 422) == f"{words}, not 'abc'."
    assert sentence(client.get(f"{url}?round=0"), 422) == f"{words}, not 0."
    assert sentence(client.get(f"{url}?round=10001"), 422) == f"{words}, not 10001."


def test_a_body_too_deep_to_read_gets_a_sentence(client: TestClient, game: State) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    for url in ("/api/games", f"/api/games/{game['id']}/play"):
        response = client.post(
            url,
            content=json.dumps({"rules": "x"}).replace('"x"', deep[:8000] + deep[-8000:]),
            headers={"Content-Type": "application/json"},
        )
        detail = sentence(response, 400)
        assert detail == "The request body could not be read: it is nested too deeply."
    assert client.get(f"/api/games/{game['id']}").json()["move"] == game["move"]


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b'{"rules": "\xff\xfe"}', "The request body is not UTF-8 text."),
        (b'{"hold_time": %b}' % (b"9" * 5000), "The request body holds a number too long to read."),
    ],
)
def test_a_body_that_cannot_be_read_is_told_why(
    client: TestClient, game: State, content: bytes, said: str
) -> None:
    # Both were told "it may be nested too deeply", which neither was.
    for url in ("/api/games", f"/api/games/{game['id']}/play"):
        response = client.post(url, content=content, headers={"Content-Type": "application/json"})
        assert sentence(response, 400) == said


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"[]", b"null", b'"text"', b"7", b'{"move": 0}', b'{"\\n": 1, "move": 0}'],
)
def test_garbage_gets_a_sentence_of_our_own(
    client: TestClient, game: State, content: bytes
) -> None:
    response = client.post(
        f"/api/games/{game['id']}/play",
        content=content,
        headers={"Content-Type": "application/json"},
    )
    sentence(response, 422)


def test_a_framework_refusal_is_a_sentence(client: TestClient) -> None:
    assert sentence(client.get("/api/no-such-thing"), 404) == "There is nothing at this address."
    assert sentence(client.delete("/api/options"), 405) == (
        "This address does not take DELETE requests."
    )
    # A route's own sentence is kept as it is.
    detail = sentence(client.get("/scorekeeper/missing.js"), 404)
    assert detail == "No scorekeeper file called 'missing.js'."


@pytest.mark.parametrize("path", ["/nonexistent", "/game/nonexistent.html", "/a/b/c?x=1"])
def test_a_mistyped_page_address_gets_a_page(client: TestClient, path: str) -> None:
    response = client.get(path, headers={"Accept": PAGE_ACCEPT})
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert "<h1>There is no page here</h1>" in page
    assert 'href="/rules"' in page and 'href="/#play"' in page
    assert "detail" not in page
    # The headers of the game's other pages: its content policy, no caching of old copies.
    assert response.headers["content-security-policy"] == PAGE_POLICY
    home = client.get("/")
    for header in ("content-security-policy", "x-content-type-options", "referrer-policy"):
        assert response.headers[header] == home.headers[header]


def test_a_path_climbing_out_of_the_game_files_gets_the_page(client: TestClient) -> None:
    # Sent as typed (a browser would tidy the dots away first).
    response = client.get("/game/..%2F..%2Fetc%2Fpasswd", headers={"Accept": PAGE_ACCEPT})
    assert response.status_code == 404 and "There is no page here" in response.text
    assert "root:" not in response.text


def test_the_api_and_other_clients_keep_json(client: TestClient) -> None:
    for path, accept in [
        ("/api/nonexistent", PAGE_ACCEPT),
        ("/nonexistent", "application/json"),
        ("/nonexistent", "*/*"),
        ("/game/js/missing.js", "*/*"),
    ]:
        response = client.get(path, headers={"Accept": accept})
        assert response.headers["content-type"] == "application/json", path
        assert sentence(response, 404) == "There is nothing at this address."
    # A page that exists is not touched.
    rules = client.get("/rules", headers={"Accept": PAGE_ACCEPT})
    assert rules.status_code == 200 and "There is no page here" not in rules.text
