"""Bad input: every API route fuzzed from the app's own OpenAPI schema.

For each example a fresh game is played some legal moves in, then a few requests are sent:
bodies drawn from the route's request schema (valid in shape, often wrong in content),
bodies that break the schema, raw bytes, and ids and cookies that are not the game's.
After every request:
- no 5xx;
- a refusal says why in one sentence and leaves the stored game exactly as it was;
- a success on an action route is real: the stored record holds that action at that move
  (applied now, or answered from the record for a retry), never an unchanged game dressed
  as success;
- the stored game still replays and still loads through the API.

The example count is small for CI; HEARTS_FUZZ_EXAMPLES=2000 runs a deeper search.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts import parse_card
from hearts.web.app import create_app
from hearts.web.limits import MAX_BODY_BYTES
from hearts.web.store import Store

from .driver import choose_action, stored_actions, stored_game
from .schema_strategies import ANY_JSON, from_schema

EXAMPLES = int(os.environ.get("HEARTS_FUZZ_EXAMPLES", "30"))
ACTION_ROUTES = ("pass", "play", "moon", "next")


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def fuzz_client(fuzz_dir: Path) -> Iterator[TestClient]:
    app = create_app(fuzz_dir, bot_workers=0)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def openapi() -> dict[str, Any]:
    spec: dict[str, Any] = create_app(Path("/nonexistent-unused"), bot_workers=0).openapi()
    return spec


def streams(operation: dict[str, Any]) -> bool:
    content = operation.get("responses", {}).get("200", {}).get("content", {})
    return "text/event-stream" in content


def routes(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """Every request/answer route. An event stream is left out: it answers for as long as
    the game lasts, so a fuzzed request that opens one never gets a whole answer and the
    test waits for ever (a stranger's refusal is in test_friends_privacy.py)."""
    return [
        (method.upper(), path, operation)
        for path, methods in spec["paths"].items()
        for method, operation in methods.items()
        if not streams(operation)
    ]


def body_schema(spec: dict[str, Any], operation: dict[str, Any]) -> dict[str, Any] | None:
    content = operation.get("requestBody", {}).get("content", {})
    if "application/json" not in content:
        return None
    schema: dict[str, Any] = content["application/json"]["schema"]
    return schema


def query_schema(operation: dict[str, Any]) -> dict[str, Any]:
    params = [p for p in operation.get("parameters", []) if p["in"] == "query"]
    return {
        "type": "object",
        "properties": {p["name"]: p.get("schema", {}) for p in params},
        "additionalProperties": False,
    }


SPEC = openapi()
ROUTES = routes(SPEC)
DEFINITIONS: dict[str, Any] = SPEC["components"]["schemas"]


@st.composite
def request_for(draw: st.DrawFn, state: dict[str, Any]) -> dict[str, Any]:
    """One request against the game in `state`: method, url, body or raw bytes, cookie."""
    method, path, operation = draw(st.sampled_from(ROUTES))
    game_id = draw(
        st.sampled_from([state["id"], state["id"]])
        | st.text(min_size=1, max_size=30).filter(lambda t: t not in (".", ".."))
    )
    url = path.replace("{game_id}", quote(game_id, safe=""))
    request: dict[str, Any] = {"method": method, "url": url, "path": path, "game_id": game_id}
    if draw(st.integers(0, 9)) == 0:
        request["cookie"] = draw(st.sampled_from(["", "someone-else", "x" * 300]))
    if method == "GET":
        query = draw(from_schema(query_schema(operation), DEFINITIONS))
        request["params"] = {key: str(value) for key, value in query.items()}
        return request
    schema = body_schema(SPEC, operation)
    how = draw(st.sampled_from(["schema", "schema", "near", "near", "any-json", "bytes"]))
    if how == "bytes":
        # Raw bytes, and JSON that only Python's parser accepts (NaN, Infinity, deep nesting).
        request["content"] = draw(
            st.binary(max_size=64)
            | st.sampled_from(
                [
                    b'{"move": NaN, "card": "2C"}',
                    b'{"move": Infinity}',
                    b'{"rules": {"target_score": -Infinity}}',
                    b'{"rules": {"target_score": 1e400}}',
                    b'{"move": 1e400, "cards": []}',
                    b"[" * 5000 + b"]" * 5000,
                    b'{"move": 0, "move": 0}',
                ]
            )
        )
        return request
    if how == "any-json" or schema is None:
        request["json"] = draw(ANY_JSON)
        return request
    body = draw(from_schema(schema, DEFINITIONS))
    if how == "near" and isinstance(body, dict):
        # Close to a good move: the right move number and cards the person holds.
        view = state["view"]
        body["move"] = state["move"] + draw(st.sampled_from([0, 0, 0, -1, 1]))
        held = view["hand"] or ["2C"]
        if "card" in body:
            body["card"] = draw(st.sampled_from([*held, "2c", "10h", "Q♠", "XX"]))
        if "cards" in body:
            body["cards"] = draw(st.lists(st.sampled_from(held), max_size=5))
    request["json"] = body
    return request


def send(client: TestClient, request: dict[str, Any]) -> Any:
    cookies = None
    if "cookie" in request:
        cookies = {"hearts_browser": request["cookie"]}
    kwargs: dict[str, Any] = {}
    for key in ("json", "content", "params"):
        if key in request:
            kwargs[key] = request[key]
    if cookies is not None:
        saved = dict(client.cookies)
        client.cookies.clear()
        client.cookies.update(cookies)
        try:
            return client.request(request["method"], request["url"], **kwargs)
        finally:
            client.cookies.clear()
            client.cookies.update(saved)
    return client.request(request["method"], request["url"], **kwargs)


def check_answer(
    request: dict[str, Any], response: Any, before: list[dict[str, Any]], after: list[Any]
) -> None:
    where = f"{request['method']} {request['url']} {request.get('json', request.get('content'))}"
    assert response.status_code < 500, f"{where} -> {response.status_code} {response.text}"
    kind = request["path"].rsplit("/", 1)[-1]
    is_action = request["method"] == "POST" and kind in ACTION_ROUTES
    if response.status_code >= 400:
        detail = response.json().get("detail")
        assert isinstance(detail, str) and detail.strip(), f"{where}: no reason given"
        assert len(detail) < 300 and "\n" not in detail, f"{where}: {detail!r}"
        assert after == before, f"{where}: refused, yet the stored game changed"
        return
    if request["method"] == "POST" and kind == "undo":
        # A take-back that works appends one undo row; nothing before it changes.
        assert after[: len(before)] == before, f"{where}: earlier moves were rewritten"
        assert len(after) == len(before) + 1, f"{where}: {after[len(before) :]}"
        assert after[-1]["type"] == "undo" and 0 <= after[-1]["to"] < len(before), where
        return
    if not is_action:
        assert after == before, f"{where}: a read changed the stored game"
        return
    # A success: the action is in the record at the move the browser sent.
    body = request["json"]
    move = body["move"]
    assert move < len(after), f"{where}: success, yet the record has no move {move}"
    assert after[: len(before)] == before, f"{where}: earlier moves were rewritten"
    recorded = after[move]
    assert recorded["type"] == kind, f"{where}: move {move} in the record is {recorded}"
    if kind == "play":
        assert recorded["card"] == str(parse_card(body["card"])), f"{where}: {recorded}"
    if kind == "pass":
        sent = sorted(str(parse_card(card)) for card in body["cards"])
        assert sorted(recorded["cards"]) == sent, f"{where}: {recorded}"
    answer = response.json()
    assert answer["move"] == len(after) if move == len(before) else answer["move"] >= move


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), moves_in=st.integers(0, 70), seed=st.integers(0, 2**32))
def test_fuzzed_requests_never_break_a_game(
    fuzz_client: TestClient, fuzz_dir: Path, data: st.DataObject, moves_in: int, seed: int
) -> None:
    client = fuzz_client
    store = Store(fuzz_dir)
    state = client.post("/api/games", json={"levels": ["easy"] * 3}).json()
    rng = random.Random(seed)
    for _ in range(moves_in):
        if state["phase"] == "game-over":
            break
        route, body = choose_action(state, rng)
        state = client.post(f"/api/games/{state['id']}/{route}", json=body).json()
    for _ in range(data.draw(st.integers(1, 4))):
        request = data.draw(request_for(state))
        stored = store.load(state["id"])
        assert stored is not None
        before = stored.actions
        response = send(client, request)
        after_stored = store.load(state["id"])
        assert after_stored is not None
        check_answer(request, response, before, after_stored.actions)
        # The game still replays and still loads for its owner.
        stored_game(fuzz_dir, state["id"])
        fresh = client.get(f"/api/games/{state['id']}")
        assert fresh.status_code == 200, fresh.text
        state = fresh.json()


def test_the_fuzzer_covers_every_api_route() -> None:
    paths = {path for _, path, _ in ROUTES}
    assert {
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/play",
        "/api/games/{game_id}/pass",
        "/api/games/{game_id}/moon",
        "/api/games/{game_id}/next",
        "/api/games/{game_id}/here",
        "/api/options",
    } <= paths
    # A POST takes a body the fuzzer can shape, but for the page's answer to a ping, which
    # takes none (the fuzzer sends it any JSON, and bytes).
    bodiless = {
        path
        for method, path, operation in ROUTES
        if method == "POST" and body_schema(SPEC, operation) is None
    }
    assert bodiless == {"/api/games/{game_id}/here"}


def test_raw_garbage_gets_a_sentence(fuzz_client: TestClient) -> None:
    state = fuzz_client.post("/api/games", json={}).json()
    url = f"/api/games/{state['id']}/play"
    for content in (b"", b"{", b"\xff\xfe", b"[]", b"null", json.dumps({"move": 0}).encode()):
        response = fuzz_client.post(url, content=content)
        assert response.status_code == 422, (content, response.text)
        detail = response.json()["detail"]
        assert isinstance(detail, str) and detail.endswith("."), detail


def test_bodies_over_the_limit_are_refused(fuzz_client: TestClient, fuzz_dir: Path) -> None:
    state = fuzz_client.post("/api/games", json={}).json()
    url = f"/api/games/{state['id']}/pass"
    padding = "x" * MAX_BODY_BYTES
    big = json.dumps({"move": 0, "cards": state["view"]["hand"][:3], "pad": padding}).encode()

    def chunked() -> Iterator[bytes]:
        # No Content-Length: the cap must hold while the body streams in.
        for start in range(0, len(big), 1000):
            yield big[start : start + 1000]

    for content in (big, chunked()):
        response = fuzz_client.post(url, content=content)
        assert response.status_code == 413, response.text
        assert response.json()["detail"].endswith("KB.")
    new_game = fuzz_client.post("/api/games", content=b'{"rules": {"x": "' + b"y" * 20000 + b'"}}')
    assert new_game.status_code == 413
    assert stored_actions(fuzz_dir, state["id"]) == []
    # Just under the cap, the body is read and judged on its content.
    small = json.dumps({"move": 0, "cards": [], "pad": "x" * (MAX_BODY_BYTES - 100)}).encode()
    assert len(small) <= MAX_BODY_BYTES
    assert fuzz_client.post(url, content=small).status_code == 422
