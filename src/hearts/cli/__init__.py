"""The `hearts` command: one subcommand per job, each in its own module.

Each module in `COMMANDS` exposes `register(subparsers)`, which adds its parser and sets
`func` to a callable taking the parsed namespace and returning an exit code. Modules keep
their heavy imports inside that callable, so `hearts --help` stays fast. Every parser is a
`Parser` (hearts.cli.parser): a number an option takes that is not one is refused in one
sentence naming the option.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import sys
from collections.abc import Sequence

from .parser import Parser

COMMANDS = ("serve", "migrate", "play", "sim", "sheets", "demo", "replay")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="hearts", description="Hearts: play, simulate, print.")
    parser.add_argument(
        "--version", action="version", version=f"hearts {_version()}", help="say the version"
    )
    subparsers = parser.add_subparsers(dest="command", required=True)  # each a Parser too
    for name in COMMANDS:
        module = importlib.import_module(f"hearts.cli.{name}")
        module.register(subparsers)
    return parser


def _version() -> str:
    """The installed package's version (its metadata), or a word saying there is none."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hearts")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:  # Ctrl-C: stopped as asked, without a traceback
        print("\nStopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`hearts sim ... | head`): nothing more to say, to anyone.
        # Python would complain again while flushing standard output at exit.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:
        if error.errno != errno.ENOSPC:
            raise
        # Standard output on a full disk (`hearts replay game.json > /dev/full`): said once,
        # and not again as Python flushes it at exit.
        import os

        print("hearts: the output could not be written: no space left.", file=sys.stderr)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
