"""`hearts serve`: the browser game at http://127.0.0.1:8000 (saved games in ./data).

Every flag has a `HEARTS_*` environment variable (hearts.web.settings); a flag wins.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    from hearts.web.settings import ENVIRONMENT

    parser = subparsers.add_parser(
        "serve",
        help="play in the browser: 3 to 10 seats, computer players and friends by invite link",
        description="Serve the browser game, the scorekeeper and the printable sheets at "
        "http://HOST:PORT: play there against computer players, or invite friends to a table.",
        epilog="Each setting may be given by its environment variable instead (a flag wins): "
        + ", ".join(ENVIRONMENT.values())
        + ". docs/hardening.md#settings says what each one does.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
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
    parser.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="serve this process's Prometheus metrics at /metrics on this port, a listener of"
        " its own (default: $HEARTS_METRICS_PORT, else none)",
    )
    parser.add_argument(
        "--metrics-host",
        default=None,
        metavar="ADDRESS",
        help="the IP address of the metrics' listener (default: $HEARTS_METRICS_HOST, else"
        " 127.0.0.1; never every address)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..web.settings import Settings, default_trusted_hosts, without_password

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
            metrics_port=args.metrics_port,
            metrics_host=args.metrics_host,
        )
    except ValueError as error:
        _say(str(error))
        return 2
    if not settings.trusted_hosts:
        settings = settings.replace(trusted_hosts=default_trusted_hosts(settings.host))
    problems = settings.problems()
    if problems:
        _say(without_password(problems[0], settings.database_url))
        return 2
    problem = settings.data_dir_problem()
    if problem:
        # It was "Cannot use the data directory ...: File exists.", which says the opposite,
        # and under a file "...: Not a directory.", naming neither the setting nor the file.
        _say(problem)
        return 2
    return serve(settings)


def _say(sentence: str) -> None:
    """Why the server will not start, in one line on standard error, named as every command
    names its refusals ("hearts serve: ...")."""
    print(f"hearts serve: {sentence}", file=sys.stderr)


def log_lines(database_url: str = "") -> logging.Handler:
    """The service's log (start and stop, games expired, the database away, errors) on
    standard error, one line an event, each with its time, level and process: several
    processes write to one place. uvicorn's own errors go the same way (`uvicorn_lines`).
    The database URL's password is never written, whoever's words hold it."""
    from ..web.logs import OneLine, Repeats
    from ..web.settings import passwords

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine(hidden=passwords(database_url)))
    handler.addFilter(Repeats())  # a database away: a few lines, not one a request
    for name in ("hearts", "psycopg"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO if name == "hearts" else logging.WARNING)
        logger.propagate = False
    return handler


def uvicorn_lines(handler: logging.Handler) -> None:
    """uvicorn's warnings and errors ("Invalid HTTP request received.") through the
    service's handler, with a time and a process, instead of its own bare lines. Called
    once uvicorn's Config has set up its loggers."""
    logger = logging.getLogger("uvicorn.error")
    logger.handlers = [handler]
    logger.setLevel(logging.WARNING)
    logger.propagate = False


def access_lines(handler: logging.Handler) -> None:
    """uvicorn's line per request (`127.0.0.1:51234 - "GET / HTTP/1.1" 200`) on standard
    output, as before, but with the time, level and process of the service's lines (it came
    as `INFO:     127.0.0.1:...`, with neither). Called once uvicorn's Config has set up its
    loggers; at the level its access logger needs, while the service's own stay at warnings,
    and never held back as repeats."""
    lines = logging.StreamHandler(sys.stdout)
    lines.setFormatter(handler.formatter)
    logger = logging.getLogger("uvicorn.access")
    logger.handlers = [lines]
    logger.setLevel(logging.INFO)
    logger.propagate = False


def serve(settings: Any) -> int:
    import uvicorn

    from ..web.app import LOGGED, create_app
    from ..web.metrics import MetricsListener
    from ..web.server import (
        HeartsServer,
        LoggedOnce,
        connection_cap,
        listen_backlog,
        listen_sockets,
        protocol_for,
        raise_fd_limit,
        why_not_listening,
    )
    from ..web.settings import without_password
    from ..web.store import StoreError

    directory: Path = settings.data_dir
    handler = log_lines(settings.database_url)
    # The port first: when it is taken, one sentence, before the store is opened or anything
    # is said of a start.
    try:
        sockets = listen_sockets(settings.host, settings.port)
    except OSError as error:
        _say(why_not_listening(settings.host, settings.port, error))
        return 1
    metrics_sockets: list[Any] = []
    if settings.metrics_port:
        # The metrics' port too, as the game's: a port taken is one sentence, before anything.
        try:
            metrics_sockets = listen_sockets(settings.metrics_host, settings.metrics_port)
        except OSError as error:
            _close(sockets)
            _say(
                why_not_listening(
                    settings.metrics_host,
                    settings.metrics_port,
                    error,
                    settings.named("metrics_port"),
                    settings.named("metrics_host"),
                )
            )
            return 1
    try:
        app = create_app(settings=settings)
    except (StoreError, ValueError) as error:
        _close(sockets + metrics_sockets)
        _say(without_password(str(error), settings.database_url))
        return 1
    except OSError as error:
        _close(sockets + metrics_sockets)
        _say(f"Cannot use the data directory {directory}: {error.strerror or error}.")
        return 2
    files = raise_fd_limit()
    cap = connection_cap(settings, files)
    where = f"http://{settings.host}:{settings.port}"
    if settings.database_url:
        from ..web.store_pg import where as database_at

        saved = f"games saved in PostgreSQL, {database_at(settings.database_url)}"
    else:
        saved = f"games saved in {directory.resolve()}"
    config = uvicorn.Config(
        LoggedOnce(app, LOGGED),
        host=settings.host,
        port=settings.port,
        log_level="warning",
        http=protocol_for(settings, cap),
        backlog=listen_backlog(files),
        timeout_keep_alive=math.ceil(settings.idle_timeout),
        forwarded_allow_ips=list(settings.trusted_proxies),
        # Event streams are ended first (HeartsServer); other requests get this long.
        timeout_graceful_shutdown=STOP_SECONDS,
        access_log=settings.access_log,
    )
    uvicorn_lines(handler)
    if settings.access_log:
        access_lines(handler)
    listeners = [MetricsListener(sock, app.state.metrics.registry) for sock in metrics_sockets]
    about = ", ".join([saved, *(f"metrics at {listener.url}" for listener in listeners)])
    server = HeartsServer(
        config, started_line=f"Hearts is at {where} ({about})", stopping=app.state.hub.stop
    )
    for listener in listeners:
        listener.start()
    try:
        with contextlib.suppress(KeyboardInterrupt):
            server.run(sockets=sockets)
    finally:
        for listener in listeners:
            listener.stop()
    return 0 if server.started else 1


#: Seconds a stop gives the requests in flight (a move waiting for computer players, say)
#: once the event streams are ended; past it they are cut off.
STOP_SECONDS = 5


def _close(sockets: list[Any]) -> None:
    for sock in sockets:
        sock.close()
