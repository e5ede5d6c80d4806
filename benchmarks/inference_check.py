"""Does inference (`hearts.ai.inference`) bring the sampled deals nearer the true one?

Usage: python benchmarks/inference_check.py [--rounds 40] [--deals 100] [--pool 4]
                                            [--epsilon 0.4] [--players frozen]

Plays rounds of four --players (the duel's opponents: "frozen", the hard of before issue
16), and at every decision of seat 0 after the first trick draws --deals deals as expert
samples them (voids, passed cards, the Q♠ read) and --deals deals through inference (each
one of --pool, by weight). It reports, over decisions, the share of hidden cards each way
puts in the hand that truly holds them, how often the Q♠ (while hidden) is put with her
true holder, and how many of the rivals' plays medium would not have made in the true deal
and in a plain sampled one. The script sees the true deal; the players never do.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from ai_duel import make

from hearts import Round, Rules
from hearts.ai.inference import Inference
from hearts.ai.sampling import Sampler
from hearts.ai.tracking import QUEEN, Knowledge, fold, queen_shy


def ci95(values: list[float]) -> float:
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--pool", type=int, default=4)
    parser.add_argument("--epsilon", type=float, default=0.4)
    parser.add_argument("--players", default="frozen")
    parser.add_argument("--model", default="flat", choices=["flat", "kind", "agreement"])
    parser.add_argument("--leads", action="store_true", help="read the rivals' leads too")
    parser.add_argument("--seed", default="infer")
    args = parser.parse_args()
    rules = Rules()
    plain_right: list[float] = []
    infer_right: list[float] = []
    diffs: list[float] = []
    queen_plain: list[float] = []
    queen_infer: list[float] = []
    by_trick: dict[int, list[float]] = {}
    cost = 0.0
    truth_fit: list[float] = []
    sample_fit: list[float] = []
    for r in range(args.rounds):
        bots = [make(args.players, f"{args.seed}:{r}:{s}") for s in range(4)]
        rnd = Round.deal(rules, f"{args.seed}:{r}", r)
        if rnd.phase == "passing":
            for s in range(4):
                rnd.give(s, bots[s].choose_pass(rnd.view(s)))
        while rnd.phase == "playing":
            seat = rnd.turn
            view = rnd.view(seat)
            if seat == 0 and view.tricks:
                truth = [fold(rnd.hand_mask(s)) for s in range(4)]
                know = Knowledge.from_view(view)
                sampler = Sampler(know, view.hand_sizes, 0, queen_shy(view))
                hidden = know.unseen
                for s in range(4):
                    hidden &= ~know.known[s]
                count = hidden.bit_count()
                rng = random.Random(f"{r}:{len(view.tricks)}:{len(view.trick)}")
                start = time.process_time()
                inference = Inference(view, args.epsilon, args.pool, args.model, args.leads)
                infer_deals = [
                    inference.pick([sampler.sample(rng) for _ in range(args.pool)], rng)
                    for _ in range(args.deals)
                ]
                cost += time.process_time() - start
                plain_deals = [sampler.sample(rng) for _ in range(args.deals)]
                if inference.plays and args.model != "agreement":
                    scale = math.log(args.epsilon)
                    truth_fit.append(math.log(inference.weight(truth)) / scale)
                    sample_fit.append(
                        statistics.mean(
                            math.log(inference.weight(hands)) / scale for hands, _ in plain_deals
                        )
                    )

                def right(
                    deals: list[tuple[list[int], int]], mask: int, truth: list[int] = truth
                ) -> float:
                    hits = sum(
                        (hands[s] & truth[s] & mask).bit_count()
                        for hands, _ in deals
                        for s in range(1, 4)
                    )
                    return hits / (len(deals) * mask.bit_count())

                if count:
                    a, b = right(plain_deals, hidden), right(infer_deals, hidden)
                    plain_right.append(a)
                    infer_right.append(b)
                    diffs.append(b - a)
                    by_trick.setdefault(len(view.tricks), []).append(b - a)
                if hidden & QUEEN:
                    queen_plain.append(right(plain_deals, QUEEN))
                    queen_infer.append(right(infer_deals, QUEEN))
            rnd.play(bots[seat].choose_play(view))
    n = len(diffs)
    print(
        f"{n} decisions of seat 0 in {args.rounds} rounds of {args.players}, "
        f"{args.deals} deals each, pool {args.pool}, epsilon {args.epsilon}, "
        f"model {args.model}, leads {args.leads}"
    )
    print(
        f"hidden cards in their true hand: plain {statistics.mean(plain_right):.4f}, "
        f"inference {statistics.mean(infer_right):.4f}, "
        f"difference {statistics.mean(diffs):+.4f} ± {ci95(diffs):.4f}"
    )
    qd = [b - a for a, b in zip(queen_plain, queen_infer, strict=True)]
    print(
        f"Q♠ with her true holder ({len(qd)} decisions): plain {statistics.mean(queen_plain):.4f}, "
        f"inference {statistics.mean(queen_infer):.4f}, "
        f"difference {statistics.mean(qd):+.4f} ± {ci95(qd):.4f}"
    )
    if truth_fit:
        fd = [a - b for a, b in zip(truth_fit, sample_fit, strict=True)]
        print(
            "rival plays medium would not have made: "
            f"in the true deal {statistics.mean(truth_fit):.2f}, "
            f"in a plain sampled deal {statistics.mean(sample_fit):.2f} "
            f"(difference {statistics.mean(fd):+.2f} ± {ci95(fd):.2f})"
        )
    for trick in sorted(by_trick):
        values = by_trick[trick]
        print(f"  after {trick:2d} tricks: {statistics.mean(values):+.4f} ({len(values)})")
    print(
        f"inference's cost: {1000 * cost / max(1, n):.1f} ms CPU a decision of {args.deals} deals"
    )


if __name__ == "__main__":
    main()
