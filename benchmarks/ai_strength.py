"""Computer players' strength: the ladder and the hard player's two targets, on duplicate deals.

Usage: python benchmarks/ai_strength.py [MATCH ...] [--deals 500] [--workers 1] [--out DIR]

Matches (all by default):
  easy-random    easy against three random players
  medium-easy    medium against three easy
  hard-medium    hard against three medium (target: at least 2.0 points a round fewer)
  hard-random    hard against three random (target: at most 2.0 points a round)

Each deal is played once per rotation of the players, so --deals 500 is 2,000 rounds. Every
match writes its full report as JSON to --out and prints a line for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import pathlib

from hearts import Rules
from hearts.sim import (
    TournamentConfig,
    TournamentReport,
    format_report,
    parse_lineup,
    progress_bar,
    run_tournament,
)

MATCHES = {
    "easy-random": ["easy", "random*3"],
    "medium-easy": ["medium", "easy*3"],
    "hard-medium": ["hard", "medium*3"],
    "hard-random": ["hard", "random*3"],
}


def summary_line(match: str, report: TournamentReport) -> str:
    first, second = MATCHES[match][0], MATCHES[match][1].split("*")[0]
    a, b = report.by_name[first], report.by_name[second]
    diff = report.difference
    assert diff is not None
    return (
        f"| {first} vs 3 {second} | {report.rounds} | {a.points_per_round:.2f} ± {a.ci95:.2f} "
        f"| {b.points_per_round:.2f} ± {b.ci95:.2f} | {diff[2]:+.2f} ± {diff[3]:.2f} "
        f"| {a.moons} / {b.moons} | {a.decision_ms_median:.1f} / {a.decision_ms_p95:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("matches", nargs="*", help="matches to play (default: all)")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--out", default="benchmarks/results")
    args = parser.parse_args()
    unknown = [m for m in args.matches if m not in MATCHES]
    if unknown:
        parser.error(f"{unknown[0]!r} is not a match; choose from {', '.join(MATCHES)}.")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for match in args.matches or list(MATCHES):
        config = TournamentConfig(
            players=parse_lineup(MATCHES[match], 4),
            rules=Rules(),
            deals=args.deals,
            seed=args.seed,
            workers=args.workers,
        )
        report = run_tournament(config, progress_bar())
        (out / f"{match}.json").write_text(json.dumps(report.to_dict(), indent=2) + "\n")
        print(format_report(report))
        print(summary_line(match, report), flush=True)


if __name__ == "__main__":
    main()
