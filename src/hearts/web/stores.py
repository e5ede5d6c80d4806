"""One game-store interface (`GameStore`, with all that its two implementations share), two
implementations: SQLite in the data directory (the default, `hearts.web.store`) and
PostgreSQL (`hearts.web.store_pg`, chosen by `HEARTS_DATABASE_URL` or
`hearts serve --database URL`).

Both decide races in the database: the actions of a game are keyed by (game, move number),
so of two requests storing the same move number exactly one insert succeeds and `append`
tells the other it lost, in one process or across many.
"""

from __future__ import annotations

from .settings import Settings
from .store import GameStore as GameStore  # the interface, and what both stores share
from .store import Store
from .store import StoreUnavailable as StoreUnavailable  # kept with SQLite's `Away`


class StoreBusy(StoreUnavailable):
    """The database answered, but a statement waited past its time (on a lock another
    session holds, a `pg_dump` or a migration): answered 503 with `BUSY`, and not counted as
    the database away."""


class StoreFailed(Exception):
    """The database answered but refused the work (made read-only, a grant missing, its disk
    full): answered 500, or 507 when `full`, as a SQLite store's own errors are."""

    def __init__(self, message: str, full: bool = False) -> None:
        super().__init__(message)
        self.full = full


UNAVAILABLE = "The game's database is not answering just now; please try again in a moment."
BUSY = "The game's database is busy just now; please try again in a moment."


def open_store(settings: Settings) -> GameStore:
    """PostgreSQL when `settings.database_url` is set, else SQLite in the data directory.
    Either is migrated to the current schema first; a store that cannot be used raises
    `StoreError` with one sentence."""
    if settings.database_url:
        from .store_pg import PgStore

        return PgStore(settings.database_url, settings.data_dir, pool_size=settings.database_pool)
    return Store(settings.data_dir)


def reason(error: BaseException, most: int = 300) -> str:
    """An error's text on one line (libpq's hint a sentence of its own: `logs.joined`), cut
    at a word (never mid-word), without a closing stop."""
    from .logs import joined

    text = joined(str(error)).rstrip(".")
    if len(text) > most:
        text = text[:most].rsplit(" ", 1)[0] + " …"
    return text


def refused(error: BaseException) -> str | None:
    """PostgreSQL's own words when it answered and refused the connection (FATAL: a wrong
    password, no such database or role, too many connections), else None: nothing answered
    (refused by the machine, a timeout), and "Cannot reach" is the right thing to say."""
    from .logs import joined

    text = joined(str(error))
    if "FATAL:" not in text:
        return None
    return text.rsplit("FATAL:", 1)[1].strip().rstrip(".") or None
