"""Issue 15, the game table's look: it fits every screen, and nothing hides anything else.

Points 1-3: dimmed cards are not see-through, pips stand upright, and on a landscape phone
the hand and the trick are on screen together with the header, the across player's card
count and the signs whole. Screenshots go to HEARTS_SCREENSHOT_DIR when it is set.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from test_web_game_browser import (
    TABLE,
    hand,
    open_page,
    pass_three,
    shoot,
    start_game,
    wait_for_person,
)

import hearts
from hearts import Rules
from hearts.rules import MIN_PLAYERS

from browser_support import AppServer, create_by_page, resize, spills, store_for

pytestmark = pytest.mark.browser

VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "phone-landscape": {"width": 844, "height": 390},
    "tablet": {"width": 768, "height": 1024},
    "desktop": {"width": 1366, "height": 800},
}

BOXES = """() => {
    const box = (e) => { const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const all = (sel) => [...document.querySelectorAll(sel)].map(box);
    return {
        hand: all('[data-region=hand] [data-card]'),
        slots: all('.trick .slot'),
        seats: all('#game .seat'),
        names: all('#game .seat .name'),
        vw: innerWidth, vh: innerHeight,
        scrolled: [scrollX, scrollY],
        wide: document.documentElement.scrollWidth,
    };
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes share any area (touching edges do not count)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def inside(box: list[float], width: float, height: float) -> bool:
    return box[0] >= -0.5 and box[1] >= -0.5 and box[2] <= width + 0.5 and box[3] <= height + 0.5


@pytest.mark.parametrize("players", [Rules().players, MIN_PLAYERS])
@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_hand_and_trick_fit_and_nothing_overlaps(
    browser: Any, server: AppServer, name: str, players: int
) -> None:
    # The smallest table too: round the whole ring, its two other cards overlapped the
    # person's card (and hid its "led" mark); they now go to their players' sides.
    page = open_page(browser, server, VIEWPORTS[name])
    usual = players == Rules().players
    if usual:
        shoot(page, f"{name}-start")
    page.click(f"[data-players='{players}']")
    start_game(page)
    pass_three(page, screenshot=f"{name}-pass" if usual else None)
    wait_for_person(page)
    if usual:
        shoot(page, f"{name}-play")
    found = page.evaluate(BOXES)
    width, height = found["vw"], found["vh"]
    assert found["scrolled"] == [0, 0] and found["wide"] <= width
    assert len(found["hand"]) >= Rules(players=players).hand_size - 1
    for box in found["hand"] + found["slots"]:
        assert inside(box, width, height), (name, box, width, height)
    seats = found["seats"]
    assert len(seats) == len(found["slots"]) == len(found["names"])
    for group in (seats, found["names"], found["slots"]):
        for a, b in itertools.combinations(group, 2):
            assert not overlap(a, b), (name, a, b)
    for seat, slot in itertools.product(seats, found["slots"]):
        assert not overlap(seat, slot), (name, seat, slot)
    for card, other in itertools.product(found["hand"], seats + found["slots"]):
        assert not overlap(card, other), (name, card, other)
    assert not page.errors


def test_a_dimmed_card_is_opaque_all_the_way_up(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, VIEWPORTS["phone"])
    start_game(page)
    pass_three(page)
    wait_for_person(page)
    dimmed = page.query_selector("[data-card][data-legal=false]")
    assert dimmed is not None, "on the first trick some cards are always refused"
    see_through = dimmed.evaluate(
        """(card) => {
            const found = [];
            for (const part of [card, ...card.querySelectorAll('*')]) {
                for (let el = part; el; el = el.parentElement) {
                    const style = getComputedStyle(el);
                    if (style.opacity !== '1') found.push([el.tagName, style.opacity]);
                    if (el.matches('.card-bg') && style.fillOpacity !== '1')
                        found.push(['fill', style.fillOpacity]);
                }
            }
            return found;
        }"""
    )
    assert see_through == []
    # The dimmed card still looks dimmed: its face is not the playable cards' white.
    fill = dimmed.evaluate("c => getComputedStyle(c.querySelector('.card-bg')).fill")
    legal = page.eval_on_selector(
        "[data-card][data-legal=true] .card-bg", "e => getComputedStyle(e).fill"
    )
    assert fill != legal
    # The "new" badge of a received card is not covered by the card beside it.
    badge = page.evaluate(
        """() => {
            const card = document.querySelector('.card.received');
            if (!card) return null;
            const r = card.getBoundingClientRect();
            const after = getComputedStyle(card, '::after');
            const x = r.left + parseFloat(after.left) + 6;
            const y = r.top + r.height * parseFloat(after.top) / 100 + 4;
            return document.elementFromPoint(x, y)?.closest('.card') === card;
        }"""
    )
    assert badge is not False
    assert not page.errors


def test_every_pip_stands_upright(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, VIEWPORTS["phone"])
    start_game(page)
    turned = page.eval_on_selector_all(
        "[data-region=hand] [data-card] svg *",
        "els => els.map(e => e.getAttribute('transform') || '').filter(t => t.includes('rotate'))",
    )
    pips = page.eval_on_selector_all("[data-region=hand] .pip", "els => els.length")
    assert pips > 13 and turned == []
    assert not page.errors


@pytest.mark.parametrize("name", ["phone", "phone-landscape"])
def test_header_counts_and_signs_are_whole_on_a_phone(
    browser: Any, server: AppServer, name: str
) -> None:
    page = open_page(browser, server, VIEWPORTS[name])
    start_game(page)
    pass_three(page)
    wait_for_person(page)
    # The round and the pass direction are both there, not cut to "Pass ri…".
    heading = page.eval_on_selector(
        "[data-region=round]",
        "e => [...e.children].map(c => [c.textContent, c.scrollWidth <= c.clientWidth + 1,"
        " c.getBoundingClientRect().right <= innerWidth])",
    )
    assert [text for text, _, _ in heading] == ["Round 1", "Pass left"]
    assert all(whole and on_screen for _, whole, on_screen in heading), heading
    menu = page.eval_on_selector(".menu", "e => e.getBoundingClientRect().right")
    assert menu <= VIEWPORTS[name]["width"]
    # Every opponent shows how many cards they hold, the player across too.
    counts = page.eval_on_selector_all(
        "#game .seat.opponent .held .count", "els => els.map(e => e.offsetParent !== null)"
    )
    assert len(counts) >= 3 and all(counts)
    # The signs keep to one line.
    page.evaluate("document.querySelector('[data-region=hearts]').hidden = false")
    page.evaluate("document.querySelector('[data-action=tricks]').hidden = false")
    lines = page.evaluate(
        """() => ['[data-region=hearts]', '[data-action=tricks]', '[data-action=sound]'].map(s => {
            const el = document.querySelector(s);
            const tops = new Set();
            for (const node of el.childNodes) {
                if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
                const range = document.createRange();
                range.selectNodeContents(node);
                for (const r of range.getClientRects()) tops.add(Math.round(r.top));
            }
            return tops.size;
        })"""
    )
    assert lines == [1, 1, 1]
    assert not page.errors


BROKEN_WORDS = """() => {
    const broken = [];
    const walker = document.createTreeWalker(
        document.querySelector('[data-region=message]'), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of node.textContent.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            if (range.getClientRects().length > 1) broken.push(word[0]);
        }
    }
    return broken;
}"""


def test_a_phone_zoomed_to_double_keeps_the_tables_words_whole(
    browser: Any, server: AppServer
) -> None:
    # A 390 px phone zoomed to 200% is 195 px wide: the message over the table was squeezed
    # to a few letters a line ("everyo/ne has/passed/.").
    zoomed = {side: size // 2 for side, size in VIEWPORTS["phone"].items()}
    page = open_page(browser, server, zoomed)
    start_game(page)
    assert page.inner_text("[data-region=message]").startswith("Pass")
    assert page.evaluate(BROKEN_WORDS) == []
    assert not page.errors


def test_a_desktop_zoomed_to_four_times_shows_every_seats_name(
    browser: Any, server: AppServer
) -> None:
    # A desktop at 400% is a short, wide window: the player across lost their face and name
    # to nothing (0 px wide) beside their numbers and cards.
    zoomed = {side: size // 4 for side, size in VIEWPORTS["desktop"].items()}
    page = open_page(browser, server, zoomed)
    start_game(page)
    widths = page.eval_on_selector_all(
        "#game .seat.opponent",
        "els => els.map(e => [e.dataset.pos,"
        " e.querySelector('.name').getBoundingClientRect().width,"
        " e.querySelector('.avatar').getBoundingClientRect().width])",
    )
    assert len(widths) >= 3 and all(name > 0 and face > 0 for _, name, face in widths), widths
    assert not page.errors


@pytest.mark.parametrize("width", [VIEWPORTS["phone"]["width"], 320])
def test_at_double_text_the_menu_folds_into_one_button(
    browser: Any, server: AppServer, width: int
) -> None:
    # At 200% text on a 390 px phone the menu ran past the edge and "Rules" was cut off.
    page = open_page(browser, server, {"width": width, "height": VIEWPORTS["phone"]["height"]})
    toggle = page.locator(".menu-toggle")
    assert not toggle.is_visible()  # at the usual size the words fit
    # The start screen at double text: nothing past the screen's edge (the game length's box
    # made a 320 px page 363 px wide).
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.evaluate("document.documentElement.style.fontSize = ''")
    start_game(page)
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    toggle.wait_for(state="visible")
    bar = page.eval_on_selector("header.bar", "e => [e.scrollWidth, e.clientWidth]")
    assert bar[0] <= bar[1] + 1, bar
    # The round's two lines stay inside the bar.
    heading = page.eval_on_selector_all(
        "[data-region=round] > span", "els => els.map(e => e.getBoundingClientRect().top)"
    )
    assert len(heading) == 2 and min(heading) >= 0, heading
    # By keyboard: Menu opens the list, every item on the screen; Escape closes it.
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true"
    items = page.eval_on_selector_all(
        ".menu > :is(a, button)",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.textContent, r.width > 0 && r.left >= 0 && r.right <= innerWidth]; })",
    )
    assert [text for text, _ in items] == ["New", "Scores", "Settings", "Rules"]
    assert all(shown for _, shown in items), items
    shoot(page, f"menu-folded-{width}")
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.classList.contains('menu-toggle')")
    # A choice from the list is made, and the list closes.
    toggle.click()
    page.click(".menu [data-action=scores]")
    page.wait_for_selector("dialog[open]")
    assert toggle.get_attribute("aria-expanded") == "false"
    # Its dialog closed, the focus is back on Menu (it fell to the page: the choice it was
    # opened from is hidden with the list).
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[open]", state="detached")
    assert page.evaluate("document.activeElement.classList.contains('menu-toggle')")
    # Back to the usual size, the words come back.
    page.evaluate("document.documentElement.style.fontSize = ''")
    toggle.wait_for(state="hidden")
    assert page.locator(".menu [data-action=settings]").is_visible()
    assert not page.errors


def split_deal(rules: Rules) -> hearts.Game:
    """A game whose person's hand, in the order shown, has one suit across its middle (halves
    would split it) and a change of suit a card before, at the person's first turn."""
    order = "CDSH"
    for seed in range(500):
        game = hearts.Game(rules, seed)
        suits = sorted(str(card)[1] for card in game.view(0).hand)
        suits.sort(key=order.index)
        half = -(-len(suits) // 2)
        if suits[half - 1] == suits[half] and suits[half - 2] != suits[half - 1]:
            while game.round.turn != 0:  # the others lead up to the person's first card
                game.apply(hearts.Play(game.round.turn, game.view(game.round.turn).legal[0]))
            return game
    raise AssertionError("no deal splits a suit at the middle")


def test_a_hand_in_two_rows_breaks_between_suits(browser: Any, server: AppServer) -> None:
    # Halves split a suit across the rows (six players on a phone: the first 4♠ ended the
    # first row and its twin began the second). The break is at the change of suit nearest
    # the middle, where its rows' cards are no closer than halves' would be.
    rules = Rules(players=6, pass_cycle=("hold",))
    page = open_page(browser, server, VIEWPORTS["phone"])
    start_game(page)  # the browser's cookie
    store_for(page, server, "split-suit", split_deal(rules))
    page.goto(f"{server.url}/?speed=instant")
    page.click("[data-action=continue][data-game='split-suit']")
    page.wait_for_selector("#game [data-region=hand] [data-card]")
    modes = page.get_attribute("[data-region=hand]", "data-mode")
    cards = page.eval_on_selector_all(
        "[data-region=hand] [data-card]",
        """els => els.map((e) => { const r = e.getBoundingClientRect();
            return [e.dataset.card[1], e.offsetTop, r.left, e.offsetWidth]; })""",
    )
    tops = sorted({top for _, top, _, _ in cards})  # as laid out, a legal card's lift aside
    assert len(tops) == 2, tops  # a phone holds this hand in two rows
    rows = [[card for card in cards if card[1] == top] for top in tops]
    suits = [suit for suit, _, _, _ in cards]
    half = -(-len(suits) // 2)
    assert suits[half - 1] == suits[half]  # halves would split this suit
    assert len(rows[0]) == half - 1 and rows[0][-1][0] != rows[1][0][0], suits
    width = page.eval_on_selector("[data-region=hand]", "e => e.clientWidth")
    step = min(44.0, (width - cards[0][3]) / (half - 1))  # halves' step, or 44 px
    for row in rows:
        lefts = [left for _, _, left, _ in row]
        assert all(b - a >= step - 0.5 for a, b in itertools.pairwise(lefts)), lefts
    # The rows are the same on the person's turn as on the others' (a layout by turn would
    # move the cards under a finger each trick): this hand drawn both ways beside the table.
    held = hand(page)
    tops = page.evaluate(
        """async (cards) => {
            const { Hand } = await import('/game/js/hand.js');
            const box = document.createElement('div');
            box.className = 'hand';
            box.style.width = document.querySelector('[data-region=hand]').clientWidth + 'px';
            document.querySelector('#game').append(box);
            const hand = new Hand(box, { onCard() {} });
            const rows = (mode) => {
                hand.render({ cards, mode, legal: new Set(cards) });
                return [...box.querySelectorAll('[data-card]')].map((e) => e.offsetTop);
            };
            const both = [rows('wait'), rows('play')];
            box.remove();
            return both;
        }""",
        held,
    )
    assert tops[0] == tops[1] == [top for _, top, _, _ in cards], (modes, tops)
    shoot(page, "hand-rows-by-suit-phone")
    assert not page.errors


def test_the_pass_button_leaves_the_persons_line_alone_at_large_text_sideways(
    browser: Any, server: AppServer
) -> None:
    # A phone held sideways at 200% text: "Pass 3 to Marisol, on your left" took two lines
    # over "You 0 +0" and "Choose 3 cards to pass." There it says "Pass 3" (the line over
    # the table says where they go); read aloud, and at the usual size, it says it all.
    page = open_page(browser, server, VIEWPORTS["phone-landscape"])
    start_game(page)
    for card in hand(page)[-3:]:
        page.click(f"[data-region=hand] [data-card='{card}']")
    button = page.locator("[data-action=pass]")
    whole = button.get_attribute("aria-label")
    assert whole and whole.startswith("Pass 3 to ") and button.inner_text() == whole
    for size in ("150%", "200%"):
        page.evaluate(f"document.documentElement.style.fontSize = '{size}'")
        assert button.inner_text() == "Pass 3", size
        assert button.get_attribute("aria-label") == whole
        boxes = page.evaluate(
            """() => ['[data-action=pass]', '[data-region=me]', '#status'].map((s) => {
                const r = document.querySelector(s).getBoundingClientRect();
                return [r.left, r.top, r.right, r.bottom]; })"""
        )
        assert not overlap(boxes[0], boxes[1]) and not overlap(boxes[0], boxes[2]), (size, boxes)
    page.evaluate("document.documentElement.style.fontSize = ''")
    assert button.inner_text() == whole
    assert not page.errors


def seat_friends(browser: Any, server: AppServer, page: Any, names: list[str]) -> None:
    """A table of the person (`page`) and a friend in every other seat, each joined by the
    invite under their name in a browser context of their own; `page` shows it started."""
    seats = ["you"] + ["friend"] * len(names)
    rules = {"players": len(seats)}
    state = create_by_page(page, {"rules": rules, "name": "Ann", "turn_time": None, "seats": seats})
    invite = state["table"]["invite"].split("#invite=", 1)[1]
    for name in names:
        friend = browser.new_context()
        joined = friend.request.post(
            f"{server.url}/api/games/{state['id']}/join", data={"invite": invite, "name": name}
        )
        assert joined.ok, joined.text()
        friend.close()
    page.goto(f"{server.url}/?table={state['id']}&speed=instant")
    page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]")


LONG_NAMES = ["Maximiliana Featherstone", "W" * 24, "Alexandrina Wolfenbarger"]


@pytest.mark.parametrize("players", [Rules().players, MIN_PLAYERS])
def test_a_long_name_stays_inside_its_seat(browser: Any, server: AppServer, players: int) -> None:
    # A friend named "Maximiliana Featherstone" (24 letters, the most a name may have) in a
    # side seat of a phone read "Maximilian / Featherstc", cut off by the screen's edge; 24
    # W's ran off a desktop's. Each name now keeps to its seat ("Maximil… Feather…").
    page = open_page(browser, server, VIEWPORTS["phone"])
    seat_friends(browser, server, page, LONG_NAMES[: players - 1])
    for name in ("phone", "phone-landscape", "desktop"):
        resize(page, VIEWPORTS[name])
        assert spills(page, "#game .seat.opponent") == [], name
        sides = page.evaluate(BOXES)
        for box in sides["seats"] + sides["names"]:
            assert inside(box, sides["vw"], sides["vh"]), (name, box)
        for a, b in itertools.combinations(sides["seats"], 2):
            assert not overlap(a, b), (name, a, b)
        assert sides["wide"] <= sides["vw"]
        shoot(page, f"long-names-{players}-{name}")
    assert not page.errors


#: The "Reconnecting…" note shown as the page shows it when the line is lost (main.js).
LOSE_LINE = """() => new Promise((done) => {
    document.querySelector('[data-region=live]').hidden = false;
    document.body.dataset.live = 'reconnecting';
    requestAnimationFrame(() => setTimeout(done));
})"""

#: The note's box, each seat's name and score that it lies over, the bar's parts it lies
#: over, and whether the bar's content is wider than the bar.
LOST_LINE = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const meet = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 1
        && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 1;
    const at = box(document.querySelector('[data-region=live]'));
    const seen = (el) => el.getClientRects().length > 0;
    const over = [...document.querySelectorAll('#game .seat :is(.name, .total, .taken)')]
        .filter((el) => seen(el) && meet(at, box(el)))
        .map((el) => [el.closest('.seat').dataset.seat, el.className]);
    const bar = document.querySelector('header.bar');
    const parts = [...bar.querySelectorAll('.brand, .round, .menu-toggle, .menu > *')]
        .filter((el) => seen(el) && meet(at, box(el))).map((el) => el.className || el.tagName);
    return { note: at, over, parts, spills: bar.scrollWidth > bar.clientWidth + 1,
             width: innerWidth, height: innerHeight };
}"""


@pytest.mark.parametrize("name", ["phone", "phone-landscape", "desktop"])
def test_the_reconnecting_note_covers_no_seat(browser: Any, server: AppServer, name: str) -> None:
    # A phone, four players: "Reconnecting…", under the bar in the middle of the screen,
    # lay over the name and score of the player across the table. It is in the bar now, the
    # menu folded into its one button when the words need its room.
    page = open_page(browser, server, VIEWPORTS[name])
    start_game(page)
    pass_three(page)
    wait_for_person(page)
    page.evaluate(LOSE_LINE)
    found = page.evaluate(LOST_LINE)
    shoot(page, f"reconnecting-{name}")
    assert found["over"] == [], found
    assert found["parts"] == [], found
    assert not found["spills"], found
    left, top, right, bottom = found["note"]
    assert left >= 0 and right <= found["width"] and top >= 0 and bottom <= found["height"]
    # The menu is still there: its words, or the one button they fold into.
    assert page.locator(".menu-toggle:visible, .menu [data-action=scores]:visible").count() == 1
    assert not page.errors
