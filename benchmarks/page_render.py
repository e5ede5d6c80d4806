"""Drawing the table on a slow phone: long tasks while a round is played, and tap to card.

Starts `hearts serve` from each --source given (a checkout's `src` folder; default: this one)
on a 127.0.0.1 port (a free one, or --port and the ones after) over a temporary data
directory, then plays a round in headless Chromium at phone size (390 x 844, touch) against
computer players, at each table size of --seats, the processor slowed --cpu times through the
DevTools protocol. The game is started, and any pass made, at full speed; the slowing and the
counting begin with the first trick and end when the round's panel shows (or after --cards of
the person's cards):

- **long tasks**: the main thread's tasks over 50 ms (a PerformanceObserver for `longtask`,
  installed before the page's own scripts): how many, their total and the worst;
- **tap to card**: from a tap on a card (its `pointerdown`) to the first frame painted with
  that card on the table (a MutationObserver sees it placed, then a frame and a task later).

The sources take turns, run by run, so a busy machine slows them alike. Medians and the range
of --runs runs are printed (a run's tap time is the median of its taps).

    .venv/bin/python benchmarks/page_render.py --runs 5                          # this checkout
    .venv/bin/python benchmarks/page_render.py --runs 5 --source /tmp/old/src --source src

Needs Chromium (`make browser`) and Playwright (a dev dependency).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from page_load import PHONE, ROOT, serve, stop
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM_ARGS, chromium_path

# Installed before the page's scripts: long tasks and tap-to-card times go to window.__perf,
# counted only while `counting` is set.
OBSERVE = """
(() => {
  const perf = (window.__perf = { counting: false, long: [], taps: [] });
  new PerformanceObserver((list) => {
    if (perf.counting) for (const e of list.getEntries()) perf.long.push(e.duration);
  }).observe({ type: "longtask", buffered: false });
  let pending = null;
  const seen = new MutationObserver((changes) => {
    if (!pending) return;
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.nodeType !== 1 || node.dataset.played !== pending.card) continue;
        const start = pending.start;
        pending = null;
        seen.disconnect();
        // The frame with the card in it: painted after this rAF, done by the task after.
        requestAnimationFrame(() => setTimeout(() => {
          if (perf.counting) perf.taps.push(performance.now() - start);
        }, 0));
        return;
      }
    }
  });
  addEventListener("pointerdown", (event) => {
    const card = event.target.closest?.("[data-region=hand] [data-card]");
    if (!card || card.dataset.legal !== "true") return;
    pending = { card: card.dataset.card, start: event.timeStamp };
    seen.observe(document.querySelector("[data-region=trick]"), { childList: true, subtree: true });
  }, true);
})();
"""

# Whether the person has something to do (or the round is over): what they do next.
NEXT = """() => {
    const table = document.querySelector('#game');
    if (table.dataset.animating || table.dataset.busy) return false;
    const p = table.dataset.phase;
    if (p === 'playing' && document.querySelector('[data-card][data-legal=true]')) return 'play';
    if (p === 'passing' && document.querySelector('[data-action=pass]')) return 'pass';
    if (p === 'round-over' || p === 'game-over' || p === 'moon-choice') return 'over';
    return false;
}"""


def next_step(page: Any) -> str:
    step: str = page.wait_for_function(NEXT, polling=100, timeout=300_000).json_value()
    return step


def play_round(page: Any, url: str, seats: int, cpu: float, cards: int) -> dict[str, Any]:
    page.goto(url + "/?speed=normal")
    page.wait_for_selector("body[data-ready=true]")
    page.click(f"[data-players='{seats}']")
    page.click("[data-action=new-game]")
    page.wait_for_selector("#game[data-phase] [data-region=hand] [data-card]")
    step = next_step(page)
    if step == "pass":  # larger tables may start with a round of no passing
        for key in page.eval_on_selector_all(
            "[data-region=hand] [data-card]", "els => els.slice(-3).map(e => e.dataset.key)"
        ):
            page.tap(f"[data-region=hand] [data-key='{key}']")
        page.tap("[data-action=pass]")
        step = next_step(page)
    assert step == "play", step
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    page.evaluate("() => { window.__perf.counting = true; }")
    start = time.perf_counter()
    played = 0
    while step == "play" and played < cards:
        page.tap("[data-region=hand] [data-card][data-legal=true]")
        played += 1
        step = next_step(page)
    seconds = time.perf_counter() - start
    found: dict[str, Any] = page.evaluate(
        "() => { window.__perf.counting = false; return window.__perf; }"
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    long = found["long"]
    return {
        "cards": played,
        "seconds": seconds,
        "long": len(long),
        "long_ms": sum(long),
        "worst_ms": max(long, default=0.0),
        "tap_ms": statistics.median(found["taps"]) if found["taps"] else float("nan"),
        "taps": len(found["taps"]),
    }


def spread(values: list[float], digits: int = 0) -> str:
    return (
        f"{statistics.median(values):.{digits}f} "
        f"({min(values):.{digits}f}–{max(values):.{digits}f})"
    )


def page_errors(page: Any) -> list[str]:
    """The errors `page` throws from now on, as they come."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", action="append", type=Path, help="a checkout's src folder")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seats", default="4,8", help="table sizes, comma-separated")
    parser.add_argument("--cpu", type=float, default=6, help="times slower than this machine")
    parser.add_argument("--cards", type=int, default=99, help="the person's cards at most")
    parser.add_argument(
        "--port", type=int, help="the first source's port, the next one's after it (else free ones)"
    )
    args = parser.parse_args()
    sources = args.source or [ROOT / "src"]
    sizes = [int(n) for n in args.seats.split(",")]
    executable = chromium_path()
    if executable is None:
        raise SystemExit("no Chromium: run `make browser`")
    results: dict[tuple[str, int], list[dict[str, Any]]] = {
        (str(s), n): [] for s in sources for n in sizes
    }
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as p:
        servers = [
            serve(s, Path(temp) / f"data{i}", args.port + i if args.port else None)
            for i, s in enumerate(sources)
        ]
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            for run in range(args.runs):
                for seats in sizes:
                    for source, (_, url) in zip(sources, servers, strict=True):
                        context = browser.new_context(
                            viewport=PHONE, is_mobile=True, has_touch=True
                        )
                        context.add_init_script(OBSERVE)
                        page = context.new_page()
                        errors = page_errors(page)
                        row = play_round(page, url, seats, args.cpu, args.cards)
                        context.close()
                        if errors:
                            raise SystemExit(f"the page from {source} failed: {errors}")
                        results[(str(source), seats)].append(row)
                        print(f"run {run + 1}, {seats} seats, {source}: {row}", flush=True)
        finally:
            browser.close()
            stop(servers)
    print(
        f"\nCPU x{args.cpu:g}, {args.runs} runs, phone {PHONE['width']}x{PHONE['height']}, "
        "speed normal"
    )
    print("| Source | Seats | Cards | Long tasks | Their total, ms | Worst, ms | Tap to card, ms |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for (source, seats), rows in results.items():
        print(
            f"| {source} | {seats} | {statistics.median(r['cards'] for r in rows):.0f} | "
            f"{spread([r['long'] for r in rows])} | {spread([r['long_ms'] for r in rows])} | "
            f"{spread([r['worst_ms'] for r in rows])} | {spread([r['tap_ms'] for r in rows])} |"
        )


if __name__ == "__main__":
    main()
