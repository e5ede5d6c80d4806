"""The coach's hints at a table of friends, two people in two browser contexts: the host
chooses on the start screen whether hints are allowed; a friend reads it on the page the
link opens; with hints allowed, each hint one person takes is said at their seat on the
other's screen (never to the one who asked), and counted in the scores; with hints off,
nobody has the Hint button and the server refuses a hint asked for all the same.
Screenshots go to HEARTS_SCREENSHOT_DIR when it is set."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from test_friends_browser import (
    DESKTOP,
    Person,
    join,
    pass_last_three,
    person,
    shoot_views,
    table_by_api,
)
from test_web_game_browser import TABLE

from browser_support import PHONE, AppServer, plain

pytestmark = pytest.mark.browser

HINT = "[data-action=hint]"


def host_with_hints(host: Person, server: AppServer, allowed: bool, shot: str = "") -> str:
    """Ann's table of four on the start screen: a friend across, two computer players, no
    turn time, and hints `allowed` or not. Returns the invite link the lobby shows."""
    page = host.page
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.click("[data-players='4']")
    page.click("[data-region=invite] summary")
    page.fill("#host-name", host.name)
    for row, choice in ((1, "easy"), (2, "friend"), (3, "easy")):
        page.click(f"input[name=invite-seat-{row}][value={choice}] + span")
    page.click("input[name=invite-time][value=off] + span")
    # Allowed unless the host says no, and said in words under the choice.
    assert page.is_checked("input[name=invite-hints][value=on]")
    if not allowed:
        page.click("input[name=invite-hints][value=off] + span")
    note = page.inner_text("[data-region=invite] [data-region=hints-note]")
    assert note.startswith("Anyone may ask the coach" if allowed else "No hints"), note
    if shot:
        page.locator("[data-action=invite]").scroll_into_view_if_needed()
        shoot_views(page, shot)
    page.click("[data-action=invite]")
    page.wait_for_selector("body[data-screen=lobby] [data-region=invite-link]")
    lobby = page.inner_text("[data-region=lobby-hints]")
    assert lobby.startswith("Anyone may ask the coach" if allowed else "No hints"), lobby
    link: str = page.input_value("[data-region=invite-link]")
    return link


def move(client: httpx.Client, state: dict[str, Any]) -> httpx.Response:
    """The simplest move for the client's seat in `state` (its own view)."""
    game, phase, view = state["id"], state["phase"], state["view"]
    body: dict[str, Any] = {"move": state["move"]}
    if phase == "passing":
        route, body["cards"] = "pass", view["hand"][: view["cards_to_pass"]]
    elif phase == "playing":
        route, body["card"] = "play", view["legal"][0]
    elif phase == "moon-choice":
        route, body["choice"] = "moon", "add"
    else:
        route = "next"
    return client.post(f"/api/games/{game}/{route}", json=body)


def at_the_pass(people: list[Person]) -> None:
    for someone in people:
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)


def test_a_hint_taken_is_said_on_the_other_persons_screen(browser: Any, server: AppServer) -> None:
    ann = person(browser, "Ann", DESKTOP)
    bea = person(browser, "Bea", PHONE)
    link = host_with_hints(ann, server, allowed=True, shot="hints-setting")
    join(bea, link, shot="hints-join")
    said = bea.page.inner_text("[data-region=join-table]")
    at_the_pass([ann, bea])
    assert "Anyone may ask the coach for a hint; the others are told each time." in said
    ann.page.click(HINT)
    ann.page.wait_for_selector("[data-region=hint]:not([hidden])")
    # Bea reads it at Ann's seat, across from her, and in the table's log.
    # The name is set apart from the words round it (U+2068 ... U+2069).
    words = "\u2068Ann\u2069 asked the coach for a hint."
    bea.page.wait_for_selector(f".seat[data-seat='0'] .quip:not([hidden]):has-text('{words}')")
    # Once: the bubble over Ann's seat on a phone starts with the speaker's name, and read
    # "Ann: Ann asked the coach for a hint." (a screen reader heard it twice as well).
    before = bea.page.eval_on_selector(
        ".seat[data-seat='0'] .quip:not([hidden])",
        "(quip) => getComputedStyle(quip, '::before').content",
    )
    assert before in ("none", "normal"), before
    assert words in bea.page.inner_text("#log")
    shoot_views(bea.page, "hints-told")
    # Ann is not told of her own hint as if someone else had asked.
    assert "asked the coach" not in ann.page.inner_text("#game")
    assert "asked the coach" not in ann.page.evaluate("document.querySelector('#log').textContent")
    # The scores say who took how many.
    bea.page.click("[data-action=scores]")
    taken = plain(bea.page.inner_text("#dialog [data-region=hints-taken]"))
    assert taken == "Ann took 1 hint from the coach and you took none.", taken
    for someone in (ann, bea):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_a_table_without_hints_has_no_hint_button_for_anyone(
    browser: Any, server: AppServer
) -> None:
    ann = person(browser, "Ann", DESKTOP)
    bea = person(browser, "Bea", PHONE)
    link = host_with_hints(ann, server, allowed=False)
    join(bea, link)
    said = bea.page.eval_on_selector_all(
        "[data-region=join-table] > li", "lis => lis.map((li) => li.textContent)"
    )
    at_the_pass([ann, bea])
    # The setting said last, beside the time for a move (off at this table).
    settings = ["No hints: nobody at this table can ask the coach.", "No time limit for a move."]
    assert said[-2:] == settings, said
    for someone in (ann, bea):
        page = someone.page
        # Their turn to choose cards, and still no Hint button.
        assert page.locator("[data-action=pass]").count() == 1
        assert page.locator(HINT).is_hidden()
        # A hint asked for all the same (a page changed by hand) is refused with a sentence.
        game = page.get_attribute(TABLE, "data-game")
        answer = page.evaluate(
            "async (id) => { const r = await fetch(`/api/games/${id}/hint`, {method: 'POST',"
            " headers: {'Content-Type': 'application/json'}, body: '{}'});"
            " return [r.status, (await r.json()).detail]; }",
            game,
        )
        assert answer[0] == 403 and "hints were switched off" in answer[1], answer
        page.click("[data-action=scores]")
        taken = plain(page.inner_text("#dialog [data-region=hints-taken]"))
        assert taken == "No hints: nobody at this table can ask the coach.", taken
        assert not page.errors, page.errors
        someone.context.close()


def test_the_games_end_says_who_took_how_many_hints(browser: Any, server: AppServer) -> None:
    ann = person(browser, "Ann", DESKTOP)
    bea = person(browser, "Bea", PHONE)
    body = {"name": "Ann", "seats": ["you", "friend", "easy", "easy"], "turn_time": None}
    state = table_by_api(ann, server, {**body, "rules": {"target_score": 1}})
    join(bea, f"{server.url}{state['table']['invite']}")
    at_the_pass([ann, bea])
    ann.page.click(HINT)
    ann.page.wait_for_selector("[data-region=hint]:not([hidden])")
    # The round played out through the API, as each person (their page's own cookie).
    people = {}
    for seat, someone in enumerate((ann, bea)):
        jar = {c["name"]: c["value"] for c in someone.context.cookies()}
        people[seat] = httpx.Client(base_url=server.url, cookies=jar, timeout=30)
    game = state["id"]
    assert people[1].post(f"/api/games/{game}/hint", json={}).status_code == 200
    for _ in range(500):
        now = people[0].get(f"/api/games/{game}").json()
        if now["phase"] == "game-over":
            break
        waiting = [seat for seat in now["table"]["waiting_on"] if seat in people]
        for seat in waiting:
            answer = move(people[seat], people[seat].get(f"/api/games/{game}").json())
            assert answer.status_code in (200, 409), answer.text
    assert now["phase"] == "game-over"
    for client in people.values():
        client.close()
    words = [(ann, "You took 1 hint from the coach and Bea took 1."),
             (bea, "Ann took 1 hint from the coach and you took 1.")]  # fmt: skip
    for someone, said in words:
        page = someone.page
        page.wait_for_selector(f"{TABLE}[data-phase=game-over] [data-region=hints-taken]")
        assert plain(page.inner_text("[data-region=overlay] [data-region=hints-taken]")) == said
        assert not page.errors, page.errors
    shoot_views(bea.page, "hints-game-over")
    for someone in (ann, bea):
        someone.context.close()


#: The hint's answer held until the test lets it through (`window.letTheHintCome()`): the
#: server answers at once (`window.hintAnswered`), the page hears it only then.
HOLD_THE_HINT = """() => {
    const fetched = window.fetch.bind(window);
    window.fetch = (path, init) => {
        if (!String(path).endsWith('/hint')) return fetched(path, init);
        const answer = fetched(path, init);
        answer.then(() => { window.hintAnswered = true; });
        return new Promise((resolve) => { window.letTheHintCome = () => resolve(answer); });
    };
}"""

HINT_SHOWN = "[data-region=hint]:not([hidden])"
HINTED = "[data-region=hand] [data-card][data-hinted=true]"


def passing_together(browser: Any, server: AppServer) -> tuple[Person, Person]:
    """Ann and Bea at a table of four with two computer players, both choosing their pass."""
    ann = person(browser, "Ann", DESKTOP)
    bea = person(browser, "Bea", PHONE)
    body = {"name": "Ann", "seats": ["you", "friend", "easy", "easy"], "turn_time": None}
    state = table_by_api(ann, server, body)
    join(bea, f"{server.url}{state['table']['invite']}")
    at_the_pass([ann, bea])
    return ann, bea


def bea_passes(ann: Person, bea: Person) -> None:
    """Bea passes, and Ann's page shows the count moved on (Ann still choosing hers)."""
    before = ann.move()
    pass_last_three(bea.page)
    ann.page.wait_for_function(
        "(move) => Number(document.querySelector('#game').dataset.move) > move", arg=before
    )
    assert ann.page.get_attribute(TABLE, "data-phase") == "passing"


def test_a_hint_comes_when_a_friend_passes_while_it_is_on_its_way(
    browser: Any, server: AppServer
) -> None:
    # The answer was for the count of passes when it was asked; Bea's pass moved the count
    # on before it reached Ann's page, which dropped it as old: Ann pressed Hint and got
    # nothing. A pass is the round's, whoever passed meanwhile.
    ann, bea = passing_together(browser, server)
    ann.page.evaluate(HOLD_THE_HINT)
    ann.page.click(HINT)
    ann.page.wait_for_function("() => window.hintAnswered === true")
    bea_passes(ann, bea)
    ann.page.evaluate("() => window.letTheHintCome()")
    ann.page.wait_for_selector(HINT_SHOWN)
    assert ann.page.locator(HINTED).count() >= 1
    assert ann.page.inner_text("[data-region=hint]").strip()
    for someone in (ann, bea):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_a_hint_on_the_screen_stays_when_a_friend_passes(browser: Any, server: AppServer) -> None:
    # Ann's pass is still hers to choose, and the same hint holds for it: the hint went
    # from her screen, words and marks, the moment Bea passed.
    ann, bea = passing_together(browser, server)
    ann.page.click(HINT)
    ann.page.wait_for_selector(HINT_SHOWN)
    words = ann.page.inner_text("[data-region=hint]")
    marked = ann.page.eval_on_selector_all(HINTED, "els => els.map(e => e.dataset.key)")
    assert marked
    bea_passes(ann, bea)
    assert ann.page.locator(HINT_SHOWN).is_visible()
    assert ann.page.inner_text("[data-region=hint]") == words
    assert ann.page.eval_on_selector_all(HINTED, "els => els.map(e => e.dataset.key)") == marked
    # Once Ann passes, the hint has had its day.
    pass_last_three(ann.page)
    ann.page.wait_for_function(
        "() => document.querySelector('[data-region=hint]').hidden"
        " && !document.querySelector('[data-hinted=true]')"
    )
    for someone in (ann, bea):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


#: What a page of another site gets trying to ask for a hint in its visitor's name: as plain
#: text (no leave asked of the server first; the answer hidden from it), and as JSON (the
#: browser first asks the server, which gives no other site leave).
FROM_ANOTHER_SITE = """async (address) => {
    const tries = [
        {mode: 'no-cors', headers: {'Content-Type': 'text/plain'}},
        {mode: 'cors', headers: {'Content-Type': 'application/json'}},
    ];
    const got = [];
    for (const ask of tries) {
        try {
            const answer = await fetch(address, {...ask, method: 'POST', credentials: 'include',
                body: '{}'});
            got.push(answer.type);
        } catch {
            got.push('refused');
        }
    }
    return got;
}"""


def test_a_page_on_another_site_cannot_ask_for_a_hint(browser: Any, server: AppServer) -> None:
    # A hint is counted and told to the others, so a page of another site must not ask for
    # one in the person's name. As plain text the browser sends it without the person's
    # cookie (SameSite=strict), and the hint takes a JSON object as the table's other
    # requests do; as JSON the browser asks the server's leave first and gets none.
    ann, bea = person(browser, "Ann", DESKTOP), person(browser, "Bea", PHONE)
    join(bea, host_with_hints(ann, server, allowed=True))
    at_the_pass([ann, bea])
    game = ann.page.get_attribute(TABLE, "data-game")
    address = f"{server.url}/api/games/{game}/hint"
    elsewhere = server.url.replace("127.0.0.1", "localhost")  # another site to the browser
    assert elsewhere != server.url
    other = ann.context.new_page()  # Ann's browser, her cookie in it
    other.goto(f"{elsewhere}/api/health")  # a page there with no policy of the game's pages
    answered: list[tuple[str, int]] = []
    other.on("response", lambda r: answered.append((r.request.method, r.status)))
    assert other.evaluate(FROM_ANOTHER_SITE, address) == ["opaque", "refused"]
    # The server refused the text (no JSON object, as start or leave would), and the JSON
    # was never sent: the server gave the browser no leave to.
    assert answered == [("POST", 422)], answered

    def taken() -> list[int]:
        state = ann.page.request.get(f"{server.url}/api/games/{game}").json()
        return [p["hints"] for p in state["players"] if p["person"]]

    assert taken() == [0, 0]
    # Asked on the game's own page, it is counted.
    ann.page.click(HINT)
    ann.page.wait_for_selector("[data-region=hint]:not([hidden])")
    assert taken() == [1, 0]
    for someone in (ann, bea):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()
