"""CPU per decision of the searching levels, before and after a change, side by side.

Usage: python benchmarks/search_speed.py --before /path/to/old/checkout/src
                                         [--levels hard racing:480 expert] [--rounds 12]
                                         [--repeat 2]

Each level plays seat 0 of --rounds deals against three medium players (as
benchmarks/ai_speed.py), once with the code under --before and once with this checkout's
src/, each in a fresh process, the two at the same time (so that both meet the same load
from the rest of the machine); every pass and card of seat 0 is timed in CPU time of its
process. Levels are names as in benchmarks/ai_duel.py ("hard", "expert", "racing:480",
"frozen"). It also checks that both made exactly the same decisions (a change meant only
for speed must not change one) and prints medians and 95th percentiles.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import statistics
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
SRC = HERE.parent / "src"


def child(spec: str, rounds: int) -> None:
    """Play the deals and print {"cpu": [...], "choices": digest} as JSON."""
    sys.path.insert(0, str(HERE))
    from ai_duel import make, seat_zero_decisions

    from hearts import Round, Rules

    cpu: list[float] = []
    choices: list[str] = []
    for deal in range(rounds):
        rnd = Round.deal(Rules(), seed=f"speed:0:{deal}", hand_number=deal)
        for seconds, choice in seat_zero_decisions(make(spec, str(deal)), rnd):
            cpu.append(seconds)
            choices.append(choice)
    digest = hashlib.sha256("|".join(choices).encode()).hexdigest()[:16]
    print(json.dumps({"cpu": cpu, "choices": digest}))


def start(src: pathlib.Path, spec: str, rounds: int) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(src))
    return subprocess.Popen(
        [sys.executable, __file__, "--child", spec, "--rounds", str(rounds)],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen[str]) -> dict[str, object]:
    out, _ = process.communicate()
    if process.returncode:
        raise SystemExit(f"a timing process failed (exit {process.returncode})")
    result: dict[str, object] = json.loads(out)
    return result


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=pathlib.Path)
    parser.add_argument("--levels", nargs="+", default=["hard", "racing:480", "expert"])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rounds)
        return
    if args.before is None:
        parser.error("--before names the src/ folder of the code to compare with.")
    if not (args.before / "hearts" / "__init__.py").is_file():
        parser.error(f"{args.before} holds no hearts package; name a checkout's src/ folder.")
    sources = (("before", args.before), ("after", SRC))
    print("| Level | Decisions | Before: median / p95 ms | After: median / p95 ms | Ratio |")
    print("|---|--:|--:|--:|--:|")
    for spec in args.levels:
        cpu: dict[str, list[float]] = {"before": [], "after": []}
        digests = set()
        for _ in range(args.repeat):
            # Both at once, so that both meet the same load from the rest of the machine.
            running = {name: start(src, spec, args.rounds) for name, src in sources}
            for name, process in running.items():
                result = finish(process)
                times = result["cpu"]
                assert isinstance(times, list)
                cpu[name].extend(times)
                digests.add(result["choices"])
        if len(digests) != 1:
            print(f"{spec}: the two versions made DIFFERENT decisions", flush=True)
        b, a = cpu["before"], cpu["after"]
        bm, bp = 1000 * statistics.median(b), 1000 * p95(b)
        am, ap = 1000 * statistics.median(a), 1000 * p95(a)
        print(
            f"| {spec} | {len(a)} | {bm:.2f} / {bp:.2f} | {am:.2f} / {ap:.2f} | "
            f"{bm / am:.2f} / {bp / ap:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
