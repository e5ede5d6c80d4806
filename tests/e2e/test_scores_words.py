"""The words of the score tables in headless Chromium: equal totals share a place in the
standings, and at a table of friends the person's own line is marked, wherever their name
is; a mistyped address gets a page in the game's look.

A game to 1 point ends with its first round. The round is played through the API the page
uses (with the page's own cookie), all but the person's last card, which is played on the
screen, so the game-over panel is reached as a person reaches it.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_game_browser import contrast, open_page

from browser_support import DESKTOP, PHONE, AppServer, create_by_page, plain, resize, shoot

pytestmark = pytest.mark.browser

TABLE = "#game"
#: Plays the game by API until it is over, or (`last`) until the person holds one card
#: on their turn. Any refused move (a race with the computer players) is retried.
PLAY_BY_API = """async ({id, last}) => {
    const url = `/api/games/${id}`;
    const get = async () => (await fetch(url)).json();
    const post = async (path, body) => {
        const r = await fetch(`${url}/${path}`, {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
        return r.status === 200 ? r.json() : null;
    };
    let state = await get();
    for (let i = 0; i < 500; i++) {
        if (state.phase === 'game-over') return state;
        const me = state.view.seat;
        const move = state.move;
        let next = null;
        if (state.phase === 'passing') {
            const cards = state.view.hand.slice(0, state.view.cards_to_pass);
            next = await post('pass', {cards, move});
        } else if (state.phase === 'playing' && state.view.legal.length) {
            if (last && state.view.hand.length === 1) return state;
            next = await post('play', {card: state.view.legal[0], move});
        } else if (state.phase === 'moon-choice' && state.moon_pending === me) {
            next = await post('moon', {choice: 'add', move});
        } else if (state.phase === 'round-over') {
            next = await post('next', {move});
        }
        if (next && next.move !== move) { state = next; continue; }
        await new Promise((done) => setTimeout(done, 60));
        state = await get();
    }
    throw new Error('the game did not end');
}"""


def play_to_game_over(page: Any, server: AppServer, body: dict[str, Any]) -> dict[str, Any]:
    """A game to 1 point (`body`, by API) played to its end, the last card on the screen.
    Returns the final state as the API gives it."""
    state = create_by_page(page, {**body, "rules": {**body.get("rules", {}), "target_score": 1}})
    if state["table"]["friends"]:
        start = f"fetch('/api/games/{state['id']}/start', {{method: 'POST', body: '{{}}', "
        page.evaluate(start + "headers: {'Content-Type': 'application/json'}}).then(r => r.status)")
    state = page.evaluate(PLAY_BY_API, {"id": state["id"], "last": True})
    assert state["phase"] == "playing", state["phase"]
    address = (
        f"/?table={state['id']}&speed=instant"
        if state["table"]["friends"]
        else "/?speed=instant#play"
    )
    page.goto(server.url + address)
    page.reload()  # a change of the #hash alone would not load the page again
    page.wait_for_selector(
        f"{TABLE}[data-phase=playing] [data-card][data-legal=true]", timeout=20000
    )
    page.click("[data-region=hand] [data-card][data-legal=true]")
    page.wait_for_selector(f"{TABLE}[data-phase=game-over] ol.standings", timeout=20000)
    final: dict[str, Any] = page.evaluate(PLAY_BY_API, {"id": state["id"], "last": False})
    return final


def standings(page: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = plain(
        page.eval_on_selector_all(
            "ol.standings li",
            """els => els.map(li => ({value: li.value, tied: li.dataset.tied === 'true',
            mine: li.classList.contains('mine'), name: li.querySelector('.name').textContent,
            total: Number(li.querySelector('.total').textContent), text: li.innerText}))""",
        )
    )
    return rows


def competition_places(totals: list[int]) -> list[int]:
    return [1 + sum(other < total for other in totals) for total in totals]


def test_equal_totals_share_a_place(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    players = 10  # the largest table: the most players to tie
    state = play_to_game_over(page, server, {"levels": ["easy"], "rules": {"players": players}})
    rows = standings(page)
    assert len(rows) == players
    totals = [row["total"] for row in rows]
    assert totals == sorted(state["scores"])
    places = competition_places(totals)
    assert [row["value"] for row in rows] == places
    # With ten players in one round some always share a total (those who took nothing).
    assert len(set(totals)) < len(totals), totals
    for row, place in zip(rows, places, strict=True):
        shared = places.count(place) > 1
        assert row["tied"] == shared and ("tied" in row["text"]) == shared, row
    # A table of one calls the person "You", with no mark added to the name.
    assert [row["name"] for row in rows if row["mine"]] == ["You"]
    assert plain(page.inner_text("table.summary tbody tr.mine th")) == "You"
    for view, size in (("phone", PHONE), ("desktop", {"width": 1366, "height": 850})):
        resize(page, size)
        page.locator("ol.standings").scroll_into_view_if_needed()
        shoot(page, f"scores-tied-standings-{view}")
    assert not page.errors, page.errors
    page.context.close()


def test_a_reload_on_the_final_panel_shows_it_again(browser: Any, server: AppServer) -> None:
    # A finished game is nobody's game in progress, and a reload on its final panel opened
    # the start screen: the standings and "Play again" were gone, and "Back to the game" on
    # the statistics page led there too. The tab shows the game it showed until the person
    # leaves it for the start screen.
    page = open_page(browser, server, PHONE)
    state = play_to_game_over(page, server, {"levels": ["easy"]})
    before = standings(page)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector(f"{TABLE}[data-phase=game-over] ol.standings")
    assert page.get_attribute(TABLE, "data-game") == state["id"]
    assert standings(page) == before
    assert page.is_visible("[data-action=play-again]")
    with page.expect_navigation():
        page.click("[data-action=your-games]")
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    with page.expect_navigation():
        page.click("a[data-action=back]")
    page.wait_for_selector(f"{TABLE}[data-phase=game-over] ol.standings")
    assert page.get_attribute(TABLE, "data-game") == state["id"]
    # Chosen to start anew: the start screen, and it stays after a reload.
    page.click("[data-action=change-table]")
    page.wait_for_selector("body[data-screen=setup] [data-action=new-game]")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("body", "data-screen") == "setup"
    page.goto(f"{server.url}/?speed=instant#play")
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("body", "data-screen") == "setup"
    assert not page.errors, page.errors
    page.context.close()


def test_a_friends_table_marks_the_persons_own_line(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    body = {"seats": ["you", "friend", "medium", "medium"], "name": "Bea", "turn_time": None}
    state = play_to_game_over(page, server, body)
    me = state["table"]["seat"]
    assert state["players"][me]["name"] == "Bea"
    mine = [row for row in standings(page) if row["mine"]]
    assert [row["name"] for row in mine] == ["Bea (you)"]
    # The round summary, the score sheet (its column) and the chart's legend.
    assert plain(page.inner_text("table.summary tbody tr.mine th")) == "Bea (you)"
    assert page.locator("table.summary tbody tr.mine").count() == 1
    assert plain(page.inner_text("table.sheet thead th.mine")) == "Bea (you)"
    legend = plain(
        page.eval_on_selector_all(".chart .legend li", "els => els.map(e => e.textContent)")
    )
    assert sum("Bea (you)" in item for item in legend) == 1
    # Only the person's own name is marked.
    others = page.eval_on_selector_all(
        "table.summary tbody tr:not(.mine) th", "els => els.map(e => e.textContent)"
    )
    assert len(others) == 3 and not any("(you)" in name for name in others)
    page.locator("table.summary").scroll_into_view_if_needed()
    shoot(page, "scores-friends-own-line")
    assert not page.errors, page.errors
    page.context.close()


def test_partnership_standings_rank_the_teams(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    play_to_game_over(page, server, {"levels": ["easy"], "rules": {"partnership": True}})
    rows = standings(page)
    assert len(rows) == 2
    assert rows[0]["total"] <= rows[1]["total"]
    assert [row["value"] for row in rows] == competition_places([r["total"] for r in rows])
    ours = [row for row in rows if row["mine"]]
    assert len(ours) == 1 and ours[0]["name"].startswith("You & ")
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("path", ["/nonexistent", "/game/../../etc/passwd"])
def test_a_mistyped_address_shows_a_page_with_the_way_back(
    browser: Any, server: AppServer, path: str
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def note(message: Any) -> None:
        # The page's own 404 is expected; anything else (a blocked script or style) is not.
        if message.type == "error" and "404" not in message.text:
            errors.append(message.text)

    page.on("console", note)
    response = page.goto(server.url + path)
    assert response is not None and response.status == 404
    assert page.inner_text("h1") == "There is no page here"
    shoot(page, "not-found-phone")
    resize(page, {"width": 1366, "height": 850})
    shoot(page, "not-found-desktop")
    page.click("main a[href='/rules']")
    page.wait_for_url(f"{server.url}/rules")
    assert "How to play" in page.inner_text("h1")
    assert not errors, errors
    context.close()


#: The round-over panel's news for a made-up round: `roundSummary` from the page's own
#: module, given a state as the server sends one (only the fields it reads).
ROUND_NEWS = """async ({ names, me, partner, result, tricks, kitty, bonus }) => {
    const { roundSummary } = await import('/game/js/scores.js');
    const players = names.map((name, seat) => ({ seat, name }));
    const state = { players, results: [result], scores: result.scores, table: null,
        view: { seat: me, partner, players: names.length, decks: names.length > 5 ? 2 : 1,
            hand_number: 0, tricks, kitty_taker: kitty ? kitty[0] : null,
            kitty: kitty ? kitty[1] : [], rules: { bonus_card: bonus } } };
    const root = document.createElement('div');
    root.append(...roundSummary(state).filter(Boolean));
    return { text: root.innerText.replace(/\\s+/g, ' '), cells: [...root.querySelectorAll(
        'tbody tr')].map((tr) => [...tr.children].map((c) => { const k = c.cloneNode(true);
            k.querySelectorAll('.sr').forEach((x) => x.remove()); return k.textContent; })) };
}"""

PARTNERS = ["You", "Marisol", "Bertie", "Tamsin"]


def moon(shooter: int, choice: str) -> dict[str, Any]:
    return {"shooter": shooter, "sun": False, "moon_choice": choice, "reset": [],
            "points_taken": [0, 0, 26, 0], "scores": [0, 26, 0, 26]}  # fmt: skip


def trick(winner: int, cards: list[str]) -> dict[str, Any]:
    return {"winner": winner, "held_over": False, "carried": [],
            "plays": [[seat, card] for seat, card in enumerate(cards)]}  # fmt: skip


def test_the_round_news_names_a_team_two_queens_the_kitty_and_both_bonus_cards(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, DESKTOP)

    def news(**given: Any) -> dict[str, Any]:
        base: dict[str, Any] = {"me": 0, "partner": None, "tricks": [], "kitty": None}
        base["bonus"] = None
        answer: dict[str, Any] = plain(page.evaluate(ROUND_NEWS, {**base, **given}))
        return answer

    # Partnership Hearts: the engine names a team's moon by its first seat (here the
    # person's), though the partner took every point.
    ours = news(names=PARTNERS, partner=2, result=moon(0, "add"))["text"]
    assert "You and Bertie shot the moon" in ours and "Marisol and Tamsin take the points." in ours
    assert "Partners score together" not in ours  # the moon's news says how it scored
    no_moon = {"shooter": None, "sun": False, "moon_choice": None, "reset": [],
               "points_taken": [3, 5, 0, 18], "scores": [3, 23, 3, 23]}  # fmt: skip
    together = news(names=PARTNERS, partner=2, result=no_moon)
    assert "Partners score together" in together["text"]
    assert [row[3] for row in together["cells"]] == ["3", "5", "0", "18"]  # Points shown
    theirs = news(names=PARTNERS, partner=2, result=moon(1, "subtract"))["text"]
    assert "Marisol and Tamsin shot the moon" in theirs and "Their totals drop instead." in theirs
    alone = news(names=PARTNERS, result={**moon(2, "subtract"), "points_taken": [0, 0, 26, 0]})
    assert "Bertie shot the moon" in alone["text"]
    assert "Bertie's total drops instead." in alone["text"]
    assert "Partners" not in alone["text"]
    # Two decks: two takers of a queen each in one line; both bonus cards to one seat.
    ten = ["You", "Oskar", "Priya", "Dunstan", "Ngozi", "Felix", "Agnieszka", "Marisol",
           "Bertie", "Tamsin"]  # fmt: skip
    result = {"shooter": None, "sun": False, "moon_choice": None, "reset": [],
              "points_taken": [0] * 10, "scores": [0] * 10}  # fmt: skip
    first = ["QS", "JD", "JD", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    second = ["QS", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"]
    two = news(names=ten, result=result, tricks=[trick(4, first), trick(5, second)], bonus="JD")
    assert "Ngozi and Felix each took a queen of spades." in two["text"], two["text"]
    assert "took the queen" not in two["text"] and "both queens" not in two["text"]
    # The person first ("Felix and You each took" read at a friend's table).
    seats = [trick(5, first), trick(6, second)]
    mine = news(names=ten, me=6, result=result, tricks=seats, bonus="JD")
    assert "You and Felix each took a queen of spades." in mine["text"], mine["text"]
    # The Bonus column shows the card, as the queen's does ("yes" and "both" named none).
    assert [row[3] for row in two["cells"]][3:7] == ["–", "J♦ ×2", "–", "–"]
    # The kitty: who took it and what was in it.
    three = news(names=PARTNERS[:3], result={**result, "points_taken": [0] * 3, "scores": [0] * 3},
                 kitty=[2, ["TS"]])  # fmt: skip
    assert "Bertie took the kitty: ten of spades." in three["text"], three["text"]
    assert not page.errors


def test_a_teams_moon_is_asked_as_the_teams(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, DESKTOP)
    words = plain(
        page.evaluate(
            """async (names) => {
            const { overlayPanel } = await import('/game/js/panels.js');
            const panel = (partner) => overlayPanel({ phase: 'moon-choice', moon_pending: 0,
                moon_stake: 26, players: names.map((name, seat) => ({ seat, name })),
                scores: [10, 20, 30, 40], results: [], table: null,
                view: { seat: 0, partner, decks: 1, rules: { target_score: 100 } } },
                [], { moon: () => {} }).innerText.replace(/\\s+/g, ' ');
            const sun = overlayPanel({ phase: 'moon-choice', moon_pending: 0, moon_stake: 52,
                players: names.map((name, seat) => ({ seat, name })), scores: [0, 0, 0, 0],
                results: [], table: null, view: { seat: 0, partner: null, decks: 1,
                round_points: 26, rules: { target_score: 100 } } }, [], { moon: () => {} })
                .innerText.replace(/\\s+/g, ' ');
            // Omnibus: the team that did not shoot took the J♦, so "give" scores it 16 each.
            // Marisol took the J♦ on a trick held over and taken by her next trick.
            const tricks = [
                { leader: 0, plays: [[0, '2C'], [1, 'JD'], [2, '3C'], [3, '4C']], winner: 0,
                  carried: [], held_over: true },
                { leader: 0, plays: [[0, '5C'], [1, 'AC'], [2, '6C'], [3, '7C']], winner: 1,
                  carried: ['2C', 'JD', '3C', '4C'], held_over: false }];
            const omnibus = (pending, add, subtract) => overlayPanel({ phase: 'moon-choice',
                moon_pending: pending, moon_stake: 26, moon_scores: { add, subtract },
                players: names.map((name, seat) => ({ seat, name })), scores: [0, 0, 0, 0],
                results: [], table: null, view: { seat: 0, partner: 2, decks: 1, tricks,
                round_points: 26, rules: { target_score: 100, bonus_card: 'JD' } } },
                [], { moon: () => {} }).innerText.replace(/\\s+/g, ' ');
            return [panel(2), panel(null), sun,
                omnibus(0, [0, 16, 0, 16], [-26, -10, -26, -10]),
                omnibus(1, [16, 0, 16, 0], [-10, -26, -10, -26])];
        }""",
            PARTNERS,
        )
    )
    team, alone, sun, omnibus, waiting = words
    # Who took the bonus card, and the choices in the buttons' order (taken off first).
    scored = (
        "The jack of diamonds counts too (Marisol took it): taking 26 off scores You −26, "
        "Marisol −10, Bertie −26, Tamsin −10; giving 26 scores You 0, Marisol +16, Bertie 0, "
        "Tamsin +16."
    )
    assert "Give Marisol and Tamsin 26 each" in omnibus and scored in omnibus, omnibus
    assert omnibus.index("Take 26 off") < omnibus.index("Give Marisol")
    assert (
        "The jack of diamonds counts too (Marisol took it): taking 26 off scores You −10, "
        "Marisol −26, Bertie −10, Tamsin −26; giving 26 scores You +16, Marisol 0, Bertie +16, "
        "Tamsin 0."
    ) in waiting, waiting
    assert "jack of diamonds" not in team + alone + sun
    # Every trick (the sun played): a sun, not a moon.
    assert "You shot the sun!" in sun and "Every trick is yours." in sun
    assert "Take 52 off my total" in sun
    assert "Your team shot the moon!" in team and "Between you and Bertie" in team
    assert "Take 26 off our totals" in team and "Give Marisol and Tamsin 26 each" in team
    assert "You shot the moon!" in alone and "Take 26 off my total" in alone
    assert "Give everyone else 26" in alone
    assert not page.errors


def test_the_win_line_puts_the_person_first_and_a_wait_says_what_is_at_stake(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, DESKTOP)
    words = plain(
        page.evaluate(
            """async (names) => {
            const { winnerLine } = await import('/game/js/scores.js');
            const { overlayPanel } = await import('/game/js/panels.js');
            const players = names.map((name, seat) => ({ seat, name }));
            const won = (me, winners) => winnerLine({ players, winners, view: { seat: me } });
            const waiting = (me, partner, stake) => overlayPanel({ phase: 'moon-choice',
                moon_pending: 0, moon_stake: stake, players, scores: [0, 0, 0, 0],
                results: [], table: null, view: { seat: me, partner, decks: 1,
                round_points: 26, rules: { target_score: 100 } } }, [], {})
                .innerText.replace(/\\s+/g, ' ');
            return {
                partnerWins: won(2, [0, 2]), threeShare: won(3, [1, 2, 3]), alone: won(0, [0]),
                other: won(0, [1]), others: won(0, [1, 2]),
                partnerWaits: waiting(2, 0, 52), rivalWaits: waiting(1, 3, 26),
                plainWait: waiting(1, null, 26),
            };
        }""",
            ["Ana", "Ben", "Cy", "Dot"],
        )
    )
    # "Ana and You share the win" was the words at a friend's screen.
    assert words["partnerWins"] == "You and Ana share the win."
    assert words["threeShare"] == "You, Ben and Cy share the win."
    assert words["alone"] == "You win!" and words["other"] == "Ben wins."
    assert words["others"] == "Ben and Cy share the win."
    # The partner of the one who chooses: the team's moon (here a sun), and what is at stake.
    assert "Your team shot the sun" in words["partnerWaits"]
    assert (
        "Ana chooses how it scores: 52 off your team's totals, or 52 to each of the others."
        in words["partnerWaits"]
    )
    assert "Ana's team shot the moon" in words["rivalWaits"]
    assert "26 off their team's totals, or 26 to each of you" in words["rivalWaits"]
    assert "Ana shot the moon" in words["plainWait"]
    assert "26 off their total, or 26 to everyone else" in words["plainWait"]
    assert not page.errors


def test_a_moons_choice_at_a_timed_table_says_the_seconds_left(
    browser: Any, server: AppServer
) -> None:
    # The panel covers the chooser's own clock at the seat: the seconds are said in it, to
    # the chooser and to those waiting.
    page = open_page(browser, server, DESKTOP)
    lines = plain(
        page.evaluate(
            """async (names) => {
            const { overlayPanel } = await import('/game/js/panels.js');
            const { TurnClock } = await import('/game/js/friends.js');
            const now = Date.now() / 1000;
            const players = names.map((name, seat) => ({ seat, name, person: seat < 2 }));
            const timer = (me, turnTime) => {
                const state = { phase: 'moon-choice', moon_pending: 0, moon_stake: 26,
                    players, scores: [0, 0, 0, 0], results: [],
                    table: { friends: true, started: true, turn_time: turnTime,
                             deadline: now + 20, now, received: now, waiting_on: [0] },
                    view: { seat: me, partner: null, decks: 1, round_points: 26,
                            rules: { target_score: 100 } } };
                const root = document.createElement('div');
                root.append(overlayPanel(state, [], { moon: () => {} }));
                document.body.append(root);
                const clock = new TurnClock(root);
                clock.set(state);
                const line = root.querySelector('[data-timer]');
                const said = line && !line.hidden ? line.textContent : null;
                clock.set(null);  // stops its interval
                root.remove();
                return said;
            };
            return { chooser: timer(0, 30), waiting: timer(1, 30), untimed: timer(1, 0) };
        }""",
            ["Ana", "Ben", "Cy", "Dot"],
        )
    )
    assert lines["chooser"] == "20 s left to choose: then a computer player chooses for you."
    assert lines["waiting"] == "Ana has 20 s left to choose."
    assert lines["untimed"] is None
    assert not page.errors


def test_an_away_seat_never_shows_the_connected_dot(browser: Any, server: AppServer) -> None:
    # Gone past the hold time while the last heartbeat still counted as connected: "Away"
    # beside a green dot.
    page = open_page(browser, server, DESKTOP)
    dots = page.evaluate(
        """async () => {
            const { seatSigns } = await import('/game/js/friends.js');
            const state = (away) => ({ table: { friends: true }, players: [
                { seat: 0, person: true, connected: true, away: false },
                { seat: 1, person: true, connected: true, away } ] });
            const dot = (away) => seatSigns(state(away), 1).querySelector('.live-dot')
                .dataset.connected;
            return [dot(false), dot(true)];
        }"""
    )
    assert dots == ["true", "false"]
    assert not page.errors


def test_only_a_friend_whose_page_closed_is_said_not_here(browser: Any, server: AppServer) -> None:
    # A closed page showed only a grey dot: "Not here" is said in words, and nowhere else
    # (someone reconnecting or away has their own words, and a computer player or the
    # person reading never leaves); the status line says what happens on their turn. Only
    # once the page has stayed closed a while: a reload is back before it.
    page = open_page(browser, server, DESKTOP)
    said = page.evaluate(
        """async () => {
            const { GONE_AFTER_MS, goneTurnLine, noteClosed, seatSigns } =
                await import('/game/js/friends.js');
            const seat = (more) => ({ seat: 1, name: 'Bo', person: true, connected: false,
                away: false, reconnecting: false, ...more });
            const state = (more, table = {}, id = 'g') => ({ id,
                table: { friends: true, ...table }, view: { seat: 0 },
                players: [{ seat: 0, name: 'Cy', person: true, connected: true }, seat(more)] });
            const badge = (more, id = 'g') => seatSigns(state(more, {}, id), 1)
                .querySelector('.badge')?.textContent ?? null;
            // Closed a moment ago (a reload): not said yet, and when it would be.
            const due = noteClosed(state({}, {}, 'fresh'));
            const early = badge({}, 'fresh');
            // Back, then closed again: counted anew.
            noteClosed(state({}, {}, 'again'), Date.now() - GONE_AFTER_MS);
            noteClosed(state({ connected: true }, {}, 'again'));
            noteClosed(state({}, {}, 'again'));
            const again = badge({}, 'again');
            // Closed for long enough.
            noteClosed(state({}), Date.now() - GONE_AFTER_MS);
            const closed = badge({});
            // Another game opened: the last one's closed pages are forgotten, not kept.
            noteClosed(state({}, {}, 'next'));
            const forgotten = badge({});
            noteClosed(state({}), Date.now() - GONE_AFTER_MS);
            return {
                early, again, soon: due > 0 && due <= GONE_AFTER_MS, closed, forgotten,
                here: badge({ connected: true }),
                reconnecting: badge({ reconnecting: true }), away: badge({ away: true }),
                computer: badge({ person: false }),
                me: seatSigns({ ...state({}), view: { seat: 1 } }, 1).querySelector('.badge'),
                timed: goneTurnLine(state({}, { turn_time: 30, hold_time: 120 }), 1),
                untimed: goneTurnLine(state({}, { turn_time: null, hold_time: 120 }), 1),
                short: goneTurnLine(state({}, { turn_time: null, hold_time: 45 }), 1),
            };
        }"""
    )
    assert said == {
        "early": None,
        "again": None,
        "soon": True,
        "closed": "Not here",
        "forgotten": None,
        "here": None,
        "reconnecting": "Reconnecting…",
        "away": "Away",
        "computer": None,
        "me": None,
        "timed": "\u2068Bo\u2069 is not here: when time is up, a computer player plays for them.",
        "untimed": "\u2068Bo\u2069 is not here: a computer player plays for them within 2 minutes"
        " unless they come back.",
        "short": "\u2068Bo\u2069 is not here: a computer player plays for them within 45 seconds"
        " unless they come back.",
    }
    assert not page.errors


def test_a_characters_lines_come_in_turn_round_by_round(browser: Any, server: AppServer) -> None:
    # Bertie said "Light as a sponge." at the end of every clean round.
    page = open_page(browser, server, DESKTOP)
    said = page.evaluate(
        """async () => {
            const { quipLine } = await import('/game/js/words.js');
            const options = await (await fetch('/api/options')).json();
            const lines = options.opponents.find((o) => o.id === 'bertie').quips.clean;
            return { rounds: [0, 1, 2, 3].map((round) => quipLine(lines, round, 0)),
                     seats: [quipLine(lines, 0, 0), quipLine(lines, 0, 1)], lines };
        }"""
    )
    assert said["rounds"][:3] == said["lines"] and said["rounds"][3] == said["lines"][0]
    assert said["seats"][0] != said["seats"][1]
    assert not page.errors, page.errors
    page.context.close()


def test_a_tie_played_on_past_the_target_is_said_on_the_round_panel(
    browser: Any, server: AppServer
) -> None:
    # A game to 1 with ties played on: someone reaches it in the first round, and at ten
    # seats some always take nothing and tie at 0 (else the game ends: dealt again).
    page = open_page(browser, server, DESKTOP)
    rules = {"players": 10, "target_score": 1, "tie_rule": "play-on"}
    for _ in range(5):
        made = create_by_page(page, {"levels": ["easy"], "rules": rules})
        state = page.evaluate(PLAY_BY_API, {"id": made["id"], "last": True})
        page.goto(server.url + "/?speed=instant#play")
        page.reload()
        page.wait_for_selector(f"{TABLE}[data-phase=playing] [data-card][data-legal=true]")
        page.click("[data-region=hand] [data-card][data-legal=true]")
        page.wait_for_selector(f"{TABLE}[data-phase=round-over], {TABLE}[data-phase=game-over]")
        state = page.evaluate(f"fetch('/api/games/{made['id']}').then((r) => r.json())")
        if state["phase"] == "round-over":
            break
        assert state["play_on"] is None  # the lowest alone: the game ended, nothing to say
    assert state["phase"] == "round-over", "no tie at 0 in five games of ten seats"
    scores, on = state["scores"], state["play_on"]
    names = [p["name"] for p in state["players"]]
    low = min(scores)
    assert on["tied"] == [s for s, total in enumerate(scores) if total == low]
    assert on["reached"] == [s for s, total in enumerate(scores) if total >= 1]
    said = plain(page.inner_text("[data-region=play-on]"))

    def who(seats: list[int]) -> str:
        words = ["You" if s == 0 else names[s] for s in seats]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    has = "has" if len(on["reached"]) == 1 and on["reached"] != [0] else "have"
    assert said == (
        f"{who(on['reached'])} {has} reached the target of 1, but {who(on['tied'])} are tied "
        f"for the lowest total ({low}). With ties played on, the game goes on until one "
        "player alone has the lowest."
    )
    # Among the panel's news, which a screen reader is given with it.
    described = page.get_attribute("[role=dialog][aria-labelledby=round-title]", "aria-describedby")
    line_id = page.get_attribute("[data-region=play-on]", "id")
    assert line_id and line_id in (described or "").split()
    for view, size in (("phone", PHONE), ("landscape", {"width": 844, "height": 390}),
                       ("desktop", {"width": 1280, "height": 800})):  # fmt: skip
        resize(page, size)
        page.locator("[data-region=play-on]").scroll_into_view_if_needed()
        shoot(page, f"scores-play-on-{view}")
    assert not page.errors, page.errors
    page.context.close()


def test_a_round_with_no_pass_is_a_keep_round_in_the_game_too(
    browser: Any, server: AppServer
) -> None:
    # The top bar said "No pass" and its title "No passing: keep your cards", where the start
    # screen, the scorekeeper, the sheets and the terminal say "keep".
    page = open_page(browser, server, DESKTOP)
    said = page.evaluate(
        """async () => {
          const w = await import('/game/js/words.js');
          return [w.directionPhrase('hold'), w.directionShort('hold')];
        }"""
    )
    assert said == ["A keep round: nobody passes", "Keep round"]
    assert not page.errors, page.errors
    page.context.close()


def test_a_table_that_never_passes_says_no_passing_not_keep_round(
    browser: Any, server: AppServer
) -> None:
    # Tables of six and more never pass: the top bar said "Keep round" round after round and
    # the table "A keep round", as if the next round would pass. They say "No passing"; a
    # table with a cycle of passes still calls its round without one a keep round.
    page = open_page(browser, server, DESKTOP)
    never = page.evaluate(
        """async () => {
          const w = await import('/game/js/words.js');
          return [['hold'], ['left', 'right', 'across', 'hold'], ['left', 'right'], []]
            .map((cycle) => w.neverPasses({ pass_cycle: cycle }));
        }"""
    )
    assert never == [True, False, False, False]
    body = {"rules": {"players": 8}, "name": "Ann", "seats": ["you", *["easy"] * 7]}
    state = create_by_page(page, body)
    assert state["view"]["rules"]["pass_cycle"] == ["hold"]  # the big tables' own rule
    page.goto(f"{server.url}/?table={state['id']}&speed=instant")
    page.wait_for_selector("#game[data-phase=playing]")
    assert plain(page.inner_text(".round-pass")) == ("No passing")
    assert plain(page.inner_text("[data-region=message]")) == (
        "No passing at this table: everyone plays the cards dealt."
    )
    assert not page.errors, page.errors
    page.context.close()


#: Every line of words in the element `selector` finds, as drawn: its text, its ink and the
#: colour behind it ([r, g, b], the see-through layers behind it blended), and whether it is
#: large (WCAG: 24 px, or 18.66 px bold), which needs 3:1 where other text needs 4.5:1.
INKS = """(selector) => {
    const rgba = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
    const behind = (el) => {
        const layers = [];
        for (let e = el; e; e = e.parentElement) {
            const [r, g, b, a = 1] = rgba(getComputedStyle(e).backgroundColor);
            if (a > 0) layers.push([r, g, b, a]);
            if (a >= 1) break;
        }
        return layers.reverse().reduce((out, [r, g, b, a]) =>
            [r, g, b].map((v, i) => out[i] * (1 - a) + v * a), [255, 255, 255]);
    };
    return [...document.querySelector(selector).querySelectorAll('*')].filter((el) => {
        const words = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        const box = el.getBoundingClientRect();
        return words && !el.closest('svg') && box.width > 1 && box.height > 1
            && parseFloat(getComputedStyle(el).fontSize) > 0;
    }).map((el) => {
        const style = getComputedStyle(el);
        const size = parseFloat(style.fontSize);
        return [el.textContent.trim().slice(0, 40), rgba(style.color).slice(0, 3), behind(el),
            size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)];
    });
}"""


@pytest.mark.parametrize(
    ("system", "chosen", "dark"),
    [
        ("dark", None, True),
        ("light", "dark", True),
        ("dark", "light", False),
        ("light", None, False),
    ],
)
def test_the_panels_over_the_table_follow_the_light_or_dark_look(
    browser: Any, server: AppServer, system: str, chosen: str | None, dark: bool
) -> None:
    # Dark, as the system says or as chosen on the start screen, the round's and the game's
    # panels stayed cream: a glare at night. They follow the look, and every word on them
    # stays readable (4.5:1; 3:1 for large text).
    context = browser.new_context(viewport=PHONE, color_scheme=system)
    page = context.new_page()
    page.goto(f"{server.url}/?speed=instant")
    if chosen:
        page.evaluate("(theme) => localStorage.setItem('hearts.theme', theme)", chosen)
    play_to_game_over(page, server, {"levels": ["easy"]})
    for selector in (".sheet-panel", "dialog[open]"):
        if selector == "dialog[open]":
            page.click("[data-action=scores]")
        ground = page.eval_on_selector(
            selector, "el => getComputedStyle(el).backgroundColor.match(/\\d+/g).map(Number)"
        )[:3]
        # Against the darkest ink on the page: dark ground and light words, or the reverse.
        assert (contrast(ground, [0, 0, 0]) < 3) == dark, (selector, ground)
        inks = page.evaluate(INKS, selector)
        assert len(inks) > 10, inks
        low = [
            (text, round(contrast(ink, paper), 2))
            for text, ink, paper, large in inks
            if contrast(ink, paper) < (3 if large else 4.5)
        ]
        assert not low, (selector, low)
        # The shades at a wide sheet's edges are the ground's colour: in the dark dialog
        # they were the light panel's cream, over the first and last columns.
        covers = page.eval_on_selector_all(
            f"{selector} .sheet-scroll",
            "els => els.map((el) => getComputedStyle(el).backgroundImage"
            ".match(/rgba?\\([^)]*\\)/)[0].match(/\\d+/g).slice(0, 3).map(Number))",
        )
        assert covers and all(cover == ground for cover in covers), (selector, covers, ground)
    # The chart follows the look too (white, it glared in the dark), its lines at 3:1 and
    # its words at 4.5:1 on its ground.
    chart = page.eval_on_selector(
        "dialog[open] .chart svg",
        """svg => {
            const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
            const style = (el) => getComputedStyle(el);
            return { ground: rgb(style(svg).backgroundColor),
                     lines: [...svg.querySelectorAll('.series polyline')].map(
                         (p) => rgb(style(p).stroke)),
                     words: [...svg.querySelectorAll('text')].map((t) => rgb(style(t).fill)) };
        }""",
    )
    assert (contrast(chart["ground"], [0, 0, 0]) < 3) == dark, chart
    assert chart["lines"] and chart["words"], chart
    assert all(contrast(line, chart["ground"]) >= 3 for line in chart["lines"]), chart
    assert all(contrast(word, chart["ground"]) >= 4.5 for word in chart["words"]), chart
    shoot(page, f"game-over-{system}-{chosen or 'system'}-phone")
    context.close()
