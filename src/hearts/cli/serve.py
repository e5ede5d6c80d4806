"""`hearts serve`: the browser game at http://127.0.0.1:8000 (saved games in ./data).

Every flag has a `HEARTS_*` environment variable (hearts.web.settings); a flag wins.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="play in the browser: 3 to 10 seats, computer players and friends by invite link",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="where saved games are kept (default: $HEARTS_DATA_DIR or ./data)",
    )
    parser.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="keep games in PostgreSQL at this postgresql:// URL (several processes may share"
        " it; default: $HEARTS_DATABASE_URL, else SQLite in the data directory)",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=None,
        help="seconds a client may take to send a request's headers (10)",
    )
    parser.add_argument(
        "--body-timeout",
        type=float,
        default=None,
        help="seconds a client may take to send a request's body (10)",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=None,
        help="seconds an idle keep-alive connection is kept (30)",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=None,
        help="connections open at once (default: from the open-file limit, at most 4096)",
    )
    parser.add_argument(
        "--api-docs",
        action="store_true",
        default=None,
        help="serve the API's documentation at /docs and /openapi.json",
    )
    parser.add_argument(
        "--access-log",
        action="store_true",
        default=None,
        help="a line for each request on standard output (off: nginx in front keeps one)",
    )
    parser.add_argument(
        "--trusted-host",
        action="append",
        default=None,
        metavar="NAME",
        help="a Host name to answer (repeat; default: localhost, 127.0.0.1, ::1 and --host;"
        " '*' for any)",
    )
    parser.add_argument(
        "--https",
        action="store_true",
        default=None,
        help="served over HTTPS by a proxy: Secure __Host- cookie and HSTS",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=None,
        metavar="ADDRESS",
        help="a proxy whose X-Forwarded-Proto/-For is believed (repeat; default 127.0.0.1)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..web.settings import Settings, default_trusted_hosts

    try:
        settings = Settings.from_env(
            data_dir=args.data_dir,
            database_url=args.database,
            host=args.host,
            port=args.port,
            header_timeout=args.header_timeout,
            body_timeout=args.body_timeout,
            idle_timeout=args.idle_timeout,
            max_connections=args.max_connections,
            api_docs=args.api_docs,
            access_log=args.access_log,
            trusted_hosts=tuple(args.trusted_host) if args.trusted_host else None,
            https=args.https,
            trusted_proxies=tuple(args.trusted_proxy) if args.trusted_proxy else None,
        )
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    if not settings.trusted_hosts:
        settings = settings.replace(trusted_hosts=default_trusted_hosts(settings.host))
    problems = settings.problems()
    if problems:
        print(problems[0], file=sys.stderr)
        return 2
    return serve(settings)


def log_lines() -> None:
    """The service's own log (games expired, the database away, errors) on standard error,
    each line with its time, level and process: several processes write to one place."""
    import logging

    from ..web.logs import Repeats

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)s hearts[%(process)d] %(message)s")
    )
    handler.addFilter(Repeats())  # a database away: a few lines, not one a request
    for name in ("hearts", "psycopg"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO if name == "hearts" else logging.WARNING)
        logger.propagate = False


def serve(settings: Any) -> int:
    import logging

    import uvicorn

    from ..web.app import create_app
    from ..web.server import connection_cap, listen_backlog, protocol_for, raise_fd_limit
    from ..web.store import StoreError

    directory: Path = settings.data_dir
    log_lines()
    try:
        app = create_app(settings=settings)
    except (StoreError, ValueError) as error:
        print(error, file=sys.stderr)
        return 1
    except OSError as error:
        print(
            f"Cannot use the data directory {directory}: {error.strerror or error}.",
            file=sys.stderr,
        )
        return 2
    files = raise_fd_limit()
    cap = connection_cap(settings, files)
    where = f"http://{settings.host}:{settings.port}"
    if settings.database_url:
        from ..web.store_pg import where as database_at

        database = database_at(settings.database_url)
        print(f"Hearts is at {where}  (games saved in PostgreSQL, {database})")
    else:
        print(f"Hearts is at {where}  (games saved in {directory.resolve()})")
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level="warning",
        http=protocol_for(settings, cap),
        backlog=listen_backlog(files),
        timeout_keep_alive=math.ceil(settings.idle_timeout),
        forwarded_allow_ips=list(settings.trusted_proxies),
        # Open event streams never end by themselves: on a stop they are closed after this
        # many seconds (browsers reconnect to whichever process is up).
        timeout_graceful_shutdown=5,
        access_log=settings.access_log,
    )
    if settings.access_log:
        # uvicorn's own line per request ("127.0.0.1:51234 - "GET / HTTP/1.1" 200"), at the
        # level its access logger needs; the service's own lines stay at warnings.
        logging.getLogger("uvicorn.access").setLevel(logging.INFO)
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    # uvicorn logs why it could not start (the port taken, say); the exit status says so too.
    return 0 if server.started else 1
