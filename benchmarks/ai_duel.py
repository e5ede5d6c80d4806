"""Two players on the same deals, paired: which is stronger, and what a decision costs.

Usage: python benchmarks/ai_duel.py A B [--against hard] [--deals 250] [--workers 2]

A and B are levels ("hard", "expert", "hard:500" with a budget), "frozen" (the hard player
as it was before issue 16, `benchmarks/frozen_hard/`), or a variant below. For every deal
and every seat, A plays that seat against three --against players, then B plays the same
seat of the same deal against the same three (same seeds). The difference A minus B in
points a round is paired seat by seat and deal by deal; its 95% interval is over deals.
Also reported: each player's decision CPU time (median, p95) and the moons it shot.

Variants: "hard-heuristic-pass" / "expert-heuristic-pass" (the level with medium's pass),
"expert-no-endgame" (expert without the exact solver).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing
import pathlib
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from frozen_hard import FrozenHardPlayer

from hearts import Round, Rules
from hearts.ai import Player, make_player
from hearts.ai.search import ExpertPlayer, HardPlayer
from hearts.cards import QUEEN_MASK, points_of
from hearts.scoring import score_round


class HardHeuristicPass(HardPlayer):
    settings = dataclasses.replace(HardPlayer.settings, pass_playouts=0)


class ExpertHeuristicPass(ExpertPlayer):
    settings = dataclasses.replace(ExpertPlayer.settings, pass_playouts=0)


class ExpertNoEndgame(ExpertPlayer):
    settings = dataclasses.replace(ExpertPlayer.settings, endgame_cards=0)


VARIANTS: dict[str, type[Any]] = {
    "frozen": FrozenHardPlayer,
    "hard-heuristic-pass": HardHeuristicPass,
    "expert-heuristic-pass": ExpertHeuristicPass,
    "expert-no-endgame": ExpertNoEndgame,
}


def make(spec: str, seed: str) -> Player:
    """A player from "level", "level:budget" or "level/style" (e.g. "hard/bertie")."""
    spec, _, style = spec.partition("/")
    name, _, budget_text = spec.partition(":")
    budget = int(budget_text) if budget_text else None
    if name in VARIANTS:
        player: Player = VARIANTS[name](seed, budget)
        return player
    return make_player(name, seed=seed, budget=budget, style=style or None)


@dataclasses.dataclass
class SeatResult:
    score: int
    moon: bool
    cpu: list[float]
    attempt: bool = False
    """The seat took the Q♠ and all hearts but two or fewer (a moon tried, shot or not)."""
    queen: bool = False
    """The seat took the Q♠."""


def play_seat(spec: str, against: str, rules: Rules, seed: str, deal: int, seat: int) -> SeatResult:
    """One round of `deal` with `spec` at `seat` and `against` everywhere else."""
    n = rules.players
    bots = [
        make(spec if s == seat else against, f"{seed}:{deal}:{s}:{'me' if s == seat else 'o'}")
        for s in range(n)
    ]
    rnd = Round.deal(rules, f"{seed}:{deal}", deal)
    cpu: list[float] = []

    def ask(s: int, passing: bool) -> Any:
        view = rnd.view(s)
        start = time.process_time()
        choice = bots[s].choose_pass(view) if passing else bots[s].choose_play(view)
        if s == seat:
            cpu.append(time.process_time() - start)
        return choice

    if rnd.phase == "passing":
        for s in range(n):
            rnd.give(s, ask(s, True))
    while rnd.phase == "playing":
        rnd.play(ask(rnd.turn, False))
    result = score_round(rules, rnd, [0] * n)
    taken = rnd.taken[seat]
    attempt = bool(taken & QUEEN_MASK) and points_of(taken) >= rules.round_points - 2
    queen = bool(taken & QUEEN_MASK)
    return SeatResult(result.scores[seat], result.shooter == seat, cpu, attempt, queen)


def _task(args: tuple[str, str, str, str, int, int]) -> tuple[int, int, SeatResult, SeatResult]:
    a, b, against, seed, deal, seat = args
    rules = Rules()
    return (
        deal,
        seat,
        play_seat(a, against, rules, seed, deal, seat),
        play_seat(b, against, rules, seed, deal, seat),
    )


def interim(per_deal: dict[int, list[tuple[SeatResult, SeatResult]]], a: str, b: str) -> None:
    """The paired difference so far, over the deals with every seat played (to stderr)."""
    diffs = [
        statistics.fmean(ra.score - rb.score for ra, rb in pairs)
        for pairs in per_deal.values()
        if len(pairs) == Rules().players
    ]
    if len(diffs) > 1:
        print(
            f"  so far, {len(diffs)} whole deals: {a} minus {b} "
            f"{statistics.fmean(diffs):+.3f} ± {ci95(diffs):.3f}",
            file=sys.stderr,
            flush=True,
        )


def ci95(values: list[float]) -> float:
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--against", default="hard")
    parser.add_argument("--deals", type=int, default=250)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="duel")
    args = parser.parse_args()
    seats = Rules().players
    tasks = [
        (args.a, args.b, args.against, args.seed, d, s)
        for d in range(args.first_deal, args.first_deal + args.deals)
        for s in range(seats)
    ]
    started = time.perf_counter()
    per_deal: dict[int, list[tuple[SeatResult, SeatResult]]] = {}
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for done, (deal, _, ra, rb) in enumerate(pool.imap_unordered(_task, tasks), 1):
            per_deal.setdefault(deal, []).append((ra, rb))
            if done % 100 == 0:
                interim(per_deal, args.a, args.b)
            if done % 40 == 0 or done == len(tasks):
                print(
                    f"  {done}/{len(tasks)} rounds, {time.perf_counter() - started:.0f}s",
                    file=sys.stderr,
                    flush=True,
                )
    a_means, b_means, diffs = [], [], []
    a_cpu: list[float] = []
    b_cpu: list[float] = []
    moons = [0, 0]
    for deal in sorted(per_deal):
        pairs = per_deal[deal]
        a_scores = [ra.score for ra, _ in pairs]
        b_scores = [rb.score for _, rb in pairs]
        a_means.append(statistics.fmean(a_scores))
        b_means.append(statistics.fmean(b_scores))
        diffs.append(a_means[-1] - b_means[-1])
        for ra, rb in pairs:
            a_cpu += ra.cpu
            b_cpu += rb.cpu
            moons[0] += ra.moon
            moons[1] += rb.moon
    rounds = len(tasks)
    print(
        f"{rounds} rounds each ({len(per_deal)} deals x {seats} seats) against {args.against}, "
        f"seed {args.seed!r}, {time.perf_counter() - started:.0f}s"
    )
    for name, means, cpu, moon in (
        (args.a, a_means, a_cpu, moons[0]),
        (args.b, b_means, b_cpu, moons[1]),
    ):
        print(
            f"  {name:<22} {statistics.fmean(means):6.2f} ± {ci95(means):.2f} points/round, "
            f"cpu ms median {1000 * statistics.median(cpu):.2f} p95 {1000 * p95(cpu):.2f}, "
            f"moons {moon}"
        )
    print(
        f"  {args.a} minus {args.b}: {statistics.fmean(diffs):+.3f} ± {ci95(diffs):.3f} "
        f"points/round (95% interval, paired by deal)"
    )


if __name__ == "__main__":
    main()
