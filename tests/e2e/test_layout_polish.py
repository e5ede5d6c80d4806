"""Layout found wanting by a tester on phones, each measured where they measured it: a
playable card under a pointer risen out of the hand, "Deal the next round" on two lines held
sideways, paper-white buttons in the dark look, a status line three lines tall, the invite
held back with no reason said, a round's table scrolling sideways at 360 px, and the tools
and the hand under the screen's foot at 200% text while passing. Screenshots go to
HEARTS_SCREENSHOT_DIR when it is set.
"""

from __future__ import annotations

from typing import Any, Literal

import pytest
from test_crowded_table import (
    VIEWPORTS,
    large_text,
    open_position,
    overlap,
)
from test_passing_screen import ROUND_TABLE_FITS
from test_web_game_browser import contrast, open_page, start_game

import hearts

from browser_support import AppServer, create_by_page, plain, settle, shoot, store_for
from helpers import first_round_played, position

pytestmark = pytest.mark.browser


# --- a playable card under a pointer stays inside the hand --------------------------------

#: The hand's box, the person's line's parts and the playable cards' boxes, as [left, top,
#: right, bottom].
RAISED = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    return { hand: box(document.querySelector('#hand')),
             line: [...document.querySelectorAll('.me-line > *, .tools button')]
                 .filter((el) => el.getClientRects().length).map(box),
             cards: [...document.querySelectorAll('#hand .card[data-legal=true]')].map(box) };
}"""


def lone_legal_card(game: Any) -> bool:
    """One card may be played (and a hand wide enough for a phone's two rows, or nearly)."""
    return len(set(game.round.legal_cards())) == 1 and len(game.round.hand(0)) >= 10


@pytest.mark.parametrize("players", [6, 8, 10])
@pytest.mark.parametrize("viewport", ["phone-landscape", "small-phone-landscape"])
def test_a_playable_card_under_a_pointer_stays_inside_the_hand(
    browser: Any, server: AppServer, viewport: str, players: int
) -> None:
    # 844 x 390, six players and more: the one card that could be played, under a mouse,
    # rose 3.5 px above the hand's top edge, over the person's line. The hand keeps the
    # room a card rises under a hovering pointer.
    game = position(players, lone_legal_card)
    page = open_position(browser, server, viewport, f"lone-{viewport}-{players}", game)
    page.emulate_media(reduced_motion="reduce")  # the card at once where it rises to
    card = page.locator("#hand .card[data-legal=true]")
    assert card.count() == 1
    box = card.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 8)
    settle(page)
    found = page.evaluate(RAISED)
    [raised] = found["cards"]
    assert raised[1] >= found["hand"][1] - 0.5, (raised, found["hand"])
    assert raised[1] < box["y"] - 1  # it did rise under the pointer
    for part in found["line"]:
        assert not overlap(raised, part), (raised, part)
    shoot(page, f"polish-lone-card-{viewport}-{players}")
    assert not page.errors


# --- "Deal the next round" on one line held sideways -----------------------------------------

#: The lines the round's way on takes, and whether it lies wholly on the screen.
WAY_ON_LINES = """() => {
    const button = document.querySelector('.sheet-panel [data-action=next-round]');
    const range = document.createRange();
    range.selectNodeContents(button);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    const r = button.getBoundingClientRect();
    return { words: button.textContent, lines: tops.size,
             seen: r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight };
}"""


@pytest.mark.parametrize("players", [4, 10])
def test_deal_the_next_round_keeps_to_one_line_held_sideways(
    browser: Any, server: AppServer, players: int
) -> None:
    # 740 x 360 and 667 x 375 at the usual text size: "Deal the next round", in its column
    # beside the round's table, took two lines (the column 220 and 197 px wide).
    game = first_round_played(hearts.Rules(players=players), 3)
    failures = []
    for viewport in ("phone-landscape", "small-phone-landscape", "smaller-phone-landscape"):
        page = open_page(browser, server, VIEWPORTS[viewport])
        start_game(page)
        name = f"deal-line-{viewport}-{players}"
        store_for(page, server, name, game)
        page.goto(f"{server.url}/?speed=instant")
        page.wait_for_selector("body[data-ready=true]")
        page.click(f"[data-action=continue][data-game='{name}']")
        page.wait_for_selector("table.round-table")
        settle(page)
        found = page.evaluate(WAY_ON_LINES)
        assert found["words"] == "Deal the next round"
        if found["lines"] != 1 or not found["seen"]:
            failures.append((viewport, found))
        shoot(page, f"polish-deal-line-{viewport}-{players}")
        assert not page.errors
        page.context.close()
    assert failures == [], failures


# --- the dark look: a button that is not the main one is dark too ----------------------------

#: A button's ground, its words' and its edge's colours, and the colour behind it (the first
#: ground of its ancestors that is not see-through), each [r, g, b].
BUTTON_COLOURS = """(selector) => {
    const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const button = document.querySelector(selector);
    let behind = button.parentElement;
    while (behind && getComputedStyle(behind).backgroundColor.match(/[\\d.]+/g).length === 4
           && Number(getComputedStyle(behind).backgroundColor.match(/[\\d.]+/g)[3]) < 1) {
        behind = behind.parentElement;
    }
    const style = getComputedStyle(button);
    return { ground: rgb(style.backgroundColor), ink: rgb(style.color),
             edge: rgb(style.borderTopColor),
             behind: rgb(getComputedStyle(behind || document.body).backgroundColor) };
}"""


def readable_in_the_dark(colours: dict[str, list[int]]) -> list[str]:
    """What is wrong with a button's colours in the dark look: a light ground, words under
    4.5:1 on it, an edge under 3:1 against what lies behind it (WCAG 1.4.3 and 1.4.11)."""
    faults = []
    if contrast(colours["ground"], [0, 0, 0]) >= 3:
        faults.append(f"a light ground {colours['ground']}")
    if contrast(colours["ink"], colours["ground"]) < 4.5:
        faults.append(f"words at {contrast(colours['ink'], colours['ground']):.2f}:1")
    if contrast(colours["edge"], colours["behind"]) < 3:
        faults.append(f"an edge at {contrast(colours['edge'], colours['behind']):.2f}:1")
    return faults


def test_a_button_that_is_not_the_main_one_follows_the_dark_look(
    browser: Any, server: AppServer
) -> None:
    # Dark, as the system says: the start screen's "Start a new game" (beside an unfinished
    # game) and the question's "Back to my game" were paper-white on the dark page and panel.
    context = browser.new_context(viewport=VIEWPORTS["phone"], color_scheme="dark")
    page = context.new_page()
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    start_game(page)
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true] [data-action=continue]")
    start = ".setup > [data-action=new-game]"
    assert page.inner_text(start) == "Start a new game"
    assert "primary" not in (page.get_attribute(start, "class") or "")
    assert readable_in_the_dark(page.evaluate(BUTTON_COLOURS, start)) == []
    page.locator(start).scroll_into_view_if_needed()
    shoot(page, "polish-dark-start-phone")
    page.click(start)  # a new game beside an unfinished one: the question first
    keep = "dialog[open] [data-action=keep-playing]"
    page.wait_for_selector(keep)
    assert readable_in_the_dark(page.evaluate(BUTTON_COLOURS, keep)) == []
    # The question stands apart from the page's panels: its edge 3:1 on the page around it
    # (the same colour as a panel, it sat among them as one more).
    edge, page_ground = page.evaluate(
        r"""() => { const rgb = (c) => (c.match(/rgba?\(([^)]*)\)/) || [0, '0,0,0'])[1]
                .split(',').slice(0, 3).map(Number);
            return [rgb(getComputedStyle(document.querySelector('dialog[open]')).boxShadow),
                    rgb(getComputedStyle(document.body).backgroundColor)]; }"""
    )
    assert contrast(edge, page_ground) >= 3, (edge, page_ground)
    shoot(page, "polish-dark-question-phone")
    context.close()


# --- the invite held back: in the Tab order, saying why ---------------------------------------

#: How a button stands: natively disabled or not, its aria-disabled, and the words of the notes
#: it is described by that are shown.
STANDS = """(selector) => {
    const b = document.querySelector(selector);
    const notes = (b.getAttribute('aria-describedby') || '').split(' ').filter(Boolean)
        .map((id) => document.getElementById(id)).filter((n) => n && !n.hidden)
        .map((n) => n.textContent);
    return { disabled: b.disabled, aria: b.getAttribute('aria-disabled'), notes };
}"""


@pytest.mark.parametrize("button", ["[data-action=invite]", ".setup > [data-action=new-game]"])
def test_the_invite_held_back_stays_in_reach_and_says_why(
    browser: Any, server: AppServer, button: str
) -> None:
    # The invite's own button, and the start screen's main one while the invite is open, were
    # natively disabled when no seat was a friend's or the name was wrong: out of the Tab
    # order, and nothing said why. Held back by aria-disabled, as Deal is, each stays a tab
    # stop, says why under it and, pressed, takes the keyboard to what holds it back.
    page = open_page(browser, server, VIEWPORTS["phone"])
    page.click("[data-region=invite] summary")
    for row in range(1, 4):
        page.click(f"input[name=invite-seat-{row}][value=easy] + span")
    stands = page.evaluate(STANDS, button)
    assert stands["disabled"] is False and stands["aria"] == "true", stands
    assert "Choose \u201cFriend\u201d for a seat above." in stands["notes"], stands
    page.focus(button)
    assert page.evaluate(f"document.activeElement === document.querySelector('{button}')")
    page.keyboard.press("Enter")  # to the first seat's choice of a friend
    assert page.evaluate("document.activeElement.name") == "invite-seat-1"
    assert page.evaluate("document.activeElement.value") == "friend"
    assert page.evaluate("document.body.dataset.screen") == "setup"  # nothing was made
    page.click("input[name=invite-seat-1][value=friend] + span")
    page.fill("#host-name", "W" * 30)
    stands = page.evaluate(STANDS, button)
    assert stands["aria"] == "true" and not stands["disabled"], stands
    assert any(note.startswith("Change your name above.") for note in stands["notes"]), stands
    page.locator(button).scroll_into_view_if_needed()
    shoot(page, f"polish-invite-held-{'main' if 'new-game' in button else 'panel'}-phone")
    page.click(button, force=True)  # pressed while held back
    assert page.evaluate("document.activeElement.id") == "host-name"
    page.fill("#host-name", "Ann")
    stands = page.evaluate(STANDS, button)
    assert stands["aria"] == "false" and not stands["disabled"], stands
    assert not page.errors, page.errors
    page.context.close()


# --- the round's table on a phone 360 px wide at 200% text -----------------------------------


@pytest.mark.parametrize(("players", "bonus"), [(8, "JD"), (10, "JD"), (10, None)])
def test_at_double_text_the_rounds_table_fits_a_phone_360_px_wide(
    browser: Any, server: AppServer, players: int, bonus: Literal["JD"] | None
) -> None:
    # 360 x 740 at 200% text: ten players and the bonus card, the round's table was 7 px wider
    # than the panel (eight players 4 px), and scrolled sideways, the Total column cut.
    page = open_page(browser, server, VIEWPORTS["small-phone"])
    game = first_round_played(hearts.Rules(players=players, bonus_card=bonus), 3)
    start_game(page)
    name = f"double-text-360-{players}-{bonus}"
    store_for(page, server, name, game)
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    page.click(f"[data-action=continue][data-game='{name}']")
    page.wait_for_selector("table.summary")
    settle(page)
    found = plain(page.evaluate(ROUND_TABLE_FITS))
    shoot(page, f"polish-round-table-360-{players}-{bonus or 'plain'}")
    assert found["across"] <= 0 and not found["wide"], found
    assert found["past"] <= 1, found  # the Total column in sight
    for seat_name, lines, words, _ in found["names"]:
        assert lines <= words, (seat_name, lines)  # no word of a name broken
    assert not page.errors


# --- passing at a table with a friend, at large text: the tools and the hand on the screen ----

#: What of the person's part lies off the screen: each tool by its action, each card by its key.
OFF_THE_SCREEN = """() => [...document.querySelectorAll('.me button, #hand .card')]
    .filter((el) => el.getClientRects().length).filter((el) => {
        const r = el.getBoundingClientRect();
        return r.top < -1 || r.bottom > innerHeight + 1 || r.left < -1 || r.right > innerWidth + 1;
    }).map((el) => [el.dataset.action || el.dataset.key,
                    Math.round(el.getBoundingClientRect().bottom - innerHeight)])"""


@pytest.mark.parametrize("viewport", ["phone", "phone-landscape"])
def test_passing_at_a_table_with_a_friend_keeps_the_tools_and_hand_on_the_screen(
    browser: Any, server: AppServer, viewport: str
) -> None:
    # Four players with a friend, choosing the pass, at 200% text: upright (390 x 844) Sound
    # lay 25 px under the screen's foot ("Choose 3 cards to pass." in two lines, React among
    # the tools); held sideways (844 x 390) the hand 8 px under it. The status line grows only
    # a little with the text, as the message and the tools do.
    page = open_page(browser, server, VIEWPORTS[viewport])
    page.emulate_media(reduced_motion="reduce")  # the hand's cards at once in their places
    body = {
        "rules": {"players": 4},
        "name": "Ann",
        "turn_time": None,
        "seats": ["you", "friend", "easy", "easy"],
    }
    state = create_by_page(page, body)
    page.goto(f"{server.url}/?table={state['id']}&speed=instant")
    page.click("[data-action=start-table]")
    page.wait_for_selector("#game[data-phase=passing] #hand [data-card]", timeout=15000)
    page.wait_for_selector("[data-action=react]")
    failures = []
    for size in ("", "150%", "200%"):
        large_text(page, size)
        page.evaluate("window.scrollTo(0, 0)")
        settle(page)
        shown = page.evaluate(
            "() => [...document.querySelectorAll('.me button[data-action]')]"
            ".filter((el) => el.getClientRects().length).map((el) => el.dataset.action)"
        )
        assert {"pass", "react", "hint", "sound"} <= set(shown), (size, shown)
        off = page.evaluate(OFF_THE_SCREEN)
        if off:
            failures.append((size, off))
        shoot(page, f"polish-pass-friend-{viewport}-{size.strip('%') or '100'}")
    assert failures == [], failures
    assert not page.errors
