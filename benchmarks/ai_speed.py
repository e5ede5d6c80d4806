"""Decision times of the computer players, on one core.

Usage: python benchmarks/ai_speed.py [--levels easy medium hard] [--rounds 40] [--repeat 3]

Each level plays seat 0 of --rounds deals against three medium players; every pass and card
it chooses is timed, in wall-clock time and in CPU time of this process (CPU time is what a
decision costs when the machine is shared). Prints the median and the 95th percentile of
each repeat, then the median of the repeats.
"""

from __future__ import annotations

import argparse
import statistics
import time

from hearts import Round, Rules
from hearts.ai import make_player


def decision_times(level: str, rounds: int, seed: int) -> tuple[list[float], list[float]]:
    wall: list[float] = []
    cpu: list[float] = []
    rules = Rules()
    for deal in range(rounds):
        rnd = Round.deal(rules, seed=f"speed:{seed}:{deal}", hand_number=deal)
        bots = [make_player(level, seed=deal)] + [
            make_player("medium", seed=s) for s in range(1, 4)
        ]

        if rnd.phase == "passing":
            for seat in range(4):
                view = rnd.view(seat)
                w, c = time.perf_counter(), time.process_time()
                cards = bots[seat].choose_pass(view)
                if seat == 0:
                    wall.append(time.perf_counter() - w)
                    cpu.append(time.process_time() - c)
                rnd.give(seat, cards)
        while rnd.phase == "playing":
            seat = rnd.turn
            view = rnd.view(seat)
            w, c = time.perf_counter(), time.process_time()
            card = bots[seat].choose_play(view)
            if seat == 0:
                wall.append(time.perf_counter() - w)
                cpu.append(time.process_time() - c)
            rnd.play(card)
    return wall, cpu


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for level in args.levels:
        runs = []
        for repeat in range(args.repeat):
            wall, cpu = decision_times(level, args.rounds, repeat)
            ms = [1000 * statistics.median(wall), 1000 * p95(wall)]
            ms += [1000 * statistics.median(cpu), 1000 * p95(cpu)]
            runs.append(ms)
            print(
                f"{level:>6} run {repeat + 1}: {len(wall)} decisions, wall median {ms[0]:.2f} ms, "
                f"p95 {ms[1]:.2f} ms; cpu median {ms[2]:.2f} ms, p95 {ms[3]:.2f} ms",
                flush=True,
            )
        med = [statistics.median(r[i] for r in runs) for i in range(4)]
        print(
            f"| {level} | {med[0]:.2f} | {med[1]:.2f} | {med[2]:.2f} | {med[3]:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
