"""The web game's application: the JSON API, the game's pages and the sheets' routes.

`create_app()` reads the data directory from `HEARTS_DATA_DIR` (default ./data), creates it
on demand and keeps the SQLite store there.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from . import api
from .bots import BotPool
from .headers import SecurityHeaders
from .limits import BodyLimit
from .service import GameService
from .sheets_routes import router as sheets_router
from .store import Store

STATIC = Path(__file__).parent / "static" / "game"
DEFAULT_DATA_DIR = Path("data")


def data_dir() -> Path:
    return Path(os.environ.get("HEARTS_DATA_DIR") or DEFAULT_DATA_DIR)


def create_app(directory: Path | None = None, bot_workers: int | None = None) -> FastAPI:
    """The app; `bot_workers=0` runs computer players in threads (quick to start, for tests)."""
    store = Store(directory if directory is not None else data_dir())
    bots = BotPool(bot_workers)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        bots.warm_up()
        yield
        bots.close()

    app = FastAPI(
        title="Hearts",
        summary="Play Hearts against three computer players.",
        version="1",
        lifespan=lifespan,
    )
    app.state.service = GameService(store, bots)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
    app.include_router(api.router)
    app.include_router(sheets_router)

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _first_problem(error)}, status_code=422)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/rules", include_in_schema=False)
    def rules_page() -> FileResponse:
        return FileResponse(STATIC / "rules.html")

    app.mount("/game", StaticFiles(directory=STATIC), name="game")
    return app


def _first_problem(error: RequestValidationError) -> str:
    """One sentence for a malformed request body."""
    problems = error.errors()
    if not problems:
        return "The request is malformed."
    first = problems[0]
    where = ".".join(_field_name(part) for part in first.get("loc", ()) if part != "body")
    message = str(first.get("msg", "is not valid"))
    if first.get("type") == "json_invalid":
        return "The request body is not valid JSON."
    return f"{where or 'The request body'}: {message}." if where else f"{message}."


def _field_name(part: object) -> str:
    """A field named in a refusal, safe to show: the client chose it, so it may be long or
    hold line breaks; odd names are quoted and long ones cut short."""
    text = str(part)
    if not text.isprintable() or not text.strip() or text != text.strip():
        text = repr(text)
    return text if len(text) <= 40 else text[:39] + "…"
