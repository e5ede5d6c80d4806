"""The game store in PostgreSQL, for several `hearts serve` processes over one database.

The same tables as the SQLite store (`hearts.web.store`), through psycopg 3 and a connection
pool. Races are the database's to decide: the actions' primary key (game_id, seq) lets one
insert of a move number succeed and breaks every other, in any process.

Nothing waits for long: a connection is asked for at most `POOL_WAIT` seconds (a full pool,
or PostgreSQL down), is opened within `CONNECT_TIMEOUT` seconds, and a statement runs at
most `STATEMENT_TIMEOUT` ms; past any of them the request is answered 503 with a sentence
(`StoreUnavailable`) and nothing is written. Connections are checked as they are taken from
the pool, so after PostgreSQL restarts, or ends idle sessions, the next request gets a fresh
one, without a pause (`PgStore._take`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool, PoolTimeout
from psycopg_pool.base import AttemptWithBackoff

from .logs import Outage
from .notify import CHANNEL
from .settings import without_password
from .store import GameStore, Session, StoreError
from .stores import StoreBusy, StoreFailed, StoreUnavailable, reason, refused

#: Seconds a request waits for a free connection before it is answered 503.
POOL_WAIT = 3.0
#: Seconds to open a connection to PostgreSQL.
CONNECT_TIMEOUT = 3
#: Milliseconds any one statement may run.
STATEMENT_TIMEOUT = 5000
#: Seconds the pool retries a lost connection (every second, `SteadyRetries`) before it
#: gives it up; the next request then opens one at once. The pool's doubling has no
#: ceiling: left to retry for a day, a 30-second outage was followed by as long again of 503s.
RECONNECT_TIMEOUT = 10.0


class SteadyRetries(AttemptWithBackoff):
    """A lost connection tried again every second (with the pool's jitter), not 1, 2 and
    4 s apart: with PostgreSQL back, a request waits for the pool's next try, and one 4 s
    off outlasted its 3 s wait (a 503 after the restart, as if still away)."""

    DELAY_BACKOFF = 1.0


class Pool(ConnectionPool[psycopg.Connection[Any]]):
    """psycopg's pool, retrying lost connections steadily (`SteadyRetries`)."""

    def _add_connection(self, attempt: AttemptWithBackoff | None, growing: bool = False) -> None:
        if attempt is None:
            attempt = SteadyRetries(timeout=self.reconnect_timeout)
        super()._add_connection(attempt, growing=growing)


log = logging.getLogger("hearts.web")


def where(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "the database URL given"
    host = info.get("host") or "localhost"
    return f"{info.get('dbname') or info.get('user') or ''} at {host}:{info.get('port') or 5432}"


class PgStore(GameStore):
    """Game records in the PostgreSQL database at `url` (migrated to the current schema).

    Several processes write at once: a table's row is locked while its seats change, and
    the starts while they are counted."""

    # A move number taken, or the game removed meanwhile (trimmed or expired): as SQLite's
    # IntegrityError, the request lost, and the caller answers from the record (a 404).
    Taken = (errors.UniqueViolation, errors.ForeignKeyViolation)
    ROW_LOCK = " FOR UPDATE"
    NO_LIMIT = "ALL"

    def __init__(self, url: str, directory: Path, pool_size: int = 10) -> None:
        from .migrations import STEP_LOCK_WAIT, UpgradeError, upgrade

        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.directory = directory
        self.url = url
        #: Logs once when the database answers again after it did not (the listener too).
        self.outage = Outage(log)
        try:
            upgrade(url)
        except UpgradeError as error:
            raise StoreError(str(error)) from None
        except errors.LockNotAvailable:
            raise StoreError(
                f"PostgreSQL ({where(url)}) kept a table locked for over {STEP_LOCK_WAIT} s while"
                " the schema was being brought up to date (a pg_dump, or another session);"
                " start again once it is done."
            ) from None
        except psycopg.OperationalError as error:
            words = refused(error)
            if words is not None:  # it answered: a password, a name, a limit to mend
                said = without_password(words, url)
                raise StoreError(
                    f"PostgreSQL refused the connection ({where(url)}): {said}."
                ) from None
            said = without_password(reason(error), url)
            raise StoreError(f"Cannot reach PostgreSQL ({where(url)}): {said}.") from None
        except (psycopg.ProgrammingError, ValueError) as error:
            # libpq quotes a URL it cannot read, password and all: never said.
            said = without_password(reason(error), url)
            raise StoreError(f"The database URL is not right: {said}.") from None
        self.pool = Pool(
            url,
            min_size=min(2, pool_size),
            max_size=pool_size,
            timeout=POOL_WAIT,
            kwargs={
                "connect_timeout": CONNECT_TIMEOUT,
                "options": f"-c statement_timeout={STATEMENT_TIMEOUT}",
                "application_name": "hearts",
            },
            # Checked by `_take`, not by the pool: the pool sleeps 1, 2, 4 s between checks
            # that fail, so connections PostgreSQL had ended while idle (its
            # idle_session_timeout, a firewall) made the next request wait out its 3 s and
            # answer 503, and counted an outage of a database that never went away.
            reconnect_timeout=RECONNECT_TIMEOUT,
            open=False,
        )
        self.pool.open(wait=False)

    def check(self) -> None:
        with self._connection() as db:
            db.execute("SELECT 1 FROM games LIMIT 1")

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection in a transaction, committed at the end (rolled back on an
        error); an unreachable database is `StoreUnavailable`, a statement or a request that
        waited past its time on the others' work (a lock, every connection in use) `StoreBusy`,
        a database that answers but refuses the work `StoreFailed`."""
        began = self.outage.clock()
        try:
            db = self._take()
            try:
                with db:  # the transaction; a pooled connection stays open
                    yield db
            finally:
                self.pool.putconn(db)
        except PoolTimeout:
            if self._all_lent():  # every connection answering other requests: busy
                raise StoreBusy("every database connection in use past the wait") from None
            self.outage.failed(began)
            raise StoreUnavailable("no database connection within the wait") from None
        except errors.DiskFull as error:  # an OperationalError, but no outage: it answered
            raise StoreFailed(reason(error), full=True) from None
        except (errors.QueryCanceled, errors.LockNotAvailable) as error:
            # The statement timeout or a lock wait: it answered, busy, not away.
            self.outage.answered()
            raise StoreBusy(reason(error)) from None
        except psycopg.OperationalError as error:
            # UniqueViolation and the like are IntegrityErrors and pass through.
            self.outage.failed(began)
            raise StoreUnavailable(reason(error)) from None
        except (errors.ReadOnlySqlTransaction, errors.InsufficientPrivilege) as error:
            # A standby, a database made read-only, a role without its grants.
            raise StoreFailed(reason(error)) from None
        self.outage.answered()

    def _take(self) -> psycopg.Connection[Any]:
        """A connection from the pool that answers, within `POOL_WAIT` seconds: one found
        closed (PostgreSQL ended the session while it was idle) is handed back, to be
        replaced at once, and the next one tried without a pause. When every idle one was
        closed, the pool's new connection is waited for: at once when PostgreSQL is up, a
        `PoolTimeout` when it is away."""
        deadline = time.monotonic() + POOL_WAIT
        said = "every connection closed"
        for _ in range(self.pool.max_size + 1):
            db = self.pool.getconn(timeout=deadline - time.monotonic())
            try:
                ConnectionPool.check_connection(db)
            except psycopg.Error as error:
                self.pool.putconn(db)  # broken: the pool closes it and opens another
                said = reason(error)
                continue
            return db
        # Even the new ones closed as soon as they were opened: PostgreSQL is not answering.
        raise psycopg.OperationalError(said)

    def _all_lent(self) -> bool:
        """Whether the pool holds every connection it may and has lent them all out (so a
        request that found none waited on the others' work, not on a database away)."""
        stats = self.pool.get_stats()
        return stats.get("pool_size", 0) >= self.pool.max_size and not stats.get("pool_available")

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        # Every statement runs in a transaction, committed as `_connection` ends.
        with self._connection() as db:
            yield _Session(db)

    _read = _transaction

    @contextmanager
    def _snapshot(self) -> Iterator[Session]:
        with self._connection() as db:
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield _Session(db)

    def _announce(self, db: Session, game_id: str, moves: int | None) -> None:
        """Tell every listening process (hearts.web.notify) when this transaction commits: the
        game's new move count, or (None) that its table changed."""
        news = "table" if moves is None else str(moves)
        db.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{game_id} {news}"))

    def _queue_starts(self, db: Session) -> None:
        """Starts queue here, in every process, until this transaction ends: of two starts at
        the limit's edge the second counts the first. Plain reads go on."""
        db.execute("LOCK TABLE starts IN SHARE ROW EXCLUSIVE MODE")

    def _delete(self, db: Session, ids: Sequence[str]) -> None:
        if ids:  # one statement a table, however many games
            db.execute("DELETE FROM seats WHERE game_id = ANY(?)", (list(ids),))
            db.execute("DELETE FROM actions WHERE game_id = ANY(?)", (list(ids),))
            db.execute("DELETE FROM games WHERE id = ANY(?)", (list(ids),))


class _Session:
    """A psycopg connection as `GameStore`'s statements speak to it: SQLite's `?`
    placeholders, made psycopg's `%s`."""

    def __init__(self, db: psycopg.Connection[Any]) -> None:
        self.db = db

    def execute(self, sql: str, parameters: Sequence[Any] | None = None, /) -> psycopg.Cursor[Any]:
        return self.db.execute(_placeholders(sql), parameters)

    def executemany(self, sql: str, parameters: Sequence[Sequence[Any]], /) -> None:
        with self.db.cursor() as cursor:
            cursor.executemany(_placeholders(sql), parameters)


@cache
def _placeholders(sql: str) -> str:
    """`sql` with psycopg's placeholders for SQLite's (the statements hold no other `?`, and
    no `%`, which psycopg would read as one of its own)."""
    return sql.replace("?", "%s")
