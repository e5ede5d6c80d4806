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

import json
import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool, PoolTimeout
from psycopg_pool.base import AttemptWithBackoff

from .logs import Outage
from .notify import CHANNEL
from .settings import without_password
from .store import (
    FREED,
    PERSON_COLUMNS,
    WRITE_CHECK,
    FinishedGame,
    Person,
    Seating,
    Start,
    StartCheck,
    StoredGame,
    StoreError,
    UnfinishedGame,
    counted,
    person,
    seat_row,
    seed_columns,
)
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


class PgStore:
    """Game records in the PostgreSQL database at `url` (migrated to the current schema)."""

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

    def ping(self) -> None:
        with self._connection() as db:
            db.execute("SELECT 1 FROM games LIMIT 1")
            db.execute(WRITE_CHECK)

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
    ) -> bool:
        now = time.time()
        with self._connection() as db:
            if rematch_of is not None:
                claimed = db.execute(
                    "UPDATE games SET rematch = %s WHERE id = %s AND rematch IS NULL",
                    (game_id, rematch_of),
                )
                if claimed.rowcount != 1:
                    return False
                _announce(db, rematch_of, None)
            db.execute(
                "INSERT INTO games (id, owner, rules, seed, secret, settings, status, moves,"
                " created_at, updated_at, started)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    game_id,
                    owner,
                    json.dumps(rules),
                    *seed_columns(seed),
                    json.dumps(settings),
                    status,
                    len(actions),
                    now,
                    now,
                    int(started),
                ),
            )
            _insert_actions(db, game_id, 0, actions)
            if people:
                with db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO seats (game_id, seat, owner, name, away, seen_at)"
                        " VALUES (%s, %s, %s, %s, %s, %s)",
                        [(game_id, *seat_row(p, now)) for p in people],
                    )
            _announce(db, game_id, len(actions))
        return True

    def append(
        self,
        game_id: str,
        start: int,
        actions: Sequence[dict[str, Any]],
        status: str,
        clock: bool = True,
    ) -> bool:
        try:
            with self._connection() as db:
                _insert_actions(db, game_id, start, actions)
                db.execute(
                    "UPDATE games SET status = %s, moves = %s,"
                    " updated_at = CASE WHEN %s THEN %s ELSE updated_at END WHERE id = %s",
                    (status, start + len(actions), clock, time.time(), game_id),
                )
                _announce(db, game_id, start + len(actions))
        except errors.UniqueViolation:
            return False
        return True

    def load(self, game_id: str) -> StoredGame | None:
        with self._connection() as db:
            # One snapshot, so the game row and its actions are from the same moment.
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            row = db.execute(
                "SELECT id, owner, rules, seed, settings, status, moves, started, rematch,"
                " updated_at, secret FROM games WHERE id = %s",
                (game_id,),
            ).fetchone()
            rows = db.execute(
                "SELECT seq, action FROM actions WHERE game_id = %s ORDER BY seq", (game_id,)
            ).fetchall()
        if row is None:
            return None
        if row[6] != len(rows):
            raise ValueError(f"game {game_id} says {row[6]!r} moves but has {len(rows)}")
        if any(seq != i for i, (seq, _) in enumerate(rows)):
            raise ValueError(f"game {game_id} should have {row[6]} moves numbered from 0")
        return StoredGame(
            id=row[0],
            owner=row[1],
            rules=json.loads(row[2]),
            seed=int(row[3]) if row[10] is None else str(row[10]),
            settings=json.loads(row[4]),
            status=row[5],
            actions=[json.loads(text) for _, text in rows],
            started=bool(row[7]),
            rematch=row[8],
            updated_at=float(row[9]),
        )

    # --- the people at a table (see hearts.web.store.Store for each) --------------------

    def seating(self, game_id: str) -> Seating | None:
        with self._connection() as db:
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            game = db.execute(
                "SELECT started, rematch, updated_at, moves FROM games WHERE id = %s",
                (game_id,),
            ).fetchone()
            rows = db.execute(
                f"SELECT {PERSON_COLUMNS} FROM seats WHERE game_id = %s ORDER BY seat",
                (game_id,),
            ).fetchall()
        if game is None:
            return None
        people = {row[0]: person(row) for row in rows}
        return Seating(bool(game[0]), game[1], float(game[2]), int(game[3]), people)

    def join(self, game_id: str, owner: str, name: str) -> int | None:
        with self._connection() as db:
            # Joins to one table queue here, so two browsers can never take the same seat,
            # in one process or across many.
            if not _waiting(db, game_id):
                return None
            row = db.execute(
                "SELECT MIN(seat) FROM seats WHERE game_id = %s AND owner IS NULL", (game_id,)
            ).fetchone()
            if row is None or row[0] is None:
                return None
            db.execute(
                "UPDATE seats SET owner = %s, name = %s, seen_at = %s"
                " WHERE game_id = %s AND seat = %s",
                (owner, name, time.time(), game_id, row[0]),
            )
            _announce(db, game_id, None)
            return int(row[0])

    def free_seat(self, game_id: str, seat: int, owner: str) -> bool:
        with self._connection() as db:
            # As for a join: a seat is never freed as the table starts.
            if not _waiting(db, game_id):
                return False
            done = db.execute(
                f"UPDATE seats SET {FREED} WHERE game_id = %s AND seat = %s AND owner = %s",
                (game_id, seat, owner),
            )
            if done.rowcount == 1:
                _announce(db, game_id, None)
            return done.rowcount == 1

    def start(self, game_id: str) -> bool:
        with self._connection() as db:
            done = db.execute(
                "UPDATE games SET started = 1, updated_at = %s WHERE id = %s AND started = 0",
                (time.time(), game_id),
            )
            if done.rowcount == 1:
                _announce(db, game_id, None)
            return done.rowcount == 1

    def set_away(self, game_id: str, seat: int, away: bool) -> bool:
        with self._connection() as db:
            done = db.execute(
                "UPDATE seats SET away = %s WHERE game_id = %s AND seat = %s AND away <> %s",
                (int(away), game_id, seat, int(away)),
            )
            if done.rowcount == 1 and not away:  # back: the turn clock starts again
                db.execute("UPDATE games SET updated_at = %s WHERE id = %s", (time.time(), game_id))
            if done.rowcount == 1:
                _announce(db, game_id, None)
            return done.rowcount == 1

    def touch(self, game_id: str, seat: int, now: float) -> None:
        with self._connection() as db:
            db.execute(
                "UPDATE seats SET seen_at = %s WHERE game_id = %s AND seat = %s",
                (now, game_id, seat),
            )

    def heard_from(self, game_id: str, owner: str, now: float) -> bool:
        with self._connection() as db:
            done = db.execute(
                "UPDATE seats SET seen_at = %s WHERE game_id = %s AND owner = %s AND away = 0"
                " AND (left_at IS NULL OR (seen_at IS NOT NULL AND left_at < seen_at))",
                (now, game_id, owner),
            )
            return done.rowcount == 1

    def react(self, game_id: str, seat: int, reaction: str, now: float) -> None:
        with self._connection() as db:
            db.execute(
                "UPDATE seats SET reaction = %s, reaction_at = %s WHERE game_id = %s AND seat = %s",
                (reaction, now, game_id, seat),
            )
            _announce(db, game_id, None)

    def page_closed(self, game_id: str, seat: int, now: float) -> None:
        with self._connection() as db:
            db.execute(
                "UPDATE seats SET left_at = %s WHERE game_id = %s AND seat = %s",
                (now, game_id, seat),
            )
            _announce(db, game_id, None)

    def set_ready(self, game_id: str, seat: int, moves: int) -> None:
        with self._connection() as db:
            db.execute(
                "UPDATE seats SET ready = %s WHERE game_id = %s AND seat = %s",
                (moves, game_id, seat),
            )
            _announce(db, game_id, None)

    def count_hint(self, game_id: str, seat: int, decision: int) -> bool:
        with self._connection() as db:
            done = db.execute(
                "UPDATE seats SET hints = hints + 1, hinted = %s WHERE game_id = %s"
                " AND seat = %s AND (hinted IS NULL OR hinted <> %s)",
                (decision, game_id, seat, decision),
            )
            if done.rowcount == 1:
                _announce(db, game_id, None)
            return done.rowcount == 1

    def moves(self, game_id: str) -> int | None:
        with self._connection() as db:
            row = db.execute("SELECT moves FROM games WHERE id = %s", (game_id,)).fetchone()
        return None if row is None else int(row[0])

    def latest_unfinished(self, owner: str) -> str | None:
        found = self.unfinished(owner, 1)
        return found[0].id if found else None

    def unfinished(self, owner: str, limit: int) -> list[UnfinishedGame]:
        with self._connection() as db:
            rows = db.execute(
                "SELECT id, updated_at FROM games WHERE (owner = %s OR id IN"
                " (SELECT game_id FROM seats WHERE owner = %s)) AND status <> 'over'"
                " ORDER BY updated_at DESC LIMIT %s",
                (owner, owner, limit),
            ).fetchall()
        return [UnfinishedGame(str(row[0]), float(row[1])) for row in rows]

    def finished(self, owner: str, limit: int) -> list[FinishedGame]:
        with self._connection() as db:
            rows = db.execute(
                "SELECT id, created_at, updated_at FROM games WHERE (owner = %s OR id IN"
                " (SELECT game_id FROM seats WHERE owner = %s)) AND status = 'over'"
                " ORDER BY updated_at DESC LIMIT %s",
                (owner, owner, limit),
            ).fetchall()
        return [FinishedGame(str(r[0]), float(r[1]), float(r[2])) for r in rows]

    def stats_since(self, owner: str) -> float | None:
        with self._connection() as db:
            row = db.execute("SELECT since FROM stats_resets WHERE owner = %s", (owner,)).fetchone()
        return None if row is None else float(row[0])

    def reset_stats(self, owner: str, now: float) -> None:
        with self._connection() as db:
            db.execute(
                "INSERT INTO stats_resets (owner, since) VALUES (%s, %s)"
                " ON CONFLICT (owner) DO UPDATE SET since = excluded.since",
                (owner, now),
            )

    def keep_site_value(self, key: str, value: str) -> str:
        with self._connection() as db:
            db.execute(
                "INSERT INTO site (key, value) VALUES (%s, %s) ON CONFLICT DO NOTHING", (key, value)
            )
            row = db.execute("SELECT value FROM site WHERE key = %s", (key,)).fetchone()
        assert row is not None
        return str(row[0])

    def add_start(self, start: Start, since: float, check: StartCheck) -> None:
        with self._connection() as db:
            # Starts queue here, in every process, until this transaction ends: of two
            # starts at the limit's edge the second counts the first. Plain reads go on.
            db.execute("LOCK TABLE starts IN SHARE ROW EXCLUSIVE MODE")
            db.execute("DELETE FROM starts WHERE started_at <= %s", (since,))
            by_owner = db.execute(
                "SELECT COUNT(*), MIN(started_at) FROM starts WHERE owner = %s AND started_at > %s",
                (start.owner, since),
            ).fetchone()
            by_address = None
            if start.address is not None:
                by_address = db.execute(
                    "SELECT COUNT(*), MIN(started_at) FROM starts"
                    " WHERE address = %s AND started_at > %s",
                    (start.address, since),
                ).fetchone()
            check(counted(by_owner), None if by_address is None else counted(by_address))
            db.execute(
                "INSERT INTO starts (id, started_at, owner, address) VALUES (%s, %s, %s, %s)",
                (start.id, start.at, start.owner, start.address),
            )

    def drop_start(self, start_id: str) -> None:
        with self._connection() as db:
            db.execute("DELETE FROM starts WHERE id = %s", (start_id,))

    def forget_starts(self, before: float) -> None:
        with self._connection() as db:
            db.execute("DELETE FROM starts WHERE started_at <= %s", (before,))

    def trim_unfinished(self, owner: str, keep: int) -> list[str]:
        with self._connection() as db:
            rows = db.execute(
                "SELECT id FROM games WHERE owner = %s AND status <> 'over'"
                " ORDER BY updated_at DESC OFFSET %s",
                (owner, keep),
            ).fetchall()
            ids = [str(row[0]) for row in reversed(rows)]
            _delete(db, ids)
        return ids

    def expire(self, before: float) -> list[str]:
        with self._connection() as db:
            rows = db.execute(
                "SELECT id FROM games WHERE status <> 'over' AND updated_at < %s", (before,)
            ).fetchall()
            ids = [str(row[0]) for row in rows]
            _delete(db, ids)
        return ids


def _waiting(db: psycopg.Connection[Any], game_id: str) -> bool:
    """Whether the table `game_id` exists and has not started, its row locked until this
    transaction ends: the seats of a table waiting for friends change one at a time."""
    started = db.execute(
        "SELECT started FROM games WHERE id = %s FOR UPDATE", (game_id,)
    ).fetchone()
    return started is not None and not started[0]


def _announce(db: psycopg.Connection[Any], game_id: str, moves: int | None) -> None:
    """Tell every listening process (hearts.web.notify) when this transaction commits: the
    game's new move count, or (None) that its table changed."""
    news = "table" if moves is None else str(moves)
    db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id} {news}"))


def _delete(db: psycopg.Connection[Any], ids: Sequence[str]) -> None:
    if ids:
        db.execute("DELETE FROM seats WHERE game_id = ANY(%s)", (list(ids),))
        db.execute("DELETE FROM actions WHERE game_id = ANY(%s)", (list(ids),))
        db.execute("DELETE FROM games WHERE id = ANY(%s)", (list(ids),))


def _insert_actions(
    db: psycopg.Connection[Any], game_id: str, start: int, actions: Sequence[dict[str, Any]]
) -> None:
    if not actions:
        return
    with db.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO actions (game_id, seq, action) VALUES (%s, %s, %s)",
            [
                (game_id, start + i, json.dumps(action, separators=(",", ":")))
                for i, action in enumerate(actions)
            ],
        )
