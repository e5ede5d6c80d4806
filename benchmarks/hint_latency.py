"""How long `GET /api/games/{id}/hint` takes, against a real `hearts serve`.

Starts `hearts serve` on a free loopback port with a temporary data directory, then one
browser plays whole games against easy players, asking for a hint before every pass and
every card and then making the move the hint gave. Each hint is timed from send to answer
(wall clock), and the server process's CPU time for it is read from /proc around the request
(one client at a time, so the CPU is the hint's: the search runs in a thread of the server).
Passes and plays are timed apart, with medians, their 95% intervals and p95.

    .venv/bin/python benchmarks/hint_latency.py --games 4
    .venv/bin/python benchmarks/hint_latency.py --games 2 --players 3
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from web_play import free_port, start_server

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def median_interval(values: list[float]) -> tuple[float, float]:
    """A 95% interval for the median from order statistics (no assumption on the shape)."""
    ordered = sorted(values)
    n = len(ordered)
    half = 1.96 * math.sqrt(n) / 2
    low = max(0, math.floor(n / 2 - half))
    high = min(n - 1, math.ceil(n / 2 + half))
    return ordered[low], ordered[high]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def play(client: httpx.Client, pid: int, players: int, target: int) -> dict[str, list[float]]:
    timed: dict[str, list[float]] = {"pass": [], "play": [], "pass cpu": [], "play cpu": []}
    body = {"levels": ["easy"], "rules": {"players": players, "target_score": target}}
    state: dict[str, Any] = client.post("/api/games", json=body).json()
    game = state["id"]
    while state["phase"] != "game-over":
        phase = state["phase"]
        if phase in ("passing", "playing"):
            kind = "pass" if phase == "passing" else "play"
            cpu, start = cpu_seconds(pid), time.perf_counter()
            response = client.get(f"/api/games/{game}/hint")
            timed[kind].append(time.perf_counter() - start)
            timed[f"{kind} cpu"].append(cpu_seconds(pid) - cpu)
            response.raise_for_status()
            cards = response.json()["cards"]
            if kind == "pass":
                path, move = "pass", {"cards": cards}
            else:
                path, move = "play", {"card": cards[0]}
        elif phase == "moon-choice":
            path, move = "moon", {"choice": "add"}
        else:
            path, move = "next", {}
        answer = client.post(f"/api/games/{game}/{path}", json={**move, "move": state["move"]})
        answer.raise_for_status()
        state = answer.json()
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--target", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        port = free_port()
        server = start_server(port, Path(directory))
        try:
            timed: dict[str, list[float]] = {}
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
                for _ in range(args.games):
                    for key, values in play(client, server.pid, args.players, args.target).items():
                        timed.setdefault(key, []).extend(values)
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(
        f"{platform.node()} {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    print(f"{args.games} games to {args.target} at {args.players} players against easy players")
    print("| hint | n | wall p50 (95% CI) | wall p95 | server CPU p50 | server CPU p95 |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in ("pass", "play"):
        wall, cpu = timed[kind], timed[f"{kind} cpu"]
        low, high = median_interval(wall)
        print(
            f"| {kind} | {len(wall)} | {statistics.median(wall) * 1000:.0f} ms "
            f"({low * 1000:.0f}-{high * 1000:.0f}) | {p95(wall) * 1000:.0f} ms | "
            f"{statistics.median(cpu) * 1000:.0f} ms | {p95(cpu) * 1000:.0f} ms |"
        )


if __name__ == "__main__":
    main()
