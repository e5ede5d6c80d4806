"""Issue 12: friends at one table, in separate browser contexts on one live server.

Each person is a browser context of their own (their own cookie), as on separate machines.
The host seats people on the start screen ("Invite friends"), friends open the invite link
and give a name, and everyone plays a whole round: each person sees the others' cards
without reloading (the event stream), a context closed mid-trick and opened again from the
link continues in its seat, and a person who stops playing is played for after the turn
time and takes the seat back. Screenshots go to HEARTS_SCREENSHOT_DIR when it is set.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from test_web_game_browser import TABLE, shoot

from hearts.rules import MAX_PLAYERS, MIN_PLAYERS
from hearts.web.app import create_app
from hearts.web.characters import OPPONENTS
from hearts.web.service import START_GRACE
from hearts.web.settings import Settings

from browser_support import PHONE, AppServer, LiveServer, box, create_by_page, plain, resize, spills

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 800}
LANDSCAPE = {"width": 844, "height": 390}
WIDE = {"width": 1280, "height": 800}

# What a person could do now, or "" (nothing: not their turn, or the page is busy).
READY = """() => {
    const table = document.querySelector('#game');
    if (table.hidden || table.dataset.animating || table.dataset.busy) return '';
    const p = table.dataset.phase;
    if (p === 'playing') return document.querySelector('[data-card][data-legal=true]') ? p : '';
    if (p === 'passing') return document.querySelector('[data-action=pass]') ? p : '';
    return p;
}"""

SETTLED = """(move) => {
    const table = document.querySelector('#game');
    return !table.hidden && !table.dataset.busy && !table.dataset.animating
        && Number(table.dataset.move) >= move;
}"""


@dataclass
class Person:
    name: str
    context: Any
    page: Any

    @property
    def seat(self) -> int:
        return int(self.page.get_attribute("[data-region=me]", "data-seat"))

    def move(self) -> int:
        return int(self.page.get_attribute(TABLE, "data-move"))


def new_page(context: Any) -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def person(browser: Any, name: str, viewport: dict[str, int], storage: Any = None) -> Person:
    context = browser.new_context(viewport=viewport, storage_state=storage)
    return Person(name, context, new_page(context))


def with_speed(link: str) -> str:
    """The invite link, with the instant speed asked for this visit (before the #invite)."""
    address, _, fragment = link.partition("#")
    return f"{address}&speed=instant#{fragment}"


VIEWS = {"phone": PHONE, "phone-landscape": LANDSCAPE, "desktop": DESKTOP}


def shoot_views(page: Any, name: str) -> None:
    """Screenshots at the phone, the phone held sideways and the desktop, then back."""
    if not os.environ.get("HEARTS_SCREENSHOT_DIR"):
        return
    before = page.viewport_size
    for view, size in VIEWS.items():
        resize(page, size)
        shoot(page, f"{name}-{view}")
    resize(page, before)


def host_table(
    host: Person, server: AppServer, players: int, friends: list[int], shot: str = ""
) -> str:
    """Seat people on the start screen: seats `friends` (counted from the host's left) are
    friends, the others computer players. Returns the invite link the lobby shows."""
    page = host.page
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.click(f"[data-players='{players}']")
    page.click("[data-region=invite] summary")
    page.fill("#host-name", host.name)
    for row in range(1, players):
        choice = "friend" if row in friends else "medium"
        page.click(f"input[name=invite-seat-{row}][value={choice}] + span")
    page.click("input[name=invite-time][value='60'] + span")
    if shot:
        page.locator("[data-region=invite]").scroll_into_view_if_needed()
        shoot_views(page, shot)
    page.click("[data-action=invite]")
    page.wait_for_selector("body[data-screen=lobby] [data-region=invite-link]")
    link: str = page.input_value("[data-region=invite-link]")
    assert link.startswith(server.url + "/?table="), link
    assert "#invite=" in link
    return link


def join(friend: Person, link: str, shot: str = "") -> None:
    page = friend.page
    refused: list[str] = []

    def note(response: Any) -> None:
        if response.status >= 400:
            refused.append(f"{response.status} {response.url}")

    page.on("response", note)
    page.goto(with_speed(link))
    page.wait_for_selector("#join-name")
    # The table is described before the name is asked, and nothing was refused on the way
    # (a browser's console shows every refused request as an error).
    assert page.inner_text("[data-region=join-table]").startswith("A table of ")
    assert not refused, refused
    # The name box's example is nobody's at the table already ("e.g. Ann" when Ann invites).
    example = (page.get_attribute("#join-name", "placeholder") or "").removeprefix("e.g. ")
    assert example and example not in page.inner_text("[data-region=join-table]")
    # A name someone at the table has already is refused before it is sent, once, under the box.
    said = plain(page.inner_text("[data-region=join-table]"))
    host = re.split(r", | and ", said.split(": ", 1)[1])[0]
    page.fill("#join-name", host.upper())
    page.click("[data-action=join]")
    # The one seated named as they are called, not as typed.
    assert plain(page.inner_text(".name-note")).startswith(
        f"Someone at this table is called {host} already"
    )
    assert page.locator("[data-region=join-error]").is_hidden()
    assert page.locator("body[data-screen=lobby], body[data-screen=table]").count() == 0
    page.fill("#join-name", friend.name)
    if shot:
        shoot_views(page, shot)
    page.click("[data-action=join]")
    page.wait_for_selector("body[data-screen=lobby], body[data-screen=table]")


def hand(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "[data-region=hand] [data-card]", "els => els.map(e => e.dataset.key || e.dataset.card)"
    )
    return cards


def pass_last_three(page: Any) -> None:
    for key in hand(page)[-3:]:
        page.click(f"[data-region=hand] [data-key='{key}']")
    page.click("[data-action=pass]")


def settle(people: list[Person], move: int) -> None:
    """Every page shows move `move` or later, with nothing in flight, and none reloaded."""
    for someone in people:
        someone.page.wait_for_function(SETTLED, arg=move, timeout=15000)


def play_round(people: list[Person], on_trick: Any = None) -> dict[str, int]:
    """Each person passes and plays when it is their turn, until the round is over on every
    page. After each card, every other page shows it without reloading. Returns how often
    each person watched another's card on the table."""
    watched = {p.name: 0 for p in people}
    plays = 0
    for _ in range(3000):
        phases = [p.page.get_attribute(TABLE, "data-phase") for p in people]
        if all(ph in ("round-over", "game-over") for ph in phases):
            break
        acted = False
        for someone in people:
            page = someone.page
            now = page.evaluate(READY)
            if now == "passing":
                pass_last_three(page)
                acted = True
            elif now == "playing":
                seat = someone.seat
                card = page.get_attribute("[data-card][data-legal=true]", "data-card")
                page.click(f"[data-card='{card}'][data-legal=true]")
                page.wait_for_function(SETTLED, arg=0)
                move = someone.move()
                others = [p for p in people if p is not someone]
                settle(others, move)
                slot = f".trick .slot[data-seat='{seat}'] [data-played='{card}']"
                if page.locator(slot).count():
                    # Still on the table here (a person plays next): on every page too.
                    for other in others:
                        assert other.page.locator(slot).count() == 1, (other.name, card)
                        watched[other.name] += 1
                plays += 1
                if on_trick:
                    on_trick(someone, plays)
                acted = True
        if not acted:
            time.sleep(0.05)
    else:
        raise AssertionError("the round did not end")
    return watched


def no_reload(people: list[Person]) -> None:
    for someone in people:
        assert someone.page.evaluate("window.__stayed === true"), f"{someone.name}'s page reloaded"
        assert not someone.page.errors, someone.page.errors


def mark_stay(people: list[Person]) -> None:
    for someone in people:
        someone.page.evaluate("window.__stayed = true")


def test_the_lobby_takes_the_focus_from_invite_without_waiting_for_the_stream(
    browser: Any, server: AppServer
) -> None:
    # The Invite button kept the focus until the browser noticed the start screen hidden; the
    # heading got it only when the stream's first news redrew the lobby after that (a race
    # seen under load). With the stream held back, the focus must be there all the same.
    ann = person(browser, "Ann", DESKTOP)
    ann.page.route("**/events*", lambda route: None)  # never answered
    host_table(ann, server, 4, friends=[2])
    assert ann.page.evaluate("() => document.activeElement.textContent") == "Your table"
    # The open seat says who takes it if nobody comes (it said "Open" twice over), by name.
    open_seat = ann.page.inner_text("[data-open=true] .level")
    assert stand_in_named(open_seat) in {o["name"] for o in OPPONENTS}, open_seat
    ann.context.close()


FOCUSED = """() => { const el = document.activeElement;
    return el.getAttribute('data-action') || el.getAttribute('data-region') || el.tagName; }"""


def test_the_lobby_drawn_again_keeps_the_focus_and_the_copy_note(
    browser: Any, server: AppServer
) -> None:
    # The lobby is drawn anew at each piece of news. A host who had tabbed to Copy and pressed
    # it lost the focus to the heading, and "Copied." went, the moment a friend came.
    ann, bea = person(browser, "Ann", DESKTOP), person(browser, "Bea", PHONE)
    link = host_table(ann, server, 4, friends=[1, 2])
    ann.page.focus("[data-action=copy-invite]")
    ann.page.keyboard.press("Enter")
    ann.page.wait_for_function(
        "() => document.querySelector('[data-region=copy-note]').textContent !== ''"
    )
    said = ann.page.inner_text("[data-region=copy-note]")
    where = ann.page.evaluate(FOCUSED)  # Copy, or the link when there is no clipboard
    assert where in {"copy-invite", "invite-link"}, where
    join(bea, link)
    ann.page.wait_for_selector("[data-region=lobby-seats] [data-seat='1'] >> text=Bea")
    assert ann.page.evaluate(FOCUSED) == where
    assert ann.page.inner_text("[data-region=copy-note]") == said
    assert not ann.page.errors and not bea.page.errors
    for someone in (ann, bea):
        someone.context.close()


def test_copied_is_said_when_a_friend_comes_while_the_clipboard_writes(
    browser: Any, server: AppServer
) -> None:
    # A friend who came while the clipboard was still writing drew the lobby anew, and
    # "Copied." went to the note of the lobby before, no longer on the page: the host saw
    # nothing (seen as a CI failure under load).
    ann, bea = person(browser, "Ann", DESKTOP), person(browser, "Bea", PHONE)
    link = host_table(ann, server, 4, friends=[1, 2])
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    # The clipboard answers only when the test lets it, once Bea is seated.
    ann.page.evaluate(
        """() => {
        const write = navigator.clipboard.writeText.bind(navigator.clipboard);
        navigator.clipboard.writeText = (text) => new Promise((resolve, reject) => {
            window.letTheClipboardWrite = () => write(text).then(resolve, reject);
        });
    }"""
    )
    ann.page.click("[data-action=copy-invite]")
    ann.page.wait_for_function("() => typeof window.letTheClipboardWrite === 'function'")
    join(bea, link)
    ann.page.wait_for_selector("[data-region=lobby-seats] [data-seat='1'] >> text=Bea")
    ann.page.evaluate("() => window.letTheClipboardWrite()")
    ann.page.wait_for_selector("[data-region=copy-note]:has-text('Copied')", timeout=5000)
    assert ann.page.evaluate("navigator.clipboard.readText()") == link
    assert not ann.page.errors and not bea.page.errors
    for someone in (ann, bea):
        someone.context.close()


def test_a_new_tables_lobby_does_not_say_its_link_was_copied(
    browser: Any, server: AppServer
) -> None:
    # "Copied." stays said while the lobby is drawn anew, but it went on to the next table's
    # lobby as well: the host, told its link was copied, sent the last table's.
    ann = person(browser, "Ann", DESKTOP)
    first = host_table(ann, server, 4, friends=[1])
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    ann.page.click("[data-action=copy-invite]")
    ann.page.wait_for_selector("[data-region=copy-note]:has-text('Copied')")
    ann.page.click("[data-action=menu-new]")
    ann.page.click("#dialog[open] [data-action=leave-table]")  # "Leave your table?"
    ann.page.wait_for_selector("body[data-screen=setup] [data-region=invite]")
    if not ann.page.is_visible("[data-action=invite]"):
        ann.page.click("[data-region=invite] summary")
    ann.page.click("[data-action=invite]")
    ann.page.wait_for_function(
        "(first) => document.body.dataset.screen === 'lobby'"
        " && document.querySelector('[data-region=invite-link]')?.value !== first",
        arg=first,
    )
    assert ann.page.inner_text("[data-region=copy-note]") == ""
    assert not ann.page.errors
    ann.context.close()


def test_a_start_refused_stays_said_when_a_friend_comes(browser: Any, server: AppServer) -> None:
    # Start now was refused (the server away a moment) and the lobby said why; Bea came just
    # then, the lobby was drawn anew, and the sentence went before Ann could read it.
    ann, bea = person(browser, "Ann", DESKTOP), person(browser, "Bea", PHONE)
    link = host_table(ann, server, 4, friends=[1, 2])
    busy = "The game server is not answering just now: try again in a moment."
    ann.page.route("**/start", lambda route: route.fulfill(status=503, json={"detail": busy}))
    ann.page.click("[data-action=start-table]")
    error = ann.page.locator("[data-region=lobby-error]")
    error.wait_for()
    assert error.inner_text() == busy
    join(bea, link)
    ann.page.wait_for_selector("[data-region=lobby-seats] [data-seat='1'] >> text=Bea")
    assert error.is_visible() and error.inner_text() == busy
    assert ann.page.locator("body[data-screen=lobby]").count() == 1
    assert not ann.page.errors and not bea.page.errors
    for someone in (ann, bea):
        someone.context.close()


def stand_in_named(words: str) -> str:
    """The character an open seat of the lobby names as its stand-in ("Waiting for a friend;
    else Tamsin, a medium computer player")."""
    found = re.fullmatch(r"Waiting for a friend; else (.+), a medium computer player", words)
    assert found, words
    return found.group(1)


def open_seat_words(page: Any, seat: int) -> str:
    return str(page.inner_text(f"[data-region=lobby-seats] [data-seat='{seat}'] .level"))


def test_the_lobby_names_who_plays_each_open_seat_and_follows_who_comes(
    browser: Any, server: AppServer
) -> None:
    # Each open seat names the character that plays it if the table starts now; when a
    # friend takes a seat, the seats still open keep theirs (characters go by seat: once
    # they were dealt out in seat order, and a seat's name changed as friends came), on the
    # host's page and the friend's, and the table started seats the character the lobby named.
    ann, bea = person(browser, "Ann", DESKTOP), person(browser, "Bea", PHONE)
    link = host_table(ann, server, 4, friends=[1, 2])
    game = link.split("table=", 1)[1].split("#", 1)[0].split("&", 1)[0]
    first, second = (stand_in_named(open_seat_words(ann.page, seat)) for seat in (1, 2))
    assert first != second and {first, second} <= {o["name"] for o in OPPONENTS}
    shoot_views(ann.page, "lobby-stand-ins-before")
    join(bea, link)
    ann.page.wait_for_selector("[data-region=lobby-seats] [data-seat='1'] >> text=Bea")
    bea.page.wait_for_selector("[data-region=lobby-seats] [data-seat='1'] >> text=Bea")
    # The seat still open names the character it named before Bea came.
    assert stand_in_named(open_seat_words(ann.page, 2)) == second
    assert stand_in_named(open_seat_words(bea.page, 2)) == second
    shoot_views(ann.page, "lobby-stand-ins-after")
    shoot_views(bea.page, "lobby-stand-ins-friend")
    ann.page.click("[data-action=start-table]")
    ann.page.wait_for_selector(f"{TABLE} [data-card]", timeout=15000)
    players = ann.page.request.get(f"{server.url}/api/games/{game}").json()["players"]
    assert (players[2]["name"], players[2]["person"]) == (second, False)
    assert not ann.page.errors and not bea.page.errors
    for someone in (ann, bea):
        someone.context.close()


def seat_kind(page: Any, seat: int, where: str = "[data-region=lobby-seats] ") -> str:
    """The words under the name at `seat` (in the lobby, or `where` is the table's seats:
    f"{TABLE} .seat"): "Host", "Friend", "Computer · easy"."""
    return str(plain(page.inner_text(f"{where}[data-seat='{seat}'] .level")))


# The lobby drawn from the table's state with one change to a seat's player (and to the
# table, if given), on a page of its own (not the page's lobby): the words under that seat's
# name.
LOBBY_WITH = """async ([game, seat, change, table]) => {
    const { renderLobby } = await import('/game/js/lobby.js');
    const options = await (await fetch('/api/options')).json();
    const state = await (await fetch(`/api/games/${game}`)).json();
    Object.assign(state.players[seat], change);
    Object.assign(state.table, table || {});
    const root = document.createElement('div');
    renderLobby(root, state, options, { start: () => {} });
    return root.querySelector(`[data-seat='${seat}'] .level`).textContent;
}"""


def test_a_friend_is_called_a_friend_in_the_lobby_and_at_the_table(
    browser: Any, server: AppServer
) -> None:
    # The line under a friend's name said "Person" ("Person · not connected"): cold, as if
    # read off a form. A friend is "Friend" to everyone else, in the lobby and at the table,
    # in each state the lobby tells. Who made the table, and starts it, is the "Host" (the
    # others read "Waiting for the host to start"). The person's own seat, its name marked
    # "(you)", says what the others read there (it said "You" under "Bea (you)").
    ann, bea = person(browser, "Ann", DESKTOP), person(browser, "Bea", PHONE)
    link = host_table(ann, server, 4, friends=[1, 2])
    game = link.split("table=", 1)[1].split("#", 1)[0].split("&", 1)[0]
    join(bea, link)
    ann.page.wait_for_selector("[data-region=lobby-seats] [data-seat='1'] >> text=Bea")
    assert [seat_kind(ann.page, 0), seat_kind(ann.page, 1)] == ["Host", "Friend"]
    assert [seat_kind(bea.page, 0), seat_kind(bea.page, 1)] == ["Host", "Friend"]
    told = {
        "not connected": {"connected": False},
        "reconnecting": {"reconnecting": True},
        "not here yet": {"away": True},
    }
    said = {key: ann.page.evaluate(LOBBY_WITH, [game, 1, change]) for key, change in told.items()}
    assert said == {
        "not connected": "Friend · not connected",
        "reconnecting": "Friend · reconnecting…",
        "not here yet": "Friend · not here yet",
    }, said
    host = bea.page.evaluate(LOBBY_WITH, [game, 0, {"connected": False}])
    assert host == "Host · not connected", host
    # A rematch has no host: anyone there may start it.
    rematch = bea.page.evaluate(LOBBY_WITH, [game, 0, {}, {"rematch_of": "the-last-game"}])
    assert rematch == "Friend", rematch
    ann.page.click("[data-action=start-table]")
    for someone in (ann, bea):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    # At the table, under each name (the person's own seat shows no such line).
    assert seat_kind(ann.page, 1, f"{TABLE} .seat") == "Friend"
    assert seat_kind(bea.page, 0, f"{TABLE} .seat") == "Friend"
    assert not ann.page.errors and not bea.page.errors
    for someone in (ann, bea):
        someone.context.close()


def join_table_seats(players: int) -> tuple[list[str], int]:
    """A table of `players` with the host at a seat other than the first, and two friends'
    seats, the lower one at a place round the table that changes with the size (on the left,
    across, 2nd on the right...); the seats asked for, and the lower friend's seat."""
    host = players - 1 - players % 3
    others = [seat for seat in range(players) if seat != host]
    first, second = others[(players * 3) % (len(others) - 1)], others[-1]
    seats = [
        "you" if s == host else "friend" if s in (first, second) else "easy" for s in range(players)
    ]
    return seats, first


def test_the_join_page_says_where_the_friend_will_sit_from_the_host(
    browser: Any, server: AppServer
) -> None:
    # The join page's "Your seat" said nothing of the seat: where it is, the others learnt
    # in the lobby ("on your left"), the friend only once seated. It says where the link
    # seats them from the host, as the host's lobby says it of them once they have joined.
    ann = person(browser, "Ann", DESKTOP)
    said: dict[int, str] = {}
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        seats, first = join_table_seats(players)
        body = {"rules": {"players": players}, "name": "Ann", "turn_time": None, "seats": seats}
        made = table_by_api(ann, server, body)
        cal = person(browser, "Cal", PHONE)
        cal.page.goto(with_speed(f"{server.url}{made['table']['invite']}"))
        cal.page.wait_for_selector("#join-name")
        said[players] = plain(cal.page.inner_text("[data-region=join-seat]"))
        cal.page.fill("#join-name", "Cal")
        cal.page.click("[data-action=join]")
        cal.page.wait_for_selector("body[data-screen=lobby]")
        # Cal sits where the page said, the lowest friend's seat.
        assert cal.page.get_attribute(".lobby-seat.mine", "data-seat") == str(first)
        ann.page.wait_for_selector(f"[data-region=lobby-seats] [data-seat='{first}'] >> text=Cal")
        place = ann.page.inner_text(f"[data-region=lobby-seats] [data-seat='{first}'] .seat-word")
        mirrored = (
            "across from Ann" if place == "across from you" else place.replace("your", "Ann's")
        )
        assert said[players] == f"You will sit {mirrored}.", (players, said[players], place)
        assert not cal.page.errors, cal.page.errors
        cal.context.close()
    assert said[MIN_PLAYERS] == "You will sit on Ann's left.", said
    assert said[MAX_PLAYERS] == "You will sit 2nd on Ann's right.", said
    assert len(set(said.values())) >= 4, said  # the left, across and right, and the counts
    # At partners' tables, across from the host is the host's partner.
    body = {
        "rules": {"partnership": True},
        "name": "Ann",
        "turn_time": None,
        "seats": ["you", "hard", "friend", "hard"],
    }
    made = table_by_api(ann, server, body)
    bea = person(browser, "Bea", PHONE)
    bea.page.goto(with_speed(f"{server.url}{made['table']['invite']}"))
    words = plain(bea.page.inner_text("[data-region=join-seat]"))
    assert words == "You will sit across from Ann: you two are partners.", words
    assert not ann.page.errors and not bea.page.errors
    for someone in (ann, bea):
        someone.context.close()


def test_an_open_join_page_says_the_seat_it_gives_now(browser: Any, server: AppServer) -> None:
    # Two friends opened the link: both pages named the same seat, and the one who joined
    # second sat elsewhere. A join page asks the table again, every INVITATION_AGAIN_MS and
    # when it comes back into sight, and says the seat and the people seated as they are now,
    # the name typed kept; once the table is full it says so instead of asking for a name.
    ann = person(browser, "Ann", DESKTOP)
    body = {
        "rules": {"players": 5},
        "name": "Ann",
        "turn_time": None,
        "seats": ["you", "friend", "friend", "friend", "easy"],
    }
    made = table_by_api(ann, server, body)
    link = f"{server.url}{made['table']['invite']}"
    cal, dan, eve = (person(browser, name, PHONE) for name in ("Cal", "Dan", "Eve"))
    cal.page.clock.install()
    for someone in (cal, dan, eve):
        someone.page.goto(with_speed(link))
        someone.page.wait_for_selector("#join-name")
    seat = "[data-region=join-seat]"
    facts = "[data-region=join-table]"
    assert plain(cal.page.inner_text(seat)) == "You will sit on Ann's left."
    cal.page.fill("#join-name", "Dan")  # typed before Dan came
    join(dan, link)
    # Back into sight: Cal's page asks at once.
    cal.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    said_now = """(words) => document.querySelector('[data-region=join-seat]').textContent
        .replace(/[\u2066-\u2069]/g, '') === words"""  # names come in bidi isolates
    cal.page.wait_for_function(said_now, arg="You will sit 2nd on Ann's left.")
    assert "Dan" in cal.page.inner_text(facts)
    assert cal.page.input_value("#join-name") == "Dan"  # the name typed is kept
    cal.page.click("[data-action=join]")  # and now refused here, as taken
    said = plain(cal.page.inner_text("#join-name-note"))
    assert said.startswith("Someone at this table is called Dan already"), said
    assert cal.page.locator("body[data-screen=join]").count() == 1
    join(eve, link)
    # In sight all along: Cal's page asks on its clock, and says where Eve left a seat.
    cal.page.clock.fast_forward(16_000)
    cal.page.wait_for_function(said_now, arg="You will sit 2nd on Ann's right.")
    cal.page.fill("#join-name", "Cal")
    cal.page.click("[data-action=join]")
    # The last open seat taken, the game starts by itself: Cal sits where the page said.
    cal.page.wait_for_selector("body[data-screen=table]")
    seated = cal.page.evaluate(
        f"async () => (await (await fetch('/api/games/{made['id']}')).json()).view.seat"
    )
    assert seated == 3, seated
    # A page open when the last seat went says so at its next ask, with no name asked.
    late = person(browser, "Hal", PHONE)
    late.page.clock.install()
    made = table_by_api(ann, server, {**body, "seats": ["you", "friend", "easy", "easy", "easy"]})
    link = f"{server.url}{made['table']['invite']}"
    late.page.goto(with_speed(link))
    late.page.wait_for_selector("#join-name")
    gus = person(browser, "Gus", PHONE)
    join(gus, link)
    late.page.clock.fast_forward(16_000)
    error = late.page.locator("[data-region=join-error]")
    error.wait_for()
    assert plain(error.inner_text()).startswith("This table is full"), error.inner_text()
    assert late.page.locator("#join-name").count() == 0
    for someone in (ann, cal, dan, eve, late, gus):
        assert not someone.page.errors, (someone.name, someone.page.errors)
        someone.context.close()


def test_a_join_page_whose_ask_again_fails_stays_as_it_was(browser: Any, server: AppServer) -> None:
    # While it waits for a name the join page asks the table again. An ask that fails (the
    # server busy a moment, the connection lost) leaves the page as it was, the name typed
    # kept and no error said, and the next ask that gets through says the table as it is.
    ann = person(browser, "Ann", DESKTOP)
    body = {
        "rules": {"players": 5},
        "name": "Ann",
        "turn_time": None,
        "seats": ["you", "friend", "friend", "easy", "easy"],
    }
    made = table_by_api(ann, server, body)
    link = f"{server.url}{made['table']['invite']}"
    cal = person(browser, "Cal", PHONE)
    cal.page.clock.install()
    cal.page.goto(with_speed(link))
    cal.page.wait_for_selector("#join-name")
    seat = "[data-region=join-seat]"
    assert plain(cal.page.inner_text(seat)) == "You will sit on Ann's left."
    cal.page.fill("#join-name", "Cal")
    failed: list[str] = []

    def refuse(route: Any) -> None:
        if not failed:
            failed.append("busy")
            route.fulfill(status=503, content_type="application/json", body='{"detail": "Busy"}')
        else:
            failed.append("lost")
            route.abort("connectionreset")

    cal.page.route("**/invitation", refuse)
    join(person(browser, "Dan", PHONE), link)  # Dan takes the seat Cal's page names
    with cal.page.expect_event("requestfinished"):
        cal.page.clock.fast_forward(16_000)  # its clock's ask: refused
    with cal.page.expect_event("requestfailed"):
        cal.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # lost
    assert failed == ["busy", "lost"]
    assert plain(cal.page.inner_text(seat)) == "You will sit on Ann's left."
    assert cal.page.input_value("#join-name") == "Cal"
    assert cal.page.is_hidden("[data-region=join-error]")
    assert cal.page.locator("body[data-screen=join]").count() == 1
    # The server answers again: the next ask says the seat Dan left.
    cal.page.unroute("**/invitation")
    cal.page.clock.fast_forward(16_000)
    said_now = """(words) => document.querySelector('[data-region=join-seat]').textContent
        .replace(/[\u2066-\u2069]/g, '') === words"""  # names come in bidi isolates
    cal.page.wait_for_function(said_now, arg="You will sit 2nd on Ann's left.")
    assert cal.page.input_value("#join-name") == "Cal"
    cal.page.click("[data-action=join]")
    cal.page.wait_for_selector("body[data-screen=table]")
    assert not cal.page.errors and not ann.page.errors, (cal.page.errors, ann.page.errors)
    for someone in (ann, cal):
        someone.context.close()


def test_two_people_and_two_computer_players_play_a_round_live(
    browser: Any, server: AppServer
) -> None:
    ann = person(browser, "Ann", DESKTOP)
    bea = person(browser, "Bea", PHONE)
    link = host_table(ann, server, 4, friends=[2], shot="friends-invite")
    # The keyboard starts at the lobby's heading (it fell to the page with Invite gone).
    assert ann.page.evaluate("() => document.activeElement.textContent") == "Your table"
    # The lobby: the host sees the open seat, the link and Start; nobody else is seated yet.
    assert ann.page.locator("[data-open=true]").count() == 1
    assert ann.page.locator("[data-action=start-table]").is_visible()
    shoot_views(ann.page, "friends-lobby")
    # Copy puts the whole link on the clipboard and says so.
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    ann.page.click("[data-action=copy-invite]")
    ann.page.wait_for_selector("[data-region=copy-note]:has-text('Copied')")
    assert ann.page.evaluate("navigator.clipboard.readText()") == link
    join(bea, link, shot="friends-join")
    # Every friend seat is taken: the table starts by itself, for both.
    for someone in (ann, bea):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    assert ann.seat != bea.seat
    # Names are text, person and computer marked, both people connected.
    assert ann.page.locator(f".seat[data-seat='{bea.seat}'] .name").inner_text() == "Bea"
    assert ann.page.locator(f".seat[data-seat='{bea.seat}'].person").count() == 1
    assert ann.page.locator(".seat.opponent:not(.person)").count() == 2
    # Each computer player shows its own character's face beside its name (the characters
    # go to the computer seats in order, so one here sits where another would at a table
    # of one person).
    for computer in ann.page.locator(".seat.opponent:not(.person)").all():
        name = computer.locator(".name").inner_text()
        skin = next(o for o in OPPONENTS if o["name"] == name)["face"]["skin"]
        assert computer.locator(f"svg [fill='{skin}']").count() >= 1, name
    ann.page.wait_for_selector(f".seat[data-seat='{bea.seat}'] [data-connected=true]")
    mark_stay([ann, bea])

    reopened: list[bool] = []

    def close_mid_trick(someone: Person, plays: int) -> None:
        # Once, with a trick on the table: Bea's context goes away entirely and comes back
        # from the invite link with her cookie, and finds her seat, hand and the trick.
        if reopened or someone is not ann or not bea.page.locator(".trick [data-played]").count():
            return
        seat, cards, trick = (
            bea.seat,
            hand(bea.page),
            bea.page.locator(".trick [data-played]").count(),
        )
        storage = bea.context.storage_state()
        bea.context.close()
        # Ann sees her gone at once (not once her heartbeats have run out, 40 s on).
        ann.page.wait_for_selector(
            f".seat[data-seat='{seat}'] [data-connected=false]", timeout=10000
        )
        # Her stream is gone; her seat stays hers.
        again = person(browser, "Bea", PHONE, storage)
        again.page.goto(with_speed(link))
        again.page.wait_for_selector(f"{TABLE}[data-phase=playing] [data-card]")
        assert again.seat == seat
        assert hand(again.page) == cards
        assert again.page.locator(".trick [data-played]").count() >= trick
        ann.page.wait_for_selector(
            f".seat[data-seat='{seat}'] [data-connected=true]", timeout=10000
        )
        bea.context, bea.page = again.context, again.page
        bea.page.evaluate("window.__stayed = true")
        reopened.append(True)

    shots: list[bool] = []

    def picture(someone: Person, plays: int) -> None:
        if plays == 6 and not shots:
            # A reaction from Bea shows at her seat on Ann's screen, briefly.
            bea.page.click("[data-action=react]")
            shoot(bea.page, "friends-reactions-phone")
            bea.page.click("[data-reaction=nice]")
            bubble = ann.page.locator(f".seat[data-seat='{bea.seat}'] .quip")
            bubble.wait_for(state="visible", timeout=5000)
            assert "Nice one" in bubble.inner_text()
            shoot_views(ann.page, "friends-table")
            shots.append(True)

    def both(someone: Person, plays: int) -> None:
        picture(someone, plays)
        close_mid_trick(someone, plays)

    watched = play_round([ann, bea], on_trick=both)
    assert reopened, "the context was never closed mid-trick"
    assert watched["Ann"] > 0 and watched["Bea"] > 0, watched
    no_reload([ann, bea])
    # The round is over for both: the summary, and a way on for each. Ann is ready first:
    # Bea keeps her summary to read, told that Ann is waiting; Ann is told whom she waits for.
    for someone in (ann, bea):
        someone.page.wait_for_selector("[data-action=next-round]")
    ann.page.click("[data-action=next-round]")
    ann.page.wait_for_selector("[data-action=next-round][data-waiting=true]:has-text('Bea')")
    assert ann.page.is_disabled("[data-action=next-round]")
    shoot_views(ann.page, "friends-round-ready")
    bea.page.wait_for_selector("[data-region=ready-note] >> text=\u2068Ann\u2069 is ready.")
    assert bea.page.get_attribute(TABLE, "data-phase") == "round-over"
    assert bea.page.inner_text("[data-action=next-round]") == "Deal the next round"  # the last
    bea.page.click("[data-action=next-round]")
    for someone in (ann, bea):
        someone.page.wait_for_selector(f"{TABLE}:not([data-phase=round-over]) [data-card]")
    for someone in (ann, bea):
        someone.context.close()


def test_a_table_of_six_with_three_people(browser: Any, server: AppServer) -> None:
    people = [
        person(browser, name, view)
        for name, view in (("Cleo", DESKTOP), ("Dev", PHONE), ("Eli", LANDSCAPE))
    ]
    link = host_table(people[0], server, 6, friends=[1, 3])
    join(people[1], link)
    people[1].page.wait_for_selector("[data-region=waiting-host]")
    # A friend in the lobby is told the game also starts once every friend is here.
    waiting = people[1].page.inner_text("[data-region=waiting-host]")
    assert waiting.startswith("The game starts by itself once every friend's seat is taken")
    # The host sees Dev arrive in the lobby without reloading.
    people[0].page.wait_for_selector("[data-region=lobby-seats] >> text=Dev")
    join(people[2], link)
    for someone in people:
        # Six players: the round may start with a pass or, in a keep round, a lead.
        someone.page.wait_for_selector(
            f"{TABLE}:is([data-phase=passing], [data-phase=playing]) [data-card]", timeout=15000
        )
        assert someone.page.get_attribute(TABLE, "data-players") == "6"
    assert len({p.seat for p in people}) == 3
    mark_stay(people)
    watched = play_round(people)
    assert all(count > 0 for count in watched.values()), watched
    no_reload(people)
    for someone in people:
        someone.context.close()


def test_a_late_link_and_a_wrong_link_say_why(browser: Any, server: AppServer) -> None:
    host = person(browser, "Fay", DESKTOP)
    # A browser with a share sheet (a phone's): Share hands it the whole link.
    host.context.add_init_script("navigator.share = async (data) => { window.__shared = data; };")
    link = host_table(host, server, 4, friends=[1])
    host.page.click("[data-action=share-invite]")
    assert host.page.evaluate("window.__shared.url") == link
    guest = person(browser, "Gus", PHONE)
    join(guest, link)
    # The table started when Gus took the last seat: a later visitor is told at once, with
    # no name asked for; so is one whose link is wrong.
    late = person(browser, "Hal", PHONE)
    late.page.goto(with_speed(link))
    error = late.page.locator("[data-region=join-error]")
    error.wait_for()
    said = plain(error.inner_text())
    assert said.startswith("This table is full: someone took the last seat"), said
    assert said.endswith("Ask the host to start a new table for you."), said
    shoot(late.page, "join-table-full-phone")
    assert late.page.locator("#join-name").count() == 0
    wrong = person(browser, "Ivy", PHONE)
    wrong.page.goto(with_speed(link.split("#invite=")[0] + "#invite=not-the-token"))
    error = wrong.page.locator("[data-region=join-error]")
    error.wait_for()
    assert "invitation" in error.inner_text(), "a wrong invite says why"
    assert wrong.page.locator("#join-name").count() == 0
    # Gus, seated, opens the link again (a bookmark): back at his seat, nothing asked.
    again = guest.context.new_page()
    again.goto(with_speed(link))
    again.wait_for_selector("body[data-screen=table]")
    again.close()
    for someone in (host, guest, late, wrong):
        someone.context.close()


def test_a_link_opened_in_the_tab_at_its_table_is_followed(browser: Any, server: AppServer) -> None:
    # Only the part after the # differed, so the browser loaded nothing and the page went on
    # showing what it showed: the host's own link in the lobby, another link on a join page.
    host = person(browser, "Fay", DESKTOP)
    link = host_table(host, server, 4, friends=[1, 2])
    token = link.split("#invite=", 1)[1]
    guest = person(browser, "Gus", PHONE)
    guest.page.goto(with_speed(link))
    guest.page.wait_for_selector("#join-name")
    guest.page.evaluate("location.hash = '#invite=not-the-token'")
    error = guest.page.locator("[data-region=join-error]")
    error.wait_for(timeout=5000)
    assert "invitation" in error.inner_text(), error.inner_text()
    assert guest.page.locator("#join-name").count() == 0
    # A seated browser at its table (the lobby) that opens the link: still at its seat.
    host.page.evaluate(f"location.hash = '#invite={token}'")
    host.page.wait_for_selector("body[data-screen=lobby][data-live=open]")
    for someone in (host, guest):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_markup_in_a_name_is_shown_as_text(browser: Any, server: AppServer) -> None:
    host = person(browser, "Jo", DESKTOP)
    link = host_table(host, server, 5, friends=[1, 2])
    guest = person(browser, '"><svg onload=alert(1)>', PHONE)
    join(guest, link)
    host.page.wait_for_selector("[data-region=lobby-seats] >> text=svg onload=alert(1)")
    assert host.page.locator("svg[onload]").count() == 0
    assert not host.page.errors and not guest.page.errors
    host.page.click("[data-action=start-table]")
    for someone in (host, guest):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    assert host.page.locator("svg[onload]").count() == 0
    # Her seat's initial is the name's first letter, not a quote mark.
    assert host.page.locator(f".seat[data-seat='{guest.seat}'] .initial").inner_text() == "S"
    # On a phone held sideways the Pass button cuts her long name short: it ran over the
    # host's own name and clock.
    resize(host.page, LANDSCAPE)
    for key in hand(host.page)[:3]:
        host.page.click(f"[data-region=hand] [data-key='{key}']")
    squeezed = host.page.evaluate(
        """() => {
            const name = document.querySelector('[data-region=me] .name');
            const cards = [...document.querySelectorAll('[data-region=hand] [data-card]')];
            return [name.scrollWidth > name.clientWidth,
                    Math.max(...cards.map((c) => c.getBoundingClientRect().bottom)) > innerHeight];
        }"""
    )
    assert squeezed == [False, False]  # "You" whole ("Y…"), the hand on the screen
    button = box(host.page, "[data-action=pass]")
    assert button and button["height"] <= 50  # one line, not three
    # Said whole, without the cut name's box: "Pass 3 to …, on your left".
    label = plain(host.page.get_attribute("[data-action=pass]", "aria-label") or "")
    assert label.startswith('Pass 3 to "><svg onload=alert(1)>, on your ') and " ," not in label
    for someone in (host, guest):
        someone.context.close()


def test_a_person_who_stops_playing_is_played_for_and_comes_back(
    browser: Any, server: AppServer
) -> None:
    kim = person(browser, "Kim", PHONE)
    lee = person(browser, "Lee", PHONE)
    kim.page.goto(f"{server.url}/?speed=instant")
    kim.page.wait_for_selector("body[data-ready=true]")
    # A short turn time (5 s, more than the start screen offers), made through the API the
    # page uses, with the page's own cookie.
    made = kim.page.evaluate(
        """async () => {
            const r = await fetch('/api/games', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({rules: {target_score: 100}, name: 'Kim', turn_time: 5,
                    seats: ['you', 'friend', 'medium', 'medium']})});
            return [r.status, await r.json()];
        }"""
    )
    assert made[0] == 201, made
    state = made[1]
    link = f"{server.url}{state['table']['invite']}"
    kim.page.goto(f"{server.url}/?table={state['id']}&speed=instant")
    kim.page.wait_for_selector("body[data-screen=lobby]")
    join(lee, link)
    for someone in (kim, lee):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    seat = lee.seat
    # Kim passes; Lee does nothing. After the turn time a computer player passes for Lee,
    # who is still here (her page is open): that move only, and she keeps her seat.
    pass_last_three(kim.page)
    # Lee's seat shows the time left, counting down on Kim's screen.
    timer = kim.page.locator(f".seat[data-seat='{seat}'] [data-timer]")
    timer.wait_for(state="visible", timeout=5000)
    first = int(timer.inner_text().split()[0])
    kim.page.wait_for_function(
        "([sel, first]) => { const t = document.querySelector(sel);"
        " return t && !t.hidden && parseInt(t.textContent) < first; }",
        arg=[f".seat[data-seat='{seat}'] [data-timer]", first],
        timeout=5000,
    )
    assert first <= 5 + START_GRACE  # the game's first pass has a little more
    # Lee is told once that her time is short (the countdown itself is not read out).
    lee.page.wait_for_function(
        "() => document.querySelector('#log').textContent"
        ".includes('seconds left: then a computer player moves for you.')",
        timeout=5000,
    )
    lee.page.wait_for_selector(f"{TABLE}[data-phase=playing]", timeout=20000)
    lee.page.wait_for_function(
        "() => document.querySelector('[data-region=message]').textContent"
        ".startsWith('A computer player made one of your moves this round')",
        timeout=10000,
    )
    # The move was her pass: the note says which cards went (she never chose them).
    note = lee.page.inner_text("[data-region=message]")
    assert "(it passed the " in note and note.count(" of ") >= 3, note
    away = f".seat[data-seat='{seat}'] [data-away=true]"
    assert kim.page.locator(away).count() == 0
    assert lee.page.locator("[data-region=away-note]").count() == 0
    # Gone (here: left), Lee is away until she is back.
    left = lee.page.evaluate(
        f"async () => (await fetch('/api/games/{state['id']}/leave', {{method: 'POST',"
        " headers: {'Content-Type': 'application/json'}, body: '{}'})).status"
    )
    assert left == 200
    kim.page.wait_for_selector(away, timeout=20000)
    lee.page.wait_for_selector("[data-region=away-note] [data-action=back]", timeout=10000)
    shoot_views(kim.page, "friends-away")
    shoot(lee.page, "friends-away-note-phone")
    lee.page.click("[data-action=back]")
    kim.page.wait_for_selector(away, state="detached", timeout=20000)
    lee.page.wait_for_selector("[data-region=away-note]", state="detached")
    # Lee has the seat back: when Lee's turn comes, Lee plays it.
    until = time.monotonic() + 60
    while time.monotonic() < until:
        for someone in (kim, lee):
            if someone.page.evaluate(READY) == "playing":
                card = someone.page.get_attribute("[data-card][data-legal=true]", "data-card")
                someone.page.click(f"[data-card='{card}'][data-legal=true]")
                someone.page.wait_for_function(SETTLED, arg=0)
                if someone is lee:
                    break
        else:
            time.sleep(0.05)
            continue
        break
    else:
        raise AssertionError("Lee never had a turn after coming back")
    assert kim.page.locator(away).count() == 0
    for someone in (kim, lee):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_a_person_who_leaves_is_played_for_at_once_and_can_come_back(
    browser: Any, server: AppServer
) -> None:
    kim = person(browser, "Kim", PHONE)
    lee = person(browser, "Lee", PHONE)
    link = host_table(kim, server, 4, [1])
    join(lee, link)
    for someone in (kim, lee):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    seat = lee.seat
    pass_last_three(kim.page)
    # Lee taps New: the page asks first, and staying changes nothing.
    page = lee.page
    page.click("[data-action=menu-new]")
    dialog = page.locator("#dialog[open]")
    assert "Kim will see that you have gone" in plain(dialog.inner_text())
    shoot(page, "friends-leave-phone")
    page.click("[data-action=stay-at-table]")
    assert page.locator("body[data-screen=table]").count() == 1
    assert kim.page.locator(f".seat[data-seat='{seat}'] [data-away=true]").count() == 0
    # Leaving: Lee is on the start screen, the game listed as a table of friends; Kim is
    # told at once and a computer player passes for Lee (the turn time is a minute).
    page.click("[data-action=menu-new]")
    page.click("[data-action=leave-table]")
    page.wait_for_selector("body[data-screen=setup] [data-action=continue]")
    assert page.locator(".game-line [data-friends=true]").count() == 1
    shoot(page, "friends-left-start-phone")
    away = f".seat[data-seat='{seat}'] [data-away=true]"
    kim.page.wait_for_selector(away, timeout=5000)
    kim.page.wait_for_selector(f"{TABLE}[data-phase=playing]", timeout=5000)
    assert "Lee is away" in plain(kim.page.text_content("#log"))
    # The start screen only read the game: Lee is still away until Lee opens it again.
    kim.page.wait_for_timeout(500)
    assert kim.page.locator(away).count() == 1
    page.click("[data-action=continue]")
    page.wait_for_selector("body[data-screen=table]")
    kim.page.wait_for_selector(away, state="detached", timeout=10000)
    for someone in (kim, lee):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_a_friend_who_leaves_the_lobby_gives_the_seat_back(browser: Any, server: AppServer) -> None:
    # Zoë tapped New in the lobby: she went to the start screen unasked, her seat kept with
    # no way back to it ("Zoë · Friend · not connected" for the host, for good), and her
    # start screen offered to continue a game that had not started.
    ann = person(browser, "Ann", PHONE)
    zoe = person(browser, "Zoë", DESKTOP)
    link = host_table(ann, server, 4, friends=[1, 2])
    join(zoe, link)
    ann.page.wait_for_selector("[data-region=lobby-seats] >> text=Zoë")
    # A second tab of Zoë's on the lobby: once she leaves, it hears nothing more of the seat
    # (it went on showing the hand of whoever took the seat next).
    other_tab = new_page(zoe.context)
    other_tab.goto(f"{server.url}/?table={link.split('table=')[1].split('#')[0]}&speed=instant")
    other_tab.wait_for_selector("body[data-screen=lobby][data-live=open]")
    page = zoe.page
    page.click("[data-action=menu-new]")
    dialog = page.locator("#dialog[open]")
    asked = " ".join(plain(dialog.inner_text()).split())
    # In the words the table's own question uses, and what it means ("goes back to the
    # invitation" said nothing a person could picture).
    assert asked.startswith(
        "Leave the table? If you leave, your seat is open again: the link can bring someone"
        " else to it."
    ), asked
    shoot(page, "lobby-leave-ask-desktop")
    page.click("[data-action=stay-at-table]")
    assert page.locator("body[data-screen=lobby]").count() == 1
    page.click("[data-action=menu-new]")
    page.click("[data-action=leave-table]")
    # The start screen is shown once the list of unfinished games has come (showSetup).
    page.wait_for_selector("body[data-screen=setup][data-ready=true]")
    assert page.locator("[data-action=continue]").count() == 0
    other_tab.wait_for_selector("body[data-screen=setup] [data-region=join-error]", timeout=5000)
    said = plain(other_tab.inner_text("[data-region=join-error]"))
    # (it said "your seat went back to the invitation", which a person could not picture)
    assert said == (
        "You left this table on another page, so your seat is open again: the invitation's"
        " link can bring someone else to it."
    ), said
    shoot(other_tab, "lobby-left-in-another-tab-desktop")
    assert not other_tab.errors, other_tab.errors
    # The host is told, and the seat waits for a friend again.
    news = ann.page.locator("[data-region=lobby-news]")
    news.filter(has_text="left the table").wait_for(timeout=5000)
    assert plain(news.inner_text()) == "Zoë left the table."
    assert "Zoë left the table." in plain(ann.page.text_content("#log"))
    assert plain(ann.page.inner_text("[data-region=lobby-line]")) == "Waiting for 2 more friends."
    assert "Zoë" not in plain(ann.page.inner_text("[data-region=lobby-seats]"))
    shoot(ann.page, "lobby-after-zoe-left-phone")
    # The host's start screen: the table waits for friends, and no open seat is a player.
    ann.page.click("[data-action=menu-new]")
    ann.page.click("#dialog[open] [data-action=leave-table]")  # asked first (below)
    ann.page.wait_for_selector("body[data-screen=setup] [data-action=continue]")
    line = plain(ann.page.inner_text(".unfinished .game-line"))
    assert line.startswith("Waiting for friends · 4 players to "), line
    assert "\nAnn · " in line and "· 2 open seats\n" in line and "Open seat" not in line, line
    shoot(ann.page, "lobby-waiting-start-phone")
    for someone in (ann, zoe):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_a_host_who_leaves_the_lobby_is_asked_and_the_friends_are_told(
    browser: Any, server: AppServer
) -> None:
    # The host tapped New in the lobby: off to the start screen unasked, while Gus waited
    # in the lobby for a start that could not come, told nothing but "not connected".
    ann = person(browser, "Ann", PHONE)
    gus = person(browser, "Gus", LANDSCAPE)
    link = host_table(ann, server, 4, friends=[1, 3])
    join(gus, link)
    ann.page.wait_for_selector("[data-region=lobby-seats] >> text=Gus")
    waiting = gus.page.locator("[data-region=waiting-host]")
    assert plain(waiting.inner_text()).startswith("The game starts by itself once every")
    ann.page.click("[data-action=menu-new]")
    asked = " ".join(plain(ann.page.inner_text("#dialog[open]")).split())
    assert asked.startswith(
        "Leave your table? Gus will wait in the lobby, told that you have left it for now."
        " It stays on your start screen, and its link keeps working: come back to start it."
    ), asked
    shoot(ann.page, "lobby-host-leave-ask-phone")
    ann.page.click("[data-action=stay-at-table]")
    assert ann.page.locator("body[data-screen=lobby]").count() == 1
    ann.page.click("[data-action=menu-new]")
    ann.page.click("[data-action=leave-table]")
    ann.page.wait_for_selector("body[data-screen=setup] [data-action=continue]")
    waiting.filter(has_text="has left the lobby for now.").wait_for(timeout=15000)
    assert plain(waiting.inner_text()) == (
        "Ann has left the lobby for now. The game starts by itself once every friend's seat"
        " is taken, or when Ann comes back and starts it."
    )
    shoot(gus.page, "lobby-host-gone-phone-landscape")
    # Back from the start screen, the host is in the lobby again, and Gus reads so.
    ann.page.click("[data-action=continue]")
    ann.page.wait_for_selector("body[data-screen=lobby] [data-action=start-table]")
    waiting.filter(has_text="or when the host starts it.").wait_for(timeout=15000)
    for someone in (ann, gus):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_a_second_tab_that_joins_is_told_it_has_the_first_tabs_seat(
    browser: Any, server: AppServer
) -> None:
    # A second tab opened on the link before the first joined as "🐙": its "Kai" and Join
    # landed silently in the same seat, as "🐙 (you)".
    ann = person(browser, "Ann", PHONE)
    link = host_table(ann, server, 4, friends=[1, 2])
    octopus = person(browser, "🐙", DESKTOP)
    second = new_page(octopus.context)
    second.goto(with_speed(link))
    second.wait_for_selector("#join-name")
    join(octopus, link)
    second.fill("#join-name", "Kai")
    second.click("[data-action=join]")
    second.wait_for_selector("body[data-screen=lobby]")
    news = second.locator("[data-region=lobby-news]")
    assert plain(news.inner_text()) == "You're already at this table as 🐙."
    assert "You're already at this table as 🐙." in plain(second.text_content("#log"))
    seats = plain(second.inner_text("[data-region=lobby-seats]"))
    assert "🐙 (you)" in seats and "Kai" not in seats, seats
    shoot(second, "second-tab-join-desktop")
    for someone in (ann, octopus):
        assert not someone.page.errors, someone.page.errors
    assert not second.errors, second.errors
    ann.context.close()
    octopus.context.close()


def test_the_join_page_and_the_lobby_say_the_time_for_a_move(
    browser: Any, server: AppServer
) -> None:
    # They said whether hints were allowed, never whether a move had 15 s, 60 s or no limit.
    ann = person(browser, "Ann", PHONE)
    link = host_table(ann, server, 4, friends=[1, 2])  # a minute a move
    timed = "60 seconds for each move."
    assert ann.page.inner_text("[data-region=lobby-time]") == timed
    bea = person(browser, "Bea", DESKTOP)
    bea.page.goto(with_speed(link))
    bea.page.wait_for_selector("[data-region=join-table]")
    assert bea.page.inner_text("[data-region=join-table]").endswith(f"\n{timed}")
    shoot(bea.page, "join-time-desktop")
    body = {"name": "Ann", "turn_time": None, "seats": ["you", "friend", "easy", "easy"]}
    untimed = table_by_api(ann, server, body)
    ann.page.wait_for_selector("[data-region=lobby-time]")
    untimed_words = "No time limit for a move."
    assert ann.page.inner_text("[data-region=lobby-time]") == untimed_words
    shoot(ann.page, "lobby-time-phone")
    bea.page.goto(with_speed(f"{server.url}{untimed['table']['invite']}"))
    bea.page.wait_for_selector("[data-region=join-table]")
    assert bea.page.inner_text("[data-region=join-table]").endswith(f"\n{untimed_words}")
    for someone in (ann, bea):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def table_by_api(host: Person, server: Any, body: dict[str, Any]) -> dict[str, Any]:
    """A table made through the API the page uses, with the host page's own cookie (for
    settings the start screen does not offer: a 5 s turn, a game to 1 point)."""
    host.page.goto(f"{server.url}/?speed=instant")
    host.page.wait_for_selector("body[data-ready=true]")
    state = create_by_page(host.page, body)
    host.page.goto(f"{server.url}/?table={state['id']}&speed=instant")
    return state


def two_at_a_table(
    browser: Any, server: Any, host: tuple[str, Any], friend: tuple[str, Any]
) -> tuple[Person, Person]:
    """A host (name, viewport) and a friend who joined by the link, at a table of four made by
    the API (two easy computer players, no turn timer), both pages showing the pass."""
    people = person(browser, host[0], host[1]), person(browser, friend[0], friend[1])
    body: dict[str, Any] = {
        "rules": {},
        "name": host[0],
        "turn_time": None,
        "seats": ["you", "friend", "easy", "easy"],
    }
    state = table_by_api(people[0], server, body)
    join(people[1], f"{server.url}{state['table']['invite']}")
    for someone in people:
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    return people


@pytest.mark.parametrize("start_now", [False, True])
def test_rematch_keeps_the_table_and_its_people(
    browser: Any, server: AppServer, start_now: bool
) -> None:
    mia = person(browser, "Mia", DESKTOP)
    ned = person(browser, "Ned", PHONE)
    body = {
        "rules": {"target_score": 1},
        "name": "Mia",
        "turn_time": None,
        "seats": ["you", "medium", "friend", "medium"],
    }
    state = table_by_api(mia, server, body)
    join(ned, f"{server.url}{state['table']['invite']}")
    seats = {}
    for someone in (mia, ned):
        someone.page.wait_for_selector(f"{TABLE} [data-card]", timeout=15000)
        seats[someone.name] = someone.seat
    # A game to 1 point is over after the first round in which anyone takes a point.
    for _ in range(5):
        play_round([mia, ned])
        if mia.page.get_attribute(TABLE, "data-phase") == "game-over":
            break
        for someone in (mia, ned):  # the next round is dealt once both are ready
            someone.page.click("[data-action=next-round]")
    for someone in (mia, ned):
        someone.page.wait_for_selector("[data-action=rematch]")
    mia.page.click("[data-action=rematch]")
    # The rematch waits for Ned, still reading the last game: nothing is played for him.
    mia.page.wait_for_selector("[data-region=lobby-line] >> text=Waiting for \u2068Ned\u2069")
    new_id = mia.page.evaluate("new URLSearchParams(location.search).get('table')")
    assert new_id and new_id != state["id"]
    assert mia.page.inner_text("h1") == "The rematch"
    assert mia.page.inner_text(".round-pass") == ""  # not the last game's "Game over"
    assert mia.page.is_visible("[data-action=start-table]")
    if start_now:
        # Mia starts without him, and passes: a computer player passes for Ned meanwhile.
        mia.page.click("[data-action=start-table]")
        mia.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
        pass_last_three(mia.page)
        mia.page.wait_for_selector(f"{TABLE}[data-phase=playing]", timeout=15000)
    else:
        shoot(mia.page, "friends-rematch-waiting-desktop")
    # Ned is offered the rematch live, and joins it in his own seat: it starts for both (or
    # he takes his seat back from the computer player, and is told what it did for him).
    ned.page.wait_for_selector("[data-action=join-rematch]", timeout=10000)
    note = ned.page.locator("[data-region=rematch-note]")
    assert note.is_visible() and note.inner_text().startswith("A rematch is set up at this table")
    if not start_now:
        shoot(ned.page, "friends-rematch-offered")
    ned.page.click("[data-action=join-rematch]")
    for someone in (mia, ned):
        someone.page.wait_for_selector(
            f"{TABLE}:not([data-phase=game-over]) [data-card]", timeout=15000
        )
    if start_now:
        message = ned.page.inner_text("[data-region=message]")
        assert message.startswith("A computer player made "), message
        # "(it passed the …)" when the pass was one of the moves made for them.
        assert re.search(
            r" this round( \(it passed the [^)]+\))?, when your time ran out or you were away\.$",
            message,
        ), message
        assert ned.page.locator("[data-region=away-note]").count() == 0
    assert ned.page.evaluate("new URLSearchParams(location.search).get('table')") == new_id
    assert {p.name: p.seat for p in (mia, ned)} == seats
    assert ned.page.locator(f".seat[data-seat='{mia.seat}'] .name").inner_text() == "Mia"
    for someone in (mia, ned):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_a_rematch_joined_once_it_is_over_says_so(browser: Any, server: AppServer) -> None:
    # Ned came to the rematch after Mia had played it out: its final panel looked like the
    # first game's with other numbers, and nothing said which game it was.
    mia, ned = person(browser, "Mia", DESKTOP), person(browser, "Ned", PHONE)
    body = {"rules": {"target_score": 1}, "name": "Mia", "turn_time": None,
            "seats": ["you", "medium", "friend", "medium"]}  # fmt: skip
    state = table_by_api(mia, server, body)
    join(ned, f"{server.url}{state['table']['invite']}")
    for someone in (mia, ned):
        someone.page.wait_for_selector(f"{TABLE} [data-card]", timeout=15000)
    for _ in range(5):  # over after the first round in which anyone takes a point
        play_round([mia, ned])
        if mia.page.get_attribute(TABLE, "data-phase") == "game-over":
            break
        for someone in (mia, ned):
            someone.page.click("[data-action=next-round]")
    mia.page.click("[data-action=rematch]")
    mia.page.click("[data-action=start-table]")  # without Ned: played for him meanwhile
    mia.page.wait_for_selector(f"{TABLE} [data-card]", timeout=15000)
    for _ in range(5):
        play_round([mia])
        if mia.page.get_attribute(TABLE, "data-phase") == "game-over":
            break
        mia.page.click("[data-action=next-round]")
    assert mia.page.get_attribute(TABLE, "data-phase") == "game-over"
    ned.page.click("[data-action=join-rematch]")
    said = ned.page.locator("[data-region=panel-status]")
    said.filter(has_text="This rematch is over already").wait_for(timeout=15000)
    assert said.inner_text() == "This rematch is over already: this is how it ended."
    assert ned.page.get_attribute(TABLE, "data-phase") == "game-over"
    shoot(ned.page, "friends-rematch-over-joined-phone")
    for someone in (mia, ned):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def serve_on(data_dir: Path, port: int | None = None) -> LiveServer:
    """The app over `data_dir`, on `port` when given (to come back where the pages are)."""
    running = LiveServer(create_app(data_dir, bot_workers=0))
    if port is not None:
        running.socket.close()  # the port it was given instead: bound by uvicorn itself
        running.port = port
        config = uvicorn.Config(running.server.config.app, host="127.0.0.1", port=port)
        config.log_level = "warning"
        running.server = uvicorn.Server(config)
        running.thread = threading.Thread(target=running.server.run, daemon=True)
    return running.start()


def halt(running: LiveServer) -> None:
    # Open event streams never end by themselves: stop without waiting for them.
    running.server.should_exit = True
    running.server.force_exit = True
    running.thread.join(timeout=10)
    assert not running.thread.is_alive()


def test_a_lost_server_shows_reconnecting_and_the_table_goes_on(
    browser: Any, tmp_path: Path
) -> None:
    first = serve_on(tmp_path)
    ona, pia = two_at_a_table(browser, first, ("Ona", DESKTOP), ("Pia", PHONE))
    for someone in (ona, pia):
        someone.page.wait_for_selector("body[data-live=open]")
    mark_stay([ona, pia])
    # Pia's reconnections meet a 503 (as from a proxy while the server restarts): her
    # EventSource gives up, and the page opens new ones with ?since=<the move shown>.
    asked: list[str] = []
    pia.page.on("request", lambda r: asked.append(r.url) if "/events" in r.url else None)
    pia.context.route("**/events*", lambda route: route.fulfill(status=503, body="{}"))
    shown = pia.move()
    halt(first)
    for someone in (ona, pia):
        someone.page.wait_for_selector("[data-region=live]", state="visible", timeout=10000)
        assert someone.page.inner_text("[data-region=live]") == "Reconnecting…"
    if os.environ.get("HEARTS_SCREENSHOT_DIR"):
        shoot(pia.page, "friends-reconnecting-phone")
    pia.page.wait_for_function(
        "() => performance.getEntriesByType('resource')"
        ".some((e) => e.name.includes('/events?since='))",
        timeout=15000,
    )
    assert any(url.endswith(f"/events?since={shown}") for url in asked), asked
    pia.context.unroute("**/events*")
    again = serve_on(tmp_path, first.port)
    try:
        for someone in (ona, pia):
            someone.page.wait_for_selector("[data-region=live]", state="hidden", timeout=15000)
        # Both pass; each sees the other's pass through the new stream and plays on.
        watched = play_round([ona, pia])
        assert watched["Ona"] > 0 or watched["Pia"] > 0, watched
        no_reload([ona, pia])
    finally:
        for someone in (ona, pia):
            someone.context.close()
        halt(again)


def test_a_pass_raced_by_another_persons_pass_still_counts(browser: Any, server: AppServer) -> None:
    # Quin's page gets no event stream, so it never hears of Rae's pass: its own pass goes
    # with a move number already taken. It must count all the same (the server takes such a
    # pass; an older server refused it with 409 and the page sent it again at the new one).
    quin = person(browser, "Quin", DESKTOP)
    rae = person(browser, "Rae", PHONE)
    quin.context.route("**/events*", lambda route: route.abort())
    seats = ["you", "friend", "easy", "easy"]
    body: dict[str, Any] = {"rules": {}, "name": "Quin", "turn_time": None, "seats": seats}
    state = table_by_api(quin, server, body)
    join(rae, f"{server.url}{state['table']['invite']}")
    quin.page.reload()
    for someone in (quin, rae):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    before = quin.move()
    chosen = {}
    for someone in (rae, quin):
        chosen[someone.name] = hand(someone.page)[:3]
        for key in chosen[someone.name]:
            someone.page.click(f"[data-region=hand] [data-key='{key}']")
    rae.page.click("[data-action=pass]")
    rae.page.wait_for_function(SETTLED, arg=before + 1)
    assert quin.move() == before, "Quin's page heard of Rae's pass without a stream"
    quin.page.click("[data-action=pass]")
    quin.page.wait_for_function(SETTLED, arg=before + 2)
    # Quin's cards went (not lost to the refusal) and nothing says a move failed.
    assert quin.page.get_attribute(TABLE, "data-phase") == "playing"
    assert not set(chosen["Quin"]) & set(hand(quin.page)), "Quin's pass did not count"
    assert "already" not in quin.page.inner_text("#status")
    for someone in (quin, rae):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


@pytest.mark.parametrize("width", [PHONE["width"], 360])
def test_the_invitation_fits_a_phone(browser: Any, server: AppServer, width: int) -> None:
    """Each seat's choices on one row (Expert went alone to a second), and the panel's
    note on a line of its own with no dot to start it."""
    context = browser.new_context(viewport={"width": width, "height": PHONE["height"]})
    page = context.new_page()
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.click("[data-region=invite] summary")
    rows = page.eval_on_selector_all(
        "fieldset.segmented.small",
        """sets => sets.map((f) => new Set([...f.querySelectorAll('label')]
            .map((l) => Math.round(l.getBoundingClientRect().top))).size)""",
    )
    assert len(rows) >= 5 and all(n == 1 for n in rows), rows
    note = page.inner_text("[data-region=invite] .summary-note").strip()
    assert note == "play with people by a link", note
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()


@pytest.mark.parametrize("view", ["phone", "phone-landscape"])
def test_the_lobby_of_ten_shows_the_link_and_start_now_without_scrolling(
    browser: Any, server: AppServer, view: str
) -> None:
    """The lobby opens at its top (it kept the start screen's scroll, past its own link), and
    the link and Start now come before the ten seats, not below the fold after them."""
    ann = person(browser, "Ann", VIEWS[view])
    host_table(ann, server, 10, [1, 5])
    assert ann.page.evaluate("window.scrollY") == 0
    # No scores before the table starts (they listed an open seat with nought).
    assert ann.page.locator(".menu [data-action=scores]").is_hidden()
    height = VIEWS[view]["height"]
    for part in ("[data-region=invite-link]", "[data-action=start-table]"):
        drawn = box(ann.page, part)
        assert drawn and drawn["y"] >= 0 and drawn["y"] + drawn["height"] <= height, (part, drawn)
    ann.context.close()


def test_a_card_whose_answer_was_lost_is_old_news_once_the_game_moves_on(
    browser: Any, server: AppServer
) -> None:
    # The card reached the server but its answer did not (a connection lost on the way
    # back): "cannot be reached" stayed on the status line while the stream went on
    # showing the cards played after it.
    ann, bea = person(browser, "Ann", DESKTOP), person(browser, "Bea", PHONE)
    link = host_table(ann, server, 4, friends=[2])
    join(bea, link)
    people = [ann, bea]
    for _ in range(3000):
        if ann.page.evaluate(READY) == "playing":
            break
        for someone in people:
            page = someone.page
            now = page.evaluate(READY)
            if now == "passing":
                pass_last_three(page)
            elif now == "playing" and someone is bea:
                card = page.get_attribute("[data-card][data-legal=true]", "data-card")
                page.click(f"[data-card='{card}'][data-legal=true]")
                page.wait_for_function(SETTLED, arg=0)
        time.sleep(0.05)
    else:
        raise AssertionError("Ann never had a card to play")

    hits: list[str] = []

    def stored_then_lost(route: Any) -> None:
        route.fetch()  # the server stores the card...
        route.abort("connectionreset")  # ...and the answer never arrives
        hits.append(route.request.url)

    ann.page.route("**/api/games/*/play*", stored_then_lost)
    before = ann.move()
    card = ann.page.get_attribute("[data-card][data-legal=true]", "data-card")
    ann.page.click(f"[data-card='{card}'][data-legal=true]")
    status = ann.page.locator("#status")
    for _ in range(200):
        if hits:
            break
        ann.page.wait_for_timeout(50)
    ann.page.unroute("**/api/games/*/play*")
    assert len(hits) == 1, hits
    # The stream brings the card and what was played after it: the refusal is old news.
    ann.page.wait_for_function(SETTLED, arg=before + 1, timeout=15000)
    ann.page.wait_for_timeout(1000)
    assert "cannot be reached" not in status.inner_text()
    for someone in people:
        someone.context.close()


def test_the_turn_timer_counts_from_when_the_state_came_not_when_it_was_drawn(
    browser: Any, server: AppServer
) -> None:
    # A state drawn after the cards before it had been shown moving (3 s here): the timer
    # took the server's clock to be 3 s ahead, and showed 3 s more than there were.
    page = new_page(browser.new_context(viewport=DESKTOP))
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    left = page.evaluate(
        """async () => {
            const { TurnClock } = await import('/game/js/friends.js');
            const clock = new TurnClock(document.createElement('div'));
            const here = Date.now() / 1000;
            clock.set({
                table: { started: true, turn_time: 60, deadline: 1050, now: 1000,
                         received: here - 3, waiting_on: [1] },
                players: [{ seat: 0, person: true }, { seat: 1, person: true }],
                view: { seat: 0 },
            });
            const left = clock.left();
            clock.set(null);
            return left;
        }"""
    )
    assert left == 47, left
    page.context.close()


def test_a_name_taken_while_the_join_page_was_open_is_said_under_the_box(
    browser: Any, server: AppServer
) -> None:
    # The page checks names against those seated when it opened; one taken since was
    # refused by the server in the alert at the top, the seated list left as it was.
    ann = person(browser, "Ann", DESKTOP)
    link = host_table(ann, server, 4, friends=[1, 2])
    bea = person(browser, "Bea", PHONE)
    bea.page.goto(with_speed(link))
    bea.page.wait_for_selector("#join-name")
    # No scores before Bea has a seat (the menu offered the scores of no game).
    assert bea.page.locator(".menu [data-action=scores]").is_hidden()
    join(person(browser, "Dot", PHONE), link)
    bea.page.fill("#join-name", "dot")
    bea.page.click("[data-action=join]")
    note = bea.page.locator(".name-note")
    # Dot named as she is called, not as Bea typed her name.
    note.filter(has_text="Someone at this table is called \u2068Dot\u2069 already").wait_for()
    assert bea.page.locator("[data-region=join-error]").is_hidden()
    assert "Dot" in bea.page.inner_text("[data-region=join-table]")  # the table as it is now
    assert bea.page.input_value("#join-name") == "dot"
    bea.page.fill("#join-name", "Bea")
    bea.page.click("[data-action=join]")
    bea.page.wait_for_selector("body[data-screen=lobby], body[data-screen=table]")
    assert not bea.page.errors, bea.page.errors


def test_start_now_shows_the_computer_players_first_cards(browser: Any, server: AppServer) -> None:
    # After Start now, when computer players held the first lead, the host's page stayed at
    # the deal ("Priya to play") while the game had come round to the host: no turn, no
    # clock, until a computer player played for them when the turn time ran out.
    for _ in range(3):  # three deals: the first lead is a computer player's in most
        host = person(browser, "Ann", DESKTOP)
        link = host_table(host, server, 7, friends=[1])
        game = link.split("table=", 1)[1].split("#", 1)[0].split("&", 1)[0]
        host.page.click("[data-action=start-table]")
        state: dict[str, Any] = {}
        for _ in range(200):  # the server's game, until it waits for the host
            state = host.page.request.get(f"{server.url}/api/games/{game}").json()
            if state["view"]["seat"] in state["table"]["waiting_on"]:
                break
            time.sleep(0.05)
        assert state["view"]["seat"] in state["table"]["waiting_on"], state["table"]
        # The host's page comes to the same move, with the host's cards to play.
        host.page.wait_for_function(SETTLED, arg=state["move"], timeout=10000)
        assert host.page.evaluate(READY) == state["phase"]
        assert not host.page.errors
        host.context.close()


def test_a_pass_made_in_another_tab_clears_the_cards_chosen_in_this_one(
    browser: Any, server: AppServer
) -> None:
    # Two tabs of one person: two cards ticked in the first, the pass made in the second;
    # the first kept its two cards ticked and lifted all through the play.
    host = person(browser, "Ann", DESKTOP)
    link = host_table(host, server, 4, friends=[1])
    host.page.click("[data-action=start-table]")
    host.page.wait_for_function(READY, timeout=15000)
    assert host.page.evaluate(READY) == "passing"
    second = new_page(host.context)
    second.goto(with_speed(link))
    second.wait_for_function(READY, timeout=15000)
    for key in hand(host.page)[:2]:
        host.page.click(f"[data-region=hand] [data-key='{key}']")
    assert host.page.locator("[data-region=hand] .selected").count() == 2
    pass_last_three(second)
    host.page.wait_for_function(
        "() => document.querySelector('#game').dataset.phase !== 'passing'"
        " || !document.querySelector('[data-action=pass]')",
        timeout=15000,
    )
    host.page.wait_for_function(SETTLED, arg=0)
    assert host.page.locator("[data-region=hand] .selected").count() == 0
    assert not host.page.errors and not second.errors
    host.context.close()


def api_move(request: Any, url: str, ready: bool = True) -> bool:
    """The simplest move for the seat of `request`'s browser, when it is awaited (ready for
    the next round only if `ready`); whether one was made."""
    state = request.get(url).json()
    if state["view"]["seat"] not in state["table"]["waiting_on"]:
        return False
    phase, view = state["phase"], state["view"]
    if phase == "passing":
        body: dict[str, Any] = {"cards": view["hand"][: view["cards_to_pass"]]}
        route = "pass"
    elif phase == "playing":
        body, route = {"card": view["legal"][0]}, "play"
    elif phase == "round-over" and ready:
        body, route = {}, "next"
    else:
        return False
    answer = request.post(f"{url}/{route}", data={"move": state["move"], **body})
    return bool(answer.ok)


def test_a_page_behind_the_table_catches_up_at_once(browser: Any, server: AppServer) -> None:
    # Both people play quickly (here through the API) while Ann's page shows every card at
    # the slow speed: it fell 25 moves behind, each card in turn while the turn clock ran,
    # and the round's end went by before it was seen. Now messages waiting behind others
    # are drawn at once, and only the newest moves.
    ann = person(browser, "Ann", DESKTOP)
    bea = person(browser, "Bea", DESKTOP)
    link = host_table(ann, server, 3, friends=[1])
    join(bea, link)
    game = link.split("table=", 1)[1].split("#", 1)[0]
    url = f"{server.url}/api/games/{game}"
    ann.page.goto(f"{server.url}/?table={game}&speed=slow")
    ann.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    ann.page.evaluate(
        """() => {
            window.said = [];
            new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach(
                (n) => window.said.push(n.textContent)))).observe(
                document.querySelector('#log'), { childList: true });
        }"""
    )
    made = 0
    for _ in range(400):
        moved = [api_move(p.context.request, url) for p in (ann, bea)]
        made += sum(moved)
        if made >= 20 or (not any(moved) and made):
            break
    last = ann.context.request.get(url).json()["move"]
    ann.page.wait_for_function(SETTLED, arg=last, timeout=60000)
    played = [line for line in ann.page.evaluate("window.said") if " played the " in line]
    # The page reached the table's move without playing out each card on the way (each
    # card played out is read out too).
    assert made >= 10, made
    assert len(played) < made / 2, (made, played)
    assert not ann.page.errors
    for someone in (ann, bea):
        someone.context.close()


def test_a_pass_chosen_offline_goes_once_back_though_others_passed_meanwhile(
    browser: Any, server: AppServer
) -> None:
    # Offline, Sol's pass is kept to go once the phone is back. Meanwhile Tia passes: the
    # move count moves on, but the pass is still Sol's to make, so it goes all the same.
    sol, tia = two_at_a_table(browser, server, ("Sol", PHONE), ("Tia", DESKTOP))
    before = sol.move()
    sol.context.set_offline(True)
    chosen = hand(sol.page)[:3]
    for key in chosen:
        sol.page.click(f"[data-region=hand] [data-key='{key}']")
    sol.page.click("[data-action=pass]")
    assert sol.page.inner_text("#status") == (
        "This device is offline: your pass goes as soon as it is back online."
    )
    pass_last_three(tia.page)
    tia.page.wait_for_function(SETTLED, arg=before + 1)
    sol.context.set_offline(False)
    settle([sol, tia], before + 2)
    sol.page.wait_for_function(
        f"() => document.querySelector('{TABLE}').dataset.phase === 'playing'"
    )
    assert not set(chosen) & set(hand(sol.page)), "Sol's pass did not go"
    assert "offline" not in sol.page.inner_text("#status")
    for someone in (sol, tia):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_a_pass_chosen_offline_that_the_turn_time_overtook_is_said_never_to_have_gone(
    browser: Any, server: AppServer
) -> None:
    # Offline, Sol chose a pass; her time ran out and a computer player passed for her.
    # Back online, the page said only what the computer passed: nothing said her own
    # choice never went.
    sol, tia = person(browser, "Sol", PHONE), person(browser, "Tia", DESKTOP)
    body = {"rules": {}, "name": "Sol", "turn_time": 5, "seats": ["you", "friend", "easy", "easy"]}
    made = table_by_api(sol, server, body)
    join(tia, f"{server.url}{made['table']['invite']}")
    sol.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    seat = made["view"]["seat"]
    sol.context.set_offline(True)
    chosen = hand(sol.page)[:3]
    for key in chosen:
        sol.page.click(f"[data-region=hand] [data-key='{key}']")
    sol.page.click("[data-action=pass]")
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:  # the turn clock passes for her
        table = tia.page.request.get(f"{server.url}/api/games/{made['id']}").json()["table"]
        if seat not in table["waiting_on"]:
            break
        time.sleep(0.5)
    assert seat not in table["waiting_on"], table
    sol.context.set_offline(False)
    status = sol.page.locator("#status")
    status.filter(has_text="never went").wait_for(timeout=20000)
    said = plain(status.inner_text())
    assert said.startswith("The pass you chose (") and said.endswith(
        ") never went: your time ran out while this device was away."
    ), said
    for someone in (sol, tia):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


#: Before the page's scripts: `window.streamedMove`, the newest move the event stream brought
#: (heard before the page's own listener, which shows it in the same turn of the loop).
STREAMED_MOVE = """(() => {
    const Source = window.EventSource;
    window.EventSource = class extends Source {
        constructor(...args) {
            super(...args);
            for (const kind of ['state', 'table', 'message']) {
                this.addEventListener(kind, (message) => {
                    const move = JSON.parse(message.data).move;
                    window.streamedMove = Math.max(window.streamedMove ?? -1, move);
                });
            }
        }
    };
})()"""

#: The pass never reaches the server (a request lost on its way, the stream still open); the
#: game the page then asks for is answered at once (`window.gameAnswered`) but heard only
#: when the test lets it through (`window.letTheGameCome()`).
LOSE_THE_PASS = """(id) => {
    const fetched = window.fetch.bind(window);
    let held = false;
    window.fetch = (path, init) => {
        const url = String(path);
        if (url.endsWith('/pass')) return Promise.reject(new TypeError('Failed to fetch'));
        if (!held && url === `/api/games/${id}` && (init?.method ?? 'GET') === 'GET') {
            held = true;
            const answer = fetched(path, init);
            answer.then(() => { window.gameAnswered = true; });
            return new Promise((resolve) => { window.letTheGameCome = () => resolve(answer); });
        }
        return fetched(path, init);
    };
}"""


def test_the_game_asked_for_after_a_lost_pass_keeps_what_the_stream_brought_meanwhile(
    browser: Any, server: AppServer
) -> None:
    # Sol's pass was lost on its way, and the page asked for the game as it stands. Tia
    # passed while the answer came: the stream showed her pass, then the answer, older, put
    # the page back to before it (her pass undone on Sol's screen, the move count back).
    sol, tia = two_at_a_table(browser, server, ("Sol", DESKTOP), ("Tia", PHONE))
    sol.page.add_init_script(STREAMED_MOVE)
    sol.page.reload()
    sol.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]")
    sol.page.wait_for_selector("body[data-live=open]")
    before = sol.move()
    sol.page.evaluate(LOSE_THE_PASS, sol.page.get_attribute(TABLE, "data-game"))
    pass_last_three(sol.page)
    sol.page.wait_for_function("() => window.gameAnswered === true")
    pass_last_three(tia.page)
    sol.page.wait_for_function("(move) => window.streamedMove > move", arg=before)
    sol.page.evaluate("() => window.letTheGameCome()")
    # The move drawn once the page is no longer busy with the pass (read in the same turn).
    shown = sol.page.wait_for_function(
        f"() => {{ const t = document.querySelector('{TABLE}');"
        " return !t.dataset.busy && t.dataset.move; }"
    ).json_value()
    assert int(shown) == before + 1, (shown, before)
    assert sol.page.get_attribute(TABLE, "data-phase") == "passing"
    # The pass is still Sol's to make: the cards stay chosen, the Pass button there.
    assert sol.page.locator("[data-action=pass][aria-disabled=false]").count() == 1
    for someone in (sol, tia):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def simplest_move(someone: Person, server: AppServer, game: str) -> None:
    """The simplest move for `someone`'s seat, through the API with their page's cookie."""
    state = someone.page.request.get(f"{server.url}/api/games/{game}").json()
    phase, view = state["phase"], state["view"]
    body: dict[str, Any] = {"move": state["move"], "undos": state["undo"]["used"]}
    if phase == "passing":
        route, body["cards"] = "pass", view["hand"][: view["cards_to_pass"]]
    elif phase == "playing":
        route, body["card"] = "play", view["legal"][0]
    else:
        route = "next"
    answer = someone.page.request.post(f"{server.url}/api/games/{game}/{route}", data=body)
    assert answer.status in (200, 409), answer.text()


#: setTimeout, but a callback that plays the only card is kept (`window.heldPlays`) for the
#: test to run when it chooses.
HOLD_THE_ONLY_CARD = """() => {
    const later = window.setTimeout.bind(window);
    window.heldPlays = [];
    window.setTimeout = (task, ms, ...rest) => {
        if (typeof task === 'function' && String(task).includes('sendPlay')) {
            window.heldPlays.push(task);
            return 0;
        }
        return later(task, ms, ...rest);
    };
}"""


def test_the_only_card_plays_itself_though_a_reaction_comes_meanwhile(
    browser: Any, server: AppServer
) -> None:
    # "Your only card: the ..." and a moment later it plays itself. A friend's reaction in
    # that moment brought the same move anew, and the card stayed in hand, said to be going.
    ann, bea = two_at_a_table(browser, server, ("Ann", DESKTOP), ("Bea", PHONE))
    game = ann.page.get_attribute(TABLE, "data-game")
    seats = {ann.seat: ann, bea.seat: bea}
    for _ in range(500):  # the round through the API, to Ann's last card
        now = ann.page.request.get(f"{server.url}/api/games/{game}").json()
        waiting = [seat for seat in now["table"]["waiting_on"] if seat in seats]
        last = now["phase"] == "playing" and len(now["view"]["hand"]) == 1
        if last and ann.seat in waiting:
            break
        for seat in waiting:
            simplest_move(seats[seat], server, game)
    assert last and ann.seat in waiting, now["table"]
    ann.page.wait_for_function(SETTLED, arg=now["move"])
    assert ann.page.evaluate(READY) == "playing"
    (only,) = hand(ann.page)
    ann.page.evaluate(HOLD_THE_ONLY_CARD)
    ann.page.click("[data-action=settings]")
    ann.page.click("#set-auto")
    ann.page.keyboard.press("Escape")
    assert ann.page.inner_text("#status").startswith("Your only card: the ")
    ann.page.wait_for_function("() => window.heldPlays.length === 1")
    reacted = bea.page.request.post(
        f"{server.url}/api/games/{game}/react", data={"reaction": "nice"}
    )
    assert reacted.status == 200, reacted.text()
    ann.page.locator(f".seat[data-seat='{bea.seat}'] .quip").filter(has_text="Nice one").wait_for()
    ann.page.evaluate("() => window.heldPlays[0]()")
    ann.page.wait_for_function(
        f"() => !document.querySelector(\"[data-region=hand] [data-key='{only}']\")"
    )
    for someone in (ann, bea):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_the_persons_own_seat_is_not_connected_while_the_device_is_offline(
    browser: Any, server: AppServer
) -> None:
    # Offline, the page said so on the status line while the person's own seat kept its
    # green "connected" dot.
    sol, tia = two_at_a_table(browser, server, ("Sol", DESKTOP), ("Tia", PHONE))
    mine = "[data-region=me] .live-dot"
    assert sol.page.get_attribute(mine, "data-connected") == "true"
    sol.context.set_offline(True)
    sol.page.wait_for_selector(f"{mine}[data-connected=false]", timeout=5000)
    assert sol.page.get_attribute(mine, "aria-label") == "not connected"
    shoot(sol.page, "offline-own-dot-desktop")
    sol.context.set_offline(False)
    sol.page.wait_for_selector(f"{mine}[data-connected=true]", timeout=15000)
    for someone in (sol, tia):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_the_turn_timer_says_one_second_not_one_seconds(browser: Any, server: AppServer) -> None:
    page = new_page(browser.new_context(viewport=PHONE))
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    labels = page.evaluate(
        """async () => {
            const { TurnClock } = await import('/game/js/friends.js');
            const root = document.createElement('div');
            root.innerHTML = '<span data-timer="0"></span>';
            const clock = new TurnClock(root);
            const said = [];
            for (const wait of [0.5, 2.5]) {
                const now = Date.now() / 1000;
                clock.set({
                    table: { started: true, turn_time: 30, deadline: now + wait, now, received: now,
                        waiting_on: [0] },
                    players: [{ person: true }, { person: true }],
                    view: { seat: 1 },
                });
                said.push(root.querySelector('[data-timer]').getAttribute('aria-label'));
            }
            clock.set({ table: null, players: [] });
            return said;
        }"""
    )
    assert labels == ["1 second left", "3 seconds left"], labels
    assert not page.errors, page.errors
    page.context.close()


def inside_width(page: Any, selector: str) -> bool:
    drawn = box(page, selector)
    width = page.viewport_size["width"]
    return drawn is not None and drawn["x"] >= -0.5 and drawn["x"] + drawn["width"] <= width + 0.5


def test_a_long_name_with_no_spaces_stays_on_a_phone_screen(
    browser: Any, server: AppServer
) -> None:
    # Ann is 24 W's, the longest name there is, on no space to break at: "Marked: passed to
    # you by WWW…" pushed Bea's Unmark off her phone's edge, "WWW… to play." ran off it, and
    # the game's end cut the name off in its standings.
    long = "W" * 24
    ann = person(browser, long, DESKTOP)
    bea = person(browser, "Bea", PHONE)
    body = {
        "rules": {"target_score": 1},
        "name": long,
        "turn_time": None,
        "seats": ["you", "friend", "easy", "easy"],
    }
    state = table_by_api(ann, server, body)
    join(bea, f"{server.url}{state['table']['invite']}")
    bea.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    url = f"{server.url}/api/games/{state['id']}"
    for someone in (ann, bea):  # Ann passes left, to Bea
        assert api_move(someone.context.request, url)
    bea.page.wait_for_selector("[data-action=dismiss]", timeout=15000)
    bea.page.wait_for_function(SETTLED, arg=0)
    assert long in bea.page.inner_text("[data-region=actions]")
    assert inside_width(bea.page, "[data-action=dismiss]")
    assert spills(bea.page, "#game :is(.me-line, .actions)") == []
    shoot_views(bea.page, "friends-long-name-marked")
    # Bea plays until it is Ann's turn, which Bea's line says.
    for _ in range(60):
        if plain(bea.page.inner_text("#status")) == f"{long} to play.":
            break
        api_move(bea.context.request, url)
        bea.page.wait_for_function(SETTLED, arg=0)
    assert plain(bea.page.inner_text("#status")) == f"{long} to play."
    assert spills(bea.page, "#game :is(.me-line, .actions)") == []
    # A game to 1 point is over after a round.
    for _ in range(400):
        moved = [api_move(p.context.request, url) for p in (ann, bea)]
        if not any(moved) and ann.context.request.get(url).json()["phase"] == "game-over":
            break
    bea.page.wait_for_selector("[data-action=rematch]", timeout=15000)
    for view in ("phone", "phone-landscape", "desktop"):
        resize(bea.page, VIEWS[view])
        assert spills(bea.page, ".sheet-panel") == [], view
        assert spills(bea.page, "#game .seat.opponent") == [], view
    shoot_views(bea.page, "friends-long-name-over")
    for someone in (ann, bea):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_a_ready_tapped_offline_goes_once_back_and_says_so_on_the_panel(
    browser: Any, server: AppServer
) -> None:
    # The round is over and the turn timer off. Tia is ready; Sol's phone goes offline and Sol
    # taps Ready: the line saying nothing was sent lay under the round's panel, and back
    # online the tap was never sent, so the table waited for ever. Now the panel says it goes
    # once back online, and it does: the next round is dealt for both.
    sol, tia = two_at_a_table(browser, server, ("Sol", PHONE), ("Tia", DESKTOP))
    url = f"{server.url}/api/games/{sol.page.get_attribute(TABLE, 'data-game')}"
    for _ in range(400):
        if sol.context.request.get(url).json()["phase"] == "round-over":
            break
        if not any([api_move(p.context.request, url, ready=False) for p in (sol, tia)]):
            sol.page.wait_for_timeout(50)  # the computer players' turn
    for someone in (sol, tia):
        someone.page.wait_for_selector("[data-action=next-round]", timeout=15000)
    tia.page.click("[data-action=next-round]")
    sol.page.wait_for_selector("[data-region=ready-note] >> text=\u2068Tia\u2069 is ready.")
    sol.context.set_offline(True)
    sol.page.click("[data-action=next-round]")
    note = sol.page.locator("[data-region=overlay] [data-region=panel-status]")
    words = "This device is offline: your \u201cready\u201d goes as soon as it is back online."
    assert note.inner_text() == words
    # In sight on the panel, beside the button (not under the panel, as the status line is).
    drawn = box(sol.page, "[data-region=overlay] [data-region=panel-status]")
    assert drawn and drawn["y"] >= 0 and drawn["y"] + drawn["height"] <= PHONE["height"]
    assert sol.page.evaluate(
        """() => { const n = document.querySelector('[data-region=panel-status]');
            const r = n.getBoundingClientRect();
            return n.contains(document.elementFromPoint(r.left + 2, r.top + r.height / 2)); }"""
    )
    assert words in sol.page.text_content("#log")  # read out: the status line is inert
    shoot_views(sol.page, "friends-ready-offline")
    assert tia.page.get_attribute(TABLE, "data-phase") == "round-over"
    sol.context.set_offline(False)
    for someone in (sol, tia):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
    assert "offline" not in sol.page.inner_text("#status")
    for someone in (sol, tia):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_the_join_page_names_each_house_rule_with_its_choice(
    browser: Any, server: AppServer
) -> None:
    # "House rules: Bonus card and Shooting the moon." said nothing of the choices made; named
    # with them, the rules are parted by semicolons, apart from each name's own colon.
    ann = person(browser, "Ann", PHONE)
    body = {
        "rules": {"partnership": True, "bonus_card": "JD", "moon_rule": "choose"},
        "name": "Ann",
        "turn_time": None,
        "seats": ["you", "hard", "friend", "hard"],
    }
    state = table_by_api(ann, server, body)
    bea = person(browser, "Bea", PHONE)
    bea.page.goto(with_speed(f"{server.url}{state['table']['invite']}"))
    bea.page.wait_for_selector("#join-name")
    # A fact a line, each in the page's ink: one grey paragraph hid the partnership and the
    # bonus card from a friend about to join.
    facts = bea.page.eval_on_selector_all(
        "[data-region=join-table] > li", "lis => lis.map((li) => li.innerText)"
    )
    assert facts[1:3] == [
        "Partners: the players across from each other score together.",
        "House rules: Bonus card: jack of diamonds; Shooting the moon: the shooter chooses.",
    ], facts
    assert len(facts) == 5 and plain(facts[0]).startswith("A table of 4, to 100 points: Ann"), facts
    inks = bea.page.eval_on_selector_all(
        "[data-region=join-table] > li, .join-form label",
        "els => els.map((el) => getComputedStyle(el).color)",
    )
    assert len(set(inks)) == 1, inks
    shoot_views(bea.page, "join-house-rules")
    assert not bea.page.errors and not ann.page.errors


# Every line a page says in its log and every line shown over its table, kept as they come
# (the log keeps only its last six lines, and the table's line is replaced at each trick).
KEEP_SAID = """() => {
    window.__said = [];
    window.__shown = [];
    new MutationObserver((records) => {
        for (const record of records) {
            for (const node of record.addedNodes) window.__said.push(node.textContent);
        }
    }).observe(document.querySelector('#log'), {childList: true});
    const message = document.querySelector('[data-region=message]');
    new MutationObserver(() => window.__shown.push(message.textContent))
        .observe(message, {childList: true, characterData: true, subtree: true});
}"""

CARD_RANKS = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}  # fmt: skip
CARD_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def card_name(card: str) -> str:
    """A card as the pages name it: "TC" is "ten of clubs"."""
    return f"{CARD_RANKS[card[0]]} of {CARD_SUITS[card[1]]}"


def test_a_card_played_for_a_person_whose_time_ran_out_is_named_and_the_round_goes_on(
    browser: Any, server: AppServer
) -> None:
    # A table of three: Ann, Bea and a computer player, a short turn time. Bea lets her time
    # run out on her first card: a computer player plays it for her, and the round goes on.
    # Her page said "No point can change hands now: the rest of the round plays itself.",
    # went quiet for the cards after, and claimed so again on the round's panel; she read
    # only "A computer player made one of your moves…", and Ann "Bea played the ten of
    # clubs", as if Bea had chosen it.
    ann = person(browser, "Ann", DESKTOP)
    bea = person(browser, "Bea", DESKTOP)
    body: dict[str, Any] = {
        "rules": {"players": 3},
        "name": "Ann",
        "turn_time": 10,
        "seats": ["you", "friend", "easy"],
    }
    state = table_by_api(ann, server, body)
    join(bea, f"{server.url}{state['table']['invite']}")
    for someone in (ann, bea):
        someone.page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
        someone.page.evaluate(KEEP_SAID)
    pass_last_three(ann.page)
    pass_last_three(bea.page)
    held = len(hand(bea.page))
    # Ann plays her cards; Bea never plays, until her first card has been played for her.
    until = time.monotonic() + 60
    while len(hand(bea.page)) == held:
        assert time.monotonic() < until, "Bea's card was never played for her"
        if ann.page.evaluate(READY) == "playing":
            card = ann.page.get_attribute("[data-card][data-legal=true]", "data-card")
            ann.page.click(f"[data-card='{card}'][data-legal=true]")
            ann.page.wait_for_function(SETTLED, arg=0)
        time.sleep(0.05)
    # Bea is told which card went for her, over the table and in the log. (Over the table
    # until the trick is over: when hers was its last card, the next line may follow at once,
    # so what the table showed is read from the record kept of it, as below.)
    bea.page.wait_for_function(
        """() => window.__shown.some((line) => line.startsWith("Time's up: a computer player "))""",
        timeout=20000,
    )
    shoot_views(bea.page, "friends-stood-in-card")
    play_round([ann, bea])
    for someone in (ann, bea):
        someone.page.wait_for_selector("[data-region=overlay] h2", timeout=15000)
    shoot(bea.page, "friends-stood-in-roundover-desktop")
    said = plain(bea.page.evaluate("window.__said"))
    shown = plain(bea.page.evaluate("window.__shown"))
    settled = "No point can change hands now"
    assert not [line for line in said + shown if settled in line], (said, shown)
    panel = plain(bea.page.inner_text("[data-region=overlay]"))
    assert "No point could change hands any more" not in panel, panel
    # The others' cards after hers, up to her next one, were read out on Bea's page.
    game = bea.page.evaluate(f"async () => (await fetch('/api/games/{state['id']}')).json()")
    seat = bea.seat
    tricks = game["view"]["tricks"]
    order = [(s, card) for trick in tricks for s, card in trick["plays"]]
    first, *later = [n for n, (s, _) in enumerate(order) if s == seat]
    after = [card for _, card in order[first + 1 : later[0] if later else None]]
    plays = [line for line in said if " played the " in line or " led the " in line]
    unsaid = [card for card in after if not any(card_name(card) in line for line in plays)]
    assert not unsaid, (unsaid, said)
    # The card played for her is named as a computer player's: to her, and to Ann.
    led, card = next((i == 0, c) for i, (s, c) in enumerate(tricks[0]["plays"]) if s == seat)
    verb = "led" if led else "played"
    told = f"Time's up: a computer player {verb} your {card_name(card)} for you."
    assert told in said and told in shown, (told, said, shown)
    heard = plain(ann.page.evaluate("window.__said"))
    assert f"A computer player {verb} the {card_name(card)} for Bea." in heard, heard
    assert not [line for line in heard if line.startswith(f"Bea played the {card_name(card)}")]
    for someone in (ann, bea):
        assert not someone.page.errors, someone.page.errors
        someone.context.close()


def test_while_a_page_reconnects_no_clock_counts_down_and_nobody_shows_as_connected(
    browser: Any, tmp_path: Path
) -> None:
    # With the server down, each page's turn clocks went on counting down (the server, once
    # back, gives the turn a grace) and every seat showed a green "connected" dot beside
    # "Reconnecting…", though nobody's connection was known.
    first = serve_on(tmp_path)
    ona, pia = person(browser, "Ona", PHONE), person(browser, "Pia", DESKTOP)
    body: dict[str, Any] = {
        "rules": {},
        "name": "Ona",
        "turn_time": 60,
        "seats": ["you", "friend", "easy", "easy"],
    }
    state = table_by_api(ona, first, body)
    join(pia, f"{first.url}{state['table']['invite']}")
    shown = "[data-timer]:not([hidden])"
    for someone in (ona, pia):
        page = someone.page
        page.wait_for_selector(f"{TABLE}[data-phase=passing] [data-card]", timeout=15000)
        page.wait_for_selector("body[data-live=open]")
        page.wait_for_selector(shown, timeout=5000)
        assert page.locator(".live-dot[data-connected=true]").count() == 2
    halt(first)
    again = None
    try:
        for someone in (ona, pia):
            page = someone.page
            page.wait_for_selector("[data-region=live]", state="visible", timeout=10000)
            page.wait_for_timeout(600)  # more than a tick of the clock
            assert page.locator(shown).count() == 0, page.inner_text(shown)
            assert page.locator(".live-dot[data-connected=true]").count() == 0
            unknown = page.locator(".live-dot[data-connected=unknown]")
            assert unknown.count() == 2
            assert unknown.first.get_attribute("title") == "Not known while this page reconnects"
        shoot_views(ona.page, "friends-reconnecting-clock")
        again = serve_on(tmp_path, first.port)
        for someone in (ona, pia):
            page = someone.page
            page.wait_for_selector("[data-region=live]", state="hidden", timeout=20000)
            page.wait_for_selector(shown, timeout=5000)
            page.wait_for_function(
                "() => document.querySelectorAll('.live-dot[data-connected=true]').length === 2",
                timeout=10000,
            )
            assert not someone.page.errors, someone.page.errors
    finally:
        for someone in (ona, pia):
            someone.context.close()
        if again is not None:
            halt(again)


def test_a_friend_gone_offline_shows_as_reconnecting_to_the_others(
    browser: Any, tmp_path: Path
) -> None:
    # A friend whose phone went offline kept showing as connected to the others until the
    # hold time ended: their stream stayed open, and its pings counted as them being here.
    settings = replace(Settings.from_env(data_dir=tmp_path), stream_ping=1.0)
    running = LiveServer(create_app(tmp_path, bot_workers=0, settings=settings)).start()
    try:
        uma, val = two_at_a_table(browser, running, ("Uma", DESKTOP), ("Val", PHONE))
        for someone in (uma, val):
            someone.page.wait_for_selector("body[data-live=open]")
        mark = f".seat[data-seat='{val.seat}'] [data-reconnecting=true]"
        assert uma.page.locator(mark).count() == 0
        val.context.set_offline(True)
        # Told within a few pings (2.5 quiet, then Uma's next read of the table).
        uma.page.wait_for_selector(mark, timeout=15000)
        assert uma.page.inner_text(mark) == "Reconnecting…"
        assert uma.page.locator(f".seat[data-seat='{val.seat}'] [data-away]").count() == 0
        # Val's own page says it lost the server and is trying again.
        val.page.wait_for_selector("body[data-live=reconnecting]", timeout=15000)
        assert val.page.is_visible("[data-region=live]")
        # News still coming down the old stream (the browser keeps it open offline) is shown,
        # but does not make the page say it is back: what it sends does not get through.
        uma.page.click("[data-action=react]")
        uma.page.click("[data-reaction=nice]")
        val.page.locator(f".seat[data-seat='{uma.seat}'] .quip").wait_for(state="visible")
        assert val.page.evaluate("document.body.dataset.live") == "reconnecting"
        assert val.page.is_visible("[data-region=live]")
        shoot(val.page, "friends-own-page-reconnecting-phone")
        for name, size in (("phone", PHONE), ("landscape", LANDSCAPE), ("desktop", WIDE)):
            resize(uma.page, size)
            uma.page.wait_for_selector(mark)
            shoot(uma.page, f"friends-reconnecting-{name}")
        val.context.set_offline(False)
        uma.page.wait_for_selector(mark, state="detached", timeout=15000)
        val.page.wait_for_selector("body[data-live=open]", timeout=15000)
        for someone in (uma, val):
            assert not someone.page.errors, someone.page.errors
            someone.context.close()
    finally:
        halt(running)


#: Counts, on a page, each change that leaves a "Not here" sign on it (`window.goneSeen`).
WATCH_GONE = """() => {
    window.goneSeen = 0;
    new MutationObserver(() => {
        if (document.querySelector('[data-gone]')) window.goneSeen += 1;
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


def test_a_friend_whose_page_closed_is_said_not_here_in_words_until_back(
    browser: Any, server: AppServer
) -> None:
    # A friend's browser closed on their turn: the host saw "Bo · to play", the countdown
    # and a grey dot explained only by a tooltip, and waited with no idea why. A table of
    # ten, the most crowded, on the host's 1280 px screen and the friend's phone.
    host, bo = person(browser, "Cy", WIDE), person(browser, "Bo", PHONE)
    body: dict[str, Any] = {
        "rules": {},
        "name": "Cy",
        "turn_time": 60,
        "seats": ["you", "friend", *["easy"] * 8],
    }
    state = table_by_api(host, server, body)
    link = f"{server.url}{state['table']['invite']}"
    join(bo, link)
    for someone in (host, bo):
        someone.page.wait_for_selector("[data-region=hand] [data-card]", timeout=15000)
        someone.page.wait_for_selector("body[data-live=open]")
    seat = bo.seat
    gone = f".seat[data-seat='{seat}'] [data-gone=true]"
    # Both play until it is Bo's turn to play a card.
    for _ in range(3000):
        if bo.page.evaluate(READY) == "playing":
            break
        acted = False
        for someone in (host, bo):
            now = someone.page.evaluate(READY)
            if now == "passing":
                pass_last_three(someone.page)
                acted = True
            elif now == "playing" and someone is host:
                card = host.page.get_attribute("[data-card][data-legal=true]", "data-card")
                host.page.click(f"[data-card='{card}'][data-legal=true]")
                host.page.wait_for_function(SETTLED, arg=0)
                acted = True
        if not acted:
            time.sleep(0.05)
    else:
        raise AssertionError("Bo never had a turn")
    host.page.wait_for_selector(f".seat[data-seat='{seat}'].turn [data-connected=true]")
    assert host.page.locator(gone).count() == 0
    # A reload closes Bo's page for a moment: nothing is said of it (each reload flashed
    # "Not here" at his seat and on the status line).
    host.page.evaluate(WATCH_GONE)
    bo.page.reload()
    bo.page.wait_for_selector("body[data-live=open]")
    bo.page.wait_for_selector("[data-region=hand] [data-card]")
    host.page.wait_for_selector(f".seat[data-seat='{seat}'] [data-connected=true]")
    assert host.page.evaluate("window.goneSeen") == 0
    storage = bo.context.storage_state()
    bo.context.close()
    # Said in words at Bo's seat, not by the dot's tooltip alone, and on the status line,
    # once his page has stayed closed a few seconds (GONE_AFTER_MS in friends.js).
    host.page.wait_for_selector(gone, timeout=20000)
    assert host.page.inner_text(gone) == "Not here"
    assert host.page.locator(f".seat[data-seat='{seat}'] [data-connected=false]").count() == 1
    assert host.page.locator(f".seat[data-seat='{seat}'] [data-timer]:not([hidden])").count() == 1
    status = "\u2068Bo\u2069 is not here: when time is up, a computer player plays for them."
    host.page.wait_for_function(
        "(words) => document.querySelector('#status').textContent === words", arg=status
    )
    # Nobody else's seat says it: the host's own, the computer players'.
    assert host.page.locator("[data-gone]").count() == 1
    for name, size in (
        ("phone", PHONE),
        ("landscape", LANDSCAPE),
        ("desktop", WIDE),
        ("smallest", {"width": 320, "height": 568}),
    ):
        resize(host.page, size)
        host.page.wait_for_selector(gone)
        assert inside_width(host.page, gone), name
        assert not spills(host.page, ".seat"), (name, spills(host.page, ".seat"))
        shoot(host.page, f"friends-not-here-{name}")
    resize(host.page, WIDE)
    # Bo opens the link again: back in the seat, and the words go.
    again = person(browser, "Bo", PHONE, storage)
    again.page.goto(with_speed(link))
    again.page.wait_for_selector(f"{TABLE}[data-phase=playing] [data-card]", timeout=15000)
    assert again.seat == seat
    host.page.wait_for_selector(gone, state="detached", timeout=10000)
    host.page.wait_for_selector(f".seat[data-seat='{seat}'] [data-connected=true]")
    host.page.wait_for_function(
        "() => document.querySelector('#status').textContent === '\u2068Bo\u2069 to play.'"
    )
    shoot(again.page, "friends-not-here-back-phone")
    for page in (host.page, again.page):
        assert not page.errors, page.errors
    for context in (host.context, again.context):
        context.close()
