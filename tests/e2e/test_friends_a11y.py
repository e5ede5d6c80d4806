"""A table with friends by keyboard and screen reader (an accessibility tester's findings).

The keyboard never falls to the page's body (a table starting, a Ready pressed, a rematch
offered), the status line is not rewritten with what it already says nor with a turn over
before it is heard, and the reactions menu moves by its arrow keys.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from test_friends_browser import (
    DESKTOP,
    READY,
    SETTLED,
    Person,
    host_table,
    join,
    person,
    play_round,
    table_by_api,
)
from test_web_game_browser import TABLE

from browser_support import PHONE, AppServer, plain

pytestmark = pytest.mark.browser

# Frames in which the table's screen had the focus on the page's body, and where.
WATCH_FOCUS = """() => {
    window.lost = [];
    const look = () => {
        const screen = document.body.dataset.screen;
        if (document.activeElement === document.body && screen === 'table') {
            const phase = document.querySelector('#game').dataset.phase;
            if (window.lost.at(-1) !== phase) window.lost.push(phase);
        }
        requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
}"""

# Every line the status line is given, with when (ms).
WATCH_STATUS = """() => {
    window.lines = [];
    const status = document.querySelector('#status');
    new MutationObserver(() => window.lines.push([performance.now(), status.textContent]))
        .observe(status, { childList: true, characterData: true, subtree: true });
}"""

FOCUSED = """() => {
    const a = document.activeElement;
    return [a.tagName, a.dataset.action || '', a.closest('[data-region=hand]') !== null,
        a.getAttribute('aria-disabled') || ''];
}"""


def focused(someone: Person) -> list[Any]:
    where: list[Any] = someone.page.evaluate(FOCUSED)
    return where


def lost(someone: Person) -> list[str]:
    phases: list[str] = someone.page.evaluate("window.lost")
    return phases


def churn(someone: Person, people: list[Person]) -> tuple[list[str], list[str]]:
    """The status line's lines written twice in a row, and a computer player's turn replaced
    within 50 ms (said and unsaid before a screen reader has read it: a computer player moves
    at once; people's turns here last as long as the test takes to play)."""
    lines: list[list[Any]] = plain(someone.page.evaluate("window.lines"))
    pairs = list(pairwise(lines))
    twice = [b[1] for a, b in pairs if a[1] == b[1] and b[1]]
    names = tuple(f"{p.name} to play." for p in people)
    flashed = [
        a[1]
        for a, b in pairs
        if a[1].endswith(" to play.") and not a[1].endswith(names) and b[0] - a[0] < 50
    ]
    return twice, flashed


def test_the_keyboard_stays_at_a_table_of_friends_and_the_status_line_is_said_once(
    browser: Any, server: AppServer
) -> None:
    ann = person(browser, "Ann", DESKTOP)
    bea = person(browser, "Bea", PHONE)
    link = host_table(ann, server, 4, friends=[2])
    ann.page.evaluate(WATCH_FOCUS)
    join(bea, link)
    for someone in (ann, bea):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
        someone.page.evaluate(WATCH_STATUS)
    bea.page.evaluate(WATCH_FOCUS)
    # The table started when Bea sat down: the host's lobby went, the keyboard to the hand.
    assert focused(ann)[2], focused(ann)
    assert lost(ann) == []

    # The reactions menu: its arrow keys move among its items, round from the last to the
    # first; Home and End go to either end.
    ann.page.focus("[data-action=react]")
    ann.page.keyboard.press("Enter")
    items = ann.page.eval_on_selector_all(
        "[role=menu] [role=menuitem]", "els => els.map((e) => e.dataset.reaction)"
    )
    assert len(items) >= 3, items

    def item() -> str:
        key: str = ann.page.evaluate("document.activeElement.dataset.reaction || ''")
        return key

    assert item() == items[0]
    for key, wanted in (
        ("ArrowDown", items[1]),
        ("ArrowDown", items[2]),
        ("ArrowUp", items[1]),
        ("End", items[-1]),
        ("ArrowDown", items[0]),
        ("ArrowUp", items[-1]),
        ("Home", items[0]),
    ):
        ann.page.keyboard.press(key)
        assert item() == wanted, key
    # One tab stop: the item with the focus.
    stops = ann.page.eval_on_selector_all(
        "[role=menuitem]", "els => els.filter((e) => e.tabIndex === 0).length"
    )
    assert stops == 1
    ann.page.keyboard.press("Escape")
    assert focused(ann)[1] == "react"

    waited: list[bool] = []

    def bea_to_play(someone: Person, plays: int) -> None:
        # A turn that lasts (a person's) is still said, once it has lasted a moment.
        if not waited and bea.page.evaluate(READY) == "playing":
            ann.page.wait_for_function(
                "() => document.querySelector('#status').textContent"
                " === '\\u2068Bea\\u2069 to play.'",
                timeout=5000,
            )
            waited.append(True)

    play_round([ann, bea], on_trick=bea_to_play)
    assert waited
    # The round's end: the panel's way on has the focus, and the panel is described by
    # the round's news (who took the queen) and the person's own score.
    for someone in (ann, bea):
        someone.page.wait_for_function(
            "() => document.activeElement.dataset.action === 'next-round'", timeout=15000
        )
        described = someone.page.evaluate(
            """() => {
                const panel = document.activeElement.closest('[role=dialog]');
                return (panel.getAttribute('aria-describedby') || '').split(' ').filter(Boolean)
                    .map((id) => document.getElementById(id).textContent).join(' ');
            }"""
        )
        assert "queen of spades" in described or "shot the" in described, described
        assert "Your total: " in described and " this round)." in described, described
    # Ann is ready first: the button says whom she waits for and keeps the focus.
    ann.page.keyboard.press("Enter")
    ann.page.wait_for_selector("[data-action=next-round][data-waiting=true]:has-text('Bea')")
    assert focused(ann) == ["BUTTON", "next-round", False, "true"]
    bea.page.wait_for_selector("[data-region=ready-note] >> text=\u2068Ann\u2069 is ready.")
    bea.page.keyboard.press("Enter")
    # The next round is dealt: the keyboard goes to the hand on both pages.
    for someone in (ann, bea):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]")
        someone.page.wait_for_function(SETTLED, arg=0)
        assert focused(someone)[2], (someone.name, focused(someone))
        assert lost(someone) == [], someone.name
        # The status line over the round: never the same words twice in a row, and no
        # turn said only to be replaced at once ("Marisol to play." 10-25 ms before "Your
        # turn.", before each of the person's turns).
        twice, flashed = churn(someone, [ann, bea])
        assert twice == [], (someone.name, twice)
        assert flashed == [], (someone.name, flashed)
    for someone in (ann, bea):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_a_rematch_keeps_the_keyboard_on_both_pages(browser: Any, server: AppServer) -> None:
    cal = person(browser, "Cal", DESKTOP)
    dot = person(browser, "Dot", PHONE)
    body = {
        "rules": {"target_score": 1},
        "name": "Cal",
        "turn_time": None,
        "seats": ["you", "easy", "friend", "easy"],
    }
    state = table_by_api(cal, server, body)
    join(dot, f"{server.url}{state['table']['invite']}")
    for someone in (cal, dot):
        someone.page.wait_for_selector(f"{TABLE} [data-card]", timeout=15000)
    # A game to 1 point is over after its first round.
    play_round([cal, dot])
    for someone in (cal, dot):
        someone.page.wait_for_selector("[data-action=rematch]")
        someone.page.evaluate(WATCH_FOCUS)
    dot.page.focus("[data-action=rematch]")
    cal.page.click("[data-action=rematch]")
    cal.page.wait_for_selector("[data-region=lobby-line] >> text=Waiting for \u2068Dot\u2069")
    # Dot's Rematch became "Join the rematch": the focus goes with it.
    dot.page.wait_for_selector("[data-action=join-rematch]", timeout=10000)
    dot.page.wait_for_function(
        "() => document.activeElement.dataset.action === 'join-rematch'", timeout=5000
    )
    dot.page.keyboard.press("Enter")
    # The rematch starts for both: the keyboard is at the hand, never on the page's body.
    for someone in (cal, dot):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
        someone.page.wait_for_function(SETTLED, arg=0)
        assert focused(someone)[2], (someone.name, focused(someone))
        assert lost(someone) == [], someone.name
    for someone in (cal, dot):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()
