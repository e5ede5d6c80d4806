"""The table as the last testers found it: a hinted card marked only to the eye, the raised
card of a one-row hand over its neighbour's corner, the coach's hint box over the felt's top
on a phone held sideways (then over the top bar's round line), "★ wins" on a card of a trick
nobody won or beside a stale turn, and at a table of friends held sideways a hint's bubble
over the asker's name and "Ready for the next round" on two lines, its last word alone. Each
test measures what the page draws, or the names a screen reader reads. Screenshots go to
HEARTS_SCREENSHOT_DIR when it is set.
"""

from __future__ import annotations

import functools
from typing import Any

import httpx
import pytest
from test_coach_browser import ask_hint, hinted
from test_crowded_table import (
    VIEWPORTS,
    large_text,
    open_position,
    overlap,
)
from test_friends_browser import DESKTOP, Person, join, person, table_by_api
from test_hints_browser import at_the_pass, move
from test_table_play import open_stored
from test_web_game_browser import open_page, pass_three, start_game, wait_for_person

import hearts

from browser_support import AppServer, plain, resize, settle, shoot, store_for
from helpers import position

pytestmark = pytest.mark.browser


# --- a hinted card says so to a screen reader --------------------------------------------


def test_a_hinted_card_says_so_in_its_name(browser: Any, server: AppServer) -> None:
    # The coach's mark was a glow only: a screen reader read the hinted card as any other.
    page = open_page(browser, server, VIEWPORTS["phone"])
    start_game(page)
    ask_hint(page)
    cards = hinted(page)
    assert len(cards) == 3
    labels = page.eval_on_selector_all(
        "#hand [data-card]", "els => els.map(e => [e.dataset.card, e.getAttribute('aria-label')])"
    )
    for card, label in labels:
        assert label.endswith(", hinted by the coach") == (card in cards), (card, label)
    # The accessibility tree reads it so too, and the mark goes with the hint.
    snapshot = page.locator("#hand").aria_snapshot()
    assert snapshot.count("hinted by the coach") == 3, snapshot
    for card in cards:
        page.click(f"[data-region=hand] [data-card='{card}']")
    page.click("[data-action=pass]")
    wait_for_person(page)
    assert "hinted" not in page.locator("#hand").aria_snapshot()
    assert not page.errors


# --- the coach's hint box hides nothing of the felt one needs to play ---------------------

#: The hint box, the top bar, and the boxes the hint must not cover: each opponent's seat,
#: each card on the trick, each card of the hand, as [left, top, right, bottom].
HINT_AND_FELT = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const shown = (sel) => [...document.querySelectorAll(sel)]
        .filter((el) => el.getClientRects().length).map((el) => [sel, box(el)]);
    return { hint: box(document.querySelector('[data-region=hint]')),
             bar: box(document.querySelector('body > .bar')),
             others: [...shown('#game .seat.opponent'), ...shown('.trick .played'),
                      ...shown('#hand .card')],
             screen: [innerWidth, innerHeight] };
}"""


#: The menu's controls in sight (its words, or its one Menu button where they fold), and those
#: of them a tap at the middle would not reach (something lies over them).
MENU_IN_REACH = """() => {
    const shown = [...document.querySelectorAll('.bar .menu > *, .bar .menu-toggle')]
        .filter((el) => el.getClientRects().length);
    const covered = shown.filter((el) => { const r = el.getBoundingClientRect();
        return !el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    }).map((el) => el.textContent);
    return { shown: shown.map((el) => el.textContent), covered };
}"""


@pytest.mark.parametrize("phase", ["passing", "playing"])
@pytest.mark.parametrize("viewport", ["phone-landscape", "small-phone-landscape"])
def test_the_hint_box_hides_nothing_one_plays_by_held_sideways(
    browser: Any, server: AppServer, viewport: str, phase: str
) -> None:
    # 844 x 390: the coach's words lay over the top of the felt, the opponent across and
    # the trick's cards, until tapped away; then over the top bar, the menu too; then in the
    # bar in the round's place, two lines and a half in 44 px. They lie beside the trick.
    page = open_page(browser, server, VIEWPORTS[viewport])
    start_game(page)
    if phase == "playing":
        pass_three(page)
        assert wait_for_person(page) == "playing"
    ask_hint(page)
    failures = []
    for size in ("", "150%", "200%"):
        large_text(page, size)
        settle(page)
        found = page.evaluate(HINT_AND_FELT)
        hint = found["hint"]
        width = found["screen"][0]
        # Beside the trick, under the top bar.
        assert hint[0] >= -1 and hint[2] <= width + 1, (size, hint)
        assert not overlap(hint, found["bar"]), (size, hint, found["bar"])
        covered = [what for what, other in found["others"] if overlap(hint, other)]
        if covered:
            failures.append((size, covered))
        # Still readable: words of 13 px at least, and every one of them within reach (shown
        # whole, or scrolled to within the box).
        words = page.eval_on_selector(
            "[data-region=hint]",
            """(e) => { const s = getComputedStyle(e);
                return [parseFloat(s.fontSize), e.scrollHeight - e.clientHeight, s.overflowY]; }""",
        )
        assert words[0] >= 13, (size, words)
        assert words[1] <= 1 or words[2] == "auto", (size, words)
        # The menu stays in reach: each of its controls is what a tap at its middle lands on
        # (the box lay over the whole bar, the menu too, until tapped away).
        menu = page.evaluate(MENU_IN_REACH)
        assert menu["shown"] and not menu["covered"], (size, menu)
        shoot(page, f"table-polish-hint-{viewport}-{phase}-{size.strip('%') or '100'}")
    assert failures == [], failures
    assert not page.errors


# --- a raised card of a one-row hand leaves its neighbours' corners in sight ---------------

#: Each card of the hand: its key, and whether its top left corner (rank and suit) is in sight.
CORNERS = """() => [...document.querySelectorAll('#hand .card')].map((card) => {
    const r = card.getBoundingClientRect();
    const seen = (x, y) => card.contains(document.elementFromPoint(x, y));
    return [card.dataset.key,
            seen(r.left + r.width * .14, r.top + r.height * .1)
            && seen(r.left + r.width * .14, r.top + r.height * .22)];
})"""


@pytest.mark.parametrize("viewport", ["phone", "phone-landscape"])
def test_a_raised_card_leaves_every_corner_of_a_one_row_hand_in_sight(
    browser: Any, server: AppServer, viewport: str
) -> None:
    # 390 x 844, eight cards in one row 44 px apart: the card with the keyboard (raised, and
    # put over the cards beside it) hid the whole corner of the card to its right.
    game = position(4, lambda g: len(g.round.hand(0)) == 8 and len(set(g.round.legal_cards())) > 2)
    page = open_position(browser, server, viewport, f"raised-{viewport}", game)
    page.emulate_media(reduced_motion="reduce")
    tops = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.style.top)")
    assert len(tops) == 8 and len(set(tops)) == 1, tops  # one row
    page.focus("#hand")
    failures = []
    for step in range(8):
        page.keyboard.press("ArrowRight")  # the keyboard's card, raised when it is playable
        settle(page)
        focused = page.evaluate("document.activeElement.dataset.key")
        hidden = [key for key, seen in page.evaluate(CORNERS) if not seen]
        if hidden:
            failures.append((focused, hidden))
        if step == 1:
            shoot(page, f"table-polish-raised-{viewport}")
    assert failures == [], failures
    assert not page.errors


# --- "★ wins" only where the engine says someone won --------------------------------------


def held_over_by(game: hearts.Game) -> str | None:
    """A card the person (seat 0, last to play) may play that leaves every card of the suit
    led cancelled, with cards left to play (the trick held over); None if there is none."""
    rnd = game.round
    if len(rnd.trick) != rnd.players - 1 or len(rnd.hand(0)) < 3:
        return None
    for card in set(rnd.legal_cards()):
        after = rnd.copy()
        after.play(card)
        if after.tricks[-1].held_over:
            return str(card)
    return None


#: Each time a cancelled card of the trick is marked the winner's (a cancelled card never
#: wins: the engine skips twins, and holds the trick over when every card of the suit led is
#: cancelled).
WATCH_WINS = """() => {
    window.winsMarked = [];
    new MutationObserver(() => {
        for (const slot of document.querySelectorAll('.trick .slot.winner')) {
            const played = document.querySelectorAll('.trick .slot .played').length;
            if (slot.classList.contains('cancelled')) {
                window.winsMarked.push({ seat: slot.dataset.seat, played });
            }
        }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] });
}"""


def test_a_trick_held_over_marks_no_card_as_winning(browser: Any, server: AppServer) -> None:
    # Seven players (two decks), a trick whose every card of the suit led was cancelled:
    # the engine holds it over (nobody takes it, the same seat leads again), but the page
    # put "★ wins" on the leader's cancelled card, whom the trick's event names as its
    # "winner" only so that the lead stays put.
    game = position(7, lambda g: held_over_by(g) is not None)
    card = held_over_by(game)
    page = open_position(browser, server, "phone-landscape", "held-over-7", game)
    page.evaluate(WATCH_WINS)
    page.click(f"#hand [data-card='{card}'][data-legal=true]")
    wait_for_person(page)
    settle(page)
    shoot(page, "table-polish-held-over-7")
    assert page.evaluate("window.winsMarked") == []
    log = page.evaluate("document.querySelector('#log').textContent")
    assert "takes the 7 held-over cards" in log, log  # it was held over, and taken next
    assert not page.errors


# --- "★ wins" beside the table's message, held sideways --------------------------------------


def winning_card(game: hearts.Game, seat: int) -> str | None:
    """A card the person (seat 0, last to play) may play that leaves the trick to `seat`;
    None if there is none."""
    rnd = game.round
    if len(rnd.trick) != rnd.players - 1:
        return None
    for card in sorted(set(rnd.legal_cards()), key=str):
        after = rnd.copy()
        after.play(card)
        if after.tricks[-1].winner == seat:
            return str(card)
    return None


#: Each time a card is marked "★ wins": where the mark is drawn (its ::after box) and the
#: boxes of the lines of the table's message.
WATCH_MARK = """() => {
    window.marks = [];
    const box = (r) => [r.left, r.top, r.right, r.bottom];
    new MutationObserver(() => {
        const slot = document.querySelector('.trick .slot.winner');
        if (!slot) return;
        const mark = getComputedStyle(slot, '::after');
        const at = slot.getBoundingClientRect();
        const shift = new DOMMatrix(mark.transform === 'none' ? undefined : mark.transform);
        const left = at.left + parseFloat(mark.left) + shift.e;
        const top = at.top + parseFloat(mark.top) + shift.f;
        const range = document.createRange();
        range.selectNodeContents(document.querySelector('#game .centre .message'));
        window.marks.push({
            mark: [left, top, left + parseFloat(mark.width), top + parseFloat(mark.height)],
            lines: [...range.getClientRects()].map(box),
        });
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] });
}"""


@pytest.mark.parametrize("players", [3, 4, 8, 10])
def test_the_winners_mark_keeps_off_the_tables_message(
    browser: Any, server: AppServer, players: int
) -> None:
    # Held sideways, the message stands beside the ring, on its right. At four players
    # (844 x 390) the seat on the right took the trick, and its "★ wins", beside the card,
    # lay over "Marisol took the previous trick"; at eight and ten (667 x 375 too) so did
    # the mark of the card at the ring's right end. Each seat of the right half wins here.
    over = []
    for seat in range(players // 2, players):
        game = position(players, functools.partial(winning_card, seat=seat))
        card = winning_card(game, seat)
        for viewport in ("phone-landscape", "smaller-phone-landscape"):
            page = open_page(browser, server, VIEWPORTS[viewport])
            start_game(page)  # the browser's cookie
            name = f"wins-{players}-{seat}-{viewport}"
            store_for(page, server, name, game)
            open_stored(page, server, name, "speed=fast")  # the mark shown for a while
            settle(page)
            page.evaluate(WATCH_MARK)
            page.click(f"#hand [data-card='{card}'][data-legal=true]")
            page.wait_for_function("() => window.marks.length > 0")
            if seat == round(players * 3 / 4 + 0.01) and viewport.startswith("smaller"):
                # The seat at the ring's right end (at ten, the lower of the two there).
                shoot(page, f"table-polish-wins-right-end-{players}")
            marks = plain(page.evaluate("window.marks"))
            assert all(m["lines"] for m in marks), marks  # words to keep clear of
            over += [
                (seat, viewport, m)
                for m in marks
                if any(overlap(m["mark"], line) for line in m["lines"])
            ]
            assert not page.errors
            page.context.close()
    assert over == [], over[:2]


# --- at a table of friends, held sideways ----------------------------------------------------


def friends_table(browser: Any, server: AppServer, viewport: str, friend: int) -> Any:
    """Ann (the host, on a desktop) and Bea (by the link, on a phone of `viewport`) at a table
    of four, Bea in seat `friend`, two easy computer players; each one's API client (their
    own cookie) and the game's id, both pages at the pass."""
    ann, bea = person(browser, "Ann", DESKTOP), person(browser, "Bea", VIEWPORTS[viewport])
    seats = ["you", "easy", "easy", "easy"]
    seats[friend] = "friend"
    body: dict[str, Any] = {"name": "Ann", "seats": seats, "turn_time": None, "rules": {}}
    state = table_by_api(ann, server, body)
    join(bea, f"{server.url}{state['table']['invite']}")
    at_the_pass([ann, bea])
    clients = {}
    for seat, someone in ((0, ann), (friend, bea)):
        jar = {c["name"]: c["value"] for c in someone.context.cookies()}
        clients[seat] = httpx.Client(base_url=server.url, cookies=jar, timeout=30)
    return ann, bea, clients, state["id"]


def close(people: list[Person], clients: dict[int, httpx.Client]) -> None:
    for client in clients.values():
        client.close()
    for someone in people:
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def play_the_round(clients: dict[int, httpx.Client], game: str) -> None:
    """The round played through the API, as each person (their own cookie), to its end."""
    for _ in range(500):
        now = clients[0].get(f"/api/games/{game}").json()
        if now["phase"] == "round-over":
            return
        for seat in [seat for seat in now["table"]["waiting_on"] if seat in clients]:
            answer = move(clients[seat], clients[seat].get(f"/api/games/{game}").json())
            assert answer.status_code in (200, 409), answer.text
    raise AssertionError("the round did not end")


#: Each time a card of the trick is marked "★ wins": the status line's words then, and the
#: names of the players whose cards are on the trick.
WATCH_STATUS = """() => {
    window.marked = [];
    new MutationObserver(() => {
        if (!document.querySelector('.trick .slot.winner')) return;
        const played = [...document.querySelectorAll('.trick .slot')]
            .filter((slot) => slot.querySelector('.played'))
            .map((slot) => document.querySelector(
                `#game .seat[data-seat='${slot.dataset.seat}'] .name`)?.textContent);
        window.marked.push({ status: document.querySelector('#status').textContent, played });
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] });
}"""


def test_a_trick_won_is_never_shown_beside_a_stale_turn(browser: Any, server: AppServer) -> None:
    # Seven players with friends: a trick's card glowed "★ wins" while the status line named
    # a player to play whose card was already on that trick: the line said the turn before
    # the moves being shown, until they had all been shown. Here Bea's cards go from her
    # own API client, as from another tab: "Your turn." stood beside her card on the trick.
    ann, bea, clients, game = friends_table(browser, server, "phone-landscape", 1)
    bea.page.evaluate(WATCH_STATUS)
    play_the_round(clients, game)
    bea.page.wait_for_selector("#game[data-phase=round-over]")
    marked = plain(bea.page.evaluate("window.marked"))
    assert marked, "no trick was seen won"

    def turn_of(name: str) -> set[str]:
        return {"Your turn.", "Your lead."} if name == "You" else {f"{name} to play."}

    stale = [m for m in marked if any(m["status"] in turn_of(name) for name in m["played"])]
    assert stale == [], stale[:3]
    close([ann, bea], clients)


#: The bubble shown, and every name on the table, as [left, top, right, bottom].
BUBBLE_AND_NAMES = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const bubble = document.querySelector('.seat .quip:not([hidden])');
    return { bubble: bubble && box(bubble), words: bubble && bubble.textContent,
             names: [...document.querySelectorAll('#game .seat .name')]
                 .filter((el) => el.getClientRects().length)
                 .map((el) => [el.textContent, box(el)]) };
}"""

SIDEWAYS = ["phone-landscape", "small-phone-landscape", "smaller-phone-landscape"]


@pytest.mark.parametrize("friend", [1, 2])
@pytest.mark.parametrize("viewport", [*SIDEWAYS, "phone"])
def test_a_hint_told_at_a_friends_table_hides_no_name(
    browser: Any, server: AppServer, viewport: str, friend: int
) -> None:
    # 844 x 390, 740 x 360, 667 x 375 (and upright, 390 x 844): "Ann asked the coach for a
    # hint." lay over Ann's name (and with it who had asked) until it went.
    ann, bea, clients, game = friends_table(browser, server, viewport, friend)
    assert clients[0].post(f"/api/games/{game}/hint", json={}).status_code == 200
    bea.page.wait_for_selector(".seat[data-seat='0'] .quip:not([hidden])")
    found = bea.page.evaluate(BUBBLE_AND_NAMES)
    shoot(bea.page, f"table-polish-hint-told-{viewport}-{friend}")
    assert "asked the coach for a hint" in found["words"], found
    hidden = [name for name, box in found["names"] if overlap(found["bubble"], box)]
    assert hidden == [], (found["bubble"], found["names"])
    close([ann, bea], clients)


#: The lines the round's way on takes at a table of friends, and whether it is on the screen.
READY_LINES = """() => {
    const button = document.querySelector('.sheet-panel [data-action=next-round]');
    const range = document.createRange();
    range.selectNodeContents(button);
    const lines = new Map();
    for (const r of range.getClientRects()) {
        const top = Math.round(r.top);
        lines.set(top, (lines.get(top) || 0) + r.width);
    }
    const r = button.getBoundingClientRect();
    return { words: button.textContent, lines: lines.size, widths: [...lines.values()],
             seen: r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight };
}"""


def test_ready_for_the_next_round_keeps_to_one_line_held_sideways(
    browser: Any, server: AppServer
) -> None:
    # 667 x 375 at a table of friends: "Ready for the next round", in its column beside the
    # round's table, took two lines ("round" alone on the second), three at 150% text.
    ann, bea, clients, game = friends_table(browser, server, "smaller-phone-landscape", 1)
    play_the_round(clients, game)
    page = bea.page
    page.wait_for_selector("#game[data-phase=round-over] .sheet-panel [data-action=next-round]")
    failures = []
    for viewport in SIDEWAYS:
        resize(page, VIEWPORTS[viewport])
        for size in ("", "150%"):
            large_text(page, size)
            found = page.evaluate(READY_LINES)
            assert found["words"] == "Ready for the next round", found
            # One line at the usual size; at 150% two at most, of a length (not a word
            # left alone on the second).
            widths = found["widths"]
            even = min(widths) >= 0.6 * max(widths)
            if not found["seen"] or found["lines"] > (2 if size else 1) or not even:
                failures.append((viewport, size, found))
            shoot(page, f"table-polish-ready-{viewport}-{size.strip('%') or '100'}")
    assert failures == [], failures
    close([ann, bea], clients)


# --- an empty hand shows no count -----------------------------------------------------------


def test_a_round_played_out_shows_no_lone_count_of_nought_at_the_seats(
    browser: Any, server: AppServer
) -> None:
    # At the round's end each seat read "4 +4 ♥4" and, under it, "0": the count of cards
    # left, which read as a second score.
    game = position(4, lambda g: len(g.round.hand(0)) == 1 and not g.round.trick)
    page = open_position(browser, server, "desktop", "polish-played-out", game)
    counts = """() => [...document.querySelectorAll('#game .seat.opponent .held')]
        .map((e) => (e.checkVisibility({ visibilityProperty: true }) ? e.textContent : null))"""
    assert all(seen for seen in page.evaluate(counts)), page.evaluate(counts)
    page.click("[data-region=hand] [data-card][data-legal=true]")
    page.wait_for_selector("#game[data-phase=round-over]")
    settle(page)
    assert page.evaluate(counts) == [None] * (game.rules.players - 1)
    shoot(page, "table-polish-played-out-desktop")
    assert not page.errors


# --- a main button not yet ready reads clearly on the felt ----------------------------------

#: The contrast ratio (WCAG) of the pass button's words against the felt's lightest green,
#: with the button's own opacity taken in; and that opacity.
PASS_CONTRAST = """() => {
    const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const light = (c) => {
        const [r, g, b] = c.map((v) => { v /= 255;
            return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const button = document.querySelector('[data-action=pass]');
    const style = getComputedStyle(button);
    const felt = rgb(getComputedStyle(document.documentElement).getPropertyValue('--felt')
        .trim().replace(/^#(..)(..)(..)$/, (_, r, g, b) =>
            `${parseInt(r, 16)},${parseInt(g, 16)},${parseInt(b, 16)}`));
    const opacity = Number(style.opacity);
    const back = style.backgroundColor === 'rgba(0, 0, 0, 0)' ? felt : rgb(style.backgroundColor);
    const mix = (a) => a.map((v, i) => v * opacity + felt[i] * (1 - opacity));
    const [one, two] = [light(mix(rgb(style.color))), light(mix(back))];
    return { ratio: (Math.max(one, two) + 0.05) / (Math.min(one, two) + 0.05), opacity,
             disabled: button.getAttribute('aria-disabled') };
}"""


def test_the_pass_button_not_yet_ready_reads_clearly_on_the_felt(
    browser: Any, server: AppServer
) -> None:
    # Before three cards were chosen, "Pass 3" was the yellow button at half strength: a
    # muddy olive on the green, its words hard to make out.
    page = open_page(browser, server, VIEWPORTS["phone"])
    start_game(page)
    waiting = page.evaluate(PASS_CONTRAST)
    assert waiting["disabled"] == "true"
    assert waiting["opacity"] == 1 and waiting["ratio"] >= 4.5, waiting
    shoot(page, "table-polish-pass-not-ready-phone")
    for card in page.eval_on_selector_all(
        "[data-region=hand] [data-card]", "els => els.slice(0, 3).map((e) => e.dataset.card)"
    ):
        page.click(f"[data-region=hand] [data-card='{card}']")
    ready = page.evaluate(PASS_CONTRAST)
    assert ready["disabled"] == "false" and ready["ratio"] >= 4.5, ready
    assert not page.errors


#: The Pass button's words as seen, its label, and the lines its words take.
PASS_LINES = """() => {
    const button = document.querySelector('[data-action=pass]');
    const range = document.createRange();
    range.selectNodeContents(button);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.bottom)));
    return { words: button.innerText, label: button.getAttribute('aria-label'), lines: tops.size };
}"""


def test_the_pass_button_keeps_to_one_line_at_a_table_of_friends_held_sideways(
    browser: Any, server: AppServer
) -> None:
    # 667 x 375 at a table of friends (React beside Pass, Hint and Sound): "Pass 3 to Marisol,
    # on your left" took two lines, "left" alone on the second. It says "Pass 3 to Marisol"
    # there (the line over the table says where they go); its label still says it all, and
    # where there is room (844 x 390) so do its words.
    ann, bea, clients, game = friends_table(browser, server, "smaller-phone-landscape", 1)
    page = bea.page
    state = clients[1].get(f"/api/games/{game}").json()
    seat = state["table"]["seat"]
    left = state["players"][(seat + 1) % len(state["players"])]["name"]  # play goes left
    whole = f"Pass 3 to {left}, on your left"
    found = plain(page.evaluate(PASS_LINES))
    assert found == {"words": f"Pass 3 to {left}", "label": whole, "lines": 1}, found
    shoot(page, "table-polish-pass-one-line-667")
    resize(page, VIEWPORTS["phone-landscape"])
    page.wait_for_function("() => !document.querySelector('[data-action=pass].short')")
    found = plain(page.evaluate(PASS_LINES))
    assert found == {"words": whole, "label": whole, "lines": 1}, found
    shoot(page, "table-polish-pass-one-line-844")
    close([ann, bea], clients)
