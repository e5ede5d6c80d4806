"""The web game's application: the JSON API, the game's pages and the sheets' routes.

`create_app()` takes its settings from `hearts.web.settings` (the data directory from
`HEARTS_DATA_DIR`, default ./data), creates the directory on demand and keeps the SQLite
store and the cookie secret there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from . import api, coach, live, replay
from .assets import Assets, Compress
from .bots import BotPool
from .headers import SecurityHeaders, TrustedHosts, headers_for
from .limits import BodyLimit
from .metrics import HttpMetrics, Metrics
from .notify import live_updates
from .problems import first_problem, http_sentence
from .quotas import Quotas, SheetRenders, expire_while_serving
from .reviews import Reviews
from .service import GameService
from .settings import Settings
from .sheets_routes import router as sheets_router
from .store import StoreError, is_away, is_busy
from .stores import (
    BUSY,
    UNAVAILABLE,
    GameStore,
    StoreBusy,
    StoreFailed,
    StoreUnavailable,
    open_store,
)
from .tokens import SECRET_FILE, Tokens

#: The site's key for the cookie secret's fingerprint (see `_refuse_another_secret`).
SECRET_CHECK = "cookie_secret"

STATIC = Path(__file__).parent / "static" / "game"
log = logging.getLogger("hearts.web")

#: What a person is told when something unexpected goes wrong (the reason goes to the log).
SERVER_ERROR = "Something went wrong on the server; please try again."
DISK_FULL = "The server's disk is full, so this could not be saved; please try again later."
#: The scope's key for an error already logged and answered (see `unexpected`).
LOGGED = "hearts.logged_error"
#: The page a browser gets for an address that leads nowhere.
NOT_FOUND_PAGE = STATIC / "notfound.html"


def data_dir() -> Path:
    return Settings.from_env().data_dir


def _refuse_another_secret(store: GameStore, tokens: Tokens, directory: Path) -> None:
    """Refuse to start with a cookie secret other than the one the store's games were made
    under: a process given another data directory (or a lost secret, made anew) would take
    every player's games from them, and behind a balancer do it to every other request."""
    mark = tokens.fingerprint()
    if store.keep_site_value(SECRET_CHECK, mark) == mark:
        return
    store.close()
    raise StoreError(
        f"{directory / SECRET_FILE} is not the cookie secret this database's games were made"
        " with: every process must share one, or players lose their games. Copy the first"
        " process's file here (if it is lost for good, see docs/deploy.md, 'The cookie secret')."
    )


def _say_newer_steps(settings: Settings) -> None:
    """One line at the start when the database has steps this version does not know (a
    newer release brought it up to date, and this older one was started on it): steps only
    add, so it serves, but it started without a word before (`hearts migrate --check` said
    so; the same sentence)."""
    from .migrations import UpgradeError, newer_said, steps

    target: str | Path = settings.database_url or settings.data_dir / "hearts.sqlite3"
    try:
        unknown = steps(target).unknown
    except UpgradeError:  # read just now by the store: said by its first request if not
        return
    if unknown:
        log.warning(
            "%s This version serves it all the same (steps only add).", newer_said(target, unknown)
        )


def _say_unused_sqlite_games(settings: Settings) -> None:
    """One line at the start on PostgreSQL when the data directory holds a SQLite store with
    games: they are not served (a site moved to PostgreSQL lost every player's games from
    "Your games" without a word). Read only; a file that cannot be read is not said."""
    if not settings.database_url:
        return
    import sqlite3
    from contextlib import closing

    from .store_pg import where

    path = settings.data_dir / "hearts.sqlite3"
    if not path.is_file():
        return
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            row = db.execute("SELECT count(*) FROM games").fetchone()
    except sqlite3.Error:
        return
    count = int(row[0]) if row else 0
    if count:
        log.warning(
            "%s holds %s that this process does not serve: it keeps games in PostgreSQL (%s)."
            " There is no tool to move them; to play them, serve that data directory without a"
            " database URL (docs/deploy.md, 'Games kept in SQLite').",
            path,
            "1 game" if count == 1 else f"{count} games",
            where(settings.database_url),
        )


def create_app(
    directory: Path | None = None,
    bot_workers: int | None = None,
    settings: Settings | None = None,
    review_workers: int | None = None,
) -> FastAPI:
    """The app; `bot_workers=0` runs computer players in threads (quick to start, for tests).
    Decisions are reviewed in the background by `review_workers` (default: the setting's,
    but none with `bot_workers=0`, where they would be threads slowing every test's games).

    Without `settings` they come from the environment, with `directory` as the data
    directory when given. A damaged store raises `StoreError` with one sentence.
    """
    if settings is None:
        settings = Settings.from_env(data_dir=directory)
    store = open_store(settings)
    _say_newer_steps(settings)
    _say_unused_sqlite_games(settings)
    tokens = Tokens.in_directory(settings.data_dir)
    _refuse_another_secret(store, tokens, settings.data_dir)
    # Counted always (a few counters, next to nothing); served, and each request timed, only
    # when a metrics port is set (`hearts serve` listens on it).
    metrics = Metrics()
    quotas = Quotas(store, settings, tokens.address_key, metrics=metrics)
    bots = BotPool(bot_workers, metrics=metrics)
    metrics.watch(getattr(store, "outage", None), bots)
    hub, listener = live_updates(store)
    service = GameService(
        store,
        bots,
        cache_actions=settings.cache_actions,
        hub=hub,
        heartbeat=settings.stream_ping,
        metrics=metrics,
    )
    # The reviews think in a process like the computer players (threads when they do).
    if review_workers is None:
        review_workers = settings.review_workers if bot_workers != 0 else 0
    reviews = Reviews(review_workers, processes=bot_workers != 0, metrics=metrics)
    metrics.watch_reviews(reviews)
    reviews.attach(service)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        bots.warm_up()
        expiry = asyncio.create_task(expire_while_serving(quotas, service.forget))
        if listener is not None:
            listener.start()
        yield
        if listener is not None:
            await listener.stop()
        service.close()
        reviews.close()
        await reviews.settled()
        expiry.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await expiry
        bots.close()
        store.close()

    docs = settings.api_docs
    app = FastAPI(
        title="Hearts",
        summary="Play Hearts against computer players, at tables of 3 to 10.",
        version="1",
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url=None,
        openapi_url="/openapi.json" if docs else None,
    )
    assets = Assets(STATIC)
    app.state.assets = assets
    app.state.settings = settings
    app.state.tokens = tokens
    app.state.quotas = quotas
    app.state.sheet_renders = SheetRenders(settings, tokens.address_key, metrics=metrics)
    app.state.service = service
    app.state.reviews = reviews
    app.state.hub = hub
    app.state.metrics = metrics
    app.add_middleware(Compress)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders, https=settings.https)
    if settings.trusted_hosts:
        app.add_middleware(TrustedHosts, names=settings.trusted_hosts)
    if settings.metrics_port:
        app.add_middleware(HttpMetrics, metrics=metrics)  # the outermost: it sees every request
    app.include_router(api.router)
    app.include_router(live.router)
    app.include_router(coach.router)
    app.include_router(coach.pages)
    app.include_router(replay.router)
    app.include_router(replay.pages)
    app.include_router(sheets_router)

    # A mistyped address gets a page in the game's look, with the headers of its other pages.
    not_found_page = assets.html(NOT_FOUND_PAGE.name)
    page_headers = {name.decode(): value.decode() for name, value in headers_for("/")}

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": first_problem(error, request)}, status_code=422)

    @app.exception_handler(HTTPException)
    async def refused_by_framework(request: Request, error: HTTPException) -> Response:
        if error.status_code == 404 and _wants_page(request):
            return HTMLResponse(not_found_page, status_code=404, headers=page_headers)
        if error.status_code in (204, 304):
            return Response(status_code=error.status_code, headers=error.headers)
        detail = http_sentence(request, error.status_code, error.detail, error.__cause__)
        status = error.status_code
        return JSONResponse({"detail": detail}, status_code=status, headers=error.headers)

    def failed(request: Request, error: Exception, full: bool) -> JSONResponse:
        log.error("store error on %s %s: %s", request.method, request.url.path, error)
        if full:
            metrics.store_error("full")
            return JSONResponse({"detail": DISK_FULL}, status_code=507)
        metrics.store_error("error")
        return JSONResponse({"detail": SERVER_ERROR}, status_code=500)

    @app.exception_handler(sqlite3.OperationalError)
    async def sqlite_failed(request: Request, error: sqlite3.OperationalError) -> JSONResponse:
        if is_away(error):  # a file SQLite cannot open or read: away, as PostgreSQL can be
            return unavailable(request, error)
        if is_busy(error):  # a lock held past the wait: busy, as PostgreSQL's (it was a 500)
            return unavailable(request, error, busy=True)
        return failed(request, error, full="full" in str(error).lower())

    @app.exception_handler(sqlite3.DatabaseError)
    async def sqlite_unreadable(request: Request, error: sqlite3.DatabaseError) -> JSONResponse:
        # "file is not a database": the file replaced under the server. It was an unexpected
        # error with a traceback, and the metrics did not say the database was away. Any
        # other (an IntegrityError no route expected) goes on to `unexpected`, as before.
        if is_away(error):
            return unavailable(request, error)
        raise error

    @app.exception_handler(StoreFailed)
    async def store_failed(request: Request, error: StoreFailed) -> JSONResponse:
        return failed(request, error, full=error.full)

    @app.exception_handler(StoreUnavailable)
    async def store_away(request: Request, error: StoreUnavailable) -> JSONResponse:
        return unavailable(request, error, busy=isinstance(error, StoreBusy))

    def unavailable(request: Request, error: Exception, busy: bool = False) -> JSONResponse:
        said = "busy" if busy else "unavailable"
        log.warning("database %s on %s %s: %s", said, request.method, request.url.path, error)
        metrics.store_error(said)
        detail = BUSY if busy else UNAVAILABLE
        return JSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": "2"})

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        # One line: the error and where it was raised (hearts.web.logs.OneLine). Starlette
        # raises it again after this answer; `hearts serve` drops it once logged here
        # (`LOGGED` in the scope), where uvicorn logged it again with its whole traceback.
        log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=error)
        request.scope[LOGGED] = error
        return JSONResponse({"detail": SERVER_ERROR}, status_code=500)

    # HEAD too: many monitors ask with it (the same answer without a body).
    @app.api_route("/api/health", methods=["GET", "HEAD"], include_in_schema=False)
    async def health() -> JSONResponse:
        """For a load balancer or a monitor: 200 while this process answers and its store
        does (a quick read and a write that changes nothing); the usual 503 with its sentence
        while the database is away, 500 while it can be read but not written."""
        await asyncio.to_thread(store.ping)
        return JSONResponse({"ok": True}, headers={"Cache-Control": "no-store"})

    pages = ["GET", "HEAD"]

    @app.api_route("/", methods=pages, include_in_schema=False)
    def index(request: Request) -> Response:
        return assets.page("index.html", request)

    @app.api_route("/rules", methods=pages, include_in_schema=False)
    def rules_page(request: Request) -> Response:
        return assets.page("rules.html", request)

    @app.api_route("/game/v/{version}/{path:path}", methods=pages, include_in_schema=False)
    async def versioned_file(version: str, path: str, request: Request) -> Response:
        return await assets.versioned(version, path, request)

    # The same files without a version, as before (not kept: asked again each visit).
    app.mount("/game", StaticFiles(directory=STATIC), name="game")
    return app


def _wants_page(request: Request) -> bool:
    """Whether a browser is asking for a page (not the API, not a script or a fetch)."""
    if request.method not in ("GET", "HEAD") or request.url.path.startswith("/api/"):
        return False
    return "text/html" in request.headers.get("accept", "")
