"""A hand in two rows, as a demanding player saw it: the rows broke at a count, a suit's
last cards ending the first row and its next beginning the second; a raised card of the
second row covered the index at the foot of the card above it; and the "new" badge of a card
passed in lost part of its W on the smallest phone. Each test measures the boxes the page
draws. Screenshots go to HEARTS_SCREENSHOT_DIR when it is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_table_play import open_stored
from test_web_game_browser import open_page, start_game

import hearts
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS

from browser_support import AppServer, screens, shoot, store_for

pytestmark = pytest.mark.browser

SIZES = screens("smallest-phone", "short-phone", "phone", "tablet", "desktop")

#: Each hand drawn beside the table by the page's own hand (hand.js) at the table hand's
#: width, in `mode`: the cards of each row, how far apart its cards lie, the least of each a
#: row may show (--least-shown, or a tap's 44 px), and each card passed in (all are, with
#: `received`): whether its "new" badge shows its word whole, and whether the badge stays
#: within the strip the next card of its row leaves in sight.
DRAWN = """async ({ hands, mode, received }) => {
    const { Hand } = await import('/game/js/hand.js');
    const box = document.createElement('div');
    box.className = 'hand';
    box.style.width = document.querySelector('[data-region=hand]').clientWidth + 'px';
    document.querySelector('#game').append(box);
    const hand = new Hand(box, { onCard() {} });
    const style = getComputedStyle(box);
    const least = parseFloat(style.getPropertyValue('--least-shown')) || 44;
    const cardWidth = parseFloat(style.getPropertyValue('--card-w'));
    const found = hands.map((cards) => {
        hand.render({ cards, mode, received: received ? cards : [] });
        const buttons = [...box.querySelectorAll('[data-card]')];
        const tops = [...new Set(buttons.map((e) => e.offsetTop))].sort((a, b) => a - b);
        const rows = tops.map((top) => buttons.filter((e) => e.offsetTop === top));
        const badges = buttons.map((card) => {
            const after = getComputedStyle(card, '::after');
            // The word at the badge's own font, letter spacing and padding, laid out whole.
            const probe = document.createElement('span');
            for (const name of ['font', 'letterSpacing', 'padding', 'textTransform',
                'whiteSpace', 'boxSizing']) probe.style[name] = after[name];
            probe.style.position = 'absolute';
            probe.textContent = after.content.replaceAll('"', '');
            document.body.append(probe);
            const needs = probe.getBoundingClientRect().width;
            probe.remove();
            const r = card.getBoundingClientRect();
            const right = r.left + parseFloat(after.left) + parseFloat(after.width);
            const next = buttons.find((e) => e.offsetTop === card.offsetTop
                && e.offsetLeft > card.offsetLeft);
            return { card: card.dataset.key, word: after.content, font: after.fontSize,
                     needs, width: parseFloat(after.width),
                     inStrip: !next || right <= next.getBoundingClientRect().left + 0.5 };
        });
        return {
            rows: rows.map((row) => row.map((e) => e.dataset.card)),
            steps: rows.map((row) => row.length > 1 ? row[1].offsetLeft - row[0].offsetLeft : null),
            badges,
        };
    });
    box.remove();
    return { least, width: parseFloat(box.style.width), cardWidth, found };
}"""


def hands_of(players: int, seeds: range) -> list[list[str]]:
    """Every seat's dealt hand in the games of `players` with these seeds."""
    rules = hearts.Rules(players=players)
    return [
        [str(card) for card in hearts.Game(rules, seed).view(seat).hand]
        for seed in seeds
        for seat in range(players)
    ]


def table_at(browser: Any, server: AppServer, size: str) -> Any:
    """A page at the screen `size` (of SIZES) with a game dealt: the table that hands are
    drawn beside, and the browser's cookie that stored games are kept for."""
    page = open_page(browser, server, SIZES[size])
    start_game(page)
    return page


def every_tables_hands(
    page: Any, seeds: int, modes: tuple[str, ...], received: bool
) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """For each table size and each of `modes`: the players, the mode, and what `DRAWN` finds
    of every seat's hand dealt in the first `seeds` games (each card passed in, `received`)."""
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        hands = hands_of(players, range(seeds))
        for mode in modes:
            yield (
                players,
                mode,
                page.evaluate(DRAWN, {"hands": hands, "mode": mode, "received": received}),
            )


def suit_ends(cards: list[str]) -> list[int]:
    """Where a row could break between two suits: the counts of cards before each change."""
    return [k for k in range(1, len(cards)) if cards[k][1] != cards[k - 1][1]]


@pytest.mark.parametrize("size", ["smallest-phone", "phone", "tablet"])
def test_two_rows_break_at_a_suits_end_near_the_middle(
    browser: Any, server: AppServer, size: str
) -> None:
    # While passing, the rows broke at halves: at four players on a tablet held upright the
    # first row ended with the 5♠ and the second began with the J♠. Now, in every mode, at
    # the change of suit nearest the middle, the longer row a card longer than halves' at
    # most (and that only while every card keeps the least it may show), else at halves.
    page = table_at(browser, server, size)
    failures: list[Any] = []
    broken = moved = 0
    for players, mode, drawn in every_tables_hands(page, 4, ("pass", "play"), received=False):
        room, least = drawn["width"] - drawn["cardWidth"], drawn["least"]
        for found in drawn["found"]:
            rows = found["rows"]
            if len(rows) == 1:
                continue
            broken += 1
            cards = rows[0] + rows[1]
            n, cut = len(cards), len(rows[0])
            half = -(-n // 2)
            # A card more than halves' in a row, where that row keeps `least` of each.
            longest = half + 1 if room / half >= least else half
            near = [k for k in suit_ends(cards) if max(k, n - k) <= longest]
            best = min((abs(k - n / 2) for k in near), default=None)
            if max(cut, n - cut) > longest:
                failures.append((players, mode, "too long a row", rows))
            elif best is None and cut != half:
                failures.append((players, mode, "not halves, with no suit's end near", rows))
            elif best is not None and cut not in near:
                failures.append((players, mode, "a suit split", rows))
            elif best is not None and abs(cut - n / 2) > best:
                failures.append((players, mode, "not the nearest suit's end", rows))
            moved += cut != half
    assert broken, "no hand took two rows"
    assert failures == [], failures
    assert moved, "every hand broke at halves"
    assert not page.errors


def after_a_pass(players: int) -> hearts.Game:
    """The first round of `players` after a pass to the left, at the person's first card."""
    rules = hearts.Rules(players=players, pass_cycle=("left",))
    game = hearts.Game(rules, 7)
    for seat in range(players):
        game.apply(hearts.Pass(seat, game.view(seat).hand[-rules.pass_count :]))
    while game.round.turn != 0:  # the others play up to the person's first card
        game.apply(hearts.Play(game.round.turn, game.view(game.round.turn).legal[0]))
    return game


def passing(players: int) -> hearts.Game:
    return hearts.Game(hearts.Rules(players=players, pass_cycle=("left",)), 7)


#: Each index (rank and suit, .corner) of a card of the hand's first row that no other card of
#: that row covers, and every card of the second row whose box lies over it: [index's card,
#: which index (0 the top left, 1 the foot's), the covering card, px of the index covered].
FIRST_ROW_INDICES = """() => {
    const box = (r) => [r.left, r.top, r.right, r.bottom];
    const meet = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0.5
        && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0.5;
    const cards = [...document.querySelectorAll('#hand .card')];
    const tops = [...new Set(cards.map((e) => e.offsetTop))].sort((a, b) => a - b);
    const [first, second] = tops.map((top) => cards.filter((e) => e.offsetTop === top));
    const found = [];
    first.forEach((card, i) => {
        card.querySelectorAll('.corner').forEach((corner, which) => {
            const index = box(corner.getBoundingClientRect());
            // Under the next cards of its row anyway (an overlapped fan shows its left edge).
            if (first.slice(i + 1).some((e) => meet(index, box(e.getBoundingClientRect())))) return;
            for (const over of second) {
                const r = over.getBoundingClientRect();
                if (meet(index, box(r))) {
                    found.push([card.dataset.key, which, over.dataset.key,
                                Math.round(index[3] - r.top)]);
                }
            }
        });
    });
    return { rows: tops.length, found,
             second: second.map((e) => e.getBoundingClientRect().top) };
}"""

#: Every card of the second row raised as a chosen card is (or not: `up` false), at once.
RAISE = """(up) => {
    const hand = document.querySelector('#hand');
    hand.dataset.still = 'true';  // no slide: the boxes as they end
    const cards = [...hand.querySelectorAll('.card')];
    const last = Math.max(...cards.map((e) => e.offsetTop));
    for (const card of cards) if (card.offsetTop === last) card.classList.toggle('selected', up);
}"""


@pytest.mark.parametrize(
    ("size", "players"),
    [
        ("tablet", 4),
        ("tablet", 6),
        ("tablet", 9),
        ("phone", 4),
        ("phone", 10),
        ("short-phone", 10),
    ],
)
def test_a_raised_card_of_the_second_row_hides_no_index_of_the_first(
    browser: Any, server: AppServer, size: str, players: int
) -> None:
    # A card of the second row chosen for the pass (or playable, or under a pointer) rose
    # over the foot of the card above it, hiding 12 px of its index on a tablet held upright.
    # The rows lie apart by as much as a card rises. (On the shortest phones the rows overlap
    # to fit the screen: the first row's foot lies under the second at rest, by design, and
    # what this test holds to is the top left index, which the first row always shows.)
    page = table_at(browser, server, size)
    store_for(page, server, f"raise-{size}-{players}", passing(players))
    open_stored(page, server, f"raise-{size}-{players}")
    overlap = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#hand'))"
        ".getPropertyValue('--row-overlap')) || 0"
    )
    tops = {}
    for up in (False, True):
        page.evaluate(RAISE, up)
        found = page.evaluate(FIRST_ROW_INDICES)
        assert found["rows"] == 2, found
        covered = [hit for hit in found["found"] if overlap == 0 or hit[1] == 0]
        assert covered == [], (up, found)
        tops[up] = found["second"]
    # Raised, each card of the second row stands clearly above where it lay.
    assert all(up < down - 5 for up, down in zip(tops[True], tops[False], strict=True)), tops
    shoot(page, f"hand-rows-raised-{size}-{players}")
    assert not page.errors


@pytest.mark.parametrize("size", list(SIZES))
def test_the_new_badge_is_whole_in_both_rows_at_every_table_size(
    browser: Any, server: AppServer, size: str
) -> None:
    # Six players on a 320 px phone: 17 cards, 32 px of each in sight in the second row, and
    # the badge's letters no smaller than 8 px: its W was cut. Every card of every table's
    # hand marked as passed in, at each size: each badge shows "NEW" whole, in its strip.
    page = table_at(browser, server, size)
    failures: list[Any] = []
    for players, _, drawn in every_tables_hands(page, 2, ("play",), received=True):
        for found in drawn["found"]:
            for badge in found["badges"]:
                whole = badge["needs"] <= badge["width"] + 0.5
                if badge["word"] != '"new"' or not whole or not badge["inStrip"]:
                    failures.append((players, found["steps"], badge))
    assert failures == [], failures[:6]
    assert not page.errors


def test_the_new_badge_is_whole_on_the_smallest_phone_at_six_players(
    browser: Any, server: AppServer
) -> None:
    # The table itself, after a pass: the badges of the cards passed in, in either row.
    page = table_at(browser, server, "smallest-phone")
    store_for(page, server, "badge-320-6", after_a_pass(6))
    open_stored(page, server, "badge-320-6")
    found = page.evaluate(
        """() => [...document.querySelectorAll('#hand .card.received')].map((card) => {
            const after = getComputedStyle(card, '::after');
            const probe = document.createElement('span');
            for (const name of ['font', 'letterSpacing', 'padding', 'textTransform'])
                probe.style[name] = after[name];
            probe.style.position = 'absolute';
            probe.textContent = 'new';
            document.body.append(probe);
            const needs = probe.getBoundingClientRect().width;
            probe.remove();
            return [card.dataset.key, card.offsetTop, needs, parseFloat(after.width)];
        })"""
    )
    assert len(found) == 3, found
    assert [card for card in found if card[2] > card[3] + 0.5] == [], found
    shoot(page, "new-badge-6-smallest-phone")
    assert not page.errors
