"""The web game under load: many games in progress at once against a real `hearts serve`.

Starts `hearts serve` on a free 127.0.0.1 port over a temporary data directory (SQLite and
the computer players' process pool as in use), then keeps --games games in progress, each
a browser with its own cookie that thinks for a while (--think seconds on average,
exponentially spread) before each move, as a person does. A game that ends is replaced by
a new one, so the count in progress stays at --games. Every request is timed from send to
answer on the client; a play request's time includes the three computer players' replies
and the store's transaction. The run stops by itself after --seconds (plus the answers
still in flight, at most --timeout).

    .venv/bin/python benchmarks/web_load.py --games 200 --seconds 60 --runs 3

Prints, for each run and as the median of the runs: play-request p50/p99/max, requests per
second, games finished, and errors (any answer that is not a success, or no answer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(port: int, data_dir: Path) -> subprocess.Popen[bytes]:
    command = [
        # The installed `hearts` script, as a person runs it (with `python -c` the
        # computer players would think in threads: pool workers cannot re-import stdin).
        str(Path(sys.executable).with_name("hearts")),
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://{HOST}:{port}/api/options", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not start within 60 s")


def next_request(state: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """What a person would send next: a random legal pass or card, a moon choice, a deal."""
    view, move, phase = state["view"], state["move"], state["phase"]
    if phase == "passing":
        return "pass", {"move": move, "cards": rng.sample(view["hand"], view["cards_to_pass"])}
    if phase == "playing":
        return "play", {"move": move, "card": rng.choice(view["legal"])}
    if phase == "moon-choice":
        return "moon", {"move": move, "choice": "add"}
    return "next", {"move": move}


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    in_progress: int = 0
    most_in_progress: int = 0
    retries: int = 0
    loop_lag: list[float] = field(default_factory=list)

    def note(self, route: str, seconds: float) -> None:
        self.latencies.setdefault(route, []).append(seconds)


async def one_browser(
    client: httpx.AsyncClient,
    tally: Tally,
    level: str,
    think: float,
    until: float,
    rng: random.Random,
) -> None:
    """One browser: plays game after game until `until`, thinking before each move."""
    # The server issues the browser's cookie with its first game (a signed token; a
    # made-up one would own nothing) and this browser's own client keeps it.
    headers: dict[str, str] = {}
    while time.monotonic() < until:
        started = time.perf_counter()
        try:
            response = await client.post(
                "/api/games", json={"levels": [level] * 3}, headers=headers
            )
        except httpx.HTTPError as error:
            tally.errors.append(f"new game: {error!r}")
            return
        tally.note("new", time.perf_counter() - started)
        if response.status_code != 201:
            tally.errors.append(f"new game: {response.status_code} {response.text[:200]}")
            return
        state: dict[str, Any] = response.json()
        tally.games_started += 1
        tally.in_progress += 1
        tally.most_in_progress = max(tally.most_in_progress, tally.in_progress)
        try:
            while state["phase"] != "game-over":
                await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
                if time.monotonic() >= until:
                    return
                route, body = next_request(state, rng)
                url = f"/api/games/{state['id']}/{route}"
                started = time.perf_counter()
                try:
                    response = await client.post(url, json=body, headers=headers)
                except (httpx.ReadError, httpx.RemoteProtocolError):
                    # The server closed an idle keep-alive connection as this request went
                    # out. A browser sends it again, and so do we: the move number makes a
                    # repeat safe (it is answered from the record, never applied twice).
                    tally.retries += 1
                    try:
                        response = await client.post(url, json=body, headers=headers)
                    except httpx.HTTPError as error:
                        tally.errors.append(f"{route}: {error!r}")
                        return
                except httpx.HTTPError as error:
                    tally.errors.append(f"{route}: {error!r}")
                    return
                tally.note(route, time.perf_counter() - started)
                if response.status_code != 200:
                    tally.errors.append(f"{route}: {response.status_code} {response.text[:200]}")
                    return
                state = response.json()
            tally.games_finished += 1
        finally:
            tally.in_progress -= 1


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def load(
    base: str, games: int, seconds: float, think: float, level: str, ramp: float, timeout: float
) -> tuple[Tally, float]:
    tally = Tally()
    # Each browser has its own connection, as a real one does (one shared httpx pool of
    # hundreds of connections costs the client more CPU than the server spends). The
    # clients are made before the clock starts: making one costs the client milliseconds.
    clients = [httpx.AsyncClient(base_url=base, timeout=timeout) for _ in range(games)]
    start = time.monotonic()
    until = start + seconds

    async def staggered(index: int) -> None:
        # Browsers arrive over the ramp rather than all in the same millisecond.
        await asyncio.sleep(ramp * index / games)
        async with clients[index] as client:
            await one_browser(client, tally, level, think, until, random.Random(index))

    async def watch_the_client() -> None:
        # How late this client's own timers fire: a starved client inflates every latency.
        while time.monotonic() < until:
            before = time.monotonic()
            await asyncio.sleep(0.05)
            tally.loop_lag.append(time.monotonic() - before - 0.05)

    await asyncio.wait_for(
        asyncio.gather(watch_the_client(), *(staggered(i) for i in range(games))),
        seconds + ramp + timeout,
    )
    return tally, time.monotonic() - start


def summary(tally: Tally, elapsed: float) -> dict[str, Any]:
    plays = tally.latencies.get("play", [])
    every = [t for times in tally.latencies.values() for t in times]
    return {
        "play_requests": len(plays),
        "play_p50_ms": round(1000 * percentile(plays, 0.50), 1),
        "play_p99_ms": round(1000 * percentile(plays, 0.99), 1),
        "play_max_ms": round(1000 * max(plays, default=float("nan")), 1),
        "all_p99_ms": round(1000 * percentile(every, 0.99), 1),
        "p99_ms_by_route": {
            route: round(1000 * percentile(times, 0.99), 1)
            for route, times in sorted(tally.latencies.items())
        },
        "requests_per_s": round(len(every) / elapsed, 1),
        "plays_per_s": round(len(plays) / elapsed, 1),
        "games_most_in_progress": tally.most_in_progress,
        "games_finished": tally.games_finished,
        "errors": len(tally.errors),
        "keep_alive_retries": tally.retries,
        "client_lag_p99_ms": round(1000 * percentile(tally.loop_lag, 0.99), 1),
        "first_errors": tally.errors[:3],
    }


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games in progress at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each run")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument("--level", default="medium", choices=["easy", "medium", "hard"])
    parser.add_argument("--ramp", type=float, default=5.0, help="seconds over which games start")
    parser.add_argument("--timeout", type=float, default=30.0, help="per-request timeout")
    parser.add_argument("--runs", type=int, default=1, help="runs, each on a fresh server")
    parser.add_argument("--url", help="an already running server (default: start one)")
    args = parser.parse_args()
    if args.url and not args.url.startswith(f"http://{HOST}"):
        parser.error(f"load is only ever sent to {HOST}")
    results = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as directory:
            process = None
            base = args.url
            if base is None:
                port = free_port()
                process = start_server(port, Path(directory) / "data")
                base = f"http://{HOST}:{port}"
            try:
                before = load_average()
                tally, elapsed = asyncio.run(
                    load(
                        base,
                        args.games,
                        args.seconds,
                        args.think,
                        args.level,
                        args.ramp,
                        args.timeout,
                    )
                )
                result = {
                    "run": run + 1,
                    **summary(tally, elapsed),
                    "load_before": before,
                    "load_after": load_average(),
                }
            finally:
                if process is not None:
                    process.terminate()
                    process.wait(timeout=30)
        results.append(result)
        print(json.dumps(result), flush=True)
    if len(results) > 1:
        keys = ["play_p50_ms", "play_p99_ms", "all_p99_ms", "requests_per_s", "errors"]
        medians = {key: round(statistics.median(r[key] for r in results), 1) for key in keys}
        print(json.dumps({"median_of_runs": len(results), **medians}))
    return 0 if all(r["errors"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
