"""`hearts sheets --out DIR`: write the rule sheet and the score sheet as PDF files."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hearts.rules import MAX_PLAYERS, MIN_PLAYERS

from .parser import Number, typed
from .rule_options import PRESETS_HELP, PRESETS_LIST, add_rule_option, rule_changes

if TYPE_CHECKING:
    from hearts.sheets import Agreed

# The sheets module (reportlab) loads only when the command runs; these mirror its limits,
# and a test checks that they agree.
MIN_ROUNDS, MAX_ROUNDS, DEFAULT_ROUNDS = 10, 30, 20
PASSING = ("standard", "no-hold", "across", "across-no-hold", "scatter", "none")
PAPERS = ("letter", "a4")
#: The presets whose rules the sheets do not print (rules of play: a test checks).
UNPRINTED_PRESETS = ("casual", "strict")


def any_case(choices: tuple[str, ...]) -> Callable[[str], str]:
    """A choice in any case ("A4", "No-Hold"); anything else is left as typed for the refusal."""

    def fold(text: str) -> str:
        return text.lower() if text.lower() in choices else text

    return fold


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sheets",
        help="write the printable rule sheet and score sheet (PDF)",
        description="Write the one-page rule sheet and a score sheet laid out for Hearts. "
        "Given a game's rules (--rules, --rule), both sheets are that game's, as the "
        "scorekeeper's links print them: its target, moon rule, bonus card, drop on the "
        "target, ties, sun and partners, and its passing. The rules of play are not on them: "
        f"{' and '.join(UNPRINTED_PRESETS)}, and a --rule of play, are refused.",
        epilog=PRESETS_LIST,
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
    parser.add_argument(
        "--name",
        action="append",
        default=[],
        dest="names",
        metavar="NAME",
        help="a player's name at the head of the score sheet's column, once a seat in seat "
        'order, like --name Ana --name "Zoë Ångström" (default: Player 1, Player 2...)',
    )
    parser.add_argument("--rules", type=typed, default=None, metavar="PRESET", help=PRESETS_HELP)
    add_rule_option(parser)
    parser.set_defaults(func=run)


def game_rules(args: argparse.Namespace) -> tuple[int | None, str | None, Agreed | None]:
    """The table and the game's rules asked for: players (None: not named), passing and the
    scoring agreed (None: no rule of a game given, the sheets for any game). The engine's
    `Rules` checks them, as for `hearts play`; ValueError in a sentence."""
    from hearts.rules import PRESETS, Rules
    from hearts.sheets import AGREED_RULES, sheet_choices

    changes = rule_changes(args.rule)
    if args.players is not None:
        changes["players"] = args.players
    preset = "standard" if args.rules is None else args.rules
    rules = Rules.preset(preset, **changes)
    passing, agreed = sheet_choices(rules, args.passing)
    given = {*changes, *PRESETS.get(preset, {})}
    players = rules.players if "players" in changes else None
    return players, passing, (agreed if given & set(AGREED_RULES) else None)


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
        players, passing, agreed = game_rules(args)
        paths = write_sheets(
            out,
            paper=args.paper,
            players=players,
            rounds=args.rounds,
            passing=passing,
            agreed=agreed,
            names=args.names,
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
    from hearts.sheets import printable

    for seat, name in enumerate(args.names, 1):
        if name.strip() and not printable(name):
            print(
                f"hearts sheets: the sheet's fonts cannot print {name!r}: "
                f"its column says Player {seat}, to be written in by hand.",
                file=sys.stderr,
            )
    return 0
