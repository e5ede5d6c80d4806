"""`hearts migrate`: bring a site's database up to the schema of this version, or say what
it lacks (`--check`), without serving.

Every process does this as it starts (`hearts.web.migrations`); on a site of several
processes an operator may rather do it once, before the new version starts anywhere, and
see what was applied (docs/deploy.md, Migrations).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "migrate",
        help="bring the games' database up to this version's schema (as serve does at start)",
        description="Apply the schema steps the database lacks, each once and in order, as"
        " `hearts serve` does when it starts; with --check, only say which it lacks.",
        epilog="Exit status: 0 up to date (or brought up to date), 1 steps missing or steps"
        " of a newer release (--check) or the database could not be used, 2 bad settings"
        " (a data directory that is a file or cannot be made among them).",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="the data directory of a SQLite site (default: $HEARTS_DATA_DIR or ./data)",
    )
    parser.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="a postgresql:// URL (default: $HEARTS_DATABASE_URL, else SQLite in the data"
        " directory)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="only list the steps the database lacks; change nothing (exit 1 if any)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..web.migrations import UpgradeError, counted_steps, newer_said, steps
    from ..web.migrations import named as describe
    from ..web.settings import Settings, without_password
    from ..web.store import StoreError
    from ..web.stores import open_store

    try:
        settings = Settings.from_env(data_dir=args.data_dir, database_url=args.database)
    except ValueError as error:
        print(f"hearts migrate: {error}", file=sys.stderr)
        return 2

    def hide(message: str) -> str:
        """The message without the database URL's password (libpq quotes a URL it cannot
        read whole)."""
        return without_password(message, settings.database_url)

    problems = settings.problems()
    if problems:
        print(f"hearts migrate: {hide(problems[0])}", file=sys.stderr)
        return 2
    problem = None if settings.database_url else settings.data_dir_problem()
    if problem:
        # A setting to mend, in serve's words and with its status: under a file, --check
        # said the database there lacked every step, as if it could be made.
        print(f"hearts migrate: {problem}", file=sys.stderr)
        return 2
    target: str | Path = settings.database_url or settings.data_dir / "hearts.sqlite3"
    named = describe(target)
    try:
        found = steps(target)
    except UpgradeError as error:
        print(f"hearts migrate: {hide(str(error))}", file=sys.stderr)
        return 1
    if found.unknown:
        # Steps only add, so this release may serve it; but it cannot say the schema is its.
        print(newer_said(target, found.unknown), file=sys.stderr)
    if args.check:
        if isinstance(target, Path) and not target.exists():
            # Not "lacks 10 steps": a mistyped --data-dir has no database to lack them.
            print(
                f"hearts migrate: There is no database in {settings.data_dir} yet"
                f" ({target.name} is made by the first hearts serve or hearts migrate there).",
                file=sys.stderr,
            )
            return 1
        if found.missing:
            print(f"{named} lacks {counted_steps(found.missing)}: {', '.join(found.missing)}.")
            return 1
        if found.unknown:
            return 1
        print(f"{named} is up to date.")
        return 0
    if not found.missing:
        if not found.unknown:
            print(f"{named} is up to date; nothing to apply.")
        return 0
    try:
        open_store(settings).close()  # applies the steps, under the lock every process takes
    except (StoreError, UpgradeError) as error:
        print(f"hearts migrate: {hide(str(error))}", file=sys.stderr)
        return 1
    except OSError as error:  # the data directory cannot be made or written: as serve says it
        why = error.strerror or error
        print(
            f"hearts migrate: Cannot use the data directory {settings.data_dir}: {why}.",
            file=sys.stderr,
        )
        return 2
    print(f"{named}: applied {counted_steps(found.missing)}: {', '.join(found.missing)}.")
    return 0
