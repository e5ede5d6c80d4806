"""The coach in Chromium, on a phone: the deal check after a round, the hint, the history and
the statistics pages. Screenshots go to $HEARTS_SCREENSHOT_DIR as coach-*.png."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_table_play import play_to
from test_web_game_browser import (
    TABLE,
    no_horizontal_scroll,
    open_page,
    start_game,
    wait_for_person,
)

from hearts.cards import parse_card

from browser_support import DESKTOP, HEARD, PHONE, SEEN, AppServer, plain, resize
from browser_support import shoot as keep_screenshot

pytestmark = pytest.mark.browser


APP_OPTIONS = {"review_workers": 1}
"""The coach's reviews are worked out in the background (in a thread)."""


def shoot(page: Any, name: str, full_page: bool = False) -> None:
    keep_screenshot(page, f"coach-{name}", full_page)


def test_check_this_deal_after_a_round(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    start_game(page)
    cards = page.eval_on_selector_all("#hand [data-card]", "els => els.map(e => e.dataset.card)")
    dealt = sorted(cards)
    page.click("[data-action=scores]")
    # Folded under one line: the 64 digits are for the few who check.
    assert not page.is_visible("[data-region=fingerprint] code")
    page.click("[data-region=fingerprint] summary")
    fingerprint = page.inner_text("[data-region=fingerprint] code")
    assert len(fingerprint) == 64
    page.keyboard.press("Escape")
    play_to(page, {"round-over", "game-over"})
    link = page.wait_for_selector("[data-action=check-deal]")
    shoot(page, "phone-check-deal-link")
    href = link.get_attribute("href")
    assert href.startswith("/rules?") and href.endswith("#check-a-deal")
    rules = page.context.new_page()
    rules.goto(server.url + href)
    rules.wait_for_selector("[data-region=deal-verdict][data-matches]")
    code = rules.inner_text("[data-region=deal-code]")
    key = code.split('seed="')[1].split('"')[0]
    assert hashlib.sha256(key.encode()).hexdigest() == fingerprint
    assert f'== "{fingerprint}"' in code and "hand_number=0).hand(0)" in code
    assert rules.get_attribute("[data-region=deal-verdict]", "data-matches") == "true"
    facts = " ".join(rules.inner_text("[data-region=deal-facts]").split())
    # The hand in card symbols, in the order the Python line prints it.
    in_order = [parse_card(card).symbol for card in sorted(dealt, key=lambda c: parse_card(c).face)]
    assert facts.split("You were dealt ")[1].split(".")[0].split() == in_order
    # The two lines, run as printed: True, and the hand this browser was dealt.
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    verdict, printed = ran.stdout.split(" ", 1)
    assert verdict == "True"
    assert printed.split() == in_order
    rules.eval_on_selector("#check-a-deal", "el => el.scrollIntoView()")
    shoot(rules, "phone-check-deal")
    assert not page.errors


LANDSCAPE = {"width": 844, "height": 390}
#: The hint for a game as the API answers it to this page (POST, as the Hint button asks).
ASK_HINT = """async (id) => (await (await fetch(`/api/games/${id}/hint`, {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{}'})).json())"""


def hinted(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "#hand [data-hinted=true]", "els => els.map(e => e.dataset.card)"
    )
    return cards


def hand_in_view(page: Any) -> None:
    """Every card of the hand whole on the screen, with the hint shown."""
    outside = page.evaluate(
        """() => [...document.querySelectorAll('#hand [data-card]')].filter((card) => {
            const box = card.getBoundingClientRect();
            return box.top < 0 || box.left < 0 || box.bottom > innerHeight + 0.5
                || box.right > innerWidth + 0.5;
        }).map((card) => card.dataset.card)"""
    )
    assert outside == []


def ask_hint(page: Any) -> str:
    page.click("[data-action=hint]")
    page.wait_for_selector("[data-region=hint]:not([hidden])")
    page.wait_for_function("document.querySelectorAll('#hand [data-hinted=true]').length > 0")
    text: str = page.eval_on_selector("[data-region=hint]", SEEN)
    # Its cards are said in words, not in symbols a screen reader reads as "black spade suit".
    said: str = page.eval_on_selector("[data-region=hint]", HEARD)
    assert not set("♣♦♥♠") & set(said) and len(said) > len(text), (text, said)
    return text


@pytest.mark.parametrize(
    ("viewport", "name"),
    [
        (PHONE, "phone"),
        (LANDSCAPE, "phone-landscape"),
        (DESKTOP, "desktop"),
        # A short phone: the hint floats over the felt (it pushed the hand off the screen).
        ({"width": 320, "height": 568}, "small-phone"),
    ],
)
def test_the_hint_marks_the_cards_and_says_why(
    browser: Any, server: AppServer, viewport: dict[str, int], name: str
) -> None:
    page = open_page(browser, server, viewport)
    start_game(page)
    reason = ask_hint(page)
    cards = hinted(page)
    assert reason.startswith("Pass the ") and len(cards) == 3
    # The same cards the API gives for this move.
    game_id = page.evaluate("async () => (await (await fetch('/api/games')).json())[0].id")
    api = page.evaluate(ASK_HINT, game_id)
    assert sorted(api["cards"]) == sorted(cards) and api["reason"] == reason
    no_horizontal_scroll(page)
    hand_in_view(page)
    shoot(page, f"{name}-hint-pass")
    for card in cards:
        page.click(f"[data-region=hand] [data-card='{card}']")
    page.click("[data-action=pass]")
    # The words go as the pass is sent, not after the pause that shows the cards received.
    assert page.is_hidden("[data-region=hint]")
    assert wait_for_person(page) == "playing"
    assert page.is_hidden("[data-region=hint]") and hinted(page) == []  # that hint is gone
    # ...and so is its name on the button: a screen reader hears "Hint", not the old cards.
    assert page.get_attribute("[data-action=hint]", "aria-label") is None
    reason = ask_hint(page)
    (card,) = hinted(page)
    assert page.get_attribute(f"#hand [data-card='{card}']", "data-legal") == "true"
    rank = "10" if card[0] == "T" else card[0]
    # The card, or the cards that play alike with it, the lowest first: "your 8♣ or 9♣".
    assert reason.endswith(".") and (f"the {rank}" in reason or f"your {rank}" in reason)
    no_horizontal_scroll(page)
    hand_in_view(page)
    # Nothing lies over the hint's words: the trick's cards covered them on short screens.
    covered = page.evaluate(
        """() => {
            const hint = document.querySelector('[data-region=hint]');
            const box = hint.getBoundingClientRect();
            const points = [];
            for (let x = box.left + 4; x < box.right - 4; x += 12) {
                for (let y = box.top + 4; y < box.bottom - 4; y += 8) points.push([x, y]);
            }
            return points.filter(([x, y]) => !hint.contains(document.elementFromPoint(x, y)));
        }"""
    )
    assert covered == [], covered[:5]
    shoot(page, f"{name}-hint-play")
    page.click("[data-region=hint]")  # a tap puts the words away; the card stays marked
    assert page.is_hidden("[data-region=hint]") and hinted(page) == [card]
    page.click(f"#hand [data-card='{card}'][data-legal=true]")
    wait_for_person(page)
    assert page.is_hidden("[data-region=hint]")
    assert not page.errors


def test_your_games_after_a_finished_game(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    # The "Moon choice" preset, named by the choice: "Shooting the moon" alone said nothing.
    page.click("input[name=preset][value=moon-choice] + span")
    start_game(page, target=5)
    play_to(page, {"game-over"})
    shoot(page, "phone-game-over")
    with page.expect_navigation():
        page.click("[data-action=your-games]")
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    stats = page.evaluate("async () => (await (await fetch('/api/stats')).json())")
    history = page.evaluate("async () => (await (await fetch('/api/history')).json())")
    assert stats["games"] == len(history) >= 1
    value = page.inner_text("[data-stat=games] .stat-value")
    assert value == str(stats["games"])
    assert page.inner_text("[data-stat=win_rate] .stat-value") == (
        f"{round(stats['win_rate'] * 100)}%"
    )
    rows = page.eval_on_selector_all(
        "[data-region=history] tbody tr", "rows => rows.map(r => r.dataset.game)"
    )
    assert rows == [line["id"] for line in history]
    row = " ".join(page.inner_text(f"[data-region=history] tr[data-game='{rows[0]}']").split())
    assert "4 players to 5, Shooting the moon: the shooter chooses" in row, row
    href = page.get_attribute("[data-action=record]", "href")
    record = page.evaluate(f"async () => (await (await fetch('{href}')).json())")
    assert record["format"] == "hearts-game" and record["dealing"] == "keyed"
    no_horizontal_scroll(page)
    shoot(page, "phone-stats", full_page=True)
    for name, viewport in (("phone-landscape", LANDSCAPE), ("desktop", DESKTOP)):
        resize(page, viewport)
        no_horizontal_scroll(page)
        shoot(page, f"{name}-stats", full_page=True)
    assert not page.errors


REVIEW_URL = re.compile(r"/api/games/[^/]+/review\?round=")


def review_shot(page: Any, name: str, full_page: bool = False) -> None:
    folder = os.environ.get("HEARTS_SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"game-review-{name}.png"), full_page=full_page)


def button_box(page: Any) -> dict[str, float]:
    box: dict[str, float] = page.eval_on_selector(
        "[data-action=next-round], [data-action=play-again]",
        "el => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, h: r.height}; }",
    )
    return box


@pytest.mark.parametrize(
    ("viewport", "name"), [(PHONE, "phone"), (LANDSCAPE, "phone-landscape"), (DESKTOP, "desktop")]
)
def test_the_round_over_panel_shows_the_review_by_itself(
    browser: Any, server: AppServer, viewport: dict[str, int], name: str
) -> None:
    """The round ends: with no tap the panel says the coach is still looking (the answer is
    held back here), then shows the total and the costliest decisions as the API gives
    them, without moving the button; the whole review opens from there."""
    page = open_page(browser, server, viewport)
    held: list[Any] = []
    page.route(REVIEW_URL, lambda route: held.append(route))
    start_game(page)
    ended = play_to(page, {"round-over", "game-over"})
    page.wait_for_selector("[data-region=review-wait]")
    assert page.get_attribute("[data-region=review]", "data-ready") == "false"
    before = button_box(page)
    # The way on is whole on the first screen, held sideways too (its foot was cut off).
    assert before["y"] + before["h"] <= viewport["height"], (before, viewport)
    # However much news the round brings (a moon, a quote from every seat), the way on stays
    # in sight: news as tall as the screen is put above it for a moment.
    pushed = page.evaluate(
        """(height) => {
            const way = document.querySelector('.way-on');
            const news = document.createElement('div');
            news.style.height = `${height}px`;
            way.before(news);
            const box = way.querySelector('button').getBoundingClientRect();
            news.remove();
            return box.bottom;
        }""",
        viewport["height"],
    )
    assert pushed <= viewport["height"], (pushed, viewport)
    follows = page.evaluate(
        """() => !!(document.querySelector('[data-action=next-round], [data-action=play-again]')
            .compareDocumentPosition(document.querySelector('[data-region=review]'))
            & Node.DOCUMENT_POSITION_FOLLOWING)"""
    )
    assert follows, "the review must come after the way on"
    if name == "phone":
        review_shot(page, "phone-waiting")
    assert held, "the panel asked for the review by itself"
    for route in held:
        route.continue_()
    page.unroute(REVIEW_URL)
    page.wait_for_selector("[data-region=review][data-ready=true]", timeout=120_000)
    assert button_box(page) == before
    game_id = page.evaluate("async () => (await (await fetch('/api/games')).json())[0]?.id")
    if game_id is None or ended == "game-over":
        game_id = page.evaluate("async () => (await (await fetch('/api/history')).json())[0].id")
    review = page.evaluate(
        f"async () => (await (await fetch('/api/games/{game_id}/review?round=1')).json())"
    )
    total = page.inner_text("[data-region=review-total]")
    costly = sum(1 for d in review["decisions"] if d["cost"] and d["cost"] > 0)
    if costly:
        assert total.startswith(f"{costly} of your 14 decisions this round cost points"), total
    else:
        assert "as good as the hard player's" in total
    worst = page.eval_on_selector_all(".review-worst li", f"items => items.map({SEEN})")
    assert len(worst) == len(review["costliest"])  # one deck: every decision weighed
    for text, index in zip(worst, review["costliest"], strict=True):
        decision = review["decisions"][index]
        assert decision["reason"] in text
        assert f"Trick {decision['trick']}:" in text or "Your pass:" in text
    no_horizontal_scroll(page)
    if name != "desktop":  # a phone's screen as the panel opens shows the button first
        page.eval_on_selector("[data-region=review]", "el => el.scrollIntoView()")
    review_shot(page, name if name != "phone" else "phone-scrolled")
    if name == "phone":
        page.evaluate("() => document.querySelectorAll('*').forEach((el) => { el.scrollTop = 0; })")
        review_shot(page, "phone")
    page.click("[data-action=whole-review]")
    items = page.eval_on_selector_all(
        ".review-all li", "items => items.map((li) => li.dataset.cost)"
    )
    assert len(items) == len(review["decisions"]) == 14
    if name == "phone":
        page.eval_on_selector(".review-all", "el => el.scrollIntoView()")
        review_shot(page, "phone-whole")
    assert not page.errors


def test_the_reviews_first_line_says_what_could_not_be_weighed_and_what_counts(
    browser: Any, server: AppServer
) -> None:
    """The total's sentence never claims every decision was as good as the hard player's when
    some could not be weighed, and says when the costs count the game's result (a round
    that could end the game, where the search's averages run past a round's 26 points)."""
    page = open_page(browser, server, PHONE)

    def sentence(costs: list[float | None], game_end: float | None = None) -> str:
        review = {
            "decisions": [{"cost": c} for c in costs],
            "total_cost": sum(c for c in costs if c is not None),
            "game_end": game_end,
        }
        text: str = page.evaluate(
            "async (review) => (await import('/game/js/review.js')).reviewTotal(review)", review
        )
        return text

    assert sentence([0.0, 0.0]) == "Every decision this round was as good as the hard player's."
    # Two decks: nothing weighed, and it said "every decision the coach could weigh was as
    # good as the hard player's" after a round of random cards.
    assert sentence([0.0, None, None]) == (
        "The coach would have chosen otherwise at 2 of your 3 decisions this round,"
        " but could not measure by how much."
    )
    # No sum of the costs: one moon let go on two tricks counted twice (67.4 points "lost"
    # in a round of 26).
    costly = sentence([0.0, 26.9, 28.1, None], game_end=30)
    assert costly == (
        "2 of your 4 decisions this round cost points: the coach would have chosen otherwise"
        " at each. With the game at stake, a win counts as 30 points fewer and a loss as 30"
        " more. At 1 more it would have chosen otherwise, by an amount it could not measure."
    )
    # One decision (a round mostly played for the person while away): no "1 of your 1".
    assert (
        sentence([3.0])
        == "Your only decision this round cost points: the coach would have chosen otherwise."
    )
    assert sentence([0.0]) == "Your decision this round was as good as the hard player's."
    assert "game at stake" not in sentence([2.0])
    # The panel lists the decisions it could not measure when fewer than three cost points
    # (two decks: it listed none, and said all was well).
    shown = page.evaluate(
        """async () => (await import('/game/js/review.js')).shownDecisions({
            costliest: [2], decisions: [{cost: 0}, {cost: null, n: 1}, {cost: 4, n: 2},
                                        {cost: null, n: 3}, {cost: null, n: 4}]}).map((d) => d.n)"""
    )
    assert shown == [2, 1, 3]
    # The words over that list say what it holds.
    leads = page.evaluate(
        """async () => {
            const { listLead } = await import('/game/js/review.js');
            const costly = { decisions: [{ cost: 4 }, { cost: null }] };
            const both = [{ cost: 4 }, { cost: null }];
            return [listLead(costly, [{ cost: 4 }]), listLead(costly, both),
                    listLead({ decisions: [{ cost: null }] }, [{ cost: null }])];
        }"""
    )
    # Another card as good as the coach's: not "as the coach would" over a reason that names
    # another card.
    line, said = page.evaluate(
        f"""async () => {{
            const li = (await import('/game/js/review.js')).decisionLine({{kind: 'play',
                trick: 10, played: ['6S'], preferred: ['AS'], cost: 0, reason: 'Throw the A♠.'}});
            return [({SEEN})(li), ({HEARD})(li)];
        }}"""
    )
    # Nor "the coach prefers A♠, but yours comes out as well" over the A♠'s reason, which
    # read as one against the card played: no other card is preferred, and no reason given.
    assert line == "Trick 10: you played 6♠, as good as the A♠ the coach would play."
    # Said in words: a screen reader read "A♠" as "A black spade suit".
    assert said == (
        "Trick 10: you played six of spades, as good as the ace of spades the coach would play."
    )
    # The hint's card, played: said so (the review read "the coach prefers 7♣" to a person
    # who had played the hint's 5♣).
    hinted, why = page.evaluate(
        f"""async () => {{
            const {{ decisionLine }} = await import('/game/js/review.js');
            const hinted = decisionLine({{kind: 'play', trick: 3, played: ['5C'],
                preferred: ['5C'], cost: 0, hinted: true, reason: 'Lead the 5♣.'}});
            const costly = decisionLine({{kind: 'play', trick: 4, played: ['AS'],
                preferred: ['KC'], cost: 12.3, reason: 'Lead the K♣.',
                why_not: 'leading the A♠ while the Q♠ is out lets her holder drop her on you'}});
            return [({SEEN})(hinted), ({SEEN})(costly)];
        }}"""
    )
    assert hinted == "Trick 3: you played 5♣, the card the hint gave, as the coach would."
    # The statistics tile: "1 queens of spades taken" was said.
    labels = page.evaluate(
        """async () => {
            const { queensTakenLabel } = await import('/game/js/words.js');
            return [0, 1, 2].map(queensTakenLabel);
        }"""
    )
    assert labels == [
        "queens of spades taken",
        "queen of spades taken",
        "queens of spades taken",
    ]
    # What was wrong with the card played, said before the coach's reason for its own.
    assert why == (
        # (a tenth of a point said under ten points only: "12.3" read as a precision the
        # search does not have)
        "Trick 4: you played A♠; the coach prefers K♣: yours cost about 12 points. Leading"
        " the A♠ while the Q♠ is out lets her holder drop her on you. Lead the K♣."
    )
    assert leads == [
        "The costliest, each as things stood then:",
        "The costliest, each as things stood then; then one it could not measure:",
        None,
    ]
    assert not page.errors


def test_a_moon_that_came_off_says_how_its_costs_are_judged(
    browser: Any, server: AppServer
) -> None:
    """A moon that came off can still show costs (each card judged as things stood then):
    the review says so, for the person's moon, their team's and a sun; not without costs
    or for another seat's moon."""
    page = open_page(browser, server, PHONE)
    notes = page.evaluate(
        """async () => {
            const { moonNote } = await import('/game/js/review.js');
            const costly = { decisions: [{ cost: 0 }, { cost: 3.5 }] };
            const clean = { decisions: [{ cost: 0 }] };
            return [moonNote(costly, { team: false, sun: false }),
                    moonNote(costly, { team: true, sun: false }),
                    moonNote(costly, { team: false, sun: true }),
                    moonNote(clean, { team: false, sun: false }),
                    moonNote(costly, null)];
        }"""
    )
    judged = (
        " came off. Each cost is what the card risked as things stood when you played it,"
        " not what it brought in the end."
    )
    mine, team, sun = ("Your moon" + judged, "Your team's moon" + judged, "Your sun" + judged)
    assert notes == [mine, team, sun, None, None]
    assert not page.errors


def test_a_hint_that_comes_after_the_card_is_played_is_dropped(
    browser: Any, server: AppServer
) -> None:
    # Asked, then a card played before the answer came: the answer showed for seconds while
    # the trick went round, its card outlined, about a move that was gone.
    page = open_page(browser, server, PHONE, speed="normal")
    start_game(page)
    cards = page.eval_on_selector_all("#hand [data-card]", "els => els.map(e => e.dataset.card)")
    for card in cards[:3]:
        page.click(f"[data-region=hand] [data-card='{card}']")
    page.click("[data-action=pass]")
    assert wait_for_person(page) == "playing"
    held: list[Any] = []
    page.route(re.compile(r"/api/games/[^/]+/hint$"), lambda route: held.append(route))
    page.click("[data-action=hint]")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    # The card's request is held too: the answer comes while the page still draws the
    # position it was asked about.
    sent: list[Any] = []
    page.route(re.compile(r"/api/games/[^/]+/play(\?|$)"), lambda route: sent.append(route))
    page.click("#hand [data-card][data-legal=true]")
    held[0].continue_()
    page.wait_for_function("() => !document.querySelector('[data-action=hint]').ariaBusy")
    page.wait_for_timeout(200)
    assert page.is_hidden("[data-region=hint]")
    assert hinted(page) == []
    for _ in range(100):
        if sent:
            break
        page.wait_for_timeout(50)
    assert len(sent) == 1
    sent[0].continue_()
    wait_for_person(page)
    assert page.is_hidden("[data-region=hint]")
    assert not page.errors


def test_check_this_deal_with_two_decks_and_no_pass(browser: Any, server: AppServer) -> None:
    # Six players, two decks, no pass in the first round: the hand was not kept when another
    # seat led first, and Python printed it deck by deck where the page sorted it.
    page = open_page(browser, server, PHONE)
    page.click("[data-players='6']")
    page.click("[data-action=new-game]")
    page.wait_for_selector(f"{TABLE}[data-players='6'] [data-card]")
    assert page.get_attribute(TABLE, "data-phase") == "playing"  # the first round keeps
    dealt = page.eval_on_selector_all("#hand [data-card]", "els => els.map(e => e.dataset.card)")
    play_to(page, {"round-over", "game-over"})
    href = page.get_attribute("[data-action=check-deal]", "href")
    assert "hand=" in href, href
    rules = page.context.new_page()
    rules.goto(server.url + href)
    rules.wait_for_selector("[data-region=deal-verdict][data-matches=true]")
    code = rules.inner_text("[data-region=deal-code]")
    assert "Rules(players=6)" in code
    facts = " ".join(rules.inner_text("[data-region=deal-facts]").split())
    said = facts.split("You were dealt ")[1].split(".")[0].split()
    in_order = [parse_card(card).symbol for card in sorted(dealt, key=lambda c: parse_card(c).face)]
    assert said == in_order
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    verdict, printed = ran.stdout.split(" ", 1)
    assert verdict == "True" and printed.split() == said  # the same cards, in the same order
    assert not page.errors


def test_your_games_says_who_was_your_partner_and_the_hints_taken(
    browser: Any, server: AppServer
) -> None:
    # A partners' game listed the partner among the opponents; a game at a table of friends
    # did not say the hints the person took there, which its end had said.
    page = open_page(browser, server, PHONE)
    start_game(page, target=5)
    play_to(page, {"game-over"})
    history = page.evaluate("async () => (await (await fetch('/api/history')).json())")
    line = history[0]
    assert line["hints"] == 0  # a table of one's own: none counted
    for other in line["opponents"]:
        other["partner"] = other["seat"] == 2
    clean = {**line, "id": "clean"}
    line |= {"hints": 2, "undos": 1}
    page.route(re.compile(r"/api/history$"), lambda route: route.fulfill(json=[line, clean]))
    page.goto(f"{server.url}/stats")
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    row = " ".join(
        plain(page.inner_text(f"[data-region=history] tr[data-game='{line['id']}']")).split()
    )
    names = {o["seat"]: f"{o['name']} ({o['level']})" for o in line["opponents"]}
    assert f"with {names[2]} against {names[1]}, {names[3]}" in row, row
    assert "1 take-back 2 hints" in row, row
    mark = "[data-region=history] [data-hints]"
    assert " ".join(page.eval_on_selector(mark, HEARD).split()) == "2 hints from the coach"
    assert page.locator("[data-region=history] tr[data-game=clean] [data-hints]").count() == 0
    no_horizontal_scroll(page)
    for name, viewport in (("phone", PHONE), ("phone-landscape", LANDSCAPE), ("desktop", DESKTOP)):
        resize(page, viewport)
        shoot(page, f"{name}-stats-hints", full_page=True)
    assert not page.errors


def test_a_damaged_record_is_said_on_your_games_and_the_start_screen(
    browser: Any, server: AppServer
) -> None:
    # What the API says of a damaged game (tests/hardening/test_damaged_records.py), shown:
    # it went from both lists without a word.
    page = open_page(browser, server, PHONE)
    start_game(page, target=5)
    play_to(page, {"game-over"})
    history = page.evaluate("async () => (await (await fetch('/api/history')).json())")
    stats = page.evaluate("async () => (await (await fetch('/api/stats')).json())")
    broken = {"id": "broken", "finished": history[0]["finished"], "damaged": True}
    page.route(re.compile(r"/api/history$"), lambda route: route.fulfill(json=[broken, *history]))
    page.route(
        re.compile(r"/api/stats$"), lambda route: route.fulfill(json={**stats, "unreadable": 1})
    )
    page.goto(f"{server.url}/stats")
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    assert page.inner_text("[data-region=unreadable]") == (
        "One finished game has a damaged record and is left out of these figures."
    )
    row = page.inner_text("[data-region=history] tr[data-damaged=true]")
    assert "This game's record is damaged: it cannot be shown or replayed." in row
    assert page.locator("[data-region=history] tbody tr").count() == len(history) + 1
    no_horizontal_scroll(page)
    # The start screen: the damaged game is said, and the one that can go on keeps the main
    # button.
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    start_game(page)
    listed = page.evaluate("async () => (await (await fetch('/api/games')).json())")
    damaged: dict[str, Any] = {"id": "broken", "names": [], "scores": [], "damaged": True}
    damaged.update(round=None, phase=None, target=None, friends=False)
    damaged.update(played=listed[0]["played"])
    page.route(
        re.compile(r"/api/games$"),
        lambda route: (
            route.fulfill(json=[damaged, *listed])
            if route.request.method == "GET"
            else route.continue_()
        ),
    )
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    said = page.inner_text(".unfinished li[data-damaged=true]")
    assert re.fullmatch(
        r"A game last played today at \S+( [AP]M)? could not be read: its record is damaged, "
        r"so it cannot be continued\.",
        said,
    ), said
    main = page.locator("[data-action=continue].primary")
    assert main.count() == 1 and main.get_attribute("data-game") == listed[0]["id"]
    assert main.inner_text() == "Continue game"
    no_horizontal_scroll(page)
    assert not page.errors
