"""Several processes on PostgreSQL beside one process on SQLite, under the same load, in one run.

For each round: one `hearts serve` over SQLite gets --games live games (benchmarks/web_load.py's
browsers: own cookie each, thinking --think seconds between moves); then two `hearts serve`
processes over one throwaway PostgreSQL (tests/pg_support.py's cluster) get the same number,
half on each process (as a balancer in front would split them). Rounds alternate the two so
that a change in the machine's load falls on both.

    .venv/bin/python benchmarks/web_load_pg.py --games 400 --seconds 40 --rounds 2

Prints each run and, per set-up, the median of the rounds: requests per second, play-request
p50 and p99, errors; and the ratio of the two set-ups' requests per second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))

import web_load

from pg_support import Cluster, start_cluster


def merged(tallies: list[web_load.Tally]) -> web_load.Tally:
    total = web_load.Tally()
    for tally in tallies:
        for route, times in tally.latencies.items():
            total.latencies.setdefault(route, []).extend(times)
        total.errors += tally.errors
        total.games_finished += tally.games_finished
        total.most_in_progress += tally.most_in_progress
        total.retries += tally.retries
        total.loop_lag += tally.loop_lag
    return total


async def load_on(bases: list[str], args: argparse.Namespace) -> dict[str, Any]:
    share = args.games // len(bases)
    runs = await asyncio.gather(
        *(
            web_load.load(base, share, args.seconds, args.think, args.level, args.ramp, 30.0)
            for base in bases
        )
    )
    elapsed = max(seconds for _, seconds in runs)
    return web_load.summary(merged([tally for tally, _ in runs]), elapsed)


def run_on(
    setup: str, processes: int, args: argparse.Namespace, cluster: Cluster | None
) -> dict[str, Any]:
    env_before = dict(os.environ)
    # Every browser here is 127.0.0.1, counted by all the processes together.
    os.environ["HEARTS_GAMES_PER_HOUR_PER_ADDRESS"] = "1000000"
    if cluster is not None:
        os.environ["HEARTS_DATABASE_URL"] = cluster.new_database()
    else:
        os.environ.pop("HEARTS_DATABASE_URL", None)
    servers = []
    try:
        with tempfile.TemporaryDirectory() as directory:
            for _ in range(processes):
                port = web_load.free_port()
                servers.append(web_load.start_server(port, Path(directory) / "data"))
                servers[-1].port = port  # type: ignore[attr-defined]
            bases = [f"http://{web_load.HOST}:{s.port}" for s in servers]  # type: ignore[attr-defined]
            before = web_load.load_average()
            result = asyncio.run(load_on(bases, args))
            result.update(setup=setup, load_before=before, load_after=web_load.load_average())
            return result
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
        os.environ.clear()
        os.environ.update(env_before)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--level", default="medium", choices=["easy", "medium", "hard"])
    parser.add_argument("--ramp", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    clusters: Iterator[Cluster] = start_cluster()
    cluster = next(clusters)
    results: dict[str, list[dict[str, Any]]] = {"sqlite-1": [], "postgresql-2": []}
    try:
        for _ in range(args.rounds):
            for setup, processes, db in (("sqlite-1", 1, None), ("postgresql-2", 2, cluster)):
                result = run_on(setup, processes, args, db)
                results[setup].append(result)
                print(json.dumps(result), flush=True)
    finally:
        for _ in clusters:  # stops and removes the cluster
            pass
    keys = ["requests_per_s", "play_p50_ms", "play_p99_ms", "errors"]
    medians = {
        setup: {key: statistics.median(r[key] for r in runs) for key in keys}
        for setup, runs in results.items()
    }
    ratio = medians["postgresql-2"]["requests_per_s"] / medians["sqlite-1"]["requests_per_s"]
    print(json.dumps({"medians": medians, "rps_ratio_pg2_over_sqlite1": round(ratio, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
