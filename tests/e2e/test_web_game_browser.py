"""The web game in headless Chromium, driven as a person plays it.

A real uvicorn server on a loopback port serves the app over a temporary data directory;
opponents move at the "instant" speed. Chromium that cannot start skips these tests, unless
HEARTS_REQUIRE_BROWSER=1 (CI), which makes them fail instead. Set HEARTS_SCREENSHOT_DIR to
keep screenshots of every screen these tests reach (docs/screenshots is made this way).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import hearts
from hearts.record import actions_of
from hearts.web.store import Store, owner_key

from browser_support import DESKTOP, PHONE, AppServer, heard, plain, screens, seen, store_for
from browser_support import shoot as keep_screenshot
from helpers import position

pytestmark = pytest.mark.browser

TABLE = "#game"


def open_page(
    browser: Any,
    server: AppServer,
    viewport: dict[str, int],
    speed: str = "instant",
    touch: bool = False,
) -> Any:
    """A page of the game in a context of its own (a phone's touch screen with `touch`)."""
    context = browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(f"{server.url}/?speed={speed}")
    page.wait_for_selector("body[data-ready=true]")
    return page


def shoot(page: Any, name: str) -> None:
    keep_screenshot(page, f"game-{name}")


def start_game(page: Any, target: int | None = None) -> None:
    if target is not None:
        page.fill("input[aria-label='Other game length']", str(target))
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]")


def phase(page: Any) -> str:
    value: str = page.get_attribute(TABLE, "data-phase")
    return value


def wait_for_person(page: Any) -> str:
    """Wait until the person has something to do, and say what."""
    page.wait_for_function(
        """() => {
            const table = document.querySelector('#game');
            if (table.dataset.animating || table.dataset.busy) return false;
            const p = table.dataset.phase;
            if (p === 'playing') return !!document.querySelector('[data-card][data-legal=true]');
            if (p === 'passing') return !!document.querySelector('[data-action=pass]');
            return !!document.querySelector('[data-action=next-round], [data-action=play-again],'
                + ' [data-action=moon-add]');
        }""",
        timeout=20000,
    )
    return phase(page)


def hand(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "[data-region=hand] [data-card]", "els => els.map(e => e.dataset.card)"
    )
    return cards


def pass_three(page: Any, screenshot: str | None = None) -> list[str]:
    chosen = hand(page)[-3:]
    for card in chosen:
        page.click(f"[data-region=hand] [data-card='{card}']")
    if screenshot:
        shoot(page, screenshot)
    page.click("[data-action=pass]")
    return chosen


def play_one(page: Any) -> str:
    card: str = page.get_attribute("[data-card][data-legal=true]", "data-card")
    page.click(f"[data-card='{card}'][data-legal=true]")
    return card


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width} px wide"


def test_a_whole_game_to_the_end_through_the_ui(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    page.click("input[name=length][value='50'] + span")  # the quick game, as a person picks it
    start_game(page)
    rounds = 0
    for _ in range(400):
        now = wait_for_person(page)
        if now == "passing":
            pass_three(page)
        elif now == "playing":
            play_one(page)
        elif page.query_selector("[data-action=moon-add]"):
            page.click("[data-action=moon-add]")
        elif now == "round-over":
            rounds += 1
            assert page.inner_text("table.sheet").count("\n") >= rounds
            page.click("[data-action=next-round]")
        else:
            break
    assert phase(page) == "game-over"
    text = page.inner_text("[data-region=overlay]")
    assert "Game over" in text and ("win" in text)
    assert page.query_selector(".chart svg") is not None
    scores = page.eval_on_selector_all("ol.standings .total", "els => els.map(e => +e.textContent)")
    assert max(scores) >= 50 and scores == sorted(scores)
    page.click("[data-action=play-again]")
    page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]")
    assert len(hand(page)) == 13
    assert not page.errors


def test_the_pass_flow(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    button = page.locator("[data-action=pass]")
    assert plain(button.inner_text()) == "Pass 3 to Marisol, on your left"
    assert button.is_disabled()
    cards = hand(page)
    for card in cards[:2]:
        page.click(f"[data-card='{card}']")
    assert button.is_disabled()
    # Dimmed, it stays in the Tab order, and pressed it says what is missing and passes nothing.
    page.focus(f"[data-card='{cards[1]}']")
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action") == "pass":
            break
    assert page.evaluate("document.activeElement.dataset.action") == "pass"
    page.keyboard.press("Enter")
    assert page.inner_text("[role=status]") == "Choose 1 more card to pass first."
    assert page.get_attribute(TABLE, "data-phase") == "passing"
    page.click(f"[data-card='{cards[0]}']")  # tapping again puts a card back
    assert page.get_attribute(f"[data-card='{cards[0]}']", "aria-pressed") == "false"
    for card in (cards[0], cards[2]):
        page.click(f"[data-card='{card}']")
    page.click(f"[data-card='{cards[3]}']")  # a fourth is refused, with a reason
    assert "put it back" in page.inner_text("[role=status]")
    assert page.get_attribute(f"[data-card='{cards[3]}']", "aria-pressed") == "false"
    shoot(page, "desktop-pass")
    button.click()
    wait_for_person(page)
    after = hand(page)
    assert not set(cards[:3]) & set(after)
    marked = page.eval_on_selector_all(".card.received", "els => els.map(e => e.dataset.card)")
    assert len(marked) == 3 and all(
        "passed to you" in page.get_attribute(f"[data-card='{c}']", "aria-label") for c in marked
    )
    # The line over the table names them (a mark can go with the person's first card, played
    # at once by "Play my only card"), in symbols to the eye and in words to a screen reader.
    line = seen(page, "[data-region=message]")
    assert " passed you " in line and line.endswith("."), line
    symbols = {
        f"{'10' if c[0] == 'T' else c[0]}{dict(C='♣', D='♦', H='♥', S='♠')[c[1]]}" for c in marked
    }
    assert all(symbol in line for symbol in symbols), (line, symbols)
    said = heard(page, "[data-region=message]")
    assert " of " in said and not set("♣♦♥♠") & set(said), said
    page.click("[data-action=dismiss]")
    assert page.query_selector(".card.received") is None
    assert not page.errors


def test_a_dimmed_card_says_why(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    pass_three(page)
    wait_for_person(page)
    dimmed = page.query_selector("[data-card][data-legal=false]")
    assert dimmed is not None, "on the first trick some cards are always refused"
    card = dimmed.get_attribute("data-card")
    label, title = dimmed.get_attribute("aria-label"), dimmed.get_attribute("title")
    dimmed.click()
    reason = page.inner_text("[role=status]")
    assert reason.endswith(".") and ("trick" in reason or "suit" in reason or "led" in reason)
    # The reason was there before the tap: read with the card's name, and on hover.
    assert title == reason and label.endswith(f", cannot be played now: {reason}"), label
    assert hand(page).count(card) == 1  # refused: still in the hand
    shoot(page, "desktop-play")
    assert not page.errors


def test_four_colour_suits_stay_four_on_dimmed_cards(browser: Any, server: AppServer) -> None:
    # A dimmed diamond took the dimmed hearts' dark red, and a dimmed club the spades' black.
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    pass_three(page)
    page.click("[data-action=settings]")
    page.click("label[for=set-colours]")
    page.click("dialog button[value=close]")
    dimmed = "[data-card][data-legal=false]:is([data-card$=C], [data-card$=D]) .card-face"
    while wait_for_person(page) == "playing" and not page.query_selector(dimmed):
        page.click("[data-card][data-legal=true]")  # until a club or a diamond is refused
    colours = page.evaluate(DIMMED_INKS, dimmed)
    assert colours
    for suit, (red, green, blue), _ in colours:
        if suit == "D":
            assert blue > red and blue > green, (suit, red, green, blue)
        else:
            assert green > red and green > blue, (suit, red, green, blue)
    # Each ink, in four colours and in two, stays readable on the grey: 4.5:1 (WCAG AA).
    page.click("[data-action=settings]")
    page.click("label[for=set-colours]")
    page.click("dialog button[value=close]")
    every = colours + page.evaluate(DIMMED_INKS, "[data-card][data-legal=false] .card-face")
    for suit, ink, paper in every:
        assert contrast(ink, paper) >= 4.5, (suit, ink, paper)
    assert not page.errors


#: Each dimmed card's suit, ink and paper (as [r, g, b]) for the faces `selector` finds.
DIMMED_INKS = """(selector) => [...document.querySelectorAll(selector)].map((face) => [
    face.closest('[data-card]').dataset.card.slice(-1),
    getComputedStyle(face).color.match(/\\d+/g).slice(0, 3).map(Number),
    getComputedStyle(face.closest('[data-card]').querySelector('.card-bg')).fill
        .match(/\\d+/g).slice(0, 3).map(Number)])"""


def contrast(ink: list[int], paper: list[int]) -> float:
    """The contrast ratio of two sRGB colours, as WCAG 2 defines it."""

    def luminance(rgb: list[int]) -> float:
        linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(ink), luminance(paper)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_a_bonus_card_taken_reads_as_points_off(browser: Any, server: AppServer) -> None:
    # The badge beside a seat that took the jack of diamonds read "+-10".
    page = open_page(browser, server, DESKTOP)
    said = page.evaluate(
        """async () => {
            const { pointsBadge } = await import('/game/js/table.js');
            const badge = (points, taken) =>
                pointsBadge(points, taken).querySelector('.pts').textContent;
            return [badge(-10, { bonus: 'JD', bonuses: 1 }), badge(3, { hearts: 3 }),
                    badge(0, null)];
        }"""
    )
    assert said == ["−10", "+3", "+0"]
    assert not page.errors


PROXY_PAGE = "<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>"


def test_a_proxys_own_error_page_is_said_in_words(browser: Any, server: AppServer) -> None:
    """Behind nginx, a server restarting gives nginx's HTML page, not our sentence: the page
    says what it means instead of a bare status ("The server said 502.")."""
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    chosen = hand(page)[-3:]
    for card in chosen:
        page.click(f"[data-region=hand] [data-card='{card}']")

    def gateway(route: Any) -> None:
        route.fulfill(status=502, body=PROXY_PAGE, content_type="text/html")

    page.route("**/api/games/*/pass", gateway)
    page.click("[data-action=pass]")
    page.wait_for_function(
        "() => document.querySelector('[role=status]').textContent.includes('not answering')"
    )
    assert page.inner_text("[role=status]") == (
        "The game server is not answering just now: your pass goes as soon as it does."
    )
    assert all(card in hand(page) for card in chosen)  # nothing lost: still held
    page.unroute("**/api/games/*/pass")
    # The server back, the pass goes by itself (tried again after 2 s).
    page.wait_for_function("() => document.querySelector('#game').dataset.phase === 'playing'")
    # The start screen's list of unfinished games: the failure is said (with a way to try
    # again), not an empty list that makes the game look lost.
    page.route("**/api/games", gateway)
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    note = page.locator("[data-region=list-error]")
    assert note.inner_text().startswith(
        "Your unfinished games could not be listed: the server is not answering just now. "
        "They are still saved, and the list will appear here as soon as it answers."
    )
    assert page.locator("[data-action=continue]").count() == 0
    # The server back, the list comes by itself (asked again after 3 s), in its place.
    page.unroute("**/api/games")
    page.wait_for_selector("[data-action=continue]", timeout=10_000)
    assert page.locator("[data-region=list-error]").count() == 0
    # A refusal that waiting does not mend is not promised to mend: "Try again" is the way.
    page.route(
        "**/api/games",
        lambda route: route.fulfill(status=500, json={"detail": "Something went wrong."}),
    )
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    assert note.inner_text().startswith(
        "Your unfinished games could not be listed. Something went wrong. They are still saved."
    )
    page.unroute("**/api/games")
    page.click("[data-action=list-again]")
    page.wait_for_selector("[data-action=continue]")
    assert page.locator("[data-region=list-error]").count() == 0
    # The statistics page says the same of a proxy's page.
    page.route("**/api/stats", gateway)
    page.goto(f"{server.url}/stats")
    status = page.locator("[data-region=stats-status]")
    status.filter(has_text="not answering").wait_for()
    assert "The server said" not in status.inner_text()
    assert not page.errors


def test_reload_mid_round_continues_at_the_same_card(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    pass_three(page)
    for _ in range(3):
        assert wait_for_person(page) == "playing"
        play_one(page)
    wait_for_person(page)
    before_hand = hand(page)
    before_table = page.eval_on_selector_all(
        "[data-played]", "els => els.map(e => e.dataset.played)"
    )
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    wait_for_person(page)
    assert hand(page) == before_hand
    after_table = page.eval_on_selector_all(
        "[data-played]", "els => els.map(e => e.dataset.played)"
    )
    assert after_table == before_table
    # Without the #play mark the start screen offers to continue the same game.
    page.goto(page.url.split("#")[0])
    page.wait_for_selector("[data-action=continue]")
    page.click("[data-action=continue]")
    wait_for_person(page)
    assert hand(page) == before_hand
    assert not page.errors


def test_keyboard_play(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    first = hand(page)[0]
    page.focus(f"[data-card='{first}']")
    chosen = []
    for _ in range(3):
        chosen.append(page.evaluate("document.activeElement.dataset.card"))
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    assert page.eval_on_selector_all("[data-card][aria-pressed=true]", "els => els.length") == 3
    page.focus("[data-action=pass]")
    page.keyboard.press("Enter")
    wait_for_person(page)
    legal = page.eval_on_selector_all(
        "[data-card][data-legal=true]", "els => els.map(e => e.dataset.card)"
    )
    page.focus(f"[data-card='{hand(page)[0]}']")
    for _ in range(14):
        if page.evaluate("document.activeElement.dataset.legal") == "true":
            break
        page.keyboard.press("ArrowRight")
    played = page.evaluate("document.activeElement.dataset.card")
    assert played in legal
    page.keyboard.press("Enter")
    wait_for_person(page)
    assert played not in hand(page)
    assert not page.errors


def test_a_phone_sized_screen(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    no_horizontal_scroll(page)
    shoot(page, "phone-start")
    start_game(page, target=20)
    no_horizontal_scroll(page)
    # Every card keeps a target at least 44 px wide and tall where it shows.
    boxes = page.eval_on_selector_all(
        "[data-region=hand] [data-card]",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })",
    )
    rows: dict[float, list[float]] = {}
    for left, top, width, height in boxes:
        assert width >= 44 and height >= 44
        rows.setdefault(round(top), []).append(left)
    for lefts in rows.values():
        steps = [b - a for a, b in zip(sorted(lefts), sorted(lefts)[1:], strict=False)]
        assert all(step >= 44 for step in steps), steps
    small = page.eval_on_selector_all(
        "button:not([data-card])",
        "els => els.filter(e => e.offsetParent !== null)"
        ".map(e => [e.textContent, e.getBoundingClientRect().height])"
        ".filter(([, h]) => h < 44)",
    )
    assert small == []
    pass_three(page, screenshot="phone-pass")
    wait_for_person(page)
    shoot(page, "phone-play")
    for _ in range(300):
        now = wait_for_person(page)
        no_horizontal_scroll(page)
        if now == "playing":
            play_one(page)
        elif now == "passing":
            pass_three(page)
        elif page.query_selector("[data-action=moon-add]"):
            page.click("[data-action=moon-add]")
        elif now == "round-over":
            shoot(page, "phone-round-over")
            page.click("[data-action=next-round]")
        else:
            break
    assert phase(page) == "game-over"
    assert page.inner_text(".round-pass") == "Game over"  # not the last round's pass
    no_horizontal_scroll(page)
    shoot(page, "phone-game-over")
    assert not page.errors


def test_a_card_and_a_pass_chosen_offline_go_once_back_online(
    browser: Any, server: AppServer
) -> None:
    # Offline, a card tapped was refused ("nothing was sent: try again"), and back online the
    # person had to tap it again; a phone on a train lost every such card. Now it is kept, and
    # goes by itself once the device is back, if the game still waits for it.
    page = open_page(browser, server, PHONE)
    start_game(page)
    status = "() => document.querySelector('#status').textContent"
    page.context.set_offline(True)
    # Said at once, and as the device's own state: a phone that lost its signal was told to
    # check that the game server was running.
    page.wait_for_function(
        f"() => ({status})() === 'This device is offline: the game goes on once it is back online.'"
    )
    chosen = hand(page)[-3:]
    for card in chosen:
        page.click(f"[data-region=hand] [data-card='{card}']")
    page.click("[data-action=pass]")
    assert page.inner_text("#status") == (
        "This device is offline: your pass goes as soon as it is back online."
    )
    assert phase(page) == "passing"
    page.context.set_offline(False)
    page.wait_for_function("() => document.querySelector('#game').dataset.phase === 'playing'")
    assert wait_for_person(page) == "playing"
    assert not set(chosen) & set(hand(page))
    assert "offline" not in page.inner_text("#status")

    before = hand(page)
    page.context.set_offline(True)
    legal = page.eval_on_selector_all(
        "[data-card][data-legal=true]", "els => els.map(e => e.dataset.card)"
    )
    page.click(f"[data-card='{legal[0]}'][data-legal=true]")
    # Choosing again while offline replaces the card kept.
    page.click(f"[data-card='{legal[-1]}'][data-legal=true]")
    held = page.inner_text("#status")
    assert held.startswith("This device is offline: your ") and held.endswith(
        " goes as soon as it is back online."
    )
    assert hand(page) == before  # nothing sent yet
    page.context.set_offline(False)
    page.wait_for_function(
        f"() => !document.querySelector('[data-region=hand] [data-card=\"{legal[-1]}\"]')"
    )
    assert wait_for_person(page) in ("playing", "round-over")
    after = hand(page)
    assert len(after) == len(before) - 1 and legal[-1] not in after
    if len(legal) > 1:  # the first card kept was replaced (with the 2♣ there is no other)
        assert legal[0] in after
    assert "offline" not in page.inner_text("#status")
    assert not page.errors


def test_a_card_the_server_did_not_take_goes_again_by_itself(
    browser: Any, server: AppServer
) -> None:
    # The game's database away for a moment (503): the card came back to the hand with
    # "not answering", and stayed there, and the line with it, until the person tapped again.
    page = open_page(browser, server, PHONE)
    start_game(page)
    pass_three(page)
    assert wait_for_person(page) == "playing"
    before = hand(page)
    refused: list[str] = []

    def away_once(route: Any) -> None:
        if refused:
            route.continue_()
            return
        refused.append(route.request.url)
        route.fulfill(
            status=503,
            headers={"Retry-After": "2"},
            json={"detail": "The game's database is not answering just now; please try again."},
        )

    page.route("**/api/games/*/play*", away_once)
    card = play_one(page)
    page.wait_for_function(
        "() => document.querySelector('#status').textContent"
        ".startsWith('The game server is not answering just now: your ')"
    )
    assert hand(page) == before and len(refused) == 1
    # Two seconds on, it goes: no second tap.
    page.wait_for_function(
        f"() => !document.querySelector('[data-region=hand] [data-card=\"{card}\"]')",
        timeout=10000,
    )
    assert wait_for_person(page) in ("playing", "round-over")
    assert "not answering" not in page.inner_text("#status")
    assert not page.errors


def test_a_small_phone_shows_the_whole_table_without_scrolling(
    browser: Any, server: AppServer
) -> None:
    # 320 × 568: the page was 751 px tall at the pass (the Pass button under the screen's
    # foot) and scrolled 127 px down in play (the card led above its top).
    page = open_page(browser, server, {"width": 320, "height": 568})
    start_game(page)
    chosen = hand(page)[-3:]
    for card in chosen:
        page.click(f"[data-region=hand] [data-card='{card}']")

    def whole(where: str) -> None:
        tall = page.evaluate("document.documentElement.scrollHeight")
        assert tall <= 568, f"{where}: the page is {tall} px tall"
        for selector in ("#game .trick", "[data-region=hand]", "#status"):
            box = page.locator(selector).bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 568, (where, selector)

    whole("pass")
    button = page.locator("[data-action=pass]").bounding_box()
    assert button and button["y"] + 44 <= 568
    shoot(page, "small-phone-pass")
    page.click("[data-action=pass]")
    assert wait_for_person(page) == "playing"
    whole("play")
    # The rows overlap a little here: each card is still what a tap at its middle lands on.
    covered = page.evaluate(
        """() => [...document.querySelectorAll('[data-region=hand] [data-card]')].filter((c) => {
            const r = c.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + 8, r.top + r.height / 2);
            return !hit || hit.closest('[data-card]') !== c;
        }).map((c) => c.dataset.card)"""
    )
    assert covered == []
    # The header's round words are whole, not "R…" and "P…".
    cut = page.eval_on_selector_all(
        ".round > span", "els => els.filter((e) => e.scrollWidth > e.clientWidth).length"
    )
    assert cut == 0
    shoot(page, "small-phone-play")
    assert not page.errors


def test_new_tapped_while_cards_move_is_answered(browser: Any, server: AppServer) -> None:
    # A tap on the header's New while the trick went round did nothing (four taps before
    # the question came at a table of friends).
    page = open_page(browser, server, DESKTOP, speed="slow")
    start_game(page)
    pass_three(page)
    assert wait_for_person(page) == "playing"
    play_one(page)
    assert page.get_attribute(TABLE, "data-busy") == "true"
    page.click("[data-action=menu-new]")
    page.wait_for_selector("body[data-screen=setup]", timeout=20000)
    assert page.locator("[data-action=continue]").count() >= 1  # the game stays saved
    assert not page.errors


def test_a_card_pressed_while_cards_move_says_wait(browser: Any, server: AppServer) -> None:
    # The key was refused in silence while the others' cards came in.
    page = open_page(browser, server, DESKTOP, speed="slow")
    start_game(page)
    pass_three(page)
    assert wait_for_person(page) == "playing"
    played = play_one(page)
    assert page.get_attribute(TABLE, "data-busy") == "true"
    held = [card for card in hand(page) if card != played]
    page.focus(f"[data-card='{held[0]}']")
    page.keyboard.press("Enter")
    assert page.inner_text("[role=status]") == "Wait for your turn."
    wait_for_person(page)
    assert hand(page) == held
    assert not page.errors


def test_screens_for_the_record(browser: Any, server: AppServer) -> None:
    """Desktop start, round over and game over at a readable speed (screenshots if asked)."""
    page = open_page(browser, server, DESKTOP)
    shoot(page, "desktop-start")
    start_game(page, target=20)
    seen_round_over = False
    for _ in range(300):
        now = wait_for_person(page)
        if now == "playing":
            play_one(page)
        elif now == "passing":
            pass_three(page)
        elif page.query_selector("[data-action=moon-add]"):
            page.click("[data-action=moon-add]")
        elif now == "round-over":
            if not seen_round_over:
                shoot(page, "desktop-round-over")
                seen_round_over = True
            page.click("[data-action=next-round]")
        else:
            break
    assert phase(page) == "game-over"
    shoot(page, "desktop-game-over")
    assert page.inner_text("ol.standings").count("\n") >= 3
    assert not page.errors


def test_a_stale_tab_catches_up_instead_of_playing_twice(browser: Any, server: AppServer) -> None:
    first = open_page(browser, server, DESKTOP)
    start_game(first)
    pass_three(first)
    wait_for_person(first)
    second = first.context.new_page()
    second.goto(f"{server.url}/?speed=instant#play")
    second.wait_for_selector("body[data-ready=true]")
    wait_for_person(second)
    legal = second.eval_on_selector_all(
        "[data-card][data-legal=true]", "els => els.map(e => e.dataset.card)"
    )
    played = play_one(first)
    wait_for_person(first)
    # The second tab still shows the old turn. The same card again is a retry, answered
    # from the record; another card is refused, and either way the tab catches up.
    other = next((card for card in legal if card != played), played)
    second.click(f"[data-card='{other}'][data-legal=true]")
    wait_for_person(second)
    if other != played:
        assert "already made" in second.inner_text("[role=status]")
    assert hand(second) == hand(first)
    assert played not in hand(second)
    assert not first.errors


def test_start_choices_are_remembered(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    page.click("input[name=level-all][value=medium] + span")
    page.click("input[name=level-2][value=hard] + span")
    page.click("input[name=length][value='50'] + span")
    page.click("input[name=preset][value=omnibus] + span")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    checked = page.eval_on_selector_all(
        "input[type=radio]:checked", "els => els.map(e => `${e.name}=${e.value}`)"
    )
    assert {"level-1=medium", "level-2=hard", "level-3=medium", "length=50"} <= set(checked)
    assert "preset=omnibus" in checked
    start_game(page)
    levels = page.eval_on_selector_all(
        ".seat.opponent .level", "els => els.map(e => e.textContent)"
    )
    assert sorted(levels) == ["hard", "medium", "medium"]
    assert not page.errors


def test_dialogs_and_settings(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    pass_three(page)
    # Play until two tricks are done: the list shows every trick of the round, not one.
    wait_for_person(page)
    dealt = len(hand(page))
    while dealt - len(hand(page)) < 2:
        play_one(page)
        wait_for_person(page)
    tricks = dealt - len(hand(page))  # at the person's turn: a card of theirs on each
    # The button says "Tricks", not "Tricks (2)", read as the tricks the person had won.
    assert page.inner_text("[data-action=tricks]") == "Tricks"
    page.click("[data-action=tricks]")
    rows = page.eval_on_selector_all(
        "dialog .trick-row", "els => els.map(e => e.querySelectorAll('.last-trick li').length)"
    )
    assert len(rows) == tricks >= 2 and set(rows) == {4}
    shoot(page, "desktop-tricks")
    text = page.inner_text("dialog")
    assert text.count("took it") >= tricks and text.count("· led") == tricks
    # Each trick's heading reads as two parts ("Trick 1 You took it" ran together).
    heads = page.eval_on_selector_all("dialog .trick-row h3", "els => els.map(e => e.textContent)")
    assert heads and all(re.match(r"Trick \d+: \S", head) for head in heads), heads
    page.click("dialog button")
    page.click("[data-action=scores]")
    assert page.is_visible("dialog .chart svg") and page.is_visible("dialog table.sheet")
    page.click("dialog button")
    assert page.is_visible(".seat .taken")
    # The round's points read as what they add to the total beside them: "12 +3".
    round_points = page.eval_on_selector_all(
        ".seat .taken .pts", "els => els.map(e => e.textContent)"
    )
    assert round_points and all(re.fullmatch(r"\+\d+", p) for p in round_points)
    page.click("[data-action=settings]")
    page.click("label[for=set-points]")
    page.click("dialog button[value=close]")
    assert not page.is_visible(".seat .taken")
    assert not page.errors


#: Where a dialog's title is: how far the dialog is scrolled, and the title's top and the
#: dialog's, on the screen.
DIALOG_TITLE = """() => { const d = document.querySelector('dialog[open]');
    return [d.scrollTop, d.querySelector('h2').getBoundingClientRect().top,
        d.getBoundingClientRect().top, d.getAttribute('aria-label')]; }"""


@pytest.mark.parametrize("viewport", ["phone-landscape", "phone", "desktop"])
def test_a_dialog_opens_at_its_title(browser: Any, server: AppServer, viewport: str) -> None:
    # On a phone held sideways Scores opened 215 px down its page, its title and the top of
    # the chart out of sight: the dialog gave the keyboard to its first control, far down
    # ("This round's deal is sealed"), and scrolled there. It opens at its title.
    game = position(4, lambda g: len(g.round.tricks) >= 3)
    size = screens(viewport)[viewport]
    page = open_page(browser, server, size)
    start_game(page)
    store_for(page, server, f"dialogs-{viewport}", game)
    page.goto(f"{server.url}/?speed=instant")
    page.click(f"[data-action=continue][data-game='dialogs-{viewport}']")
    wait_for_person(page)
    for action in ("scores", "tricks", "settings"):
        page.locator(f"[data-action={action}]:visible").first.click()
        page.wait_for_selector("dialog[open]")
        scrolled, title, top, label = page.evaluate(DIALOG_TITLE)
        assert scrolled == 0 and title >= top, (action, scrolled, title, top, label)
        if action == "scores":
            keep_screenshot(page, f"dialog-scores-{viewport}")
        page.click("dialog button[value=close]")
    assert not page.errors


def open_a_moon_to_choose(page: Any, server: AppServer, game_id: str) -> None:
    """A game in which the person has just shot the moon under "the shooter chooses" (the
    same deal as the API test), stored for this browser's cookie and opened."""
    start_game(page)
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "hearts_browser")
    rules = hearts.Rules(moon_rule="choose", pass_cycle=("hold",))
    game = hearts.Game(rules, 392)
    while game.phase == "playing":
        legal = game.round.legal_cards()
        if game.round.turn == 0:
            game.play(max(legal, key=lambda c: (c.rank, c.suit)))
        else:
            safe = [c for c in legal if c.suit != 2 and str(c) != "QS"]
            game.play(min(safe or legal, key=lambda c: c.rank))
    assert game.moon_pending == 0
    Store(server.data_dir).create(
        game_id,
        owner_key(cookie),
        rules.to_dict(),
        392,
        {"levels": ["easy"] * 3},
        actions_of(game),
        "active",
    )
    page.goto(f"{server.url}/?speed=instant")
    page.click("[data-action=continue]")


def test_the_moon_choice_is_asked(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    open_a_moon_to_choose(page, server, "browser-moon")
    page.wait_for_selector("[data-action=moon-subtract]")
    assert phase(page) == "round-over"
    assert page.inner_text("[data-action=moon-subtract]") == "Take 26 off my total"
    shoot(page, "desktop-moon")
    page.click("[data-action=moon-subtract]")
    page.wait_for_selector("[data-action=next-round]")
    assert "shot the moon" in page.inner_text("[data-region=overlay]")
    assert page.inner_text("table.summary tbody tr:first-child td:last-child") == "−26"
    assert not page.errors


def test_a_moon_choice_made_offline_goes_once_back(browser: Any, server: AppServer) -> None:
    # The choice tapped offline was lost, with a line under the panel saying so.
    page = open_page(browser, server, PHONE)
    open_a_moon_to_choose(page, server, "browser-moon-offline")
    page.wait_for_selector("[data-action=moon-subtract]")
    page.context.set_offline(True)
    page.click("[data-action=moon-subtract]")
    note = page.locator("[data-region=overlay] [data-region=panel-status]")
    assert (
        note.inner_text()
        == "This device is offline: your choice goes as soon as it is back online."
    )
    page.context.set_offline(False)
    page.wait_for_selector("[data-action=next-round]")
    assert page.inner_text("table.summary tbody tr:first-child td:last-child") == "−26"
    assert not page.errors


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_cards_fly_unless_motion_is_reduced(browser: Any, server: AppServer, motion: str) -> None:
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    page = context.new_page()
    page.goto(f"{server.url}/?speed=fast")
    page.wait_for_selector("body[data-ready=true]")
    start_game(page)
    pass_three(page)
    wait_for_person(page)
    # Count every animation and transition that runs while a move is shown.
    page.evaluate(
        """() => {
            window.moving = 0;
            const look = () => {
                window.moving += document.getAnimations().filter(
                    (a) => a.playState === 'running').length;
                if (!window.stopLooking) requestAnimationFrame(look);
            };
            look();
        }"""
    )
    play_one(page)
    wait_for_person(page)
    page.evaluate("window.stopLooking = true")
    moving = page.evaluate("window.moving")
    assert moving == 0 if motion == "reduce" else moving > 0
    context.close()
