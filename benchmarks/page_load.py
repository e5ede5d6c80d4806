"""The start screen on a slow phone line: how long until it can be used, first visit and after.

Starts `hearts serve` from each --source given (a checkout's `src` folder; default: this one)
on a free 127.0.0.1 port over a temporary data directory, then opens the start page in
headless Chromium at phone size, the network and the processor slowed through the DevTools
protocol (--latency ms a request, --kbps both ways, the CPU --cpu times slower):

- **first visit**: a new browser context, nothing kept;
- **next visit**: the same context, the page opened again (what it kept is used).

Each is timed from navigation to `body[data-ready=true]` (the start screen drawn and working),
with the requests made and the bytes that came over the wire. The sources take turns, run by
run, so a busy machine slows them alike. Medians and the range of --runs runs are printed.

    .venv/bin/python benchmarks/page_load.py --runs 5                          # this checkout
    .venv/bin/python benchmarks/page_load.py --runs 5 --source /tmp/old/src --source src

Needs Chromium (`make browser`) and Playwright (a dev dependency).
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM_ARGS, chromium_path  # noqa: E402

PHONE: Any = {"width": 390, "height": 844}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def serve(source: Path, data: Path, port: int | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """`hearts serve` from `source` over `data`, on `port` (or a free one)."""
    port = port or free_port()
    env = {**os.environ, "PYTHONPATH": str(source.resolve())}
    command = [sys.executable, "-c", "from hearts.cli import main; main()", "serve"]
    command += ["--port", str(port)]
    command += ["--data-dir", str(data)]
    quiet = subprocess.DEVNULL  # its log unread (a pipe nobody reads fills, and stops it)
    server = subprocess.Popen(command, env=env, stdout=quiet, stderr=quiet)
    url = f"http://{HOST}:{port}"
    for _ in range(200):
        try:
            socket.create_connection((HOST, port), timeout=0.1).close()
            return server, url
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server from {source} did not start")


def stop(servers: list[tuple[subprocess.Popen[bytes], str]]) -> None:
    """End the servers `serve` started."""
    for server, _ in servers:
        server.terminate()
        server.wait(timeout=10)


def slow(page: Any, latency: float, kbps: float, cpu: float) -> Any:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    rate = kbps * 1024 / 8
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": latency,
            "downloadThroughput": rate,
            "uploadThroughput": rate,
        },
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    counted = {"requests": 0, "bytes": 0}

    def finished(event: dict[str, Any]) -> None:
        counted["requests"] += 1
        counted["bytes"] += int(event.get("encodedDataLength", 0))

    cdp.on("Network.loadingFinished", finished)
    return counted


def visit(page: Any, url: str, counted: dict[str, int]) -> dict[str, float]:
    counted.update(requests=0, bytes=0)
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.wait_for_selector("body[data-ready=true]", timeout=120_000)
    seconds = time.perf_counter() - start
    page.wait_for_timeout(300)  # the last answers counted
    return {"seconds": seconds, "requests": counted["requests"], "kb": counted["bytes"] / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", action="append", type=Path, help="a checkout's src folder")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--latency", type=float, default=400, help="ms a request (Slow 3G: 400)")
    parser.add_argument("--kbps", type=float, default=400, help="kilobits a second (Slow 3G: 400)")
    parser.add_argument("--cpu", type=float, default=4, help="times slower than this machine")
    args = parser.parse_args()
    sources = args.source or [ROOT / "src"]
    executable = chromium_path()
    if executable is None:
        raise SystemExit("no Chromium: run `make browser`")
    results: dict[str, dict[str, list[dict[str, float]]]] = {
        str(s): {"first": [], "next": []} for s in sources
    }
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as p:
        servers = [serve(s, Path(temp) / f"data{i}") for i, s in enumerate(sources)]
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            for run in range(args.runs):
                for source, (_, url) in zip(sources, servers, strict=True):
                    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                    page = context.new_page()
                    counted = slow(page, args.latency, args.kbps, args.cpu)
                    first = visit(page, url + "/", counted)
                    again = visit(page, url + "/", counted)
                    context.close()
                    results[str(source)]["first"].append(first)
                    results[str(source)]["next"].append(again)
                    print(f"run {run + 1} {source}: first {first}, next {again}", flush=True)
        finally:
            browser.close()
            stop(servers)
    print(
        f"\nlatency {args.latency:.0f} ms, {args.kbps:.0f} kbit/s, CPU x{args.cpu:g}, "
        f"{args.runs} runs, phone {PHONE['width']}x{PHONE['height']}"
    )
    print("| Source | Visit | Ready, s: median (range) | Requests | KB over the wire |")
    print("|---|---|--:|--:|--:|")
    for source, visits in results.items():
        for kind, rows in visits.items():
            secs = [r["seconds"] for r in rows]
            print(
                f"| {source} | {kind} | {statistics.median(secs):.2f} ({min(secs):.2f}–"
                f"{max(secs):.2f}) | {statistics.median(r['requests'] for r in rows):.0f} | "
                f"{statistics.median(r['kb'] for r in rows):.1f} |"
            )


if __name__ == "__main__":
    main()
