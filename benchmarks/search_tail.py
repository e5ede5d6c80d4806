"""Where a searching level's slow decisions come from: the anatomy of its p95.

Usage: python benchmarks/search_tail.py [--level hard] [--deals 60] [--seed tail]

--level is a level or one of `ai_duel.py`'s players ("quiet", "hard:500", ...).

The level plays seat 0 of --deals deals against three medium players. Every decision is
timed in CPU time; for every searched one the race is recorded: cards in hand, candidates,
deals tried, candidates still in the race at the end, and for the last two the mean and
variance of their paired difference. Prints the median and p95 of all decisions and the
decisions at or over the p95, slowest first.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from ai_duel import make, seat_zero_decisions

from hearts import Round, Rules
from hearts.ai.racing import Arm, _paired
from hearts.ai.search import HardPlayer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", default="tail")
    args = parser.parse_args()
    races: list[dict[str, Any]] = []
    evaluate = HardPlayer.evaluate

    def recorded(self: HardPlayer, view: Any, know: Any, candidates: Any, *more: Any) -> Any:
        start = time.process_time()
        arms: list[Arm] = evaluate(self, view, know, candidates, *more)
        active = sorted((a for a in arms if a.active), key=lambda a: a.mean)
        race: dict[str, Any] = {
            "cpu": time.process_time() - start,
            "hand": know.hand.bit_count(),
            "arms": len(arms),
            "deals": max(len(a.values) for a in arms),
            "left": len(active),
        }
        if len(active) >= 2:
            race["difference"] = _paired(active[1].values, active[0].values)
        races.append(race)
        return arms

    setattr(HardPlayer, "evaluate", recorded)  # noqa: B010 (a recording wrapper, for this run)
    cpu: list[float] = []
    for deal in range(args.deals):
        rnd = Round.deal(Rules(), seed=f"{args.seed}:{deal}", hand_number=deal)
        player = make(args.level, f"{args.seed}:{deal}")
        cpu += [seconds for seconds, _ in seat_zero_decisions(player, rnd)]
    p95 = statistics.quantiles(cpu, n=20)[-1]
    print(
        f"{args.level}: {len(cpu)} decisions, CPU ms median {1000 * statistics.median(cpu):.1f}"
        f", p95 {1000 * p95:.1f}; {len(races)} searched"
    )
    print("ms | cards in hand | candidates | deals | left in the race | last two: mean, variance")
    for race in sorted(races, key=lambda r: -r["cpu"]):
        if race["cpu"] < p95:
            break
        mean, variance = race.get("difference", (float("nan"), float("nan")))
        print(
            f"{1000 * race['cpu']:.0f} | {race['hand']} | {race['arms']} | {race['deals']} | "
            f"{race['left']} | {mean:.2f}, {variance:.1f}"
        )


if __name__ == "__main__":
    main()
