"""The process's metrics for Prometheus, served on a listener of their own.

`Metrics` holds them in a registry of its own (one per app: tests make many apps in one
process). The app counts into it: `HttpMetrics` (ASGI middleware) each request by its route
template, method and status class with the time until its answer starts; the referee
(`hearts.web.service`) games started and finished, people's moves and the event streams
open; the computer players (`hearts.web.bots`) each decision's CPU time by level; the quotas
their refusals; the app's error handlers the store's errors. The database's absences
(`hearts.web.logs.Outage`), the requests waiting on the computer players, the coach's
reviews (made, dropped, waiting), the process's own figures (CPU, memory, open files,
the garbage collector) and its workers' CPU are read when scraped; the coach's searches are
timed as they end.

Every label takes its values from a short list this code knows (routes are the app's
templates, never a path as sent; anything else counts as "unknown" or "other"), so no request
can add a series: no game, browser, address or path is ever a label.

`MetricsListener` serves them (`GET /metrics`, Prometheus's text format) on a socket bound
before the app starts (`hearts serve --metrics-port`), in a thread of its own: never through
the game's port (nginx passes on only that one), and answered even while the event loop is
stuck, which is when they are wanted most.

>>> metrics = Metrics()
>>> metrics.moved("play"); metrics.moved("dance")
>>> metrics.registry.get_sample_value("hearts_moves_total", {"kind": "play"})
1.0
>>> metrics.registry.get_sample_value("hearts_moves_total", {"kind": "other"})
1.0
"""

from __future__ import annotations

import http.server
import os
import resource
import socket
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import MetricsHandler
from prometheus_client.metrics import MetricWrapperBase
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .characters import LEVELS

# Each counter and histogram would carry a second series, its creation time, which the text
# format sends as a gauge of its own: as many series again, of no use on a dashboard.
disable_created_metrics()  # type: ignore[no-untyped-call]

#: Seconds until a request's answer starts: from a file served from memory (under 1 ms) to a
#: move waiting for the computer players (at most 30 s, `bots.TURN_TIMEOUT`).
REQUEST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
#: CPU seconds of one computer decision: medium takes about 0.1 ms, hard up to about 30,
#: expert up to about 100 (docs/benchmarks.md).
DECISION_BUCKETS = (0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)

#: Where Linux shows each process's figures.
PROC = Path("/proc")
#: The route label of a request no route answered: an address that leads nowhere, or one
#: refused before routing (a Host not trusted, a body too large).
UNKNOWN_ROUTE = "unknown"
#: The label of any value not in a label's list.
OTHER = "other"
METHODS = frozenset({"GET", "HEAD", "POST"})
#: A person's moves: the saved forms' types (`hearts.record.move_to_action`) and take-backs.
MOVE_KINDS = ("pass", "play", "moon", "next", "undo")
#: Why a request got no new game (`hearts.web.quotas.OverQuota.kind`).
QUOTA_KINDS = ("browser", "address", "disk", "sheets")
#: The store's errors a request was answered with: the database not answering (503), a
#: store that failed (500), a full disk (507).
STORE_ERRORS = ("unavailable", "busy", "error", "full")
#: Why computer players fell back to easy ones (`hearts.web.bots.BotPool.advance`).
FALLBACKS = ("timeout", "broken")
#: The coach's searches: a hint asked for, a decision reviewed (`hearts.web.reviews`).
COACH_KINDS = ("hint", "review")
#: Seconds of one coach search, from its start to its answer: a hint takes about a tenth of
#: a second, a review a few tenths (each candidate searched in full).
COACH_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)

Decisions = list[tuple[str, float]]
"""(level, CPU seconds) of each computer decision made."""


class Backlog(Protocol):
    """What the metrics read of `hearts.web.reviews.Reviews`."""

    made: dict[str, int]
    dropped: int

    @property
    def pending(self) -> int: ...


class Outages(Protocol):
    """What the metrics read of `hearts.web.logs.Outage`."""

    outages: int

    @property
    def away(self) -> bool: ...

    def seconds_away(self) -> float: ...


class Pool(Protocol):
    """What the metrics read of `hearts.web.bots.BotPool`."""

    waiting: int


Labelled = TypeVar("Labelled", bound=MetricWrapperBase)


class Children(Generic[Labelled]):
    """A labelled metric's children, kept by their label values: `labels()` takes a lock
    and checks its values at every call (about 2 µs, ten times the count itself). As many
    are kept as there are series, which the label lists bound."""

    def __init__(self, metric: Labelled) -> None:
        self.metric = metric
        self.kept: dict[tuple[str, ...], Labelled] = {}

    def __call__(self, *values: str) -> Labelled:
        child = self.kept.get(values)
        if child is None:
            child = self.kept[values] = self.metric.labels(*values)
        return child


class Metrics:
    """The metrics of one app, and the words its parts count with."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        # The process's own figures, as prometheus_client gives them to its default registry.
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        registry.register(WorkersCollector())
        self.requests = Counter(
            "hearts_http_requests",
            "HTTP requests answered, by route template, method and status class.",
            ["route", "method", "status"],
            registry=registry,
        )
        self.latency = Histogram(
            "hearts_http_request_duration_seconds",
            "Seconds from a request's arrival to the start of its answer (an event stream:"
            " to its opening), by route template and method.",
            ["route", "method"],
            buckets=REQUEST_BUCKETS,
            registry=registry,
        )
        self.streams = Gauge(
            "hearts_event_streams_open", "Event streams open in this process.", registry=registry
        )
        self.started = Counter(
            "hearts_games_started",
            "Games made: new tables and rematches (a table of friends counts when it is made).",
            registry=registry,
        )
        self.finished = Counter(
            "hearts_games_finished", "Games played to their end.", registry=registry
        )
        self.moves = Counter(
            "hearts_moves",
            "Moves people made and stored, by kind: pass, play, moon (the shooter's choice),"
            " next (a deal asked for), undo (a take-back).",
            ["kind"],
            registry=registry,
        )
        self.decisions = Histogram(
            "hearts_computer_decision_seconds",
            "CPU seconds of each computer player's decision (a pass, a card, a moon choice),"
            " by the level it played at.",
            ["level"],
            buckets=DECISION_BUCKETS,
            registry=registry,
        )
        self.fallbacks = Counter(
            "hearts_computer_fallbacks",
            "Requests whose computer players fell back to easy ones: the pool took over"
            " 30 s (timeout) or broke (broken).",
            ["reason"],
            registry=registry,
        )
        self.store_errors = Counter(
            "hearts_store_errors",
            "Requests answered with a store error: unavailable (503, the database not"
            " answering), busy (503, a statement waited past its time on a lock or the"
            " statement timeout), error (500), full (507, the disk).",
            ["kind"],
            registry=registry,
        )
        self.refusals = Counter(
            "hearts_quota_refusals",
            "New games refused by a quota: browser (games an hour), address (games an hour),"
            " disk (free space); and sheets (printable sheets drawn anew an address a minute).",
            ["kind"],
            registry=registry,
        )
        self.coach = Histogram(
            "hearts_coach_seconds",
            "Seconds of each of the coach's searches, from its start to its answer: hint (a"
            " hint asked for, in a thread) or review (a decision reviewed, in a worker).",
            ["kind"],
            buckets=COACH_BUCKETS,
            registry=registry,
        )
        self._requests = Children(self.requests)
        self._coach = Children(self.coach)
        self._latency = Children(self.latency)
        self._moves = Children(self.moves)
        self._decisions = Children(self.decisions)
        self._fallbacks = Children(self.fallbacks)
        self._store_errors = Children(self.store_errors)
        self._refusals = Children(self.refusals)
        # Every series with a known label is there from the start, at 0: a rate over a
        # series that appears at its first event misses that event.
        for children, values in (
            (self._moves, MOVE_KINDS),
            (self._refusals, QUOTA_KINDS),
            (self._store_errors, STORE_ERRORS),
            (self._fallbacks, FALLBACKS),
            (self._coach, COACH_KINDS),
        ):
            for value in values:
                children(value)
        for level in LEVELS:
            self._decisions(level)

    def watch(self, outage: Outages | None, pool: Pool) -> None:
        """Read at each scrape: the database's absences (`outage`, the store's) and the
        requests waiting on the computer players (`pool.waiting`)."""
        self.registry.register(DatabaseCollector(outage))
        Gauge(
            "hearts_computer_requests_waiting",
            "Requests whose computer players are queued or thinking in the pool now (past"
            " two per worker, hard players play as medium and expert as hard).",
            registry=self.registry,
        ).set_function(lambda: pool.waiting)

    def watch_reviews(self, reviews: Backlog) -> None:
        """Read at each scrape: the reviews made, dropped and waiting (`reviews`)."""
        self.registry.register(ReviewsCollector(reviews))

    # --- the words the app counts with ------------------------------------------------------

    def game_started(self) -> None:
        self.started.inc()

    def game_finished(self) -> None:
        self.finished.inc()

    def moved(self, kind: str) -> None:
        self._moves(kind if kind in MOVE_KINDS else OTHER).inc()

    def stream_opened(self) -> None:
        self.streams.inc()

    def stream_closed(self) -> None:
        self.streams.dec()

    def decided(self, decisions: Iterable[tuple[str, float]]) -> None:
        for level, seconds in decisions:
            self._decisions(level if level in LEVELS else OTHER).observe(seconds)

    def fell_back(self, reason: str) -> None:
        self._fallbacks(reason if reason in FALLBACKS else OTHER).inc()

    def store_error(self, kind: str) -> None:
        self._store_errors(kind if kind in STORE_ERRORS else OTHER).inc()

    def refused(self, kind: str) -> None:
        self._refusals(kind if kind in QUOTA_KINDS else OTHER).inc()

    def coached(self, kind: str, seconds: float) -> None:
        self._coach(kind if kind in COACH_KINDS else OTHER).observe(seconds)

    def answered(self, route: str, method: str, status: int, seconds: float) -> None:
        """A request answered: `route` is a template of the app's (or `UNKNOWN_ROUTE`)."""
        method = method if method in METHODS else OTHER
        self._requests(route, method, f"{status // 100}xx").inc()
        self._latency(route, method).observe(seconds)


class DatabaseCollector:
    """The database's absences, as `hearts.web.logs.Outage` has noticed them (the store and
    the live-update listener note every failure and every answer)."""

    def __init__(self, outage: Outages | None) -> None:
        self.outage = outage

    def collect(self) -> Iterable[Metric]:
        outage = self.outage
        away = GaugeMetricFamily(
            "hearts_database_away",
            "1 while the database does not answer, from a failure to the next answer"
            " (PostgreSQL not reached; a SQLite file that cannot be opened or read).",
            value=1 if outage is not None and outage.away else 0,
        )
        yield away
        yield CounterMetricFamily(
            "hearts_database_outages",
            "Times the database stopped answering.",
            value=outage.outages if outage is not None else 0,
        )
        yield CounterMetricFamily(
            "hearts_database_away_seconds",
            "Seconds the database has not answered, in all (the current absence included).",
            value=outage.seconds_away() if outage is not None else 0.0,
        )


class WorkersCollector:
    """The CPU time of this process's worker processes (the computer players' pool and the
    coach's, started by a fork server), which `process_cpu_seconds_total` leaves out: those
    alive read from Linux's /proc at each scrape, with what each has collected of its own
    ended children, and those ended and collected from `getrusage`. Not served where there
    is no /proc (the series is then absent, not 0)."""

    def collect(self) -> Iterable[Metric]:
        if not PROC.is_dir():
            return
        ended = resource.getrusage(resource.RUSAGE_CHILDREN)
        alive = sum(_ticks(pid) for pid in _children("self"))
        yield CounterMetricFamily(
            "hearts_worker_cpu_seconds",
            "CPU seconds of this process's worker processes (the computer players and the"
            " coach), user and system: process_cpu_seconds_total counts this process alone.",
            value=alive / os.sysconf("SC_CLK_TCK") + ended.ru_utime + ended.ru_stime,
        )


def _ticks(pid: str, depth: int = 0) -> int:
    """CPU ticks of process `pid`, of its ended children it has collected, and of its live
    descendants (a fork server's workers). A child ended but not yet collected still has its
    line, so nothing is counted twice or missed as it moves from one figure to the other."""
    try:
        # After the name in parentheses (which may hold spaces): the state is the first
        # field; user and system time the 12th and 13th, its collected children's the next.
        fields = (PROC / pid / "stat").read_text().rsplit(")", 1)[1].split()
        own = sum(int(field) for field in fields[11:15])
    except (OSError, IndexError, ValueError):  # collected meanwhile
        return 0
    if depth >= 3:  # the server, its fork server, the workers: nothing deeper is ours
        return own
    return own + sum(_ticks(child, depth + 1) for child in _children(pid))


def _children(pid: str) -> set[str]:
    """The process ids of `pid`'s children, as Linux lists them for each of its threads
    (read only: asking `multiprocessing` would also collect those that ended)."""
    found: set[str] = set()
    for listed in (PROC / pid / "task").glob("*/children"):
        try:
            found.update(listed.read_text().split())
        except OSError:  # the thread ended meanwhile
            continue
    return found


class ReviewsCollector:
    """The coach's reviews of people's decisions (`hearts.web.reviews.Reviews`): made, by
    whether a request waited for them, dropped from a long queue, and waiting now."""

    def __init__(self, reviews: Backlog) -> None:
        self.reviews = reviews

    def collect(self) -> Iterable[Metric]:
        made = CounterMetricFamily(
            "hearts_reviews_made",
            "Decisions the coach reviewed: asked (a request waited for it) or background.",
            labels=["by"],
        )
        for by in ("asked", "background"):
            made.add_metric([by], self.reviews.made.get(by, 0))
        yield made
        yield CounterMetricFamily(
            "hearts_reviews_dropped",
            "Background reviews dropped from a queue too long (worked out if asked for later).",
            value=self.reviews.dropped,
        )
        yield GaugeMetricFamily(
            "hearts_reviews_pending",
            "Decisions waiting for review or being reviewed now.",
            value=self.reviews.pending,
        )


class HttpMetrics:
    """ASGI middleware: each HTTP request counted by its route template, method and status
    class, and timed until its answer starts (`Metrics.answered`).

    A plain ASGI middleware, as `hearts.web.headers` explains, and the outermost: it counts
    the requests refused before routing too. The route is read when the answer starts, once
    routing has put it in the scope (FastAPI's routes as `scope["route"]`, a mounted app by
    the `root_path` it set)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        root = scope.get("root_path", "")
        answered = False

        async def send_counted(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start" and not answered:
                answered = True
                self._count(scope, root, message["status"], began)
            await send(message)

        try:
            await self.app(scope, receive, send_counted)
        finally:
            if not answered:
                # The app raised before answering: the 500 is sent outside this middleware
                # (Starlette's ServerErrorMiddleware, or uvicorn).
                self._count(scope, root, 500, began)

    def _count(self, scope: Scope, root: str, status: int, began: float) -> None:
        seconds = time.perf_counter() - began
        self.metrics.answered(route_of(scope, root), scope["method"], status, seconds)


def route_of(scope: Scope, root: str) -> str:
    """The template of the route that answered (`/api/games/{game_id}/play`), a mounted
    app's prefix (`/game/{path}`), or `UNKNOWN_ROUTE`: never the path as sent."""
    path = getattr(scope.get("route"), "path", None)
    if isinstance(path, str):
        return path
    mounted = scope.get("root_path", "")
    if isinstance(mounted, str) and mounted != root and mounted.startswith(root):
        return mounted[len(root) :] + "/{path}"
    return UNKNOWN_ROUTE


class _Handler(MetricsHandler):
    """prometheus_client's handler (the text format, or OpenMetrics when asked for; gzip
    when accepted), at /metrics only, and with a deadline on a client that sends nothing."""

    timeout = 5

    def version_string(self) -> str:
        return "hearts"

    def do_GET(self) -> None:
        if self.path.split("?", 1)[0] != "/metrics":
            body = b"The metrics are at /metrics.\n"
            self.send_response(404)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


class MetricsListener:
    """`registry` served at /metrics on `sock` (bound, not yet listening) by a thread, one
    request at a time: a scrape is a few milliseconds every few seconds."""

    def __init__(self, sock: socket.socket, registry: CollectorRegistry) -> None:
        handler = type("HeartsMetricsHandler", (_Handler,), {"registry": registry})
        host, port = sock.getsockname()[:2]
        self.server = http.server.HTTPServer((host, port), handler, bind_and_activate=False)
        # The socket made by HTTPServer is replaced by the one bound before the app started
        # (`hearts.web.server.listen_sockets`), so a port taken was said before anything.
        self.server.socket.close()
        self.server.socket = sock
        self.server.server_name, self.server.server_port = host, port
        self.url = f"http://{f'[{host}]' if ':' in host else host}:{port}/metrics"
        self._thread = threading.Thread(target=self._serve, name="metrics", daemon=True)

    def start(self) -> None:
        self.server.server_activate()
        self._thread.start()

    def _serve(self) -> None:
        self.server.serve_forever(poll_interval=0.25)

    def stop(self) -> None:
        if self._thread.is_alive():
            self.server.shutdown()
        self.server.server_close()
