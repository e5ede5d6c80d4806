"""One game-store interface, two implementations: SQLite in the data directory (the default,
`hearts.web.store`) and PostgreSQL (`hearts.web.store_pg`, chosen by `HEARTS_DATABASE_URL`
or `hearts serve --database URL`).

Both decide races in the database: the actions of a game are keyed by (game, move number),
so of two requests storing the same move number exactly one insert succeeds and `append`
tells the other it lost, in one process or across many.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from .settings import Settings
from .store import (
    FinishedGame,
    Person,
    Seating,
    Start,
    StartCheck,
    Store,
    StoredGame,
    UnfinishedGame,
)
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


class GameStore(Protocol):
    """What the web game needs of a store (see `hearts.web.store.Store` for each method)."""

    #: The directory whose free space the quotas watch (the data directory).
    directory: Path

    def check(self) -> None: ...

    def ping(self) -> None:
        """A quick read and a write that changes nothing: raises if the store does not
        answer, or answers but cannot be written (a health check)."""

    def create(
        self,
        game_id: str,
        owner: str,
        rules: dict[str, Any],
        seed: int | str,
        settings: dict[str, Any],
        actions: Sequence[dict[str, Any]],
        status: str,
        people: Sequence[Person] = (),
        started: bool = True,
        rematch_of: str | None = None,
    ) -> bool: ...

    def append(
        self,
        game_id: str,
        start: int,
        actions: Sequence[dict[str, Any]],
        status: str,
        clock: bool = True,
    ) -> bool: ...

    def load(self, game_id: str) -> StoredGame | None: ...

    def moves(self, game_id: str) -> int | None: ...

    def seating(self, game_id: str) -> Seating | None: ...

    def join(self, game_id: str, owner: str, name: str) -> int | None: ...

    def free_seat(self, game_id: str, seat: int, owner: str) -> bool: ...

    def start(self, game_id: str) -> bool: ...

    def set_away(self, game_id: str, seat: int, away: bool) -> bool: ...

    def touch(self, game_id: str, seat: int, now: float) -> None: ...
    def heard_from(self, game_id: str, owner: str, now: float) -> bool: ...

    def page_closed(self, game_id: str, seat: int, now: float) -> None: ...

    def react(self, game_id: str, seat: int, reaction: str, now: float) -> None: ...

    def set_ready(self, game_id: str, seat: int, moves: int) -> None: ...

    def count_hint(self, game_id: str, seat: int, decision: int) -> bool: ...

    def latest_unfinished(self, owner: str) -> str | None: ...

    def unfinished(self, owner: str, limit: int) -> list[UnfinishedGame]: ...

    def finished(self, owner: str, limit: int) -> list[FinishedGame]: ...

    def stats_since(self, owner: str) -> float | None: ...

    def reset_stats(self, owner: str, now: float) -> None: ...

    def add_start(self, start: Start, since: float, check: StartCheck) -> None: ...

    def drop_start(self, start_id: str) -> None: ...

    def forget_starts(self, before: float) -> None: ...

    def trim_unfinished(self, owner: str, keep: int) -> list[str]: ...

    def expire(self, before: float) -> list[str]: ...

    def keep_site_value(self, key: str, value: str) -> str:
        """The site's value for `key`: the one kept, or `value`, kept now if there was none."""
        ...

    def close(self) -> None: ...


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
