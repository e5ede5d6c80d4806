"""What every browser test needs: Debian's Chromium through Playwright, and a live server.

Chromium that cannot start skips a browser test, unless HEARTS_REQUIRE_BROWSER=1 (CI), which
makes it fail instead: a browser test never passes by not running.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Self

import pytest
import uvicorn

import hearts
from hearts.record import actions_of
from hearts.web.server import HeartsServer
from hearts.web.store import Store, owner_key

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}

#: The screens the layout tests draw at (CSS px), each name always one size, so that a size
#: a tester measured on reads the same in every test: phones upright, then held sideways,
#: tablets upright, desktops. PHONE is "phone" here, DESKTOP "laptop".
SCREENS = {
    "smallest-phone": {"width": 320, "height": 568},
    "short-phone": {"width": 360, "height": 640},
    "small-phone": {"width": 360, "height": 740},
    "phone": PHONE,
    "shortest-phone-landscape": {"width": 640, "height": 360},
    "smaller-phone-landscape": {"width": 667, "height": 375},
    "small-phone-landscape": {"width": 740, "height": 360},
    "phone-landscape": {"width": 844, "height": 390},
    "tablet": {"width": 768, "height": 1024},
    "tablet-air": {"width": 820, "height": 1180},
    "tablet-pro": {"width": 834, "height": 1194},
    "desktop": {"width": 1280, "height": 800},
    "laptop": DESKTOP,
    "laptop-taller": {"width": 1366, "height": 800},
}


def screens(*names: str) -> dict[str, dict[str, int]]:
    """The screens of SCREENS with these names, in this order."""
    return {name: SCREENS[name] for name in names}


def skip_or_fail(reason: str) -> None:
    if os.environ.get("HEARTS_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser required (HEARTS_REQUIRE_BROWSER=1): {reason}")
    pytest.skip(reason)


def chromium_path() -> str | None:
    for candidate in (os.environ.get("HEARTS_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium() -> Iterator[Any]:
    """A launched headless Chromium, for a fixture to yield from; closed afterwards."""
    path = chromium_path()
    if path is None:
        skip_or_fail("Chromium is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:  # pragma: no cover - playwright is a dev dependency
        skip_or_fail(f"Playwright is not installed: {error}")
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        except Exception as error:
            skip_or_fail(f"Chromium did not start: {error}")
        yield launched
        launched.close()


class LiveServer:
    """An ASGI app under uvicorn in a thread, on a free loopback port."""

    def __init__(self, app: Any) -> None:
        # The socket is bound here and handed to uvicorn, held from now to the stop: a port
        # only looked up (bound, closed, then bound again by uvicorn) could be taken in
        # between by another server of a test run beside this one ("address already in use").
        # SO_REUSEADDR as uvicorn sets it: a server started again on this port once this one
        # has stopped is not refused for the connections it left in TIME_WAIT.
        self.socket = socket.socket()
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        # The app's own server when it has a hub of event streams: its stop ends them first,
        # as `hearts serve` does. uvicorn's plain stop waits for every open connection, and
        # an event stream never ends by itself, so a page left open held `stop()` for its
        # whole wait and left the server running past it.
        hub = getattr(getattr(app, "state", None), "hub", None)
        self.server = (
            HeartsServer(config, started_line="", stopping=hub.stop)
            if hub is not None
            else uvicorn.Server(config)
        )
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()


class AppServer(LiveServer):
    """The whole app over a data directory, the computer players in threads (a process pool
    inside the test process gains nothing); `options` go to `create_app`."""

    def __init__(self, data_dir: Path, **options: Any) -> None:
        from hearts.web.app import create_app

        super().__init__(create_app(data_dir, bot_workers=0, **options))
        self.data_dir = data_dir


def store_for(page: Any, server: AppServer, game_id: str, game: hearts.Game) -> None:
    """Save `game` for this page's browser, as if it had been played here (a computer player
    in every other seat), for the page to open from its list of games."""
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "hearts_browser")
    Store(server.data_dir).create(
        game_id,
        owner_key(cookie),
        game.rules.to_dict(),
        int(game.seed),
        {"levels": ["easy"] * (game.rules.players - 1)},
        actions_of(game),
        "over" if game.is_over else "active",
    )


# An element's words as they are seen, and as they are heard: a card in symbols ("Q♠") is
# shown aria-hidden beside its name for screen readers ("queen of spades", class "sr").
SEEN = """(e) => { const k = e.cloneNode(true);
    k.querySelectorAll('.sr').forEach((x) => x.remove()); return k.textContent; }"""
HEARD = """(e) => { const k = e.cloneNode(true);
    k.querySelectorAll('[aria-hidden=true]').forEach((x) => x.remove()); return k.textContent; }"""


#: The invisible marks that set a name apart from the words round it (U+2068 FIRST STRONG
#: ISOLATE, U+2069 POP DIRECTIONAL ISOLATE: words.js `named`).
ISOLATES = str.maketrans("", "", "\u2068\u2069")


def plain(words: Any) -> Any:
    """`words` (a text, or texts in lists and dicts, as `page.evaluate` returns them) without
    the marks that set names apart, so a test reads the words a person reads."""
    if isinstance(words, str):
        return words.translate(ISOLATES)
    if isinstance(words, list):
        return [plain(item) for item in words]
    if isinstance(words, dict):
        return {key: plain(value) for key, value in words.items()}
    return words


def seen(page: Any, selector: str) -> str:
    text: str = plain(page.eval_on_selector(selector, SEEN))
    return text


def heard(page: Any, selector: str) -> str:
    text: str = plain(page.eval_on_selector(selector, HEARD))
    return text


#: The box of the first element a selector matches, read in one turn of the page's script.
BOX = """(selector) => {
    const found = document.querySelector(selector);
    if (!found || !found.getClientRects().length) return null;
    const r = found.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height};
}"""


def box(page: Any, selector: str) -> dict[str, float] | None:
    """Where `selector` is drawn, or None when it is absent or not drawn. Unlike a locator's
    bounding_box, which finds the element first and measures it after, a part the page draws
    again between the two (the lobby, at every piece of news) cannot read as missing."""
    found: dict[str, float] | None = page.evaluate(BOX, selector)
    return found


#: Waits for the page's transitions and animations about to end (cards sliding to where a
#: resize put them), at most a second: a picture taken mid-slide shows a hand off the screen
#: that a person never sees at rest. Not for a long one (a turn's clock) nor one driven by
#: scrolling (a box's fade at its foot), which have no end to wait for.
AT_REST = """() => Promise.race([
    Promise.all(document.getAnimations()
        .filter((a) => a.playState === 'running' && a.timeline instanceof DocumentTimeline
            && a.effect.getComputedTiming().endTime - (a.currentTime ?? 0) <= 1000)
        .map((a) => a.finished.catch(() => null))),
    new Promise((done) => setTimeout(done, 1000)),
])"""


def settle(page: Any) -> None:
    """Wait for the page's next frame and the task after it: by then what a resize, a turned
    screen or a changed style wakes (resize and media listeners, resize observers, animation
    frames) has run."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")


def resize(page: Any, size: dict[str, int]) -> None:
    """The page at another screen size, once it has answered it. Setting the size alone returns
    before the page's resize listeners run: measured at once, a page that fits itself to the
    screen (the replay's hands in one row or two, the scorekeeper's names) is caught half done."""
    page.set_viewport_size(size)
    settle(page)


def shoot(page: Any, name: str, full_page: bool = False) -> None:
    """Keep a screenshot as `name`.png in HEARTS_SCREENSHOT_DIR, when that is set, once
    what moves on the page has come to rest."""
    folder = os.environ.get("HEARTS_SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.evaluate(AT_REST)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full_page)


def create_by_page(page: Any, body: dict[str, Any]) -> dict[str, Any]:
    """A game made by POST /api/games from the page itself (so with its cookie), for settings
    the start screen does not offer; the state the server answered (201 asserted)."""
    made = page.evaluate(
        """async (body) => {
            const r = await fetch('/api/games', {method: 'POST',
                headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
            return [r.status, await r.json()];
        }""",
        body,
    )
    assert made[0] == 201, made
    state: dict[str, Any] = made[1]
    return state


# Text that runs out of `selector`'s boxes or off the screen sideways: each text's lines as
# drawn, less what a box between it and its root clips (a name cut short with "…").
SPILLS = """([selector, apart]) => {
    const found = [];
    for (const root of document.querySelectorAll(selector)) {
        const outer = root.getBoundingClientRect();
        const [left, right] = [Math.max(0, outer.left), Math.min(innerWidth, outer.right)];
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent.trim()) continue;
            if (apart && node.parentElement.closest(apart)) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const line of range.getClientRects()) {
                let [l, r] = [line.left, line.right];
                for (let el = node.parentElement; el && el !== root; el = el.parentElement) {
                    if (getComputedStyle(el).overflowX === 'visible') continue;
                    const clip = el.getBoundingClientRect();
                    [l, r] = [Math.max(l, clip.left), Math.min(r, clip.right)];
                }
                if (r - l > 0.5 && (l < left - 1 || r > right + 1)) {
                    const text = node.textContent.trim().slice(0, 30);
                    found.push([text, Math.round(l), Math.round(r)]);
                }
            }
        }
    }
    return found;
}"""


#: A seat's speech bubble is drawn past the seat's edges on purpose (towards the middle).
BUBBLE = ".quip"


def spills(page: Any, selector: str) -> list[list[Any]]:
    """The texts inside `selector` that run out of its boxes or off the screen sideways: a
    seat's speech bubble only off the screen, as it opens past the seat's own box."""
    found: list[list[Any]] = page.evaluate(SPILLS, [selector, BUBBLE])
    found += page.evaluate(SPILLS, [f":is({selector}) {BUBBLE}", None])
    return found
