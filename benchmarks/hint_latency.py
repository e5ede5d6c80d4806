"""How long `POST /api/games/{id}/hint` (and the round review) takes, on a real `hearts serve`.

Starts `hearts serve` on a free loopback port with a temporary data directory, then one
browser plays whole games against easy players, asking for a hint before every pass and
every card and then making the move the hint gave; with `--review` it also asks for each
round's review as the round ends (`GET /api/games/{id}/review?round=N`). Each request is
timed from send to answer (wall clock), and the server process's CPU time for it is read
from /proc around it (one client at a time, so the CPU is the request's: the searches run in
threads of the server). Medians with their 95% intervals, and p95.

    .venv/bin/python benchmarks/hint_latency.py --games 4
    .venv/bin/python benchmarks/hint_latency.py --games 2 --players 3
    .venv/bin/python benchmarks/hint_latency.py --games 2 --review
"""

from __future__ import annotations

import argparse
import asyncio
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
from web_play import free_port, one_browser, start_server

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
    timed: dict[str, list[float]] = {kind: [] for kind in ("pass", "play", "pass cpu", "play cpu")}
    body = {"levels": ["easy"], "rules": {"players": players, "target_score": target}}
    state: dict[str, Any] = client.post("/api/games", json=body).json()
    game = state["id"]
    while True:
        phase = state["phase"]
        if phase in ("passing", "playing"):
            kind = "pass" if phase == "passing" else "play"
            cpu, start = cpu_seconds(pid), time.perf_counter()
            response = client.post(f"/api/games/{game}/hint", json={})
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
            if phase == "game-over":
                break
            path, move = "next", {}
        answer = client.post(f"/api/games/{game}/{path}", json={**move, "move": state["move"]})
        answer.raise_for_status()
        state = answer.json()
    return timed


def niced_cpu(root: int, nice: int | None = 19) -> float:
    """CPU seconds of `root`'s descendants running at nice 19 (the review worker), or at
    any niceness with `nice=None`."""
    parents: dict[int, tuple[int, int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        cpu = (int(fields[11]) + int(fields[12])) / TICKS
        parents[int(entry.name)] = (int(fields[1]), int(fields[16]), cpu)
    total = 0.0
    for pid, (_, niceness, cpu) in parents.items():
        up = pid
        while up in parents and up != root:
            up = parents[up][0]
        if up == root and pid != root and (nice is None or niceness == nice):
            total += cpu
    return total


def review_rounds(
    client: httpx.Client, players: int, target: int, think: float
) -> tuple[list[float], int]:
    """One game at a person's pace; the wall time of each round's review, asked for as the
    round ends, and the rounds played."""
    ready: list[float] = []
    body = {"levels": ["easy"], "rules": {"players": players, "target_score": target}}
    state: dict[str, Any] = client.post("/api/games", json=body).json()
    game = state["id"]
    while True:
        phase, view = state["phase"], state["view"]
        if phase in ("passing", "playing"):
            time.sleep(think)
            if phase == "passing":
                path, move = "pass", {"cards": view["hand"][: view["cards_to_pass"]]}
            else:
                path, move = "play", {"card": view["legal"][0]}
        elif phase == "moon-choice":
            path, move = "moon", {"choice": "add"}
        else:
            start = time.perf_counter()
            answer = client.get(
                f"/api/games/{game}/review", params={"round": len(state["results"])}
            )
            ready.append(time.perf_counter() - start)
            answer.raise_for_status()
            if phase == "game-over":
                return ready, len(state["results"])
            path, move = "next", {}
        answer = client.post(f"/api/games/{game}/{path}", json={**move, "move": state["move"]})
        answer.raise_for_status()
        state = answer.json()


async def play_load(base: str, browsers: int, seconds: float) -> list[float]:
    latencies: list[float] = []
    until = time.monotonic() + seconds
    games: list[int] = []
    await asyncio.gather(
        *(one_browser(base, "hard", until, latencies, games, 4) for _ in range(browsers))
    )
    return latencies


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def with_server(workers: int, work: Any) -> Any:
    """Run `work(base_url, pid)` against a fresh `hearts serve` with that many review
    workers."""
    os.environ["HEARTS_REVIEW_WORKERS"] = str(workers)
    with tempfile.TemporaryDirectory() as directory:
        port = free_port()
        server = start_server(port, Path(directory))
        try:
            return work(f"http://127.0.0.1:{port}", server.pid)
        finally:
            server.terminate()
            server.wait(timeout=30)


def describe(values: list[float]) -> str:
    low, high = median_interval(values)
    return (
        f"{len(values)} | {statistics.median(values) * 1000:.0f} ms "
        f"({low * 1000:.0f}-{high * 1000:.0f}) | {p95(values) * 1000:.0f} ms"
    )


def review_benchmark(args: argparse.Namespace) -> None:
    print(
        f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load_average()}"
    )

    def ready_part(base: str, pid: int) -> tuple[list[float], int, float, float]:
        ready: list[float] = []
        rounds = 0
        with httpx.Client(base_url=base, timeout=120) as client:
            for _ in range(args.games):
                found, played = review_rounds(client, args.players, args.target, args.think)
                ready += found
                rounds += played
        return ready, rounds, niced_cpu(pid), niced_cpu(pid, None)

    ready, rounds, cpu, everything = with_server(1, ready_part)
    print(f"ready: {args.games} games, {rounds} rounds, think {args.think} s, against easy")
    print("| review ready after the round's last card | n | p50 (95% CI) | p95 |")
    print(f"| background on | {describe(ready)} |")
    print(f"review worker CPU (nice 19): {cpu:.1f} s, {cpu / max(1, rounds):.2f} s a round")
    # Easy players think in the server, so the workers' CPU here is the reviews'.
    print(
        f"all workers' CPU (with those for reviews a request waited on): {everything:.1f} s, "
        f"{everything / max(1, rounds):.2f} s a round"
    )
    print(f"load average after part 1: {load_average()}")

    if args.runs < 1:
        return
    plays: dict[str, list[float]] = {"on": [], "off": []}
    worker_cpu: list[float] = []
    for run in range(args.runs):
        # On, off, then off, on: a machine whose load drifts favours neither.
        order = (("on", 1), ("off", 0)) if run % 2 == 0 else (("off", 0), ("on", 1))
        for mode, workers in order:

            def load_part(base: str, pid: int) -> tuple[list[float], float]:
                found = asyncio.run(play_load(base, args.browsers, args.seconds))
                return found, niced_cpu(pid)

            found, cpu = with_server(workers, load_part)
            plays[mode] += found
            if mode == "on":
                worker_cpu.append(cpu)
            print(
                f"run {run + 1} {mode}: {len(found)} plays, p50 "
                f"{statistics.median(found) * 1000:.0f} ms, p95 {p95(found) * 1000:.0f} ms, "
                f"review worker CPU {cpu:.1f} s, load {load_average()}"
            )
    print(f"play: {args.browsers} browsers against hard, {args.runs} x {args.seconds:.0f} s each")
    print("| background reviews | play requests | p50 (95% CI) | p95 |")
    for mode in ("on", "off"):
        print(f"| {mode} | {describe(plays[mode])} |")
    print(f"review worker CPU in the 'on' runs: {', '.join(f'{c:.1f} s' for c in worker_cpu)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument(
        "--review", action="store_true", help="the round review instead of the hint"
    )
    parser.add_argument("--think", type=float, default=1.0, help="--review: seconds a move")
    parser.add_argument("--browsers", type=int, default=2, help="--review: browsers vs hard")
    parser.add_argument("--seconds", type=float, default=60, help="--review: each play run")
    parser.add_argument("--runs", type=int, default=2, help="--review: play runs on and off")
    args = parser.parse_args()
    if args.review:
        review_benchmark(args)
        return
    with tempfile.TemporaryDirectory() as directory:
        port = free_port()
        server = start_server(port, Path(directory))
        try:
            timed: dict[str, list[float]] = {}
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
                for _ in range(args.games):
                    found = play(client, server.pid, args.players, args.target)
                    for key, values in found.items():
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
        if not wall:
            continue
        low, high = median_interval(wall)
        print(
            f"| {kind} | {len(wall)} | {statistics.median(wall) * 1000:.0f} ms "
            f"({low * 1000:.0f}-{high * 1000:.0f}) | {p95(wall) * 1000:.0f} ms | "
            f"{statistics.median(cpu) * 1000:.0f} ms | {p95(cpu) * 1000:.0f} ms |"
        )


if __name__ == "__main__":
    main()
