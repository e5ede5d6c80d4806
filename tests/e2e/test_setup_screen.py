"""The start screen in headless Chromium: the keyboard keeps its place when a choice redraws
the screen, and the house rules speak in the numbers of the table chosen.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from test_scores_words import play_to_game_over
from test_web_game_browser import contrast, no_horizontal_scroll, open_page, start_game

import hearts
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS
from hearts.web.characters import LEVELS, OPPONENTS

from browser_support import (
    DESKTOP,
    PHONE,
    SCREENS,
    AppServer,
    create_by_page,
    resize,
    screens,
    shoot,
    spills,
)

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


@pytest.mark.parametrize("viewport", [DESKTOP, SCREENS["phone-landscape"], PHONE])
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


# --- each opponent's levels on one line ---------------------------------------------------

#: For each opponent's choice of levels: how many rows its buttons take, and how far they
#: run past the choice's box or the screen (px).
LEVEL_ROWS = """() => [...document.querySelectorAll('.opponent .segmented.small')].map((f) => {
    const spans = [...f.querySelectorAll('label > span')].map((s) => s.getBoundingClientRect());
    const box = f.getBoundingClientRect();
    const right = Math.max(...spans.map((r) => r.right));
    return { rows: new Set(spans.map((r) => Math.round(r.top))).size,
             over: Math.max(0, right - Math.min(box.right, innerWidth)) };
})"""

SIZES = screens("desktop", "phone", "phone-landscape", "smallest-phone")


@pytest.mark.parametrize("size", list(SIZES))
def test_each_opponents_levels_sit_on_one_line(browser: Any, server: AppServer, size: str) -> None:
    # Three opponents across a desktop's start screen, each a third of 760 px: "Expert" went
    # alone to a second row. The widest choice is the one ticked ("✓ Expert").
    page = open_page(browser, server, SIZES[size])
    for level in ("easy", "expert"):
        page.click(f"input[name=level-all][value={level}] + span")
        levels = page.evaluate(LEVEL_ROWS)
        assert levels and all(found["over"] <= 1 for found in levels), (size, level, levels)
        no_horizontal_scroll(page)
        if size != "smallest-phone":  # 320 px: two rows, inside the screen
            assert all(found["rows"] == 1 for found in levels), (size, level, levels)
    shoot(page, f"setup-levels-{size}", full_page=True)
    assert not page.errors


#: The opponents' cards by row: for each card, the top of its levels and the gap (px)
#: between its description's last line and its levels.
LEVEL_GAPS = """() => { const rows = {};
    for (const li of document.querySelectorAll('.setup .opponents > li')) {
        const levels = li.querySelector('.segmented.small').getBoundingClientRect();
        const words = document.createRange();  // the words, not their box (it kept room)
        words.selectNodeContents(li.querySelector('.blurb'));
        const blurb = words.getBoundingClientRect();
        const top = Math.round(li.getBoundingClientRect().top);
        (rows[top] ||= []).push([Math.round(levels.top), Math.round(levels.top - blurb.bottom)]);
    }
    return Object.values(rows); }"""


@pytest.mark.parametrize("players", [4, 6, 9])
def test_each_opponents_levels_stand_under_the_rows_longest_description(
    browser: Any, server: AppServer, players: int
) -> None:
    # Across a desktop every description kept room for three lines, and a row of two-line
    # ones had a gap of some 40 px over its levels. A row's levels line up, right under the
    # row's longest description.
    page = open_page(browser, server, SIZES["desktop"])
    page.click(f"[data-players='{players}']")
    rows = page.evaluate(LEVEL_GAPS)
    assert len(rows) >= 2 and max(len(row) for row in rows) >= 2, rows
    for row in rows:
        assert len({top for top, _ in row}) == 1, rows  # lined up
        assert min(gap for _, gap in row) <= 10, rows  # no room kept for a longer one
    shoot(page, f"setup-opponents-desktop-{players}", full_page=True)
    assert not page.errors


# --- unfinished games: each line says what sets its table apart ----------------------------


def test_unfinished_games_say_what_sets_each_table_apart(browser: Any, server: AppServer) -> None:
    # Three new games read alike but for their times ("Round 1, to 100 You 0 · Marisol 0 …"):
    # each now says its table, its players' level and its house rules.
    page = open_page(browser, server, PHONE)
    made: list[dict[str, Any]] = [
        {"levels": ["easy"] * 3},
        {"levels": ["expert", "hard", "expert", "easy"], "rules": {"players": 5}},
        {"levels": ["hard"] * 3, "rules": {"partnership": True, "target_score": 50}},
        # The "Moon choice" preset read "Shooting the moon", which every game has.
        {"levels": ["medium"] * 3, "rules": {"moon_rule": "choose"}},
    ]
    for body in made:
        create_by_page(page, body)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    lines = page.eval_on_selector_all(
        ".unfinished .game-line",
        "els => els.map(e => [...e.children].filter(c => !c.matches('.played'))"
        ".map(c => c.textContent.replaceAll('\\u00a0', ' ').replace(/[\\u2068\\u2069]/g, ''))"
        ".join(' | '))",
    )
    assert lines == [
        "Round 1 · 4 players to 100 | Medium players · Shooting the moon: the shooter chooses | "
        "You 0 · Marisol 0 · Bertie 0 · Tamsin 0",
        "Round 1 · 4 players to 50 | Hard players · Partners | You 0 · Marisol 0 · Bertie 0 · "
        "Tamsin 0",
        "Round 1 · 5 players to 100 | 2 expert, 1 hard, 1 easy · Standard rules | You 0 · "
        "Marisol 0 · Bertie 0 · Tamsin 0 · Oskar 0",
        "Round 1 · 4 players to 100 | Easy players · Standard rules | You 0 · Marisol 0 · "
        "Bertie 0 · Tamsin 0",
    ]
    for size in ("phone", "smallest-phone"):
        resize(page, SIZES[size])
        assert spills(page, ".unfinished li") == [], size
        no_horizontal_scroll(page)
        shoot(page, f"setup-unfinished-{size}", full_page=True)
    assert not page.errors


# --- "Invite friends": the cards are the table the invite will seat -----------------------

#: Each card of the other seats, in order: its name, where it sits and its level line (a
#: card's chosen level button when it has no line).
CARDS = """() => [...document.querySelectorAll('.setup .opponents > li')].map((li) => ({
    name: li.querySelector('h3').firstChild.textContent.trim(),
    where: (li.querySelector('.seat-word') || {}).textContent.replace('·', '').trim(),
    level: (li.querySelector('.level') || {}).textContent
        || `Computer · ${(li.querySelector('input:checked') || {}).value}`,
}))"""

#: The lobby's seats but the person's own, in seat order, in the same terms.
LOBBY = """() => [...document.querySelectorAll('.lobby-seat:not(.mine)')].map((li) => ({
    name: li.querySelector('.name').textContent.trim(),
    where: li.querySelector('.seat-word').textContent.trim(),
    level: li.querySelector('.level').textContent,
}))"""


def in_the_lobbys_words(where: str) -> str:
    """A start screen's seat word as the lobby puts it, mid-sentence ("on your left")."""
    return "across from you" if where == "Across" else where[0].lower() + where[1:]


def invite_choices(players: int, pattern: str) -> list[str]:
    """A choice for each other seat: `pattern` "ends" puts friends at the first and last
    seats, "every-other" at every other seat; the computer seats take the levels in turn."""
    others = range(1, players)
    ends = {1, players - 1}
    friends = ends if pattern == "ends" else {seat for seat in others if seat % 2 == 0}
    return ["friend" if seat in friends else LEVELS[seat % len(LEVELS)] for seat in others]


TESTERS_TABLE = ["friend", "friend", "easy", "hard"]  # 5 players, as the tester chose


@pytest.mark.parametrize(
    ("players", "choices", "fill"),
    [
        (len(TESTERS_TABLE) + 1, TESTERS_TABLE, "medium"),
        (MIN_PLAYERS, invite_choices(MIN_PLAYERS, "ends"), "hard"),
        (MIN_PLAYERS, invite_choices(MIN_PLAYERS, "every-other"), "medium"),
        (MIN_PLAYERS + 2, invite_choices(MIN_PLAYERS + 2, "every-other"), "expert"),
        (MAX_PLAYERS - 2, invite_choices(MAX_PLAYERS - 2, "ends"), "easy"),
        (MAX_PLAYERS - 2, invite_choices(MAX_PLAYERS - 2, "every-other"), "medium"),
    ],
)
def test_the_start_screen_seats_whom_the_lobby_seats(
    browser: Any, server: AppServer, players: int, choices: list[str], fill: str
) -> None:
    # A tester chose seats 1 and 2 Friend, 3 Easy and 4 Hard at five players: the cards
    # above said "Tamsin · 2nd on your right" and "Oskar · On your right", both easy, and
    # the lobby seated Marisol (easy) and Bertie (hard) there. With the panel open the cards
    # show what the lobby will: the server's characters, at the panel's levels, in seat
    # order, and the friends' seats open. The page asks the server (it had a copy of the
    # server's rule of its own): the same answer as the lobby's, from the same code.
    page = open_page(browser, server, SCREENS["desktop"])
    page.click(f"[data-players='{players}']")
    page.wait_for_selector(f".setup .opponents > li:nth-child({players - 1})")
    alone = [card["name"] for card in page.evaluate(CARDS)]
    page.click("[data-region=invite] summary")
    for row, choice in enumerate(choices, start=1):
        page.click(f"input[name=invite-seat-{row}][value={choice}] + span")
    page.click(f"input[name=invite-fill][value={fill}] + span")
    page.wait_for_selector(".setup .opponents[data-seating=shown]")
    cards = page.evaluate(CARDS)
    # Each friend's seat names who plays it if nobody comes; the lobby names who plays each
    # friend's seat if it starts now: compared without the names, then the names. Every
    # seat keeps the character the cards showed before the panel opened, a computer
    # player's by name, a friend's as its stand-in: characters go by seat (a reviewer saw
    # Bertie across before the panel opened, and on the right in the lobby).
    article = "an" if fill[0] in "aeiou" else "a"
    waiting = f"Waiting for a friend; else (.+), {article} {fill} computer player"
    named: dict[int, str] = {}
    for row, (card, choice) in enumerate(zip(cards, choices, strict=True)):
        if choice == "friend":
            found = re.fullmatch(waiting, card["level"])
            assert found, card
            named[row] = found.group(1)
            card["level"] = f"Waiting for a friend; else {article} {fill} computer player"
        else:
            named[row] = card["name"]
    assert named == dict(enumerate(alone)), (named, alone)
    # The cards offer no level of their own: each seat's level is its row's in the panel.
    offered = page.locator(".setup .opponents input").count()
    all_levels = page.locator("input[name=level-all]").first.is_visible()
    said = page.locator("[data-region=invite-levels]").is_visible()
    page.click("[data-action=invite]")
    page.wait_for_selector("body[data-screen=lobby] [data-region=invite-link]")
    lobby = page.evaluate(LOBBY)
    stand_ins: dict[int, str] = {}
    for row, seat in enumerate(lobby):
        found = re.fullmatch(waiting, seat["level"])
        if found:
            stand_ins[row] = found.group(1)
            seat["level"] = f"Waiting for a friend; else {article} {fill} computer player"
    assert stand_ins == {row: named[row] for row in stand_ins}, (stand_ins, named)
    shown = [{**card, "where": in_the_lobbys_words(card["where"])} for card in cards]
    assert shown == lobby, (choices, shown, lobby)
    assert (offered, all_levels, said) == (0, False, True)
    article = "an" if fill[0] in "aeiou" else "a"
    assert [seat["level"] for seat in lobby] == [
        f"Waiting for a friend; else {article} {fill} computer player"
        if choice == "friend"
        else f"Computer · {choice}"
        for choice in choices
    ]
    # Started with nobody come: each friend's seat is the character the lobby and the start
    # screen named.
    game = page.evaluate("new URLSearchParams(location.search).get('table')")
    page.click("[data-action=start-table]")
    page.wait_for_selector("body[data-screen=table]")
    state = page.context.request.get(f"{server.url}/api/games/{game}").json()
    assert {row: state["players"][row + 1]["name"] for row in stand_ins} == stand_ins
    assert not page.errors, page.errors
    page.context.close()


def test_the_invite_rows_and_the_cards_are_one_choice(browser: Any, server: AppServer) -> None:
    # The cards follow the panel as it changes, and closing it gives back the cards of a game
    # against computer players as they were, each with its own level to choose.
    page = open_page(browser, server, PHONE)
    players = len(TESTERS_TABLE) + 1
    page.click(f"[data-players='{players}']")
    page.click("input[name=level-2][value=hard] + span")
    alone = page.evaluate(CARDS)
    page.click("[data-region=invite] summary")
    page.wait_for_selector("[data-region=invite-levels]", state="visible")
    page.click("input[name=invite-seat-2][value=friend] + span")
    page.click("input[name=invite-seat-3][value=expert] + span")
    page.wait_for_selector(".setup .opponents[data-seating=shown]")
    cards = page.evaluate(CARDS)
    # The first seat is a friend's to begin with: the computer seats are the last two, with
    # the characters the cards had there before (they go by seat).
    names = ["Open seat", "Open seat", alone[2]["name"], alone[3]["name"]]
    assert [card["name"] for card in cards] == names, cards
    assert cards[2]["level"] == "Computer · expert"
    page.click("input[name=invite-fill][value=easy] + span")
    page.wait_for_selector(".setup .opponents[data-seating=shown]")
    said = f"Waiting for a friend; else {alone[1]['name']}, an easy computer player"
    assert page.evaluate(CARDS)[1]["level"] == said
    shoot(page, "setup-invite-open-phone", full_page=True)
    page.click("[data-region=invite] summary")
    page.wait_for_selector("[data-region=level-help]", state="visible")  # on the toggle event
    assert page.evaluate(CARDS) == alone
    assert [card["name"] for card in alone] == [o["name"] for o in OPPONENTS[: players - 1]]
    assert alone[1]["level"] == "Computer · hard"
    assert page.locator("input[name=level-all]").first.is_visible()
    assert page.locator("[data-region=invite-levels]").is_hidden()
    assert not page.errors, page.errors
    page.context.close()


def test_the_main_button_does_what_the_cards_show(browser: Any, server: AppServer) -> None:
    # A tester set seats for friends, scrolled on down to the game length and pressed "Deal
    # the cards": it dealt a game against computer players at the levels the screen had
    # shown before the panel was opened, not the table on the cards. While the panel is open
    # the main button is the panel's own action, by mouse and by keyboard, and a note says
    # how to play without friends; closed, it deals again.
    page = open_page(browser, server, PHONE)
    players = len(TESTERS_TABLE) + 1
    page.click(f"[data-players='{players}']")
    page.click("[data-region=invite] summary")
    for row, choice in enumerate(TESTERS_TABLE, start=1):
        page.click(f"input[name=invite-seat-{row}][value={choice}] + span")
    main = page.locator(".setup > [data-action=new-game]")
    panels = page.locator("[data-action=invite]")
    assert main.inner_text() == panels.inner_text() == "Invite 2 friends"
    note = page.get_attribute(".setup > [data-action=new-game]", "aria-describedby")
    assert note and "close \u201cInvite friends\u201d" in page.inner_text(f"#{note}")
    # A table of friends has no take-backs: the choice goes while the panel is open.
    assert page.locator("#allow-undo").is_hidden()
    # No friend's seat: both say what to do and neither can be pressed.
    for row in (1, 2):
        page.click(f"input[name=invite-seat-{row}][value=easy] + span")
    assert main.inner_text() == "Choose a seat for a friend" and main.is_disabled()
    for row in (1, 2):
        page.click(f"input[name=invite-seat-{row}][value=friend] + span")
    # Closed: the cards are a game against computer players again, and so is the button.
    page.click("[data-region=invite] summary")
    page.wait_for_selector("[data-region=level-help]", state="visible")  # on the toggle event
    assert main.inner_text() == "Deal the cards" and main.get_attribute("aria-describedby") is None
    assert page.locator("[data-region=start-note]").is_hidden()
    assert page.locator("#allow-undo").is_visible()
    page.click("[data-region=invite] summary")
    page.wait_for_selector("[data-region=start-note]", state="visible")
    shoot(page, "setup-invite-main-button-phone", full_page=True)
    # By keyboard: Enter on the main button makes the invite's table and shows its lobby.
    main.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-screen=lobby] [data-region=invite-link]")
    lobby = page.evaluate(LOBBY)
    assert [seat["name"] for seat in lobby] == ["Open seat", "Open seat"] + [
        o["name"] for o in OPPONENTS[2:4]
    ]
    assert [seat["level"] for seat in lobby][2:] == ["Computer · easy", "Computer · hard"]
    assert not page.errors, page.errors
    page.context.close()


def names_shown(page: Any) -> list[str]:
    return [card["name"] for card in page.evaluate(CARDS)]


def test_the_cards_ask_the_server_once_for_the_latest_seats(
    browser: Any, server: AppServer
) -> None:
    # The page asks the server who the invite seats where. A person clicking through a
    # row's levels sends one request at a time and only the latest seats are asked about
    # next; an answer for seats chosen before is not shown; until an answer comes (or if
    # none does) the cards say what the panel does, with no character's name and no error.
    page = open_page(browser, server, DESKTOP)
    held: list[Any] = []
    page.route("**/api/seating?*", lambda route: held.append(route))
    players = len(TESTERS_TABLE) + 1
    page.click(f"[data-players='{players}']")
    page.click("[data-region=invite] summary")
    page.wait_for_selector(".setup .opponents[data-seating=asking]")
    first = checked(page, "invite-seat-4")
    waiting = ["Open seat", "Computer player", "Computer player", "Computer player"]
    assert names_shown(page) == waiting
    for level in ("easy", "medium", "hard", "expert"):
        page.click(f"input[name=invite-seat-4][value={level}] + span")
    page.wait_for_timeout(100)
    assert len(held) == 1  # the others wait for the first answer
    with page.expect_request("**/api/seating?*") as second:
        held[0].continue_()
    # The first answer was for seats no longer chosen: not shown, and the latest asked for.
    assert second.value.url.endswith("seats=expert"), second.value.url
    assert names_shown(page) == waiting
    assert len(held) == 2
    held[1].continue_()
    page.wait_for_selector(".setup .opponents[data-seating=shown]")
    cards = page.evaluate(CARDS)
    # Each computer seat's own character (they go by seat: the friend's seat keeps its own).
    assert [card["name"] for card in cards][1:] == [o["name"] for o in OPPONENTS[1 : players - 1]]
    assert cards[3]["level"] == "Computer · expert"
    # Seats asked about before are not asked about again.
    page.click(f"input[name=invite-seat-4][value={first}] + span")
    page.wait_for_selector(".setup .opponents[data-seating=shown]")
    assert len(held) == 2
    # The server not answering: the cards keep to what the panel says, and no error shows.
    page.unroute("**/api/seating?*")
    page.route("**/api/seating?*", lambda route: route.fulfill(status=503, body="down"))
    page.click("input[name=invite-seat-4][value=hard] + span")
    page.wait_for_selector(".setup .opponents[data-seating=unknown]")
    assert names_shown(page) == waiting
    assert page.evaluate(CARDS)[3]["level"] == "Computer · hard"
    assert page.locator("[role=alert]:visible").count() == 0
    shoot(page, "setup-invite-no-answer-desktop", full_page=True)
    assert not page.errors, page.errors
    page.context.close()


# --- rules the engine refuses together, the line under "House rules", a held-back Deal ----

DEAL = "[data-action=new-game]"
LENGTH_BOX = "input[aria-label='Other game length']"


def why_at(page: Any, field: str) -> str:
    """The reason said at a house rule (dimmed, or chosen and refused), or "" for none."""
    found = page.locator(f".rule:has(#rule-{field}) [data-region=rule-why]")
    return found.inner_text() if found.count() else ""


def held(page: Any) -> dict[str, Any]:
    """How "Deal the cards" stands: held back only by aria-disabled, never by disabled."""
    found: dict[str, Any] = page.eval_on_selector(
        DEAL,
        """b => ({ disabled: b.disabled, aria: b.getAttribute('aria-disabled'),
                   why: document.querySelector('#start-why').hidden ? ''
                        : document.querySelector('#start-why').textContent })""",
    )
    return found


def test_a_pass_to_your_partner_needs_partners_at_the_option(
    browser: Any, server: AppServer
) -> None:
    # It could be ticked without "Partners" (under Relaxed too), and the server's refusal came
    # after Deal, at the top of the screen, with the focus left on Deal. It is dimmed with its
    # reason, as a dimmed card says why; once chosen and then left without partners, it is
    # marked at the option, Deal is held back saying why, and pressed it goes to the option.
    page = open_page(browser, server, DESKTOP)
    page.click(".all-rules summary")
    box = "#rule-partners_pass"
    reason = "Passing to a partner needs partnership play."
    for preset in ("standard", "casual"):
        page.click(f"label:has(input[name=preset][value={preset}])")
        assert page.get_attribute(box, "aria-disabled") == "true"
        assert why_at(page, "partners_pass") == f"{reason} Tick \u201cPartners\u201d first."
        page.click(box, force=True)  # pressed while dimmed, it stays as it is
        assert not page.is_checked(box)
    page.check("#rule-partnership")
    assert (
        page.get_attribute(box, "aria-disabled") == "false" and why_at(page, "partners_pass") == ""
    )
    page.check(box)
    page.uncheck("#rule-partnership")
    assert page.is_checked(box) and page.get_attribute(box, "aria-invalid") == "true"
    assert reason in why_at(page, "partners_pass")
    assert held(page) == {
        "disabled": False,
        "aria": "true",
        "why": "To deal, change \u201cPass to your partner\u201d under "
        "\u201cEvery house rule\u201d. " + reason,
    }
    page.focus(DEAL)
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "rule-partners_pass"
    assert page.evaluate("document.body.dataset.screen") == "setup"  # nothing was dealt
    page.keyboard.press("Space")  # unticked: nothing is in the way
    assert held(page) == {"disabled": False, "aria": "false", "why": ""}
    assert not page.errors, page.errors
    page.context.close()


def test_landing_on_the_target_needs_a_longer_game_at_the_option(
    browser: Any, server: AppServer
) -> None:
    # "Drop to 50" with a game to 50 was refused only after Deal.
    page = open_page(browser, server, PHONE)
    page.click(".all-rules summary")
    select = "#rule-exactly_target_resets_to"
    fifty = f"{select} option[value='50']"
    page.select_option(select, "50")
    page.fill(LENGTH_BOX, "50")
    assert page.get_attribute(select, "aria-invalid") == "true"
    assert why_at(page, "exactly_target_resets_to") == "It needs a game length above 50 points."
    assert held(page)["aria"] == "true" and "Landing on the target" in held(page)["why"]
    page.click(DEAL, force=True)
    assert page.evaluate("document.activeElement.id") == "rule-exactly_target_resets_to"
    page.fill(LENGTH_BOX, "51")
    assert page.get_attribute(select, "aria-invalid") == "false"
    assert held(page) == {"disabled": False, "aria": "false", "why": ""}
    # Chosen the other way round, the choice is dimmed in the list and its reason said.
    page.select_option(select, "null")
    page.fill(LENGTH_BOX, "40")
    assert page.eval_on_selector(fifty, "o => o.disabled")
    assert why_at(page, "exactly_target_resets_to") == (
        "\u201cDrop to 50\u201d cannot be chosen now. It needs a game length above 50 points."
    )
    page.fill(LENGTH_BOX, "75")
    assert not page.eval_on_selector(fifty, "o => o.disabled")
    page.select_option(select, "50")
    start_game(page)
    games = page.evaluate("fetch('/api/games').then(r => r.json())")
    assert games[0]["target"] == 75
    assert not page.errors, page.errors
    page.context.close()


def test_a_refusal_after_deal_takes_the_keyboard_to_it(browser: Any, server: AppServer) -> None:
    # Should the server still refuse the rules, its sentence is where the keyboard goes (it
    # stayed on "Deal the cards", far below the alert).
    page = open_page(browser, server, DESKTOP)

    def bad_rules(route: Any) -> None:
        body = route.request.post_data_json
        body["rules"]["partners_pass"] = True
        route.continue_(post_data=json.dumps(body))

    page.route(
        "**/api/games",
        lambda route: bad_rules(route) if route.request.method == "POST" else route.continue_(),
    )
    page.focus(DEAL)
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-region=setup-error]")
    assert page.inner_text("[data-region=setup-error]") == (
        "Passing to a partner needs partnership play."
    )
    assert page.evaluate("document.activeElement.dataset.region") == "setup-error"
    assert not page.errors, page.errors
    page.context.close()


def test_the_line_under_house_rules_says_the_rules_to_be_dealt(
    browser: Any, server: AppServer
) -> None:
    # Changing rules by hand unticked the preset but left its line ("The usual rules, with no
    # house rule"); only the kitty redrew it.
    page = open_page(browser, server, DESKTOP)
    line = "[data-region=preset-help]"
    page.click("[data-players='6']")
    page.click(".all-rules summary")
    page.check("#rule-queen_at_first_chance")
    page.check("#rule-queen_breaks_hearts")
    page.uncheck("#rule-must_break_hearts")
    assert not page.is_checked("input[name=preset][value=standard]")
    assert page.text_content(line) == (
        "Your own mix of house rules: Hearts must be broken: off; The queen breaks hearts; "
        "Queen at the first chance. Played to 100."
    )
    # Every change undone, it is the standard game again, said and ticked.
    page.check("#rule-must_break_hearts")
    page.uncheck("#rule-queen_breaks_hearts")
    page.uncheck("#rule-queen_at_first_chance")
    assert page.is_checked("input[name=preset][value=standard]")
    assert page.text_content(line) == "The usual rules, with no house rule. Played to 100."
    page.click("[data-players='4']")
    page.check("#rule-partnership")
    page.select_option("#rule-tie_rule", '"play-on"')
    page.select_option("#rule-pass_cycle", '["left","right","across","scatter"]')
    assert page.text_content(line) == (
        "Your own mix of house rules: Passing: Left, right, across, one card to each (3 cards); "
        "A tie for the lowest: Play on until one is lowest; Partners. Played to 100."
    )
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("typed", ["0", "1001", "abc", "1e2"])
def test_a_game_length_that_does_not_count_keeps_deal_in_reach(
    browser: Any, server: AppServer, typed: str
) -> None:
    # Deal became natively disabled and dropped out of the Tab order, and the line under
    # "House rules" went on saying "Played to 100."
    page = open_page(browser, server, DESKTOP)
    page.fill(LENGTH_BOX, typed)
    problem = page.inner_text("#length-note")
    assert problem and page.get_attribute(LENGTH_BOX, "aria-invalid") == "true"
    assert held(page) == {
        "disabled": False,
        "aria": "true",
        "why": f"To deal: {problem[0].lower()}{problem[1:]}",
    }
    assert page.get_attribute(DEAL, "aria-describedby") == "start-why"
    assert "Played to" not in page.text_content("[data-region=preset-help]")
    assert "game length is still to be chosen" in page.text_content("[data-region=preset-help]")
    for _ in range(60):  # Tab on from the box: Deal is on the way
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action") == "new-game":
            break
    assert page.evaluate("document.activeElement.dataset.action") == "new-game"
    page.keyboard.press("Enter")  # pressed, it takes the keyboard to what holds it back
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "Other game length"
    )
    assert page.evaluate("document.body.dataset.screen") == "setup"
    assert not page.errors, page.errors
    page.context.close()


def test_ten_players_are_told_what_a_pass_to_each_takes(browser: Any, server: AppServer) -> None:
    # "One card to each" at ten seats is 9 of the 10 cards held; the screen never said so.
    page = open_page(browser, server, PHONE)
    page.click(f"[data-players='{MAX_PLAYERS}']")
    page.click(".all-rules summary")
    rules = hearts.Rules(players=MAX_PLAYERS)
    n = MAX_PLAYERS - 1
    shown = rules_shown(page)["pass_cycle"]
    assert f"you pass {n} of your {rules.hand_size} cards to {n} others." in shown
    assert f"one card to each ({n} cards)" in shown
    assert not page.errors, page.errors
    page.context.close()


def test_change_the_table_takes_the_keyboard_to_the_start_screen(
    browser: Any, server: AppServer
) -> None:
    # From the game-over panel the start screen opened with the focus on the page's body (and
    # the next Tab too); the header's New took it to the heading.
    page = open_page(browser, server, DESKTOP)
    play_to_game_over(page, server, {"levels": ["easy"] * 3})
    page.focus("[data-action=change-table]")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-screen=setup] [data-action=new-game]")
    page.wait_for_timeout(200)  # the hidden screen's button lets go of the focus a frame later
    where = "() => [document.activeElement.tagName, !!document.activeElement.closest('.setup')]"
    assert page.evaluate(where) == ["H1", True]
    page.keyboard.press("Tab")
    assert page.evaluate(where)[1] is True
    # Leaving one's own table of friends from its lobby by the header's New comes back the
    # same way.
    page.click("[data-region=invite] summary")
    page.fill("#host-name", "Ann")
    page.click("[data-action=invite]")
    page.wait_for_selector("body[data-screen=lobby] [data-region=invite-link]")
    page.focus("[data-action=menu-new]")
    page.keyboard.press("Enter")
    # "Leave your table?": the question first, answered by the keyboard too.
    page.focus("#dialog[open] [data-action=leave-table]")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-screen=setup] [data-action=new-game]")
    page.wait_for_timeout(200)
    assert page.evaluate(where) == ["H1", True]
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_rule_at_fault_reads_clearly_in_either_look(
    browser: Any, server: AppServer, scheme: str
) -> None:
    # In the dark look chosen by the system, the red meant for light paper read at about 2:1
    # (the game length's own note too).
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.click(".all-rules summary")
    page.check("#rule-partnership")
    page.check("#rule-partners_pass")
    page.uncheck("#rule-partnership")
    page.fill(LENGTH_BOX, "0")
    colours = page.evaluate(
        """() => {
            const rgb = (c) => c.match(/\\d+/g).slice(0, 3).map(Number);
            const panel = getComputedStyle(document.querySelector('.rule-list').closest('.panel'));
            const paper = getComputedStyle(document.body);
            return {
                rule: rgb(getComputedStyle(document.querySelector('.rule-why.problem')).color),
                start: rgb(getComputedStyle(document.querySelector('#start-why')).color),
                length: rgb(getComputedStyle(document.querySelector('#length-note')).color),
                lengthPanel: rgb(getComputedStyle(
                    document.querySelector('#length-note').closest('.panel')).backgroundColor),
                panel: rgb(panel.backgroundColor), page: rgb(paper.backgroundColor),
            };
        }"""
    )
    assert contrast(colours["rule"], colours["panel"]) >= 4.5, colours
    assert contrast(colours["start"], colours["page"]) >= 4.5, colours
    assert contrast(colours["length"], colours["lengthPanel"]) >= 4.5, colours
    context.close()


def test_the_table_line_says_when_nobody_passes(browser: Any, server: AppServer) -> None:
    """The big tables never pass: the table said so from the first deal, the start screen
    did not (its line told the decks, the hands and the lead). It says so under the table
    sizes, as the house rule chosen stands."""
    never = "No passing at this table: everyone plays the cards dealt."
    line = "[data-region=table-line]"
    big = next(
        n
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        if set(hearts.Rules(players=n).pass_cycle) == {"hold"}
    )
    page = open_page(browser, server, DESKTOP)
    standard = hearts.Rules().players
    assert never not in page.text_content(line)  # the standard table passes
    page.click(f"[data-players='{big}']")
    assert page.text_content(line).startswith(f"{big} players")
    assert page.text_content(line).endswith(f"leads. {never}"), page.text_content(line)
    # A house rule that passes at the big table: the line no longer says it never does.
    page.click(".all-rules summary")
    page.select_option("#rule-pass_cycle", '["left","right","hold"]')
    assert never not in page.text_content(line)
    page.select_option("#rule-pass_cycle", '["hold"]')
    assert page.text_content(line).endswith(f"leads. {never}")
    # At the standard table, never passing is a house rule, said when chosen.
    page.click(f"[data-players='{standard}']")
    assert page.text_content(line).startswith(f"{standard} players")
    assert never not in page.text_content(line)
    page.select_option("#rule-pass_cycle", '["hold"]')
    assert page.text_content(line).endswith(f"leads. {never}"), page.text_content(line)
    # And heard as seen: the cards in the line are said in words to a screen reader.
    assert "leads" in page.inner_text(line)
    assert not page.errors, page.errors
    page.context.close()


def test_the_start_screen_leads_to_your_games(browser: Any, server: AppServer) -> None:
    """The figures and replays of every game finished here ("Your games") were linked only
    from a game's last panel: once a player dealt again, nothing led back to it."""
    for size in (PHONE, DESKTOP):
        page = open_page(browser, server, size)
        link = page.locator("nav.links [data-link=your-games]")
        assert link.inner_text() == "Your games"
        link.scroll_into_view_if_needed()
        link.click()
        page.wait_for_url(f"{server.url}/stats")
        page.wait_for_selector("[data-region=stats][data-ready=true]")
        assert page.inner_text("h1") == "Your games"
        # Nothing finished here yet: the page says so, and how the games come to show.
        said = page.inner_text("[data-region=stats-status]")
        assert said.startswith("No finished games in this browser yet."), said
        assert not page.errors, page.errors
        page.context.close()
