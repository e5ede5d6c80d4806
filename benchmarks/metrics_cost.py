"""What the metrics cost a request, in-process and without the noise of a whole server.

Times a bare ASGI app (a 200 with a small body) called directly, and the same app inside
`hearts.web.metrics.HttpMetrics`, alternating, and the counters a move adds (a person's
move, a decision of each computer player). The difference is what the metrics add to each request's
handling; `benchmarks/web_play.py` with and without `HEARTS_METRICS_PORT` shows it against a
whole play request.

    .venv/bin/python benchmarks/metrics_cost.py --requests 100000 --runs 5
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from types import SimpleNamespace

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hearts import Rules
from hearts.web.metrics import HttpMetrics, Metrics

ROUTE = SimpleNamespace(path="/api/games/{game_id}/play")


async def bare(scope: Scope, receive: Receive, send: Send) -> None:
    scope["route"] = ROUTE  # as FastAPI's routing leaves it
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})


async def receive() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


async def send(message: Message) -> None:
    return None


async def per_request(app: ASGIApp, requests: int) -> float:
    """Microseconds a request through `app`."""
    began = time.perf_counter()
    for _ in range(requests):
        scope = {"type": "http", "method": "POST", "path": "/api/games/x/play", "root_path": ""}
        await app(scope, receive, send)
    return (time.perf_counter() - began) / requests * 1e6


def per_move(metrics: Metrics, moves: int) -> float:
    """Microseconds of the counting a move adds at the standard table (the person's move,
    and a decision of each computer player)."""
    decisions = [("medium", 0.0001)] * (Rules().players - 1)
    began = time.perf_counter()
    for _ in range(moves):
        metrics.moved("play")
        metrics.decided(decisions)
    return (time.perf_counter() - began) / moves * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000, help="requests a run")
    parser.add_argument("--runs", type=int, default=5, help="runs of each, alternating")
    args = parser.parse_args()
    metrics = Metrics()
    counted = HttpMetrics(bare, metrics)
    off: list[float] = []
    on: list[float] = []
    moves: list[float] = []
    for _ in range(args.runs):
        off.append(asyncio.run(per_request(bare, args.requests)))
        on.append(asyncio.run(per_request(counted, args.requests)))
        moves.append(per_move(metrics, args.requests))
    print(f"bare app: {', '.join(f'{x:.2f}' for x in off)} µs a request")
    print(f"with HttpMetrics: {', '.join(f'{x:.2f}' for x in on)} µs a request")
    print(f"a move's counters: {', '.join(f'{x:.2f}' for x in moves)} µs")
    added = statistics.median(on) - statistics.median(off)
    print(
        f"median of {args.runs}: the middleware adds {added:.2f} µs a request, a move's"
        f" counters {statistics.median(moves):.2f} µs"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
