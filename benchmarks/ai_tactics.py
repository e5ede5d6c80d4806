"""Score the levels on the tactics suite: the share of positions each gets right, per seed.

Usage: python benchmarks/ai_tactics.py [--levels medium frozen hard expert] [--seeds 3]

Every level is asked every position of tests/data/tactics.json once per seed (a new player
per seed); a choice is right when the deep search put it within the tolerance of the best.
Prints, per level, the share right over all seeds (and its spread over the seeds), per kind
of position, and the positions it missed most often.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from ai_duel import make

from hearts.ai.tactics import load, score

SUITE = pathlib.Path(__file__).parent.parent / "tests" / "data" / "tactics.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=["medium", "frozen", "hard", "expert"])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--suite", default=str(SUITE))
    args = parser.parse_args()
    positions = load(args.suite)
    kinds = sorted({p.kind for p in positions})
    print(f"{len(positions)} positions ({', '.join(kinds)}), {args.seeds} seeds")
    for level in args.levels:
        started = time.process_time()
        shares = []
        totals = None
        for seed in range(args.seeds):
            result = score(positions, lambda s, lv=level: make(lv, f"tactics:{s}"), [seed])
            shares.append(result.share)
            if totals is None:
                totals = result
            else:
                totals.right += result.right
                totals.asked += result.asked
                for kind, (r, a) in result.by_kind.items():
                    totals.by_kind[kind][0] += r
                    totals.by_kind[kind][1] += a
                for key, count in result.wrong.items():
                    totals.wrong[key] = totals.wrong.get(key, 0) + count
        assert totals is not None
        per_kind = ", ".join(f"{kind} {r}/{a}" for kind, (r, a) in sorted(totals.by_kind.items()))
        spread = f"{min(shares):.0%}-{max(shares):.0%}"
        missed = sorted(totals.wrong.items(), key=lambda kv: -kv[1])[:6]
        print(
            f"| {level} | {totals.share:.1%} | {spread} | {per_kind} | "
            f"{time.process_time() - started:.0f}s |"
        )
        print(f"    most missed: {', '.join(f'{k} x{v}' for k, v in missed)}", flush=True)


if __name__ == "__main__":
    main()
