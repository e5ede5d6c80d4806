"""Play requests per second and their latency, against a real `hearts serve`.

Starts `hearts serve` on a free loopback port with a temporary data directory (the process
pool and SQLite as in use), then several browsers play whole games at once, each against
three players of one level; a mix of levels shows whether one level's games slow another's.
Each play request is timed from send to answer: it includes the computer players' replies
and the store's transaction. Passes and round changes are played but not timed.

    .venv/bin/python benchmarks/web_play.py --players medium:4 --seconds 20 --runs 3
    .venv/bin/python benchmarks/web_play.py --players hard:2,medium:2
    .venv/bin/python benchmarks/web_play.py --players medium:1 --tables 4,10

`--tables 4,10` measures tables of those sizes side by side: each run plays every size in
turn against the one server, so both see the same machine. The server process's CPU time per
play request (from /proc; the pool workers not counted, quick levels think in the server) is
shown too.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(port: int, data_dir: Path) -> subprocess.Popen[bytes]:
    hearts = Path(sys.executable).with_name("hearts")
    process = subprocess.Popen(
        [str(hearts), "serve", "--port", str(port), "--data-dir", str(data_dir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not start")


async def one_browser(
    base: str, level: str, until: float, latencies: list[float], games: list[int], table: int
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        while time.monotonic() < until:
            body = {"levels": [level] * (table - 1), "rules": {"players": table}}
            response = await client.post("/api/games", json=body)
            state: dict[str, Any] = response.json()
            while state["phase"] != "game-over" and time.monotonic() < until:
                game, move, view = state["id"], state["move"], state["view"]
                if state["phase"] == "passing":
                    body = {"cards": view["hand"][-view["cards_to_pass"] :], "move": move}
                    response = await client.post(f"/api/games/{game}/pass", json=body)
                elif state["phase"] == "playing":
                    body = {"card": view["legal"][0], "move": move}
                    started = time.perf_counter()
                    response = await client.post(f"/api/games/{game}/play", json=body)
                    latencies.append(time.perf_counter() - started)
                elif state["phase"] == "moon-choice":
                    body = {"choice": "add", "move": move}
                    response = await client.post(f"/api/games/{game}/moon", json=body)
                else:
                    response = await client.post(f"/api/games/{game}/next", json={"move": move})
                response.raise_for_status()
                state = response.json()
            games.append(1 if state["phase"] == "game-over" else 0)


def parse_mix(text: str) -> dict[str, int]:
    """ "hard:2,medium:2" -> {"hard": 2, "medium": 2}: browsers per opponents' level."""
    mix: dict[str, int] = {}
    for part in text.split(","):
        level, _, count = part.partition(":")
        mix[level.strip()] = int(count or 1)
    return mix


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    base: str, mix: dict[str, int], seconds: float, table: int = 4, pid: int | None = None
) -> dict[str, dict[str, float]]:
    """Per level: play requests, requests per second, p50 and p99 latency in ms, and the
    server's CPU ms per play request."""
    cpu_before = cpu_seconds(pid) if pid else 0.0
    latencies: dict[str, list[float]] = {level: [] for level in mix}
    games: list[int] = []
    started = time.monotonic()
    until = started + seconds
    await asyncio.gather(
        *(
            one_browser(base, level, until, latencies[level], games, table)
            for level, count in mix.items()
            for _ in range(count)
        )
    )
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(pid) - cpu_before if pid else 0.0
    plays = sum(len(times) for times in latencies.values())
    results = {}
    for level, times in latencies.items():
        ordered = sorted(times)
        results[level] = {
            "plays": len(ordered),
            "per_second": len(ordered) / elapsed,
            "p50_ms": 1000 * ordered[len(ordered) // 2],
            "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
            "cpu_ms": 1000 * cpu / plays if plays else 0.0,
        }
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--players",
        default="medium:4",
        help="opponents' level and browsers playing at once, e.g. medium:4 or hard:2,medium:2",
    )
    parser.add_argument("--seconds", type=float, default=20, help="length of each run")
    parser.add_argument("--runs", type=int, default=3, help="runs; the median is reported")
    parser.add_argument(
        "--tables", default="4", help="players at each table, side by side, e.g. 4,10"
    )
    args = parser.parse_args()
    mix = parse_mix(args.players)
    tables = [int(n) for n in args.tables.split(",")]
    runs: dict[int, list[dict[str, dict[str, float]]]] = {n: [] for n in tables}
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(port, Path(folder))
        try:
            base = f"http://127.0.0.1:{port}"
            for run in range(args.runs):
                for table in tables:
                    found = asyncio.run(measure(base, mix, args.seconds, table, server.pid))
                    runs[table].append(found)
                    for level, result in found.items():
                        print(
                            f"run {run + 1}, {table} players, {level}: "
                            f"{result['plays']:.0f} plays, {result['per_second']:.1f}/s, "
                            f"p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, "
                            f"server CPU {result['cpu_ms']:.2f} ms a play"
                        )
        finally:
            server.terminate()
            server.wait(timeout=30)
    for table in tables:
        for level, count in mix.items():
            rows = [run[level] for run in runs[table]]
            p50s = sorted(r["p50_ms"] for r in rows)
            print(
                f"median of {args.runs} runs, {table} players, {level} ({count} browsers of "
                f"{sum(mix.values())}, {os.cpu_count()} cores): "
                f"{statistics.median(r['per_second'] for r in rows):.1f} plays/s, "
                f"p50 {statistics.median(p50s):.1f} ms (runs {p50s[0]:.1f} to {p50s[-1]:.1f}), "
                f"p99 {statistics.median(r['p99_ms'] for r in rows):.1f} ms, "
                f"server CPU {statistics.median(r['cpu_ms'] for r in rows):.2f} ms a play"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
