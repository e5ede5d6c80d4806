"""Do the named players play like their descriptions? Each style against three plain players.

Usage: python benchmarks/ai_styles.py [--level hard] [--against medium] [--deals 50] [--styles ...]
                                      [--workers 1]

For every style (`hearts.ai.STYLES`) the styled player sits in each seat of every deal in
turn against three plain players of the same level (or three `--against` players: against
medium the moon is tried more often, so a taste for it shows in fewer rounds). Reported:
points a round (95% interval over deals), moon attempts and moons shot per 100 rounds, how
often it took the Q♠, and how often it passed the Q♠ when dealt her in a round with a pass.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from ai_duel import SeatResult, play_seat

from hearts import Rules
from hearts.ai import STYLES


def _task(args: tuple[str, str, str, int, int]) -> tuple[int, SeatResult]:
    spec, against, seed, deal, seat = args
    return deal, play_seat(spec, against, Rules(), seed, deal, seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--against", help="the other three (default: plain players of --level)")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--styles", nargs="+", default=list(STYLES), choices=list(STYLES))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="styles")
    args = parser.parse_args()
    seats = Rules().players
    against = args.against or f"{args.level}/plain"
    print(f"{args.deals} deals x {seats} seats, each style of {args.level} against three {against}")
    for style in args.styles:
        started = time.perf_counter()
        spec = f"{args.level}/{style}"
        tasks = [(spec, against, args.seed, d, s) for d in range(args.deals) for s in range(seats)]
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            results = pool.map(_task, tasks)
        per_deal: dict[int, list[int]] = {}
        for deal, result in results:
            per_deal.setdefault(deal, []).append(result.score)
        means = [statistics.fmean(v) for v in per_deal.values()]
        # One deal gives no interval (a spread needs two): said as such, not a crash.
        ci = 1.96 * statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else math.nan
        rounds = len(results)
        attempts = sum(r.attempt or r.moon for _, r in results)
        moons = sum(r.moon for _, r in results)
        queens = sum(r.queen for _, r in results)
        dealt = [r.passed_queen for _, r in results if r.passed_queen is not None]
        passed = f"{sum(dealt) / len(dealt):.0%} of {len(dealt)}" if dealt else "-"
        print(
            f"| {style} | {rounds} | {statistics.fmean(means):.2f} ± {ci:.2f} | "
            f"{100 * attempts / rounds:.1f} | {100 * moons / rounds:.1f} | "
            f"{queens / rounds:.1%} | {passed} | {time.perf_counter() - started:.0f}s |",
            flush=True,
        )


if __name__ == "__main__":
    main()
