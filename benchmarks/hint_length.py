"""How long the coach's hints are, in characters: the median and the longest.

Usage: python benchmarks/hint_length.py [--deals 3] [--per-deal 14] [--passes 100] [--show]

Cards: in each of --deals deals (seeds 0, 1, ...) four medium players pass and play; at seat
0's first --per-deal turns with more than one legal card the coach's hint is asked (seed 1,
its default budget) and its reason measured. Passes: the pass hint of seat 0 in each of
--passes deals (seeds 0, 1, ...; the first round's pass, to the left). With the code of
another checkout on PYTHONPATH the same command gives that code's lengths, on the same
positions.
"""

from __future__ import annotations

import argparse
import statistics

from hearts import Round, Rules
from hearts.ai import make_player
from hearts.ai.hint import hint

NAMES = ["You", "Marisol", "Bertie", "Tamsin"]


def reasons(deals: int, per_deal: int) -> list[str]:
    said = []
    for seed in range(deals):
        rnd = Round.deal(Rules(), seed=seed)
        players = [make_player("medium", seed=seat) for seat in range(len(NAMES))]
        for seat, player in enumerate(players):
            rnd.give(seat, player.choose_pass(rnd.view(seat)))
        asked = 0
        while not rnd.is_over and asked < per_deal:
            view = rnd.view(rnd.turn)
            if rnd.turn == 0 and len(view.legal) > 1:
                said.append(hint(view, NAMES, seed=1).reason)
                asked += 1
            rnd.play(players[rnd.turn].choose_play(view))
    return said


def pass_reasons(deals: int) -> list[str]:
    return [
        hint(Round.deal(Rules(), seed=seed).view(0), NAMES, seed=1).reason for seed in range(deals)
    ]


def report(what: str, said: list[str], show: bool) -> None:
    if show:
        for reason in said:
            print(len(reason), reason)
    lengths = [len(reason) for reason in said]
    print(
        f"{len(said)} {what}: median {statistics.median(lengths):g} characters, "
        f"longest {max(lengths)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--per-deal", type=int, default=14)
    parser.add_argument("--passes", type=int, default=100)
    parser.add_argument("--show", action="store_true", help="print every hint with its length")
    args = parser.parse_args()
    report("hints for a card", reasons(args.deals, args.per_deal), args.show)
    report("hints for a pass", pass_reasons(args.passes), args.show)


if __name__ == "__main__":
    main()
