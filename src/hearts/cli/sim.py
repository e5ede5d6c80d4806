"""`hearts sim`: a tournament between computer players on duplicate deals.

hearts sim hard medium*3 --deals 500
hearts sim hard random*3 --deals 100 --json results.json
hearts sim hard medium*4 --deals 100    (five players named: a table of five)
hearts sim medium easy*3 --mode games --deals 50 --rules omnibus
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..rules import MAX_PLAYERS, MIN_PLAYERS
from ..words import counted
from .parser import same_size, seed_text, typed
from .rule_options import PRESETS_HELP, PRESETS_LIST, add_rule_option, rule_changes
from .terminal import check_writable

#: The most processes `--workers` may ask for, for each CPU: more only wait for a CPU.
WORKERS_PER_CPU = 4
#: `hearts.sim.MAX_DEALS`, mirrored for --help: the tournament module (and the players it
#: brings) loads only when the command runs, and a test checks that the two agree.
MAX_DEALS = 10_000
#: The fewest sampled deals a search tries for a play or a pass, whatever its budget (hard's and
#: expert's `min_samples`), mirrored for --help as `MAX_DEALS` is.
FEWEST_SAMPLES = 10


def max_workers() -> int:
    """The most workers this machine takes: `WORKERS_PER_CPU` for each of its CPUs."""
    return WORKERS_PER_CPU * _cpus()


def _cpus() -> int:
    return os.cpu_count() or 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sim",
        help="play a tournament between computer players",
        description=(
            "Play a tournament between computer players. Every deal is replayed once for each "
            "rotation of the players round the table (duplicate deals), and the report gives "
            "points per round with a 95% confidence interval, moons shot and blocked, games "
            "won and decision times."
        ),
        epilog=PRESETS_LIST,
    )
    parser.add_argument(
        "players",
        type=typed,
        nargs="+",
        help="the players, a word each, like: hard medium*3 (a hard player and three medium"
        " ones), a seat each unless --players-count says how many; a player is a level, random,"
        " easy, medium, hard, expert or moon, and hard and expert take a budget too: hard:2000"
        " searches 2,000 playouts a decision, hard:0.1s a tenth of a second a pass or a play,"
        f" though each searches at least {FEWEST_SAMPLES} sampled deals however long they take",
    )
    parser.add_argument(
        "--deals",
        type=int,
        default=100,
        help=f"deals (or games) to play, 1 to {MAX_DEALS:,} (100)",
    )
    parser.add_argument(
        "--mode",
        choices=("rounds", "games"),
        default="rounds",
        help="a deal is one round, or one whole game to the target score (rounds)",
    )
    parser.add_argument(
        "--seed", type=seed_text, default="1", help="seed for the deals and the players (1)"
    )
    parser.add_argument(
        "--rules", type=typed, default="standard", metavar="PRESET", help=PRESETS_HELP
    )
    parser.add_argument(
        "--players-count",
        type=int,
        dest="seats",
        help=f"seats at the table, {MIN_PLAYERS} to {MAX_PLAYERS} (default: one for each player"
        " named)",
    )
    add_rule_option(parser)
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help=f"processes to play on: 1 to {WORKERS_PER_CPU} for each CPU ({max_workers()} here); "
        "no more start than there are tables to play (1)",
    )
    parser.add_argument(
        "--json",
        metavar="PATH",
        help='write the report as JSON ("-": stdout; default: none written)',
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..rules import Rules
    from ..sim import (
        TournamentConfig,
        check_deals,
        format_report,
        parse_lineup,
        progress_bar,
        run_tournament,
        seats_named,
    )

    try:
        changes = rule_changes(args.rule)
        sized_by = None  # how the table's size was given, if it was
        if args.seats is not None:
            same_size(f"--players-count {args.seats}", args.seats, changes)
            changes["players"] = args.seats
            sized_by = f"--players-count {args.seats}"
        elif "players" in changes:
            sized_by = f"--rule players={json.dumps(changes['players'])}"
        else:  # as many seats as players named
            changes["players"] = len(parse_lineup(args.players))
        rules = Rules.preset(args.rules, **changes)
        named = seats_named(args.players)
        if sized_by and named is not None and named != rules.players:
            given = "1 was given" if named == 1 else f"{named} were given"
            raise ValueError(
                f"{sized_by} seats {rules.players} players, but {given}; give {rules.players}, "
                f"or leave out {sized_by}."
            )
        lineup = parse_lineup(args.players, rules.players)
        check_deals(args.deals)
        if not 1 <= args.workers <= max_workers():
            raise ValueError(
                f"Use 1 to {max_workers()} workers: {WORKERS_PER_CPU} for each of this "
                f"machine's {counted(_cpus(), 'CPU')}."
            )
        if args.json == "":
            raise ValueError('Give --json a file to write, or "-" for the screen.')
        if args.json not in (None, "-"):
            check_writable(Path(args.json), "the report")  # now, not after the tournament
    except (ValueError, TypeError) as error:
        print(f"hearts sim: {error}", file=sys.stderr)
        return 2
    seed: int | str = int(args.seed) if args.seed.isascii() and args.seed.isdigit() else args.seed
    config = TournamentConfig(
        players=lineup,
        rules=rules,
        deals=args.deals,
        seed=seed,
        mode=args.mode,
        workers=args.workers,
    )
    progress = None if args.quiet else progress_bar(unit=args.mode)  # a table: a round, a game
    report = run_tournament(config, progress)
    text = json.dumps(report.to_dict(), indent=2)
    if args.json == "-":
        print(text)
        return 0
    print(format_report(report))
    if args.json:
        try:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
        except OSError as error:
            why = error.strerror or "the system refused"
            print(f"hearts sim: cannot write the report to {args.json!r}: {why}.", file=sys.stderr)
            return 1
    return 0
