"""The limit on printable sheets drawn anew for one client address (`SheetRenders`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client import generate_latest

from hearts.web import sheets_routes
from hearts.web.app import create_app
from hearts.web.metrics import Metrics
from hearts.web.quotas import MINUTE, OverQuota, SheetRenders
from hearts.web.settings import Settings

LIMIT = Settings().sheets_per_minute_per_address


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def renders(clock: Clock) -> SheetRenders:
    return SheetRenders(Settings(), lambda address: f"key:{address}", clock=clock)


def client_from(app: FastAPI, address: str) -> TestClient:
    return TestClient(app, client=(address, 50000))


@pytest.fixture
def app(renders: SheetRenders) -> Iterator[FastAPI]:
    # Every test starts with nothing cached: each sheet asked for is drawn anew.
    sheets_routes.cached_rules.cache_clear()
    sheets_routes.cached_score.cache_clear()
    app = FastAPI()
    app.include_router(sheets_routes.router)
    app.state.sheet_renders = renders
    yield app
    sheets_routes.cached_rules.cache_clear()
    sheets_routes.cached_score.cache_clear()


def test_a_hostile_loop_of_new_rule_sheets_gets_429s(app: FastAPI, clock: Clock) -> None:
    # No limit: a client could ask for rule sheet after rule sheet, each new (target=1, 2...)
    # and never cached, at some 100 ms of CPU each.
    client = client_from(app, "203.0.113.9")
    answers = [client.get(f"/sheets/rules.pdf?target={n}") for n in range(1, 3 * LIMIT)]
    codes = [answer.status_code for answer in answers]
    assert codes == [200] * LIMIT + [429] * (2 * LIMIT - 1)
    refusal = answers[LIMIT]
    assert refusal.json()["detail"] == (
        "Too many new sheets have been asked for from this address in the last minute: "
        "try again in 60 seconds."
    )
    assert refusal.headers["Retry-After"] == "60"
    # A refused sheet was not drawn: the cache holds only the ones served.
    assert sheets_routes.cached_rules.cache_info().currsize == LIMIT
    clock.now += 15
    assert client.get("/sheets/score.pdf?target=900").headers["Retry-After"] == "45"
    clock.now += 45  # a minute after: the minute's share is whole again
    again = [client.get(f"/sheets/score.pdf?target={900 + n}") for n in range(LIMIT + 1)]
    assert [answer.status_code for answer in again] == [200] * LIMIT + [429]
    # HEAD is the same answer, without the body.
    head = client.head("/sheets/rules.pdf?target=999")
    assert head.status_code == 429 and head.headers["Retry-After"] == "60"


def test_cached_sheets_stay_free_and_other_addresses_are_not_counted(app: FastAPI) -> None:
    client = client_from(app, "203.0.113.9")
    for n in range(1, LIMIT + 1):
        assert client.get(f"/sheets/score.pdf?target={n}").status_code == 200
    assert client.get("/sheets/score.pdf?target=500").status_code == 429
    # The sheets already drawn are served from the cache, to this client as to any.
    for _ in range(3):
        for n in (1, LIMIT):
            assert client.get(f"/sheets/score.pdf?target={n}").status_code == 200
    # Another address has its own share; an IPv6 client is counted by its /64.
    assert client_from(app, "198.51.100.7").get("/sheets/score.pdf?target=500").status_code == 200
    one = client_from(app, "2001:db8:1:2::1")
    for n in range(LIMIT):
        assert one.get(f"/sheets/rules.pdf?target={600 + n}").status_code == 200
    same = client_from(app, "2001:db8:1:2:ffff::9")
    assert same.get("/sheets/rules.pdf?target=700").status_code == 429
    other = client_from(app, "2001:db8:1:3::1")
    assert other.get("/sheets/rules.pdf?target=700").status_code == 200


def test_a_person_printing_a_few_sheets_is_never_refused(app: FastAPI) -> None:
    # Setting a game up and printing it: each change of the rules is a new pair of links,
    # opened in Letter and A4, then the score sheet with the players' names.
    client = client_from(app, "203.0.113.9")
    names = "&name=Ana&name=Ben&name=Cy&name=Dot"
    games = [
        "players=4&passing=standard",
        "players=4&passing=standard&target=50&moon=add",
        "players=4&passing=standard&target=50&moon=choose",
        "players=4&passing=no-hold&target=50&moon=choose&bonus=jack",
    ]
    asked = []
    for game in games:
        for kind in ("rules", "score"):
            asked.append(f"/sheets/{kind}.pdf?{game}")
    asked += [f"/sheets/score.pdf?{games[-1]}{names}", f"/sheets/rules.pdf?{games[-1]}&paper=a4"]
    asked += ["/sheets/rules.pdf", "/sheets/score.pdf"] * 5  # and again, and again
    for path in asked:
        assert client.get(path).status_code == 200, path


def test_the_limit_counts_by_the_address_as_the_new_games_quota_does(clock: Clock) -> None:
    seen: list[str] = []

    def key(address: str) -> str:
        seen.append(address)
        return f"key:{address}"

    metrics = Metrics()
    renders = SheetRenders(Settings(sheets_per_minute_per_address=2), key, clock, metrics)
    renders.admit("::ffff:203.0.113.9")
    renders.admit("203.0.113.9")
    with pytest.raises(OverQuota) as refused:
        renders.admit("203.0.113.9")
    assert (refused.value.kind, refused.value.status, refused.value.retry_after) == (
        "sheets",
        429,
        int(MINUTE),
    )
    assert seen == ["203.0.113.9"] * 3  # the keyed hash of the counted part, never kept raw
    text = generate_latest(metrics.registry).decode()
    assert 'hearts_quota_refusals_total{kind="sheets"} 1.0' in text


def test_the_app_limits_its_sheets_by_the_setting(tmp_path: Path) -> None:
    settings = Settings.from_env({"HEARTS_SHEETS_PER_MINUTE_PER_ADDRESS": "3"}, data_dir=tmp_path)
    sheets_routes.cached_rules.cache_clear()
    with TestClient(create_app(bot_workers=0, settings=settings)) as client:
        codes = [client.get(f"/sheets/rules.pdf?target={n}").status_code for n in range(1, 6)]
    sheets_routes.cached_rules.cache_clear()
    assert codes == [200, 200, 200, 429, 429]


def test_the_setting_must_allow_a_sheet() -> None:
    problems = Settings.from_env({"HEARTS_SHEETS_PER_MINUTE_PER_ADDRESS": "0"}).problems()
    assert problems == ["HEARTS_SHEETS_PER_MINUTE_PER_ADDRESS must be at least 1."]
