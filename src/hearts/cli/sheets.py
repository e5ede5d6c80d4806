"""`hearts sheets --out DIR`: write the rule sheet and the score sheet as PDF files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

MIN_PLAYERS, MAX_PLAYERS = 3, 10


def player_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"players must be a whole number, not {text!r}") from None
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, not {value}"
        )
    return value


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sheets",
        help="write the printable rule sheet and score sheet (PDF)",
        description="Write the one-page rule sheet and a score sheet laid out for Hearts.",
    )
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="folder to write")
    parser.add_argument(
        "--paper", choices=("letter", "a4"), default="letter", help="paper size (default letter)"
    )
    parser.add_argument(
        "--players",
        type=player_count,
        default=4,
        metavar="N",
        help="players on the score sheet, 3 to 10 (default 4)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hearts.sheets import write_sheets

    out: Path = args.out
    if out.exists() and not out.is_dir():
        print(f"hearts sheets: {out} is a file, not a folder.", file=sys.stderr)
        return 2
    try:
        paths = write_sheets(out, paper=args.paper, players=args.players)
    except OSError as error:
        print(f"hearts sheets: cannot write to {out}: {error.strerror or error}", file=sys.stderr)
        return 1
    for path in paths:
        print(path)
    return 0
