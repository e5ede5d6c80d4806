"""Engine speed: random full rounds per second, through the public API and the playout path.

Usage: python benchmarks/engine_speed.py [--players 4 6 ...] [--seconds 3] [--repeat 5]

"public API": deal, random passes, random legal cards via `Round.legal_cards()` and
`Round.play()`, scoring. "playout": the raw-mask path computer players search with
(`hearts.playout.random_deal_playout`: a random deal played out by random legal cards).
Each figure is the median of --repeat runs of about --seconds each, on one core; with
--clock cpu the seconds are this process's CPU time, which other work on a shared machine
disturbs less than the wall clock.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from hearts import Round, Rules
from hearts.playout import random_deal_playout
from hearts.scoring import score_round


def public_api_round(rules: Rules, seed: int, rng: random.Random) -> None:
    rnd = Round.deal(rules, seed=seed, hand_number=seed)
    if rnd.phase == "passing":
        count = rnd.cards_to_pass()
        for seat in range(rules.players):
            rnd.give(seat, rng.sample(rnd.hand(seat), count))
    while rnd.phase == "playing":
        rnd.play(rng.choice(rnd.legal_cards()))
    score_round(rules, rnd, [0] * rules.players)


def rate(step: Callable[[int], None], seconds: float, clock: Callable[[], float]) -> float:
    """Rounds per second of `step`, run for about `seconds` of `clock`."""
    count = 0
    start = clock()
    deadline = start + seconds
    while True:
        for _ in range(50):
            step(count)
            count += 1
        now = clock()
        if now >= deadline:
            return count / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 6, 10])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--clock",
        choices=["wall", "cpu"],
        default="wall",
        help="time by the wall clock, or by this process's CPU time (steadier on a busy machine)",
    )
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    print(
        f"{platform.python_implementation()} {platform.python_version()} on "
        f"{platform.machine()}, {args.clock} clock"
    )
    print(f"{'players':>7} {'path':<10} {'median rounds/s':>15}  runs")
    for players in args.players:
        rules = Rules(players=players)
        rng = random.Random(players)

        def api_step(i: int, rules: Rules = rules, rng: random.Random = rng) -> None:
            public_api_round(rules, i, rng)

        def playout_step(i: int, rules: Rules = rules, rng: random.Random = rng) -> None:
            random_deal_playout(rules, rng)

        paths: list[tuple[str, Callable[[int], None]]] = [("public API", api_step)]
        if rules.decks == 1:
            paths.append(("playout", playout_step))
        for name, step in paths:
            runs = [rate(step, args.seconds, clock) for _ in range(args.repeat)]
            shown = " ".join(f"{r:,.0f}" for r in runs)
            print(f"{players:>7} {name:<10} {statistics.median(runs):>15,.0f}  {shown}")


if __name__ == "__main__":
    main()
