"""Big tables (eight and ten seats, two decks) on a phone, held either way, and a desktop.

What a tester found: the speech bubbles lay over each other and over the next seats' names;
the cards cancelled by their twins lay over the other cards of the trick, the word over
them wider than the card; at 200% text a name across the top of a phone held sideways was
cut to "Be…"; at the game's end the way on, kept at the foot of the panel, ran past the
foot of a phone held sideways. Each test measures the boxes the page draws. Screenshots go
to HEARTS_SCREENSHOT_DIR when it is set.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from test_scores_words import play_to_game_over
from test_table_play import open_stored
from test_web_game_browser import open_page, start_game

import hearts
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS

from browser_support import (
    AppServer,
    create_by_page,
    plain,
    resize,
    screens,
    settle,
    shoot,
    store_for,
)
from helpers import first_round_played, position

pytestmark = pytest.mark.browser

VIEWPORTS = screens(
    "phone",
    "phone-landscape",
    "desktop",
    # Smaller phones, held either way (a tester's, where bubbles lay over the trick).
    "small-phone",
    "small-phone-landscape",
    "smaller-phone-landscape",
)


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes [left, top, right, bottom] share any area (a pixel's touch aside)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def text_size(page: Any, size: str) -> None:
    """The person's text size, as a phone's or a browser's setting makes it ('' as usual)."""
    page.evaluate(f"document.documentElement.style.fontSize = '{size}'")
    settle(page)


def large_text(page: Any, size: str) -> None:
    """The text size as `text_size` sets it, then the page laid out anew, as a browser whose
    setting had it from the start would: Chromium keeps a container query's answer when only
    the font's size changes ('40em' at 844 px wide was read as at 16 px until a resize)."""
    text_size(page, size)
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    resize(page, {"width": width - 1, "height": height})
    resize(page, {"width": width, "height": height})


def twins_on_the_trick(game: hearts.Game) -> bool:
    """Two copies of one card on the trick (they cancel), among at least four cards."""
    faces = [str(card) for _, card in game.round.trick]
    return len(faces) >= 4 and len(set(faces)) < len(faces)


def open_position(browser: Any, server: AppServer, viewport: str, name: str, game: Any) -> Any:
    page = open_page(browser, server, VIEWPORTS[viewport])
    start_game(page)  # the browser's cookie
    store_for(page, server, name, game)
    open_stored(page, server, name)
    settle(page)
    return page


# --- a name across the top is never cut short --------------------------------------------

CUT_NAMES = """() => [...document.querySelectorAll('#game .seat.opponent .name')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1)
    .map((e) => [e.textContent, e.scrollWidth, e.clientWidth])"""


SEATS = """() => [...document.querySelectorAll('#game .seat.opponent')].map((e) => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    return { seat: box(e), name: box(e.querySelector('.name')), who: e.dataset.seat };
})"""


@pytest.mark.parametrize(
    ("viewport", "players"),
    [
        ("phone-landscape", 5),
        ("phone-landscape", 8),
        ("phone-landscape", 10),
        ("phone", 10),
        ("small-phone-landscape", 5),
        ("small-phone-landscape", 7),
        ("smaller-phone-landscape", 8),
        ("smaller-phone-landscape", 10),
        ("small-phone", 10),
    ],
)
def test_no_name_is_cut_short_on_a_phone(
    browser: Any, server: AppServer, viewport: str, players: int
) -> None:
    # Held sideways, three across the top (eight players) read "Ta…", "Os…", "Pr…" at the
    # usual size; at 200% text two across (five players) read "Be…" and "Ta…". A seat's
    # numbers and cards now go under its name when they do not fit beside it. Five across
    # (ten players) at 200% text, "Dunstan" ran into the names beside it, and upright, down
    # the side, "Agnieszka" read "Agnies…": a name keeps to its seat's share.
    game = position(players, lambda g: len(g.round.trick) >= 1)
    page = open_position(browser, server, viewport, f"names-{viewport}-{players}", game)
    for size in ("", "150%", "200%"):
        text_size(page, size)
        assert page.evaluate(CUT_NAMES) == [], (viewport, players, size)
        seats = page.evaluate(SEATS)
        for a, b in itertools.combinations(seats, 2):
            assert not overlap(a["seat"], b["seat"]), (players, size, a, b)
            assert not overlap(a["name"], b["name"]), (players, size, a, b)
        for seat in seats:  # a name is not wider than its seat, into the next one's
            assert seat["name"][0] >= seat["seat"][0] - 1, (players, size, seat)
            assert seat["name"][2] <= seat["seat"][2] + 1, (players, size, seat)
        shoot(page, f"crowded-names-{viewport}-{players}-{size.strip('%') or '100'}")
    assert not page.errors


# --- cancelled twins: each card readable, its word on it ---------------------------------

TRICK = """() => {
    const box = (e) => { const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const shown = (el, x, y) => el.contains(document.elementFromPoint(x, y));
    return [...document.querySelectorAll('.trick .slot')].filter((s) => s.querySelector('.played'))
        .map((slot) => {
            const card = slot.querySelector('.played');
            const mark = slot.querySelector('.cancel-mark');
            const [l, t, r, b] = box(card);
            const faded = [];
            for (let el = card; el; el = el.parentElement) {
                if (getComputedStyle(el).opacity !== '1') faded.push(el.className);
            }
            const m = mark && box(mark);
            return {
                seat: slot.dataset.seat, cancelled: slot.classList.contains('cancelled'),
                card: [l, t, r, b], mark: m, faded,
                // The top left index (rank and suit) is what a crowded ring leaves in sight.
                index: shown(card, l + (r - l) * .14, t + (b - t) * .1),
                markSeen: !m || shown(mark, (m[0] + m[2]) / 2, (m[1] + m[3]) / 2),
            };
        });
}"""


def inside_box(inner: list[float], outer: list[float]) -> bool:
    return (
        inner[0] >= outer[0] - 1
        and inner[1] >= outer[1] - 1
        and inner[2] <= outer[2] + 1
        and inner[3] <= outer[3] + 1
    )


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_cancelled_twins_stay_readable_on_a_crowded_trick(
    browser: Any, server: AppServer, viewport: str
) -> None:
    # Eight players, two copies of a card on the trick: the two were faded to half, and the
    # card under each showed through it; the word "cancelled" across each, wider than the
    # card (76 px over 46 on a phone, 34 held sideways), lay over the cards beside it.
    game = position(8, twins_on_the_trick)
    page = open_position(browser, server, viewport, f"twins-{viewport}", game)
    for size in ("", "200%"):
        text_size(page, size)
        slots = page.evaluate(TRICK)
        cancelled = [slot for slot in slots if slot["cancelled"]]
        assert len(slots) >= 4 and len(cancelled) >= 2, slots
        for slot in cancelled:
            assert slot["faded"] == [], (size, slot)
            assert slot["mark"] and inside_box(slot["mark"], slot["card"]), (size, slot)
            assert slot["markSeen"], (size, slot)
        for slot in slots:
            assert slot["index"], (size, slot)
        shoot(page, f"crowded-twins-{viewport}-{size.strip('%') or '100'}")
    assert not page.errors


# --- the game's end on a phone held sideways: its way on stays on the screen ------------------

PANEL = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; };
    const overlay = document.querySelector('[data-region=overlay]');
    const way = document.querySelector('.way-on');
    return { overlay: box(overlay), way: box(way), stuck: way.classList.contains('stuck'),
             buttons: [...way.querySelectorAll('button')].map(box), height: innerHeight };
}"""

HIDDEN_LINES = """() => {
    const way = document.querySelector('.way-on');
    const hidden = [];
    for (const line of document.querySelectorAll('ol.standings li')) {
        line.scrollIntoView({ block: 'nearest' });
        const r = line.getBoundingClientRect();
        const foot = Math.min(innerHeight, way.getBoundingClientRect().top);
        if (r.bottom > foot + 1 || r.top < 0) hidden.push([line.textContent, r.bottom, foot]);
    }
    return hidden;
}"""


@pytest.mark.parametrize("size", ["", "200%"])
def test_the_games_end_keeps_its_way_on_on_a_phone_held_sideways(
    browser: Any, server: AppServer, size: str
) -> None:
    # Eight players at 200% text: the table is taller than the screen, and the panel over it
    # was as tall; its way on, kept at the panel's foot, ran past the screen's ("Play again"
    # cut in half), over the standings' last lines in sight.
    page = open_page(browser, server, VIEWPORTS["phone"])
    play_to_game_over(page, server, {"levels": ["easy"] * 7, "rules": {"players": 8}})
    resize(page, VIEWPORTS["phone-landscape"])
    text_size(page, size)
    page.evaluate("document.querySelector('[data-region=overlay]').scrollTop = 0")
    settle(page)
    shoot(page, f"crowded-game-over-landscape-{size.strip('%') or '100'}")
    panel = page.evaluate(PANEL)
    height = panel["height"]
    assert panel["overlay"][1] <= height + 1, panel
    assert panel["stuck"], panel  # the standings and the last round run on under it
    for top, bottom in [panel["way"], *panel["buttons"]]:
        assert top >= 0 and bottom <= height + 1, panel
    # Every line of the standings can be brought into sight, clear of the way on.
    assert page.evaluate(HIDDEN_LINES) == []
    assert not page.errors


# --- the round's end on a phone held sideways: its way on over none of the table's rows -----

#: At the top of the round's panel and scrolled to its end: how many rows of the round's
#: table lie under the way on, how many are in sight, and whether its button is in sight.
ROUND_PANEL = """() => {
    const overlay = document.querySelector('[data-region=overlay]');
    const way = document.querySelector('.sheet-panel .way-on');
    const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
        && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    const found = [];
    for (const top of [0, overlay.scrollHeight]) {
        overlay.scrollTop = top;
        const under = way.getBoundingClientRect();
        const foot = Math.min(innerHeight, overlay.getBoundingClientRect().bottom);
        const rows = [...document.querySelectorAll('table.round-table tr')]
            .map((row) => row.getBoundingClientRect());
        const button = way.querySelector('button').getBoundingClientRect();
        found.push({ covered: rows.filter((r) => meet(r, under)).length,
                     seen: rows.filter((r) => r.top >= 0 && r.bottom <= foot + 1).length,
                     button: button.top >= 0 && button.bottom <= foot + 1,
                     across: document.documentElement.scrollWidth - innerWidth });
    }
    overlay.scrollTop = 0;
    return found;
}"""


@pytest.mark.parametrize("players", [4, 6, 10])
@pytest.mark.parametrize("size", ["", "150%", "200%"])
def test_the_rounds_way_on_covers_no_row_of_its_table_held_sideways(
    browser: Any, server: AppServer, size: str, players: int
) -> None:
    # 844 x 390 at 200% text: "Deal the next round", kept at the screen's foot, left two rows
    # of the round's table and a half in sight above it, the others under it until scrolled
    # (at the usual size, three of ten players' rows). It lies beside the table now: at the
    # top and at the end of the panel no row is under it, and it is in sight.
    page = open_page(browser, server, VIEWPORTS["phone-landscape"])
    game = first_round_played(hearts.Rules(players=players), 3)
    start_game(page)
    name = f"way-on-{players}-{size.strip('%') or '100'}"
    store_for(page, server, name, game)
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    text_size(page, size)
    page.click(f"[data-action=continue][data-game='{name}']")
    page.wait_for_selector("table.round-table")
    settle(page)
    top, end = page.evaluate(ROUND_PANEL)
    shoot(page, f"crowded-round-way-on-{players}-{size.strip('%') or '100'}")
    assert top["covered"] == 0 and end["covered"] == 0, (top, end)
    assert top["button"] and end["button"], (top, end)
    assert top["seen"] >= min(players + 1, 5), top  # the headings and four rows at least
    assert top["across"] <= 0, top
    assert not page.errors


# --- speech bubbles: none over another, nor over another seat ------------------------------

#: The longest line a computer player says (hearts/web/characters.py).
LONGEST_LINE = "The queen was up my sleeve all along."

#: JavaScript to begin a function's body with: `box(el)`, an element's [left, top, right,
#: bottom]; `meet(a, b)`, whether two boxes overlap by more than a pixel.
BOXES = """
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const meet = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 1
        && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 1;
"""

#: JavaScript for a function of `text`, after `BOXES`: `seats`, every opponent's seat, each
#: with its bubble showing `text`.
EVERY_SEAT_SAYS = """
    const seats = [...document.querySelectorAll('#game .seat.opponent')];
    for (const seat of seats) {
        const quip = seat.querySelector('.quip');
        quip.hidden = false;
        quip.textContent = text;
    }
"""

BUBBLES = (
    "(text) => {"
    + BOXES
    + EVERY_SEAT_SAYS
    + """
    const found = [];
    for (const seat of seats) {
        const quip = box(seat.querySelector('.quip'));
        if (quip[0] < 0 || quip[2] > innerWidth) found.push(`${seat.dataset.seat} off the screen`);
        for (const other of seats) {
            if (other === seat) continue;
            for (const part of ['.quip', '.name', '.avatar', '.numbers', '.held']) {
                const el = other.querySelector(part);
                if (el.offsetParent !== null && meet(quip, box(el))) {
                    found.push(`${seat.dataset.seat} over ${other.dataset.seat}'s ${part}`);
                }
            }
        }
    }
    return found;
}"""
)


@pytest.mark.parametrize("players", [8, 10])
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_speech_bubbles_cover_no_other_seat_nor_each_other(
    browser: Any, server: AppServer, viewport: str, players: int
) -> None:
    # Every seat saying the longest line at once, as a worst case. Five across the top of a
    # phone held sideways (ten players), each bubble 112 px wide over seats 92 px apart, lay
    # over the next ones and their numbers; at 200% text a bubble no wider than 80 or 112 px
    # took a line a word and ran down over the seats below (eight and ten, every screen).
    game = position(players, lambda g: len(g.round.trick) >= 2)
    page = open_position(browser, server, viewport, f"bubbles-{players}-{viewport}", game)
    for size in ("", "200%"):
        text_size(page, size)
        assert page.evaluate(BUBBLES, LONGEST_LINE) == [], size
        shoot(page, f"crowded-bubbles-{players}-{viewport}-{size.strip('%') or '100'}")
    assert not page.errors


# --- speech bubbles: never over a card of the trick ----------------------------------------

#: Phones held upright, where no bubble covers what the person must read besides the trick.
#: At 200% text a side seat's bubble, a word to a line, ran down over the message and the
#: person's line (three and four players, 390 x 844 and 360 x 740), or past its column over
#: the message's first letters (six, seven and nine at 360 x 740); at 150% the one across
#: the top lay over the trick (four at 390 x 844). On a desktop at 200% some bubbles still
#: cover the message or the person's line: not yet checked there.
UPRIGHT = ("phone", "small-phone")

#: Phones held sideways, where no bubble covers the message, the person's line nor the hand.
#: At 150% and 200% text a side seat's bubble opened under its seat over the hand's end cards,
#: "You 0 +0" and "Your turn." (three and four players, every size), at the usual size over
#: "You" (740 x 360); the lowest side seat's ran over "You" (seven to ten players at 667 x
#: 375); a lone seat's across the top, a word to a line, ran down over the message (four and
#: six players). At the usual size that one keeps beside its plate (test_speech_bubbles), and
#: on 740 x 360 and 667 x 375 it still reaches the message's first words: not yet checked.
SIDEWAYS = ("phone-landscape", "small-phone-landscape", "smaller-phone-landscape")

#: A long line of the message under the trick, as the game words it.
MESSAGE_LINE = "Marisol took the previous trick: 1 heart, the queen of spades."

#: Every bubble shown with `text`, as a worst case: [bubble's seat, the card's seat] for each
#: bubble over a place on the trick (a card's box: its slot), and how many cards are on it;
#: and [bubble's seat, what] for each bubble over what the person must read besides: the
#: message's words under the trick, the person's own line ("You 0 +0", "Your turn.") and hand.
OVER_THE_TRICK = (
    "(text) => {"
    + BOXES
    + """
    const quips = [...document.querySelectorAll('#game .seat .quip')];
    for (const quip of quips) { quip.hidden = false; quip.textContent = text; }
    const words = (el) => { const range = document.createRange(); range.selectNodeContents(el);
        const r = range.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const read = {
        message: words(document.querySelector('[data-region=message]')),
        'your seat': box(document.querySelector('#game .seat.mine')),
        'your status': words(document.querySelector('#status')),
        'your hand': box(document.querySelector('#hand')),
    };
    const found = [];
    const covers = [];
    for (const quip of quips) {
        if (quip.offsetParent === null) continue;
        for (const slot of document.querySelectorAll('.trick .slot')) {
            if (meet(box(quip), box(slot))) {
                found.push([quip.closest('.seat').dataset.seat, slot.dataset.seat]);
            }
        }
        if (quip.closest('.seat.mine')) continue;
        for (const [what, b] of Object.entries(read)) {
            if (meet(box(quip), b)) covers.push([quip.closest('.seat').dataset.seat, what]);
        }
    }
    return { found, covers, cards: document.querySelectorAll('.trick .played').length };
}"""
)


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_no_bubble_hides_a_card_of_the_trick(browser: Any, server: AppServer, players: int) -> None:
    # On a phone held sideways the top row's bubbles covered the top of the trick: at ten
    # players four lines tall, 15 px over the ring's top cards; at four the bubble under the
    # seat across lay over its card. On smaller phones held sideways (740 x 360, 667 x 375)
    # the ring reached the top row: bubbles three to five lines tall lay over the top cards
    # (four, five, seven, nine and ten players). Upright at 360 x 740 a side seat's bubble,
    # wider than its column, lay 5 px over its own card (three and four players). Each place
    # on the trick is checked, a card on it or not, with every opponent saying the longest
    # line at once; and every card's rank and suit stay in sight. On a phone held upright,
    # at 150% text as well, no bubble covers the message, the person's line nor the hand;
    # held sideways, at 150% as well, none covers them either.
    game = position(players, lambda g: len(g.round.trick) == players - 1)
    page = open_position(browser, server, "phone", f"trick-bubbles-{players}", game)
    failures = []
    message = page.text_content("[data-region=message]")
    for viewport, size in [
        *itertools.product(VIEWPORTS, ("", "200%")),
        *itertools.product((*UPRIGHT, *SIDEWAYS), ("150%",)),
    ]:
        resize(page, VIEWPORTS[viewport])
        # Upright, a message as long as the game makes them, before the page settles (the
        # ring takes the room it leaves); elsewhere the game's own.
        page.evaluate(
            "(line) => { document.querySelector('[data-region=message]').textContent = line; }",
            MESSAGE_LINE if viewport in UPRIGHT else message,
        )
        text_size(page, size)
        hidden = [slot["seat"] for slot in page.evaluate(TRICK) if not slot["index"]]
        over = page.evaluate(OVER_THE_TRICK, LONGEST_LINE)
        assert over["cards"] == players - 1
        covers = [
            [seat, what]
            for seat, what in over["covers"]
            if viewport in UPRIGHT or (viewport in SIDEWAYS and (size or what != "message"))
        ]
        if over["found"] or hidden or covers:
            failures.append((viewport, size, over["found"], hidden, covers))
        shoot(page, f"crowded-trick-bubbles-{players}-{viewport}-{size.strip('%') or '100'}")
        page.evaluate(
            "() => document.querySelectorAll('.quip').forEach((q) => { q.hidden = true; })"
        )
    assert failures == [], failures
    assert not page.errors


# --- large text on a phone held sideways: the whole hand in sight --------------------------

HAND_IN_SIGHT = """() => [...document.querySelectorAll('#hand .card')].map((card) => {
    const r = card.getBoundingClientRect();
    return [card.dataset.key, r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1
        && r.bottom <= innerHeight + 1];
}).filter(([, seen]) => !seen).map(([key]) => key)"""


@pytest.mark.parametrize("size", ["", "150%", "200%"])
def test_the_whole_hand_is_in_sight_on_a_phone_held_sideways(
    browser: Any, server: AppServer, size: str
) -> None:
    # Eight players at 200% text: the table is taller than the screen, and the hand lay
    # under its foot, its cards cut off at the top of their faces. At the person's move the
    # page brings the whole hand into sight (the trick with it).
    game = position(8, lambda g: len(g.round.trick) >= 1)
    page = open_position(
        browser, server, "phone-landscape", f"hand-in-sight-{size.strip('%')}", game
    )
    text_size(page, size)
    settle(page)
    assert page.evaluate(HAND_IN_SIGHT) == [], size
    trick = page.locator(".trick .played").first.bounding_box()
    assert trick is not None and trick["y"] >= 0  # the trick's cards too
    shoot(page, f"crowded-hand-landscape-{size.strip('%') or '100'}")
    assert not page.errors


# --- large text on a phone held sideways: a long message leaves the hand on the screen ------

#: A message as long as the game's longest: a dimmed card's reason, a stand-in's notice.
LONG_MESSAGE = (
    "You must follow suit: clubs were led, and you still hold clubs, so a club it must be."
)

#: How far the page scrolls down, the cards of the hand not wholly in sight, and the message:
#: whether its last line comes into sight when it scrolls within itself, and whether it is
#: shaded at its foot exactly when it has more to show.
HAND_AND_MESSAGE = """() => {
    const message = document.querySelector('[data-region=message]');
    const scrolls = message.scrollHeight > message.clientHeight + 1;
    const shaded = getComputedStyle(message).maskImage !== 'none';
    const reachable = !scrolls || (['auto', 'scroll'].includes(getComputedStyle(message).overflowY)
        && (message.scrollTop = message.scrollHeight,
            message.scrollTop + message.clientHeight >= message.scrollHeight - 1));
    message.scrollTop = 0;
    const cut = [...document.querySelectorAll('#hand .card')].filter((card) => {
        const r = card.getBoundingClientRect();
        return r.top < -1 || r.bottom > innerHeight + 1 || r.left < -1 || r.right > innerWidth + 1;
    }).map((card) => card.dataset.key);
    const height = Math.round(message.getBoundingClientRect().height);
    const range = document.createRange();
    range.selectNodeContents(message);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    return { down: document.documentElement.scrollHeight - innerHeight, cut, reachable,
             shade: scrolls === shaded, height, lines };
}"""


@pytest.mark.parametrize("players", [3, 4, 6, 10])
def test_a_long_message_leaves_the_hand_on_a_phone_held_sideways(
    browser: Any, server: AppServer, players: int
) -> None:
    # 844 x 390 at 200% text, a dimmed card's reason beside the trick: the page was 425 px
    # tall at six players (561 at ten), the hand half under the screen's foot. The message
    # shows four lines at most and scrolls within itself for the rest; the side seats and the
    # tools take less room. The whole hand is on the screen, the page no taller than it.
    game = position(players, lambda g: len(g.round.trick) >= 1)
    page = open_position(browser, server, "phone-landscape", f"long-message-{players}", game)
    page.emulate_media(reduced_motion="reduce")  # the hand's cards at once in their places
    failures = []
    for size in ("", "150%", "200%"):
        page.evaluate(
            "(line) => { document.querySelector('[data-region=message]').textContent = line; }",
            LONG_MESSAGE,
        )
        large_text(page, size)
        page.evaluate("window.scrollTo(0, 0)")
        found = page.evaluate(HAND_AND_MESSAGE)
        if found["down"] > 0 or found["cut"] or not found["reachable"] or not found["shade"]:
            failures.append((size, found))
        if size == "" and players <= 4:
            # Beside a ring of three or four there is room: it took five lines of 16
            # letters, the felt beside it empty.
            assert found["lines"] <= 3, found
        shoot(page, f"crowded-long-message-{players}-{size.strip('%') or '100'}")
    assert failures == [], failures
    assert not page.errors


# --- large text on a phone held upright: the person's tools in sight at a table with friends ---

#: The boxes of React and Sound, and whether each lies wholly on the screen.
TOOLS_IN_SIGHT = """() => [...document.querySelectorAll('[data-action=react], [data-action=sound]')]
    .map((el) => { const r = el.getBoundingClientRect();
        return [el.dataset.action, r.top >= -1 && r.bottom <= innerHeight + 1
            && r.left >= -1 && r.right <= innerWidth + 1, Math.round(r.bottom)]; })"""


@pytest.mark.parametrize("players", [3, 4, 6, 10])
def test_react_and_sound_are_in_sight_on_an_upright_phone_at_large_text(
    browser: Any, server: AppServer, players: int
) -> None:
    # A table with a friend, six seats, 390 x 844 at 200% text: React and Sound lay under the
    # screen's foot (Sound 42 px under it; at ten seats React 81 px), the message over the
    # hand five lines tall and the tools two rows. While the cards are played both are on
    # the screen with the top of the table, at every text size.
    page = open_page(browser, server, VIEWPORTS["phone"])
    page.emulate_media(reduced_motion="reduce")
    body = {
        "rules": {"players": players, "pass_cycle": ["hold"]},
        "name": "Ann",
        "turn_time": None,
        "seats": ["you", "friend", *["easy"] * (players - 2)],
    }
    state = create_by_page(page, body)
    page.goto(f"{server.url}/?table={state['id']}&speed=instant")
    page.click("[data-action=start-table]")
    page.wait_for_selector("#game[data-phase=playing] #hand [data-card]", timeout=15000)
    page.wait_for_selector("[data-action=react]")
    failures = []
    for size in ("", "150%", "200%"):
        large_text(page, size)
        page.evaluate("window.scrollTo(0, 0)")
        settle(page)
        found = page.evaluate(TOOLS_IN_SIGHT)
        assert [action for action, _, _ in found] == ["react", "sound"], found
        if not all(seen for _, seen, _ in found):
            failures.append((size, found))
        shoot(page, f"crowded-tools-upright-{players}-{size.strip('%') or '100'}")
    assert failures == [], failures
    assert not page.errors


# --- the winner's mark on a crowded trick, held sideways -------------------------------------

#: For each place on the trick marked as the winner's in turn: how many points of its "★ wins"
#: are drawn (found with the other places hidden), and how many of them another card covers.
WINS_MARK = """() => {
    const slots = [...document.querySelectorAll('.trick .slot')];
    const found = [];
    for (const slot of slots.filter((s) => s.querySelector('.played'))) {
        slots.forEach((s) => s.classList.toggle('winner', s === slot));
        const r = slot.getBoundingClientRect();
        const points = [];
        for (const s of slots) if (s !== slot) s.style.visibility = 'hidden';
        for (let x = r.left - 70; x <= r.right + 70; x += 3) {
            for (let y = r.top - 30; y <= r.bottom + 30; y += 3) {
                if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) continue;
                if (document.elementFromPoint(x, y) === slot) points.push([x, y]);
            }
        }
        for (const s of slots) s.style.visibility = '';
        const covered = points.filter(([x, y]) => document.elementFromPoint(x, y) !== slot);
        found.push([slot.dataset.seat, points.length, covered.length]);
        slot.classList.remove('winner');
    }
    return found;
}"""


@pytest.mark.parametrize("players", [8, 10])
def test_the_winners_mark_is_in_sight_on_a_phone_held_sideways(
    browser: Any, server: AppServer, players: int
) -> None:
    # Eight and ten players on a phone held sideways: "★ wins", always to the right of its
    # card, lay under the next card round the ring when that one was lower (a lower card lies
    # over the one above it), up to wholly out of sight. Each card is made the winner in turn.
    game = position(players, lambda g: len(g.round.trick) == players - 1)
    page = open_position(browser, server, "phone-landscape", f"wins-{players}", game)
    hidden = []
    for viewport in ("phone-landscape", "small-phone-landscape", "smaller-phone-landscape"):
        resize(page, VIEWPORTS[viewport])
        for seat, drawn, covered in page.evaluate(WINS_MARK):
            assert drawn > 0, (viewport, seat)
            if covered:
                hidden.append((viewport, seat, covered, drawn))
    assert hidden == [], hidden
    assert not page.errors


# --- large text on a phone held sideways: the trick keeps its room ------------------------------

#: The most that any card of the trick lies over another, as a share of a card, and the boxes
#: of the message beside the trick and of what is under it (the person's line, the hand).
PILED = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const cards = [...document.querySelectorAll('.trick .slot')]
        .filter((slot) => slot.querySelector('.played')).map(box);
    let most = 0;
    for (const a of cards) {
        for (const b of cards) {
            const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
            const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
            if (a !== b && w > 0 && h > 0) {
                most = Math.max(most, (w * h) / ((a[2] - a[0]) * (a[3] - a[1])));
            }
        }
    }
    return { most, cards, message: box(document.querySelector('[data-region=message]')),
             below: [...document.querySelectorAll('.me-line, #hand .card')].map(box) };
}"""


@pytest.mark.parametrize(
    "viewport", ["phone-landscape", "small-phone-landscape", "smaller-phone-landscape"]
)
def test_the_trick_keeps_its_room_at_large_text_held_sideways(
    browser: Any, server: AppServer, viewport: str
) -> None:
    # Eight players at 200% text: the message beside the trick took the room, and the ring
    # shrank to half its width (75 px at 667 x 375), its cards piled on each other.
    game = position(8, lambda g: len(g.round.trick) == 7)
    page = open_position(browser, server, viewport, f"piled-{viewport}", game)
    usual = page.evaluate(PILED)
    for size in ("150%", "200%"):
        text_size(page, size)
        large = page.evaluate(PILED)
        assert large["most"] <= usual["most"] + 0.01, (size, usual["most"], large["most"])
        for card in large["cards"]:
            assert not overlap(card, large["message"]), (size, card, large["message"])
        for part in large["below"]:
            assert not overlap(part, large["message"]), (size, part, large["message"])
        shoot(page, f"crowded-piled-{viewport}-{size.strip('%')}")
    assert not page.errors


# --- a whole trick of two decks: every card's corner in sight, each card clear of the next ----

#: Sizes a tester measured on besides the ones above: laptops.
LAPTOPS = screens("laptop", "laptop-taller")

#: The trick made whole (a copy of a card in the person's place, the one still empty), then
#: for each two cards that meet the share of the smaller one under the other; for each card
#: whose index (its rank and suit, at the top left) is not in sight, what lies over it; and
#: the lead's and the cancelled cards' marks not in sight.
WHOLE_TRICK = """() => {
    const box = (e) => { const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const empty = [...document.querySelectorAll('.trick .slot')]
        .find((s) => !s.querySelector('.played'));
    if (empty) empty.append(document.querySelector('.trick .played').cloneNode(true));
    const cards = [...document.querySelectorAll('.trick .slot')].map((slot) =>
        ({ seat: slot.dataset.seat, el: slot.querySelector('.played'),
           box: box(slot.querySelector('.played')) }));
    const area = (b) => (b[2] - b[0]) * (b[3] - b[1]);
    const overlaps = [];
    for (const [i, a] of cards.entries()) {
        for (const b of cards.slice(i + 1)) {
            const w = Math.min(a.box[2], b.box[2]) - Math.max(a.box[0], b.box[0]);
            const h = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
            if (w > 0 && h > 0) {
                overlaps.push([a.seat, b.seat, (w * h) / Math.min(area(a.box), area(b.box))]);
            }
        }
    }
    // cards.js draws the index at 1 to 12 of a card's 60 across, 3 to 23 of its 84 down.
    const covered = [];
    for (const { seat, el, box: [l, t, r, b] } of cards) {
        const over = [2, 7, 12].flatMap((x) => [4, 10, 16, 22].map((y) =>
            document.elementFromPoint(l + (r - l) * x / 60, t + (b - t) * y / 84)))
            .find((hit) => !el.contains(hit));
        if (over !== undefined) {
            const slot = over && over.closest('.slot');
            const what = over && over.getAttribute('class');
            covered.push([seat, slot ? slot.dataset.seat : null, what]);
        }
    }
    const marks = [...document.querySelectorAll('.trick :is(.led-mark, .cancel-mark)')]
        .filter((m) => { const [l, t, r, b] = box(m);
                         return !m.contains(document.elementFromPoint((l + r) / 2, (t + b) / 2)); })
        .map((m) => [m.closest('.slot').dataset.seat, m.className]);
    return { overlaps, covered, marks, cards: cards.length };
}"""

#: The most a card may lie under another: a sliver of its edge.
SLIVER = 0.1


@pytest.mark.parametrize(
    "players",
    [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if hearts.Rules(players=n).decks == 2],
)
def test_every_card_of_a_whole_trick_is_in_sight(
    browser: Any, server: AppServer, players: int
) -> None:
    # Ten players at 1366 x 800: a card hid 23% of the next (Ngozi's 3♠ under Felix's 2♠);
    # upright on a phone a third, held sideways a half; the lead's mark, wider than a small
    # card, lay over its own rank and suit. At equal angles round a flat ring the cards
    # bunched at its two ends. Every card of a whole trick, at every size: its rank and suit
    # in sight, no more than a sliver of it under another card, the marks on it in sight.
    game = position(players, lambda g: len(g.round.trick) == players - 1)
    page = open_position(browser, server, "phone", f"whole-trick-{players}", game)
    failures = []
    for viewport, size in {**VIEWPORTS, **LAPTOPS}.items():
        resize(page, size)
        found = page.evaluate(WHOLE_TRICK)
        assert found["cards"] == players, found
        piled = [pair for pair in found["overlaps"] if pair[2] > SLIVER]
        if piled or found["covered"] or found["marks"]:
            failures.append((viewport, piled, found["covered"], found["marks"]))
        shoot(page, f"crowded-whole-trick-{players}-{viewport}")
    assert failures == [], failures
    assert not page.errors


# --- large text on a phone held sideways: the person's line clear of the tools ----------------

#: The boxes of the person's own line ("You 0 +0", "Your turn.") and of each tool shown beside
#: it (Hint, Undo, Tricks, Sound), by its action.
MY_LINE = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const shown = (el) => el.getClientRects().length > 0;
    return {
        line: ['[data-region=me]', '#status'].map((s) => box(document.querySelector(s))),
        tools: [...document.querySelectorAll('.tools button')].filter(shown)
            .map((el) => [el.dataset.action, box(el)]),
        width: innerWidth,
    };
}"""


@pytest.mark.parametrize("players", [4, 8])
@pytest.mark.parametrize(
    "viewport", ["phone-landscape", "small-phone-landscape", "smaller-phone-landscape"]
)
def test_the_persons_line_stays_clear_of_the_tools_at_large_text_held_sideways(
    browser: Any, server: AppServer, viewport: str, players: int
) -> None:
    # A phone held sideways (667 x 375) at 200% text: Hint and Undo, beside the person's line,
    # took its room and lay over "You 0 +0" and "Your turn.". The tools wrap in what the line
    # leaves them.
    game = position(players, lambda g: len(g.round.tricks) >= 1 and len(g.round.trick) >= 1)
    page = open_position(browser, server, viewport, f"my-line-{viewport}-{players}", game)
    for size in ("", "150%", "200%"):
        text_size(page, size)
        found = page.evaluate(MY_LINE)
        actions = [action for action, _ in found["tools"]]
        assert {"hint", "undo", "tricks", "sound"} <= set(actions), (size, actions)
        for (action, tool), part in itertools.product(found["tools"], found["line"]):
            assert not overlap(tool, part), (size, action, tool, part)
        for _, tool in found["tools"]:
            assert tool[0] >= -1 and tool[2] <= found["width"] + 1, (size, tool)
        for a, b in itertools.combinations(found["tools"], 2):
            assert not overlap(a[1], b[1]), (size, a, b)
        shoot(page, f"crowded-my-line-{viewport}-{players}-{size.strip('%') or '100'}")
    assert not page.errors


# --- every table on a phone at the usual text size: the whole of it on the screen -------------

#: Phones, upright and held sideways, as the tests above use them.
PHONES = [
    "phone",
    "phone-landscape",
    "small-phone",
    "small-phone-landscape",
    "smaller-phone-landscape",
]

#: How far the page scrolls each way, and what of the table is off the screen or lies over the
#: person's part at its foot (their line, tools and hand): a seat, a place on the trick.
ON_ONE_SCREEN = (
    "() => {"
    + BOXES
    + """
    const off = (b) => b[0] < -1 || b[1] < -1 || b[2] > innerWidth + 1 || b[3] > innerHeight + 1;
    const mine = [...document.querySelectorAll('.me-line, .tools button, #hand .card')]
        .filter((el) => el.getClientRects().length).map(box);
    const found = [];
    const parts = [...document.querySelectorAll('#game .seat.opponent, .trick .slot, #hand .card')];
    for (const el of parts) {
        const b = box(el);
        const what = el.dataset.seat || el.dataset.key;
        if (off(b)) found.push(`${el.className} ${what} off the screen`);
        if (!el.closest('#hand') && mine.some((m) => meet(b, m))) {
            found.push(`${el.className} ${what} over the person's part`);
        }
    }
    const page = document.documentElement;
    return { down: page.scrollHeight - innerHeight, across: page.scrollWidth - innerWidth, found };
}"""
)


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_every_table_fits_a_phone_at_the_usual_text_size(
    browser: Any, server: AppServer, players: int
) -> None:
    # Eight players on a phone held sideways (740 x 360): the page was 30 px taller than the
    # screen, and scrolled; six 88 px, three 44 (a hand of 17 cards in two rows). On the
    # shortest phones held sideways a hand's rows overlap, the side seats go without their
    # faces, and the ring takes the room the rest leaves it.
    game = position(players, lambda g: len(g.round.trick) >= 1)
    page = open_position(browser, server, "phone", f"one-screen-{players}", game)
    page.emulate_media(reduced_motion="reduce")  # the hand's cards at once in their places
    failures = []
    for viewport in PHONES:
        resize(page, VIEWPORTS[viewport])
        found = page.evaluate(ON_ONE_SCREEN)
        if found["down"] > 0 or found["across"] > 0 or found["found"]:
            failures.append((viewport, found))
        shoot(page, f"crowded-one-screen-{players}-{viewport}")
    assert failures == [], failures
    assert not page.errors


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_every_table_fits_a_short_phone_held_sideways_at_large_text(
    browser: Any, server: AppServer, players: int
) -> None:
    # 740 x 360 at 150% to 200% text: the page was 5 to 92 px taller than the screen, and
    # scrolled (three players 15 px at 200%, six 57, eight 92, ten 19). The ring takes only
    # the room the rest leaves it, a seat down a side puts its cards beside its numbers and
    # leaves its level out, and three across the top keep their numbers and cards on a row.
    game = position(players, lambda g: len(g.round.trick) >= 1)
    page = open_position(
        browser, server, "small-phone-landscape", f"one-screen-large-{players}", game
    )
    page.emulate_media(reduced_motion="reduce")  # the hand's cards at once in their places
    failures = []
    for size in ("150%", "175%", "200%"):
        large_text(page, size)
        page.evaluate("window.scrollTo(0, 0)")
        found = page.evaluate(ON_ONE_SCREEN)
        if found["down"] > 0 or found["across"] > 0 or found["found"]:
            failures.append((size, found))
        shoot(page, f"crowded-one-screen-large-{players}-{size.strip('%')}")
    assert failures == [], failures
    assert not page.errors


@pytest.mark.parametrize("players", range(5, MAX_PLAYERS + 1))
def test_a_crowded_table_fits_a_desktop_at_large_text(
    browser: Any, server: AppServer, players: int
) -> None:
    # 1280 x 800 at 200% text, five to ten players: the page was 13 px taller than the
    # screen, Hint and Sound cut at its foot, under a ring with felt to spare. The tools go
    # beside the person's line (a smaller ring let a bubble lie over one of its cards).
    game = position(players, lambda g: len(g.round.trick) >= 1)
    page = open_position(browser, server, "desktop", f"desktop-large-{players}", game)
    page.emulate_media(reduced_motion="reduce")  # the hand's cards at once in their places
    failures = []
    for size in ("", "150%", "200%"):
        large_text(page, size)
        page.evaluate("window.scrollTo(0, 0)")
        found = page.evaluate(ON_ONE_SCREEN)
        if found["down"] > 0 or found["across"] > 0 or found["found"]:
            failures.append((size, found))
        shoot(page, f"crowded-desktop-large-{players}-{size.strip('%') or '100'}")
    assert failures == [], failures
    assert not page.errors


#: Where a table scrolled at 150% to 200% text, in one phase or another: the shortest phones
#: held sideways and the desktops.
LARGE_TEXT_SCREENS = screens(
    "smaller-phone-landscape", "shortest-phone-landscape", "desktop", "laptop"
)

#: What `ON_ONE_SCREEN` finds, and the person's own part off the screen or under another: the
#: message, their line, a tool, a card of the hand.
ALL_IN_SIGHT = (
    "() => {"
    + BOXES
    + """
    const shown = (sel) => [...document.querySelectorAll(sel)]
        .filter((e) => e.getClientRects().length);
    const off = (b) => b[0] < -1 || b[1] < -1 || b[2] > innerWidth + 1 || b[3] > innerHeight + 1;
    const found = ("""
    + ON_ONE_SCREEN
    + """)().found;
    const message = shown('#game .message').filter((e) => e.textContent.trim()).map(box);
    const line = shown('.me-line').map(box);
    const tools = shown('.tools button').map(box);
    const hand = shown('#hand .card').map(box);
    for (const [what, boxes] of [['message', message], ['line', line], ['tool', tools]]) {
        for (const b of boxes) if (off(b)) found.push(`the ${what} off the screen`);
    }
    for (const m of message) {
        const under = [...line, ...tools, ...hand].some((b) => meet(m, b));
        if (under) found.push('the message over the person');
    }
    for (const t of tools) if (line.some((b) => meet(t, b))) found.push('a tool over the line');
    const page = document.documentElement;
    return { down: page.scrollHeight - innerHeight, across: page.scrollWidth - innerWidth, found };
}"""
)


def phase_game(phase: str, players: int) -> hearts.Game:
    """A game of `players` at the person's turn in `phase`: choosing the cards of a scatter (the
    longest message), playing to a trick, or under the round's panel."""
    if phase == "passing":
        return hearts.Game(hearts.Rules(players=players, pass_cycle=("scatter",)), 5)
    if phase == "round-over":
        return first_round_played(hearts.Rules(players=players), 2)
    return position(players, lambda g: len(g.round.trick) >= 1)


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
@pytest.mark.parametrize("phase", ["passing", "playing", "round-over"])
def test_every_table_in_every_phase_fits_short_and_wide_screens_at_large_text(
    browser: Any, server: AppServer, phase: str, players: int
) -> None:
    # At 150% to 200% text the page was taller than the screen: held sideways at 640 x 360 and
    # 667 x 375 by up to 71 px (the tools in two rows, three rows to a seat across the top, a
    # seat down a side with its face); at 1366 x 768 and 1280 x 800 a scatter's message, five
    # lines under a ring of its full height, by up to 153 px, and under the round's panel by
    # 32. The ring takes the room the rest leaves it; held sideways the words other than the
    # message grow only to 18 px.
    game = phase_game(phase, players)
    page = open_position(browser, server, "desktop", f"large-{phase}-{players}", game)
    page.emulate_media(reduced_motion="reduce")  # the hand's cards at once in their places
    failures = []
    for viewport, screen in LARGE_TEXT_SCREENS.items():
        resize(page, screen)
        for size in ("150%", "175%", "200%"):
            large_text(page, size)
            page.evaluate("window.scrollTo(0, 0)")
            found = page.evaluate(ALL_IN_SIGHT)
            if found["down"] > 0 or found["across"] > 0 or found["found"]:
                failures.append((viewport, size, found))
            shoot(page, f"large-{phase}-{players}-{viewport}-{size.strip('%')}")
    assert failures == [], failures
    assert not page.errors


# --- who played each card of the trick ------------------------------------------------------

#: For each card on the trick: its seat, its player's name as the seat shows it (or "You"), the
#: card's accessible name and its title, and where its index is (in sight, tests above).
TRICK_CARDS = """() => [...document.querySelectorAll('.trick .slot')]
    .filter((slot) => slot.querySelector('.played')).map((slot) => {
        const card = slot.querySelector('.played');
        const seat = document.querySelector(`#game .seat[data-seat="${slot.dataset.seat}"]`);
        const r = card.getBoundingClientRect();
        return { seat: slot.dataset.seat, name: seat.querySelector('.name').textContent,
                 label: card.getAttribute('aria-label'), title: card.getAttribute('title'),
                 at: [r.left + r.width * .14, r.top + r.height * .1] };
    })"""

POINTED = (
    """() => [...document.querySelectorAll('#game .seat.pointed')].map((s) => s.dataset.seat)"""
)


@pytest.mark.parametrize("players", [4, MAX_PLAYERS])
@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_each_card_of_the_trick_says_who_played_it(
    browser: Any, server: AppServer, viewport: str, players: int
) -> None:
    # At ten players a card of the trick was known by its place round the ring alone. Read
    # aloud, each card names its player ("Marisol played the eight of diamonds"); a pointer on
    # it shows its player's name and the card ("Marisol: 8♦") and lights that player's seat.
    game = position(players, lambda g: len(g.round.trick) == players - 1)
    page = open_position(browser, server, viewport, f"who-played-{viewport}-{players}", game)
    cards = page.evaluate(TRICK_CARDS)
    assert len(cards) == players - 1
    assert {card["seat"] for card in cards} == {str(seat) for seat in range(1, players)}
    for card in cards:
        name = plain(card["name"])
        assert plain(card["label"]).startswith(f"{name} played the "), card
        assert card["title"] and plain(card["title"]).startswith(f"{name}: "), card
        assert card["title"][-1] in "♣♦♥♠", card
        page.mouse.move(*card["at"])
        assert page.evaluate(POINTED) == [card["seat"]], card
    page.mouse.move(1, 1)
    assert page.evaluate(POINTED) == []
    page.mouse.move(*cards[-1]["at"])
    shoot(page, f"crowded-who-played-{viewport}-{players}")
    assert not page.errors


#: Where the keyboard's focus is: the seat of the trick's card it is on ("" for none), that
#: card's title, the words written beside it (its `::after`), its ring, the seats lit,
#: whether the words lie over a lit seat's name, and whether the focus is in the hand.
FOCUS = """() => {
    const el = document.activeElement;
    const slot = el.closest('.trick .slot');
    const style = getComputedStyle(el, '::after');
    const after = style.content;
    const lit = [...document.querySelectorAll('#game .seat.pointed')];
    // The words' box, from the card's and the offsets of its ::after (centred across it).
    const r = el.getBoundingClientRect();
    const [w, h] = [parseFloat(style.width), parseFloat(style.height)];
    const top = style.top !== 'auto' ? r.top + parseFloat(style.top)
        : r.bottom - parseFloat(style.bottom) - h;
    const words = [r.left + r.width / 2 - w / 2, top, r.left + r.width / 2 + w / 2, top + h];
    const meet = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 1
        && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 1;
    const name = (seat) => { const b = seat.querySelector('.name').getBoundingClientRect();
        return [b.left, b.top, b.right, b.bottom]; };
    return { seat: slot ? slot.dataset.seat : '', title: el.getAttribute('title') || '',
             shows: after && after !== 'none' && after !== 'normal' ? after : '',
             ring: getComputedStyle(el).outlineStyle,
             lit: lit.map((s) => s.dataset.seat),
             overName: Boolean(slot) && lit.some((seat) => meet(words, name(seat))),
             inHand: Boolean(el.closest('#hand')) };
}"""


@pytest.mark.parametrize("players", [4, MAX_PLAYERS])
@pytest.mark.parametrize("viewport", ["phone", "phone-landscape", "desktop"])
def test_the_keyboard_finds_who_played_each_card_of_the_trick(
    browser: Any, server: AppServer, viewport: str, players: int
) -> None:
    # A pointer on a card of the trick lit its player's seat and showed "Marisol: 8♦"; the
    # keyboard could not reach the cards at all. The trick is now one tab stop, the one before
    # the hand (Shift+Tab from it): the arrows go from card to card in the order they were
    # played, and the focused card is ringed, its player's seat lit and its words written
    # beside it, clear of that seat's name. Tab from the trick is back in the hand, and Tab
    # from the hand goes on to the buttons as before.
    game = position(players, lambda g: len(g.round.trick) == players - 1)
    page = open_position(browser, server, viewport, f"keys-who-{viewport}-{players}", game)
    assert page.evaluate(FOCUS)["inHand"]  # the person's turn: a playable card has the focus
    page.keyboard.press("Shift+Tab")
    # The lead (seat 1, on the person's left), then round the table in the order of play.
    order = [str(seat) for seat in range(1, players)]
    seen = []
    for i in range(len(order) + 1):
        at = page.evaluate(FOCUS)
        assert at["seat"], at  # on a card of the trick
        name = plain(page.text_content(f"#game .seat[data-seat='{at['seat']}'] .name") or "")
        seen.append(at["seat"])
        assert at["lit"] == [at["seat"]], at
        assert at["ring"] != "none", at
        assert at["shows"] == f'"{at["title"]}"' and plain(at["title"]).startswith(f"{name}: ")
        assert not at["overName"], at  # the words leave the lit seat's name in sight
        if i == 1:
            shoot(page, f"crowded-keys-who-{viewport}-{players}")
        page.keyboard.press("ArrowRight")
    assert seen == [*order, order[0]]  # the last card's next is the lead again
    page.keyboard.press("End")
    assert page.evaluate(FOCUS)["seat"] == order[-1]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(FOCUS)["seat"] == order[-2]
    page.keyboard.press("Home")
    assert page.evaluate(FOCUS)["seat"] == order[0]
    page.keyboard.press("Tab")
    back = page.evaluate(FOCUS)
    assert back["inHand"] and back["lit"] == [], back
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") == "BUTTON"
    assert page.evaluate("document.activeElement.closest('#hand, .trick')") is None
    # Back to the trick: the card last looked at keeps the tab stop.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUS)["seat"] == order[0]
    assert not page.errors


def test_no_tab_stop_on_an_empty_trick_and_the_focus_stays_at_the_table(
    browser: Any, server: AppServer
) -> None:
    # With no card on the table the trick takes no stop: Shift+Tab from the hand goes by it.
    # When the trick goes while the keyboard is on one of its cards, the focus goes to the
    # hand, never to the page (where a screen reader says nothing).
    players = 4
    game = position(players, lambda g: len(g.round.trick) == 0 and len(g.round.hand(0)) < 13)
    page = open_page(browser, server, VIEWPORTS["phone"])
    start_game(page)
    store_for(page, server, "keys-empty-trick", game)
    open_stored(page, server, "keys-empty-trick", query="speed=slow")  # time to look
    assert page.evaluate("document.querySelectorAll('.trick [tabindex]').length") == 0
    assert page.evaluate(FOCUS)["inHand"]
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.closest('#hand, .trick')") is None
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUS)["inHand"]
    page.evaluate(
        """() => {
            window.lost = 0;
            const look = () => {
                if (document.activeElement === document.body) window.lost += 1;
                requestAnimationFrame(look);
            };
            requestAnimationFrame(look);
        }"""
    )
    # The person leads; while the others play, the keyboard goes to the trick.
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.trick .played')")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUS)["seat"] == "0"
    whole = f"document.querySelectorAll('.trick .played').length === {players}"
    page.wait_for_function(f"() => {whole}", timeout=20000)
    page.wait_for_function(f"() => !({whole})", timeout=20000)
    settle(page)
    assert page.evaluate("window.lost") == 0
    assert page.evaluate(FOCUS)["inHand"]
    assert not page.errors


# --- a tablet held upright uses its screen ---------------------------------------------------

TABLETS = screens("tablet", "tablet-air", "tablet-pro")

#: The hand's cards (how wide, the least of each in sight, how many rows), and the felt left
#: empty above the hand: from the lowest of the seats and the middle's parts (the ring, the
#: message, the signs) to the top of the person's line.
TABLET_HAND = """() => {
    // Where each card lies in the hand, a playable card's lift aside.
    const cards = [...document.querySelectorAll('#hand .card')]
        .map((e) => ({ left: e.offsetLeft, top: e.offsetTop, width: e.offsetWidth }));
    const rows = [...new Set(cards.map((r) => r.top))];
    let shown = Infinity;
    for (const top of rows) {
        const row = cards.filter((r) => r.top === top).sort((a, b) => a.left - b.left);
        for (let i = 1; i < row.length; i += 1) {
            shown = Math.min(shown, row[i].left - row[i - 1].left);
        }
    }
    const above = [...document.querySelectorAll(
        '#game .seat.opponent, .trick, .centre .message, .centre .signs > *')]
        .filter((e) => e.matches('.trick, .seat') || e.getClientRects().length && e.textContent)
        .map((e) => e.getBoundingClientRect().bottom);
    const line = document.querySelector('.me-line').getBoundingClientRect().top;
    return { width: cards[0].width, shown, rows: rows.length, empty: line - Math.max(...above) };
}"""


@pytest.mark.parametrize("players", [3, 4, 6, 10])
def test_a_tablet_held_upright_uses_its_screen(
    browser: Any, server: AppServer, players: int
) -> None:
    # At 768 x 1024 the 13 cards lay in one row of small cards, each 57 px of it in sight,
    # under some 300 px of empty felt. Upright, a tablet's cards are bigger, in two rows
    # where that shows more of each, and the ring takes the room left: nothing scrolls.
    game = position(players, lambda g: len(g.round.trick) >= 1)
    page = open_position(browser, server, "phone", f"tablet-{players}", game)
    page.emulate_media(reduced_motion="reduce")  # the hand's cards at once in their places
    failures = []
    for viewport, size in TABLETS.items():
        resize(page, size)
        found = page.evaluate(ON_ONE_SCREEN)
        hand = page.evaluate(TABLET_HAND)
        shoot(page, f"tablet-upright-{players}-{viewport}")
        if found["down"] > 0 or found["across"] > 0 or found["found"]:
            failures.append((viewport, found))
        if hand["width"] < 96 or hand["shown"] < 72 or hand["empty"] > size["height"] * 0.11:
            failures.append((viewport, hand))
    assert failures == [], failures
    assert not page.errors
