"""The game store in PostgreSQL, for several `hearts serve` processes over one database.

The same tables as the SQLite store (`hearts.web.store`), through psycopg 3 and a connection
pool. Races are the database's to decide: the actions' primary key (game_id, seq) lets one
insert of a move number succeed and breaks every other, in any process.

Nothing waits for long: a connection is asked for at most `POOL_WAIT` seconds (a full pool,
or PostgreSQL down), is opened within `CONNECT_TIMEOUT` seconds, and a statement runs at
most `STATEMENT_TIMEOUT` ms; past any of them the request is answered 503 with a sentence
(`StoreUnavailable`) and nothing is written. Connections are checked as they are taken from
the pool, so after PostgreSQL restarts the next request gets a fresh one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool, PoolTimeout

from .notify import CHANNEL
from .store import FinishedGame, StoredGame, StoreError, seed_columns
from .stores import StoreUnavailable

#: Seconds a request waits for a free connection before it is answered 503.
POOL_WAIT = 3.0
#: Seconds to open a connection to PostgreSQL.
CONNECT_TIMEOUT = 3
#: Milliseconds any one statement may run.
STATEMENT_TIMEOUT = 5000


def where(url: str) -> str:
    """The URL without its password, for messages."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    host = info.get("host") or "localhost"
    return f"{info.get('dbname') or info.get('user') or ''} at {host}:{info.get('port') or 5432}"


class PgStore:
    """Game records in the PostgreSQL database at `url` (migrated to the current schema)."""

    def __init__(self, url: str, directory: Path, pool_size: int = 10) -> None:
        from .migrations import upgrade

        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.directory = directory
        self.url = url
        try:
            upgrade(url)
        except psycopg.OperationalError as error:
            reason = " ".join(str(error).split())[:120]
            raise StoreError(f"Cannot reach PostgreSQL ({where(url)}): {reason}.") from None
        self.pool = ConnectionPool(
            url,
            min_size=min(2, pool_size),
            max_size=pool_size,
            timeout=POOL_WAIT,
            kwargs={
                "connect_timeout": CONNECT_TIMEOUT,
                "options": f"-c statement_timeout={STATEMENT_TIMEOUT}",
                "application_name": "hearts",
            },
            check=ConnectionPool.check_connection,
            reconnect_timeout=24 * 3600,
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
        error); an unreachable database or a full pool is `StoreUnavailable`."""
        try:
            with self.pool.connection() as db:
                yield db
        except PoolTimeout:
            raise StoreUnavailable("no database connection within the wait") from None
        except (psycopg.OperationalError, errors.QueryCanceled) as error:
            # UniqueViolation and the like are IntegrityErrors and pass through.
            raise StoreUnavailable(" ".join(str(error).split())[:200]) from None

    def create(
        self,
        game_id: str,
        owner: str,
        rules: dict[str, Any],
        seed: int | str,
        settings: dict[str, Any],
        actions: Sequence[dict[str, Any]],
        status: str,
    ) -> None:
        now = time.time()
        with self._connection() as db:
            db.execute(
                "INSERT INTO games (id, owner, rules, seed, secret, settings, status, moves,"
                " created_at, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
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
                ),
            )
            _insert_actions(db, game_id, 0, actions)
            _announce(db, game_id, len(actions))

    def append(
        self, game_id: str, start: int, actions: Sequence[dict[str, Any]], status: str
    ) -> bool:
        try:
            with self._connection() as db:
                _insert_actions(db, game_id, start, actions)
                db.execute(
                    "UPDATE games SET status = %s, moves = %s, updated_at = %s WHERE id = %s",
                    (status, start + len(actions), time.time(), game_id),
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
                "SELECT id, owner, rules, seed, settings, status, moves, secret FROM games"
                " WHERE id = %s",
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
            seed=int(row[3]) if row[7] is None else str(row[7]),
            settings=json.loads(row[4]),
            status=row[5],
            actions=[json.loads(text) for _, text in rows],
        )

    def moves(self, game_id: str) -> int | None:
        with self._connection() as db:
            row = db.execute("SELECT moves FROM games WHERE id = %s", (game_id,)).fetchone()
        return None if row is None else int(row[0])

    def latest_unfinished(self, owner: str) -> str | None:
        found = self.unfinished(owner, 1)
        return found[0] if found else None

    def unfinished(self, owner: str, limit: int) -> list[str]:
        with self._connection() as db:
            rows = db.execute(
                "SELECT id FROM games WHERE owner = %s AND status <> 'over'"
                " ORDER BY updated_at DESC LIMIT %s",
                (owner, limit),
            ).fetchall()
        return [str(row[0]) for row in rows]

    def finished(self, owner: str, limit: int) -> list[FinishedGame]:
        with self._connection() as db:
            rows = db.execute(
                "SELECT id, created_at, updated_at FROM games WHERE owner = %s"
                " AND status = 'over' ORDER BY updated_at DESC LIMIT %s",
                (owner, limit),
            ).fetchall()
        return [FinishedGame(str(r[0]), float(r[1]), float(r[2])) for r in rows]

    def created_since(self, owner: str, since: float) -> tuple[int, float | None]:
        with self._connection() as db:
            row = db.execute(
                "SELECT COUNT(*), MIN(created_at) FROM games WHERE owner = %s AND created_at > %s",
                (owner, since),
            ).fetchone()
        assert row is not None
        return int(row[0]), (None if row[1] is None else float(row[1]))

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


def _announce(db: psycopg.Connection[Any], game_id: str, moves: int) -> None:
    """Tell every listening process (hearts.web.notify) when this transaction commits."""
    db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id} {moves}"))


def _delete(db: psycopg.Connection[Any], ids: Sequence[str]) -> None:
    if ids:
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
