"""Undo in Chromium: a card played, taken back with the keyboard and another played instead,
the game finished and marked in "Your games"; the start screen's "Allow take-backs". On a
phone first; screenshots go to $HEARTS_SCREENSHOT_DIR as game-undo-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from test_table_play import play_to
from test_web_game_browser import (
    hand,
    no_horizontal_scroll,
    open_page,
    pass_three,
    play_one,
    shoot,
    start_game,
    wait_for_person,
)

from browser_support import DESKTOP, PHONE, AppServer, seen

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}
UNDO = "[data-action=undo]"


def on_table(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "[data-played]", "els => els.map(e => e.dataset.played)"
    )
    return cards


def legal(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "#hand [data-card][data-legal=true]", "els => els.map(e => e.dataset.card)"
    )
    return cards


def shown(page: Any) -> dict[str, Any]:
    """What the table shows: the move, the hand, the trick and the status line."""
    return {
        "move": page.get_attribute("#game", "data-move"),
        "hand": hand(page),
        "trick": on_table(page),
        "phase": page.get_attribute("#game", "data-phase"),
    }


def tools_in_view(page: Any) -> None:
    outside = page.evaluate(
        """() => [...document.querySelectorAll('.table-tools button:not([hidden])')]
            .filter((b) => { const r = b.getBoundingClientRect();
                return r.left < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5; })
            .map((b) => b.dataset.action)"""
    )
    assert outside == []
    assert page.is_visible(UNDO) and page.is_visible("[data-action=hint]")


def to_a_choice(page: Any) -> None:
    """On to the person's turn with two or more cards to choose from."""
    for _ in range(60):
        if wait_for_person(page) == "playing" and len(legal(page)) > 1:
            return
        play_one(page)
    raise AssertionError("no turn with a choice of cards")


def test_a_card_is_taken_back_and_another_played_on_a_phone(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, PHONE)
    assert page.is_checked("[data-setting=undo]")  # on unless switched off
    start_game(page, target=5)
    assert page.is_hidden(UNDO)  # nothing to take back before the pass
    pass_three(page)
    assert wait_for_person(page) == "playing"
    assert page.is_visible(UNDO)  # the pass can be taken back
    assert page.get_attribute(UNDO, "aria-label") == "Undo: take back your pass"
    page.click(f"#hand [data-card='{legal(page)[0]}'][data-legal=true]")
    # At once, while the others' cards come in, the button names the card (it still said
    # "take back your pass", and took back the card).
    assert page.get_attribute(UNDO, "aria-label") == "Undo: take back your last card"
    wait_for_person(page)
    to_a_choice(page)
    before = shown(page)
    first, other = legal(page)[:2]
    page.click(f"#hand [data-card='{first}'][data-legal=true]")
    wait_for_person(page)
    assert first not in hand(page)
    # By keyboard: the button is a tab stop among the table's tools.
    page.focus(UNDO)
    assert page.evaluate("document.activeElement.dataset.action") == "undo"
    page.keyboard.press("Enter")
    page.wait_for_function(
        "move => document.querySelector('#game').dataset.move === move", arg=before["move"]
    )
    wait_for_person(page)
    assert shown(page) == before  # the table as it stood, the card back in the hand
    assert "took back your last card" in page.inner_text("#status")
    no_horizontal_scroll(page)
    shoot(page, "undo-phone")
    page.click(f"#hand [data-card='{other}'][data-legal=true]")
    wait_for_person(page)
    assert first in hand(page) and other not in hand(page)
    game_id = page.evaluate("async () => (await (await fetch('/api/games')).json())[0].id")
    state = page.evaluate(f"async () => (await (await fetch('/api/games/{game_id}')).json())")
    assert state["undo"]["used"] == 1
    assert state["move"] == int(page.get_attribute("#game", "data-move"))

    # Later in the round, with "Tricks" among the tools too, every tool is on the screen.
    while page.is_hidden("[data-action=tricks]") and wait_for_person(page) == "playing":
        play_one(page)
    if wait_for_person(page) == "playing":
        tools_in_view(page)
        shoot(page, "undo-phone-later")
    play_to(page, {"game-over"})
    with page.expect_navigation():
        page.click("[data-action=your-games]")
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    mark = page.wait_for_selector(f"[data-region=history] tr[data-game='{game_id}'] .undo-mark")
    assert mark.get_attribute("data-undos") == "1" and mark.inner_text() == "1 take-back"
    assert page.inner_text("[data-stat=take_backs] .stat-value") == "1"
    no_horizontal_scroll(page)
    mark.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 200)")
    shoot(page, "undo-history-phone")
    assert not page.errors


def test_a_first_card_taken_back_names_the_cards_passed_in_again(
    browser: Any, server: AppServer
) -> None:
    # Back before the person's first card, with the cards passed in marked again, the line
    # over the table still told of a trick taken since ("Tamsin took the previous trick").
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    pass_three(page)
    assert wait_for_person(page) == "playing"
    line = seen(page, "[data-region=message]")
    assert " passed you " in line, line
    play_one(page)
    wait_for_person(page)
    assert "took the previous trick" in seen(page, "[data-region=message]")
    page.click(UNDO)
    page.wait_for_selector("#hand .card.received")
    wait_for_person(page)
    assert seen(page, "[data-region=message]") == line
    assert not page.errors


@pytest.mark.parametrize(
    ("viewport", "name"), [(LANDSCAPE, "phone-landscape"), (DESKTOP, "desktop")]
)
def test_the_undo_button_on_other_screens(
    browser: Any, server: AppServer, viewport: dict[str, int], name: str
) -> None:
    page = open_page(browser, server, viewport)
    start_game(page)
    pass_three(page)
    to_a_choice(page)
    play_one(page)
    wait_for_person(page)
    page.click(UNDO)
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('took')")
    wait_for_person(page)
    tools_in_view(page)
    no_horizontal_scroll(page)
    shoot(page, f"undo-{name}")
    assert not page.errors


def test_a_game_started_without_take_backs_has_no_undo(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    page.uncheck("[data-setting=undo]")
    page.eval_on_selector("[data-setting=undo]", "el => el.scrollIntoView({block: 'center'})")
    shoot(page, "undo-setting-phone")
    start_game(page)
    pass_three(page)
    assert wait_for_person(page) == "playing"
    game_id = page.evaluate("async () => (await (await fetch('/api/games')).json())[0].id")
    state = page.evaluate(f"async () => (await (await fetch('/api/games/{game_id}')).json())")
    assert state["undo"] == {"allowed": False, "to": None, "used": 0}
    assert page.is_hidden(UNDO)
    page.goto(f"{server.url}/?speed=instant")  # the choice is remembered for the next game
    page.wait_for_selector("[data-setting=undo]")
    assert not page.is_checked("[data-setting=undo]")
    assert not page.errors


def test_a_tab_that_missed_a_take_back_in_another_shows_the_game_as_it_is(
    browser: Any, server: AppServer
) -> None:
    # Two tabs of one game. The first plays a card; the second opens and shows it. The first
    # takes the card back and plays another, and the game comes back to the move count the
    # second still shows, with other cards on the table. A card clicked in the second tab is
    # not played there: it shows why, and the game as it stands.
    first = open_page(browser, server, DESKTOP)
    start_game(first)
    pass_three(first)
    second = first.context.new_page()
    second.errors = []
    second.on("pageerror", lambda error: second.errors.append(str(error)))
    for attempt in range(6):  # turns with a choice, until one brings the count back
        to_a_choice(first)
        choices = legal(first)[::-1]  # highest first: a high card and the next often both win
        first.click(f"#hand [data-card='{choices[0]}'][data-legal=true]")
        wait_for_person(first)
        second.goto(f"{server.url}/?speed=instant&attempt={attempt}#play")  # loaded afresh
        wait_for_person(second)
        stale = shown(second)
        assert stale == shown(first)
        for other in choices[1:]:  # another card that brings the game back to the same count
            first.click(UNDO)
            first.wait_for_function(
                "() => document.querySelector('#status').textContent.includes('took')"
            )
            wait_for_person(first)
            first.click(f"#hand [data-card='{other}'][data-legal=true]")
            wait_for_person(first)
            if shown(first)["move"] == stale["move"] and shown(first) != stale:
                break
        if shown(first)["move"] == stale["move"] and shown(first) != stale:
            break
    now = shown(first)
    assert now["move"] == stale["move"] and now != stale, "no other card came back to the count"
    assert legal(second)
    play_one(second)
    second.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('another tab')"
    )
    wait_for_person(second)
    assert shown(second) == now  # the game as it is, nothing played from the stale screen
    assert shown(first) == now
    shoot(second, "undo-other-tab")
    assert not first.errors and not second.errors


#: How many lines the status line's words take.
STATUS_LINES = """() => {
    const range = document.createRange();
    range.selectNodeContents(document.querySelector('#status'));
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_undo_and_hint_pressed_while_the_others_play_are_done_once_they_stop(
    browser: Any, server: AppServer, viewport: dict[str, int]
) -> None:
    # At the normal speed a misclicked card is noticed while the others' cards come in. Undo
    # and Hint pressed then did nothing and said nothing (the table was busy): now each says
    # it is coming and is done once the cards stop. On a phone (390 px) each said so in three
    # lines, the hand pushed down under them: two at most.
    page = open_page(browser, server, viewport, speed="normal")
    start_game(page)
    pass_three(page)
    to_a_choice(page)
    before = shown(page)
    card = legal(page)[0]
    page.click(f"#hand [data-card='{card}'][data-legal=true]")
    assert page.get_attribute("#game", "data-busy") == "true"
    page.click(UNDO)
    assert (
        page.inner_text("#status") == "Taking back your card once the others' cards are shown\u2026"
    )
    assert page.evaluate(STATUS_LINES) <= 2
    assert page.get_attribute("#game", "data-busy") == "true"  # said while they still move
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('took back your last')"
    )
    wait_for_person(page)
    assert shown(page) == before  # the card back in hand, the table as it stood
    assert page.inner_text("#status") == "You took back your last card: your turn again."

    page.click(f"#hand [data-card='{card}'][data-legal=true]")
    assert page.get_attribute("#game", "data-busy") == "true"
    page.click("[data-action=hint]")
    assert page.inner_text("#status") == "Your hint comes once the others' cards are shown."
    assert page.evaluate(STATUS_LINES) <= 2
    page.wait_for_selector("[data-region=hint]:not([hidden])")
    wait_for_person(page)
    hinted = page.eval_on_selector_all(
        "#hand [data-hinted=true]", "els => els.map(e => e.dataset.card)"
    )
    assert hinted and set(hinted) <= set(legal(page)), hinted  # for the turn now shown
    assert page.inner_text("[data-region=hint]").strip()
    # A double tap on Undo is one take-back, not a second one kept for later.
    before = shown(page)
    page.click(f"#hand [data-card='{legal(page)[0]}'][data-legal=true]")
    wait_for_person(page)
    page.dblclick(UNDO)
    page.wait_for_function(
        "move => document.querySelector('#game').dataset.move === move", arg=before["move"]
    )
    wait_for_person(page)
    page.wait_for_timeout(500)  # a second take-back, if one was kept, has gone by now
    assert shown(page) == before
    assert not page.errors
