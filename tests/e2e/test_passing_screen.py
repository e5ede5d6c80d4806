"""The pass and the round's end as a careful tester saw them on a phone: whom each card of a
scatter goes to, a refusal that stays readable, the keyboard after a pass, a focus ring that
stands out, and the round's table inside the screen."""

from __future__ import annotations

import re
from typing import Any, Literal

import pytest
from test_table_play import open_stored
from test_web_game_browser import TABLE, hand, open_page, shoot, start_game, wait_for_person

import hearts

from browser_support import PHONE, SCREENS, AppServer, create_by_page, plain, store_for
from helpers import first_round_played

pytestmark = pytest.mark.browser


def scatter_game(page: Any, server: AppServer, name: str, players: int = 4) -> hearts.Game:
    """A game whose first round is a scatter, stored for this page's browser and opened."""
    game = hearts.Game(hearts.Rules(players=players, pass_cycle=("scatter",)), 5)
    start_game(page)  # the browser's cookie
    store_for(page, server, name, game)
    open_stored(page, server, name)
    return game


def tag_of(page: Any, card: str) -> str:
    tag = page.locator(f"[data-region=hand] [data-card='{card}'] .pass-tag")
    return plain(tag.inner_text()) if tag.count() else ""


def test_a_scatter_says_whom_each_chosen_card_goes_to(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    game = scatter_game(page, server, "scatter-tags")
    view = game.view(0)
    names = [page.inner_text(f".seat[data-seat='{seat}'] .name") for seat in view.pass_to]
    message = plain(page.inner_text("[data-region=message]"))
    assert f"goes to {names[0]}, then {names[1]} and {names[2]}, in that order" in message
    first, second, third = hand(page)[:3]
    for card in (first, second):
        page.click(f"[data-region=hand] [data-card='{card}']")
    assert [tag_of(page, first), tag_of(page, second)] == names[:2]
    label = page.get_attribute(f"[data-region=hand] [data-card='{second}']", "aria-label")
    assert plain(label).endswith(f"goes to {names[1]}")
    # Putting the first back moves the second up: it now goes to the first player.
    page.click(f"[data-region=hand] [data-card='{first}']")
    assert tag_of(page, first) == "" and tag_of(page, second) == names[0]
    page.click(f"[data-region=hand] [data-card='{third}']")
    page.click(f"[data-region=hand] [data-card='{first}']")
    assert [tag_of(page, c) for c in (second, third, first)] == names
    # The tag stays inside the part of the card the next one leaves in sight.
    for card in (second, third):
        box = page.locator(f"[data-region=hand] [data-card='{card}'] .pass-tag").bounding_box()
        cards = hand(page)
        after = page.locator(f"[data-region=hand] [data-card='{cards[cards.index(card) + 1]}']")
        assert box["x"] + box["width"] <= after.bounding_box()["x"] + 1
    shoot(page, "scatter-chosen-phone")
    # A fourth card is refused in a line short enough to stay above the raised cards.
    page.click(f"[data-region=hand] [data-card='{hand(page)[5]}']")
    status = page.locator("#status")
    assert status.inner_text() == "3 chosen: tap one to put it back."
    top = min(
        page.locator(f"[data-region=hand] [data-card='{c}']").bounding_box()["y"]
        for c in (first, second, third)
    )
    status_box = status.bounding_box()
    assert status_box["y"] + status_box["height"] <= top + 1
    page.click("[data-action=pass]")
    wait_for_person(page)
    # One card came from each of the others: each says who gave it.
    state = page.evaluate("fetch('/api/games/scatter-tags').then(r => r.json())")
    got, givers = state["view"]["received"], state["view"]["received_from"]
    assert len(set(givers)) == 3
    for card, giver in zip(got, givers, strict=True):
        name = page.inner_text(f".seat[data-seat='{giver}'] .name")
        assert tag_of(page, card) == name
        label = page.get_attribute(f"[data-region=hand] [data-card='{card}']", "aria-label")
        assert f", passed to you by {name}" in plain(label), label
    assert "each with its giver's name" in page.inner_text("[data-region=actions]")
    shoot(page, "scatter-received-phone")
    assert not page.errors, page.errors


@pytest.mark.parametrize("players", [6, 8])
def test_a_scatter_names_each_receiver_whole_on_a_crowded_phone_hand(
    browser: Any, server: AppServer, players: int
) -> None:
    # Seventeen or thirteen cards across a phone leave 20 to 28 px of each in sight: a
    # name across the card was cut to "Be…"; it runs up the card's edge instead.
    page = open_page(browser, server, PHONE)
    game = scatter_game(page, server, f"scatter-{players}", players=players)
    names = [page.inner_text(f".seat[data-seat='{seat}'] .name") for seat in game.view(0).pass_to]
    cards = hand(page)
    chosen = cards[: len(names)]
    for card in chosen:
        page.click(f"[data-region=hand] [data-card='{card}']")
    assert [tag_of(page, card) for card in chosen] == names
    for card in chosen:
        tag = page.locator(f"[data-region=hand] [data-card='{card}'] .pass-tag")
        whole = tag.evaluate(
            "el => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1"
        )
        assert whole, f"the tag {tag.inner_text()!r} is cut short"
        box = tag.bounding_box()
        after = page.locator(f"[data-region=hand] [data-card='{cards[cards.index(card) + 1]}']")
        mine = page.locator(f"[data-region=hand] [data-card='{card}']").bounding_box()
        if after.bounding_box()["y"] == mine["y"]:  # the next card on the same row
            assert box["x"] + box["width"] <= after.bounding_box()["x"] + 1
    # One card too many: the refusal runs to two lines beside the timer and the score, and
    # both stay above the chosen cards' ticks (the second line was under them).
    page.click(f"[data-region=hand] [data-card='{cards[len(names)]}']")
    status = page.locator("#status")
    assert status.inner_text() == f"{len(names)} chosen: tap one to put it back."
    ticks = page.eval_on_selector_all(
        "[data-region=hand] .card.selected",
        "els => els.map(e => e.getBoundingClientRect().top"
        " + parseFloat(getComputedStyle(e, '::before').top))",
    )
    box = status.bounding_box()
    assert box["y"] + box["height"] <= min(ticks) + 1, (box, min(ticks))
    if players == 6:
        shoot(page, "scatter-chosen-6-phone")
    assert not page.errors, page.errors


#: Each chosen card's tag: its words, whether it shows them whole, and whether a tap at its
#: middle lands on its own card (no card of the next row lies over it).
TAGS_IN_SIGHT = """() => [...document.querySelectorAll('#hand .card .pass-tag')].map((tag) => {
    const r = tag.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return [tag.textContent, tag.scrollWidth <= tag.clientWidth + 1,
            tag.closest('.card').contains(at)];
})"""


@pytest.mark.parametrize(
    "size", [SCREENS["smaller-phone-landscape"], SCREENS["shortest-phone-landscape"]]
)
def test_a_scatters_name_tags_stay_in_sight_over_two_rows_held_sideways(
    browser: Any, server: AppServer, size: dict[str, int]
) -> None:
    # The shortest phones held sideways, six players (17 cards in two rows that overlap): the
    # tags of the cards chosen from the first row, at each card's foot, lay under the second
    # row ("Bertie", "Oskar" and "Priya" out of sight). They sit just above that row.
    page = open_page(browser, server, size)
    game = scatter_game(page, server, f"scatter-rows-{size['width']}", players=6)
    names = [page.inner_text(f".seat[data-seat='{seat}'] .name") for seat in game.view(0).pass_to]
    for card in hand(page)[: len(names)]:
        page.click(f"[data-region=hand] [data-card='{card}']")
    tops = page.eval_on_selector_all("#hand .card", "els => els.map((e) => e.style.top)")
    assert len(set(tops)) == 2, tops  # two rows
    found = plain(page.evaluate(TAGS_IN_SIGHT))
    assert found == [[name, True, True] for name in names], found
    shoot(page, f"scatter-rows-{size['width']}")
    assert not page.errors, page.errors


def test_after_a_pass_the_keyboard_finds_the_cards(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    scatter_game(page, server, "scatter-keys")
    for card in hand(page)[-3:]:
        page.click(f"[data-region=hand] [data-card='{card}']")
    page.focus("[data-action=pass]")
    page.keyboard.press("Enter")
    wait_for_person(page)
    active = page.evaluate("document.activeElement.dataset.card || document.activeElement.id")
    if (
        page.get_attribute(TABLE, "data-phase") == "playing"
        and page.locator("[data-card][data-legal=true]").count()
    ):
        # The person's turn: the focus is on a card they may play.
        assert page.evaluate("document.activeElement.dataset.legal") == "true", active
    else:
        # Waiting: on the hand, whose arrow keys go into the cards.
        page.focus("[data-region=hand]")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.card") == hand(page)[0]
    # The person's own seat is named for a screen reader, as the others' are.
    assert page.get_attribute("[data-region=me]", "aria-label") == "You"
    # The keyboard's ring is not the gold of the cards just passed in.
    page.keyboard.press("ArrowRight")
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    assert ring == "rgb(255, 255, 255)", ring


def test_the_rounds_table_stays_on_a_phone_screen(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    game = first_round_played(hearts.Rules(players=3, kitty=True, bonus_card="JD"), 2)
    start_game(page)
    store_for(page, server, "bonus3", game)
    open_stored(page, server, "bonus3")
    page.wait_for_selector("table.summary")
    heads = page.eval_on_selector_all(
        "table.summary thead th", "ths => ths.map((th) => th.title || th.textContent)"
    )
    assert "jack of diamonds" in heads and "Points" not in heads  # points as scored: one column
    # On a phone a column of cards is headed by its card, the word kept for screen readers.
    symbols = page.eval_on_selector_all(
        "table.summary thead .col-symbol",
        "els => els.filter((e) => e.offsetWidth).map((e) => e.textContent)",
    )
    assert symbols == ["♥", "Q♠", "J♦"]
    panel = page.locator(".sheet-panel").bounding_box()
    table = page.locator("table.summary").bounding_box()
    assert table["x"] + table["width"] <= panel["x"] + panel["width"] + 0.5
    assert table["x"] + table["width"] <= PHONE["width"]
    last = page.locator("table.summary tbody tr:first-child td:last-child").bounding_box()
    assert last["x"] + last["width"] <= PHONE["width"], "the total is in sight"
    assert abs(spare_width(page)) <= 1
    shoot(page, "round-over-bonus-phone")


def spare_width(page: Any) -> float:
    """The panel's width the round's table leaves empty (measured on a row: a table shown as
    a block is as wide as its box, its rows only as wide as their cells)."""
    spare: float = page.evaluate(
        """() => { const t = document.querySelector('table.summary');
            const box = t.parentElement, style = getComputedStyle(box);
            return box.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight) - t.querySelector('tr').offsetWidth; }"""
    )
    return spare


def test_a_narrow_rounds_table_fills_the_panel_on_a_phone(browser: Any, server: AppServer) -> None:
    # Four short names and five columns: as a scrolling block the table kept to its
    # content's width, a third of the panel left empty beside it.
    page = open_page(browser, server, PHONE)
    game = first_round_played(hearts.Rules(), 3)
    start_game(page)
    store_for(page, server, "four-narrow", game)
    open_stored(page, server, "four-narrow")
    page.wait_for_selector("table.summary")
    assert abs(spare_width(page)) <= 1, spare_width(page)
    assert "wide" not in (page.get_attribute("table.summary", "class") or "")


def test_a_rounds_table_too_wide_for_large_text_is_reached_by_keyboard(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, {"width": 320, "height": 640})
    # Six players and the bonus card: a column more (the headings are symbols on a phone,
    # so four plain columns now fit at 150%).
    game = first_round_played(hearts.Rules(players=6, bonus_card="JD"), 3)
    start_game(page)
    store_for(page, server, "six-large-text", game)
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("document.documentElement.style.fontSize = '150%'")
    page.click("[data-action=continue][data-game='six-large-text']")
    table = page.locator("table.summary")
    table.wait_for()
    assert page.evaluate(
        "(() => { const t = document.querySelector('table.summary');"
        " return t.scrollWidth > t.clientWidth; })()"
    )
    assert table.get_attribute("tabindex") == "0"
    table.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('table.summary').scrollLeft > 0")
    assert not page.errors


def test_long_names_at_six_keep_the_rounds_totals_in_sight(browser: Any, server: AppServer) -> None:
    # Two friends with long names at a table of six: "Wolfeschlegel" would not break, so
    # the totals ran 5 px past the panel's edge, half hidden.
    page = open_page(browser, server, PHONE)
    game = first_round_played(hearts.Rules(players=6), 3)
    start_game(page)
    store_for(page, server, "six-long", game)
    open_stored(page, server, "six-long")
    page.wait_for_selector("table.summary")
    widths = page.evaluate(
        """() => {
            const names = [...document.querySelectorAll('table.summary tbody th')];
            names[0].textContent = 'Wilhelmina Wolfeschlegel';
            names[1].textContent = '<b>Ann</b><i>x (you)';
            const table = document.querySelector('table.summary');
            return [table.scrollWidth, table.clientWidth];
        }"""
    )
    assert widths[0] <= widths[1], widths
    shoot(page, "round-over-six-long-names-phone")


def test_a_card_passed_in_beside_its_twin_is_marked_once(browser: Any, server: AppServer) -> None:
    # Two decks: the person held a copy of a card passed to them; only the copy that came
    # in is marked (both were, so a pass of three showed four marks).
    rules = hearts.Rules(players=6, pass_cycle=("left",))
    for seed in range(200):
        game = hearts.Game(rules, seed)
        before = list(game.view(0).hand)
        for seat in range(rules.players):
            game.apply(hearts.Pass(seat, game.view(seat).hand[-3:]))
        received = [str(card) for card in game.view(0).received or ()]
        kept = [str(card) for card in before[:-3]]  # faces: each copy is its own card
        if any(card in kept for card in received):
            break
    else:
        raise AssertionError("no deal passes a card beside its twin")
    while game.round.turn != 0:  # the others play up to the person's first card
        game.apply(hearts.Play(game.round.turn, game.view(game.round.turn).legal[0]))
    page = open_page(browser, server, PHONE)
    start_game(page)
    store_for(page, server, "twin-pass", game)
    open_stored(page, server, "twin-pass")
    marked = page.locator("[data-region=hand] .card.received")
    assert marked.count() == len(received) == 3
    labels = page.eval_on_selector_all(
        "[data-region=hand] [data-card]", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert sum("passed to you" in label for label in labels) == 3


def test_a_reload_keeps_the_cards_chosen_for_a_pass_in_their_order(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, PHONE)
    game = scatter_game(page, server, "scatter-reload")
    names = [page.inner_text(f".seat[data-seat='{seat}'] .name") for seat in game.view(0).pass_to]
    second, first = hand(page)[4], hand(page)[1]  # chosen out of the hand's order
    for card in (second, first):
        page.click(f"[data-region=hand] [data-card='{card}']")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    if page.evaluate("document.body.dataset.screen") != "table":
        page.click("[data-action=continue][data-game='scatter-reload']")
    page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]")
    chosen = page.eval_on_selector_all(
        "[data-region=hand] [aria-pressed=true]", "els => els.map(e => e.dataset.card)"
    )
    assert sorted(chosen) == sorted([second, first])
    assert [tag_of(page, second), tag_of(page, first)] == names[:2]  # the order chosen
    assert "Choose 1 more card." in page.inner_text("#status")
    # The third card, and the pass goes.
    page.click(f"[data-region=hand] [data-card='{hand(page)[7]}']")
    page.click("[data-action=pass]")
    wait_for_person(page)
    assert not page.errors, page.errors


@pytest.mark.parametrize(
    ("viewport", "rules"),
    [
        (PHONE, hearts.Rules()),
        (SCREENS["small-phone"], hearts.Rules(players=8, bonus_card="JD")),
    ],
)
def test_at_large_text_the_rounds_names_stay_whole(
    browser: Any, server: AppServer, viewport: dict[str, int], rules: hearts.Rules
) -> None:
    # 150% text on a phone: the columns' words squeezed the names ("Maris / ol"; at eight
    # players with the bonus card, "Tams / in", "Dunst / an"): the table scrolls instead.
    page = open_page(browser, server, viewport)
    game = first_round_played(rules, 3)
    start_game(page)
    name = f"four-large-text-{viewport['width']}"
    store_for(page, server, name, game)
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("document.documentElement.style.fontSize = '150%'")
    page.click(f"[data-action=continue][data-game='{name}']")
    page.wait_for_selector("table.summary")
    lines = page.eval_on_selector_all(
        "table.summary tbody th",
        """ths => ths.map((th) => {
            const style = getComputedStyle(th);
            const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
            return [th.textContent, th.getBoundingClientRect().height / line];
        })""",
    )
    for name, rows in lines:
        assert rows < 1.9, (name, rows)
    assert not page.errors


#: The round's table on its panel: how far it scrolls sideways, how far its cells reach past
#: the panel's inner edge, and for each name the lines it takes and whether a word of it was
#: broken (the name's words each narrower than the cell would have fitted whole).
ROUND_TABLE_FITS = """() => {
    const table = document.querySelector('table.round-table');
    const box = table.parentElement, style = getComputedStyle(box);
    const inner = box.getBoundingClientRect().right - parseFloat(style.paddingRight);
    const reach = Math.max(...[...table.querySelectorAll('tr')]
        .map((row) => row.lastElementChild.getBoundingClientRect().right));
    const names = [...table.querySelectorAll('tbody th')].map((th) => {
        const line = parseFloat(getComputedStyle(th).lineHeight);
        const range = document.createRange();
        range.selectNodeContents(th);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        const words = th.textContent.split(/\\s+/).length;
        return [th.textContent, lines, words, Math.round(th.getBoundingClientRect().height / line)];
    });
    return { across: table.scrollWidth - table.clientWidth, past: reach - inner, names,
             wide: table.classList.contains('wide') };
}"""


@pytest.mark.parametrize(
    ("players", "bonus"), [(3, None), (4, None), (6, None), (10, None), (10, "JD")]
)
def test_at_double_text_the_rounds_table_fits_an_upright_phone(
    browser: Any, server: AppServer, players: int, bonus: Literal["JD"] | None
) -> None:
    # 390 x 844 at 200% text: the round's table was 393 to 441 px wide in a panel with 346,
    # and scrolled sideways, the Total column out of sight until scrolled. It fits, every
    # name whole (a name of one word on one line).
    page = open_page(browser, server, PHONE)
    rules = hearts.Rules(players=players, bonus_card=bonus)
    game = first_round_played(rules, 3)
    start_game(page)
    name = f"double-text-{players}-{bonus}"
    store_for(page, server, name, game)
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    page.click(f"[data-action=continue][data-game='{name}']")
    page.wait_for_selector("table.summary")
    found = plain(page.evaluate(ROUND_TABLE_FITS))
    shoot(page, f"round-over-double-text-{players}-{bonus or 'plain'}-phone")
    assert found["across"] <= 0 and not found["wide"], found
    assert found["past"] <= 1, found  # the Total column in sight
    for seat_name, lines, words, _ in found["names"]:
        assert lines <= words, (seat_name, lines)  # no word of a name broken
    assert not page.errors


def test_a_card_tapped_twice_on_a_touch_screen_goes_back_down(
    browser: Any, server: AppServer
) -> None:
    # A tap leaves a hover behind on a touch screen: the card put back stayed 4 px up, as
    # if still half chosen, until another was tapped.
    page = open_page(browser, server, PHONE, touch=True)
    start_game(page)
    card = f"[data-region=hand] [data-card='{hand(page)[4]}']"
    lift = "(sel) => new DOMMatrix(getComputedStyle(document.querySelector(sel)).transform).m42"
    page.tap(card)
    page.wait_for_function(f"(sel) => ({lift})(sel) < -8", arg=card)
    page.tap(card)
    page.wait_for_timeout(500)  # the hover a tap leaves comes a moment after it
    page.wait_for_function("(sel) => !document.querySelector(sel).matches('.selected')", arg=card)
    assert page.evaluate(lift, card) == 0
    page.context.close()


def test_a_fourth_card_by_keyboard_is_refused_in_the_keyboards_words(
    browser: Any, server: AppServer
) -> None:
    # "Tap one to put it back" was said to a person choosing with the keys.
    page = open_page(browser, server, PHONE)
    start_game(page)
    page.focus(f"[data-region=hand] [data-card='{hand(page)[0]}']")
    for _ in range(4):
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#status") == "3 chosen: press Enter on one to put it back."
    page.click(f"[data-region=hand] [data-card='{hand(page)[5]}']")  # and by a tap
    assert page.inner_text("#status") == "3 chosen: tap one to put it back."
    assert not page.errors


def test_a_pass_to_a_partner_names_them_your_partner(browser: Any, server: AppServer) -> None:
    # The Pass button said "Pass 3 to Bertie, across from you" of the person's own partner.
    page = open_page(browser, server, PHONE)
    rules = {"partnership": True, "partners_pass": True}
    state = create_by_page(page, {"levels": ["easy"] * 3, "rules": rules})
    page.goto(f"{server.url}/?speed=instant#play")
    page.reload()  # a change of the #hash alone would not load the page again
    page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-action=pass]")
    partner = state["players"][state["view"]["partner"]]["name"]
    label = plain(page.get_attribute("[data-action=pass]", "aria-label"))
    assert label == f"Pass 3 to {partner}, your partner", label
    assert plain(page.inner_text("[data-action=pass]")).endswith(", your partner")
    shoot(page, "pass-to-partner-phone")
    assert not page.errors


#: A space before punctuation, as a screen reader would read the words.
SPACED = re.compile(r"\w\s+[,;:.](?!\w)")


def test_words_for_screen_readers_join_their_punctuation(browser: Any, server: AppServer) -> None:
    # A card's name read after its symbol, or a heading's colon, was read apart from the
    # words round it: "passed you king of clubs , king of spades", "Trick 1 : Priya took it".
    page = open_page(browser, server, PHONE)
    start_game(page)
    for card in hand(page)[-3:]:
        page.click(f"[data-region=hand] [data-card='{card}']")
    page.click("[data-action=pass]")
    assert wait_for_person(page) == "playing"
    line = page.locator("[data-region=message]").aria_snapshot()
    assert " passed you " in line and " of " in line, line  # the cards said by name
    assert not SPACED.search(line), line
    while page.is_hidden("[data-action=tricks]"):
        page.click("[data-card][data-legal=true]")
        assert wait_for_person(page) == "playing"
    page.click("[data-action=tricks]")
    heading = page.locator("[data-trick='1'] h3").aria_snapshot()
    assert re.search(r'"Trick 1: \S', heading), heading
    assert not SPACED.search(heading), heading
    assert not page.errors
