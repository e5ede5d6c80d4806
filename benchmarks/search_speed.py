"""CPU per decision of the searching levels, before and after a change, side by side.

Usage: python benchmarks/search_speed.py --before /path/to/old/checkout/src
                                         [--levels hard racing:480 expert] [--rounds 12]
                                         [--repeat 2] [--passes]

Each level plays seat 0 of --rounds deals against three medium players (as
benchmarks/ai_speed.py), once with the code under --before and once with this checkout's
src/, each in a fresh process, the two at the same time (so that both meet the same load
from the rest of the machine); every pass and card of seat 0 is timed in CPU time of its
process. Levels are names as in benchmarks/ai_duel.py ("hard", "expert", "racing:480",
"frozen"; "hard:0.05s" has a budget of seconds). It also checks that both made exactly the
same decisions (a change meant only for speed must not change one; with a budget of seconds
they may differ) and prints medians and 95th percentiles.

--passes times seat 0's pass alone, in each of --rounds deals that has one (three in four:
every fourth is a keep round), and plays no card; it prints the passes' wall-clock times too
(a budget of seconds is a wall-clock limit).
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
import time

HERE = pathlib.Path(__file__).resolve().parent
SRC = HERE.parent / "src"


def child(spec: str, rounds: int, passes: bool) -> None:
    """Play the deals (or only seat 0's passes) and print {"cpu": [...], "wall": [...],
    "choices": digest} as JSON (wall times for the passes only)."""
    sys.path.insert(0, str(HERE))
    from ai_duel import make, seat_zero_decisions

    from hearts import Round, Rules

    cpu: list[float] = []
    wall: list[float] = []
    choices: list[str] = []
    for deal in range(rounds):
        rnd = Round.deal(Rules(), seed=f"speed:0:{deal}", hand_number=deal)
        if passes:
            if rnd.phase == "passing":
                player = make(spec, str(deal))
                view = rnd.view(0)
                began, clock = time.process_time(), time.perf_counter()
                cards = player.choose_pass(view)
                cpu.append(time.process_time() - began)
                wall.append(time.perf_counter() - clock)
                choices.append(" ".join(str(c) for c in cards))
            continue
        for seconds, choice in seat_zero_decisions(make(spec, str(deal)), rnd):
            cpu.append(seconds)
            choices.append(choice)
    digest = hashlib.sha256("|".join(choices).encode()).hexdigest()[:16]
    print(json.dumps({"cpu": cpu, "wall": wall, "choices": digest}))


def start(src: pathlib.Path, spec: str, rounds: int, passes: bool) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(src))
    return subprocess.Popen(
        [sys.executable, __file__, "--child", spec, "--rounds", str(rounds)]
        + (["--passes"] if passes else []),
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
    parser.add_argument("--passes", action="store_true", help="time seat 0's passes alone")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rounds, args.passes)
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
        wall: dict[str, list[float]] = {"before": [], "after": []}
        digests = set()
        for _ in range(args.repeat):
            # Both at once, so that both meet the same load from the rest of the machine.
            running = {name: start(src, spec, args.rounds, args.passes) for name, src in sources}
            for name, process in running.items():
                result = finish(process)
                times = result["cpu"]
                assert isinstance(times, list)
                cpu[name].extend(times)
                clock = result.get("wall", [])
                assert isinstance(clock, list)
                wall[name].extend(clock)
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
        if wall["before"] and wall["after"]:
            b, a = wall["before"], wall["after"]
            print(
                f"  {spec}, wall clock: before {1000 * statistics.median(b):.2f} / "
                f"{1000 * p95(b):.2f} ms, after {1000 * statistics.median(a):.2f} / "
                f"{1000 * p95(a):.2f} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()
