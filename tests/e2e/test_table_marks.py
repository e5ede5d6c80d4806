"""Small marks on the table that a player reads at a glance: the "new" badge on a card passed
in, and the line under a seat's name ("Computer · medium").

Screenshots go to HEARTS_SCREENSHOT_DIR when it is set.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_table_play import open_stored
from test_web_game_browser import open_page, shoot, start_game

import hearts

from browser_support import AppServer, create_by_page, resize, store_for

pytestmark = pytest.mark.browser

VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "phone-landscape": {"width": 844, "height": 390},
    "desktop": {"width": 1366, "height": 800},
}

#: A deal whose pass brings the person the K♠ (its crown), the 2♠ and the A♥, the K♠ and
#: the 2♠ each with a card over its right side on a phone.
PASSED_IN = 50

#: Each passed-in card of the hand: its box, the "new" badge's (the card's ::after), its
#: corner index's, the boxes of its face's middle (pips, a court panel and its crown), and
#: the left edge of the next card of its row (null for the last).
BADGES = """() => {
    const box = (r) => [r.left, r.top, r.right, r.bottom];
    const cards = [...document.querySelectorAll('[data-region=hand] .card')];
    return cards.filter((card) => card.matches('.received')).map((card) => {
        const r = card.getBoundingClientRect();
        const after = getComputedStyle(card, '::after');
        const px = (name) => parseFloat(after[name]) || 0;
        const extra = (a, b) => after.boxSizing === 'border-box' ? 0
            : px(`padding-${a}`) + px(`padding-${b}`)
                + px(`border-${a}-width`) + px(`border-${b}-width`);
        const left = r.left + px('left');
        const top = r.top + px('top');
        const badge = [left, top, left + px('width') + extra('left', 'right'),
            top + px('height') + extra('top', 'bottom')];
        const next = cards.filter((other) => other.offsetTop === card.offsetTop
            && other.offsetLeft > card.offsetLeft)
            .map((other) => other.getBoundingClientRect().left);
        return {
            card: card.dataset.card,
            shown: after.content, display: after.display,
            box: box(r), badge,
            index: box(card.querySelector('.corner').getBoundingClientRect()),
            face: [...card.querySelectorAll('svg > .pip, .court, .court-mark, .court-letter')]
                .map((part) => box(part.getBoundingClientRect())),
            next: next.length ? Math.min(...next) : null,
        };
    });
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes share any area (touching edges do not count)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def passed_in() -> tuple[hearts.Game, list[str]]:
    """The first round of deal `PASSED_IN` after a pass to the left, at the person's first card."""
    rules = hearts.Rules(pass_cycle=("left",))
    game = hearts.Game(rules, PASSED_IN)
    for seat in range(rules.players):
        game.apply(hearts.Pass(seat, game.view(seat).hand[-3:]))
    received = [str(card) for card in game.view(0).received or ()]
    while game.round.turn != 0:  # the others play up to the person's first card
        game.apply(hearts.Play(game.round.turn, game.view(game.round.turn).legal[0]))
    return game, received


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_new_badge_covers_no_index_no_face_and_no_other_card(
    browser: Any, server: AppServer, name: str
) -> None:
    # The badge lay across the middle of a card passed in: over a king's crown, an ace's pip,
    # and on a phone under the card beside it. It now hangs from the card's top edge, right
    # of the index, within the strip of the card in sight.
    game, received = passed_in()
    assert {"KS", "2S", "AH"} == set(received)
    page = open_page(browser, server, VIEWPORTS[name])
    start_game(page)
    store_for(page, server, f"passed-in-{name}", game)
    open_stored(page, server, f"passed-in-{name}")
    shoot(page, f"new-badge-{name}")
    found = page.evaluate(BADGES)
    assert sorted(card["card"] for card in found) == sorted(received)
    if name == "phone":  # the case that hid the badge: cards laid over each other's right side
        assert any(card["next"] is not None and card["next"] < card["box"][2] for card in found)
    for card in found:
        badge, box = card["badge"], card["box"]
        assert card["shown"] == '"new"' and card["display"] != "none", card
        assert badge[2] - badge[0] >= 18 and badge[3] - badge[1] >= 9, card  # readable
        assert box[0] - 0.5 <= badge[0] and badge[2] <= box[2] + 0.5, card
        assert box[1] - 0.5 <= badge[1] and badge[3] <= box[3] + 0.5, card
        assert not overlap(badge, card["index"]), card
        assert not any(overlap(badge, part) for part in card["face"]), card
        if card["next"] is not None:
            assert badge[2] <= card["next"] + 0.5, card
    # What it says for a screen reader stays in the card's name.
    labels = page.eval_on_selector_all(
        "[data-region=hand] .card.received", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(labels) == 3 and all("passed to you" in label for label in labels), labels
    assert not page.errors


#: The lines `selector` finds as they are drawn: the words of each, and the words of each of
#: its lines (characters grouped by the line box they sit on).
LINES = """(selector) => [...document.querySelectorAll(selector)]
    .filter((level) => level.getClientRects().length)
    .map((level) => {
        const lines = [];
        const walker = document.createTreeWalker(level, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < node.length; i += 1) {
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const rect = [...range.getClientRects()].find((r) => r.width > 0);
                if (!rect) continue;  // not drawn (a space at a line's end, a part hidden)
                const line = lines.find((l) => Math.abs(l.top - rect.top) < rect.height / 2);
                if (line) line.text += node.data[i];
                else lines.push({ top: rect.top, text: node.data[i] });
            }
        }
        return { words: level.textContent, lines: lines.map((l) => l.text.trim()) };
    })"""


SEAT_LEVELS = "#game .seat .level"

#: Whether every seat's line in two parts that is drawn has been fitted to its room: on one
#: line, or stacked (table.js, fitLevels, runs at the next frame after a change of room).
FITTED = """() => [...document.querySelectorAll('#game .seat .level')]
    .filter((level) => level.querySelector('.level-sep') && level.getClientRects().length)
    .every((level) => {
        if (level.dataset.stacked) return true;
        const parts = level.querySelectorAll('.level-part');
        const first = [...parts[0].getClientRects()].pop();
        return parts[1].getClientRects()[0].top < first.bottom - 1;
    })"""


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_a_computer_players_line_never_ends_with_its_dot(
    browser: Any, server: AppServer, name: str
) -> None:
    # At a table with friends on a phone, a side seat read "Computer ·" over "medium": the
    # dot left at the end of the first line. Where the words do not fit on one line they are
    # "Computer" over "medium"; where they fit, "Computer · medium" as before.
    page = open_page(browser, server, VIEWPORTS[name])
    seats = ["you", "medium", "friend", "medium"]
    state = create_by_page(page, {"rules": {}, "name": "Ann", "turn_time": None, "seats": seats})
    invite = state["table"]["invite"].split("#invite=", 1)[1]
    friend = browser.new_context()
    joined = friend.request.post(
        f"{server.url}/api/games/{state['id']}/join", data={"invite": invite, "name": "Bea"}
    )
    assert joined.ok, joined.text()
    friend.close()
    page.goto(f"{server.url}/?table={state['id']}&speed=instant")
    page.wait_for_selector("#game[data-phase=passing] [data-card]")
    page.wait_for_function(FITTED)
    shoot(page, f"friends-levels-{name}")
    levels = page.evaluate(LINES, SEAT_LEVELS)
    computers = [level for level in levels if "Computer" in level["words"]]
    assert len(computers) == 2, levels
    for level in computers:
        assert level["lines"] and all(not line.endswith("·") for line in level["lines"]), level
        assert " ".join(level["lines"]).replace("·", " ").split() == ["Computer", "medium"]
        if len(level["lines"]) == 1:
            assert level["lines"] == ["Computer · medium"], level
    if name == "phone":  # the side seats' room: two lines there
        assert all(level["lines"] == ["Computer", "medium"] for level in computers), computers
    if name != "phone":
        assert not page.errors
        return
    # A wider screen has the room for one line, and back on the phone it is two again: the
    # line is fitted to its room as that changes.
    stacked = "(n) => document.querySelectorAll('#game .level[data-stacked=true]').length === n"
    resize(page, {"width": 690, "height": VIEWPORTS["phone"]["height"]})
    page.wait_for_function(stacked, arg=0)
    wider = page.evaluate(LINES, SEAT_LEVELS)
    assert [level["lines"] for level in wider if "Computer" in level["words"]] == [
        ["Computer · medium"]
    ] * 2, wider
    resize(page, VIEWPORTS["phone"])
    page.wait_for_function(stacked, arg=2)
    assert page.evaluate(LINES, SEAT_LEVELS) == levels
    assert not page.errors


def test_the_lobbys_computer_line_never_ends_with_its_dot(browser: Any, server: AppServer) -> None:
    # On a 320 px phone the lobby's "Computer · medium" broke after the dot, as the table's did.
    page = open_page(browser, server, {"width": 320, "height": 568})
    seats = ["you", "friend", "medium", "expert"]
    state = create_by_page(page, {"rules": {}, "name": "Ann", "turn_time": None, "seats": seats})
    page.goto(f"{server.url}/?table={state['id']}&speed=instant")
    page.wait_for_selector(".lobby-seat .level")
    for size in ["100%", "200%"]:
        page.evaluate(f"document.documentElement.style.fontSize = '{size}'")
        levels = page.evaluate(LINES, ".lobby-seat .level")
        computers = [level for level in levels if "Computer" in level["words"]]
        assert [level["words"] for level in computers] == [
            "Computer · medium",
            "Computer · expert",
        ]
        for level in computers:
            assert all(not line.endswith("·") for line in level["lines"]), (size, level)
    shoot(page, "lobby-levels-320-double-text")
    assert not page.errors
