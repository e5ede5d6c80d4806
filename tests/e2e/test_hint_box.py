"""The coach's hint box on a phone, as a reviewer found it: held sideways (844 x 390, 740 x
360, 667 x 375) the hint lay in the 44 px top bar over "Round 1 · Pass left", two lines and
the third cut through its letters, with nothing to say there was more; held upright (390 x
844) it grew the page past the screen (859 px after a pass, "Marked: passed to you by
Tamsin" over the hand), the Hint, Undo and Sound row clipped at the foot. Each test asks for
a hint (its words as long as the coach's longest, put in the server's answer) while passing
and on the person's turn after a pass, at four and ten players, and measures what the page
draws. Screenshots go to HEARTS_SCREENSHOT_DIR when it is set."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_crowded_table import large_text, overlap
from test_table_play import open_stored
from test_web_game_browser import open_page, start_game

import hearts
from hearts import Pass

from browser_support import SCREENS, AppServer, settle, shoot, store_for

pytestmark = pytest.mark.browser

#: As long as the coach's longest (a card that plays alike with others, the moon weighed, and
#: a fact worth knowing).
LONG_HINT = (
    "Take the trick with your K♣ or A♣ (they play alike): 0.9 points better than the 5♣, the "
    "next best, over 250 possible deals; that is going for the moon with it, 0.4 points better "
    "than playing it without (could be chance), so keep the moon in mind. Worth knowing: you "
    "hold the Q♠ with 4 other spades."
)


def game_at(players: int, phase: str) -> hearts.Game:
    """A game of `players` passing left, at the person's pass, or after every pass at the
    person's first card (the cards passed to them marked, "Unmark" beside the note)."""
    game = hearts.Game(hearts.Rules(players=players, pass_cycle=("left",)), 3)
    if phase == "passing":
        return game
    while game.phase == "passing":
        seat = game.to_act[0]
        view = game.view(seat)
        game.apply(Pass(seat, view.hand[: view.cards_to_pass]))
    while game.round.turn != 0:
        game.play(game.round.legal_cards()[0])
    return game


def long_hint(route: Any) -> None:
    """The server's hint, its reason as long as the longest."""
    answer = route.fetch()
    body = answer.json()
    body["reason"] = LONG_HINT
    route.fulfill(response=answer, body=json.dumps(body))


def hint_shown(browser: Any, server: AppServer, screen: str, players: int, phase: str) -> Any:
    page = open_page(browser, server, SCREENS[screen])
    # The shade at the foot of a box with more to read shows with reduced motion too.
    page.emulate_media(reduced_motion="reduce")
    start_game(page)  # the browser's cookie
    name = f"hint-box-{screen}-{players}-{phase}"
    store_for(page, server, name, game_at(players, phase))
    open_stored(page, server, name)
    if phase == "playing":
        # "Marked: passed to you by …" (shown upright), and Unmark.
        assert page.query_selector(".received-note") and page.is_visible("[data-action=dismiss]")
    page.route("**/api/games/*/hint", long_hint)
    page.click("[data-action=hint]")
    page.wait_for_selector("[data-region=hint]:not([hidden])")
    page.wait_for_function("document.querySelectorAll('#hand [data-hinted=true]').length > 0")
    settle(page)
    settle(page)
    return page


#: The hint's box and its words; the boxes it must leave in sight; how far the page scrolls.
MEASURE = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const all = (sel) => [...document.querySelectorAll(sel)]
        .filter((el) => el.getClientRects().length).map((el) => [sel, box(el)]);
    const hint = document.querySelector('[data-region=hint]');
    const style = getComputedStyle(hint);
    const scrolls = hint.scrollHeight > hint.clientHeight + 1;
    const shaded = style.maskImage !== 'none';
    // Its last line comes into sight when it is scrolled to its end.
    const reachable = !scrolls || (['auto', 'scroll'].includes(style.overflowY)
        && (hint.scrollTop = hint.scrollHeight,
            hint.scrollTop + hint.clientHeight >= hint.scrollHeight - 1));
    hint.scrollTop = 0;
    // The round's line in the top bar: drawn, and what a look at its middle finds.
    const round = document.querySelector('body > .bar .round');
    const r = round.getBoundingClientRect();
    const roundSeen = r.width > 0 && r.height > 0
        && round.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    return {
        hint: box(hint), lines: hint.clientHeight / parseFloat(style.lineHeight),
        font: parseFloat(style.fontSize), scrolls, shaded, reachable, roundSeen,
        bar: box(document.querySelector('body > .bar')),
        keep: [...all('#hand .card'), ...all('.trick .played'),
               ...all('.side[data-side=top] .seat.opponent')],
        down: document.documentElement.scrollHeight - innerHeight,
        screen: [innerWidth, innerHeight],
    };
}"""


def covered(a: list[float], b: list[float]) -> float:
    """How much of box `b` box `a` lies over, from 0 to 1."""
    width = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    height = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    return width * height / ((b[2] - b[0]) * (b[3] - b[1]))


def problems(found: dict[str, Any], trick: bool = True) -> list[Any]:
    """What is wrong with the hint's box as measured: each a short reason and its numbers
    (`trick`: over any of a card of the trick is wrong too; else over half of one)."""
    wrong: list[Any] = []
    hint, (width, height) = found["hint"], found["screen"]
    if found["down"] > 0:
        wrong.append(("the page scrolls", found["down"]))
    if hint[0] < -1 or hint[1] < -1 or hint[2] > width + 1 or hint[3] > height + 1:
        wrong.append(("the box runs off the screen", hint))
    if overlap(hint, found["bar"]) or not found["roundSeen"]:
        wrong.append(("over the top bar's round line", hint, found["bar"]))
    under = [
        what
        for what, other in found["keep"]
        if overlap(hint, other) and (trick or what != ".trick .played")
    ]
    if under:
        wrong.append(("over", sorted(set(under))))
    hidden = [
        round(covered(hint, other), 2)
        for what, other in found["keep"]
        if what == ".trick .played" and covered(hint, other) > 0.5
    ]
    if hidden:
        wrong.append(("over most of a card of the trick", hidden))
    # Its words whole, or scrolled to within a box that says there is more.
    if found["scrolls"] and not (found["reachable"] and found["shaded"]):
        wrong.append(("words cut, no way to them or no shade", found))
    if found["shaded"] != found["scrolls"]:
        wrong.append(("a shade over words that are all there", found))
    if found["font"] < 12 or found["lines"] < 1.9:
        wrong.append(("too small to read", found["font"], found["lines"]))
    return wrong


@pytest.mark.parametrize("phase", ["passing", "playing"])
@pytest.mark.parametrize("players", [4, 10])
@pytest.mark.parametrize(
    "screen", ["phone-landscape", "small-phone-landscape", "smaller-phone-landscape"]
)
def test_a_long_hint_is_read_whole_beside_the_trick_held_sideways(
    browser: Any, server: AppServer, screen: str, players: int, phase: str
) -> None:
    # 844 x 390: in the 44 px top bar, over "Round 1 · Pass left", two lines of the hint
    # showed and the third was cut through its letters, nothing saying there was more. It
    # lies beside the trick now, under the table's message: off the bar, the hand, the trick's
    # cards and the seats across, its words whole or scrolled to within it with a shade at its
    # foot, and the page no taller than the screen.
    page = hint_shown(browser, server, screen, players, phase)
    found = page.evaluate(MEASURE)
    shoot(page, f"hint-box-{screen}-{players}-{phase}")
    assert problems(found) == []
    assert found["lines"] >= 3, found  # more than the bar's two
    # With large text the page may be taller than the screen without any hint (it brings
    # the hand into sight): the hint makes it no taller, and keeps two lines at least.
    failures = []
    for size in ("150%", "200%"):
        large_text(page, size)
        settle(page)
        before = page.evaluate(WITHOUT_THE_HINT)
        page.evaluate("window.scrollTo(0, 0)")
        settle(page)
        found = page.evaluate(MEASURE)
        wrong = [
            w
            for w in problems(found)
            if not (w[0] == "the page scrolls" and w[1] <= before)
            and not (w[0] == "the box runs off the screen" and before > 0)
        ]
        if wrong:
            failures.append((size, wrong))
    assert failures == []
    assert not page.errors


#: How far the page scrolls with the hint's box hidden.
WITHOUT_THE_HINT = """() => { const hint = document.querySelector('[data-region=hint]');
    hint.hidden = true; const down = document.documentElement.scrollHeight - innerHeight;
    hint.hidden = false; return down; }"""


#: 390 x 844 passing and playing; 320 x 568 on the person's turn (passing, the hint already
#: floated over the felt there, over no card).
UPRIGHT = [
    (screen, players, phase)
    for screen, phases in (("phone", ("passing", "playing")), ("smallest-phone", ("playing",)))
    for players in (4, 10)
    for phase in phases
]


@pytest.mark.parametrize(("screen", "players", "phase"), UPRIGHT)
def test_a_long_hint_leaves_the_page_on_an_upright_phones_screen(
    browser: Any, server: AppServer, screen: str, players: int, phase: str
) -> None:
    # 390 x 844 after a pass ("Marked: passed to you by Tamsin. Unmark" over the hand): the
    # hint under the person's name made the page 859 px tall, the Hint, Undo and Sound row
    # clipped at its foot (at 320 x 568 it floated over the felt, a long one up over the seats
    # across, and the whole trick). It floats over the felt just above the hand, four lines
    # at most (three at 320 x 568), the rest scrolled to within it with a shade at its foot:
    # the hand, the seats across, the top bar and most of each card of the trick in sight,
    # and the page no taller than the screen.
    page = hint_shown(browser, server, screen, players, phase)
    before = page.evaluate(WITHOUT_THE_HINT)
    page.evaluate("window.scrollTo(0, 0)")
    settle(page)
    found = page.evaluate(MEASURE)
    shoot(page, f"hint-box-{screen}-{players}-{phase}")
    # Over the felt it may cover the foot of the ring (at four players the person's own
    # place, empty on their turn; at ten the corners of the last cards round it), never most
    # of a card (at 320 x 568 it hid the whole trick): a tap puts it away.
    wrong = problems(found, trick=False)
    if before > 0:
        # A table of ten on a 320 x 568 screen is taller than it without any hint while
        # the cards passed are marked (their line over the tools: 21 px under the foot
        # until the first card), and the hint makes it no taller.
        assert before <= 24, before
        wrong = [w for w in wrong if w[0] != "the page scrolls" or w[1] > before]
        assert (screen, players) == ("smallest-phone", 10), before
    assert wrong == []
    assert not page.errors
