"""How soon a card one person plays shows on another person's screen, in real browsers.

Two headless Chromium contexts (two people, each with their own cookie) and two computer
players at one table on a loopback server; each person plays at once when it is their turn,
at the "instant" speed. Each page notes (Date.now(), one clock for both) when a click on a card
is made and when its table first shows a move count at or past that card's; the difference is
the time from the click to the card on the other screen: the request, the move, the computer
players' answers, the event stream and the drawing.

    .venv/bin/python benchmarks/friends_browser.py --rounds 3
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

from hearts.web.app import create_app

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("HEARTS_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


class Loopback:
    """The app under uvicorn in a thread, on a free loopback port."""

    def __init__(self) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        app = create_app(Path(tempfile.mkdtemp()), bot_workers=0)
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.05)

    def stop(self) -> None:
        # The browsers are closed first, so no event stream holds the server open.
        self.server.should_exit = True
        self.thread.join(timeout=10)


# Every change of the move shown, and every click on a card, with the one wall clock.
WATCH = """
window.__seen = [];
window.__clicks = [];
document.addEventListener('click', (e) => {
    // A card played (not one chosen for a pass): a legal card while the hand plays.
    const card = e.target.closest('[data-card][data-legal=true]');
    const hand = document.querySelector('[data-region=hand]');
    const table = document.querySelector('#game');
    if (card && hand.dataset.mode === 'play' && table) {
        window.__clicks.push([Date.now(), Number(table.dataset.move)]);
    }
}, true);
// Each stream message as it arrives (its id is the move count), before the page shows it.
window.__arrived = [];
const Source = window.EventSource;
window.EventSource = class extends Source {
    constructor(...args) {
        super(...args);
        for (const kind of ['state', 'table']) {
            this.addEventListener(kind, (m) => {
                window.__arrived.push([Date.now(), Number(m.lastEventId)]);
            });
        }
    }
};
document.addEventListener('DOMContentLoaded', () => {
    const table = document.querySelector('#game');
    new MutationObserver(() => window.__seen.push([Date.now(), Number(table.dataset.move)]))
        .observe(table, {attributes: true, attributeFilter: ['data-move']});
});
"""

READY = """() => {
    const t = document.querySelector('#game');
    if (t.hidden || t.dataset.animating || t.dataset.busy) return '';
    if (t.dataset.phase === 'playing')
        return document.querySelector('[data-card][data-legal=true]') ? 'playing' : '';
    if (t.dataset.phase === 'passing')
        return document.querySelector('[data-action=pass]') ? 'passing' : '';
    return t.dataset.phase;
}"""


def act(page: Any) -> str:
    """Do what the person may do now, if anything; a page that moved on between the look
    and the click (a message came) is simply looked at again."""
    now: str = page.evaluate(READY)
    try:
        if now == "passing":
            keys = page.eval_on_selector_all(
                "[data-region=hand] [data-card]", "els => els.map(e => e.dataset.key)"
            )
            for key in keys[-3:]:
                page.click(f"[data-region=hand] [data-key='{key}']", timeout=2000)
            page.click("[data-action=pass]", timeout=2000)
        elif now == "playing":
            page.click("[data-card][data-legal=true]", timeout=2000)
        elif now == "round-over" and page.locator("[data-action=next-round]").count():
            page.click("[data-action=next-round]", timeout=2000)
    except PlaywrightTimeout:
        return ""
    return now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    path = chromium_path()
    if path is None:
        raise SystemExit("Chromium is not installed.")
    server = Loopback()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        pages = []
        for _ in range(2):
            context = browser.new_context(viewport={"width": 1366, "height": 800})
            context.add_init_script(WATCH)
            pages.append(context.new_page())
        host, friend = pages
        host.goto(f"{server.url}/?speed=instant")
        host.wait_for_selector("body[data-ready=true]")
        body = {
            "rules": {"target_score": 1000},
            "seats": ["you", "easy", "friend", "easy"],
            "turn_time": None,
            "name": "Ann",
        }
        state = host.evaluate(
            """async (body) => (await fetch('/api/games', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify(body)})).json()""",
            body,
        )
        host.goto(f"{server.url}/?table={state['id']}&speed=instant")
        address, _, token = state["table"]["invite"].partition("#")
        friend.goto(f"{server.url}{address}&speed=instant#{token}")
        friend.fill("#join-name", "Bea")
        friend.click("[data-action=join]")
        for page in pages:
            page.wait_for_selector("#game[data-phase=passing] [data-card]", timeout=20000)
        rounds = 0
        deadline = time.monotonic() + 600
        while rounds < args.rounds and time.monotonic() < deadline:
            acted = [act(page) for page in pages]
            if "round-over" in acted:
                rounds += 1
                for page in pages:
                    page.wait_for_selector("#game:not([data-phase=round-over])", timeout=20000)
            elif not any(acted):
                time.sleep(0.01)
        time.sleep(1)
        delays: list[float] = []  # click to the card on the other screen
        arrivals: list[float] = []  # click to the stream message at the other page
        drawing: list[float] = []  # that message to the card shown
        for page, other in ((host, friend), (friend, host)):
            seen = other.evaluate("window.__seen")
            arrived = other.evaluate("window.__arrived")
            for clicked, move in page.evaluate("window.__clicks"):
                later = [when for when, shown in seen if shown > move and when >= clicked]
                came = [when for when, shown in arrived if shown > move and when >= clicked]
                if later and came:
                    delays.append(min(later) - clicked)
                    arrivals.append(min(came) - clicked)
                    first = min(came)
                    drawn = [when for when, shown in seen if shown > move and when >= first]
                    drawing.append(min(drawn) - first)
        browser.close()
    server.stop()
    print(f"date {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    python = platform.python_version()
    print(f"machine {platform.machine()}, {os.cpu_count()} cores, Python {python}")
    print(f"rounds {rounds}, person moves measured {len(delays)}")
    report("click to the stream message at the other page", arrivals)
    report("the message to the card shown (the page's own part)", drawing)
    report("click to the card shown on the other screen", delays)


def report(what: str, values: list[float]) -> None:
    values = sorted(values)

    def at(q: float) -> float:
        return values[min(len(values) - 1, round(q * (len(values) - 1)))]

    print(
        f"{what}, ms: median {statistics.median(values):.0f}, p90 {at(0.9):.0f}, "
        f"p99 {at(0.99):.0f}, max {values[-1]:.0f}"
    )


if __name__ == "__main__":
    main()
