"""The start screen in headless Chromium: the keyboard keeps its place when a choice redraws
the screen, and the house rules speak in the numbers of the table chosen.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_game_browser import open_page

import hearts
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS

from browser_support import DESKTOP, PHONE, AppServer

pytestmark = pytest.mark.browser

FOCUSED = """() => {
    const e = document.activeElement;
    return { tag: e.tagName.toLowerCase(), name: e.name || null, value: e.value || null };
}"""


def focused(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(FOCUSED)
    return found


def checked(page: Any, name: str) -> str:
    value: str = page.eval_on_selector(f"input[name={name}]:checked", "e => e.value")
    return value


def test_arrow_keys_walk_the_table_sizes_and_keep_the_focus(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, DESKTOP)
    start = hearts.Rules().players
    page.focus("input[name=players]:checked")
    assert focused(page) == {"tag": "input", "name": "players", "value": str(start)}
    # Each arrow chooses the next size, redraws the screen and leaves the focus on the choice,
    # so the next arrow goes on from there (as in any group of radio buttons).
    for size in range(start + 1, min(start + 3, MAX_PLAYERS) + 1):
        page.keyboard.press("ArrowRight")
        assert checked(page, "players") == str(size)
        assert focused(page) == {"tag": "input", "name": "players", "value": str(size)}
        line = page.text_content("[data-region=table-line]")
        assert line.startswith(f"{size} players"), line
    page.keyboard.press("ArrowLeft")
    assert focused(page)["value"] == checked(page, "players") == str(size - 1)
    assert not page.errors, page.errors
    page.context.close()


def test_arrow_keys_walk_the_presets_and_keep_the_focus(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    names = page.eval_on_selector_all("input[name=preset]", "els => els.map(e => e.value)")
    page.click(".all-rules summary")  # open: a redraw leaves it as it was
    page.focus("input[name=preset]:checked")
    first = names.index(checked(page, "preset"))
    for name in names[first + 1 : first + 3]:
        page.keyboard.press("ArrowRight")
        assert checked(page, "preset") == name
        assert focused(page) == {"tag": "input", "name": "preset", "value": name}
    assert page.eval_on_selector(".all-rules", "e => e.open")
    assert not page.errors, page.errors
    page.context.close()


RULES_SHOWN = """() => ({
    summary: document.querySelector('.all-rules summary').textContent,
    rules: [...document.querySelectorAll('.rule-list .rule')].map((rule) => ({
        field: (rule.querySelector('[id^=rule-]') || {}).id,
        text: rule.textContent,
    })),
})"""


def rules_shown(page: Any) -> dict[str, str]:
    found = page.evaluate(RULES_SHOWN)
    shown = {rule["field"].removeprefix("rule-"): rule["text"] for rule in found["rules"]}
    assert f" · {len(shown)} options" in found["summary"], (found["summary"], len(shown))
    return shown


@pytest.mark.parametrize("players", [MIN_PLAYERS, MAX_PLAYERS])
def test_the_house_rules_use_the_numbers_of_the_table(
    browser: Any, server: AppServer, players: int
) -> None:
    page = open_page(browser, server, PHONE)
    page.click(f"[data-players='{players}']")
    page.click(".all-rules summary")
    rules = hearts.Rules(players=players)
    moon = rules.round_points
    shown = rules_shown(page)
    assert f"counts double a moon: {2 * moon} points." in shown["shoot_the_sun"]
    assert f"Everyone else gets {moon}" in shown["moon_rule"]
    assert f"The shooter loses {moon}" in shown["moon_rule"]
    queens = "the queen of spades" if rules.decks == 1 else "both queens of spades"
    assert f"every heart and {queens}." in shown["moon_rule"]
    one_deck = hearts.Rules(players=MIN_PLAYERS).round_points
    if moon != one_deck:
        every = " ".join(shown.values())
        assert f" {one_deck}" not in every, every  # no one-deck moon left at a two-deck table
    page.click("label:has(input[name=preset][value=moon-choice])")
    help_line = page.text_content("[data-region=preset-help]")
    assert help_line == (
        f"The shooter picks: {moon} to the others or {moon} off their own total. Played to 100."
    )
    assert not page.errors, page.errors
    page.context.close()


def test_the_count_of_house_rules_follows_the_table(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    page.click(".all-rules summary")
    counts = {}
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        page.click(f"[data-players='{players}']")
        counts[players] = len(rules_shown(page))  # the summary's count checked inside
        table = page.evaluate(f"() => document.querySelector('[data-players=\"{players}\"]').title")
        assert table.startswith(f"{players} players")
    four = hearts.Rules().players
    assert counts[four] > counts[MAX_PLAYERS]  # partners and the kitty only at some tables
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, {"width": 844, "height": 390}, PHONE])
def test_tabbing_never_leaves_the_focus_under_the_deal_button(
    browser: Any, server: AppServer, viewport: dict[str, int]
) -> None:
    # "Deal the cards" stays at the foot of the screen; a control tabbed to behind it was
    # left hidden there ("Every house rule", "Invite friends", "Allow take-backs").
    page = open_page(browser, server, viewport)
    covered = []
    for _ in range(60):
        page.keyboard.press("Tab")
        found = page.evaluate(
            """() => {
                const el = document.activeElement;
                const deal = document.querySelector('.setup > [data-action=new-game]');
                if (!el || el === document.body || !deal || el === deal) return null;
                const a = el.getBoundingClientRect(), b = deal.getBoundingClientRect();
                const under = a.bottom > b.top + 1 && a.top < b.bottom - 1;
                if (!under) return null;
                return el.textContent || el.getAttribute('aria-label') || el.tagName;
            }"""
        )
        if found:
            covered.append(found.strip()[:40])
    assert covered == [], covered
    assert not page.errors


@pytest.mark.parametrize("typed", ["2000", "abc"])
def test_invite_waits_for_a_game_length_that_counts(
    browser: Any, server: AppServer, typed: str
) -> None:
    # A length out of range marked its box and held back "Deal the cards", while "Invite a
    # friend" went on and made a game to 100. It is held back too, and says why under it.
    page = open_page(browser, server, PHONE)
    page.click("[data-region=invite] summary")
    invite = page.locator("[data-action=invite]")
    assert invite.is_enabled()
    page.fill("input[aria-label='Other game length']", typed)
    problem = page.inner_text("#length-note")
    assert problem.startswith(("Choose a game length", "Type a whole number"))
    assert page.is_disabled("[data-action=new-game]")
    assert invite.is_disabled()
    assert page.inner_text("[data-region=invite-note]") == problem
    # Naming oneself (which redraws the button) leaves it held back.
    page.fill("#host-name", "Ann")
    assert invite.is_disabled()
    assert page.locator("[data-region=invite-note]").is_visible()
    # A length that counts lets it go, and the table is made to that length.
    page.fill("input[aria-label='Other game length']", "75")
    assert invite.is_enabled() and page.locator("[data-region=invite-note]").is_hidden()
    invite.click()
    page.wait_for_selector("body[data-screen=lobby] [data-region=invite-link]")
    game = page.evaluate("new URLSearchParams(location.search).get('table')")
    state = page.context.request.get(f"{server.url}/api/games/{game}").json()
    assert state["view"]["rules"]["target_score"] == 75
    assert not page.errors, page.errors
    page.context.close()
