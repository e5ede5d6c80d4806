"""Issue 15, the game table in play: points 4-10 and what players expect that we lacked.

Each test drives Chromium as a person would and checks one thing that was wrong before:
the Pass button after the pass, a new game that discarded the old one, the round results,
the lead and the pause after a trick, the keyboard, the chart, the start screen; then sound,
playing the only card, tap to continue, a round that finishes itself, and light or dark.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from test_web_game_browser import (
    TABLE,
    hand,
    open_page,
    pass_three,
    play_one,
    shoot,
    start_game,
    wait_for_person,
)

import hearts
from hearts.claim import settled_points
from hearts.rules import MAX_TARGET, MIN_TARGET
from hearts.web.settings import Settings

from browser_support import (
    DESKTOP,
    PHONE,
    SCREENS,
    SEEN,
    AppServer,
    heard,
    plain,
    resize,
    seen,
    store_for,
)

pytestmark = pytest.mark.browser


def open_stored(page: Any, server: AppServer, game_id: str, query: str = "speed=instant") -> None:
    page.goto(f"{server.url}/?{query}")
    page.wait_for_selector("body[data-ready=true]")
    page.click(f"[data-action=continue][data-game='{game_id}']")
    wait_for_person(page)


def play_until(game: hearts.Game, rng: random.Random, stop: Any) -> hearts.Game:
    """Random legal play (no passing rounds) until `stop(game)` holds at seat 0's turn."""
    while game.phase == "playing":
        if game.round.turn == 0 and stop(game):
            return game
        game.play(rng.choice(game.round.legal_cards()))
    raise LookupError("the round ended first")


def find_game(rules: hearts.Rules, stop: Any) -> hearts.Game:
    for seed in range(400):
        try:
            return play_until(hearts.Game(rules, seed), random.Random(seed), stop)
        except LookupError:
            continue
    raise AssertionError("no game reached the wanted position")


def record_log(page: Any) -> None:
    """Keep every line the screen reader log is given (it only shows the last few)."""
    page.evaluate(
        """() => {
            window.said = [];
            new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach(
                (n) => window.said.push(n.textContent)))).observe(
                document.querySelector('#log'), { childList: true });
        }"""
    )


# --- point 4: the Pass button ------------------------------------------------------------


def test_the_pass_button_goes_once_the_pass_is_sent(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP, speed="slow")
    start_game(page)
    pass_three(page)
    page.wait_for_selector(f"{TABLE}[data-animating]")
    # While the exchange and the opponents' cards are shown, nothing offers to pass again.
    assert page.query_selector("[data-action=pass]") is None
    wait_for_person(page)
    assert page.query_selector("[data-action=pass]") is None
    assert not page.errors


# --- point 5: a new game does not discard the old one ------------------------------------


def test_a_new_game_asks_first_and_the_old_one_can_be_reached(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, PHONE)
    start_game(page)
    pass_three(page)
    wait_for_person(page)
    first_hand = hand(page)
    page.click("[data-action=menu-new]")
    page.wait_for_selector("[data-action=continue]")
    assert "Round 1" in page.inner_text(".unfinished")
    first_id = page.get_attribute("[data-action=continue]", "data-game")
    page.click("[data-action=new-game]")
    # Asked, not discarded: going back leads to the same cards.
    page.wait_for_selector("dialog[open] [data-action=confirm-new]")
    assert "stays saved" in page.inner_text("dialog")
    shoot(page, "phone-new-game")
    page.click("[data-action=keep-playing]")
    page.wait_for_selector(f"{TABLE}[data-game='{first_id}']", state="visible")
    wait_for_person(page)
    assert hand(page) == first_hand
    # A second game, then the first again from the start screen.
    page.click("[data-action=menu-new]")
    page.click("[data-action=new-game]")
    page.click("[data-action=confirm-new]")
    page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]")
    page.click("[data-action=menu-new]")
    # Both are offered (newest played first: the order can change while the first game's
    # page lets go of it, so the first is found by its id).
    page.wait_for_selector(".unfinished li:nth-child(2)")
    # Each says when it was last played, so two games alike can be told apart.
    assert [
        line.startswith("Last played today at ")
        for line in page.locator(".unfinished [data-played]").all_inner_texts()
    ] == [True, True]
    # The table stays hidden, still holding the second game, until the first is loaded: a
    # slow answer (as on a loaded machine) must not let the second game's cards be read.
    page.evaluate(
        """id => { const fetch = window.fetch;
            window.fetch = (url, options) => String(url).endsWith(`/api/games/${id}`)
                ? new Promise((done) => setTimeout(done, 1000)).then(() => fetch(url, options))
                : fetch(url, options); }""",
        first_id,
    )
    page.click(f".unfinished [data-action=continue][data-game='{first_id}']")
    page.wait_for_selector(f"{TABLE}[data-game='{first_id}']", state="visible")
    wait_for_person(page)
    assert hand(page) == first_hand
    assert not page.errors


def test_when_a_game_was_last_played_reads_as_a_person_says_it(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, PHONE)
    said = page.evaluate(
        """async () => {
            const { playedWhen } = await import('/game/js/words.js');
            const now = new Date(2026, 10, 28, 9, 0);
            return [new Date(2026, 10, 28, 8, 5), new Date(2026, 10, 27, 23, 59),
                    new Date(2026, 10, 20, 17, 12)].map((then) =>
                playedWhen(then.toISOString(), now));
        }"""
    )
    assert said[0].startswith("today at ") and said[1].startswith("yesterday at ")
    assert said[2].startswith("on ") and "2026" in said[2] and " at " in said[2]
    assert not page.errors


# --- point 7: the round's results -------------------------------------------------------


def play_to(page: Any, wanted: set[str]) -> str:
    for _ in range(200):
        now = wait_for_person(page)
        if now in wanted:
            return now
        if now == "passing":
            pass_three(page)
        elif now == "playing":
            play_one(page)
        elif page.query_selector("[data-action=moon-add]"):
            page.click("[data-action=moon-add]")
        else:
            page.click("[data-action=next-round]")
    raise AssertionError("never reached " + ", ".join(wanted))


def test_each_panel_opens_at_its_top(browser: Any, server: AppServer) -> None:
    # A phone held sideways: the round's panel is taller than the screen, and a person
    # scrolls it to the chart. The game's end opened scrolled as far, its winner out of sight.
    # The round's way on stands beside the panel's rows, in sight as it scrolls and lying over
    # none of them, so never shadowed; the game's end keeps its way on at the screen's foot.
    page = open_page(browser, server, SCREENS["phone-landscape"])
    start_game(page, target=30)
    overlay = "document.querySelector('[data-region=overlay]')"
    rounds = 0
    while play_to(page, {"round-over", "game-over"}) == "round-over":
        rounds += 1
        assert page.evaluate(f"{overlay}.scrollTop") == 0
        for end in ("0", "o.scrollHeight"):
            page.evaluate(f"(() => {{ const o = {overlay}; o.scrollTop = {end}; }})()")
            page.wait_for_selector(".way-on:not(.stuck)")
            page.wait_for_function(WAY_ON_SHADOWED_WHEN_OVER_ROWS)
            page.wait_for_function(WAY_ON_IN_SIGHT)
        page.click("[data-action=next-round]")
    assert rounds >= 1
    assert page.evaluate(f"{overlay}.scrollTop") == 0
    assert page.locator("#over-title").is_visible()
    # The game's end is taller than the screen: its way on keeps to the screen's foot over
    # the panel's rows, shadowed as lying over them, with no row showing under it.
    page.wait_for_selector(".way-on.stuck")
    page.wait_for_function(WAY_ON_SHADOWED_WHEN_OVER_ROWS)
    assert not page.errors


#: The panel's way on wholly on the screen.
WAY_ON_IN_SIGHT = """() => {
    const r = document.querySelector('.way-on').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
}"""

#: The panel's way on is shadowed ("stuck") exactly when it lies at the screen's foot over
#: rows further down, and then it reaches the foot: nothing shows under it.
WAY_ON_SHADOWED_WHEN_OVER_ROWS = """() => {
    const bar = document.querySelector('.way-on');
    const bottom = bar.getBoundingClientRect().bottom;
    return bar.classList.contains('stuck') === bottom > innerHeight;
}"""


def summary_rows(page: Any) -> list[list[str]]:
    rows: list[list[str]] = plain(
        page.eval_on_selector_all(
            "table.summary tbody tr", f"rows => rows.map(r => [...r.children].map({SEEN}))"
        )
    )
    return rows


def test_round_results_say_who_took_the_hearts_and_the_queen(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, PHONE)
    start_game(page)
    play_to(page, {"round-over", "game-over"})
    heads = page.eval_on_selector_all(
        "table.summary thead th", "els => els.map(e => e.title || e.textContent)"
    )
    assert heads[:3] == ["Player", "Hearts", "Queen"]
    rows = summary_rows(page)
    assert sum(int(row[1]) for row in rows) == 13
    queens = [row[0] for row in rows if row[2] == "Q♠"]
    assert len(queens) == 1
    moon = page.locator(".moon-news")
    if moon.count():  # a moon's news names the queen with the hearts: no line of its own
        assert f"{queens[0]} shot the moon: every heart and the queen" in plain(moon.inner_text())
        assert page.locator(".queen-news").count() == 0
    else:
        assert f"{queens[0]} took the queen of spades" in plain(page.inner_text(".queen-news"))
    # The focus goes to the panel's way on: the panel is described by the round's news and
    # the person's total, read with its title (a screen reader heard "Round 1 is over" and
    # the button, nothing of how the round went).
    described = page.evaluate(
        """() => document.querySelector('[role=dialog]').getAttribute('aria-describedby')
            .split(' ').map((id) => document.getElementById(id).textContent)"""
    )
    assert re.search(r"took (the|both) queens? of spades|shot the", described[0]), described
    assert described[-1].startswith("Your total: "), described
    # The seats' badges: a heart only for hearts, the queen only for the queen.
    badges = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#game .seat')].map((s) => [
            s.querySelector('.name').textContent,
            [!!s.querySelector('.taken .mark-hearts'), !!s.querySelector('.taken .mark-queen')],
        ]))"""
    )
    for name, hearts_taken, queen, *_ in rows:
        assert badges[name] == [int(hearts_taken) > 0, queen == "Q♠"], (name, badges)
    # The panel's links are the page's green, and a tap 18 px above or below a link's text
    # still lands on it (they were 17 px tall, in the browser's blue).
    links = page.evaluate(
        """() => [...document.querySelectorAll('.sheet-panel .deal-check a')].map((a) => {
            const r = a.getClientRects()[0];
            const x = r.left + r.width / 2;
            return [getComputedStyle(a).color, r.height,
                    document.elementFromPoint(x, r.top + 2) === a,
                    document.elementFromPoint(x, r.bottom - 2) === a];
        })"""
    )
    assert len(links) >= 2
    for color, height, top, bottom in links:
        assert color == "rgb(20, 82, 56)" and height >= 40 and top and bottom
    shoot(page, "phone-round-over")
    assert not page.errors


def test_the_last_round_is_summed_up_before_game_over(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    start_game(page, target=5)
    play_to(page, {"game-over"})
    overlay = page.inner_text("[data-region=overlay]")
    assert "Game over" in overlay and ", the last" in overlay
    rows = summary_rows(page)
    assert len(rows) == 4 and sum(int(row[1]) for row in rows) == 13
    shoot(page, "desktop-game-over")
    assert not page.errors


def test_the_commentary_counts_the_bonus_card(browser: Any, server: AppServer) -> None:
    # Omnibus: seat 0 is last to play to a trick that holds the jack of diamonds.
    rules = hearts.Rules(bonus_card="JD", pass_cycle=("hold",))

    def jack_on_the_table(game: hearts.Game) -> bool:
        cards = [str(card) for _, card in game.round.trick]
        return len(cards) == 3 and "JD" in cards

    game = find_game(rules, jack_on_the_table)
    card = str(game.round.legal_cards()[0])
    after = game.copy()
    after.play(card)
    winner = after.round.tricks[-1].winner
    change = after.round.points_taken[winner] - game.round.points_taken[winner]
    assert change < 0
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    store_for(page, server, "omnibus-jack", game)
    open_stored(page, server, "omnibus-jack")
    record_log(page)
    page.click(f"[data-card='{card}']")
    wait_for_person(page)
    said = " ".join(page.evaluate("window.said"))
    assert f"the trick: {-change} points off." in said, said
    assert not page.errors


# --- point 8: the trick ---------------------------------------------------------------


def test_the_lead_is_marked_and_the_cards_say_who_played_them(
    browser: Any, server: AppServer
) -> None:
    # A stored position with two cards down before the person's turn. A dealt game left what
    # was down to the deal: a person who led the 2♣ and won it with every other seat out of
    # clubs found the table empty at their next turn.
    game = find_game(hearts.Rules(pass_cycle=("hold",)), lambda g: len(g.round.trick) == 2)
    page = open_page(browser, server, DESKTOP)
    start_game(page)  # the browser's cookie
    store_for(page, server, "lead-marked", game)
    open_stored(page, server, "lead-marked")
    played = page.eval_on_selector_all(
        ".trick .slot:has([data-played])",
        "els => els.map(e => [e.classList.contains('led'), !!e.querySelector('.led-mark'),"
        " e.querySelector('[data-played]').getAttribute('aria-label')])",
    )
    assert len(played) == 2
    assert sum(1 for led, _, _ in played if led) == 1
    names = ["You", "Marisol", "Bertie", "Tamsin"]
    for led, mark, label in played:
        assert mark == led
        assert any(plain(label).startswith(f"{name} played the ") for name in names), label
        assert label.endswith(", the lead") == led
    # The mark leaves the card's top left index (its rank and suit) in sight.
    mark, card = page.eval_on_selector(
        ".trick .slot.led:has([data-played])",
        """slot => [slot.querySelector('.led-mark'), slot.querySelector('[data-played]')]
            .map((el) => { const r = el.getBoundingClientRect();
                           return {l: r.left, r: r.right, t: r.top, b: r.bottom}; })""",
    )
    index_right, index_bottom = (
        card["l"] + 0.3 * (card["r"] - card["l"]),
        card["t"] + 0.3 * (card["b"] - card["t"]),
    )
    assert mark["l"] >= index_right or mark["b"] <= card["t"] or index_bottom <= mark["t"], (
        mark,
        card,
    )
    assert not page.errors


@pytest.mark.parametrize("players", [6, 10])
def test_the_lead_mark_stays_on_top_of_a_crowded_trick(
    browser: Any, server: AppServer, players: int
) -> None:
    """At ten players on a phone the next card covered the mark ("LE"): each slot was a
    layer of its own. The mark is what is seen at its own middle."""
    rules = hearts.Rules(players=players, pass_cycle=("hold",))
    game = find_game(rules, lambda g: len(g.round.trick) >= players - 2)
    page = open_page(browser, server, PHONE)
    start_game(page)
    store_for(page, server, f"lead-mark-{players}", game)
    open_stored(page, server, f"lead-mark-{players}")
    on_top = page.eval_on_selector(
        ".trick .led-mark",
        """mark => { const r = mark.getBoundingClientRect();
            const seen = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return mark.contains(seen); }""",
    )
    assert on_top
    assert not page.errors


@pytest.mark.parametrize(("players", "kitty"), [(10, False), (3, True)])
def test_speech_bubbles_cover_no_other_seat_nor_the_trick_on_a_phone(
    browser: Any, server: AppServer, players: int, kitty: bool
) -> None:
    """A bubble under a side seat covered the next seat's face (ten players) or the kitty's
    sign (three); beside it, the trick. Every bubble shown at once, as a worst case."""
    rules = hearts.Rules(players=players, kitty=kitty, pass_cycle=("hold",))
    game = find_game(rules, lambda g: len(g.round.trick) >= 2)
    page = open_page(browser, server, PHONE)
    start_game(page)
    store_for(page, server, f"bubbles-{players}", game)
    open_stored(page, server, f"bubbles-{players}")
    overlaps = page.evaluate(
        """() => {
            const box = (el) => el.getBoundingClientRect();
            const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                && a.top < b.bottom - 1 && b.top < a.bottom - 1;
            const seats = [...document.querySelectorAll('.seat.opponent')];
            for (const seat of seats) {
                const quip = seat.querySelector('.quip');
                quip.hidden = false;
                quip.textContent = 'Ouch. That one was still warm.';
            }
            const found = [];
            for (const seat of seats) {
                const quip = box(seat.querySelector('.quip'));
                for (const other of seats) {
                    if (other !== seat && meet(quip, box(other.querySelector('.avatar')))) {
                        found.push(`${seat.dataset.seat} over ${other.dataset.seat}'s face`);
                    }
                }
                for (const card of document.querySelectorAll('.trick [data-played]')) {
                    if (meet(quip, box(card))) found.push(`${seat.dataset.seat} over the trick`);
                }
            }
            return found;
        }"""
    )
    assert overlaps == [], overlaps
    assert not page.errors


def test_a_finished_trick_stays_long_enough_to_see_at_fast(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP, speed="fast")
    start_game(page)
    pass_three(page)
    wait_for_person(page)
    page.evaluate(
        """() => {
            window.shown = [];
            window.sweeping = [];
            let since = null;
            new MutationObserver(() => {
                const on = !!document.querySelector('.slot.winner');
                const trick = document.querySelector('.trick');
                if (on && trick.dataset.sweeping) {
                    const slot = document.querySelector('.slot.winner');
                    const label = getComputedStyle(slot, '::after');
                    window.sweeping.push(label.visibility);
                }
                if (on && since === null) since = performance.now();
                if (!on && since !== null) {
                    window.shown.push(performance.now() - since);
                    since = null;
                }
            }).observe(document.querySelector('.trick'), { subtree: true, attributes: true,
                attributeFilter: ['class', 'data-sweeping'] });
        }"""
    )
    play_one(page)
    wait_for_person(page)
    shown = page.evaluate("window.shown")
    assert shown and min(shown) >= 700, shown
    # While the cards fly to the winner, "★ wins" goes with them.
    sweeping = page.evaluate("window.sweeping")
    assert sweeping and set(sweeping) == {"hidden"}, sweeping
    assert not page.errors


# --- point 9: the keyboard -------------------------------------------------------------


def test_keyboard_order_and_the_skip_link(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    # No hand on the start screen: no "Skip to your hand".
    assert page.eval_on_selector(".skip", "e => getComputedStyle(e).display") == "none"
    start_game(page)
    assert page.eval_on_selector(".skip", "e => getComputedStyle(e).display") != "none"
    # The Pass button comes after the hand, and Tab from the hand reaches a button.
    after = page.evaluate(
        "document.querySelector('#hand').compareDocumentPosition("
        "document.querySelector('[data-action=pass]')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    assert after
    for card in hand(page)[:3]:
        page.click(f"[data-card='{card}']")
    page.focus(f"[data-card='{hand(page)[0]}']")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.action") == "pass"
    page.keyboard.press("Enter")
    wait_for_person(page)
    page.focus("[data-card][data-legal=true]")
    page.keyboard.press("Tab")
    landed = page.evaluate(
        "[document.activeElement.tagName, document.activeElement.dataset.action]"
    )
    assert landed[0] == "BUTTON" and landed[1] in ("tricks", "hint", "sound", "dismiss"), landed
    assert not page.errors


def test_the_keyboard_stays_at_the_table_and_a_panel_keeps_it(
    browser: Any, server: AppServer
) -> None:
    """A card played by keyboard leaves the hand: the focus goes to the hand, never to the
    page's body (where a screen reader says nothing) while the others play; at the round's
    end the panel has it, and the table's buttons hidden behind the panel are out of reach."""
    rules = hearts.Rules(pass_cycle=("hold",))
    game = find_game(rules, lambda g: len(g.round.hand(0)) == 2)
    page = open_page(browser, server, DESKTOP, speed="fast")
    start_game(page)
    store_for(page, server, "keys-to-the-end", game)
    open_stored(page, server, "keys-to-the-end", query="speed=fast")
    page.evaluate(
        """() => {
            window.lost = 0;
            const look = () => {
                if (document.activeElement === document.body) {
                    window.lost += 1;
                    window.where = document.querySelector('#game').dataset.phase;
                }
                requestAnimationFrame(look);
            };
            requestAnimationFrame(look);
        }"""
    )
    page.focus("[data-card][data-legal=true]")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.activeElement.dataset.action === 'next-round'", timeout=20000
    )
    assert page.evaluate("window.lost") == 0, page.evaluate("window.where")
    assert page.locator("a.skip").is_hidden()  # no hand to skip to
    reached = []
    for _ in range(40):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.dataset.action || ''"))
    assert "next-round" in reached
    assert not {"sound", "hint", "tricks"} & set(reached), reached
    assert not page.errors


# --- point 10: the chart -------------------------------------------------------------


def test_equal_totals_keep_every_line_in_sight(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    lines = page.evaluate(
        """async () => {
            const { totalsChart } = await import('/game/js/scores.js');
            const players = ['You', 'Marisol', 'Bertie', 'Tamsin'].map((name, seat) =>
                ({ seat, name, level: null }));
            const results = [[13, 13, 0, 0], [20, 20, 6, 6]].map((totals, i) =>
                ({ hand_number: i, totals, scores: totals, points_taken: totals, shooter: null,
                   reset: [] }));
            const chart = totalsChart({ players, results, scores: [20, 20, 6, 6],
                view: { rules: { target_score: 100 } } });
            return [...chart.querySelectorAll('.series polyline')].map(
                (p) => [p.getAttribute('points'), p.getAttribute('stroke-dasharray') || '']);
        }"""
    )
    assert len(lines) == 4
    assert len({points for points, _ in lines}) == 4
    assert len({dash for _, dash in lines}) == 4
    # Ten lines apart are still near the totals they draw: a 0 at the zero line, not ten
    # pixels under it (each was 2.2 px from the next, whatever the table).
    ten = page.evaluate(
        """async () => {
            const { totalsChart } = await import('/game/js/scores.js');
            const players = [...Array(10).keys()].map((seat) =>
                ({ seat, name: `P${seat}`, level: null }));
            const totals = [...Array(10).keys()].map((seat) => seat % 2 ? 0 : 13);
            const results = [{ hand_number: 0, totals, scores: totals, points_taken: totals,
                shooter: null, reset: [] }];
            const svg = totalsChart({ players, results, scores: totals,
                view: { rules: { target_score: 100 } } }).querySelector('svg');
            const zero = Number(svg.querySelector('line.zero').getAttribute('y1'));
            const starts = [...svg.querySelectorAll('.series polyline')].map((p) =>
                Number(p.getAttribute('points').split(' ')[0].split(',')[1]));
            return { zero, starts,
                     distinct: new Set([...svg.querySelectorAll('.series polyline')].map(
                         (p) => p.getAttribute('points'))).size };
        }"""
    )
    assert ten["distinct"] == 10
    assert max(abs(y - ten["zero"]) for y in ten["starts"]) <= 4, ten
    assert not page.errors


def test_the_chart_fits_early_rounds_and_shows_the_target_once_it_nears(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, DESKTOP)
    charts = page.evaluate(
        """async () => {
            const { totalsChart } = await import('/game/js/scores.js');
            const players = ['You', 'Marisol', 'Bertie', 'Tamsin'].map((name, seat) =>
                ({ seat, name, level: null }));
            const chart = (rows) => {
                const results = rows.map((totals, i) => ({ hand_number: i, totals,
                    scores: totals, points_taken: totals, shooter: null, reset: [] }));
                const svg = totalsChart({ players, results, scores: rows[rows.length - 1],
                    view: { rules: { target_score: 100 } } }).querySelector('svg');
                const ys = [...svg.querySelectorAll('.series polyline')].map((p) =>
                    p.getAttribute('points').split(' ').map((xy) => Number(xy.split(',')[1])));
                const line = svg.querySelector('line.target');
                const note = svg.querySelector('.target-note');
                return { height: svg.viewBox.baseVal.height, ys,
                         target: line !== null, note: note?.textContent || '',
                         under: line && note
                             ? Number(note.getAttribute('y')) - line.y1.baseVal.value : null,
                         left: note ? Number(note.getAttribute('x')) : null };
            };
            const later = [[1, 4, 2, 19], [30, 8, 15, 45], [31, 20, 40, 58]];
            return [chart([[1, 4, 2, 19]]), chart(later)];
        }"""
    )
    early, later = charts
    # One round to a target of 100: the chart's top is near the 19, not at 100.
    assert not early["target"] and early["note"] == "Game ends at 100"
    assert min(early["ys"][3]) < early["height"] / 3
    # Someone past half the target: the target's line is drawn, and says what it is just
    # under its left end (a dashed red line at 100 was left to be guessed).
    assert later["target"] and later["note"] == "Game ends"
    # (its baseline a line of small print under the target's line, at the chart's left)
    assert 8 <= later["under"] <= 14 and later["left"] < 60, later
    assert not page.errors


def test_a_short_games_chart_prints_no_number_over_another(browser: Any, server: AppServer) -> None:
    # A game to 1 that ended on a round of 17: the target's "1" printed over the "0", its
    # "Game ends" over the lines' start, and the axis had no number at its top; so did a
    # game to 5 ended by a total of 40 (a moon, say).
    page = open_page(browser, server, DESKTOP)
    shown = page.evaluate(
        """async () => {
            const { totalsChart } = await import('/game/js/scores.js');
            const players = ['You', 'Marisol', 'Bertie', 'Tamsin'].map((name, seat) =>
                ({ seat, name, level: null }));
            const draw = (target, rows) => {
                const results = rows.map((totals, i) => ({ hand_number: i, totals,
                    scores: totals, points_taken: totals, shooter: null, reset: [] }));
                const figure = totalsChart({ players, results, scores: rows[rows.length - 1],
                    view: { rules: { target_score: target } } });
                document.body.append(figure);
                const svg = figure.querySelector('svg');
                const box = (el) => { const b = el.getBBox();
                    return [b.x, b.y, b.x + b.width, b.y + b.height]; };
                const labels = [...svg.querySelectorAll('text')].map((t) =>
                    ({ text: t.textContent, box: box(t) }));
                const segments = [...svg.querySelectorAll('.series polyline')].flatMap((p) => {
                    const xy = p.getAttribute('points').split(' ').map((v) =>
                        v.split(',').map(Number));
                    return xy.slice(1).map((end, i) => [xy[i], end]);
                });
                figure.remove();
                return { labels, segments };
            };
            return [draw(1, [[9, 0, 0, 17]]), draw(5, [[3, 0, 0, 2], [9, 0, 4, 40]]),
                    draw(100, [[30, 8, 15, 45], [31, 20, 40, 126]])];
        }"""
    )

    def overlap(a: list[float], b: list[float]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    def crosses(segment: list[list[float]], box: list[float]) -> bool:
        (x1, y1), (x2, y2) = segment
        return any(
            overlap([x, y, x, y], box)
            for x, y in ((x1 + (x2 - x1) * t / 50, y1 + (y2 - y1) * t / 50) for t in range(51))
        )

    for chart in shown:
        labels = chart["labels"]
        for i, a in enumerate(labels):
            for b in labels[i + 1 :]:
                assert not overlap(a["box"], b["box"]), (a, b)
        note = next(label for label in labels if label["text"].startswith("Game ends"))
        assert not any(crosses(seg, note["box"]) for seg in chart["segments"]), note
    short, later, past = ([label["text"] for label in c["labels"]] for c in shown)
    # The top says how high the chart goes; the short game's note says its target.
    assert "17" in short and "Game ends at 1 (dashed line)" in short, short
    assert "40" in later and "Game ends at 5 (dashed line)" in later, later
    assert {"126", "100", "0", "Game ends"} <= set(past), past
    assert not page.errors


def test_the_score_sheet_writes_a_total_below_nought_with_a_minus_sign(
    browser: Any, server: AppServer
) -> None:
    # The J♦ took a total under nought: the sheet wrote "-4" with a hyphen, where the round's
    # table and the chart's legend beside it wrote "−4".
    page = open_page(browser, server, DESKTOP)
    cells = page.evaluate(
        """async () => {
            const { scoreSheet } = await import('/game/js/scores.js');
            const players = ['You', 'Marisol', 'Bertie'].map((name, seat) =>
                ({ seat, name, level: null }));
            const results = [{ hand_number: 0, totals: [14, 6, -4], scores: [14, 6, -4],
                               points_taken: [14, 6, 6], shooter: null, reset: [] }];
            const sheet = scoreSheet({ players, results, scores: [14, 6, -4],
                                       view: { seat: 0, rules: { target_score: 100 } } });
            return [...sheet.querySelectorAll('tbody td')].map((td) => td.textContent);
        }"""
    )
    assert cells == ["14 (+14)", "6 (+6)", "\u22124 (\u22124)"], cells
    assert not page.errors


# --- point 6: the start screen -------------------------------------------------------


def test_the_start_screen_says_what_will_be_played(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    page.click("input[name=preset][value=standard] + span")
    page.click("input[name=length][value='50'] + span")
    hint = page.inner_text("[data-region=preset-help]")
    assert "100" not in hint and "50" in hint
    # A preset says what it changes whatever the length ("Relaxed rules, played to 50" said
    # nothing of what Relaxed is), and the length is not among the house rules.
    page.click("input[name=preset][value=casual] + span")
    hint = page.inner_text("[data-region=preset-help]")
    assert hint.startswith("Points allowed on the first trick") and hint.endswith("Played to 50.")
    assert page.locator("input[name=preset][value=quick]").count() == 0
    page.click("input[name=preset][value=standard] + span")
    # "Every house rule" shows a marker that it opens.
    marker = page.eval_on_selector(
        ".all-rules summary .disclosure",
        "e => { const r = e.getBoundingClientRect(); return r.width > 4 && r.height > 4; }",
    )
    assert marker
    page.click(".all-rules summary")
    assert page.eval_on_selector(".all-rules", "e => e.open")
    # At five players the 2♣ is left out and the 3♣ leads; with the kitty every card is
    # dealt and the 2♣ leads: the table's line and the first lead say so as it is ticked.
    page.click("[data-players='5'] span")
    assert "the 3♣ leads" in seen(page, "[data-region=table-line]")
    assert "the three of clubs leads" in heard(page, "[data-region=table-line]")
    # The kitty is told in its own house rule, in this table's numbers: on the table's line,
    # unticked, it read as a kitty in play to a newcomer.
    assert "kitty" not in seen(page, "[data-region=table-line]").lower()
    assert "2 cards lie face down in a kitty" in page.inner_text("label[for=rule-kitty]")
    page.check("#rule-kitty")
    line = seen(page, "[data-region=table-line]")
    assert "every card is dealt" in line and "the 2♣ leads" in line and "left out" not in line
    assert "The two of clubs" in page.inner_text(".all-rules")
    assert page.eval_on_selector(".all-rules", "e => e.open")
    assert page.evaluate("document.activeElement.id") == "rule-kitty"
    # A look at six players (no kitty there) and back: the kitty is still ticked.
    page.click("[data-players='6'] span")
    assert page.locator("#rule-kitty").count() == 0
    page.click("[data-players='5'] span")
    assert page.is_checked("#rule-kitty")
    assert "the 2♣ leads" in seen(page, "[data-region=table-line]")
    page.uncheck("#rule-kitty")
    assert "the 3♣ leads" in seen(page, "[data-region=table-line]")
    page.click("[data-players='4'] span")
    # What the length box says is what counts: a bad value blocks Start and says why.
    box = "input[aria-label='Other game length']"
    start = "[data-action=new-game]"
    # By the arrow keys onto "Other": the focus stays in the choice (it jumped into the box,
    # and the next arrow moved the box's cursor), and the empty box is not marked wrong yet.
    page.focus("input[name=length]:checked")
    for _ in range(8):  # the lengths offered, then "Other"
        page.keyboard.press("ArrowRight")
        if page.is_checked("input[name=length][value=other]"):
            break
    assert page.is_checked("input[name=length][value=other]")
    assert page.evaluate("() => document.activeElement.name") == "length"
    assert page.get_attribute(box, "aria-invalid") == "false" and page.is_disabled(start)
    assert page.inner_text("#length-note") == "Type the score that ends the game."
    # The range is the game's own (the server's target_range, from hearts.rules).
    within = f"from {MIN_TARGET} to {MAX_TARGET} points"
    page.fill(box, str(MAX_TARGET + 1))
    assert within in page.inner_text("#length-note") and page.is_disabled(start)
    page.fill(box, str(MIN_TARGET - 1))
    assert page.input_value(box) == str(MIN_TARGET - 1)
    assert within in page.inner_text("#length-note") and page.is_disabled(start)
    assert page.get_attribute(box, "aria-invalid") == "true"
    page.fill(box, "75")
    assert page.inner_text("#length-note") == "" and not page.is_disabled(start)
    assert "75" in page.inner_text("[data-region=preset-help]")
    page.click(start)
    page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]")
    games = json.loads(page.evaluate("fetch('/api/games').then(r => r.text())"))
    assert games[0]["target"] == 75
    assert not page.errors


# --- what players expect -------------------------------------------------------------


def test_sound_plays_can_be_muted_and_is_remembered(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP, speed="fast")
    start_game(page)
    pass_three(page)
    wait_for_person(page)
    assert page.get_attribute("[data-action=sound]", "aria-pressed") == "true"
    play_one(page)
    wait_for_person(page)
    heard = int(page.get_attribute("body", "data-sounds") or 0)
    assert heard >= 4  # every card laid down
    # One word, a state not a command: struck through while off.
    struck = (
        "() => getComputedStyle(document.querySelector('[data-action=sound]')).textDecorationLine"
    )
    assert page.inner_text("[data-action=sound]") == "Sound"
    assert page.evaluate(struck) == "none"
    page.click("[data-action=sound]")
    assert page.get_attribute("[data-action=sound]", "aria-pressed") == "false"
    assert page.inner_text("[data-action=sound]") == "Sound"
    assert page.evaluate(struck) == "line-through"
    heard = int(page.get_attribute("body", "data-sounds") or 0)
    play_one(page)
    wait_for_person(page)
    assert int(page.get_attribute("body", "data-sounds") or 0) == heard
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("[data-action=sound]", "aria-pressed") == "false"
    assert not page.errors


def test_sound_starts_off_when_motion_is_reduced(browser: Any, server: AppServer) -> None:
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    start_game(page)
    pass_three(page)
    wait_for_person(page)
    assert page.get_attribute("[data-action=sound]", "aria-pressed") == "false"
    play_one(page)
    wait_for_person(page)
    assert page.get_attribute("body", "data-sounds") is None
    context.close()


def one_card_game() -> tuple[hearts.Game, str]:
    rules = hearts.Rules(pass_cycle=("hold",))
    game = find_game(rules, lambda g: len(g.round.legal_cards()) == 1 and len(g.round.hand(0)) > 3)
    return game, str(game.round.legal_cards()[0])


@pytest.mark.parametrize("auto", [True, False])
def test_the_only_card_plays_itself_when_asked(browser: Any, server: AppServer, auto: bool) -> None:
    game, only = one_card_game()
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    page.evaluate(
        """(auto) => {
            const prefs = JSON.parse(localStorage.getItem('hearts.prefs.v1') || '{}');
            prefs.autoPlay = auto;
            localStorage.setItem('hearts.prefs.v1', JSON.stringify(prefs));
        }""",
        auto,
    )
    store_for(page, server, f"only-card-{auto}", game)
    if not auto:
        page.clock.install()  # the page's timers run when the test says
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.click(f"[data-action=continue][data-game='only-card-{auto}']")
    if auto:
        page.wait_for_function(
            f"() => !document.querySelector(\"[data-region=hand] [data-card='{only}']\")"
        )
    else:
        wait_for_person(page)
        page.clock.run_for(10_000)  # far past the moment the card would play itself
        assert only in hand(page)
    assert not page.errors


@pytest.mark.parametrize("last", [True, False], ids=["person-plays-last", "others-play-last"])
def test_tap_to_continue_holds_each_finished_trick(
    browser: Any, server: AppServer, last: bool
) -> None:
    rules = hearts.Rules(pass_cycle=("hold",))
    # The person's card ends the trick, or a computer player's does: either way the ring of
    # "to play" leaves every seat while the full trick waits (it stayed on the person).
    game = find_game(rules, lambda g: (len(g.round.trick) == rules.players - 1) == last)
    page = open_page(browser, server, DESKTOP, speed="fast")
    start_game(page)  # the browser's cookie
    store_for(page, server, f"tap-{last}", game)
    page.evaluate(
        """() => {
            const prefs = JSON.parse(localStorage.getItem('hearts.prefs.v1') || '{}');
            prefs.tapToContinue = true;
            localStorage.setItem('hearts.prefs.v1', JSON.stringify(prefs));
        }"""
    )
    open_stored(page, server, f"tap-{last}", query="speed=fast")
    play_one(page)
    page.wait_for_selector("[data-action=continue-trick]")
    page.wait_for_timeout(1500)  # longer than any pause: the trick waits for the person
    assert page.query_selector(".slot.winner") is not None
    assert page.query_selector("[data-action=continue-trick]") is not None
    # A full trick: nobody is "to play" until its winner leads (the next seat was ringed).
    assert page.locator("#game .seat.turn").count() == 0
    page.click("[data-action=continue-trick]")
    page.wait_for_function("() => !document.querySelector('.slot.winner')")
    assert not page.errors


def test_a_round_with_nothing_left_to_decide_finishes_at_once(
    browser: Any, server: AppServer
) -> None:
    rules = hearts.Rules(pass_cycle=("hold",))
    game = find_game(
        rules, lambda g: len(g.round.tricks) <= 10 and settled_points(g.round) is not None
    )
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    store_for(page, server, "settled-round", game)
    open_stored(page, server, "settled-round")
    record_log(page)
    play_one(page)
    assert wait_for_person(page) in ("round-over", "game-over")
    lines = page.evaluate("window.said")
    said = " ".join(lines)
    assert "No point can change hands now" in said
    # From then on the cards are not read out one by one (two dozen lines ran into the
    # round's end for a screen reader).
    after = lines[next(i for i, line in enumerate(lines) if "No point can change" in line) :]
    assert not [line for line in after if " played the " in line or " the trick" in line], after
    # Said on the round's panel too: the line over the table lies under it.
    assert "the last cards played themselves" in page.inner_text("[data-region=played-itself]")
    assert not page.errors


def test_the_trick_on_the_table_when_the_round_is_decided_is_seen_to_its_end(
    browser: Any, server: AppServer
) -> None:
    # The trick the person's card was played into, once nothing could change, was swept off
    # 3 ms after its last card: nobody saw who took it. It stays the usual pause; the tricks
    # after it play themselves at once.
    rules = hearts.Rules(pass_cycle=("hold",))
    game = find_game(
        rules,
        lambda g: (
            1 <= len(g.round.trick) < rules.players - 1
            and len(g.round.tricks) <= rules.tricks_per_round - 4
            and settled_points(g.round) is not None
        ),
    )
    page = open_page(browser, server, DESKTOP, speed="normal")
    start_game(page)
    store_for(page, server, "decided-mid-trick", game)
    open_stored(page, server, "decided-mid-trick", "speed=normal")
    page.evaluate(
        """() => { window.seen = []; const t0 = performance.now();
        new MutationObserver(() => {
            const cards = document.querySelectorAll('[data-played]').length;
            const decided = document.querySelector('[data-region=message]').textContent
                .startsWith('No point can change hands now');
            const last = window.seen[window.seen.length - 1];
            if (!last || last[1] !== cards || last[2] !== decided)
                window.seen.push([performance.now() - t0, cards, decided]);
        }).observe(document.body, { subtree: true, childList: true, attributes: true }); }"""
    )
    play_one(page)
    assert wait_for_person(page) in ("round-over", "game-over")
    seen = page.evaluate("window.seen")
    start = next(i for i, (_, _, decided) in enumerate(seen) if decided)
    full = next(i for i in range(start, len(seen)) if seen[i][1] == rules.players)
    swept = next(i for i in range(full, len(seen)) if seen[i][1] < rules.players)
    pause = 1200  # prefs.js, SPEEDS.normal
    assert seen[swept][0] - seen[full][0] >= pause * 0.8, seen[start:]
    assert not page.errors


def test_a_round_played_to_its_last_card_is_not_said_to_have_played_itself(
    browser: Any, server: AppServer
) -> None:
    # The last card is always played by the server (nothing left to choose): the panel's
    # note belongs to rounds that ended with choices still in hand.
    rules = hearts.Rules(pass_cycle=("hold",))
    game = find_game(rules, lambda g: len(g.round.tricks) == 11 and settled_points(g.round) is None)
    page = open_page(browser, server, DESKTOP)
    start_game(page)
    store_for(page, server, "last-card", game)
    open_stored(page, server, "last-card")
    play_one(page)
    assert wait_for_person(page) in ("round-over", "game-over")
    assert page.locator("[data-region=played-itself]").count() == 0
    assert not page.errors


def test_the_last_trick_is_said_over_the_table_until_the_next(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, PHONE, speed="fast")
    start_game(page)
    while wait_for_person(page) == "passing":
        pass_three(page)
    play_one(page)
    # After the first trick the line over the table says who took it and what it carried.
    page.wait_for_function(
        "() => document.querySelector('[data-region=message]').textContent"
        ".includes('took the previous trick')"
    )
    # Each trick, as it leaves the table, is said at once (the line waited for the person's
    # turn, a trick behind while the computer players led on): what it carried is what the
    # cards just cleared carried.
    page.evaluate(
        """() => {
            window.cleared = [];
            let seen = [];
            const message = document.querySelector('[data-region=message]');
            new MutationObserver((records) => {
                const now = [...document.querySelectorAll('#game [data-played]')]
                    .map((e) => e.dataset.played);
                // A card gone from the table: the trick was taken (the next may have begun
                // in the same moment), and the line was set with it.
                if (seen.length && !seen.every((card) => now.includes(card))) {
                    const set = records.some((r) => r.target === message);
                    window.cleared.push([seen, message.textContent, set]);
                }
                seen = now;
            }).observe(document.querySelector('#game'), { childList: true, subtree: true });
        }"""
    )
    for _ in range(2):
        play_one(page)
        wait_for_person(page)
    cleared = page.evaluate("window.cleared")
    assert len(cleared) >= 2
    for cards, said, set_with_it in cleared:
        assert set_with_it, (cards, said)
        hearts_on = sum(card.endswith("H") for card in cards)
        if hearts_on:
            assert f"{hearts_on} heart" in said, (cards, said)
        elif "QS" not in cards:
            assert said.endswith("took the previous trick, nothing that scores."), (cards, said)
    line = page.inner_text("[data-region=message]")
    # The same as the tricks list says of the newest trick.
    page.click("[data-action=tricks]")
    newest = page.inner_text("#dialog .trick-row .trick-outcome").strip()
    assert line == newest.replace(" took it", " took the previous trick", 1)
    assert not page.errors


def test_pages_follow_the_system_theme_and_keep_a_choice(browser: Any, server: AppServer) -> None:
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    page = context.new_page()
    page.goto(f"{server.url}/rules")
    background = "() => getComputedStyle(document.body).backgroundColor"
    dark = page.evaluate(background)
    assert sum(int(part) for part in dark[4:-1].split(",")) < 200, dark
    assert "Words players use" in page.inner_text("main")
    assert "11 rounds on average" in page.inner_text("[data-region=rounds-measured]")
    page.click(".theme-choice input[value=light] + span")
    light = page.evaluate(background)
    assert sum(int(part) for part in light[4:-1].split(",")) > 600, light
    page.goto(f"{server.url}/")
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate(background) == light
    assert page.is_checked(".theme-choice input[value=light]")
    context.close()


def test_a_speed_in_the_address_lasts_the_visit_only(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP, speed="instant")
    saved = "() => JSON.parse(localStorage.getItem('hearts.prefs.v1') || '{}').speed"
    page.click("[data-players='5']")  # a choice on the start screen saves the choices
    assert page.evaluate(saved) in (None, "normal")  # not the visit's "instant"
    # The person's own speed (chosen in Settings) is kept through such a visit.
    page.evaluate(
        """() => {
            const prefs = JSON.parse(localStorage.getItem('hearts.prefs.v1') || '{}');
            prefs.speed = 'fast';
            localStorage.setItem('hearts.prefs.v1', JSON.stringify(prefs));
        }"""
    )
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.click("[data-players='4']")
    assert page.evaluate(saved) == "fast"
    assert not page.errors


def test_a_touch_screen_shows_no_keyboard_ring_where_the_page_put_the_focus(
    browser: Any, server: AppServer
) -> None:
    # After a reload the page focuses the first playable card itself; a phone player saw its
    # ring, then a thick frame round the hand after each card. A key brings rings back.
    page = open_page(browser, server, PHONE, touch=True)
    start_game(page)
    while wait_for_person(page) == "passing":
        pass_three(page)
    page.reload()
    page.wait_for_selector(f"{TABLE}[data-phase=playing] [data-card]")
    ring = "() => getComputedStyle(document.activeElement).outlineStyle"
    wait_for_person(page)
    assert page.evaluate("() => document.activeElement.matches('.card')")
    assert page.evaluate(ring) == "none"
    card = page.get_attribute("[data-card][data-legal=true]", "data-card")
    page.tap(f"[data-card='{card}'][data-legal=true]")
    wait_for_person(page)
    assert page.evaluate(ring) == "none"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(ring) == "solid"
    page.context.close()


def test_a_new_game_says_which_game_it_closes_when_the_browser_keeps_no_more(
    browser: Any, server: AppServer
) -> None:
    # The browser keeps a few unfinished games of its own; a new game past them closed the
    # one untouched longest while the dialog said "It stays saved".
    page = open_page(browser, server, PHONE)
    start_game(page)
    oldest = page.get_attribute(TABLE, "data-game")
    keep = Settings.from_env(data_dir=server.data_dir).unfinished_per_browser
    for n in range(keep - 1):
        store_for(page, server, f"kept-{n}", hearts.Game(hearts.Rules(), n))
    page.click("[data-action=menu-new]")
    page.wait_for_selector(f".unfinished li:nth-child({keep})")
    marked = page.eval_on_selector_all(
        ".unfinished li", "items => items.map((li) => li.querySelector('[data-closes]') !== null)"
    )
    assert marked == [False] * (keep - 1) + [True], marked
    line = page.inner_text(f".unfinished li:has([data-game='{oldest}'])")
    assert "A new game against the computer closes this one." in line
    # A table for friends closes nothing: its open seats are for others.
    friends = ["you", "friend", *["easy"] * (hearts.Rules().players - 2)]
    made = page.evaluate(
        "async (seats) => (await fetch('/api/games', {method: 'POST', headers:"
        " {'Content-Type': 'application/json'}, body: JSON.stringify({seats})})).status",
        friends,
    )
    assert made == 201
    assert page.evaluate(f"async () => (await fetch('/api/games/{oldest}')).status") == 200
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    # ... and hid the oldest game of the browser's own: the list held five lines of any kind.
    page.wait_for_selector(f".unfinished li:has([data-game='{oldest}']) [data-closes]")
    assert page.locator(".unfinished li").count() == keep + 1
    page.click("[data-action=new-game]")
    page.wait_for_selector("dialog[open] [data-action=confirm-new]")
    said = plain(page.inner_text("dialog [data-region=closes]"))
    assert said.startswith("A new game closes your game to 100 in round 1, last played today at")
    assert "stays saved" in page.inner_text("dialog")  # the game offered is not the one closed
    shoot(page, "phone-new-game-closes")
    page.click("[data-action=confirm-new]")
    page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]")
    gone = page.evaluate(f"async () => (await fetch('/api/games/{oldest}')).status")
    assert gone == 404
    page.click("[data-action=menu-new]")
    page.wait_for_selector(f".unfinished li:nth-child({keep})")
    listed = page.eval_on_selector_all(
        ".unfinished [data-action=continue]", "b => b.map((x) => x.dataset.game)"
    )
    assert oldest not in listed and len(listed) == keep + 1  # the table for friends too
    assert not page.errors


def test_the_side_pages_offer_one_way_back_in_their_header(browser: Any, server: AppServer) -> None:
    # The heart and the menu's link both went back to the game, both named "Back to the
    # game": a screen reader heard two links in a row, and Tab stopped twice. The heart is
    # a picture now; the link is the way. With no game to go back to, "Back to the game"
    # led to the start screen: it says "Play a game" then.
    page = open_page(browser, server, DESKTOP)
    paths = ("/rules", "/stats", "/replay", "/no-such-page")

    def ways_back(path: str, leads_to: str) -> list[str]:
        page.goto(f"{server.url}{path}")
        page.wait_for_selector(f"header .menu a[data-leads-to={leads_to}]", state="attached")
        ways: list[str] = page.eval_on_selector_all(
            "header a",
            """links => links.filter((a) => a.tabIndex >= 0 && !a.closest('[aria-hidden=true]'))
                .map((a) => a.getAttribute('aria-label') || a.textContent.trim())""",
        )
        return ways

    for path in paths:
        ways = ways_back(path, "start")
        assert ways.count("Play a game") == 1 and "Back to the game" not in ways, (path, ways)
    page.goto(f"{server.url}/rules")
    page.click("header .menu a[data-leads-to=start]")
    page.wait_for_selector("body[data-ready=true][data-screen=setup]")
    start_game(page)
    for path in paths:
        ways = ways_back(path, "game")
        assert ways.count("Back to the game") == 1 and "Play a game" not in ways, (path, ways)
    page.click("header .menu a[data-leads-to=game]")
    page.wait_for_selector(f"{TABLE} [data-card]")
    assert not page.errors


def test_the_rules_table_of_sizes_fits_a_small_phone(browser: Any, server: AppServer) -> None:
    # At 320 px the table of every size scrolled sideways by 27 px behind a faint shade, its
    # "Kitty instead" column cut at the edge, the cards left out one a line down the page.
    page = open_page(browser, server, {"width": 320, "height": 568})
    page.goto(f"{server.url}/rules")
    for width in (320, 360, 390):
        resize(page, {"width": width, "height": 700})
        laid_out = page.evaluate(
            """() => { const table = document.querySelector('[data-region=table-sizes]');
                const out = [...table.querySelectorAll('tbody tr')].map((row) => {
                    const cell = row.children[3];
                    const range = document.createRange();
                    range.selectNodeContents(cell);
                    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 1)
                        .map((r) => Math.round(r.bottom))).size;
                    return [cell.textContent.trim().split(/\\s+/).length, lines]; });
                return { over: table.scrollWidth - table.clientWidth, out }; }"""
        )
        assert laid_out["over"] <= 0, (width, laid_out)
        for cards, lines in laid_out["out"]:
            assert lines <= max(1, (cards + 1) // 2), (width, laid_out["out"])
    assert not page.errors


# --- drawing the table: a move draws again only what it changed ---------------------------

KEEP_SEATS = """() => { window.kept = [...document.querySelectorAll('#game .seat.opponent')]
    .map((seat) => ({ seat, name: seat.querySelector('.name'), first: seat.querySelector(
        '.fan .card-back'), last: seat.querySelector('.fan .card-back:last-child'),
        count: Number(seat.querySelector('.count').textContent) })); }"""
SEATS_NOW = """() => window.kept.map((k) => ({
    kept: k.seat.isConnected && k.name.isConnected && k.first.isConnected,
    lastKept: k.last.isConnected,
    was: k.count, now: Number(k.seat.querySelector('.count').textContent),
    backs: k.seat.querySelectorAll('.fan .card-back').length,
    label: k.seat.querySelector('.held').getAttribute('aria-label') }))"""


def test_a_move_leaves_what_it_did_not_change_on_each_seat(browser: Any, server: AppServer) -> None:
    # Every move drew every seat again from nothing (face, words, a fan of up to 26 card
    # backs, at up to nine seats), twice: on a slow phone a round had 50 to 66 long tasks.
    # Now the name and the fan stay; a seat that played loses one card back, the others none.
    page = open_page(browser, server, PHONE)
    start_game(page)
    pass_three(page)
    played = 0
    for _ in range(4):
        assert wait_for_person(page) == "playing"
        page.evaluate(KEEP_SEATS)
        play_one(page)
        assert wait_for_person(page) == "playing"
        seats = page.evaluate(SEATS_NOW)
        assert len(seats) == 3
        for seat in seats:
            assert seat["kept"], seats
            # Between two of the person's turns an opponent plays up to two cards (after the
            # person, then leading the next trick), or none.
            assert seat["was"] - 2 <= seat["now"] <= seat["was"] and seat["now"] == seat["backs"]
            assert seat["label"] == f"{seat['now']} cards in hand", seats
            assert seat["lastKept"] == (seat["now"] == seat["was"]), seats
            played += seat["now"] < seat["was"]
    assert played >= 3
    assert not page.errors


# Each card's button in the hand, by key, and every transition a card of the hand starts.
KEEP_HAND = """() => {
    const hand = document.querySelector('[data-region=hand]');
    window.held = new Map([...hand.querySelectorAll('[data-card]')].map((e) => [e.dataset.key, e]));
    window.slid = [];
    if (!window.watching) {
        window.watching = true;
        hand.addEventListener('transitionrun', (event) => {
            if (event.target.matches('.card')) window.slid.push(event.propertyName);
        });
    }
}"""
# The keys still held whose button is another than before, and whether the played one is gone.
HAND_NOW = """(played) => ({
    swapped: [...document.querySelectorAll('[data-region=hand] [data-card]')]
        .filter((e) => window.held.has(e.dataset.key) && window.held.get(e.dataset.key) !== e)
        .map((e) => e.dataset.key),
    playedGone: played === null || !window.held.get(played).isConnected,
    focusKept: document.activeElement === window.held.get(document.activeElement.dataset.key),
    slid: window.slid,
})"""


def test_a_move_keeps_the_buttons_of_the_cards_still_held_and_none_slides(
    browser: Any, server: AppServer
) -> None:
    # Every move built every button of the hand again: on a slow phone most of a tap's time
    # before its card was on the table. Now a card still held keeps its button (and the
    # keyboard's focus stays on it), and the cards take their new places at once, as new
    # buttons did: none slides along nor rises, though a card under the pointer still does.
    page = open_page(browser, server, PHONE)
    start_game(page)
    page.evaluate(KEEP_HAND)
    first = hand(page)[0]
    page.focus(f"[data-region=hand] [data-key='{first}']")
    for _ in range(3):  # chosen by keyboard: no pointer over a card to raise it
        page.keyboard.press("Enter")
        now = page.evaluate(HAND_NOW, None)
        assert now["swapped"] == [] and now["focusKept"], now
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.key") == hand(page)[3]
    page.focus("[data-action=pass]")
    page.keyboard.press("Enter")
    assert wait_for_person(page) == "playing"
    assert page.evaluate(HAND_NOW, None)["swapped"] == []  # those passed in are new
    for _ in range(3):
        page.evaluate(KEEP_HAND)
        played = page.get_attribute("[data-card][data-legal=true]", "data-key")
        page.focus(f"[data-region=hand] [data-key='{played}']")
        page.keyboard.press("Enter")
        assert wait_for_person(page) == "playing"
        now = page.evaluate(HAND_NOW, played)
        assert now["swapped"] == [] and now["playedGone"], now
        # The others closed up, and the cards playable on the next turn rose, at once.
        assert now["slid"] == [], now
    # Transitions are only held back for the drawing: a card pointed at rises smoothly.
    page.wait_for_function("() => !document.querySelector('[data-region=hand]').dataset.still")
    page.hover("[data-region=hand] [data-card][data-legal=true]")
    page.wait_for_function("() => window.slid.includes('transform')")
    assert not page.errors
