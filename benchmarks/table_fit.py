"""How far the table scrolls at large text: every table size, on short screens and desktops.

For each table of --players (all of them by default), each phase (a scatter pass, a trick
being played, the round's panel) and each screen of --screens at each text size of --text
(as a browser's text setting makes it: the root font's size, the page laid out anew), prints
how many CSS px the page is taller than the screen ("down") and wider ("across"). A table that
fits reads 0 down and 0 across; a cell reads "down/across" only when it scrolls across too.

    PYTHONPATH=src .venv/bin/python benchmarks/table_fit.py
    PYTHONPATH=src .venv/bin/python benchmarks/table_fit.py --players 8 10 --text 200% \\
        --screens 667x375 --shots /tmp/shots

Needs Chromium (`make browser`) and Playwright (a dev dependency). The games are stored in a
temporary data directory and opened by an app served in this process.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import hearts  # noqa: E402
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS  # noqa: E402

from browser_support import CHROMIUM_ARGS, AppServer, chromium_path, store_for  # noqa: E402
from helpers import first_round_played, position  # noqa: E402

PHASES = ("passing", "playing", "round-over")
SCREENS = ("667x375", "640x360", "1280x800", "1366x768")
TEXT = ("150%", "175%", "200%")

SCROLLS = """() => { const page = document.documentElement;
    return [page.scrollHeight - innerHeight, page.scrollWidth - innerWidth]; }"""

SETTLE = "() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))"

READY = """() => {
    const table = document.querySelector('#game');
    if (table.dataset.animating || table.dataset.busy) return false;
    const p = table.dataset.phase;
    if (p === 'playing') return !!document.querySelector('[data-card][data-legal=true]');
    if (p === 'passing') return !!document.querySelector('[data-action=pass]');
    return !!document.querySelector('[data-action=next-round], [data-action=play-again]');
}"""


def game_for(players: int, phase: str) -> hearts.Game:
    """A game of `players` at `phase` at the person's (seat 0's) turn."""
    if phase == "passing":
        return hearts.Game(hearts.Rules(players=players, pass_cycle=("scatter",)), 5)
    if phase == "round-over":
        return first_round_played(hearts.Rules(players=players), 2)
    return position(players, lambda game: len(game.round.trick) >= 1)


def open_game(page: Any, server: AppServer, name: str, game: hearts.Game) -> None:
    store_for(page, server, name, game)
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("body[data-ready=true]")
    page.click(f"[data-action=continue][data-game='{name}']")
    page.wait_for_function(READY, timeout=20000)


def lay_out(page: Any, width: int, height: int, size: str) -> None:
    """The screen and the text size, then the page laid out anew (as the tests' `large_text`:
    Chromium keeps a container query's answer when only the font's size changes)."""
    page.evaluate(f"document.documentElement.style.fontSize = '{size}'")
    page.set_viewport_size({"width": width - 1, "height": height})
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(SETTLE)
    page.evaluate("window.scrollTo(0, 0)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+")
    parser.add_argument("--phases", nargs="+", choices=PHASES, default=list(PHASES))
    parser.add_argument("--screens", nargs="+", default=list(SCREENS))
    parser.add_argument("--text", nargs="+", default=list(TEXT))
    parser.add_argument("--shots", type=Path, help="keep a screenshot of each case here")
    args = parser.parse_args()
    players = args.players or list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    screens = [tuple(int(n) for n in screen.split("x")) for screen in args.screens]
    path = chromium_path()
    if path is None:
        raise SystemExit("Chromium is not installed (make browser)")
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    worst = 0
    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        server = AppServer(Path(data)).start()
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.emulate_media(reduced_motion="reduce")
            page.goto(f"{server.url}/?speed=instant")
            page.wait_for_selector("body[data-ready=true]")
            page.click("[data-action=new-game]")  # the browser's cookie
            page.wait_for_selector("#game[data-phase=passing] [data-card]")
            columns = [f"{w}x{h} {t}" for w, h in screens for t in args.text]
            print(f"{'phase':<11}{'players':>8}  " + "  ".join(f"{c:>13}" for c in columns))
            for phase in args.phases:
                for count in players:
                    open_game(page, server, f"fit-{phase}-{count}", game_for(count, phase))
                    cells = []
                    for width, height in screens:
                        for size in args.text:
                            lay_out(page, width, height, size)
                            down, across = page.evaluate(SCROLLS)
                            worst = max(worst, down, across)
                            cells.append(f"{down}" if across <= 0 else f"{down}/{across}")
                            if args.shots:
                                name = f"{phase}-{count}-{width}x{height}-{size.strip('%')}"
                                page.screenshot(path=str(args.shots / f"{name}.png"))
                    print(f"{phase:<11}{count:>8}  " + "  ".join(f"{c:>13}" for c in cells))
        finally:
            browser.close()
            server.stop()
    print(f"worst: {worst} px" if worst > 0 else "every table fits")


if __name__ == "__main__":
    main()
