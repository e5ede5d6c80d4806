"""Issue 11: the web game at 3, 5, 6 and 10 players, on a phone and a desktop, chosen on the
start screen's table-size choice and played for a whole round as a person plays it.

At the deal and on every trick the layout is checked: every seat's name and card count on
screen, the whole hand reachable without sideways scrolling, and no seat, name, hand card or
trick card overlapping another. Screenshots go to HEARTS_SCREENSHOT_DIR when it is set.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from test_hint_box import game_at
from test_table_play import open_stored
from test_web_game_browser import TABLE, open_page, shoot, start_game, wait_for_person

import hearts

from browser_support import AppServer, plain, resize, settle, store_for
from helpers import position

pytestmark = pytest.mark.browser

VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "phone-landscape": {"width": 844, "height": 390},
    "desktop": {"width": 1366, "height": 800},
}

LAYOUT = """() => {
    const box = (e) => { const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const all = (sel) => [...document.querySelectorAll(sel)].map(box);
    const shown = (e) => e.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const opponents = [...document.querySelectorAll('#game .seat.opponent')].map((seat) => ({
        seat: seat.dataset.seat,
        name: seat.querySelector('.name').textContent,
        nameBox: box(seat.querySelector('.name')), nameShown: shown(seat.querySelector('.name')),
        count: seat.querySelector('.count').textContent,
        countBox: box(seat.querySelector('.count')),
        countShown: shown(seat.querySelector('.count')),
    }));
    return {
        opponents,
        hand: all('[data-region=hand] [data-card]'),
        handCount: document.querySelectorAll('[data-region=hand] [data-card]').length,
        slots: all('.trick .slot'),
        seats: all('#game .seat'),
        names: all('#game .seat .name'),
        helds: all('#game .seat.opponent .held'),
        vw: innerWidth, vh: innerHeight,
        wide: document.documentElement.scrollWidth,
        players: Number(document.querySelector('#game').dataset.players),
    };
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def inside(box: list[float], width: float, height: float) -> bool:
    return box[0] >= -0.5 and box[1] >= -0.5 and box[2] <= width + 0.5 and box[3] <= height + 0.5


def check_layout(page: Any, players: int, where: str) -> None:
    found = page.evaluate(LAYOUT)
    width, height = found["vw"], found["vh"]
    assert found["players"] == players, where
    assert found["wide"] <= width, f"{where}: the page scrolls sideways"
    opponents = found["opponents"]
    assert len(opponents) == players - 1, where
    assert len({o["name"] for o in opponents}) == players - 1, where
    for o in opponents:
        for part in ("name", "count"):
            assert o[f"{part}Shown"], f"{where}: {o['name']}'s {part} is hidden"
            assert inside(o[f"{part}Box"], width, height), f"{where}: {o['name']}'s {part}"
            assert o[f"{part}Box"][2] - o[f"{part}Box"][0] > 4, f"{where}: {o['name']}'s {part}"
        assert o["count"].isdigit(), (where, o)
    # The whole hand on screen: every card inside the viewport, none beyond its width.
    for card in found["hand"]:
        assert inside(card, width, height), (where, card, width, height)
    seats, names, slots = found["seats"], found["names"], found["slots"]
    assert len(seats) == len(names) == len(slots) == players, where
    for a, b in itertools.combinations(seats, 2):
        assert not overlap(a, b), (where, "seats", a, b)
    for a, b in itertools.combinations(names, 2):
        assert not overlap(a, b), (where, "names", a, b)
    # A seat's cards in hand never lie over another seat's name (nine and ten across a
    # phone held sideways did).
    for held, name in itertools.product(found["helds"], names):
        assert not overlap(held, name), (where, "cards in hand and a name", held, name)
    for seat, slot in itertools.product(seats, slots):
        assert not overlap(seat, slot), (where, "seat and trick", seat, slot)
    for card, other in itertools.product(found["hand"], seats + slots):
        assert not overlap(card, other), (where, "hand", card, other)
    for slot in slots:
        assert inside(slot, width, height), (where, slot)


def pass_cards(page: Any) -> None:
    cards = page.eval_on_selector_all(
        "[data-region=hand] [data-card]", "els => els.map(e => e.dataset.key)"
    )
    for key in reversed(cards):
        if page.is_enabled("[data-action=pass]"):
            break
        page.click(f"[data-region=hand] [data-key='{key}']")
    page.click("[data-action=pass]")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("players", [3, 5, 6, 10])
def test_a_whole_round_at_every_table_size(
    browser: Any, server: AppServer, players: int, viewport: str
) -> None:
    page = open_page(browser, server, VIEWPORTS[viewport])
    # The table-size choice, with the line read off the engine's rules for that size.
    page.click(f"[data-players='{players}']")
    line = page.text_content("[data-region=table-line]")
    assert line.startswith(f"{players} players"), line
    opponents = page.eval_on_selector_all(".setup .opponents > li", "els => els.length")
    assert opponents == players - 1
    # The printable sheets linked from here are this table's.
    for kind in ("rules", "score"):
        href = page.get_attribute(f"[data-link={kind}-pdf]", "href")
        assert href == f"/sheets/{kind}.pdf?players={players}", href
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE}[data-players='{players}'] [data-card]")
    name = f"table-{players}-{viewport}"
    tricks = 0
    for _ in range(80):
        phase = wait_for_person(page)
        if phase == "passing":
            check_layout(page, players, f"{name} pass")
            pass_cards(page)
        elif phase == "playing":
            check_layout(page, players, f"{name} trick {tricks}")
            if tricks == 2:
                shoot(page, name)
            card = page.get_attribute("[data-card][data-legal=true]", "data-key")
            page.click(f"[data-region=hand] [data-key='{card}']")
            tricks += 1
        else:
            break
    assert phase == "round-over", f"{name}: the round did not end ({phase})"
    assert page.is_visible("[data-action=next-round]")
    assert tricks >= 3
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("players", [3, 4, 6, 10])
def test_large_text_on_a_phone_keeps_every_seat_on_the_screen(
    browser: Any, server: AppServer, players: int
) -> None:
    # At 150% text the side seats' names and counts ran past the screen's edges ("arisol",
    # "Tamsi", the 13 of cards held cut in two).
    page = open_page(browser, server, VIEWPORTS["phone"])
    page.evaluate("document.documentElement.style.fontSize = '150%'")
    page.click(f"[data-players='{players}']")
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE}[data-players='{players}'] [data-card]")
    check_layout(page, players, f"{players} players at 150%")
    outside = page.evaluate(
        """() => [...document.querySelectorAll('#game .side *')].filter((e) => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && (r.left < -0.5 || r.right > innerWidth + 0.5);
        }).map((e) => e.className.baseVal ?? e.className)"""
    )
    assert outside == [], outside
    # The round's words in the bar are read, not cut to "R…" and "P…" beside the menu's
    # words: the menu folds into its button first.
    cut = page.eval_on_selector_all(
        "[data-region=round] > span",
        "els => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)",
    )
    assert cut == [], cut
    if players == 4:
        shoot(page, "table-4-phone-large-text")
    assert not page.errors


def play_until(page: Any, condition: str, limit: int = 80) -> bool:
    """Play the person's simplest moves until `condition` (a JS function) holds."""
    for _ in range(limit):
        phase = wait_for_person(page)
        if page.evaluate(condition):
            return True
        if phase == "passing":
            pass_cards(page)
        elif phase == "playing":
            card = page.get_attribute("[data-card][data-legal=true]", "data-key")
            page.click(f"[data-region=hand] [data-key='{card}']")
        elif phase == "round-over":
            page.click("[data-action=next-round]")
        else:
            return False
    return False


def choose_rule(page: Any, field: str) -> None:
    page.click(".all-rules summary")
    page.click(f"label[for=rule-{field}]")


def test_the_kitty_shows_who_took_it_and_what_was_in_it(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, VIEWPORTS["phone"])
    page.click("[data-players='3']")
    choose_rule(page, "kitty")
    assert "1 face down" in page.text_content("[data-region=table-line]")
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE}[data-players='3'] [data-card]")
    assert page.text_content("[data-region=kitty]") == "Kitty: 1 card face down"
    assert play_until(
        page, "() => document.querySelector('[data-region=kitty]').textContent.includes('took')"
    )
    sign = plain(page.text_content("[data-region=kitty]"))
    taker = sign.split(" took the kitty")[0]
    assert taker == "You" or taker in page.eval_on_selector_all(
        "#game .seat.opponent .name", "els => els.map(e => e.textContent)"
    )
    cards = page.eval_on_selector_all(
        "[data-region=kitty] .mini", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(cards) == 1 and " of " in cards[0], cards
    assert not page.errors, page.errors
    page.context.close()


def test_partners_see_the_team_totals(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, VIEWPORTS["phone"])
    page.click("[data-players='4']")
    choose_rule(page, "partnership")
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE}[data-players='4'] [data-card]")
    names = page.eval_on_selector_all(
        "#game .seat.opponent",
        "els => els.map(e => [e.dataset.seat, e.querySelector('.name').textContent])",
    )
    by_seat = dict(names)
    # The partner sits across: two seats on from the person at a table of four.
    assert plain(page.text_content("[data-region=teams]")) == (
        f"You & {by_seat['2']} 0 · {by_seat['1']} & {by_seat['3']} 0"
    )
    assert "your partner" in page.text_content("#game .seat[data-seat='2']")
    assert play_until(page, "() => document.querySelector('#game').dataset.phase === 'round-over'")
    page.click("[data-action=next-round]")
    wait_for_person(page)
    sign = plain(page.text_content("[data-region=teams]"))
    mine = int(page.text_content("#game .seat.mine .total").split()[0])
    theirs = int(page.text_content("#game .seat[data-seat='1'] .total").split()[0])
    assert sign == f"You & {by_seat['2']} {mine} · {by_seat['1']} & {by_seat['3']} {theirs}"
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_two_copies_in_hand_are_told_apart(browser: Any, server: AppServer, size: str) -> None:
    page = open_page(browser, server, VIEWPORTS[size])
    page.click("[data-players='6']")
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE}[data-players='6'] [data-card]")
    # Seventeen cards from two decks: deal until the hand holds both copies of some face.
    twins: list[Any] = []
    for _ in range(12):
        twins = page.eval_on_selector_all(
            "[data-region=hand] [data-copy]",
            "els => els.map(e => [e.dataset.card, e.dataset.copy, e.dataset.key,"
            " e.getAttribute('aria-label')])",
        )
        if twins:
            break
        play_until(page, "() => document.querySelector('#game').dataset.phase === 'round-over'")
        page.click("[data-action=next-round]")
        wait_for_person(page)
    assert twins, "no deal held both copies of a face"
    faces = {card for card, *_ in twins}
    for face in faces:
        pair = [t for t in twins if t[0] == face]
        assert sorted(t[1] for t in pair) == ["1", "2"]
        assert sorted(t[2] for t in pair) == [face, f"{face}#2"]
        assert {t[3].split(", ")[1] for t in pair} == {"first copy", "second copy"}
    # Each mark is in sight: not under the next card (it sat in the corner the next one hides).
    hidden = page.eval_on_selector_all(
        "[data-region=hand] [data-copy] .copy-mark",
        """marks => marks.filter((mark) => {
            const r = mark.getBoundingClientRect();
            const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return !mark.contains(top);
        }).map((mark) => mark.parentElement.dataset.key)""",
    )
    assert hidden == [], f"marks hidden under the next card: {hidden}"
    if size == "phone":
        shoot(page, "table-6-phone-twins")
    assert not page.errors, page.errors
    page.context.close()


WIDEST_NUMBERS = """() => {
    // The widest a seat's numbers get: a three-figure total, 26 points this round with
    // 13 hearts and the Q♠ marked (as table.js draws them, icons taken from the page).
    const heart = document.querySelector('#game .suit-icon')?.outerHTML ?? '';
    for (const numbers of document.querySelectorAll('#game .seat.opponent .numbers')) {
        numbers.innerHTML = '<span class="total">126</span><span class="taken some">26'
            + '<span class="marks"><span class="mark-hearts">' + heart + '13</span>'
            + '<span class="mark-queen">Q' + heart + '</span></span></span>';
    }
    return [...document.querySelectorAll('#game .seat.opponent .numbers')].map((e) => {
        const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });
}"""


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_seats_widest_numbers_stay_on_screen_at_a_crowded_table(
    browser: Any, server: AppServer, viewport: str
) -> None:
    """Oskar's "13 Q♠" ran past a phone's right edge at six players: the numbers wrap
    instead, whatever a seat has taken."""
    page = open_page(browser, server, VIEWPORTS[viewport])
    page.click("[data-players='6']")
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE}[data-players='6'] [data-card]")
    size = VIEWPORTS[viewport]
    boxes = page.evaluate(WIDEST_NUMBERS)
    assert len(boxes) == 5
    for box in boxes:
        assert inside(box, size["width"], size["height"]), (viewport, box)
    if viewport == "phone":
        shoot(page, "table-6-phone-widest-numbers")
    assert not page.errors


def test_a_side_seat_on_turn_keeps_its_name_short_on_a_phone(
    browser: Any, server: AppServer
) -> None:
    """ "Guest Bob · to play" broke over four lines in a side seat on a phone: there the turn
    shows in the ring and the name's colour, and a two-word name takes two lines at most."""
    page = open_page(browser, server, VIEWPORTS["phone"])
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]")
    heights = page.evaluate(
        """() => [...document.querySelectorAll('#game .side:not([data-side=top]) .seat')]
            .map((seat) => {
                seat.classList.add('turn');
                const name = seat.querySelector('.name');
                name.textContent = 'Guest Bob';
                const line = parseFloat(getComputedStyle(name).lineHeight)
                    || parseFloat(getComputedStyle(name).fontSize) * 1.2;
                return [name.getBoundingClientRect().height, line];
            })"""
    )
    assert len(heights) == 2
    for height, line in heights:
        assert height < 2.5 * line, heights
    assert not page.errors


CORNERS = """() => [...document.querySelectorAll('#game .trick .slot')].filter((slot) => {
    const card = slot.querySelector('.played');
    if (!card) return false;
    const r = card.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + 6, r.top + 10);
    return !hit || hit.closest('.slot') !== slot;
}).map((slot) => slot.dataset.seat)"""
"""The trick's cards whose corner (rank and suit) another card covers."""


def test_ten_players_on_a_laptop_keep_every_trick_cards_corner_in_sight(
    browser: Any, server: AppServer
) -> None:
    # 1366 × 768: the ring was five cards wide with room to spare, and the cards lay over
    # each other's corners (the 4♣ over the led 2♣ and its mark). A stored position with
    # nine cards down before the person's turn fills every slot but the person's: a game
    # played from the start left how many were down to where the deal put the person.
    page = open_page(browser, server, {"width": 1366, "height": 768})
    start_game(page)  # the browser's cookie
    game = position(10, lambda g: len(g.round.trick) == 9)
    store_for(page, server, "corners-10", game)
    open_stored(page, server, "corners-10")
    settle(page)
    assert page.locator("#game .trick .slot .played").count() == 9
    assert page.evaluate(CORNERS) == []
    assert not page.errors


@pytest.mark.parametrize("size", [(1920, 1080), (2560, 1440)])
def test_a_large_screen_grows_the_table(
    browser: Any, server: AppServer, size: tuple[int, int]
) -> None:
    # At 2560 × 1440 the table kept a laptop's size: cards 84 px wide, the hand under half
    # the width, the person's name 720 px from their hand.
    width, height = size
    page = open_page(browser, server, {"width": width, "height": height})
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE} [data-card]")
    found = page.evaluate(
        """() => {
            const box = (s) => document.querySelector(s).getBoundingClientRect();
            const cards = [...document.querySelectorAll('[data-region=hand] [data-card]')]
                .map((c) => c.getBoundingClientRect());
            return { card: cards[0].width, left: Math.min(...cards.map((c) => c.left)),
                     right: Math.max(...cards.map((c) => c.right)), me: box('.me-line').left,
                     tall: document.documentElement.scrollHeight };
        }"""
    )
    assert found["card"] >= 100, found
    assert found["right"] - found["left"] >= width * 0.5, found
    assert abs(found["me"] - found["left"]) <= 40, found
    assert found["tall"] <= height, found
    assert not page.errors


#: Phones upright in a browser whose bars take their share of the screen: 390 x 844 in
#: Safari shows about 390 x 660, and 360 x 740 in Chrome about 360 x 680.
IN_A_BROWSER = [(375, 667), (390, 664), (360, 700), (360, 720), (412, 732), (360, 740)]


@pytest.mark.parametrize("phase", ["passing", "playing"])
def test_the_standard_table_fits_a_phone_in_a_browser(
    browser: Any, server: AppServer, phase: str
) -> None:
    # Four players, passing and then playing with the cards passed marked: the page was 13
    # to 89 px taller than these screens, Hint and Sound under the foot of the screen.
    players = hearts.Rules().players
    page = open_page(browser, server, {"width": 360, "height": 740})
    start_game(page)  # the browser's cookie
    name = f"in-a-browser-{phase}"
    store_for(page, server, name, game_at(players, phase))
    over = {}
    for width, height in IN_A_BROWSER:
        resize(page, {"width": width, "height": height})
        open_stored(page, server, name)
        settle(page)
        tall = page.evaluate("document.documentElement.scrollHeight")
        if tall > height:
            over[f"{width}x{height}"] = tall - height
        tools = page.eval_on_selector(".table-tools", "e => e.getBoundingClientRect().bottom")
        assert tools <= height, (width, height, tools)
    assert not over, over
    shoot(page, f"in-a-browser-{players}-{phase}")
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("players", [8, 10])
def test_a_small_phone_shows_three_seats_across_the_top_without_scrolling(
    browser: Any, server: AppServer, players: int
) -> None:
    # Eight and ten players on 320 x 568 and 360 x 640: the three seats across the top, each
    # face over its name over its numbers over its cards, made the page 41 px taller than a
    # 320 x 568 screen at the pass and 65 px after it, the Hint row under the screen's foot.
    page = open_page(browser, server, {"width": 320, "height": 568})
    start_game(page)  # the browser's cookie
    for phase in ("passing", "playing"):
        for width, height in ((360, 640), (320, 568)):
            name = f"three-across-{players}-{phase}-{width}"  # Unmark is kept by the game
            store_for(page, server, name, game_at(players, phase))
            resize(page, {"width": width, "height": height})
            open_stored(page, server, name)
            settle(page)
            seats = page.locator(f"{TABLE} .side[data-side=top] > .seat")
            assert seats.count() == 3
            if phase == "playing":
                # Until the first card the cards passed are marked, with a line of their
                # own over the tools; the rest of the round has no such line.
                shoot(page, f"three-across-{players}-{width}x{height}-marked")
                # Its name says what it unmarks (held sideways it stands without the note).
                unmark = page.get_by_role("button", name="Unmark the cards passed to you")
                unmark.click()
                settle(page)
            tall = page.evaluate("document.documentElement.scrollHeight")
            assert tall <= height, (phase, width, height, tall)
            # Each seat keeps to its share of the width: no face or card over the next one's.
            boxes = seats.evaluate_all("els => els.map(e => [e.scrollWidth, e.clientWidth])")
            assert all(scroll <= client for scroll, client in boxes), boxes
    shoot(page, f"three-across-{players}")
    # Later in the round Tricks joins Hint, Undo and Sound: "Tricks (3)" sent Sound to a
    # row of its own, 25 px under the screen's foot at ten players.
    game = position(players, lambda g: len(g.round.tricks) >= 2 and not g.round.trick)
    store_for(page, server, f"three-across-{players}-later", game)
    open_stored(page, server, f"three-across-{players}-later")
    settle(page)
    tops = page.eval_on_selector_all(
        f"{TABLE} :is(.actions, .table-tools) button:not([hidden])",
        "els => els.map(e => [e.textContent, Math.round(e.getBoundingClientRect().top)])",
    )
    assert "Tricks" in {name for name, _ in tops} and len({top for _, top in tops}) == 1, tops
    assert page.evaluate("document.documentElement.scrollHeight") <= 568
    shoot(page, f"three-across-{players}-later")
    assert not page.errors


@pytest.mark.parametrize("players", [5, 8, 10])
def test_a_phone_740_tall_shows_a_big_table_without_scrolling(
    browser: Any, server: AppServer, players: int
) -> None:
    # 360 × 740 (a common Android phone): five, eight and ten players scrolled 36 to 52 px,
    # the Hint button under the screen's foot.
    page = open_page(browser, server, {"width": 360, "height": 740})
    page.click(f"[data-players='{players}']")
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE}[data-players='{players}'] [data-card]")
    for _ in range(3):
        phase = wait_for_person(page)
        tall = page.evaluate("document.documentElement.scrollHeight")
        assert tall <= 740, (phase, tall)
        if phase == "passing":
            pass_cards(page)
        else:
            page.click("[data-card][data-legal=true]")
    assert not page.errors
