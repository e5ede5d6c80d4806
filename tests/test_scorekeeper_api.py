"""HTTP side of the sheets and the scorekeeper: PDFs, refusals, the page and its files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from hearts import sheets
from hearts.web import sheets_routes
from hearts.web.assets import version_of
from pdf_support import pdf_text

STATIC = Path(sheets_routes.__file__).parent / "static" / "scorekeeper"


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(sheets_routes.router)
    return TestClient(app)


def media_box(data: bytes) -> tuple[float, float]:
    box = re.search(rb"/MediaBox \[ ?[\d.]+ [\d.]+ ([\d.]+) ([\d.]+) ?\]", data)
    assert box is not None
    return float(box.group(1)), float(box.group(2))


# --- PDFs ------------------------------------------------------------------------------------


def test_rule_sheet_is_served_as_a_pdf(client: TestClient) -> None:
    response = client.get("/sheets/rules.pdf")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert 'filename="hearts-rules-letter.pdf"' in response.headers["content-disposition"]
    assert response.content.startswith(b"%PDF-")
    assert media_box(response.content) == (612, 792)


def test_a4_versions(client: TestClient) -> None:
    rules = client.get("/sheets/rules.pdf", params={"paper": "a4"})
    score = client.get("/sheets/score.pdf", params={"paper": "A4", "players": "3"})
    assert rules.status_code == score.status_code == 200
    assert media_box(rules.content) == pytest.approx((595.276, 841.89), abs=0.01)
    assert media_box(score.content) == pytest.approx((595.276, 841.89), abs=0.01)
    assert 'filename="hearts-score-3p-a4.pdf"' in score.headers["content-disposition"]


def test_score_sheet_for_many_players_turns_sideways(client: TestClient) -> None:
    response = client.get("/sheets/score.pdf", params={"players": "10"})
    assert response.status_code == 200
    assert media_box(response.content) == (792, 612)


@pytest.mark.parametrize(
    ("path", "params", "message"),
    [
        ("/sheets/score.pdf", {"players": "99"}, "players must be from 3 to 10, not 99."),
        ("/sheets/score.pdf", {"players": "2"}, "players must be from 3 to 10, not 2."),
        ("/sheets/score.pdf", {"players": "four"}, "players must be a whole number from 3 to 10."),
        ("/sheets/score.pdf", {"players": "1_0"}, "players must be a whole number from 3 to 10."),
        ("/sheets/rules.pdf", {"players": "+4"}, "players must be a whole number from 3 to 10."),
        ("/sheets/score.pdf", {"rounds": "١٢"}, "rounds must be a whole number from 10 to 30."),
        ("/sheets/score.pdf", {"rounds": "500"}, "rounds must be from 10 to 30, not 500."),
        ("/sheets/score.pdf", {"paper": "legal"}, "paper must be 'letter' or 'a4', not 'legal'."),
        ("/sheets/rules.pdf", {"paper": "a3"}, "paper must be 'letter' or 'a4', not 'a3'."),
        (
            "/sheets/score.pdf",
            {"passing": "up"},
            "passing must be standard, no-hold, across, across-no-hold, scatter or none, not 'up'.",
        ),
        (
            "/sheets/score.pdf",
            {"passing": "scatter", "players": "3"},
            "Scatter passing has a round across, and nobody sits across with 3 players: "
            "passing across needs an even number.",
        ),
    ],
)
def test_bad_sheet_requests_get_a_400_that_says_why(
    client: TestClient, path: str, params: dict[str, str], message: str
) -> None:
    response = client.get(path, params=params)
    assert response.status_code == 400
    assert response.json() == {"detail": message}


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/sheets/rules.pdf", {}),
        ("/sheets/rules.pdf", {"paper": "a4"}),
        ("/sheets/score.pdf", {"players": "7", "passing": "standard"}),
    ],
)
def test_head_answers_like_get_without_the_body(
    client: TestClient, path: str, params: dict[str, str]
) -> None:
    got = client.get(path, params=params)
    head = client.head(path, params=params)
    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == "application/pdf"
    assert int(head.headers["content-length"]) == len(got.content)
    assert head.headers["content-disposition"] == got.headers["content-disposition"]


def test_head_refuses_what_get_refuses(client: TestClient) -> None:
    assert client.head("/sheets/score.pdf", params={"players": "99"}).status_code == 400


def test_the_score_sheet_follows_the_passing_asked_for(client: TestClient) -> None:
    usual = client.get("/sheets/score.pdf", params={"players": "4"}).content
    no_hold = client.get("/sheets/score.pdf", params={"players": "4", "passing": "no-hold"})
    assert no_hold.status_code == 200
    assert no_hold.content != usual
    assert no_hold.content == sheets.score_sheet_pdf(4, passing="no-hold")


# --- a scorekeeper's game on the sheets ------------------------------------------------------

#: A link as the scorekeeper writes it for a game to 50 where the shooter chooses, with the
#: jack of diamonds and the sun.
GAME = "players=4&passing=standard&target=50&moon=choose&bonus=jack&sun=yes"


def test_the_sheets_print_the_rules_in_the_link(client: TestClient) -> None:
    rules = client.get(f"/sheets/rules.pdf?{GAME}")
    assert rules.status_code == 200
    agreed = sheets.Agreed(target=50, moon="choose", bonus="jack", sun=True)
    assert rules.content == sheets.rule_sheet_pdf("letter", 4, "standard", agreed)
    text = re.sub(r"\s+", " ", pdf_text(rules.content))
    assert "someone reaches 50 or more" in text
    assert "you choose: take 26 off your total, or every other player scores 26" in text
    assert "the jack of diamonds" in text
    score = client.get(f"/sheets/score.pdf?{GAME}&paper=a4")
    assert score.status_code == 200
    text = pdf_text(score.content)
    assert "Game to 50" in text and "Moon rule shooter chooses" in text
    assert "Bonus card jack of diamonds" in text


@pytest.mark.parametrize("path", ["/sheets/rules.pdf", "/sheets/score.pdf"])
@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("target=1e3", "target must be a whole number from 1 to 1000."),
        ("target=-50", "target must be a whole number from 1 to 1000."),
        ("target=0", "target must be from 1 to 1000, not 0."),
        ("target=" + "9" * 5000, "target must be from 1 to 1000, not a 5000-digit number."),
        ("players=" + "4" * 5000, "players must be from 3 to 10, not a 5000-digit number."),
        (
            "moon=%3Cscript%3Ealert(1)%3C/script%3E",
            "moon must be add, subtract, choose or add-unless-losing, not '<script>alert(1)</sc'.",
        ),
        ("bonus=queen", "bonus must be none, jack or ten, not 'queen'."),
        ("exact=fifty&target=50", "Dropping back to 50 needs a game to more than 50, not to 50."),
        ("tie=coin", "tie must be share or play-on, not 'coin'."),
        ("sun=true", "sun must be yes or no, not 'true'."),
        (
            "partnership=yes&players=5",
            "Partnership Hearts is played by four players, two teams of two.",
        ),
        ("moon=add&moon=choose", "moon is given more than once."),
        (
            "bonsu=jack",
            "The rule sheet takes bonus, exact, moon, paper, partnership, passing, players, sun, "
            "target and tie; not 'bonsu'.",
        ),
    ],
)
def test_a_bad_or_hostile_query_gets_a_400_never_a_wrong_sheet(
    client: TestClient, path: str, query: str, message: str
) -> None:
    if path.startswith("/sheets/score") and query.startswith("bonsu"):
        message = message.replace("rule", "score").replace("players, sun", "players, rounds, sun")
        message = message.replace("moon, paper", "moon, name, paper")
    for answer in (client.get(f"{path}?{query}"), client.head(f"{path}?{query}")):
        assert answer.status_code == 400
    assert client.get(f"{path}?{query}").json() == {"detail": message}


@pytest.mark.parametrize("path", ["/sheets/rules.pdf", "/sheets/score.pdf"])
def test_a_link_sent_on_through_a_messenger_still_opens(client: TestClient, path: str) -> None:
    # A messenger or a mail adds its own marks to a link passed through it: the sheet is the
    # one the link asked for, not a refusal of "fbclid".
    sent = client.get(f"{path}?{GAME}")
    for added in ("fbclid=IwAR0abc", "utm_source=chat&utm_medium=share", "gclid=x1"):
        answer = client.get(f"{path}?{GAME}&{added}")
        assert answer.status_code == 200, (added, answer.text)
        assert answer.content == sent.content


# --- the scorekeeper page --------------------------------------------------------------------


def test_scorekeeper_page(client: TestClient) -> None:
    response = client.get("/scorekeeper")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    html = response.text
    assert 'role="status"' in html
    assert 'href="/sheets/rules.pdf"' in html
    assert 'href="/sheets/score.pdf"' in html
    assert '<script type="module" src="/scorekeeper/main.js">' in html


def test_scorekeeper_page_allows_only_its_own_files(client: TestClient) -> None:
    policy = client.get("/scorekeeper").headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy


def test_the_main_app_serves_the_sheets_and_the_scorekeeper(tmp_path: Path) -> None:
    app_module = pytest.importorskip("hearts.web.app")
    with TestClient(app_module.create_app(tmp_path, bot_workers=0)) as main:
        assert main.get("/scorekeeper").status_code == 200
        assert main.get("/scorekeeper/model.js").status_code == 200
        response = main.get("/sheets/score.pdf", params={"players": "5"})
        assert response.status_code == 200
        assert response.content.startswith(b"%PDF-")
        assert main.get("/sheets/score.pdf", params={"players": "99"}).status_code == 400
        # HEAD passes the main app's middleware too (it answered 405 before).
        head = main.head("/sheets/rules.pdf")
        assert head.status_code == 200
        assert int(head.headers["content-length"]) == len(main.get("/sheets/rules.pdf").content)


@pytest.mark.parametrize("path", ["/scorekeeper", "/scorekeeper/model.js", "/scorekeeper/sw.js"])
def test_a_scorekeeper_file_unchanged_is_answered_not_modified(
    client: TestClient, path: str
) -> None:
    # Its service worker refreshes every file on each visit: each came back whole, about
    # 88 KB a visit, the If-None-Match it sent ignored.
    first = client.get(path)
    assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
    again = client.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and not again.content
    assert client.head(path).status_code == 200
    kind = {"/scorekeeper": "text/html", "/scorekeeper/sw.js": "text/javascript"}
    assert first.headers["content-type"].startswith(kind.get(path, "text/javascript"))


def test_trailing_slash_redirects_to_the_page(client: TestClient) -> None:
    response = client.get("/scorekeeper/", follow_redirects=False)
    assert response.status_code == 308
    assert response.headers["location"] == "/scorekeeper"


def test_every_file_the_service_worker_keeps_is_served(client: TestClient) -> None:
    worker = (STATIC / "sw.js").read_text()
    files = re.findall(r'"(/scorekeeper[^"]*)"', worker.split("const FILES", 1)[1].split("];")[0])
    assert "/scorekeeper" in files and "/scorekeeper/main.js" in files
    for path in files:
        response = client.get(path)
        assert response.status_code == 200, path
    # ...and every module the page imports is in that list, or the page breaks offline.
    for module in STATIC.glob("*.js"):
        if module.name != "sw.js":
            assert f"/scorekeeper/{module.name}" in files, module.name


def test_assets_have_their_types(client: TestClient) -> None:
    expected = {
        "main.js": "text/javascript",
        "scorekeeper.css": "text/css",
        "icon.svg": "image/svg+xml",
        "manifest.webmanifest": "application/manifest+json",
    }
    for name, media in expected.items():
        response = client.get(f"/scorekeeper/{name}")
        assert response.headers["content-type"].startswith(media), name


def test_the_workers_cache_is_named_after_the_files(client: TestClient) -> None:
    # Named by hand, the cache kept its name through a release that changed the modules, and
    # a phone refreshing them one by one mixed old and new.
    served = client.get("/scorekeeper/sw.js").text
    assert f'const VERSION = "scorekeeper-{version_of(STATIC)}";' in served
    assert "scorekeeper-dev" not in served
    head = client.head("/scorekeeper/sw.js")
    assert int(head.headers["content-length"]) == len(served.encode()) and not head.content


def test_service_worker_may_control_the_page(client: TestClient) -> None:
    response = client.get("/scorekeeper/sw.js")
    assert response.status_code == 200
    assert response.headers["service-worker-allowed"] == "/scorekeeper"


@pytest.mark.parametrize(
    "name", ["nope.js", "index.html", "..%2Fsheets_routes.py", ".hidden.js", "main.py"]
)
def test_only_scorekeeper_files_are_served(client: TestClient, name: str) -> None:
    assert client.get(f"/scorekeeper/{name}").status_code == 404


def test_page_is_self_contained() -> None:
    """No CDN, no web fonts: the page must work offline at a kitchen table."""
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)=\"https?://", text), path.name
        assert "@import" not in text and "fonts.googleapis" not in text, path.name
        assert not re.search(r"import .* from \"https?://", text), path.name


def test_the_scorekeepers_limits_are_the_games() -> None:
    # The scorekeeper works offline, so it cannot ask the server: its limits are written out
    # in model.js. They had drifted (a game to 10 at least, where the game takes 1), and
    # each is held here to the number the game itself goes by.
    from hearts.rules import MAX_PLAYERS, MIN_PLAYERS
    from hearts.web.api import NAME_LENGTH, TARGET_RANGE

    model = (STATIC / "model.js").read_text()
    limits = {
        name: int(number)
        for name, number in re.findall(r"^export const (\w+) = (\d+);$", model, re.MULTILINE)
    }
    assert (limits["MIN_PLAYERS"], limits["MAX_PLAYERS"]) == (MIN_PLAYERS, MAX_PLAYERS)
    assert (limits["MIN_TARGET"], limits["MAX_TARGET"]) == TARGET_RANGE
    assert limits["MAX_NAME"] == NAME_LENGTH
    # The setup screen's box takes them from the model, not numbers of its own.
    setup = (STATIC / "setup.js").read_text()
    box = setup.split('id: "setup-target"', 1)[1].split("});", 1)[0]
    assert "min: MIN_TARGET," in box and "max: MAX_TARGET," in box, box
