"""How many rounds a game to 100 takes, played by the project's own computer players.

    .venv/bin/python benchmarks/rounds_per_game.py --games 300 --lineup "medium*4"

Prints the median, the mean with a 95% interval, the 10th and 90th percentiles and the range.
The rules page quotes this (issue 15).
"""

from __future__ import annotations

import argparse
import statistics

from hearts import Rules
from hearts.sim import TournamentConfig, parse_lineup, play_table


def rounds_per_game(lineup: str, games: int, seed: str) -> list[int]:
    rules = Rules()
    players = parse_lineup(lineup.split(), rules.players)
    config = TournamentConfig(players, rules, games, seed, "games")
    return [len(play_table(config, deal, 0).entries[0].scores) for deal in range(games)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--lineup", default="medium*4")
    parser.add_argument("--seed", default="rounds")
    args = parser.parse_args()
    counts = sorted(rounds_per_game(args.lineup, args.games, args.seed))
    mean = statistics.fmean(counts)
    half = 1.96 * statistics.stdev(counts) / len(counts) ** 0.5
    decile = len(counts) // 10
    print(
        f"{args.lineup}, {len(counts)} games to 100: median {statistics.median(counts):g},"
        f" mean {mean:.1f} ± {half:.1f},"
        f" 10th-90th percentile {counts[decile]}-{counts[-decile - 1]},"
        f" range {counts[0]}-{counts[-1]}"
    )


if __name__ == "__main__":
    main()
