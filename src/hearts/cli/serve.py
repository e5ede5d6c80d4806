"""`hearts serve`: the browser game at http://127.0.0.1:8000 (saved games in ./data)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve", help="play in the browser against three computer players"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="where saved games are kept (default: $HEARTS_DATA_DIR or ./data)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..web.app import create_app, data_dir

    directory: Path = args.data_dir if args.data_dir is not None else data_dir()
    try:
        app = create_app(directory)
    except OSError as error:
        print(f"Cannot use the data directory {directory}: {error}", file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        print(f"The port must be between 1 and 65535, not {args.port}.", file=sys.stderr)
        return 2
    os.environ["HEARTS_DATA_DIR"] = str(directory)
    print(f"Hearts is at http://{args.host}:{args.port}  (games saved in {directory.resolve()})")
    # Keep idle connections open for a person's pause between cards (uvicorn's default is
    # 5 s), so the next move does not pay for a new connection.
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", timeout_keep_alive=75)
    return 0
