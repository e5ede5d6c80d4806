"""The game store: one row per game and an append-only list of its actions, in SQLite
(`Store`); `GameStore` is all of it that the PostgreSQL store (`hearts.web.store_pg`) shares.

A game is its record (rules, seed, actions), so the store never rewrites an action: a request
appends the actions it made in one transaction, numbered from the move it started at. Two
requests racing for the same move cannot both win: the second insert breaks the primary key
and `append` reports the conflict, so the caller answers from the record instead.

The schema is in `hearts/web/schema/` (applied by `hearts.web.migrations`); the same tables
serve PostgreSQL (`hearts.web.store_pg`) for several processes.
Browsers are kept as a SHA-256 of their cookie, so the database never holds a live cookie;
client addresses (for the quotas on new games, an hour) as an HMAC under the cookie secret.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Protocol, Self, TypeVar

from .logs import Outage

#: The first 16 bytes of every SQLite database file.
SQLITE_MAGIC = b"SQLite format 3\x00"
#: SQLite's primary result codes for a file it cannot open or read at all (its folder gone
#: or shut, a disk or a mount failing, the file replaced by something that is no database):
#: the database away, counted as PostgreSQL's not answering is (`hearts.web.logs.Outage`).
#: A file locked past the wait, a full disk or a read-only file answered: as PostgreSQL's
#: busy, full and read-only, they are errors of their own, not an absence.
AWAY_CODES = frozenset({sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_NOTADB})

log = logging.getLogger("hearts.web")

_T = TypeVar("_T")


def is_away(error: BaseException) -> bool:
    """Whether `error` is SQLite failing to open or read its file (`AWAY_CODES`).

    >>> try:
    ...     sqlite3.connect("/no/such/folder/hearts.sqlite3")
    ... except sqlite3.Error as error:
    ...     print(error, is_away(error))
    unable to open database file True
    >>> is_away(sqlite3.OperationalError("database is locked"))  # raised without a code
    False
    """
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.Error) and isinstance(code, int) and code & 0xFF in AWAY_CODES


def is_busy(error: BaseException) -> bool:
    """Whether `error` is SQLite giving up on a lock another connection held past the wait
    (`Store.LOCK_WAIT`): an operator's `sqlite3` session, a backup, a `VACUUM`. Answered as
    PostgreSQL's busy is (503, try again), not as a failure: the page sends the move again.

    >>> error = sqlite3.OperationalError("database is locked")
    >>> error.sqlite_errorcode = sqlite3.SQLITE_BUSY
    >>> is_busy(error), is_away(error)
    (True, False)
    """
    code = getattr(error, "sqlite_errorcode", None)
    busy = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return isinstance(error, sqlite3.Error) and isinstance(code, int) and code & 0xFF in busy


class StoreUnavailable(Exception):
    """The database cannot be reached just now (stopped, restarting, every connection busy):
    answered 503 with this sentence, and nothing is lost."""


class Away(StoreUnavailable, sqlite3.OperationalError):
    """SQLite failing to open or read its file (`is_away`), raised as what it is to the
    web game, the database away: answered 503, a stream says it is reconnecting, and a
    game that cannot be read just now is not called damaged. It is still the sqlite3 error,
    with its message and code, for whatever catches those."""

    @classmethod
    def of(cls, error: sqlite3.Error) -> Away:
        away = cls(str(error))
        away.sqlite_errorcode = error.sqlite_errorcode
        away.sqlite_errorname = error.sqlite_errorname
        return away


def _watch(outage: Outage, run: Callable[..., _T], *args: Any) -> _T:
    """`run(*args)`, told to `outage`: failed when SQLite could not open or read the file
    (raised as `Away`), answered when it ran."""
    began = outage.clock()
    try:
        result = run(*args)
    except sqlite3.Error as error:
        if is_away(error):
            outage.failed(began)
            raise Away.of(error) from error
        raise
    outage.answered()
    return result


class _Watched(sqlite3.Connection):
    """A connection that tells the store's `Outage` of each statement and of each row read
    after it (`_WatchedCursor`): failed when SQLite could not open or read the file,
    answered when it could."""

    outage: Outage

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        return self._cursor().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        return self._cursor().executemany(sql, parameters)

    def _cursor(self) -> _WatchedCursor:
        cursor = self.cursor(_WatchedCursor)
        cursor.outage = self.outage
        return cursor


class _WatchedCursor(sqlite3.Cursor):
    """A cursor whose rows are watched as its statement is: SQLite reads the first row when
    the statement runs and each further one as it is fetched, so a disk or a mount that
    fails in between fails a fetch, and that is the database away as well."""

    outage: Outage

    def execute(self, sql: str, parameters: Any = (), /) -> Self:
        return _watch(self.outage, super().execute, sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> Self:
        return _watch(self.outage, super().executemany, sql, parameters)

    def fetchone(self) -> Any:
        return _watch(self.outage, super().fetchone)

    def fetchmany(self, size: int | None = None) -> list[Any]:
        # Without a size, the cursor's own `arraysize`, as sqlite3's fetchmany.
        return _watch(self.outage, super().fetchmany, self.arraysize if size is None else size)

    def fetchall(self) -> list[Any]:
        return _watch(self.outage, super().fetchall)

    def __next__(self) -> Any:
        return _watch(self.outage, super().__next__)


class StoreError(Exception):
    """The store cannot be used as it is: one sentence saying why and what to do."""


def owner_key(cookie: str) -> str:
    """What the store keeps for a browser: a hash of its cookie, never the cookie."""
    return hashlib.sha256(cookie.encode()).hexdigest()


@dataclass(frozen=True)
class StoredGame:
    id: str
    owner: str
    rules: dict[str, Any]
    seed: int | str
    """A keyed game's secret (text), or an older game's integer seed."""
    settings: dict[str, Any]
    status: str
    actions: list[dict[str, Any]]
    #: False while a table waits for its friends (or for the host's Start).
    started: bool = True
    #: The game that a rematch of this one started, once someone asked.
    rematch: str | None = None
    #: When the latest move was stored (seconds since the epoch): a turn's clock starts then.
    updated_at: float = 0.0


@dataclass(frozen=True)
class Person:
    """Who sits in a person's seat: `owner` is None while a friend's seat is open."""

    seat: int
    owner: str | None
    name: str
    away: bool = False
    seen_at: float | None = None
    reaction: str | None = None
    reaction_at: float | None = None
    ready: int | None = None
    """The game's move count when the person last asked for the next round (friends' tables
    deal it once everyone here has asked at this count)."""
    left_at: float | None = None
    """When their last open page at the table closed."""
    hints: int = 0
    """The coach's hints they took at a table of friends (each decision counted once)."""

    @property
    def page_closed(self) -> bool:
        """Whether their last page closed and they have not been heard from since."""
        return self.left_at is not None and (self.seen_at is None or self.left_at >= self.seen_at)


@dataclass(frozen=True)
class Seating:
    """A table as the store has it now: started yet, its rematch, when its latest move was
    stored, and its people by seat."""

    started: bool
    rematch: str | None
    updated_at: float
    moves: int
    people: dict[int, Person]
    #: When it was read (the server's clock): who had gone quiet then is judged by it.
    read_at: float = 0.0


#: The columns of a seat row, in `Person`'s order.
PERSON_COLUMNS = "seat, owner, name, away, seen_at, reaction, reaction_at, ready, left_at, hints"
#: A seat given back to the invitation: every column a person fills, as it was before.
FREED = (
    "owner = NULL, name = '', away = 0, seen_at = NULL, reaction = NULL, reaction_at = NULL,"
    " ready = NULL, left_at = NULL, hints = 0, hinted = NULL"
)


def seat_row(person: Person, now: float) -> tuple[int, str | None, str, int, float | None]:
    """A new seat's (seat, owner, name, away, seen_at): a person here is seen now."""
    seen = now if person.owner is not None and not person.away else None
    return person.seat, person.owner, person.name, int(person.away), seen


def person(row: Sequence[Any]) -> Person:
    """A seat's row as a `Person`; `ValueError` for a row no server wrote (a time that is
    text, say), which the game service reports as a damaged game: it was a TypeError deep
    in the turn clock, a 500 with no word of damage, on every request for that game."""
    return Person(
        int(row[0]),
        _optional(row[1], str),
        _is(row[2], str),
        bool(row[3]),
        _time(row[4]),
        _optional(row[5], str),
        _time(row[6]),
        _optional(row[7], int),
        _time(row[8]),
        int(row[9] or 0),
    )


def _is(value: Any, kind: type[_T]) -> _T:
    if isinstance(value, kind) and not isinstance(value, bool):
        return value
    raise ValueError(f"a seat holds {value!r} where a {kind.__name__} belongs")


def _optional(value: Any, kind: type[_T]) -> _T | None:
    return None if value is None else _is(value, kind)


def _time(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise ValueError(f"a seat holds {value!r} where a time belongs")


@dataclass(frozen=True)
class Start:
    """A new game's start, as the quotas keep it for an hour: its own id, the browser (a hash
    of its cookie), the address (a keyed hash of it; None when unknown) and when."""

    id: str
    owner: str
    address: str | None
    at: float


class Starts(NamedTuple):
    """The starts of one browser or one address since a moment: how many, and when the
    first of them (None for none)."""

    number: int
    first: float | None


#: What `add_start` hands the starts it found to: it raises to refuse the start.
StartCheck = Callable[[Starts, Starts | None], None]


class UnfinishedGame(NamedTuple):
    """An unfinished game's id, and when it was last played (seconds since 1970)."""

    id: str
    played: float


class FinishedGame(NamedTuple):
    """A finished game's id, and when it was started and last played (seconds since 1970)."""

    id: str
    started: float
    finished: float


#: A write that changes nothing (no row has the key), refused all the same by a store that
#: cannot be written: a read-only file or database, a standby, a role without the right.
WRITE_CHECK = "UPDATE site SET value = value WHERE key = 'no such key'"


class Rows(Protocol):
    """What a statement gives back, in either database: its rows and how many it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Session(Protocol):
    """A connection in a transaction as `GameStore`'s own code speaks to it: its statements
    written with SQLite's `?` placeholders (a PostgreSQL store turns them into its `%s`)."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Rows: ...

    def executemany(self, sql: str, parameters: Sequence[Sequence[Any]], /) -> object: ...


class GameStore(ABC):
    """What the web game needs of a store, and all of it that is the same in SQLite (`Store`)
    and in PostgreSQL (`hearts.web.store_pg.PgStore`): the statements, in the SQL both speak.
    Each store brings its connections and transactions (`_transaction`, `_read`,
    `_snapshot`), and what its database does its own way (the class's constants, the hooks
    `_announce`, `_queue_starts` and `_delete`)."""

    #: The directory whose free space the quotas watch (the data directory).
    directory: Path
    #: What `append` raises when the request lost: a second insert of a move number (the
    #: actions' primary key broken), or the game gone meanwhile.
    Taken: ClassVar[type[Exception] | tuple[type[Exception], ...]]
    #: Written after `SELECT … FROM games WHERE id = ?` to hold the row until the
    #: transaction ends (`_waiting`).
    ROW_LOCK: ClassVar[str]
    #: `LIMIT`'s word for no limit, before an `OFFSET`.
    NO_LIMIT: ClassVar[str]

    @abstractmethod
    def check(self) -> None:
        """Raise `StoreError` (one sentence) if the store cannot be used as it is."""

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[Session]:
        """A write transaction, committed at the end and rolled back on an error."""

    @abstractmethod
    def _read(self) -> AbstractContextManager[Session]:
        """A connection for one statement that only reads."""

    @abstractmethod
    def _snapshot(self) -> AbstractContextManager[Session]:
        """A transaction whose reads all see the database as it was at one moment."""

    @abstractmethod
    def _announce(self, db: Session, game_id: str, moves: int | None) -> None:
        """Tell the other server processes, once `db`'s transaction commits, the game's new
        move count, or (None) that its table changed."""

    @abstractmethod
    def _queue_starts(self, db: Session) -> None:
        """Make the other `add_start` transactions wait until this one ends."""

    def _delete(self, db: Session, ids: Sequence[str]) -> None:
        """Remove the games `ids`, their actions and their seats."""
        for game_id in ids:
            db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def _waiting(self, db: Session, game_id: str) -> bool:
        """Whether the table `game_id` exists and has not started, its row held until this
        transaction ends: the seats of a table waiting for friends change one at a time, so
        two browsers never take the same seat, nor is one freed as the table starts."""
        started = db.execute(
            f"SELECT started FROM games WHERE id = ?{self.ROW_LOCK}", (game_id,)
        ).fetchone()
        return started is not None and not started[0]

    def ping(self) -> None:
        """A quick read and a write that changes nothing: raises if the store does not
        answer, or answers but cannot be written (a health check)."""
        with self._transaction() as db:
            db.execute("SELECT 1 FROM games LIMIT 1").fetchall()
            db.execute(WRITE_CHECK)

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
        """A new game with its first actions (the computer players' opening moves) and the
        people at its table (seen now, unless away). With `rematch_of`, the game is that
        one's rematch: False (and nothing written) if another rematch of it was made first."""
        now = time.time()
        with self._transaction() as db:
            if rematch_of is not None:
                claimed = db.execute(
                    "UPDATE games SET rematch = ? WHERE id = ? AND rematch IS NULL",
                    (game_id, rematch_of),
                )
                if claimed.rowcount != 1:
                    return False
                self._announce(db, rematch_of, None)
            db.execute(
                "INSERT INTO games (id, owner, rules, seed, secret, settings, status, moves,"
                " created_at, updated_at, started)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                db.executemany(
                    "INSERT INTO seats (game_id, seat, owner, name, away, seen_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    [(game_id, *seat_row(p, now)) for p in people],
                )
            self._announce(db, game_id, len(actions))
        return True

    def append(
        self,
        game_id: str,
        start: int,
        actions: Sequence[dict[str, Any]],
        status: str,
        clock: bool = True,
    ) -> bool:
        """Append actions numbered from `start`; False (and nothing written) if any of those
        numbers is taken already, which means another request got there first. `updated_at`
        (when the table's turn clock last started) becomes now, unless not `clock` (a pass
        that leaves others still to pass: their clock runs on from the deal)."""
        try:
            with self._transaction() as db:
                _insert_actions(db, game_id, start, actions)
                db.execute(
                    "UPDATE games SET status = ?, moves = ?,"
                    " updated_at = CASE WHEN ? THEN ? ELSE updated_at END WHERE id = ?",
                    (status, start + len(actions), clock, time.time(), game_id),
                )
                self._announce(db, game_id, start + len(actions))
        except self.Taken:
            return False
        return True

    def load(self, game_id: str) -> StoredGame | None:
        """The game and its actions, read at one moment; None for no such game."""
        with self._snapshot() as db:
            row = db.execute(
                "SELECT id, owner, rules, seed, settings, status, moves, started, rematch,"
                " updated_at, secret FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            rows = db.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        if row is None:
            return None
        # A hand-edited or truncated record: a gap, or fewer moves than the game says. The
        # stored count is checked against the rows before it is used for anything.
        if not isinstance(row[6], int) or row[6] != len(rows):
            raise ValueError(f"game {game_id} says {row[6]!r} moves but has {len(rows)}")
        if any(seq != i for i, (seq, _) in enumerate(rows)):
            raise ValueError(f"game {game_id} should have {row[6]} moves numbered from 0")
        actions = [json.loads(text) for _, text in rows]
        return StoredGame(
            id=row[0],
            owner=row[1],
            rules=json.loads(row[2]),
            seed=int(row[3]) if row[10] is None else str(row[10]),
            settings=json.loads(row[4]),
            status=row[5],
            actions=actions,
            started=bool(row[7]),
            rematch=row[8],
            updated_at=float(row[9]),
        )

    def moves(self, game_id: str) -> int | None:
        """How many actions the game has stored (None for no such game): a cheap check that a
        cached copy is current when several server processes share the store."""
        with self._read() as db:
            row = db.execute("SELECT moves FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else int(row[0])

    # --- the people at a table ---------------------------------------------------------

    def seating(self, game_id: str) -> Seating | None:
        """The table of a game and its people by seat (none for a game from before tables);
        None for no such game."""
        with self._snapshot() as db:
            game = db.execute(
                "SELECT started, rematch, updated_at, moves FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            rows = db.execute(
                f"SELECT {PERSON_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ).fetchall()
        if game is None:
            return None
        people = {row[0]: person(row) for row in rows}
        return Seating(bool(game[0]), game[1], float(game[2]), int(game[3]), people)

    def join(self, game_id: str, owner: str, name: str) -> int | None:
        """Seat `owner` in the lowest open seat of a table not yet started; the seat, or
        None when every seat is taken (or the table has started)."""
        with self._transaction() as db:
            if not self._waiting(db, game_id):
                return None
            row = db.execute(
                "SELECT MIN(seat) FROM seats WHERE game_id = ? AND owner IS NULL", (game_id,)
            ).fetchone()
            if row is None or row[0] is None:
                return None
            db.execute(
                "UPDATE seats SET owner = ?, name = ?, seen_at = ? WHERE game_id = ? AND seat = ?",
                (owner, name, time.time(), game_id, row[0]),
            )
            self._announce(db, game_id, None)
            return int(row[0])

    def free_seat(self, game_id: str, seat: int, owner: str) -> bool:
        """Give `owner`'s seat of a table not yet started back to the invitation, as it was
        before they joined; False if it is not theirs (or the table has started)."""
        with self._transaction() as db:
            if not self._waiting(db, game_id):
                return False
            done = db.execute(
                f"UPDATE seats SET {FREED} WHERE game_id = ? AND seat = ? AND owner = ?",
                (game_id, seat, owner),
            )
            return self._changed(db, game_id, done)

    def start(self, game_id: str) -> bool:
        """Start a waiting table; False if it had started already."""
        with self._transaction() as db:
            done = db.execute(
                "UPDATE games SET started = 1, updated_at = ? WHERE id = ? AND started = 0",
                (time.time(), game_id),
            )
            return self._changed(db, game_id, done)

    def set_away(self, game_id: str, seat: int, away: bool) -> bool:
        """Mark a person away (a computer plays for them) or back; False if already so."""
        with self._transaction() as db:
            done = db.execute(
                "UPDATE seats SET away = ? WHERE game_id = ? AND seat = ? AND away <> ?",
                (int(away), game_id, seat, int(away)),
            )
            if done.rowcount == 1 and not away:
                # Back: the turn clock starts again, so a turn that ran out while the
                # person was away is not taken from them the moment they return.
                db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (time.time(), game_id))
            return self._changed(db, game_id, done)

    def touch(self, game_id: str, seat: int, now: float) -> None:
        """Note that the person in `seat` was here at `now`."""
        with self._transaction() as db:
            db.execute(
                "UPDATE seats SET seen_at = ? WHERE game_id = ? AND seat = ?",
                (now, game_id, seat),
            )

    def heard_from(self, game_id: str, owner: str, now: float) -> bool:
        """Note that the person `owner` was here at `now`, in one write and no read: False
        when they hold no seat here, or when theirs is marked away or their page closed (the
        caller takes the longer way, which takes the seat back and tells the others)."""
        with self._transaction() as db:
            done = db.execute(
                "UPDATE seats SET seen_at = ? WHERE game_id = ? AND owner = ? AND away = 0"
                " AND (left_at IS NULL OR (seen_at IS NOT NULL AND left_at < seen_at))",
                (now, game_id, owner),
            )
            return done.rowcount == 1

    def page_closed(self, game_id: str, seat: int, now: float) -> None:
        """Note that the last open page of the person in `seat` closed at `now`."""
        self._set_seat(game_id, seat, "left_at = ?", now)

    def react(self, game_id: str, seat: int, reaction: str, now: float) -> None:
        """Keep the latest reaction of the person in `seat`."""
        self._set_seat(game_id, seat, "reaction = ?, reaction_at = ?", reaction, now)

    def set_ready(self, game_id: str, seat: int, moves: int) -> None:
        """Note that the person in `seat` asked for the next round at move count `moves`."""
        self._set_seat(game_id, seat, "ready = ?", moves)

    def count_hint(self, game_id: str, seat: int, decision: int) -> bool:
        """Count a hint the person in `seat` took for `decision` (`Person.hints`); False (and
        nothing counted) if their latest counted hint was for that decision already."""
        with self._transaction() as db:
            done = db.execute(
                "UPDATE seats SET hints = hints + 1, hinted = ? WHERE game_id = ? AND seat = ?"
                " AND (hinted IS NULL OR hinted <> ?)",
                (decision, game_id, seat, decision),
            )
            return self._changed(db, game_id, done)

    def _set_seat(self, game_id: str, seat: int, columns: str, *values: Any) -> None:
        """Set `columns` (`name = ?, …`) of the seat to `values`, and tell the table."""
        with self._transaction() as db:
            db.execute(
                f"UPDATE seats SET {columns} WHERE game_id = ? AND seat = ?",
                (*values, game_id, seat),
            )
            self._announce(db, game_id, None)

    def _changed(self, db: Session, game_id: str, done: Rows) -> bool:
        """Whether `done` changed the one row it aimed at; if so, the table is told."""
        if done.rowcount != 1:
            return False
        self._announce(db, game_id, None)
        return True

    # --- the games of a browser -------------------------------------------------------

    def latest_unfinished(self, owner: str) -> str | None:
        """The id of the browser's most recently played game that is not over, if any."""
        found = self.unfinished(owner, 1)
        return found[0].id if found else None

    def unfinished(self, owner: str, limit: int) -> list[UnfinishedGame]:
        """The browser's games that are not over, most recently played first."""
        with self._read() as db:
            rows = db.execute(
                "SELECT id, updated_at FROM games WHERE (owner = ? OR id IN"
                " (SELECT game_id FROM seats WHERE owner = ?)) AND status <> 'over'"
                " ORDER BY updated_at DESC LIMIT ?",
                (owner, owner, limit),
            ).fetchall()
        return [UnfinishedGame(str(row[0]), float(row[1])) for row in rows]

    def finished(self, owner: str, limit: int) -> list[FinishedGame]:
        """The browser's finished games (made or joined), the most recently played first."""
        with self._read() as db:
            rows = db.execute(
                "SELECT id, created_at, updated_at FROM games WHERE (owner = ? OR id IN"
                " (SELECT game_id FROM seats WHERE owner = ?)) AND status = 'over'"
                " ORDER BY updated_at DESC LIMIT ?",
                (owner, owner, limit),
            ).fetchall()
        return [FinishedGame(str(r[0]), float(r[1]), float(r[2])) for r in rows]

    def trim_unfinished(self, owner: str, keep: int) -> list[str]:
        """Remove the browser's unfinished games of its own past the `keep` most recently
        played; the ids removed (the longest untouched first). A table with a seat for anyone
        else (a friend seated, or an invitation still open) is never one of them: starting
        games of one's own deleted tables that others sat at, with their games. Those go only
        once nobody has touched them for the days `expire` allows."""
        with self._transaction() as db:
            ids = self._own_unfinished_past(db, owner, keep)
            self._delete(db, ids)
        return ids

    def closed_by_next(self, owner: str, keep: int) -> list[str]:
        """The games `trim_unfinished` would remove once the browser starts one more: what
        the start screen warns of before a new game."""
        with self._read() as db:
            return self._own_unfinished_past(db, owner, max(keep - 1, 0))

    def _own_unfinished_past(self, db: Session, owner: str, keep: int) -> list[str]:
        rows = db.execute(
            "SELECT id FROM games WHERE owner = ? AND status <> 'over' AND NOT EXISTS"
            " (SELECT 1 FROM seats WHERE seats.game_id = games.id"
            " AND (seats.owner IS NULL OR seats.owner <> games.owner))"
            f" ORDER BY updated_at DESC LIMIT {self.NO_LIMIT} OFFSET ?",
            (owner, keep),
        ).fetchall()
        return [str(row[0]) for row in reversed(rows)]

    def expire(self, before: float) -> list[str]:
        """Remove unfinished games untouched since `before`; the ids removed."""
        with self._transaction() as db:
            rows = db.execute(
                "SELECT id FROM games WHERE status <> 'over' AND updated_at < ?", (before,)
            ).fetchall()
            ids = [str(row[0]) for row in rows]
            self._delete(db, ids)
        return ids

    # --- statistics and the site ------------------------------------------------------

    def stats_since(self, owner: str) -> float | None:
        """When the browser last reset its statistics (seconds since 1970), if it did."""
        with self._read() as db:
            row = db.execute("SELECT since FROM stats_resets WHERE owner = ?", (owner,)).fetchone()
        return None if row is None else float(row[0])

    def reset_stats(self, owner: str, now: float) -> None:
        """Count the browser's statistics from `now` on (its games and records stay)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO stats_resets (owner, since) VALUES (?, ?)"
                " ON CONFLICT (owner) DO UPDATE SET since = excluded.since",
                (owner, now),
            )

    def keep_site_value(self, key: str, value: str) -> str:
        """The site's value for `key`: the one kept, or `value`, kept now if there was none."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO site (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING", (key, value)
            )
            row = db.execute("SELECT value FROM site WHERE key = ?", (key,)).fetchone()
        assert row is not None
        return str(row[0])

    # --- quotas ------------------------------------------------------------------------

    def add_start(self, start: Start, since: float, check: StartCheck) -> None:
        """In one transaction (a start in another process waits for it): forget the starts
        from before `since`, count the browser's and the address's since then (None without
        an address), hand both to `check`, which raises to refuse (and nothing is added),
        and add `start`."""
        with self._transaction() as db:
            self._queue_starts(db)
            db.execute("DELETE FROM starts WHERE started_at <= ?", (since,))
            by_owner = db.execute(
                "SELECT COUNT(*), MIN(started_at) FROM starts WHERE owner = ? AND started_at > ?",
                (start.owner, since),
            ).fetchone()
            by_address = None
            if start.address is not None:
                by_address = db.execute(
                    "SELECT COUNT(*), MIN(started_at) FROM starts"
                    " WHERE address = ? AND started_at > ?",
                    (start.address, since),
                ).fetchone()
            check(counted(by_owner), None if by_address is None else counted(by_address))
            db.execute(
                "INSERT INTO starts (id, started_at, owner, address) VALUES (?, ?, ?, ?)",
                (start.id, start.at, start.owner, start.address),
            )

    def drop_start(self, start_id: str) -> None:
        """Remove a start whose game was not made after all."""
        with self._transaction() as db:
            db.execute("DELETE FROM starts WHERE id = ?", (start_id,))

    def forget_starts(self, before: float) -> None:
        """Remove the starts from before `before`."""
        with self._transaction() as db:
            db.execute("DELETE FROM starts WHERE started_at <= ?", (before,))


class Store(GameStore):
    """SQLite game records in `directory`/hearts.sqlite3 (created on demand, WAL mode).

    One process writes at a time (a write transaction begins IMMEDIATE, taking the whole
    database), so joins, starts and quotas need no locks of their own."""

    Taken = sqlite3.IntegrityError
    ROW_LOCK = ""  # the write transaction holds the whole database already
    NO_LIMIT = "-1"
    #: Seconds a statement waits for a lock another connection holds, then fails busy.
    LOCK_WAIT: ClassVar[float] = 10.0

    def __init__(self, directory: Path) -> None:
        # Every hand of every game is in here: only the server's own user may read it.
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        _make_private(directory, 0o700)
        self.path = directory / "hearts.sqlite3"
        self._local = threading.local()
        #: The file unreadable and readable again: logged once when it is back, and read by
        #: the metrics (hearts_database_away), as PostgreSQL's absences are.
        self.outage = Outage(log)
        self.directory = directory
        self.check()
        from .migrations import UpgradeError, upgrade

        try:
            upgrade(self.path)
        except UpgradeError as error:
            raise StoreError(str(error)) from None
        except sqlite3.Error as error:  # a file of another program's tables, say
            reason = " ".join(str(error).split())[:80]
            raise StoreError(
                f"{self.path} could not be brought up to date ({reason}): it is not a database"
                " of this game's, or it is damaged; choose another --data-dir, or restore a"
                " backup."
            ) from None
        for suffix in ("", "-wal", "-shm"):
            _make_private(Path(f"{self.path}{suffix}"), 0o600)

    def check(self) -> None:
        """Refuse a file that is not a SQLite database or fails `PRAGMA quick_check`, with
        a StoreError that says so in one sentence (new games are never written into it)."""
        if not self.path.exists():
            # Created private from the start, before SQLite makes it with the umask's bits.
            os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
            return
        if not os.access(self.path, os.R_OK | os.W_OK):
            raise StoreError(
                f"{self.path} cannot be {'written' if os.access(self.path, os.R_OK) else 'read'}"
                " by this user: check its owner and permissions (its games are not touched)."
            )
        with open(self.path, "rb") as file:
            head = file.read(len(SQLITE_MAGIC))
        if head and head != SQLITE_MAGIC:
            raise StoreError(
                f"{self.path} is not a SQLite database; move it aside or choose another --data-dir."
            )
        try:
            found = [row[0] for row in self._connection().execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as error:
            reason = " ".join(str(error).split())[:80]
            raise StoreError(
                f"{self.path} cannot be read ({reason}); restore a backup or move it aside."
            ) from None
        if found != ["ok"]:
            first = " ".join(str(found[0]).replace("*** in database main ***", "").split())
            raise StoreError(
                f"{self.path} is damaged ({first[:80]}); restore a backup or move it aside."
            )

    def _connection(self) -> sqlite3.Connection:
        # One connection per thread: sqlite3 connections must not be shared across threads.
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            try:
                db = sqlite3.connect(
                    self.path, timeout=self.LOCK_WAIT, isolation_level=None, factory=_Watched
                )
            except sqlite3.Error as error:
                if is_away(error):
                    self.outage.failed()
                    raise Away.of(error) from error
                raise
            db.outage = self.outage
            db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode survives a killed process; only an OS crash can lose the tail.
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
        return db

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self._connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            # SQLite has already rolled back after some errors (a full disk): a second
            # ROLLBACK would fail and hide the real error.
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        # Each statement outside a transaction is one of its own.
        yield self._connection()

    @contextmanager
    def _snapshot(self) -> Iterator[sqlite3.Connection]:
        db = self._connection()
        db.execute("BEGIN")
        try:
            yield db
        finally:
            db.execute("COMMIT")

    def close(self) -> None:
        """Nothing to close: each thread's connection ends with the thread."""

    def _announce(self, db: Session, game_id: str, moves: int | None) -> None:
        """Nothing to tell: one process uses the file (`hearts.web.live` tells its streams)."""

    def _queue_starts(self, db: Session) -> None:
        """Nothing to do: the write transaction holds the whole database already."""


def counted(row: Sequence[Any] | None) -> Starts:
    """A (COUNT, MIN) row of starts."""
    assert row is not None
    return Starts(int(row[0]), None if row[1] is None else float(row[1]))


def seed_columns(seed: int | str) -> tuple[int, str | None]:
    """The `seed` and `secret` columns: a keyed game's secret is text, kept in `secret`
    (its `seed` is 0); an older game's integer seed stays in `seed`."""
    return (0, seed) if isinstance(seed, str) else (seed, None)


def _make_private(path: Path, mode: int) -> None:
    try:
        if path.exists() and path.stat().st_mode & 0o777 != mode:
            path.chmod(mode)
    except PermissionError:
        pass  # not ours to change (a shared directory): the files inside still are


def _insert_actions(
    db: Session, game_id: str, start: int, actions: Sequence[dict[str, Any]]
) -> None:
    if not actions:
        return
    db.executemany(
        "INSERT INTO actions (game_id, seq, action) VALUES (?, ?, ?)",
        [
            (game_id, start + i, json.dumps(action, separators=(",", ":")))
            for i, action in enumerate(actions)
        ],
    )


def unfinished_games(store: Any, owner: str, limit: int) -> list[UnfinishedGame]:
    """The browser's games that are not over, most recently played first (at most `limit`):
    the start screen offers each one to continue. `store` is either store."""
    found: list[UnfinishedGame] = store.unfinished(owner, limit)
    return found
