"""`hearts play` (placeholder until its module lands)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("play", help="(not available yet)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print("hearts play is not available yet.", file=sys.stderr)
    return 2
