"""The replay page and the statistics reset in Chromium, phone first: a finished game opened
from "Your games" and stepped through forwards and backwards (the cards shown are the API's
frames), a round replayed from the round-over panel, and the statistics reset with its
confirmation while the history stays. Screenshots go to $HEARTS_SCREENSHOT_DIR as
replay-*.png and stats-reset-*.png."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_table_play import open_stored, play_to
from test_web_game_browser import no_horizontal_scroll, open_page, start_game

import hearts
from coach.test_stats_api import moon_game
from hardening.driver import store_at
from hearts.events import KittyTaken
from hearts.record import actions_of
from hearts.web.store import owner_key
from hearts.web.tokens import COOKIE

from browser_support import PHONE, AppServer, create_by_page, plain, resize, shoot
from helpers import play_game

pytestmark = pytest.mark.browser

LANDSCAPE = {"width": 844, "height": 390}
DESKTOP = {"width": 1366, "height": 800}
VIEWPORTS = (("phone", PHONE), ("landscape", LANDSCAPE), ("desktop", DESKTOP))

#: Plays a game to its end through the API from inside the page (so it is this browser's),
#: the person making the simplest move each time; answers the final state.
PLAY_A_GAME = """async ({players, target, levels = ['easy']}) => {
  const post = async (path, body) => (await fetch(path, {method: 'POST',
    headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})).json();
  let state = await post('/api/games', {levels, rules: {players, target_score: target}});
  for (let i = 0; i < 5000 && state.phase !== 'game-over'; i++) {
    const view = state.view;
    const cards = view.hand.slice(0, view.cards_to_pass);
    const [path, body] = state.phase === 'passing' ? ['pass', {cards}]
      : state.phase === 'playing' ? ['play', {card: view.legal[0]}]
      : state.phase === 'moon-choice' ? ['moon', {choice: 'add'}] : ['next', {}];
    state = await post(`/api/games/${state.id}/${path}`, {...body, move: state.move});
  }
  return state;
}"""


def api(page: Any, path: str) -> Any:
    return page.evaluate(f"async () => (await fetch('{path}')).json()")


def shown_frame(page: Any) -> dict[str, Any]:
    """What the page shows now: its place, and per seat the hand and the card on the trick."""
    found: dict[str, Any] = plain(
        page.evaluate(
            """() => {
          const root = document.querySelector('[data-region=replay]');
          const rows = [...document.querySelectorAll('[data-region=seats] > [data-seat]')];
          return {
            round: Number(root.dataset.round), frame: Number(root.dataset.frame),
            kind: root.dataset.kind,
            hands: rows.map((row) =>
              [...row.querySelectorAll('.mini-card')].map((c) => c.dataset.card)),
            played: rows.map((row) =>
              row.querySelector('[data-region=played]')?.dataset.card ?? null),
            took: rows.filter((row) => row.classList.contains('took'))
              .map((row) => Number(row.dataset.seat)),
            caption: document.querySelector('[data-region=caption]').textContent,
          };
        }"""
        )
    )
    return found


def agrees(shown: dict[str, Any], frame: dict[str, Any], names: list[str]) -> None:
    """The page shows this frame of the API's replay: the same hands and the same trick."""
    if frame["kind"] == "scored":
        assert shown["hands"] == []  # the round's score table instead of the seats
        return
    assert [sorted(hand) for hand in shown["hands"]] == [sorted(hand) for hand in frame["hands"]]
    if frame["kind"] == "trick":
        trick = frame["trick"]
        plays = {seat: card for seat, card in trick["plays"]}
        assert shown["played"] == [plays.get(seat) for seat in range(len(names))]
        assert shown["took"] == ([] if trick["held_over"] else [trick["winner"]])
        assert f"Trick {trick['number'] + 1} of " in shown["caption"]
        if not trick["held_over"]:
            winner = "you" if trick["winner"] == 0 else names[trick["winner"]]
            assert f"; {winner} took it with the " in shown["caption"]
    else:
        assert shown["played"] == [None] * len(names)


def open_from_history(page: Any, server: AppServer, game_id: str) -> None:
    page.goto(f"{server.url}/stats")
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    with page.expect_navigation():
        page.click(f"[data-game='{game_id}'] [data-action=replay]")
    page.wait_for_selector("[data-region=replay][data-ready=true]")


def test_a_finished_game_replays_forwards_and_backwards_on_a_phone(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, PHONE)
    state = page.evaluate(PLAY_A_GAME, {"players": 4, "target": 30})
    assert state["phase"] == "game-over"
    open_from_history(page, server, state["id"])
    replay = api(page, f"/api/games/{state['id']}/replay")
    names = [p["name"] for p in replay["players"]]
    rounds = replay["rounds"]
    assert page.eval_on_selector_all(
        "[data-action=round] option", "options => options.map(o => o.textContent)"
    ) == [f"Round {r['round']}" for r in rounds]
    # Forwards through the whole first round, with the button and the arrow key by turns.
    first = rounds[0]["frames"]
    for index, frame in enumerate(first):
        shown = shown_frame(page)
        assert (shown["round"], shown["frame"], shown["kind"]) == (1, index, frame["kind"])
        agrees(shown, frame, names)
        if frame["kind"] == "deal":
            no_horizontal_scroll(page)
            shoot(page, "replay-phone-deal")
            # The outlines are said: in the caption, seen, and on each card, heard (the
            # dashed cards had no word for what they were until the next step).
            assert "outlined in dashes" in page.inner_text("[data-region=caption]")
            passed = next(p["cards"] for p in rounds[0]["passes"] if p["seat"] == 0)
            marked = page.eval_on_selector_all(
                "[data-seat='0'] .mini-card[data-passing=true] .sr",
                "els => els.map(e => e.textContent)",
            )
            assert len(marked) == len(passed)
            assert all(word.endswith(", passed") for word in marked), marked
        elif frame["kind"] == "pass":
            assert "outlined in gold" in page.inner_text("[data-region=caption]")
            heard = page.eval_on_selector_all(
                ".mini-card[data-received=true] .sr", "els => els.map(e => e.textContent)"
            )
            assert heard and all(word.endswith(", received") for word in heard), heard
            passes = plain(page.inner_text("[data-seat='0'] [data-region=pass]"))
            assert passes.startswith("Passed ") and names[rounds[0]["passes"][0]["to"][0]] in passes
            # The person is "you" in the middle of a sentence: "Passed 3♣ 9♦ K♠ to you".
            to_me = next(p for p in rounds[0]["passes"] if 0 in p["to"])
            line = page.inner_text(f"[data-seat='{to_me['seat']}'] [data-region=pass]")
            assert " to you" in line and " to You" not in line, line
            shoot(page, "replay-phone-pass")
        elif frame["kind"] == "trick" and frame["trick"]["number"] == 3:
            shoot(page, "replay-phone-trick")
            # Each card on the trick is said in words ("2." alone said nothing).
            said = page.eval_on_selector_all(
                "[data-region=played]", "els => els.map(e => e.getAttribute('aria-label'))"
            )
            assert len(said) == len(frame["trick"]["plays"])
            assert sum(w.startswith("led the ") for w in said) == 1
            assert all(" of " in w for w in said), said
        if index % 2:
            page.keyboard.press("ArrowRight")
        else:
            page.click("[data-action=forward]")
    # Past the end of round 1: round 2's deal; then back again, one step at a time.
    assert shown_frame(page)["round"] == 2 and shown_frame(page)["kind"] == "deal"
    page.keyboard.press("ArrowLeft")
    shown = shown_frame(page)
    assert (shown["round"], shown["kind"]) == (1, "scored")
    totals = page.eval_on_selector_all(
        "[data-region=round-score] tbody tr", "rows => rows.map(r => r.lastChild.textContent)"
    )
    assert totals == [str(t) for t in rounds[0]["result"]["totals"]]
    shoot(page, "replay-phone-score")
    for index in range(len(first) - 2, len(first) - 5, -1):
        page.click("[data-action=back]")
        shown = shown_frame(page)
        assert shown["frame"] == index
        agrees(shown, first[index], names)
    # The round picker, then the last step of the game: the final scores are the game's.
    page.select_option("[data-action=round]", str(len(rounds) - 1))
    shown = shown_frame(page)
    assert (shown["round"], shown["frame"]) == (len(rounds), 0)
    agrees(shown, rounds[-1]["frames"][0], names)
    page.keyboard.press("End")
    assert page.is_disabled("[data-action=forward]")
    # Next pressed into the last step goes dim: the focus goes to Back, not to the page.
    page.keyboard.press("ArrowLeft")
    page.focus("[data-action=forward]")
    page.keyboard.press("Enter")
    assert page.is_disabled("[data-action=forward]")
    assert page.evaluate("() => document.activeElement.dataset.action") == "back"
    final = page.eval_on_selector_all(
        "[data-region=round-score] tbody tr", "rows => rows.map(r => r.lastChild.textContent)"
    )
    assert final == [str(score) for score in state["scores"]]
    assert "Game over" in page.inner_text("[data-region=stage]")
    # The last step offers a way on, where Next goes no further.
    done = page.locator("[data-region=caption] a[data-action=replay-done]")
    assert done.inner_text() == "Back to your games" and done.get_attribute("href") == "/stats"
    # No round after the last: Page Down stays where it is (it went back to the deal).
    page.keyboard.press("PageDown")
    assert "Game over" in page.inner_text("[data-region=stage]")
    page.keyboard.press("Home")
    assert page.locator("[data-action=replay-done]").count() == 0
    page.keyboard.press("PageUp")
    assert shown_frame(page)["round"] == max(1, len(rounds) - 1)
    no_horizontal_scroll(page)
    # The same trick held sideways and on a desktop.
    page.select_option("[data-action=round]", "0")
    for _ in range(4 if rounds[0]["passes"] else 3):
        page.keyboard.press("ArrowRight")
    assert shown_frame(page)["kind"] == "trick"
    for name, viewport in VIEWPORTS[1:]:
        resize(page, viewport)
        no_horizontal_scroll(page)
        shoot(page, f"replay-{name}-trick")
    assert not page.errors


@pytest.mark.parametrize("players", [8, 3])
def test_every_table_size_lays_out_on_a_phone(
    browser: Any, server: AppServer, players: int
) -> None:
    page = open_page(browser, server, PHONE)
    state = page.evaluate(PLAY_A_GAME, {"players": players, "target": 20})
    page.goto(f"{server.url}/replay?game={state['id']}")
    page.wait_for_selector("[data-region=replay][data-ready=true]")
    replay = api(page, f"/api/games/{state['id']}/replay")
    names = [p["name"] for p in replay["players"]]
    page.keyboard.press("ArrowRight")
    while shown_frame(page)["kind"] != "trick":
        page.keyboard.press("ArrowRight")
    shown = shown_frame(page)
    agrees(shown, replay["rounds"][0]["frames"][shown["frame"]], names)
    assert len(shown["hands"]) == players
    no_horizontal_scroll(page)
    # Every card of every hand is inside the page's width, its corner visible.
    outside = page.evaluate(
        """() => [...document.querySelectorAll('.mini-card')].filter((card) => {
            const box = card.getBoundingClientRect();
            return box.left < 0 || box.right > document.documentElement.clientWidth + 0.5;
        }).length"""
    )
    assert outside == 0
    shoot(page, f"replay-phone-{players}-players", full_page=True)
    resize(page, DESKTOP)
    no_horizontal_scroll(page)
    shoot(page, f"replay-desktop-{players}-players")
    assert not page.errors


def test_a_round_replays_from_the_round_over_panel(browser: Any, server: AppServer) -> None:
    page = open_page(browser, server, PHONE)
    start_game(page)
    assert play_to(page, {"round-over", "game-over"}) == "round-over"  # a game to 100
    with page.context.expect_page() as opened:
        page.click("[data-action=replay-round]")
    replay_page = opened.value
    errors: list[str] = []
    replay_page.on("pageerror", lambda error: errors.append(str(error)))

    # The page's policy allows no inline style: a breach shows as a console error.
    def breach(message: Any) -> None:
        if "Content Security Policy" in message.text:
            errors.append(f"console: {message.text}")

    replay_page.on("console", breach)
    replay_page.reload()
    replay_page.wait_for_selector("[data-region=replay][data-ready=true]")
    game_id = page.evaluate("async () => (await (await fetch('/api/games')).json())[0].id")
    replay = api(replay_page, f"/api/games/{game_id}/replay?round=1")
    names = [p["name"] for p in replay["players"]]
    shown = shown_frame(replay_page)
    assert (shown["round"], shown["kind"]) == (1, "deal")
    agrees(shown, replay["rounds"][0]["frames"][0], names)
    replay_page.keyboard.press("End")
    agrees(shown_frame(replay_page), replay["rounds"][0]["frames"][-1], names)
    # The round being played is refused, in the server's words.
    page.click("[data-action=next-round]")
    replay_page.goto(f"{server.url}/replay?game={game_id}&round=2")
    replay_page.wait_for_selector("[data-region=replay]:not([aria-busy])")
    said = replay_page.inner_text("[data-region=replay-status]")
    assert "Round 2 is still being played" in said
    assert not page.errors and not errors


def browsers_owner(page: Any) -> str:
    """The store's owner key of this page's browser (its cookie, made by a game started)."""
    page.evaluate("async () => fetch('/api/games', {method: 'POST', headers: {'content-type':"
                  " 'application/json'}, body: JSON.stringify({levels: ['easy']})})")  # fmt: skip
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE)
    return owner_key(cookie)


def test_moons_and_the_kitty_are_told_as_the_engine_reports_them(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, PHONE)
    owner = browsers_owner(page)
    store = store_at(server.data_dir)
    moon, _ = moon_game(1, target=60)
    shot = next(r for r in moon.results if r.shooter is not None)
    store.create(
        "moon-replay", owner, moon.rules.to_dict(), 1,
        {"seats": [None, "easy", "easy", "easy"]}, actions_of(moon), "over",
    )  # fmt: skip
    page.goto(f"{server.url}/replay?game=moon-replay")
    page.wait_for_selector("[data-region=replay][data-ready=true]")
    page.select_option("[data-action=round]", str(shot.hand_number))
    page.keyboard.press("End")
    notes = plain(
        page.eval_on_selector_all("[data-region=note]", "els => els.map(e => e.textContent)")
    )
    names = [p["name"] for p in api(page, "/api/games/moon-replay/replay")["players"]]
    assert shot.shooter is not None and f"{names[shot.shooter]} shot the moon!" in notes
    shoot(page, "replay-phone-moon")
    # A kitty at three players: told with the trick that took it.
    rules = hearts.Rules(players=3, kitty=True, target_score=30)
    kitty = hearts.Game(rules, 11)
    play_game(kitty)
    store.create(
        "kitty-replay", owner, rules.to_dict(), 11,
        {"seats": [None, "easy", "easy"]}, actions_of(kitty), "over",
    )  # fmt: skip
    page.goto(f"{server.url}/replay?game=kitty-replay")
    page.wait_for_selector("[data-region=replay][data-ready=true]")
    # The kitty is shown from the deal (it was named only with the trick that took it).
    again = hearts.Game(rules, 11)
    events = list(again.start_events())
    for move in kitty.moves:
        events += again.apply(move)
    taken = next(e for e in events if isinstance(e, KittyTaken))  # the first round's
    caption = page.inner_text("[data-region=caption]")
    assert "The kitty, face down until a point card is first taken: " in caption, caption
    shown = page.eval_on_selector_all(
        "[data-region=caption] [data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert sorted(shown) == sorted(str(card) for card in taken.cards)
    for _ in range(40):
        if page.query_selector("[data-region=note]:has-text('took the kitty')"):
            break
        page.keyboard.press("ArrowRight")
    note = page.inner_text("[data-region=note]:has-text('took the kitty')")
    assert note.endswith("point).") or note.endswith("points).")
    assert shown_frame(page)["kind"] == "trick"
    no_horizontal_scroll(page)
    shoot(page, "replay-phone-kitty")
    assert not page.errors


def test_partners_and_the_bonus_card_are_said_with_the_score(
    browser: Any, server: AppServer
) -> None:
    # A partner's "Scored" of -10 with nothing taken read as a mistake: the team and the
    # bonus card's taker were not said.
    page = open_page(browser, server, PHONE)
    owner = browsers_owner(page)
    rules = hearts.Rules(partnership=True, bonus_card="JD", target_score=30)
    game = hearts.Game(rules, 7)
    play_game(game)
    store_at(server.data_dir).create(
        "team-replay", owner, rules.to_dict(), 7,
        {"seats": [None, "easy", "easy", "easy"]}, actions_of(game), "over",
    )  # fmt: skip
    data = api(page, "/api/games/team-replay/replay")
    assert data["teams"] == [[0, 2], [1, 3]]
    names = ["You" if p["you"] else p["name"] for p in data["players"]]
    page.goto(f"{server.url}/replay?game=team-replay")
    page.wait_for_selector("[data-region=replay][data-ready=true]")
    page.select_option("[data-action=round]", str(len(data["rounds"]) - 1))
    page.keyboard.press("End")  # the last round's score
    notes = " ".join(
        plain(page.eval_on_selector_all("[data-region=note]", "els => els.map(e => e.textContent)"))
    )
    assert f"Partners score together: {names[0]} and {names[2]}; {names[1]} and {names[3]}." in (
        notes
    ), notes
    # The bonus card's taker in the last round, found from its tricks here.
    last = data["rounds"][-1]
    takers = {
        f["trick"]["winner"]
        for f in last["frames"]
        if f["kind"] == "trick" and not f["trick"]["held_over"]
        and "JD" in [c for _, c in f["trick"]["plays"]] + f["trick"]["carried"]
    }  # fmt: skip
    (taker,) = takers  # this seed's last round: one seat took it
    assert f"{names[taker]} took the J♦" in notes and ": 10 points off." in notes, notes
    assert not page.errors


def tile(page: Any, key: str) -> str:
    value: str = page.inner_text(f"[data-stat={key}] .stat-value")
    return value


def test_the_statistics_reset_with_a_confirmation_and_the_history_stays(
    browser: Any, server: AppServer
) -> None:
    page = open_page(browser, server, PHONE)
    played = [page.evaluate(PLAY_A_GAME, {"players": 4, "target": 10}) for _ in range(2)]
    page.goto(f"{server.url}/stats")
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    assert tile(page, "games") == "2"
    rows = "[data-region=history] tbody tr"
    ids = page.eval_on_selector_all(rows, "rows => rows.map(r => r.dataset.game)")
    assert ids == [state["id"] for state in reversed(played)]
    # Asked, then kept: nothing changes.
    page.click("[data-action=reset-stats]")
    page.click("[data-action=cancel-reset]")
    assert tile(page, "games") == "2" and api(page, "/api/stats")["games"] == 2
    # By keyboard: the question takes the focus on its safe answer (focus fell to the page,
    # and Tab then Enter reset the figures unasked); Escape keeps them and the focus returns.
    focused = "() => document.activeElement?.dataset.action || document.activeElement?.tagName"
    page.focus("[data-action=reset-stats]")
    page.keyboard.press("Enter")
    assert page.evaluate(focused) == "cancel-reset"
    page.keyboard.press("Escape")
    assert page.evaluate(focused) == "reset-stats"
    assert api(page, "/api/stats")["games"] == 2
    page.click("[data-action=reset-stats]")
    confirm = page.inner_text("[data-region=reset-confirm]")
    assert "nothing is deleted" in confirm
    page.eval_on_selector("[data-region=stats-reset]", "el => el.scrollIntoView()")
    no_horizontal_scroll(page)
    shoot(page, "stats-reset-phone-confirm")
    page.click("[data-action=confirm-reset]")
    page.wait_for_selector("[data-region=stats-since]")
    assert page.evaluate("() => document.activeElement.dataset.region") == "stats-since"
    assert tile(page, "games") == "0" and tile(page, "wins") == "0"
    assert page.is_visible("[data-region=no-stats]")
    assert page.eval_on_selector_all(rows, "rows => rows.map(r => r.dataset.game)") == ids
    stats = api(page, "/api/stats")
    assert stats["games"] == 0 and stats["since"] is not None
    assert len(api(page, "/api/history")) == 2
    no_horizontal_scroll(page)
    shoot(page, "stats-reset-phone-after", full_page=True)
    # The page as it loads after the reset, held sideways and on a desktop.
    page.reload()
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    assert tile(page, "games") == "0" and page.is_visible("[data-region=stats-since]")
    for name, viewport in VIEWPORTS[1:]:
        resize(page, viewport)
        no_horizontal_scroll(page)
        shoot(page, f"stats-reset-{name}-after", full_page=True)
    resize(page, DESKTOP)
    page.click("[data-action=reset-stats]")
    shoot(page, "stats-reset-desktop-confirm")
    # A game finished after the reset counts.
    page.evaluate(PLAY_A_GAME, {"players": 4, "target": 10})
    page.reload()
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    assert tile(page, "games") == "1"
    assert page.eval_on_selector_all(rows, "rows => rows.length") == 3
    assert not page.errors


def test_a_negative_score_has_a_minus_sign_as_on_the_scorekeeper(
    browser: Any, server: AppServer
) -> None:
    # The replay wrote "-7" and "-10" with a hyphen where the scorekeeper's sheet has a minus
    # sign ("−7"); both now write it with words.js's `score`.
    page = open_page(browser, server, PHONE)
    owner = browsers_owner(page)
    rules = hearts.Rules(bonus_card="JD", target_score=30)
    game = hearts.Game(rules, 3)  # seed 3: the first round scores -7, the second -10
    play_game(game)
    store_at(server.data_dir).create(
        "minus-replay", owner, rules.to_dict(), 3,
        {"seats": [None, "easy", "easy", "easy"]}, actions_of(game), "over",
    )  # fmt: skip
    first = game.results[0]
    assert min(first.scores) < 0 and min(first.totals) < 0
    page.goto(f"{server.url}/replay?game=minus-replay")
    page.wait_for_selector("[data-region=replay][data-ready=true]")
    page.keyboard.press("End")  # the first round's score
    rows = page.eval_on_selector_all(
        "[data-region=round-score] tbody tr",
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))",
    )
    written = [[f"−{-n}" if n < 0 else str(n) for n in row] for row in
               zip(first.points_taken, first.scores, first.totals, strict=True)]  # fmt: skip
    assert rows == written
    # The next round's seats start from those totals.
    page.keyboard.press("PageDown")
    lines = page.eval_on_selector_all("[data-region=score]", "els => els.map(e => e.textContent)")
    assert [line.removeprefix("total ") for line in lines] == [row[2] for row in written]
    for _ in range(4):  # into the tricks: "total −7, 0 taken this round"
        page.keyboard.press("ArrowRight")
    text = page.inner_text("[data-region=replay]")
    assert "total −" in text and not re.search(r"(?<![\w-])-\d", text), text
    shoot(page, "replay-phone-minus")
    assert not page.errors


#: A game's line in "Your games": "Best game: you came 2nd with 31 points, 4 more than the
#: winner. Finished 3 Dec 2026, 22:40." (it said "the best rival" for the winner or the
#: runner-up alike); a won game's margin is to the runner-up, a lost one's to the winner.
GAME_LINE = re.compile(
    r"^[A-Z][a-z ]+: you (won with −?\d+ points?, (\d+ fewer than the runner-up|level with "
    r"the best of the others)|came \d+(st|nd|rd|th) with −?\d+ points?, (\d+ more than the "
    r"winner|level with the best of the others))\. Finished .+\.$"
)


def test_one_finished_game_is_said_once_not_as_best_and_worst(
    browser: Any, server: AppServer
) -> None:
    # With one game finished, "Best game" and "Worst game" were the same line twice.
    page = open_page(browser, server, PHONE)
    page.evaluate(PLAY_A_GAME, {"players": 4, "target": 10})
    page.goto(f"{server.url}/stats")
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    assert tile(page, "games") == "1"
    body = page.inner_text("[data-region=stats-body]")
    assert "Best game" not in body and "Worst game" not in body and "Best and worst" not in body
    only = page.inner_text("[data-region=only-game]")
    # One sentence that reads as said: how it went, then the margin that ranks the games
    # (it read "16 over the best rival, with 16 points (10th)").
    assert GAME_LINE.match(plain(only)) and only.startswith("Your one game so far: you "), only
    shoot(page, "stats-phone-one-game", full_page=True)
    # A second game, against another level: best and worst, each once.
    page.evaluate(PLAY_A_GAME, {"players": 4, "target": 10, "levels": ["medium"]})
    page.reload()
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    # Against each level: one table, each level named once (a chart above the table said
    # the same figures again), its win rate as a figure and as a bar as long.
    by_level = api(page, "/api/stats")["by_level"]
    shown = page.eval_on_selector_all(
        "[data-region=by-level] tbody tr",
        """rows => rows.map((row) => ({ level: row.dataset.level,
            rate: row.querySelector('td.rate').textContent.trim(),
            bar: Number(row.querySelector('td.rate .bar').getAttribute('width')),
            named: [...document.querySelectorAll('[data-region=stats-body] *')].filter((el) =>
                !el.children.length && el.textContent.trim() === row.dataset.level).length }))""",
    )
    assert [row["level"] for row in shown] == list(by_level) and len(by_level) == 2, shown
    for row in shown:
        rate = by_level[row["level"]]["win_rate"]
        assert row["rate"] == f"{round(rate * 100)}%" and row["named"] == 1, row
        assert row["bar"] == max(2, 100 * rate), row
    assert page.locator("[data-region=best-game]").count() == 1
    assert page.locator("[data-region=worst-game]").count() == 1
    assert page.locator("[data-region=only-game]").count() == 0
    for region in ("best-game", "worst-game"):
        line = plain(page.inner_text(f"[data-region={region}]"))
        assert GAME_LINE.match(line), line
    # A best game with more points than the worst read as a mistake: what ranks them is said.
    how = page.inner_text("[data-region=best-worst-how]")
    assert how.startswith("Ranked by how far you finished from the best of the others"), how
    assert not page.errors


#: The replay's phones: upright, held sideways, and the smallest.
PHONES = (("phone", PHONE), ("landscape", LANDSCAPE), ("small", {"width": 320, "height": 568}))

#: The heights of the indices (the rank in a card's corner) under `selector`, and of each
#: hand card's top-left index, whether something else covers it at its two ends.
INDICES = """(selector) => [...document.querySelectorAll(selector)].map((index) => {
    const box = index.getBoundingClientRect();
    const card = index.closest('[data-card]');
    const y = box.top + box.height / 2;
    const at = (x) => document.elementFromPoint(x, y)?.closest('[data-card]') === card;
    return [box.height, at(box.left + 1) && at(box.right - 1)];
})"""


@pytest.mark.parametrize("players", [3, 4, 10])
def test_the_hands_read_on_a_phone_as_the_table_s_own(
    browser: Any, server: AppServer, players: int
) -> None:
    # On a phone the replay's hands were 34 px cards, their indices 6 to 7 px tall where the
    # table's own hand has 12 to 15 px: unreadable. Now each index is as tall as the table's
    # at the same screen, and none is covered by the next card (a hand of 17 cards, three
    # players, goes to two rows on the smallest phone).
    page = open_page(browser, server, PHONE)
    state = page.evaluate(PLAY_A_GAME, {"players": players, "target": 20})
    table: dict[str, float] = {}
    made = create_by_page(page, {"levels": ["easy"], "rules": {"players": players}})
    open_stored(page, server, made["id"])
    for name, viewport in PHONES:
        resize(page, viewport)
        heights = [h for h, _ in page.evaluate(INDICES, "#hand g.corner:first-of-type .index")]
        assert heights, name
        table[name] = min(heights)
    page.goto(f"{server.url}/replay?game={state['id']}")
    page.wait_for_selector("[data-region=replay][data-ready=true]")
    while shown_frame(page)["kind"] != "trick":
        page.keyboard.press("ArrowRight")
    found = {}
    for name, viewport in PHONES:
        resize(page, viewport)
        no_horizontal_scroll(page)
        shown = []
        for seat in range(players):
            page.eval_on_selector(
                f"[data-region=seats] > [data-seat='{seat}']",
                "row => row.scrollIntoView({block: 'center'})",
            )
            shown += page.evaluate(
                INDICES, f"[data-seat='{seat}'] .mini-card g.corner:first-of-type .index"
            )
        assert len(shown) == sum(len(hand) for hand in shown_frame(page)["hands"])
        found[name] = (
            min(h for h, _ in shown),
            [i for i, (_, seen) in enumerate(shown) if not seen],
        )
        shoot(page, f"replay-{name}-{players}-hands")
    # As tall within a hundredth of a pixel: layout rounds the same size to 14.99997 or 15.
    assert {
        name: (height >= table[name] - 0.01, hidden) for name, (height, hidden) in found.items()
    } == {name: (True, []) for name, _ in PHONES}, (found, table)
    assert not page.errors


#: Per finished game in "Your games": the lines its date, its table's size ("4 players to
#: 20") and its score ("5 points, 2 rounds") take, and its words broken across two lines.
GAME_LINES = """() => [...document.querySelectorAll('[data-region=history] tbody tr')]
  .map((row) => {
    const lines = (node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0)
            .map((r) => Math.round(r.bottom))).size;
    };
    const texts = [];
    const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.textContent.trim() && !node.parentElement.closest('.sr')) texts.push(node);
    }
    const broken = [];
    for (const node of texts) {
        for (const match of node.textContent.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const rows = new Set([...range.getClientRects()].map((r) => Math.round(r.bottom)));
            if (rows.size > 1) broken.push(match[0]);
        }
    }
    const find = (pattern) => texts.find((node) => pattern.test(node.textContent));
    return {
        date: lines(row.querySelector('th')),
        size: lines(find(/^\\d+ players to \\d+/)),
        score: lines(find(/points?, \\d+ rounds?$/)),
        broken,
    };
})"""


def test_finished_games_read_line_by_line_on_a_phone(browser: Any, server: AppServer) -> None:
    # On a phone the four columns of finished games were squeezed: the date in three lines,
    # "2 / points, / 1 round" down a narrow column, ten opponents a word or two a line. Each
    # game is now a block of lines: its date, its table and its score each on one line, no
    # word broken; on a desktop it stays a table of four columns; a table to a screen reader.
    page = open_page(browser, server, PHONE)
    for players in (10, 4):
        page.evaluate(PLAY_A_GAME, {"players": players, "target": 20})
    page.goto(f"{server.url}/stats")
    page.wait_for_selector("[data-region=stats][data-ready=true]")
    found = {}
    phones = (("phone", PHONE), ("landscape", LANDSCAPE), ("small", {"width": 320, "height": 568}))
    for name, viewport in phones:
        resize(page, viewport)
        no_horizontal_scroll(page)
        found[name] = page.evaluate(GAME_LINES)
        page.eval_on_selector("[data-region=history]", "table => table.scrollIntoView()")
        shoot(page, f"stats-history-{name}")
    one_line = [{"date": 1, "size": 1, "score": 1, "broken": []}] * 2
    assert found == {name: one_line for name, _ in phones}, found
    # Said as a table: its column headings, and each game a row headed by its date.
    table = page.get_by_role("table", name=re.compile(r"^Finished games \(2\)$"))
    assert table.get_by_role("columnheader").all_inner_texts() == [
        "Finished", "Table", "Result", "Game",
    ]  # fmt: skip
    assert table.get_by_role("rowheader").count() == 2
    assert table.get_by_role("row").count() == 3
    # The line under the games says what each of a game's links does, in a player's words
    # (it named only a terminal command for the record, which means little to most players).
    links = table.get_by_role("row").nth(1).locator(".game-links a").all_inner_texts()
    help_line = page.inner_text("[data-region=history-help]")
    assert links and all(f"{link} " in help_line for link in links), (links, help_line)
    assert "hearts replay" not in help_line
    # Each link is named with its game to a screen reader ("Replay, Download, Replay…" said
    # nothing of which game), its visible word first.
    names = page.eval_on_selector_all(
        "[data-region=history] tbody tr",
        """rows => rows.map((row) => [...row.querySelectorAll('.game-links a')].map((a) =>
            a.getAttribute('aria-label').replace(row.querySelector('th').innerText, 'DATE')))""",
    )
    assert names == [["Replay the game of DATE", "Download the record of the game of DATE"]] * 2
    resize(page, DESKTOP)
    shoot(page, "stats-history-desktop")
    # In its column the date breaks between the day and the time, not inside either (it
    # took three lines: "Dec 5, / 2026, 4:07 / PM").
    dates = page.eval_on_selector_all(
        "[data-region=history] tbody th.when",
        """cells => cells.map((cell) => [cell, ...cell.querySelectorAll('.day, .time')]
            .map((part) => {
                const range = document.createRange();
                range.selectNodeContents(part);
                const bottoms = [...range.getClientRects()].map((r) => Math.round(r.bottom));
                return new Set(bottoms).size; }))""",
    )
    assert dates in ([[2, 1, 1]] * 2, [[1, 1, 1]] * 2), dates
    # A desktop keeps the four columns side by side.
    tops = page.eval_on_selector_all(
        "[data-region=history] tbody tr:first-child > *",
        "cells => cells.map((c) => Math.round(c.getBoundingClientRect().top))",
    )
    assert len(tops) == 4 and len(set(tops)) == 1, tops
    assert not page.errors


#: Whether each region named is in sight at its middle, on top of whatever else is there.
IN_SIGHT = """(regions) => regions.map((region) => {
    const el = document.querySelector(`[data-region=${region}]`);
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return box.top >= 0 && box.bottom <= innerHeight && (top === el || el.contains(top));
})"""


def test_the_steps_words_stay_in_sight_beside_any_hand(browser: Any, server: AppServer) -> None:
    # Held sideways a phone shows one hand at a time: scrolled to another hand, the step's
    # words ("Trick 3 of 13: You led the 5♣; …") had gone with the top of the page, the
    # controls alone kept. Now the words stay with them; the narrowest phones keep the
    # controls alone, as there the two took a third of the screen.
    page = open_page(browser, server, LANDSCAPE)
    state = page.evaluate(PLAY_A_GAME, {"players": 4, "target": 20})
    page.goto(f"{server.url}/replay?game={state['id']}")
    page.wait_for_selector("[data-region=replay][data-ready=true]")
    while shown_frame(page)["kind"] != "trick":
        page.keyboard.press("ArrowRight")
    last = "[data-region=seats] > [data-seat]:last-child"
    for name, size, kept in (
        ("landscape", LANDSCAPE, ["position", "caption"]),
        ("phone", PHONE, ["position", "caption"]),
        ("small", {"width": 320, "height": 568}, ["position"]),
    ):
        resize(page, size)
        page.eval_on_selector(last, "row => row.scrollIntoView({ block: 'end' })")
        assert page.evaluate("scrollY") > 0, size  # scrolled past the page's top
        assert page.evaluate(IN_SIGHT, kept) == [True] * len(kept), size
        # A seat scrolled into view comes out below them, not under them.
        below = page.eval_on_selector(
            "[data-region=seats] > [data-seat]:nth-child(2)",
            """row => {
                row.scrollIntoView({ block: 'start' });
                const kept = document.querySelector('[data-region=position]').closest('nav');
                const over = getComputedStyle(kept.parentElement).display === 'contents'
                    ? kept : kept.parentElement;
                return row.getBoundingClientRect().top >= over.getBoundingClientRect().bottom - 1;
            }""",
        )
        assert below, size
        # Round, Back and Next in one row with the step's words (on the smallest phone
        # Next went to a row of its own, under the rest).
        tops = page.eval_on_selector_all(
            "nav.replay-controls > *",
            "els => els.map((e) => Math.round(e.getBoundingClientRect().top + "
            "e.getBoundingClientRect().height / 2))",
        )
        assert len(tops) == 4 and max(tops) - min(tops) <= 2, (size, tops)
        shoot(page, f"replay-{name}-words-kept")
    assert not page.errors
