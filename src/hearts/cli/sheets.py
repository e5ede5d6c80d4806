"""`hearts sheets --out DIR`: write the rule sheet and the score sheet as PDF files."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hearts.rules import MAX_PLAYERS, MIN_PLAYERS

from .parser import Number

# The sheets module (reportlab) loads only when the command runs; these mirror its limits,
# and a test checks that they agree.
MIN_ROUNDS, MAX_ROUNDS, DEFAULT_ROUNDS = 10, 30, 20
PASSING = ("standard", "no-hold", "across", "across-no-hold", "scatter", "none")
PAPERS = ("letter", "a4")


def any_case(choices: tuple[str, ...]) -> Callable[[str], str]:
    """A choice in any case ("A4", "No-Hold"); anything else is left as typed for the refusal."""

    def fold(text: str) -> str:
        return text.lower() if text.lower() in choices else text

    return fold


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sheets",
        help="write the printable rule sheet and score sheet (PDF)",
        description="Write the one-page rule sheet and a score sheet laid out for Hearts.",
    )
    parser.add_argument(
        "--out", required=True, metavar="DIR", help='folder to write ("." for this one)'
    )
    parser.add_argument(
        "--paper",
        type=any_case(PAPERS),  # "A4", as the paper is named and as /sheets takes it
        choices=PAPERS,
        default="letter",
        help="paper size (default letter)",
    )
    parser.add_argument(
        "--players",
        type=Number(int, MIN_PLAYERS, MAX_PLAYERS),
        default=None,
        metavar="N",
        help=f"players at the table, {MIN_PLAYERS} to {MAX_PLAYERS}: the score sheet's columns, "
        "and named on the rule sheet (default: a score sheet for 4, a rule sheet for any table)",
    )
    parser.add_argument(
        "--rounds",
        type=Number(int, MIN_ROUNDS, MAX_ROUNDS),
        default=DEFAULT_ROUNDS,
        metavar="N",
        help=f"rounds on the score sheet, {MIN_ROUNDS} to {MAX_ROUNDS} (default {DEFAULT_ROUNDS})",
    )
    parser.add_argument(
        "--passing",
        type=any_case(PASSING),
        choices=PASSING,
        default=None,
        help="the passing printed on both sheets (default: the usual for the table; "
        "standard and no-hold go across at four players, across, across-no-hold and "
        "scatter at any even table)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hearts.sheets import write_sheets

    if not args.out.strip():  # Path("") is the current folder: never written there unasked
        print('hearts sheets: give --out a folder ("." for this one).', file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"hearts sheets: {out} is a file, not a folder.", file=sys.stderr)
        return 2
    try:
        paths = write_sheets(
            out, paper=args.paper, players=args.players, rounds=args.rounds, passing=args.passing
        )
    except ValueError as error:
        print(f"hearts sheets: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        # The file or the folder the system refused, whichever it names.
        where = error.filename if error.filename is not None else out
        why = error.strerror or "the system refused"
        print(f"hearts sheets: cannot write {where}: {why}.", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0
