"""Moons let through: a player that always goes for the moon against three of each level.

Usage: python benchmarks/ai_moons.py [--levels medium frozen hard expert] [--deals 50]

The "moon" test opponent (`hearts.ai.moonshooter`) sits in each seat of every deal in turn,
the level under test in the other three. Reported per level: the moon player's attempts
(it took the Q♠ and all hearts but two or fewer), the moons it shot (let through), and
the attempts the level stopped, out of all rounds; and the level's points a round.
"""

from __future__ import annotations

import argparse
import multiprocessing
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from ai_duel import SeatResult, play_seat

from hearts import Rules


def _task(args: tuple[str, str, int, int]) -> SeatResult:
    level, seed, deal, seat = args
    return play_seat("moon", level, Rules(), seed, deal, seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=["medium", "frozen", "hard", "expert"])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="moons")
    args = parser.parse_args()
    seats = Rules().players
    print(f"{args.deals} deals x {seats} seats, the moon player against three of each level")
    for level in args.levels:
        started = time.perf_counter()
        tasks = [(level, args.seed, d, s) for d in range(args.deals) for s in range(seats)]
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            results = pool.map(_task, tasks)
        rounds = len(results)
        attempts = sum(r.attempt or r.moon for r in results)
        shot = sum(r.moon for r in results)
        print(
            f"| {level} | {rounds} | {attempts} | {shot} ({shot / rounds:.1%}) | "
            f"{attempts - shot} | {time.perf_counter() - started:.0f}s |",
            flush=True,
        )


if __name__ == "__main__":
    main()
