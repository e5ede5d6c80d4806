"""The scorekeeper in headless Chromium: what a person at a kitchen table does with it.

A real uvicorn server on a loopback port serves the sheets router. Chromium that cannot start
skips these tests, unless HEARTS_REQUIRE_BROWSER=1 (CI), which makes them fail instead.
Set HEARTS_SCREENSHOT_DIR to keep screenshots of the screens these tests reach.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from hearts import sheets
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS
from hearts.web import sheets_routes
from hearts.web.api import TARGET_RANGE
from hearts.web.options import RULE_OPTIONS
from pdf_support import pdf_text

from browser_support import DESKTOP, PHONE, SCREENS, LiveServer, plain, resize, screens

pytestmark = pytest.mark.browser


class Server(LiveServer):
    """The scorekeeper and sheets routes alone."""

    def __init__(self) -> None:
        app = FastAPI()
        app.include_router(sheets_routes.router)
        super().__init__(app)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server().start()
    yield running
    running.stop()


@pytest.fixture
def page(browser: Any, server: Server) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, base_url=server.url)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    # Console errors catch what throws nothing: a blocked file (CSP), a 404, a failed import.
    tab.on("console", lambda message: note_console_error(errors, message))
    open_scorekeeper(tab)
    yield tab
    context.close()
    assert errors == [], errors


def note_console_error(errors: list[str], message: Any) -> None:
    if message.type == "error":
        errors.append(message.text)


def open_scorekeeper(tab: Any) -> None:
    tab.goto("/scorekeeper")
    tab.wait_for_selector("body[data-ready=true]")


def screenshot(tab: Any, name: str) -> None:
    folder = os.environ.get("HEARTS_SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


# --- helpers: what a person does ------------------------------------------------------------


def start_game(tab: Any, names: list[str], **settings: str) -> None:
    while tab.locator("[data-field=player-name]").count() < len(names):
        tab.click("[data-action=add-player]")
    while tab.locator("[data-field=player-name]").count() > len(names):
        tab.locator("[data-action=remove-player]").last.click()
    for i, name in enumerate(names):
        tab.fill(f"#name-{i}", name)
    if "target" in settings:
        tab.fill("[data-field=target]", settings["target"])
    if "moon" in settings:
        tab.check(f"input[name=moon-rule][value={settings['moon']}]")
    for field in ("bonus", "passing", "exact", "tie"):
        if field in settings:
            tab.select_option(f"[data-field={field}]", settings[field])
    for field in ("partnership", "sun"):
        if field in settings:
            tab.set_checked(f"[data-field={field}]", settings[field] == "on")
    tab.click("[data-action=start-game]")
    tab.wait_for_selector("body[data-screen=game]")


def enter_round(tab: Any, points: Sequence[int | None], bonus: Sequence[int] = ()) -> None:
    for i, value in enumerate(points):
        tab.fill(f"#points-{i}", "" if value is None else str(value))
    for i in bonus:
        tab.click(f"[data-action=toggle-bonus][data-index='{i}']")
    tab.click("[data-action=add-round]")


def enter_moon(
    tab: Any, shooter: int, choice: str | None = None, sun: bool = False, bonus: Sequence[int] = ()
) -> None:
    tab.click("[data-action=shoot-moon]")
    # Who shot it is asked, not marked wrong before anyone could answer ("✗ Pick who shot
    # the moon." in the warning's colours as the panel opened).
    check = tab.locator("#sum-check")
    assert "✗" not in check.inner_text() and "bad" not in (check.get_attribute("class") or "")
    assert "shot the moon" in check.inner_text()
    tab.check(f"input[name=moon-shooter][value='{shooter}']")
    if sun:
        tab.check("input[name=moon-sun]")
    for i in bonus:
        tab.click(f"[data-action=toggle-bonus][data-index='{i}']")
    if choice:
        tab.check(f"input[name=moon-choice][value={choice}]")
    tab.click("[data-action=add-round]")


def totals(tab: Any) -> list[int]:
    values = tab.locator("[data-total]").evaluate_all("els => els.map(e => e.dataset.total)")
    return [int(v) for v in values]


def status(tab: Any) -> str:
    text: str = plain(tab.locator("[role=status]").inner_text())
    return text


def moon_choice(tab: Any) -> str | None:
    """The shooter's choice ticked ("add" or "subtract"), or None."""
    checked = tab.locator("input[name=moon-choice]:checked")
    return checked.get_attribute("value") if checked.count() else None


def history_rows(tab: Any) -> int:
    count: int = tab.locator("table.history tbody tr[data-round]").count()
    return count


# --- tests -----------------------------------------------------------------------------------


def test_a_game_from_names_to_winner(page: Any) -> None:
    tab = page
    screenshot(tab, "scorekeeper-phone-setup")
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"], target="50")
    assert totals(tab) == [0, 0, 0, 0]
    assert tab.locator("[data-next-pass]").get_attribute("data-next-pass") == "left"

    # A round that does not add up is refused, with the reason, and nothing changes.
    enter_round(tab, [13, 5, 6, None])
    assert status(tab) == "Not added: these add up to 24; a round holds 26 (2 missing)."
    assert tab.locator("[role=status]").get_attribute("data-kind") == "error"
    assert totals(tab) == [0, 0, 0, 0]
    assert history_rows(tab) == 0
    # The live check under the boxes follows the typing; the stale refusal goes away.
    tab.fill("#points-3", "1")
    live = plain(tab.locator("[data-sum-check]").inner_text())
    assert "These add up to 25; a round holds 26 (1 missing)." in live
    # Read with each box reached, not at every key pressed (it was a live region).
    described = tab.evaluate(
        """() => [...document.querySelectorAll('[id^=points-]')].map((box) =>
            [box.getAttribute('aria-describedby'), box.closest('[aria-live]')])"""
    )
    check_id = tab.locator("[data-sum-check]").get_attribute("id")
    assert check_id and described == [[check_id, None]] * 4
    assert tab.locator("[data-sum-check]").get_attribute("aria-live") is None
    assert not tab.locator("[role=status]").is_visible()

    # Fix it: now it adds up.
    enter_round(tab, [13, 5, 6, 2])
    assert totals(tab) == [13, 5, 6, 2]
    assert "Round 1 added" in status(tab)
    assert tab.locator("[data-next-pass]").get_attribute("data-next-pass") == "right"
    assert tab.locator("[data-leader]").get_attribute("data-leader") == "Dev"
    # The deal moves one seat left each round: Ana dealt round 1, Ben deals round 2.
    assert tab.locator("[data-dealer]").get_attribute("data-dealer") == "Ben"

    # All 26 typed for one player is a moon: the page says to use the button.
    enter_round(tab, [0, 26, 0, 0])
    assert "Ben took all 26 points: that is shooting the moon." in status(tab)
    assert totals(tab) == [13, 5, 6, 2]

    # A number no round can hold points at the box that is wrong.
    enter_round(tab, [30, 0, 0, 0])
    assert "Not added: Ana's points must be a whole number from 0 to 26." in status(tab)
    assert tab.locator("#points-0").get_attribute("aria-invalid") == "true"
    assert tab.locator("#points-1").get_attribute("aria-invalid") == "false"

    # A moon with the button, default rule: everyone else gets 26.
    enter_moon(tab, shooter=1)
    assert totals(tab) == [39, 5, 32, 28]
    assert "Ben shot the moon: everyone else gets 26." in status(tab)
    assert tab.locator("[data-next-pass]").get_attribute("data-next-pass") == "across"
    screenshot(tab, "scorekeeper-phone")

    # A reload keeps everything: totals, history, who is ahead, the next pass.
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert totals(tab) == [39, 5, 32, 28]
    assert history_rows(tab) == 2
    assert tab.locator("[data-next-pass]").get_attribute("data-next-pass") == "across"
    assert tab.locator("[data-leader]").get_attribute("data-leader") == "Ben"

    # Numbers typed but not yet added survive a reload as well.
    tab.fill("#points-0", "7")
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert tab.locator("#points-0").input_value() == "7"
    tab.fill("#points-0", "")

    # Undo takes the moon back and puts it back in the entry to fix.
    tab.click("[data-action=undo]")
    assert totals(tab) == [13, 5, 6, 2]
    assert tab.locator("[data-panel=moon]").is_visible()
    tab.click("[data-action=cancel-moon]")
    enter_round(tab, [3, 10, 0, 13])
    assert totals(tab) == [16, 15, 6, 15]

    # Play on to 50: the game ends and names the winner.
    enter_round(tab, [13, 13, 0, 0])  # hold round
    enter_round(tab, [10, 2, 1, 13])
    assert totals(tab) == [39, 30, 7, 28]
    enter_round(tab, [13, 0, 0, 13])
    assert totals(tab) == [52, 30, 7, 41]
    winner = tab.locator("[data-winner]")
    assert winner.get_attribute("data-winner") == "Cleo"
    assert "Cleo wins with 7" in plain(winner.inner_text())
    assert tab.locator("[data-action=add-round]").count() == 0
    screenshot(tab, "scorekeeper-phone-game-over")

    # The end survives a reload too.
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert tab.locator("[data-winner]").get_attribute("data-winner") == "Cleo"
    # Play again keeps the players and the rules.
    tab.click("[data-action=rematch]")
    assert totals(tab) == [0, 0, 0, 0]
    assert "Game to 50" in tab.locator("[data-region=rules]").inner_text()


def test_setup_refuses_what_cannot_work(page: Any) -> None:
    tab = page
    tab.fill("#name-0", "Ana")
    tab.fill("#name-1", "ana")
    tab.fill("#name-2", "Cy")
    tab.fill("#name-3", "Dot")
    tab.click("[data-action=start-game]")
    assert 'Two players are called "ana"' in status(tab)
    tab.fill("#name-1", "")
    tab.click("[data-action=start-game]")
    assert "Player 2 needs a name." in status(tab)
    tab.fill("#name-1", "Bo")

    def refused(target: str, words: str) -> None:
        tab.fill("[data-field=target]", target)
        tab.click("[data-action=start-game]")
        assert words in status(tab)
        assert tab.locator("body").get_attribute("data-screen") == "setup"
        # The target's box is marked, as a wrong name's is.
        assert tab.locator("#setup-target").get_attribute("aria-invalid") == "true"

    # The game's own lengths, 1 to MAX_TARGET: the box says so too.
    low, high = TARGET_RANGE
    box = tab.locator("#setup-target")
    assert (box.get_attribute("min"), box.get_attribute("max")) == (str(low), str(high))
    refused("0", f"target score must be a whole number from {low} to {high}")
    refused(str(high + 1), f"target score must be a whole number from {low} to {high}")
    refused("1e3", f"target score must be a whole number from {low} to {high}")  # "e": not digits
    # Back to 50, as in the game, needs a game to more than 50.
    tab.select_option("[data-field=exact]", "fifty")
    refused("50", "Dropping back to 50 needs a game to more than 50")
    tab.select_option("[data-field=exact]", "none")
    tab.fill("[data-field=target]", "100")
    # Three is the fewest: the remove buttons switch off.
    tab.locator("[data-action=remove-player]").last.click()
    assert tab.locator("[data-action=remove-player]").first.is_disabled()


def test_scores_are_written_as_the_games_are(page: Any) -> None:
    # The scorekeeper keeps its own copy of the game's words.js score() and signed() (it
    # works offline, from its own files): a real minus sign, a plus on a gain, a bare 0.
    written = page.evaluate(
        """async () => {
          const { signed, total } = await import("/scorekeeper/dom.js");
          return { signed: [13, 0, -10, 26].map(signed), total: [-5, 0, 7].map(total) };
        }"""
    )
    assert written == {"signed": ["+13", "0", "\u221210", "+26"], "total": ["\u22125", "0", "7"]}


def test_the_passes_are_named_as_the_game_names_them(page: Any) -> None:
    # The scorekeeper said "hold" and "None" where the game says "keep" and "No pass"; a
    # choice whose rounds are one of the game's passing choices takes its label.
    # (The start screen adds what a scatter takes at its table, "(9 cards)": the name is
    # what is compared.)
    game_labels = {
        tuple(c["value"]): re.sub(r" \(\d+ cards\)$", "", c["label"])
        for rule in RULE_OPTIONS
        if rule["field"] == "pass_cycle"
        for c in rule["choices"]
    }
    found = page.evaluate(
        """async ([low, high]) => {
          const m = await import('/scorekeeper/model.js');
          const out = [];
          for (let n = low; n <= high; n++) {
            for (const option of m.passingOptions(n)) {
              const cycle = m.passCycle(n, option.value);
              out.push({ n, cycle: cycle.length ? cycle : ['hold'], label: option.label });
            }
          }
          return { out, short: m.PASS_SHORT };
        }""",
        [MIN_PLAYERS, MAX_PLAYERS],
    )
    matched = 0
    for choice in found["out"]:
        label = game_labels.get(tuple(choice["cycle"]))
        if label is not None:
            assert choice["label"].startswith(label), choice
            matched += 1
    assert matched >= MAX_PLAYERS - MIN_PLAYERS + 1
    # One word for a round with no pass, as the game, the sheets and the terminal say it.
    assert found["short"]["hold"] == found["short"]["none"] == "Keep"
    said = page.evaluate("async () => (await import('/scorekeeper/model.js')).PASS_WORDS.hold")
    assert said == "a keep round: nobody passes"


def test_moon_rules_and_the_bonus_card(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy"], moon="choose", bonus="jack", exact="fifty")
    assert tab.locator("[data-next-pass]").get_attribute("data-next-pass") == "left"
    # The jack of diamonds must be marked: the round then holds 16.
    enter_round(tab, [20, 6, 0])
    assert "Mark who took the jack of diamonds" in status(tab)
    enter_round(tab, [20, 6, 0], bonus=[2])
    assert totals(tab) == [20, 6, -10]
    # The shooter chooses; the shooter also took the jack.
    tab.click("[data-action=shoot-moon]")
    # One deck, one queen ("every queen of spades" said otherwise).
    assert "took every heart and the queen of spades." in page_words(tab)
    tab.click("[data-action=add-round]")
    assert status(tab) == "Not added: pick who shot the moon."
    tab.check("input[name=moon-shooter][value='0']")
    # Neither choice ends the game, so the page preselects the usual one; Ana picks the other.
    assert moon_choice(tab) == "add"
    tab.check("input[name=moon-choice][value=subtract]")
    tab.click("[data-action=toggle-bonus][data-index='0']")
    tab.click("[data-action=add-round]")
    assert totals(tab) == [20 - 26 - 10, 6, -10]
    assert tab.locator("[data-next-pass]").get_attribute("data-next-pass") == "hold"


def test_two_decks_for_ten_players_on_a_phone(page: Any) -> None:
    tab = page
    names = [f"Player{i}" for i in range(1, 11)]
    start_game(tab, names)
    assert "two decks" in tab.locator("[data-region=rules]").inner_text()
    assert tab.locator("[data-next-pass]").get_attribute("data-next-pass") == "none"
    enter_round(tab, [13, 13, *[0] * 8])
    assert status(tab) == "Not added: these add up to 26; a round holds 52 (26 missing)."
    enter_round(tab, [13, 13, 10, 10, 6, *[0] * 5])
    assert totals(tab)[:5] == [13, 13, 10, 10, 6]
    enter_moon(tab, shooter=9)
    assert totals(tab)[9] == 0 and totals(tab)[0] == 13 + 52
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(tab, "scorekeeper-phone-10-players")


@pytest.mark.parametrize("players", [4, 6])
def test_long_names_in_the_history_stand_apart_on_a_small_phone(page: Any, players: int) -> None:
    # Six long names at 320 px stood 5 px apart over the history's columns and read as one
    # line: "Alexandra Bartholomew Ch…". A rule between the columns, as on a paper sheet,
    # sets them apart without widening the table (five names still fit a phone).
    tab = page
    resize(tab, {"width": 320, "height": 568})
    names = ["Alexandra", "Bartholomew", "Christopher", "Dominique", "Evangeline", "Fitzgerald"]
    start_game(tab, names[:players])
    deck = 26 if players < 6 else 52  # two decks from six players (the rules line says so)
    assert ("two decks" in tab.locator("[data-region=rules]").inner_text()) == (deck == 52)
    enter_round(tab, [deck - (players - 1), *[1] * (players - 1)])
    assert history_rows(tab) == 1
    between = tab.evaluate(
        """() => [...document.querySelectorAll('.history thead th')].slice(2).map((cell) => {
            const name = cell.previousElementSibling.querySelector('.head-name');
            const style = getComputedStyle(cell);
            const rule = style.borderLeftStyle === 'solid'
                && parseFloat(style.borderLeftWidth) >= 1;
            return { rule,
                     before: cell.getBoundingClientRect().left - name.getBoundingClientRect().right,
                     after: cell.querySelector('.head-name').getBoundingClientRect().left
                         - cell.getBoundingClientRect().left }; })"""
    )
    assert len(between) == players - 1
    for gap in between:
        assert gap["rule"] and gap["before"] >= 2 and gap["after"] >= 2, between
    # Every row of numbers has the rules too, so each column reads down as one player's.
    ruled = tab.evaluate(
        """() => [...document.querySelectorAll(
                '.history tbody tr:not(.note) td, .history tfoot td')]
            .every((cell) => getComputedStyle(cell).borderLeftStyle === 'solid')"""
    )
    assert ruled


def test_touch_targets_and_no_sideways_scroll(page: Any, browser: Any, server: Server) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"], bonus="jack")
    enter_round(tab, [13, 5, 6, 2], bonus=[3])
    for viewport in (PHONE, DESKTOP):
        resize(tab, viewport)
        assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        small = tab.evaluate(
            """() => [...document.querySelectorAll('button, input, select, .choice, footer a')]
                 .filter(el => el.offsetParent !== null)
                 .map(el => [el.dataset.action || el.id || el.textContent.trim().slice(0, 20),
                             el.getBoundingClientRect()])
                 .filter(([, r]) => r.height < 44 || r.width < 44)
                 .filter(([, r]) => r.width > 0)
                 .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
        )
        # Radio buttons sit inside labels that are the real (large) target.
        small = [s for s in small if not s.startswith(("moon-", "0 ", "1 "))]
        assert small == [], small
    # Every input has a label a screen reader can read.
    unlabelled = tab.evaluate(
        """() => [...document.querySelectorAll('input, select')]
             .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label'))
             .map(el => el.id || el.name)"""
    )
    assert unlabelled == []


def test_text_at_twice_its_size_fits_a_phone(browser: Any, server: Server) -> None:
    # A phone set to its largest text, or a page zoomed to 200% (half as many CSS pixels).
    large = (
        "document.addEventListener('DOMContentLoaded',"
        " () => { document.documentElement.style.fontSize = '200%'; })"
    )
    for viewport, script in (
        (PHONE, large),
        ({"width": PHONE["width"] // 2, "height": PHONE["height"] // 2}, None),
    ):
        context = browser.new_context(viewport=viewport, base_url=server.url)
        tab = context.new_page()
        if script:
            tab.add_init_script(script)
        open_scorekeeper(tab)
        start_game(
            tab, ["Wolfeschlegelsteinhausen", "Bartholomew-Featherstone", "Cy"], bonus="jack"
        )
        enter_round(tab, [13, 5, 8], bonus=[1])
        assert totals(tab) == [13, -5, 8]
        wide = tab.evaluate(
            """() => [...document.querySelectorAll('.entry-row, .entry-row input, .bonus-toggle')]
                 .filter(el => el.getBoundingClientRect().right > innerWidth)
                 .map(el => el.className || el.id)"""
        )
        assert wide == []
        assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        context.close()


def test_short_names_share_a_row_with_text_at_twice_its_size(browser: Any, server: Server) -> None:
    # A phone set to its largest text: four short names took a row each, and the totals ran
    # down past the round's boxes. Two cards a row at least, as with text at its usual size.
    context = browser.new_context(viewport=PHONE, base_url=server.url)
    tab = context.new_page()
    tab.add_init_script(
        "document.addEventListener('DOMContentLoaded',"
        " () => { document.documentElement.style.fontSize = '200%'; })"
    )
    open_scorekeeper(tab)
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"])
    tops = tab.evaluate(
        "() => [...document.querySelectorAll('.score-card')]"
        ".map((card) => card.getBoundingClientRect().top)"
    )
    assert len(set(tops)) == 2, tops
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()


def test_a_new_game_keeps_the_players_and_rules_and_says_so(page: Any) -> None:
    tab = page
    assert tab.locator("[data-note=kept]").count() == 0  # nothing kept on a first visit
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"], target="50", moon="choose", bonus="jack")
    tab.click("[data-action=new-game]")
    tab.click("[data-action=confirm-new-game]")
    tab.wait_for_selector("body[data-screen=setup]")
    note = tab.locator("[data-note=kept]")
    assert "The last game's players and rules are filled in" in note.inner_text()
    assert tab.input_value("#name-0") == "Ana"
    assert tab.input_value("[data-field=target]") == "50"
    assert tab.locator("input[name=moon-rule][value=choose]").is_checked()
    tab.click("[data-action=fresh-setup]")
    # The standard game, no names, and the cursor in the first name's box.
    assert tab.locator("[data-note=kept]").count() == 0
    assert [tab.input_value(f"#name-{i}") for i in range(4)] == ["", "", "", ""]
    assert tab.input_value("[data-field=target]") == "100"
    assert tab.locator("input[name=moon-rule][value=add]").is_checked()
    assert tab.input_value("[data-field=bonus]") == "none"
    assert tab.evaluate("document.activeElement.id") == "name-0"
    assert rules_link(tab) == "/sheets/rules.pdf?players=4&passing=standard&target=100&moon=add"


def test_print_view_hides_the_controls(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    enter_round(tab, [13, 5, 6, 2])
    tab.emulate_media(media="print")
    assert not tab.locator("[data-action=add-round]").is_visible()
    assert not tab.locator("[data-action=undo]").is_visible()
    assert tab.locator("table.history").is_visible()
    assert tab.locator("[data-total]").first.is_visible()
    # Paper has no buttons to tap: the history's title does not ask for it.
    title = tab.locator("#history-title").inner_text()
    assert title == "Rounds played points scored, running total under each"
    tab.emulate_media(media="screen")
    assert tab.locator("[data-action=add-round]").is_visible()
    assert tab.locator("#history-title").inner_text().endswith("; tap a round's number to fix it")


def test_a_printed_history_runs_on_under_the_totals(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"], bonus="jack", target="1000")
    for round_number in range(12):
        enter_round(tab, [13, 5, 6, 2], bonus=[round_number % 4])
    assert history_rows(tab) == 12
    # Kept whole, these twelve rounds went to page 2 and on to page 3, and page 1 was the
    # totals over a blank page; they start under the totals and end on page 2.
    pdf = tab.pdf(format="Letter")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 2
    tab.emulate_media(media="print")
    styles = tab.evaluate(
        """() => ({
            footer: getComputedStyle(document.querySelector('table.history tfoot')).display,
            round: getComputedStyle(document.querySelector('tr[data-round]')).breakInside,
        })"""
    )
    # The totals are printed once, at the end, not under each page's rounds; no round is split.
    assert styles == {"footer": "table-row-group", "round": "avoid"}


def test_links_to_the_sheets_match_the_players(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot", "Eve", "Zoë Ångström"])
    href = tab.locator("[data-link=score-pdf]").get_attribute("href")
    names = "name=Ana&name=Ben&name=Cy&name=Dot&name=Eve&name=Zo%C3%AB+%C3%85ngstr%C3%B6m"
    assert href == f"/sheets/score.pdf?players=6&passing=none&target=100&moon=add&{names}"
    response = tab.request.get(href)
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    # The sheet's columns are headed by the game's players, not "Player 1", "Player 2"...
    text = pdf_text(response.body())
    assert "Zoë Ångström" in text and "Player" not in text
    a4 = tab.locator("[data-link=score-pdf-a4]").get_attribute("href")
    assert a4 == f"{href}&paper=a4"
    # The rule sheet has no columns: its link carries no names.
    assert "name=" not in rules_link(tab)
    assert tab.request.get(rules_link(tab)).status == 200


def test_the_score_sheet_link_leaves_out_a_name_the_sheet_would_refuse(page: Any) -> None:
    tab = page
    # A zero-width space the scorekeeper took: the sheet refuses it, so the link leaves that
    # column to be written in rather than open on a refusal.
    start_game(tab, ["Ana", "B\u200bob", "Cy", "Dot"])
    href = tab.locator("[data-link=score-pdf]").get_attribute("href")
    assert href.endswith("&name=Ana&name=&name=Cy&name=Dot")
    response = tab.request.get(href)
    assert response.status == 200, response.text()
    text = pdf_text(response.body())
    assert "Player 2" in text and "Player 1" not in text


def test_tie_at_the_end(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy"], target="20")
    enter_round(tab, [0, 13, 13])
    enter_round(tab, [13, 0, 13])
    winner = tab.locator("[data-winner]")
    assert winner.get_attribute("data-tie") == "true"
    assert "A tie: Ana and Ben share the win with 13." in plain(winner.inner_text())


def test_works_offline_once_loaded(browser: Any) -> None:
    own = Server().start()
    context = browser.new_context(viewport=PHONE, base_url=own.url)
    try:
        tab = context.new_page()
        open_scorekeeper(tab)
        start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
        enter_round(tab, [13, 5, 6, 2])
        tab.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller")
        # Every file the page needs is in the worker's cache once it controls the page.
        tab.wait_for_function(
            """caches.keys().then((names) => names.find((n) => n.startsWith('scorekeeper-')))
                .then((name) => name && caches.open(name)).then((c) => c && c.keys())
                .then((k) => k && k.length >= 11)"""
        )
        own.stop()  # the table has no network now
        tab.reload()
        tab.wait_for_selector("body[data-ready=true]")
        assert totals(tab) == [13, 5, 6, 2]
        enter_round(tab, [0, 0, 13, 13])
        assert totals(tab) == [13, 5, 19, 15]
    finally:
        context.close()
        own.stop()


SCORING_CASES = """async () => {
  const m = await import('/scorekeeper/model.js');
  const game = (names, settings, rounds = []) => {
    let g = m.newGame(names, { ...m.defaultSettings(names.length), ...settings });
    for (const points of rounds) {
      const entry = { points: points.map(String), bonus: names.map(() => 0), moon: null };
      const next = m.addRound(g, entry);
      if (!next.check.ok) throw new Error(next.check.message);
      g = next.game;
    }
    return g;
  };
  const moon = (g, shooter, choice = null) => {
    const entry = { points: [], bonus: g.players.map(() => 0), moon: { shooter, choice } };
    return m.summary(m.addRound(g, entry).game).totals;
  };
  const four = ['A', 'B', 'C', 'D'];
  const AB = [13, 13, 0, 0], AC = [13, 0, 13, 0], AD = [13, 0, 0, 13];
  const base = [AC, AB, AB, AB, AC, AD];
  const close = [AB, AB, AB, AB, AC, AD];
  // Totals before the moon: A 78, B 52, C 13, D 13.
  const near = game(four, { moonRule: 'add-unless-losing' }, close);
  const leading = game(four, { moonRule: 'add-unless-losing' }, [AC, AB, AD, AC, AD, AD]);
  return {
    before: m.summary(near).totals,
    // B shoots: 26 to the others ends the game (A 104) with C and D lower, so B takes 26 off.
    unlessLosing: moon(near, 1),
    // C shoots: 26 to the others ends the game with C lowest, so the others get 26.
    unlessLosingWinner: moon(near, 2),
    leadingBefore: m.summary(leading).totals,
    leadingMoon: moon(leading, 1),
    add: moon(game(four, {}, [[13, 13, 0, 0]]), 2),
    subtract: moon(game(four, { moonRule: 'subtract' }, [[13, 13, 0, 0]]), 2),
    half: m.summary(game(four, { exact: 'half' }, [...base, [22, 4, 0, 0]])).totals,
    // As the game has it: back to 50, whatever the target (here 75: 62 + 13).
    fifty: m.summary(game(four, { exact: 'fifty', target: 75 },
      [AB, AB, AB, AB, [10, 0, 16, 0], [13, 13, 0, 0]])).totals,
    offered: Object.keys(m.EXACT_TARGET),
    zero: m.summary(game(four, { exact: 'zero', target: 50 }, [AB, AB, AD, [11, 0, 2, 13]])).totals,
    passes4: [0, 1, 2, 3, 4].map((i) => m.passFor(game(four, {}), i)),
    noHold: [0, 1, 2, 3].map((i) => m.passFor(game(four, { passing: 'no-hold' }), i)),
    scatter: m.passFor(game(four, { passing: 'scatter' }), 3),
    passes5: [0, 1, 2, 3].map((i) => m.passFor(game(['A', 'B', 'C', 'D', 'E'], {}), i)),
    passes6: m.passFor(game(['A', 'B', 'C', 'D', 'E', 'F'], {}), 0),
    perRound: [3, 5, 6, 10].map(m.pointsPerRound),
    // Points that add up but leave a queen of spades nowhere: refused, at one and two decks.
    noQueen: m.checkRound(game(four, {}), { points: ['7', '7', '6', '6'], bonus: [0, 0, 0, 0],
      moon: null }).message,
    noQueens: m.checkRound(game(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'], {}),
      { points: ['10', '5', '5', '5', '5', '5', '5', '12'], bonus: Array(8).fill(0), moon: null })
      .message,
    oneQueenOfTwo: m.checkRound(game(['A', 'B', 'C', 'D', 'E', 'F'], {}),
      { points: ['13', '10', '10', '10', '6', '3'], bonus: Array(6).fill(0), moon: null }).ok,
    bothQueens: m.checkRound(game(['A', 'B', 'C', 'D', 'E', 'F'], {}),
      { points: ['26', '10', '10', '6', '0', '0'], bonus: Array(6).fill(0), moon: null }).ok,
    blankIsZero: m.parsePoints(''),
    junk: Number.isNaN(m.parsePoints('1.5')) && Number.isNaN(m.parsePoints('ten')),
  };
}"""


def test_scoring_rules_in_the_model(page: Any) -> None:
    result = page.evaluate(SCORING_CASES)
    assert result["before"] == [78, 52, 13, 13]
    assert result["unlessLosing"] == [78, 26, 13, 13]
    assert result["unlessLosingWinner"] == [104, 78, 13, 39]
    assert result["add"] == [39, 39, 0, 26]
    assert result["subtract"] == [13, 13, -26, 0]
    # A lands on exactly 100 (78 + 22): back to half the target; or to 0 in a game to 50.
    assert result["half"] == [50, 43, 26, 13]  # a game kept before: half the target
    assert result["fifty"] == [50, 65, 16, 0]
    assert result["offered"] == ["none", "fifty", "zero"]
    assert result["zero"] == [0, 26, 2, 26]
    assert result["passes4"] == ["left", "right", "across", "hold", "left"]
    assert result["noHold"] == ["left", "right", "across", "left"]
    assert result["scatter"] == "scatter"
    assert result["passes5"] == ["left", "right", "hold", "left"]
    assert result["passes6"] == "none"
    assert result["perRound"] == [26, 26, 52, 52]
    assert result["noQueen"] == (
        "These add up to 26, but nobody has 13 or more: whoever took the queen of spades has "
        "at least 13."
    )
    assert "the two queens of spades (13 each) are not there" in result["noQueens"]
    assert result["oneQueenOfTwo"] is False and result["bothQueens"] is True
    assert result["blankIsZero"] == 0
    assert result["junk"] is True
    assert result["leadingBefore"] == [78, 13, 26, 39]
    assert result["leadingMoon"] == [104, 13, 52, 65]


def test_a_tie_can_play_on(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy"], target="20", tie="play-on")
    enter_round(tab, [0, 13, 13])
    enter_round(tab, [13, 0, 13])
    assert tab.locator("[data-winner]").count() == 0
    leader = tab.locator("[data-tie-break]")
    assert "Ana and Ben tie for the lowest total with 13" in plain(leader.inner_text())
    enter_round(tab, [13, 0, 13])
    assert tab.locator("[data-winner]").get_attribute("data-winner") == "Ben"


def edit_save(tab: Any, path: list[str | int], value: Any) -> None:
    """Someone (or something) changes the saved data: the value at `path` becomes `value`."""
    tab.evaluate(
        """([path, value]) => {
          const key = 'hearts.scorekeeper.v1';
          const data = JSON.parse(localStorage.getItem(key));
          const last = path.pop();
          path.reduce((at, step) => at[step], data)[last] = value;
          localStorage.setItem(key, JSON.stringify(data));
        }""",
        [path, value],
    )
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")


def test_a_saved_game_with_one_bad_round_keeps_the_others(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy"])
    enter_round(tab, [13, 13, 0])
    enter_round(tab, [0, 13, 13])
    enter_round(tab, [1, 12, 13])
    edit_save(tab, ["game", "rounds", 1, "points"], [13, 13, 13])  # no longer adds up
    assert tab.locator("body").get_attribute("data-screen") == "game"
    assert status(tab) == (
        "Round 2 of the saved game did not add up, so it was left out; the other rounds are kept."
    )
    assert history_rows(tab) == 2
    assert totals(tab) == [14, 25, 13]
    # What is kept is saved: the next load is clean and says nothing.
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert totals(tab) == [14, 25, 13]
    assert not tab.locator("[role=status]").is_visible()


def test_a_save_whose_players_do_not_hold_together_is_a_fresh_start(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy"])
    enter_round(tab, [13, 13, 0])
    tab.evaluate(
        """() => {
          const key = 'hearts.scorekeeper.v1';
          const data = JSON.parse(localStorage.getItem(key));
          data.game.players = ['Ana', 'Ana', 'Cy'];
          localStorage.setItem(key, JSON.stringify(data));
        }"""
    )
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert tab.locator("body").get_attribute("data-screen") == "setup"
    assert "could not be read" in status(tab)


# --- issue 15: what a family at a kitchen table tripped over ---------------------------------


def page_words(tab: Any) -> str:
    """Everything a person or a screen reader gets: the text and every aria-label."""
    words: str = plain(
        tab.evaluate(
            """() => document.body.innerText + ' ' + [...document.querySelectorAll('[aria-label]')]
                 .map(el => el.getAttribute('aria-label')).join(' ')"""
        )
    )
    return words


def test_two_decks_name_the_jacks_without_a_double_s(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot", "Eve", "Flo"], bonus="jack")
    tab.fill("#points-0", "26")
    tab.fill("#points-1", "26")
    tab.click("[data-action=add-round]")
    assert "Mark who took both jacks of diamonds: 0 of 2 marked so far." in status(tab)
    assert "jacks of diamonds" in page_words(tab)
    assert "diamondss" not in page_words(tab)
    tab.click("[data-action=toggle-bonus][data-index='2']")
    tab.click("[data-action=toggle-bonus][data-index='2']")
    assert "Cy took 2 of the 2 jacks of diamonds" in page_words(tab)
    # Both copies' words fit their button ("✓ J♦ −20 ×2" ran past its edge at six players).
    assert tab.eval_on_selector(
        "[data-action=toggle-bonus][data-index='2']", "b => b.scrollWidth <= b.clientWidth"
    )
    tab.click("[data-action=add-round]")
    assert totals(tab) == [26, 26, -20, 0, 0, 0]
    assert "Cy took both jacks of diamonds (−20)." in plain(
        tab.locator("table.history").inner_text()
    )
    assert "diamondss" not in page_words(tab)


def test_a_number_that_is_not_a_number_marks_its_box_and_blocks_the_round(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"])
    # A text box with the number keypad: "13e" stays what was typed instead of becoming 0.
    assert tab.locator("#points-0").get_attribute("type") == "text"
    assert tab.locator("#points-0").get_attribute("inputmode") == "numeric"
    enter_round(tab, [None, 13, None, None])
    tab.fill("#points-0", "13e")
    assert tab.locator("#points-0").get_attribute("aria-invalid") == "true"
    assert "Ana's points must be a whole number from 0 to 26." in plain(
        tab.locator("[data-sum-check]").inner_text()
    )
    tab.click("[data-action=add-round]")
    assert status(tab) == "Not added: Ana's points must be a whole number from 0 to 26."
    assert history_rows(tab) == 0
    # "0e" beside 13 and 13 looks like 26, but is not a number either.
    for i, text in enumerate(["13", "13", "0e", ""]):
        tab.fill(f"#points-{i}", text)
    tab.click("[data-action=add-round]")
    assert status(tab) == "Not added: Cy's points must be a whole number from 0 to 26."
    assert tab.locator("#points-2").get_attribute("aria-invalid") == "true"
    assert totals(tab) == [0, 0, 0, 0]
    tab.fill("#points-2", "0")
    tab.click("[data-action=add-round]")
    assert totals(tab) == [13, 13, 0, 0]
    # A box keeps all that was typed: "00013" was cut to "0001" (one point) without a word.
    for i, text in enumerate(["00013", "13", "0", "0"]):
        tab.fill(f"#points-{i}", text)
    assert tab.locator("#points-0").input_value() == "00013"
    tab.click("[data-action=add-round]")
    assert totals(tab) == [26, 26, 0, 0]


def test_a_moon_typed_as_its_result_points_to_the_button(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"])
    for points in ([0, 26, 26, 26], [-26, 0, 0, 0]):
        enter_round(tab, points)
        said = status(tab)
        assert said.startswith("Not added: that is a moon's result, not the points taken"), said
        assert 'press "Shot the moon" and pick Ana.' in said
        assert "too many" not in said
    assert history_rows(tab) == 0
    # Under partnership the result of a team's moon is pointed to the button too.
    tab.click("[data-action=new-game]")
    tab.click("[data-action=confirm-new-game]")
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"], partnership="on")
    enter_round(tab, [26, 0, 26, 0])
    assert 'if Ben and Dot shot the moon, press "Shot the moon" and pick the team.' in status(tab)


def score_card_names(tab: Any) -> list[dict[str, Any]]:
    # Whole (nothing hidden), inside its card, and clear of the total: no overlap.
    found: list[dict[str, Any]] = tab.locator(".score-card .name").evaluate_all(
        """els => els.map(el => {
          const r = el.getBoundingClientRect();
          const card = el.closest('.score-card').getBoundingClientRect();
          const t = el.closest('.score-card').querySelector('.total').getBoundingClientRect();
          const apart = r.right <= t.left || t.right <= r.left || r.bottom <= t.top
                        || t.bottom <= r.top;
          return {text: el.textContent, full: el.scrollWidth <= el.clientWidth,
                  inside: r.left >= card.left && r.right <= card.right, apart};
        })"""
    )
    return found


LONG_NAMES = [
    "Grandmother Josephine",
    "Bartholomew",
    "Cleo",
    "Uncle Maximilian",
    "Evangeline",
    "Fitzgerald Jr",
    "Gwendolyn",
    "Hieronymus",
]


def test_eight_players_on_a_phone_show_every_name_and_fit(page: Any, browser: Any) -> None:
    tab = page
    start_game(tab, LONG_NAMES)
    enter_round(tab, [13, 13, 10, 10, 6, 0, 0, 0])
    enter_moon(tab, shooter=3)
    enter_round(tab, [0, 0, 0, 0, 26, 0, 13, 13])
    for card in score_card_names(tab):
        assert card["full"] and card["inside"] and card["apart"], card
    assert [c["text"] for c in score_card_names(tab)] == LONG_NAMES
    heads = tab.locator("table.history thead .head-name").evaluate_all(
        "els => els.map(el => [el.textContent, el.scrollHeight <= el.clientHeight + 1])"
    )
    assert heads == [[name, True] for name in LONG_NAMES]
    # The history fits a phone: no sideways scrolling, so no sign is needed either.
    wrap = tab.locator(".table-wrap")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert tab.locator("[data-scroll-cue]").is_hidden()
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(tab, "scorekeeper-phone-8-players")
    # On a desktop the names are whole too.
    resize(tab, DESKTOP)
    for card in score_card_names(tab):
        assert card["full"] and card["inside"] and card["apart"], card
    screenshot(tab, "scorekeeper-desktop-8-players")


def test_a_table_too_wide_for_its_box_says_it_scrolls(page: Any) -> None:
    tab = page
    start_game(tab, [f"Player {i}" for i in range(1, 11)])
    enter_moon(tab, shooter=0)
    wrap = tab.locator(".table-wrap")
    cue = tab.locator("[data-scroll-cue]")
    for width in (390, 260):
        resize(tab, {"width": width, "height": 844})
        overflowing = wrap.evaluate("el => el.scrollWidth > el.clientWidth + 1")
        assert cue.is_visible() == overflowing, width
    assert cue.is_visible(), "at 260 px ten columns cannot fit"
    assert "swipe the table" in cue.inner_text()


def test_a_long_name_is_refused_with_a_reason_not_cut(page: Any) -> None:
    tab = page
    long = "Maximiliana Josephine Rose"
    tab.fill("#name-0", "Ana")
    tab.fill("#name-1", long)
    tab.fill("#name-2", "Cy")
    tab.fill("#name-3", "Dot")
    assert tab.locator("#name-1").input_value() == long
    tab.click("[data-action=start-game]")
    assert status(tab) == f"Player 2's name is {len(long)} letters long; keep names to 24."
    assert tab.locator("#name-1").get_attribute("aria-invalid") == "true"
    assert tab.locator("#name-0").get_attribute("aria-invalid") == "false"
    tab.fill("#name-1", "Maximiliana Josephine")
    tab.click("[data-action=start-game]")
    assert tab.locator("body").get_attribute("data-screen") == "game"


def team_totals(tab: Any) -> dict[str, int]:
    cards = tab.locator("[data-team]").evaluate_all(
        "els => els.map(el => [el.querySelector('.name').textContent,"
        " Number(el.querySelector('[data-total]').dataset.total)])"
    )
    return dict(cards)


def test_partnership_scores_by_team(page: Any) -> None:
    tab = page
    # Partnership is a four-player game: the choice is there for four names only.
    tab.click("[data-action=add-player]")
    assert tab.locator("[data-field=partnership]").is_hidden()
    tab.locator("[data-action=remove-player]").last.click()
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"], target="50", partnership="on")
    assert "partnership" in tab.locator("[data-region=rules]").inner_text()
    enter_round(tab, [5, 8, 13, 0])
    assert team_totals(tab) == {"Ana and Cy": 18, "Ben and Dot": 8}
    assert tab.locator("[data-leader]").get_attribute("data-leader") == "Ben and Dot"
    assert "Ben and Dot are ahead with 8." in plain(
        tab.locator("[data-region=summary]").inner_text()
    )
    # Partners who take every point card between them have shot the moon.
    enter_round(tab, [13, 0, 13, 0])
    assert "Ana and Cy took all 26 points between them" in status(tab)
    tab.click("[data-action=shoot-moon]")
    assert tab.locator("input[name=moon-shooter]").count() == 2
    tab.check("input[name=moon-shooter][value='0']")
    tab.click("[data-action=add-round]")
    assert "Ana and Cy shot the moon: Ben and Dot get 26 each." in status(tab)
    assert team_totals(tab) == {"Ana and Cy": 18, "Ben and Dot": 34}
    history = tab.locator("table.history thead").inner_text()
    assert "Ana and Cy" in history and "Ben and Dot" in history
    screenshot(tab, "scorekeeper-phone-partnership")
    enter_round(tab, [3, 10, 0, 13])
    winner = tab.locator("[data-winner]")
    assert winner.get_attribute("data-winner") == "Ana and Cy"
    assert "Ana and Cy win with 21." in plain(winner.inner_text())


def test_teams_level_are_told_apart(page: Any) -> None:
    # "Ana and Cy and Ben and Dot tie for the lowest total": which two were partners?
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"], target="50", partnership="on")
    enter_round(tab, [5, 8, 13, 0])
    enter_round(tab, [0, 13, 8, 5])
    assert team_totals(tab) == {"Ana and Cy": 26, "Ben and Dot": 26}
    summary = plain(tab.locator("[data-region=summary]").inner_text())
    assert "Ana and Cy, and Ben and Dot tie for the lowest total with 26." in summary, summary


def test_shooting_the_sun_counts_double(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"], sun="on")
    assert "the sun counts 52" in tab.locator("[data-region=rules]").inner_text()
    enter_moon(tab, shooter=1, sun=True)
    assert totals(tab) == [52, 0, 52, 52]
    assert "Ben shot the sun (every trick): everyone else gets 52." in status(tab)
    enter_moon(tab, shooter=2)
    assert totals(tab) == [78, 26, 52, 78]
    # Without the sun rule there is no sun to tick.
    tab.click("[data-action=new-game]")
    tab.click("[data-action=confirm-new-game]")
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"], sun="off")
    tab.click("[data-action=shoot-moon]")
    assert tab.locator("input[name=moon-sun]").count() == 0


def test_a_sun_with_the_bonus_card_marked_elsewhere_is_refused(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy"], sun="on", bonus="jack")
    # The sun is every trick: the jack of diamonds cannot be in Cy's.
    tab.click("[data-action=shoot-moon]")
    tab.check("input[name=moon-shooter][value='0']")
    tab.check("input[name=moon-sun]")
    tab.click("[data-action=toggle-bonus][data-index='2']")
    tab.click("[data-action=add-round]")
    assert history_rows(tab) == 0
    assert totals(tab) == [0, 0, 0]
    assert status(tab) == (
        "Not added: a sun takes every trick, so the jack of diamonds is Ana's, not Cy's: "
        "mark it beside Ana, or untick the sun."
    )
    # Beside the shooter it is scored; a moon (not every trick) may leave it elsewhere.
    tab.click("[data-action=toggle-bonus][data-index='0']")
    tab.click("[data-action=add-round]")
    assert totals(tab) == [-10, 52, 52]
    enter_moon(tab, shooter=1, bonus=[2])
    assert totals(tab) == [16, 52, 68]
    # With two decks and partners, both jacks belong to the team that took every trick.
    model = tab.evaluate(
        """async () => {
            const m = await import('/scorekeeper/model.js');
            const game = m.newGame(['Ana', 'Ben', 'Cy', 'Dot'],
                {...m.defaultSettings(4), partnership: true, sun: true, bonus: 'jack'});
            const sun = (bonus) => m.checkRound(game,
                {points: ['', '', '', ''], bonus, moon: {shooter: 1, sun: true}});
            const eight = m.newGame(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'],
                {...m.defaultSettings(8), sun: true, bonus: 'ten'});
            const two = m.checkRound(eight, {points: Array(8).fill(''),
                bonus: [1, 1, 0, 0, 0, 0, 0, 0], moon: {shooter: 0, sun: true}});
            // A game saved before the refusal keeps that round as it was added.
            const restored = m.restoreGame({version: 1, players: ['Ana', 'Ben', 'Cy'],
                settings: {...m.defaultSettings(3), sun: true, bonus: 'jack'},
                rounds: [{points: [0, 0, 0], bonus: [0, 0, 1],
                          moon: {shooter: 0, choice: null, sun: true}}]});
            return [sun([0, 0, 0, 1]).ok, sun([1, 0, 0, 0]).message, two.message,
                    restored.dropped, restored.game.rounds.length];
        }"""
    )
    assert model[3:] == [[], 1]
    assert model[0] is True
    assert plain(model[1]) == (
        "A sun takes every trick, so the jack of diamonds is the team's, not Ana's: "
        "mark it beside Ben or Dot, or untick the sun."
    )
    assert plain(model[2]) == (
        "A sun takes every trick, so both tens of diamonds are A's, not B's: "
        "mark them beside A, or untick the sun."
    )


def test_the_shooters_sensible_choice_is_preselected(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy"], target="50", moon="choose")
    for points in ([13, 1, 12], [13, 1, 12], [12, 0, 14]):
        enter_round(tab, points)
    assert totals(tab) == [38, 2, 38]
    tab.click("[data-action=shoot-moon]")
    # Ana: 26 to the others ends the game with Ben lowest, so taking 26 off is preselected.
    tab.check("input[name=moon-shooter][value='0']")
    assert moon_choice(tab) == "subtract"
    # Ben: 26 to the others ends the game with Ben winning.
    tab.check("input[name=moon-shooter][value='1']")
    assert moon_choice(tab) == "add"
    # Once the table picks, the page leaves the pick alone.
    tab.check("input[name=moon-choice][value=subtract]")
    tab.check("input[name=moon-shooter][value='0']")
    assert moon_choice(tab) == "subtract"
    tab.check("input[name=moon-shooter][value='1']")
    assert moon_choice(tab) == "subtract"
    tab.click("[data-action=add-round]")
    assert totals(tab) == [38, -24, 38]


def test_the_score_sheet_link_carries_the_games_passing(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"], passing="no-hold")
    # Both sheets are this table's (the rule sheet was four players' whatever the game).
    for kind in ("score", "rules"):
        href = tab.locator(f"[data-link={kind}-pdf]").get_attribute("href")
        game = "players=4&passing=no-hold&target=100&moon=add"
        if kind == "score":  # headed by the players' names
            game += "&name=Ana&name=Ben&name=Cy&name=Dot"
        assert href == f"/sheets/{kind}.pdf?{game}"
        a4 = tab.locator(f"[data-link={kind}-pdf-a4]").get_attribute("href")
        assert a4 == f"/sheets/{kind}.pdf?{game}&paper=a4"
        for link in (href, a4):
            response = tab.request.get(link)
            assert response.status == 200
            assert response.headers["content-type"] == "application/pdf"
    href = "/sheets/score.pdf?players=4&passing=no-hold"
    assert tab.request.get(href).body() != tab.request.get("/sheets/score.pdf?players=4").body()


def sheet_words(tab: Any, kind: str) -> str:
    """The text of the sheet the page's link of `kind` ("rules" or "score") gives."""
    href = tab.locator(f"[data-link={kind}-pdf]").get_attribute("href")
    response = tab.request.get(href)
    assert response.status == 200, (href, response.text())
    return re.sub(r" ([:.,])", r"\1", pdf_text(response.body()).lower())


def rules_link(tab: Any) -> str:
    return str(tab.locator("[data-link=rules-pdf]").get_attribute("href"))


def test_the_rule_sheet_link_prints_the_games_own_rules(page: Any) -> None:
    tab = page
    for i, name in enumerate(["Ana", "Ben", "Cy", "Dot"]):
        tab.fill(f"#name-{i}", name)
    tab.fill("[data-field=target]", "50")
    tab.check("input[name=moon-rule][value=choose]")
    tab.select_option("[data-field=bonus]", "jack")
    tab.set_checked("[data-field=sun]", True)
    # Before the first deal the sheets already follow the choices on the screen: a table
    # prints its rules while it sets the game up.
    game = "players=4&passing=standard&target=50&moon=choose&bonus=jack&sun=yes"
    assert tab.locator("[data-link=rules-pdf]").get_attribute("href") == f"/sheets/rules.pdf?{game}"
    tab.click("[data-action=start-game]")
    tab.wait_for_selector("body[data-screen=game]")
    assert tab.locator("[data-note=own-rules]").is_visible()  # the page says so
    for kind in ("rules", "score"):
        own = game + ("&name=Ana&name=Ben&name=Cy&name=Dot" if kind == "score" else "")
        assert tab.locator(f"[data-link={kind}-pdf]").get_attribute("href") == (
            f"/sheets/{kind}.pdf?{own}"
        )
        a4 = tab.locator(f"[data-link={kind}-pdf-a4]").get_attribute("href")
        assert a4 == f"/sheets/{kind}.pdf?{own}&paper=a4"
    rules = sheet_words(tab, "rules")
    for phrase in (
        "someone reaches 50 or more",
        "you choose: take 26 off your total, or every other player scores 26",
        "win every trick and you shoot the sun: it counts 52",
        "the jack of diamonds",
        "16 in all",
    ):
        assert phrase in rules, phrase
    assert "reaches 100" not in rules
    assert "you score 0 and every other player scores 26" not in rules
    score = sheet_words(tab, "score")
    assert "game to 50" in score and "moon rule shooter chooses" in score
    # A new game with other rules: the links follow the setup screen, then the new game.
    tab.click("[data-action=new-game]")
    tab.click("[data-action=confirm-new-game]")
    tab.wait_for_selector("body[data-screen=setup]")
    tab.fill("[data-field=target]", "75")
    tab.check("input[name=moon-rule][value=add]")
    tab.select_option("[data-field=bonus]", "none")
    tab.select_option("[data-field=tie]", "play-on")
    tab.set_checked("[data-field=sun]", False)
    tab.set_checked("[data-field=partnership]", True)
    again = "players=4&passing=standard&target=75&moon=add&tie=play-on&partnership=yes"
    assert (
        tab.locator("[data-link=rules-pdf]").get_attribute("href") == f"/sheets/rules.pdf?{again}"
    )
    # A target not typed yet: the table's sheet, without rules no game can have.
    tab.fill("[data-field=target]", "")
    assert tab.locator("[data-link=rules-pdf]").get_attribute("href") == (
        "/sheets/rules.pdf?players=4&passing=standard"
    )
    assert not tab.locator("[data-note=own-rules]").is_visible()
    tab.fill("[data-field=target]", "75")
    tab.click("[data-action=start-game]")
    tab.wait_for_selector("body[data-screen=game]")
    assert (
        tab.locator("[data-link=rules-pdf]").get_attribute("href") == f"/sheets/rules.pdf?{again}"
    )
    rules = sheet_words(tab, "rules")
    assert "someone reaches 75 or more" in rules
    assert "players tied for the lowest play on" in rules
    assert "your team shoots the moon" in rules
    assert "jack of diamonds" not in rules.split("more house rules")[0]


def test_every_passing_offered_is_the_one_the_sheets_print(page: Any) -> None:
    # The scorekeeper's choices at each table size, and the cycle each means there, are the
    # printed sheets' (one set of names for both, and games already saved keep theirs).
    offered = page.evaluate(
        """async ([low, high]) => {
          const m = await import('/scorekeeper/model.js');
          const out = {};
          for (let n = low; n <= high; n += 1) {
            out[n] = m.passingOptions(n).map((o) => [o.value, m.passCycle(n, o.value)]);
          }
          return out;
        }""",
        [MIN_PLAYERS, MAX_PLAYERS],
    )
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        choices = dict(offered[str(players)])
        for value, cycle in choices.items():
            printed = sheets.table_rules(players, value).pass_cycle
            assert (cycle or ["hold"]) == list(printed), (players, value)
        # Every cycle with someone across is offered at an even table, never at an odd one.
        across = {value for value, cycle in choices.items() if "across" in cycle}
        assert bool(across) == (players % 2 == 0), players
        if players % 2 == 0:
            assert any("scatter" in cycle for cycle in choices.values()), players


def test_six_players_can_pass_across_and_print_it(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot", "Eve", "Fay"], passing="across")
    href = tab.locator("[data-link=score-pdf]").get_attribute("href")
    names = "name=Ana&name=Ben&name=Cy&name=Dot&name=Eve&name=Fay"
    assert href == f"/sheets/score.pdf?players=6&passing=across&target=100&moon=add&{names}"
    assert tab.request.get(href).status == 200
    enter_round(tab, [26, 26, 0, 0, 0, 0])
    enter_round(tab, [0, 0, 26, 26, 0, 0])
    screenshot(tab, "scorekeeper-phone-6-players-across")
    # The third round passes across, and the sheet on screen says so.
    assert "across" in tab.locator("body").inner_text().lower()
    assert tab.evaluate(
        """async () => {
          const m = await import('/scorekeeper/model.js');
          const g = JSON.parse(localStorage.getItem('hearts.scorekeeper.v1')).game;
          return [0, 1, 2, 3].map((i) => m.passFor(g, i));
        }"""
    ) == ["left", "right", "across", "hold"]


LANDSCAPE = {"width": 844, "height": 390}


@pytest.mark.parametrize(("system", "chosen"), [("light", "dark"), ("dark", "light")])
def test_the_look_chosen_on_the_start_screen_is_the_scorekeepers_too(
    browser: Any, server: Server, system: str, chosen: str
) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server.url, color_scheme=system)
    try:
        tab = context.new_page()
        open_scorekeeper(tab)
        background = "getComputedStyle(document.documentElement).backgroundColor"
        own = tab.evaluate(background)
        # The start screen keeps the choice in this browser; the scorekeeper follows it,
        # at once in an open tab too.
        tab.evaluate(f"localStorage.setItem('hearts.theme', '{chosen}')")
        tab.reload()
        tab.wait_for_selector("body[data-ready=true]")
        assert tab.evaluate("document.documentElement.dataset.theme") == chosen
        shown = tab.evaluate(background)
        assert shown != own
        tab.emulate_media(media="print")  # paper is light whatever the look
        assert tab.evaluate(background) == "rgb(255, 255, 255)"
        assert tab.evaluate("getComputedStyle(document.documentElement).colorScheme") == "light"
        tab.emulate_media(media="screen")
        other = browser.new_context(viewport=PHONE, base_url=server.url, color_scheme=chosen)
        try:
            page = other.new_page()
            open_scorekeeper(page)
            assert page.evaluate(background) == shown  # as that system would show it
        finally:
            other.close()
        tab.evaluate("localStorage.removeItem('hearts.theme')")
        tab.reload()
        tab.wait_for_selector("body[data-ready=true]")
        assert tab.evaluate(background) == own
    finally:
        context.close()


def test_the_screens_fit_every_viewport_and_dark_mode(browser: Any, server: Server) -> None:
    """Phone portrait and landscape, desktop, dark: no sideways scroll, names whole.

    Also the screens docs/scorekeeper.md shows (with HEARTS_SCREENSHOT_DIR set).
    """
    backgrounds: dict[str, str] = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, base_url=server.url, color_scheme=scheme)
        tab = context.new_page()
        open_scorekeeper(tab)
        start_game(tab, ["Ana", "Ben", "Cleo", "Dev"], moon="choose", bonus="jack", sun="on")
        enter_round(tab, [13, 5, 6, 2], bonus=[3])
        enter_round(tab, [0, 26, 0, 0])  # refused: the page says to use the button
        backgrounds[scheme] = tab.evaluate(
            "getComputedStyle(document.documentElement).backgroundColor"
        )
        if scheme == "dark":
            assert backgrounds["dark"] != backgrounds["light"]
            screenshot(tab, "scorekeeper-phone-dark")
            context.close()
            continue
        screenshot(tab, "scorekeeper-phone-refused")
        tab.click("[data-action=shoot-moon]")
        tab.check("input[name=moon-shooter][value='1']")
        tab.check("input[name=moon-sun]")
        tab.click("[data-action=toggle-bonus][data-index='1']")
        screenshot(tab, "scorekeeper-phone-moon")
        tab.click("[data-action=add-round]")
        assert totals(tab) == [13 + 52, 5 - 10, 6 + 52, -8 + 52]
        for name, viewport in (("landscape", LANDSCAPE), ("desktop", DESKTOP)):
            resize(tab, viewport)
            assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            for card in score_card_names(tab):
                assert card["full"] and card["inside"] and card["apart"], card
            screenshot(tab, f"scorekeeper-{name}")
        tab.emulate_media(media="print")
        screenshot(tab, "scorekeeper-print")
        context.close()


# Names a phone must not cut inside a word: a hyphenated pair, a sign, right to left.
AWKWARD_NAMES = ["Ann", "Bartholomew-Maximilian X", "Zoë 🂡", "مريم", "Eve"]

# Each name as the lines it is laid out on, read character by character from the layout.
LINES_OF_TEXT = """els => els.map(el => {
  const lines = [];
  let middle = null;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let offset = 0;
    for (const ch of node.data) {
      const range = document.createRange();
      range.setStart(node, offset);
      range.setEnd(node, offset + ch.length);
      offset += ch.length;
      const r = range.getClientRects()[0];
      const m = r ? (r.top + r.bottom) / 2 : null;
      if (r && r.width > 0 && (middle === null || Math.abs(m - middle) > r.height / 2)) {
        lines.push("");
        middle = m;
      }
      if (!lines.length) lines.push("");
      lines[lines.length - 1] += ch;
    }
  }
  return lines;
})"""


def words_cut(lines: list[str]) -> list[str]:
    """The line ends that fall inside a word (after a hyphen is between words)."""
    return [
        f"{a}|{b}"
        for a, b in pairwise(lines)
        if a and b and not a[-1].isspace() and not a.endswith("-") and not b[0].isspace()
    ]


def test_names_wrap_between_words_never_inside_one(page: Any) -> None:
    tab = page
    start_game(tab, AWKWARD_NAMES, bonus="jack")  # the J♦ buttons leave the names less room
    enter_round(tab, [13, 5, 4, 2, 2], bonus=[1])
    enter_round(tab, [0, 13, 5, 4, 4], bonus=[4])
    places = (".entry-row label", "table.history thead .head-name", ".score-card .name")
    for name, viewport in (("phone", PHONE), ("landscape", LANDSCAPE), ("desktop", DESKTOP)):
        resize(tab, viewport)
        for place in places:
            laid_out = tab.locator(place).evaluate_all(LINES_OF_TEXT)
            assert ["".join(lines) for lines in laid_out] == AWKWARD_NAMES, (name, place)
            cut = [words_cut(lines) for lines in laid_out]
            assert cut == [[] for _ in AWKWARD_NAMES], (name, place, laid_out)
        assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"], name
        # Five players still fit a phone's history without scrolling sideways.
        assert tab.locator(".table-wrap").evaluate("el => el.scrollWidth <= el.clientWidth"), name
        screenshot(tab, f"scorekeeper-{name}-awkward-names")


def names_laid_out_whole(tab: Any, names: list[str]) -> None:
    """Every name on the cards and beside the boxes: all there, no word broken, on screen."""
    for place in (".score-card .name", ".entry-row label"):
        laid_out = tab.locator(place).evaluate_all(LINES_OF_TEXT)
        assert ["".join(lines) for lines in laid_out] == names, place
        cut = [words_cut(lines) for lines in laid_out]
        assert cut == [[] for _ in names], (place, tab.viewport_size, laid_out)
    for card in score_card_names(tab):
        assert card["full"] and card["inside"] and card["apart"], card
    assert tab.evaluate("document.documentElement.scrollWidth") <= tab.viewport_size["width"]


def test_a_word_wider_than_its_box_is_set_smaller_never_broken(page: Any) -> None:
    tab = page
    longest = "Wolfeschlegelsteinhausen"  # 24 letters, one word: wider than a card on a phone
    four = ["Ann", longest, "Cy", "Dot"]
    start_game(tab, four)
    names_laid_out_whole(tab, four)
    # Beside the boxes it takes the whole row.
    assert tab.locator(".entry-row label").nth(1).evaluate("el => el.offsetWidth") > 300
    # Seventeen letters in a column of two beside ten players' boxes, on every screen.
    ten = ["Christophersonson", "Bo", "Perpetua-Longname", "Dee", "Eve"]
    ten += ["Flo", "Gus", "Hal", "Ike", "Jo"]
    tab.click("[data-action=new-game]")
    tab.click("[data-action=confirm-new-game]")
    start_game(tab, ten)
    for viewport in (PHONE, LANDSCAPE, DESKTOP, PHONE):
        resize(tab, viewport)
        names_laid_out_whole(tab, ten)
    # Boxes hidden for a moon, the phone turned meanwhile: shown again, their names fit anew.
    tab.click("[data-action=shoot-moon]")
    resize(tab, LANDSCAPE)
    resize(tab, PHONE)
    tab.click("[data-action=cancel-moon]")
    names_laid_out_whole(tab, ten)


def points_in_boxes(tab: Any) -> list[str]:
    values: list[str] = tab.locator("[data-field=points]").evaluate_all(
        "els => els.map(e => e.value)"
    )
    return values


def test_points_typed_before_a_moon_are_not_shown_beside_it(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"], bonus="jack")
    for i, value in enumerate(["13", "5", "4", "3"]):
        tab.fill(f"#points-{i}", value)
    # With a bonus card the boxes stay in sight for its buttons: greyed numbers beside a
    # moon read as points that count. They are empty while the moon is on, and come back.
    tab.click("[data-action=shoot-moon]")
    assert points_in_boxes(tab) == ["", "", "", ""]
    tab.click("[data-action=cancel-moon]")
    assert points_in_boxes(tab) == ["13", "5", "4", "3"]
    tab.click("[data-action=shoot-moon]")
    tab.check("input[name=moon-shooter][value='1']")
    tab.click("[data-action=toggle-bonus][data-index='2']")
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert points_in_boxes(tab) == ["", "", "", ""]
    tab.click("[data-action=add-round]")
    assert totals(tab) == [26, 0, 16, 26]
    assert points_in_boxes(tab) == ["", "", "", ""]


def test_undo_asks_before_it_replaces_points_not_yet_added(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    enter_round(tab, [13, 5, 6, 2])
    enter_round(tab, [0, 13, 10, 3])
    for i, value in enumerate(("1", "2", "3")):
        tab.fill(f"#points-{i}", value)

    # Undo would put round 2 in the boxes over what was typed for round 3: it asks first.
    tab.click("[data-action=undo]")
    question = tab.locator("[data-panel=confirm-undo]")
    assert question.is_visible()
    assert question.locator("p").inner_text() == (
        "Undo round 2? The points in the boxes for round 3 are not added yet; "
        "round 2's points will replace them."
    )
    assert tab.evaluate("document.activeElement.dataset.action") == "cancel-undo"
    assert history_rows(tab) == 2
    assert points_in_boxes(tab) == ["1", "2", "3", ""]
    screenshot(tab, "scorekeeper-phone-undo-question")

    # Keeping the points changes nothing, and they still survive a reload.
    tab.click("[data-action=cancel-undo]")
    assert question.is_hidden()
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert history_rows(tab) == 2
    assert points_in_boxes(tab) == ["1", "2", "3", ""]

    # Saying yes undoes the round and puts its points in the boxes to fix.
    tab.click("[data-action=undo]")
    tab.click("[data-action=confirm-undo]")
    assert question.is_hidden()
    assert history_rows(tab) == 1
    assert totals(tab) == [13, 5, 6, 2]
    assert points_in_boxes(tab) == ["0", "13", "10", "3"]
    assert status(tab) == "Round 2 taken back; its points are in the boxes to fix."

    # With the boxes empty there is nothing to lose: Undo acts at once.
    for i in range(4):
        tab.fill(f"#points-{i}", "")
    tab.click("[data-action=undo]")
    assert question.is_hidden()
    assert history_rows(tab) == 0
    assert points_in_boxes(tab) == ["13", "5", "6", "2"]


def in_view(tab: Any, selector: str) -> bool:
    """Whether the element's whole box is on the screen, not scrolled off or past an edge
    (to the pixel: a box scrolled to the top may sit a fraction of one above it)."""
    box = tab.locator(selector).bounding_box()
    size = tab.viewport_size
    return bool(
        box
        and box["y"] > -1
        and box["x"] > -1
        and box["y"] + box["height"] < size["height"] + 1
        and box["x"] + box["width"] < size["width"] + 1
    )


def test_storage_that_fails_is_said_after_every_message_until_it_works(page: Any) -> None:
    # The warning was written, then wiped at once by the message about the round.
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    unsaved = "This browser is not keeping the scores (storage is off or full)"
    tab.evaluate(
        """() => { window.realSetItem = Storage.prototype.setItem;
                   Storage.prototype.setItem = () => { throw new Error('full'); }; }"""
    )
    tab.fill("#points-0", "13")
    assert unsaved in status(tab)
    enter_round(tab, [13, 5, 6, 2])
    assert status(tab).startswith("Round 1 added.") and unsaved in status(tab)
    assert tab.locator("[role=status]").get_attribute("data-kind") == "error"
    tab.evaluate("() => { Storage.prototype.setItem = window.realSetItem; }")
    enter_round(tab, [0, 13, 10, 3])
    assert status(tab) == "Round 2 added."


def test_the_bonus_card_marked_after_the_shooter_moves_the_sensible_choice(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy"], moon="choose", bonus="jack")
    for jack in (2, 2, 1, 1):
        enter_round(tab, [20, 6, 0], bonus=[jack])
    assert totals(tab) == [80, 4, -20]
    tab.click("[data-action=shoot-moon]")
    tab.check("input[name=moon-shooter][value='1']")
    # 26 to the others: Ana 106 ends the game with Ben lowest.
    assert moon_choice(tab) == "add"
    # With the jack Cy would end it lowest (-4): taking 26 off Ben is the choice now.
    tab.click("[data-action=toggle-bonus][data-index='2']")
    assert moon_choice(tab) == "subtract"
    tab.click("[data-action=add-round]")
    assert totals(tab) == [80, -22, -30]
    assert tab.locator("body").get_attribute("data-over") == "false"


def test_the_sun_box_keeps_the_focus_when_ticked_by_keyboard(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"], moon="choose", sun="on")
    tab.click("[data-action=shoot-moon]")
    tab.check("input[name=moon-shooter][value='2']")
    tab.focus("input[name=moon-sun]")
    tab.keyboard.press("Space")
    assert tab.locator("input[name=moon-sun]").is_checked()
    assert tab.evaluate("document.activeElement.name") == "moon-sun"
    # The next arrow key goes to the moon's choice, not back to the shooter.
    tab.keyboard.press("Tab")
    assert tab.evaluate("document.activeElement.name") == "moon-choice"
    assert tab.locator("input[name=moon-shooter][value='2']").is_checked()


def test_a_refused_start_says_why_under_the_marked_box_on_a_phone(page: Any) -> None:
    tab = page
    for i, name in enumerate(("Ann", "Bob", "bob", "Dan")):
        tab.fill(f"#name-{i}", name)
    tab.click("[data-action=start-game]")
    reason = 'Two players are called "bob"; give each a different name.'
    problem = tab.locator(".name-row:nth-child(3) .field-problem")
    assert plain(problem.inner_text()) == reason and in_view(tab, ".field-problem")
    assert tab.locator("#name-2").get_attribute("aria-describedby") == "setup-problem name-limit"
    assert tab.evaluate("document.activeElement.id") == "name-2"
    screenshot(tab, "scorekeeper-phone-refused-name")
    # The next refusal moves the reason to its own box, and the name's box is itself again.
    tab.fill("#name-2", "Cy")
    tab.fill("[data-field=target]", "0")
    tab.click("[data-action=start-game]")
    assert tab.locator(".field-problem").count() == 1
    assert "target score must be a whole number" in tab.locator(".field-problem").inner_text()
    assert in_view(tab, ".field-problem")
    assert tab.locator("#name-2").get_attribute("aria-describedby") == "name-limit"
    tab.fill("[data-field=target]", "100")
    tab.click("[data-action=start-game]")
    tab.wait_for_selector("body[data-screen=game]")


def test_after_a_round_the_totals_stay_in_sight_on_a_phone(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    for viewport in (PHONE, {"width": PHONE["height"], "height": PHONE["width"]}):
        resize(tab, viewport)
        tab.evaluate("() => scrollTo(0, document.body.scrollHeight)")
        enter_round(tab, [13, 5, 6, 2])
        assert in_view(tab, "[data-region=summary]"), viewport
        assert tab.evaluate("document.activeElement.id") == "points-0"


def test_new_game_asks_with_the_safe_answer_first(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    enter_round(tab, [13, 5, 6, 2])
    tab.click("[data-action=new-game]")
    assert tab.evaluate("document.activeElement.dataset.action") == "cancel-new-game"
    tab.keyboard.press("Enter")
    assert tab.locator("[data-panel=confirm-new]").is_hidden()
    assert tab.evaluate("document.activeElement.dataset.action") == "new-game"
    assert history_rows(tab) == 1


def test_names_a_person_sees_as_short_are_short(page: Any) -> None:
    tab = page
    family = (
        "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # one emoji, 7 code points
    )
    long = "Bartholomewwwwwwwwwwwwww"
    start_game(tab, [family * 5, "Ben", long])
    enter_round(tab, [20, 6, 0])
    # The one-word name leads: its line breaks at the edge instead of running off it.
    assert long in plain(tab.locator(".headline").inner_text())
    assert in_view(tab, ".headline")
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Each box is named by its player and what goes in it.
    assert tab.get_by_label("Ben points").count() == 1


def test_offline_the_sheets_say_they_need_the_connection(page: Any) -> None:
    tab = page
    note = tab.locator("[data-note=offline]")
    assert note.is_hidden()
    tab.context.set_offline(True)
    tab.wait_for_selector("[data-note=offline]:not([hidden])")
    assert note.inner_text() == "This device is offline: the sheets open once it is back online."
    tab.context.set_offline(False)
    tab.wait_for_selector("[data-note=offline][hidden]", state="attached")
    assert tab.get_by_label("Score sheet, PDF, A4").count() == 1


def test_a_round_played_before_is_fixed_and_the_rounds_after_it_scored_again(page: Any) -> None:
    # Only the last round could be taken back: a slip in round 2 found at round 4 meant
    # undoing rounds 4 and 3 and typing them again from memory.
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"], target="50")
    enter_round(tab, [13, 5, 6, 2])
    enter_round(tab, [0, 13, 10, 3])
    enter_round(tab, [2, 2, 20, 2])
    for i, value in enumerate(("1", "2")):
        tab.fill(f"#points-{i}", value)  # round 4 under way: left alone by the fix
    # The keep round's line says "Round 4" on one line (it broke as "Round / 4").
    lines = tab.eval_on_selector(
        ".next-pass .round-no",
        "e => e.getClientRects().length === 1 ? Math.round(e.getBoundingClientRect().height"
        " / parseFloat(getComputedStyle(e).lineHeight)) : -1",
    )
    assert lines == 1, lines
    tab.get_by_role("button", name="Fix round 2 (Right)").click()
    assert tab.locator("#entry-title").inner_text() == "Fix round 2"
    assert points_in_boxes(tab) == ["0", "13", "10", "3"]
    assert tab.locator("tr.fixing").get_attribute("data-round") == "2"
    assert tab.evaluate("document.activeElement.id") == "points-0"
    screenshot(tab, "scorekeeper-phone-fix-round")

    # A fix that does not add up is refused like a round, and nothing changes.
    tab.fill("#points-1", "26")
    tab.click("[data-action=add-round]")
    assert status(tab).startswith("Not saved: ")
    assert totals(tab) == [15, 20, 36, 7]

    # Ben took 3, Dev 13: the totals after it follow.
    tab.fill("#points-1", "3")
    tab.fill("#points-3", "13")
    tab.click("[data-action=add-round]")
    assert status(tab) == "Round 2 fixed; the totals after it are worked out again."
    assert totals(tab) == [15, 10, 36, 17]
    assert history_rows(tab) == 3
    assert tab.locator("#entry-title").inner_text() == "Points in round 4"
    assert points_in_boxes(tab) == ["1", "2", "", ""]
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert totals(tab) == [15, 10, 36, 17]

    # "Keep it as it was" leaves the round alone and goes back to the round under way.
    tab.get_by_role("button", name="Fix round 1 (Left)").click()
    tab.fill("#points-0", "0")
    tab.fill("#points-2", "19")
    tab.click("[data-action=cancel-fix]")
    assert totals(tab) == [15, 10, 36, 17]
    assert tab.locator("#entry-title").inner_text() == "Points in round 4"
    assert tab.evaluate("document.activeElement.dataset.action") == "fix-round"


def test_a_fix_under_way_is_kept_across_a_reload_of_its_tab(page: Any) -> None:
    # A phone puts a tab in the background to sleep and reloads it when it comes back: the
    # points typed into a fix were lost with it.
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    for points in ([13, 5, 6, 2], [0, 13, 10, 3], [2, 2, 20, 2]):
        enter_round(tab, points)
    tab.fill("#points-0", "1")  # round 4 under way
    tab.get_by_role("button", name="Fix round 2 (Right)").click()
    tab.fill("#points-1", "3")
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert tab.locator("#entry-title").inner_text() == "Fix round 2"
    assert points_in_boxes(tab) == ["0", "3", "10", "3"]
    assert tab.locator("tr.fixing").get_attribute("data-round") == "2"
    assert status(tab) == ("Round 2's fix is as you left it: save it, or keep the round as it was.")
    tab.fill("#points-3", "13")
    tab.click("[data-action=add-round]")
    assert status(tab) == "Round 2 fixed; the totals after it are worked out again."
    assert totals(tab) == [15, 10, 36, 17]
    # Saved, it is over: a reload shows the round under way, as typed.
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert tab.locator("#entry-title").inner_text() == "Points in round 4"
    assert points_in_boxes(tab) == ["1", "", "", ""]
    assert status(tab) == ""

    # A fix whose rounds changed while the tab was away (another tab fixed round 1) is left.
    tab.get_by_role("button", name="Fix round 2 (Right)").click()
    tab.fill("#points-1", "4")
    tab.evaluate(
        """() => {
            const saved = JSON.parse(localStorage.getItem("hearts.scorekeeper.v1"));
            saved.game.rounds[0].points = [13, 6, 5, 2];
            localStorage.setItem("hearts.scorekeeper.v1", JSON.stringify(saved));
        }"""
    )
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    assert tab.locator("#entry-title").inner_text() == "Points in round 4"
    assert tab.locator("tr.fixing").count() == 0


def test_a_fix_that_ends_the_game_before_later_rounds_is_refused(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy"], target="50")
    enter_round(tab, [25, 1, 0])
    enter_round(tab, [20, 6, 0])
    enter_round(tab, [0, 10, 16])
    tab.get_by_role("button", name="Fix round 2 (Right)").click()
    tab.fill("#points-0", "25")
    tab.fill("#points-1", "1")
    tab.click("[data-action=add-round]")
    assert tab.locator("#entry-title").inner_text() == "Fix round 2"
    assert totals(tab) == [45, 17, 16]
    assert status(tab) == (
        "Not saved: with these points the game ends after round 2, so round 3 could not"
        " have been played: undo it first."
    )


def test_the_page_works_its_moon_choice_out_again_after_a_reload(page: Any) -> None:
    # The choice the page made was saved with the boxes and, read back, taken for the
    # table's own: the bonus card marked after a reload no longer moved it.
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy"], moon="choose", bonus="jack")
    for jack in (2, 2, 1, 1):
        enter_round(tab, [20, 6, 0], bonus=[jack])
    tab.click("[data-action=shoot-moon]")
    tab.check("input[name=moon-shooter][value='1']")
    assert moon_choice(tab) == "add"
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    tab.click("[data-action=toggle-bonus][data-index='2']")
    assert moon_choice(tab) == "subtract"
    # The table's own pick stays its own after a reload.
    tab.check("input[name=moon-choice][value=add]")
    tab.reload()
    tab.wait_for_selector("body[data-ready=true]")
    tab.click("[data-action=toggle-bonus][data-index='2']")
    assert moon_choice(tab) == "add"


def test_a_fix_left_by_undo_another_round_or_another_tab_is_said(
    page: Any, browser: Any, server: Server
) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    for points in ([13, 5, 6, 2], [0, 13, 10, 3], [2, 2, 20, 2]):
        enter_round(tab, points)
    # Another round's number, mid-fix with a change: the change is said to be left.
    tab.get_by_role("button", name="Fix round 1 (Left)").click()
    tab.fill("#points-1", "4")
    tab.get_by_role("button", name="Fix round 2 (Right)").click()
    assert status(tab).endswith(" The changes to round 1 were not saved.")
    # Undo, mid-fix with a change (it asks first): the same.
    tab.fill("#points-0", "1")
    tab.click("[data-action=undo]")
    tab.click("[data-action=confirm-undo]")
    assert status(tab) == (
        "Round 3 taken back; its points are in the boxes to fix."
        " The changes to round 2 were not saved."
    )
    enter_round(tab, [2, 2, 20, 2])
    # Another tab: typing a point leaves the fix here alone; fixing the same round does not.
    other = tab.context.new_page()
    open_scorekeeper(other)
    tab.get_by_role("button", name="Fix round 1 (Left)").click()
    tab.fill("#points-1", "4")
    other.fill("#points-0", "5")
    tab.wait_for_function("() => document.querySelector('#points-0').value === '13'")
    assert tab.locator("#entry-title").inner_text() == "Fix round 1"
    assert points_in_boxes(tab)[:2] == ["13", "4"]
    other.get_by_role("button", name="Fix round 1 (Left)").click()
    other.fill("#points-1", "7")
    other.fill("#points-2", "4")
    other.click("[data-action=add-round]")
    assert other.locator("#entry-title").inner_text() == "Points in round 4"
    tab.wait_for_function(
        "() => document.querySelector('#entry-title').textContent !== 'Fix round 1'"
    )
    assert status(tab) == "Another tab changed the game, so the fix of round 1 here was left."
    assert totals(tab)[:3] == [15, 22, 34]


def test_a_round_added_or_taken_back_in_another_tab_is_said_here(page: Any) -> None:
    # The first tab kept saying "✓ Round 2 added." after another tab had taken it back.
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    enter_round(tab, [13, 5, 6, 2])
    enter_round(tab, [0, 13, 10, 3])
    assert "Round 2 added" in status(tab)
    other = tab.context.new_page()
    open_scorekeeper(other)
    other.click("[data-action=undo]")
    tab.wait_for_function("() => !document.querySelector('[role=status]').textContent"
                          ".includes('added')")  # fmt: skip
    assert (
        status(tab) == "Round 2 was taken back in another tab; its points are in the boxes to fix."
    )
    assert points_in_boxes(tab) == ["0", "13", "10", "3"]
    other.click("[data-action=add-round]")
    tab.wait_for_function("() => document.querySelector('[role=status]').textContent"
                          ".includes('another tab')"
                          " && document.querySelector('[role=status]').textContent"
                          ".includes('added')")  # fmt: skip
    assert status(tab) == "Round 2 was added in another tab."
    # A moon taken back there is a moon here too: no points in the boxes, the shooter picked.
    enter_moon(other, shooter=2)
    tab.wait_for_function("() => document.querySelector('[role=status]').textContent"
                          ".includes('Round 3 was added')")  # fmt: skip
    other.click("[data-action=undo]")
    tab.wait_for_function("() => document.querySelector('[role=status]').textContent"
                          ".includes('Round 3 was taken back')")  # fmt: skip
    assert status(tab) == (
        "Round 3 was taken back in another tab; it was a moon: fix who shot it, or press “Not a"
        " moon” to type the points."
    )
    assert tab.locator("input[name=moon-shooter][value='2']").is_checked()
    assert totals(tab) == [13, 18, 16, 5]


def test_a_refused_round_is_said_in_one_sentence_with_names_as_typed(page: Any) -> None:
    # "Not added: These add up to 25; ..." read as two sentences run together: the check's
    # words go on in lower case after the colon, but a name keeps its capital.
    tab = page
    start_game(tab, ["Ana", "ben", "Cleo", "Dev"])
    enter_round(tab, [13, 5, 6, 1])
    assert status(tab) == "Not added: these add up to 25; a round holds 26 (1 missing)."
    screenshot(tab, "scorekeeper-not-added")
    enter_round(tab, [26, 0, 0, 0])
    assert status(tab) == (
        # (in the curly quotes of the rest of the page's words: it used straight ones)
        "Not added: Ana took all 26 points: that is shooting the moon. Use “Shot the moon” to"
        " score it."
    )
    enter_round(tab, [0, 26, 0, 0])
    assert status(tab).startswith("Not added: ben took all 26 points")
    tab.fill("#points-1", "13x")
    tab.click("[data-action=add-round]")
    assert status(tab) == "Not added: ben's points must be a whole number from 0 to 26."
    assert history_rows(tab) == 0


def test_undos_question_clears_the_line_about_a_refused_round(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    enter_round(tab, [13, 5, 6, 2])
    enter_round(tab, [1, 2, 3, 4])
    assert status(tab).startswith("Not added: ")
    tab.click("[data-action=undo]")
    assert tab.locator("[data-panel=confirm-undo]").is_visible()
    assert tab.locator("[role=status]").is_hidden()


def saved_draft(tab: Any) -> Any:
    return tab.evaluate("() => JSON.parse(localStorage.getItem('hearts.scorekeeper.v1')).draft")


def test_boxes_drawn_again_for_another_tab_never_save_what_they_held(page: Any) -> None:
    # Chromium fires `change` at a box that had the cursor and an edit as the page takes it
    # away: the old boxes saved themselves over the other tab's, and wiped the status line.
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    other = tab.context.new_page()
    open_scorekeeper(other)
    tab.click("#points-0")
    tab.keyboard.type("7")
    tab.click("#points-1")
    tab.keyboard.type("9")  # the cursor stays in Ben's box
    other.wait_for_function("() => document.querySelector('#points-1').value === '9'")
    enter_round(other, [13, 5, 4, 4])
    assert status(other) == "Round 1 added."
    assert totals(other) == [13, 5, 4, 4]
    tab.wait_for_function("() => document.querySelector('[data-total]').dataset.total === '13'")
    assert points_in_boxes(tab) == ["", "", "", ""]
    assert points_in_boxes(other) == ["", "", "", ""]
    assert saved_draft(tab)["points"] == ["", "", "", ""]

    # A fix under way, with the cursor in a changed box, left for the other tab's Undo: said.
    enter_round(other, [0, 13, 10, 3])
    tab.get_by_role("button", name="Fix round 2 (Right)").click()
    tab.click("#points-0")
    tab.keyboard.type("2")
    other.click("[data-action=undo]")
    tab.wait_for_function(
        "() => document.querySelector('#entry-title').textContent !== 'Fix round 2'"
    )
    assert status(tab) == "Another tab changed the game, so the fix of round 2 here was left."
    assert points_in_boxes(tab) == ["0", "13", "10", "3"]
    assert saved_draft(tab)["points"] == ["0", "13", "10", "3"]


STORAGE_OFF = """for (const name of ['localStorage', 'sessionStorage']) {
  Object.defineProperty(window, name, {
    get() { throw new DOMException('The user denied storage.', 'SecurityError'); },
  });
}"""


def test_storage_turned_off_is_said_from_the_start_not_a_saved_game_unread(
    browser: Any, server: Server
) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server.url)
    context.add_init_script(STORAGE_OFF)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    open_scorekeeper(tab)
    unsaved = (
        "This browser is not keeping the scores (storage is off or full); a reload would lose them."
    )
    assert status(tab) == unsaved
    assert tab.locator("body").get_attribute("data-screen") == "setup"
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    enter_round(tab, [13, 5, 6, 2])
    assert status(tab) == f"Round 1 added. {unsaved}"
    assert totals(tab) == [13, 5, 6, 2]
    context.close()
    assert errors == []


def test_a_damaged_save_is_refused_or_its_damaged_part_dropped(page: Any) -> None:
    tab = page
    fresh = "The saved game could not be read, so this is a fresh start."
    # Rules or players that are no choice of the page's: refused, never a blank page.
    edits: list[tuple[list[str | int], Any]] = [
        (["game", "settings", "moonRule"], "toString"),
        (["game", "settings", "bonus"], "constructor"),
        (["game", "settings", "tie"], "__proto__"),
        (["game", "players", 0], {"a": 1}),
    ]
    for path, value in edits:
        start_game(tab, ["Ana", "Ben", "Cy"])
        enter_round(tab, [13, 13, 0])
        edit_save(tab, path, value)
        assert tab.locator("body").get_attribute("data-screen") == "setup", path
        assert status(tab) == fresh, path
        assert "[object Object]" not in page_words(tab)
    # A round with a point for a player who is not at the table is left out, and said.
    start_game(tab, ["Ana", "Ben", "Cy"], bonus="jack")
    enter_round(tab, [13, 13, 0], bonus=[2])
    enter_round(tab, [0, 13, 13], bonus=[0])
    edit_save(tab, ["game", "rounds", 1, "points"], [0, 13, 13, 0, 0])
    assert status(tab) == (
        "Round 2 of the saved game did not add up, so it was left out; the other rounds are kept."
    )
    assert history_rows(tab) == 1
    assert totals(tab) == [13, 13, -10]
    # Boxes saved in a shape no round has are left empty, not shown as "J♦ −NaN".
    tab.fill("#points-0", "1")
    edit_save(tab, ["draft"], {"points": ["1", "2", "3"], "bonus": "x", "moon": 5})
    assert points_in_boxes(tab) == ["", "", ""]
    assert "NaN" not in page_words(tab)
    assert tab.locator("[data-action=toggle-bonus]").all_inner_texts() == ["J♦", "J♦", "J♦"]
    assert tab.locator("[data-panel=moon]").is_hidden()


def test_undo_asks_about_a_fix_under_way_before_it_throws_it_away(page: Any) -> None:
    tab = page
    start_game(tab, ["Ana", "Ben", "Cleo", "Dev"])
    for points in ([13, 5, 6, 2], [0, 13, 10, 3], [2, 2, 20, 2]):
        enter_round(tab, points)
    question = tab.locator("[data-panel=confirm-undo]")
    # A changed fix, nothing typed for the next round: Undo asks, and speaks of the fix.
    tab.get_by_role("button", name="Fix round 1 (Left)").click()
    tab.fill("#points-1", "4")
    tab.fill("#points-2", "7")
    tab.click("[data-action=undo]")
    assert question.locator("p").inner_text() == (
        "Undo round 3? The changes to round 1 in the boxes are not saved yet; "
        "round 3's points will replace them."
    )
    keep = tab.locator("[data-action=cancel-undo]")
    assert keep.inner_text() == "Keep my changes"  # a fix's boxes are changes, not points
    tab.click("[data-action=cancel-undo]")
    assert history_rows(tab) == 3
    assert tab.locator("#entry-title").inner_text() == "Fix round 1"
    assert points_in_boxes(tab) == ["13", "4", "7", "2"]
    # Points typed for round 4, and a fix begun over them: the question says both.
    tab.click("[data-action=cancel-fix]")
    tab.fill("#points-0", "1")
    tab.get_by_role("button", name="Fix round 2 (Right)").click()
    tab.click("[data-action=undo]")
    assert question.locator("p").inner_text() == (
        "Undo round 3? The points typed for round 4 are not added yet; "
        "round 3's points will replace them, and the fix of round 2 will be left."
    )
    assert keep.inner_text() == "Keep my points"
    tab.click("[data-action=cancel-undo]")
    tab.fill("#points-3", "4")
    tab.click("[data-action=undo]")
    assert question.locator("p").inner_text() == (
        "Undo round 3? The changes to round 2 are not saved yet, nor the points typed for "
        "round 4; round 3's points will replace them."
    )
    assert keep.inner_text() == "Keep what I typed"
    tab.click("[data-action=confirm-undo]")
    assert history_rows(tab) == 2
    assert points_in_boxes(tab) == ["2", "2", "20", "2"]
    assert status(tab) == (
        "Round 3 taken back; its points are in the boxes to fix."
        " The changes to round 2 were not saved."
    )
    # A fix with nothing changed, nothing typed for the next round: nothing to lose, no question.
    for i in range(4):
        tab.fill(f"#points-{i}", "")
    tab.get_by_role("button", name="Fix round 1 (Left)").click()
    tab.click("[data-action=undo]")
    assert question.is_hidden()
    assert history_rows(tab) == 1


# --- names written right to left --------------------------------------------------------------

#: Names as people type them: Arabic, Hebrew, one that ends in Arabic after a card, and a
#: name with a number (the game's own test names are the same kind).
RTL_NAMES = ["سارة", "מרים", "Ana 🂡 مرحبا", "Tom 2"]


def reading_order(tab: Any, selector: str, parts: Sequence[str]) -> list[bool]:
    """For each pair of `parts` of the text in `selector` (first occurrences, in that order),
    whether the second reads after the first as the browser drew them (`reads_after`). A
    part must not run onto a second line: its box would be both lines'."""
    from test_names_browser import boxes, reads_after

    found = boxes(tab, selector, *parts)
    return [reads_after(first, then) for first, then in pairwise(found)]


def test_right_to_left_names_keep_their_places_in_every_line(page: Any) -> None:
    # Two right-to-left names side by side ("سارة, מרים and ...") were drawn as one run
    # written right to left: the page read "מרים ,سارة", the second player first. Each
    # name is set apart now, as the game's are, so the line reads in the order it was said.
    tab = page
    arabic, hebrew, mixed, digits = RTL_NAMES
    start_game(tab, RTL_NAMES, target="14")
    assert [plain(name) for name in tab.locator(".score-card .name").all_inner_texts()] == (
        RTL_NAMES
    )
    enter_round(tab, [13, 6, 7, 0])
    enter_round(tab, [0, 7, 6, 13])
    headline = ".headline"
    said = f"{arabic}, {hebrew}, {mixed} and {digits} tie for the lowest total with 13."
    assert plain(tab.locator(headline).inner_text()) == said
    order = reading_order(tab, headline, [*RTL_NAMES, "tie for"])
    assert order == [True] * 4, order
    # The dealer of round 3, and each card's total under its name.
    assert plain(tab.locator(".dealer").inner_text()) == f"{mixed} deals"
    for card in tab.locator(".score-card").all():
        name, total = card.locator(".name").bounding_box(), card.locator(".total").bounding_box()
        assert name and total and total["y"] >= name["y"] + name["height"] - 1, (name, total)
    for viewport, size in (("phone", PHONE), ("desktop", {"width": 1280, "height": 800})):
        resize(tab, size)
        screenshot(tab, f"scorekeeper-rtl-names-tie-{viewport}")
    resize(tab, PHONE)
    # Three of them reach the target: the line that says so, and the winner's.
    enter_round(tab, [13, 6, 7, 0])
    over = ".game-over > p:first-child"
    reached = f"The game ended after round 3: {arabic}, {hebrew} and {mixed} reached 14."
    assert plain(tab.locator(over).inner_text()).startswith(reached)
    order = reading_order(tab, over, [": ", arabic, hebrew, mixed, "reached"])
    assert order == [True] * 4
    assert f"Round 3 added. Game over: {digits} wins." in status(tab)
    assert f"{digits} wins with 13." in plain(tab.locator("[data-winner]").inner_text())
    for viewport, size in (("phone", PHONE), ("desktop", {"width": 1280, "height": 800})):
        resize(tab, size)
        screenshot(tab, f"scorekeeper-rtl-names-over-{viewport}")


def bonus_marks(tab: Any) -> list[int]:
    """The copies of the bonus card each player's button has marked, read from its label."""
    labels = tab.locator("[data-action=toggle-bonus]").evaluate_all(
        "els => els.map(b => b.getAttribute('aria-pressed') === 'true' ? b.textContent : '')"
    )
    return [0 if not text else int(text.rsplit("−", 1)[1]) // 10 for text in labels]


def test_one_deck_offers_one_jack_of_diamonds_and_moves_it(page: Any) -> None:
    # Every seat's J♦ could be marked at once: the refusal came only at "Add round".
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot"], bonus="jack")
    for seat, marks in ((0, [1, 0, 0, 0]), (2, [0, 0, 1, 0]), (2, [0, 0, 0, 0]), (3, [0, 0, 0, 1])):
        tab.click(f"[data-action=toggle-bonus][data-index='{seat}']")
        assert bonus_marks(tab) == marks, (seat, marks)
    assert tab.locator("[data-action=toggle-bonus]:disabled").count() == 0  # it moves instead
    tab.click("[data-action=toggle-bonus][data-index='1']")
    enter_round(tab, [13, 5, 6, 2])
    assert totals(tab) == [13, -5, 6, 2]
    assert "Hearts 1 each, queen of spades 13: a round holds 26." in page_words(tab)


def test_two_decks_offer_two_jacks_of_diamonds_in_all(page: Any) -> None:
    # With two decks every seat's button went 0, 1, 2: eight jacks could be marked.
    tab = page
    start_game(tab, ["Ana", "Ben", "Cy", "Dot", "Eve", "Flo", "Gus", "Hal"], bonus="jack")
    # The hint gives the two-deck round: both queens, 52 ("queen of spades 13: ... 52").
    assert "Hearts 1 each, both queens of spades 13 each: a round holds 52." in page_words(tab)
    for seat in range(8):
        tab.click(f"[data-action=toggle-bonus][data-index='{seat}']", force=True)
    assert bonus_marks(tab) == [1, 1, 0, 0, 0, 0, 0, 0]
    free = tab.locator("[data-action=toggle-bonus]:disabled")
    assert free.count() == 6  # nothing left to offer the others
    assert "tap one of those to take it back first" in (free.first.get_attribute("title") or "")
    tab.click("[data-action=toggle-bonus][data-index='0']")  # taken back: 0, not a second
    assert bonus_marks(tab) == [0, 1, 0, 0, 0, 0, 0, 0]
    assert tab.locator("[data-action=toggle-bonus]:disabled").count() == 0
    tab.click("[data-action=toggle-bonus][data-index='1']")
    assert bonus_marks(tab) == [0, 2, 0, 0, 0, 0, 0, 0]  # one player may take both
    tab.click("[data-action=toggle-bonus][data-index='1']")
    assert bonus_marks(tab) == [0, 0, 0, 0, 0, 0, 0, 0]
    enter_round(tab, [26, 26, 0, 0, 0, 0, 0, 0], bonus=[4, 4])
    assert totals(tab) == [26, 26, 0, 0, -20, 0, 0, 0]


# --- words a table reads one way: "leads", and a moon taken back -----------------------------

#: The three screens these words are looked at on: a phone held upright and sideways, a desktop.
WORD_SCREENS = screens("phone", "phone-landscape", "desktop")


def badges(tab: Any) -> list[dict[str, Any]]:
    """Each score card's badge: its words, and whether it sits whole inside its card, clear
    of the name and the total."""
    found: list[dict[str, Any]] = tab.locator(".score-card .badge").evaluate_all(
        """els => els.map(el => {
          const r = el.getBoundingClientRect();
          const card = el.closest('.score-card');
          const c = card.getBoundingClientRect();
          const apart = (o) => r.right <= o.left || o.right <= r.left || r.bottom <= o.top
                               || o.bottom <= r.top;
          return {text: el.textContent,
                  inside: r.left >= c.left && r.right <= c.right && r.top >= c.top
                          && r.bottom <= c.bottom,
                  apart: apart(card.querySelector('.name').getBoundingClientRect())
                         && apart(card.querySelector('.total').getBoundingClientRect()),
                  whole: el.scrollWidth <= el.clientWidth && r.height < 30};
        })"""
    )
    return found


def test_the_lowest_total_is_ahead_never_said_to_lead(page: Any) -> None:
    # "Dov leads with 0." and a "Leads" badge beside "Ann deals" read, at a table, as who
    # plays the first card: in Hearts that is what "lead" means.
    tab = page
    start_game(tab, ["Ann", "Ben", "Cy", "Dov"])
    enter_round(tab, [13, 6, 7, 0])
    headline = plain(tab.locator(".headline").inner_text())
    assert headline == "Dov is ahead with 0.", headline
    assert [b["text"] for b in badges(tab)] == ["Ahead"]
    assert tab.locator("[data-player='3'] .badge").count() == 1
    assert not re.search(r"\blead", page_words(tab), re.IGNORECASE), page_words(tab)
    for name, size in WORD_SCREENS.items():
        resize(tab, size)
        assert all(b["inside"] and b["apart"] and b["whole"] for b in badges(tab)), name
        screenshot(tab, f"scorekeeper-ahead-{name}")
    resize(tab, PHONE)
    # Two level at the lowest: said as a tie, and both cards marked.
    enter_round(tab, [5, 0, 15, 6])
    assert totals(tab) == [18, 6, 22, 6]
    headline = plain(tab.locator(".headline").inner_text())
    assert headline == "Ben and Dov tie for the lowest total with 6.", headline
    assert [b["text"] for b in badges(tab)] == ["Ahead", "Ahead"]
    assert not re.search(r"\blead", page_words(tab), re.IGNORECASE), page_words(tab)
    for name, size in WORD_SCREENS.items():
        resize(tab, size)
        screenshot(tab, f"scorekeeper-ahead-tie-{name}")


def test_ten_players_badges_fit_the_smallest_phone(page: Any) -> None:
    tab = page
    names = ["Grandmother Jo", "Bartholomew", "Cleo", "Uncle Max", "Evangeline",
             "Fitzgerald Jr", "Gwendolyn", "Hieronymus", "Ida", "Christophersonson"]  # fmt: skip
    start_game(tab, names)
    resize(tab, SCREENS["smallest-phone"])
    # Five level at 0: five "Ahead" badges, each whole in its card.
    enter_round(tab, [13, 13, 10, 10, 6, 0, 0, 0, 0, 0])
    found = badges(tab)
    assert [b["text"] for b in found] == ["Ahead"] * 5
    for badge in found:
        assert badge["inside"] and badge["apart"] and badge["whole"], badge
    for card in score_card_names(tab):
        assert card["full"] and card["inside"] and card["apart"], card
    assert tab.evaluate("document.documentElement.scrollWidth") <= 320
    screenshot(tab, "scorekeeper-ahead-10-players-320")


def test_a_moon_taken_back_says_what_the_entry_shows(page: Any) -> None:
    # "Round 2 taken back; its points are in the boxes to fix." while the boxes were off and
    # "Who shot the moon?" was asked instead.
    tab = page
    start_game(tab, ["Ann", "Ben", "Cy", "Dov"])
    enter_round(tab, [13, 6, 7, 0])
    enter_moon(tab, shooter=1)
    tab.click("[data-action=undo]")
    said = (
        "Round 2 taken back; it was a moon: fix who shot it, or press “Not a moon” to type the"
        " points."
    )
    assert status(tab) == said
    # What it names is there: the shooter picked, the button, and no box to type in.
    assert tab.locator("[data-panel=moon]").is_visible()
    assert tab.locator("input[name=moon-shooter][value='1']").is_checked()
    assert plain(tab.locator("[data-action=cancel-moon]").inner_text()).endswith("Not a moon")
    assert tab.locator("[data-field=points]:enabled").count() == 0
    for name, size in WORD_SCREENS.items():
        resize(tab, size)
        screenshot(tab, f"scorekeeper-moon-taken-back-{name}")
    resize(tab, PHONE)
    # Its number in the history takes a moon back the same way, and says so the same way.
    tab.click("[data-action=add-round]")
    tab.get_by_role("button", name="Fix round 2 (Right)").click()
    assert status(tab) == (
        "Round 2 was a moon: fix who shot it, or press “Not a moon” to type the points, then"
        " save it."
    )
    assert tab.locator("input[name=moon-shooter][value='1']").is_checked()
    tab.click("[data-action=cancel-fix]")
    # Points typed for the next round: the question before a moon is taken back names the
    # moon, not points, as what comes back.
    for i, value in enumerate(("13", "6", "7")):
        tab.fill(f"#points-{i}", value)
    tab.click("[data-action=undo]")
    asked = tab.locator("[data-panel=confirm-undo] p").inner_text()
    assert asked == (
        "Undo round 2? The points in the boxes for round 3 are not added yet; "
        "round 2's moon will replace them."
    ), asked
    tab.click("[data-action=confirm-undo]")
    assert tab.locator("input[name=moon-shooter][value='1']").is_checked()
    # A round of points taken back still says its points are in the boxes.
    tab.click("[data-action=cancel-moon]")
    tab.click("[data-action=undo]")
    assert status(tab) == "Round 1 taken back; its points are in the boxes to fix."
    assert [tab.input_value(f"#points-{i}") for i in range(4)] == ["13", "6", "7", "0"]


def test_the_scorekeeper_leads_back_to_the_game_on_screen(page: Any) -> None:
    # The start screen links the scorekeeper; the scorekeeper had no way back to the game.
    tab = page
    link = tab.locator("footer [data-link=play]")
    assert link.get_attribute("href") == "/"
    assert link.inner_text() == "Play Hearts on screen"
    said = " ".join(tab.locator("footer .elsewhere").text_content().split())
    assert said == "Play Hearts on screen against computer players, or with friends by a link."
    for size in (PHONE, DESKTOP):
        resize(tab, size)
        link.scroll_into_view_if_needed()
        shown = link.bounding_box()
        assert shown is not None and shown["height"] >= 44, shown  # a tap's size
        screenshot(tab, f"scorekeeper-way-to-the-game-{'phone' if size == PHONE else 'desktop'}")
