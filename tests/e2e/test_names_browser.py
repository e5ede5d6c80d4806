"""People's names as people type them, in headless Chromium: a right-to-left name ("سارة",
"Ana 🂡 مرحبا") keeps the numbers and punctuation beside it in their places wherever it is
shown, a name with an emoji made with joiners ("Ana 👩‍💻") is taken on the join page as by
the server, and a name the server refuses on the host's start screen is said by its box.

Where text lies is read from the boxes the browser drew: a score that reads after a name in
the line lies to the right of the whole name, never inside it or before it."""

from __future__ import annotations

from typing import Any

import pytest
from test_friends_browser import VIEWS, person, with_speed
from test_web_game_browser import open_page

from browser_support import DESKTOP, PHONE, AppServer, create_by_page, plain, resize, shoot

pytestmark = pytest.mark.browser

RTL = "Ana 🂡 مرحبا"
ARABIC = "سارة"
EMOJI = "Ana \U0001f469\u200d\U0001f4bb"  # woman technologist: woman, ZWJ, laptop
#: What the page and the server both say of a name with a control or format character in
#: it ("A name can hold only printable characters." showed under a box that read "Ann").
INVISIBLE = "A name cannot hold invisible characters (pasted text can bring them): type it again."

#: The boxes of `parts` of the text in `selector`, each {left, right, top, bottom}, or null
#: when the part is not there. `parts` are [text, n]: the n-th time (from 0) it occurs in
#: the element's text (isolating marks and all), measured through a Range over its text nodes.
BOXES = """([selector, parts]) => {
    const root = document.querySelector(selector);
    const nodes = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
    const text = nodes.map((n) => n.data).join('');
    const at = (offset) => {
        for (const node of nodes) {
            if (offset <= node.data.length) return [node, offset];
            offset -= node.data.length;
        }
        return null;
    };
    return parts.map(([part, nth]) => {
        let start = -1;
        for (let i = 0; i <= nth; i++) start = text.indexOf(part, start + 1);
        if (start < 0) return null;
        const range = document.createRange();
        range.setStart(...at(start));
        range.setEnd(...at(start + part.length));
        const box = range.getBoundingClientRect();
        return { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
    });
}"""


def boxes(page: Any, selector: str, *parts: str | tuple[str, int]) -> list[dict[str, float]]:
    wanted = [[part, 0] if isinstance(part, str) else list(part) for part in parts]
    found: list[dict[str, float]] = page.evaluate(BOXES, [selector, wanted])
    assert all(found), (selector, parts, found)
    return found


def reads_after(first: dict[str, float], then: dict[str, float]) -> bool:
    """Whether `then` lies after `first` in a left-to-right line: to its right on the same
    line (their boxes overlap up and down), or on a line below."""
    if then["top"] >= first["bottom"] - 1:
        return True
    return then["left"] >= first["right"] - 0.5


def test_a_right_to_left_name_keeps_each_score_beside_it(browser: Any, server: AppServer) -> None:
    """Hostie's table of five: Ana, whose name ends in Arabic, has a seat; a third person
    opens the link. The join page's sentence, then the host's "Your unfinished game" line,
    keep each name's neighbour after the whole name ("Ana 🂡 2 ,مرحبا computer players"
    and "Ana 🂡 19 مرحبا" were the words the page drew)."""
    host = open_page(browser, server, DESKTOP)
    body = {"seats": ["you", "friend", "friend", "easy", "easy"], "name": "Hostie",
            "rules": {"players": 5}, "turn_time": None}  # fmt: skip
    made = create_by_page(host, body)
    link = f"{server.url}{made['table']['invite']}"
    ana = person(browser, RTL, DESKTOP)
    ana.page.goto(with_speed(link))
    ana.page.wait_for_selector("#join-name")
    ana.page.fill("#join-name", RTL)
    ana.page.click("[data-action=join]")
    ana.page.wait_for_selector("body[data-screen=lobby]")
    # The third person reads the table before giving a name.
    cal = person(browser, "Cal", DESKTOP)
    cal.page.goto(with_speed(link))
    sentence = "[data-region=join-table]"
    cal.page.wait_for_selector(sentence)
    words = plain(cal.page.inner_text(sentence))
    assert f"Hostie, {RTL}, 2 computer players and one open seat." in words, words
    name, comma, two = boxes(cal.page, sentence, RTL, (", 2", 0), " computer")
    assert reads_after(name, comma) and reads_after(comma, two), (name, comma, two)
    for view, size in VIEWS.items():
        resize(cal.page, size)
        shoot(cal.page, f"names-join-rtl-{view}")
    # The host's start screen: the table waiting for friends, who sits there so far (no
    # scores before the game starts), the rest of the line after the whole name.
    host.goto(f"{server.url}/?speed=instant")
    host.wait_for_selector(".unfinished .scores")
    line = plain(host.inner_text(".unfinished .scores")).replace("\u00a0", " ")
    assert line.startswith(f"Hostie · {RTL} · ") and line.endswith(" · one open seat"), line
    name, dot, next_name = boxes(host, ".unfinished .scores", RTL, (" · ", 1), "open seat")
    assert reads_after(name, dot) and reads_after(dot, next_name), (name, dot, next_name)
    for view, size in VIEWS.items():
        resize(host, size)
        host.locator(".unfinished").scroll_into_view_if_needed()
        shoot(host, f"names-unfinished-rtl-{view}")
    for page in (host, ana.page, cal.page):
        assert not page.errors, page.errors
        page.context.close()


#: The game-over standings of a table of friends drawn on the page from `names` (the person
#: first) and their totals: each line's name box and total box.
STANDINGS = """async ({names, totals}) => {
    const { standings } = await import('/game/js/scores.js');
    const state = { players: names.map((name, seat) => ({ seat, name, person: true })),
        scores: totals, winners: [0], table: { friends: true },
        view: { seat: 0, partner: null } };
    const panel = document.createElement('section');
    panel.className = 'panel';
    panel.dataset.test = 'standings';
    panel.append(standings(state));
    document.querySelector('main, body').prepend(panel);
    return [...panel.querySelectorAll('li')].map((li) => ({
        text: li.textContent,
        name: li.querySelector('.name').getBoundingClientRect().toJSON(),
        total: li.querySelector('.total').getBoundingClientRect().toJSON() }));
}"""


def test_the_standings_line_of_an_arabic_name_reads_place_name_score(
    browser: Any, server: AppServer
) -> None:
    """ "3. 11 سارة" was the line where every other read "1. Marisol 0": in every line of the
    game-over standings the score box lies after the name box."""
    page = open_page(browser, server, DESKTOP)
    names = ["Marisol", "Ana", ARABIC, RTL]
    rows = page.evaluate(STANDINGS, {"names": names, "totals": [0, 4, 11, 19]})
    assert [plain(row["text"]).split(",")[0] for row in rows] == [
        "Marisol (you)", "Ana", ARABIC, RTL
    ]  # fmt: skip
    for row in rows:
        assert row["total"]["left"] >= row["name"]["right"] - 0.5, row
    for view, size in VIEWS.items():
        resize(page, size)
        page.locator("[data-test=standings]").scroll_into_view_if_needed()
        shoot(page, f"names-standings-rtl-{view}")
    assert not page.errors, page.errors
    page.context.close()


def at_join_page(browser: Any, server: AppServer, made: dict[str, Any], viewport: Any) -> Any:
    """A friend's browser on the join page of the table `made` (a page, its name box shown)."""
    friend = person(browser, "friend", viewport)
    friend.page.goto(with_speed(f"{server.url}{made['table']['invite']}"))
    friend.page.wait_for_selector("#join-name")
    return friend.page


def join_as(page: Any, name: str) -> None:
    """Join from the join page as `name`: the lobby, or the table if it was the last seat."""
    page.fill("#join-name", name)
    page.click("[data-action=join]")
    page.wait_for_selector("body[data-screen=lobby], body[data-screen=table]")


def test_an_emoji_made_with_joiners_is_a_name_on_the_join_page(
    browser: Any, server: AppServer
) -> None:
    """ "Ana 👩‍💻" (two emoji joined by U+200D) is taken as the server takes it; a name with a
    right-to-left override typed into it is still refused under the box."""
    host = open_page(browser, server, DESKTOP)
    body = {"seats": ["you", "friend", "easy"], "name": "Hostie", "rules": {"players": 3}}
    made = create_by_page(host, body)
    ana = person(browser, EMOJI, DESKTOP)
    ana.page.goto(with_speed(f"{server.url}{made['table']['invite']}"))
    ana.page.wait_for_selector("#join-name")
    ana.page.fill("#join-name", "Bea\u202e")
    ana.page.click("[data-action=join]")
    assert ana.page.inner_text("#join-name-note") == INVISIBLE
    assert ana.page.get_attribute("#join-name", "aria-invalid") == "true"
    ana.page.fill("#join-name", EMOJI)
    assert ana.page.inner_text("#join-name-note") == ""
    assert ana.page.get_attribute("#join-name", "aria-invalid") == "false"
    shoot(ana.page, "names-join-emoji")
    ana.page.click("[data-action=join]")
    ana.page.wait_for_selector("body[data-screen=table]")
    state = host.evaluate(f"async () => (await fetch('/api/games/{made['id']}')).json()")
    assert [p["name"] for p in state["players"]][:2] == ["Hostie", EMOJI]
    for page in (host, ana.page):
        assert not page.errors, page.errors
        page.context.close()


def test_a_seats_initial_is_a_whole_character(browser: Any, server: AppServer) -> None:
    # A name of emoji only drew the first code point of its first one (a family of four
    # showed the man alone), and a letter typed with its accent apart lost the accent.
    page = open_page(browser, server, DESKTOP)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    names = [family, "e\u0301mile", '"><b>Bo', "  ", "\U0001f600 Zed"]
    shown = page.evaluate(
        "async (names) => { const { initial } = await import('/game/js/words.js');"
        " return names.map(initial); }",
        names,
    )
    assert shown == [family, "E\u0301", "B", "?", "Z"], shown
    assert not page.errors


def test_a_name_the_server_refuses_is_said_by_the_hosts_name_box(
    browser: Any, server: AppServer
) -> None:
    """The host's name reaches the server with a right-to-left override in it (changed on its
    way, as a page older than the server's rules would send it): the server's refusal is
    said under "You, named", the box marked wrong and given the focus, not at the page's top."""
    page = open_page(browser, server, DESKTOP)
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.click("[data-players='4']")
    page.click("[data-region=invite] summary")
    page.fill("#host-name", "Ann")
    page.click("input[name=invite-seat-2][value=friend] + span")

    def overridden(route: Any) -> None:
        body = route.request.post_data_json
        route.continue_(post_data={**body, "name": "Ann\u202e"})

    page.route("**/api/games", overridden)
    page.click("[data-action=invite]")
    page.wait_for_selector("#host-name[aria-invalid=true]")
    note = page.inner_text("#host-name-note")
    assert note == INVISIBLE, note
    assert page.get_attribute("#host-name", "aria-describedby") == "host-name-note"
    assert page.locator("[data-region=setup-error]").count() == 0
    assert page.evaluate("() => document.activeElement.id") == "host-name"
    assert page.locator("body[data-screen=lobby]").count() == 0
    for view, size in VIEWS.items():
        resize(page, size)
        page.locator("#host-name").scroll_into_view_if_needed()
        shoot(page, f"names-host-refused-{view}")
    # Typing again clears the server's word: the page's own check finds nothing wrong.
    page.fill("#host-name", "Ann B")
    assert page.inner_text("#host-name-note") == ""
    assert page.get_attribute("#host-name", "aria-invalid") == "false"
    assert not page.errors, page.errors
    page.context.close()


def test_the_join_page_refuses_a_computer_players_name_under_the_box(
    browser: Any, server: AppServer
) -> None:
    # A friend could take the name of a computer player at the table, and the two then
    # read alike everywhere (seats, scores, chat).
    host = open_page(browser, server, DESKTOP)
    body = {"seats": ["you", "friend", "easy"], "name": "Hostie", "rules": {"players": 3}}
    made = create_by_page(host, body)
    computer = next(p["name"] for p in made["players"] if p["level"] and not p["open"])
    bea = at_join_page(browser, server, made, DESKTOP)
    bea.fill("#join-name", computer.lower())
    said = f"Someone at this table is called \u2068{computer}\u2069 already"
    assert bea.inner_text("#join-name-note").startswith(said)
    assert bea.get_attribute("#join-name", "aria-invalid") == "true"
    bea.click("[data-action=join]")  # refused by the page: nothing sent
    assert bea.inner_text("#join-name-note").startswith(said)
    state = host.evaluate(f"async () => (await fetch('/api/games/{made['id']}')).json()")
    assert sum(p["open"] for p in state["players"]) == 1  # her seat is still open
    bea.fill("#join-name", "Bea")
    assert bea.inner_text("#join-name-note") == ""
    bea.click("[data-action=join]")
    bea.wait_for_selector("body[data-screen=table]")
    for page in (host, bea):
        assert not page.errors, page.errors
        page.context.close()


def test_a_long_name_at_a_crowded_desktop_table_shows_more_and_whole_on_hover(
    browser: Any, server: AppServer
) -> None:
    # At five seats and more a name was cut at 9 letters even on a wide desktop, with the
    # felt empty round it: "Alexandra" and "Alexander" read alike, and nothing said more.
    host = open_page(browser, server, DESKTOP)
    long = "Alexandra Smithson-Hart"
    body = {"seats": ["you", "friend", "easy", "easy", "easy"], "name": long}
    made = create_by_page(host, body)
    bea = at_join_page(browser, server, made, DESKTOP)
    join_as(bea, "Bea")
    name = bea.locator(f".seat.opponent .name[title='{long}']")
    name.wait_for()
    shown_ems = name.evaluate("(el) => el.clientWidth / parseFloat(getComputedStyle(el).fontSize)")
    assert shown_ems > 7, shown_ems  # 9 letters were about 5.5 of its ems; 15 are about 9
    for page in (host, bea):
        assert not page.errors, page.errors
        page.context.close()


def test_the_score_sheet_keeps_a_names_column_a_few_letters_wide_on_a_phone(
    browser: Any, server: AppServer
) -> None:
    # Five long names on a phone: the sheet squeezed "👩‍💻 Zoë 🎉🎉" to one emoji a line, a
    # heading four lines tall; the sheet scrolls sideways instead.
    host = open_page(browser, server, PHONE)
    body = {"seats": ["you", "friend", "friend", "friend", "easy"], "name": "Ann"}
    made = create_by_page(host, body)
    for name in (
        "Bartholomew-Alexandrinaa",
        "\U0001f469\u200d\U0001f4bb Zoë \U0001f389\U0001f389",
        ARABIC,
    ):
        page = at_join_page(browser, server, made, PHONE)
        join_as(page, name)
    # The last to join: the table has started.
    page.wait_for_selector("body[data-screen=table]")
    page.click("[data-action=scores]")
    heads = page.locator("table.sheet thead th")
    heads.first.wait_for()
    ems = heads.evaluate_all(
        "(ths) => ths.map((th) => th.getBoundingClientRect().height"
        " / parseFloat(getComputedStyle(th).fontSize))"
    )
    assert max(ems) < 4.5, ems  # three lines at most with the padding (five before)
    assert not page.errors, page.errors
