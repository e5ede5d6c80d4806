"""The schema's versions, applied in place with yoyo-migrations (the steps are the SQL files in
`hearts/web/schema/`, one per version, each naming the one it follows).

Both stores run `upgrade` when they open: steps not yet applied to that database are applied
in order, each in its own transaction, and recorded in yoyo's own table. A database made
before migrations (today's SQLite files) takes the first step unchanged, since it creates only
what is missing, and keeps every game.

Several processes starting at once apply each step once: each first takes a lock that goes
with it if it dies (a PostgreSQL advisory lock; beside a SQLite file, a `flock`), waiting at
most `LOCK_WAIT` seconds. yoyo's own lock (a row in a table) stays behind when a process is
killed mid-upgrade and then stops every later start; whoever holds the first lock knows
that any such row is stale, and clears it. A step waits at most `STEP_LOCK_WAIT` for a lock
on a table (a `pg_dump` holds one), and the connection at most `CONNECT_WAIT` to open.

A SQLite file that has every step is recognised by reading alone: yoyo writes on every
open (its lock row, a trial table), and beside a server that writes without pause a second
opener could wait in vain for the write lock and give up with "database is locked".
"""

from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlencode

from .settings import without_password

SCHEMA = Path(__file__).parent / "schema"
#: Seconds a starting process waits for another one's upgrade before it gives up.
LOCK_WAIT = 60.0
#: Seconds a step waits for a lock on a table; seconds to open a connection.
STEP_LOCK_WAIT = 10
CONNECT_WAIT = 3
#: The advisory lock's key: "hearts" in ASCII, the same in every process.
ADVISORY_KEY = 0x686561727473


class UpgradeError(Exception):
    """The schema could not be brought up to date; the message says why in one sentence."""


def yoyo_uri(target: str | Path) -> str:
    """yoyo's name for a store: a SQLite file path, or a postgresql:// URL (psycopg 3) with
    the waits above added (yoyo hands its query's arguments to the connection).

    Every part of a PostgreSQL URL goes over as a query argument, read by libpq's own
    parser first: yoyo reads the host from the URL as a web address does, so a socket's
    folder (`postgresql://me@%2Fvar%2Frun%2Fpostgresql/games`) was a host named "%2Fvar...".

    >>> print(yoyo_uri("postgresql://me@%2Fvar%2Frun%2Fpostgresql/games").replace("&", " &"))
    ... # doctest: +NORMALIZE_WHITESPACE
    postgresql+psycopg:///?user=me &dbname=games &host=%2Fvar%2Frun%2Fpostgresql
    &connect_timeout=3 &options=-c+lock_timeout%3D10000
    """
    if isinstance(target, Path):
        return f"sqlite:///{target}"
    if not target.startswith(("postgresql://", "postgres://")):
        return target
    import psycopg

    try:
        parts = psycopg.conninfo.conninfo_to_dict(target)
    except psycopg.ProgrammingError as error:
        raise ValueError(without_password(str(error), target)) from None
    parts.setdefault("connect_timeout", CONNECT_WAIT)
    options = f"-c lock_timeout={STEP_LOCK_WAIT * 1000}"
    parts["options"] = f"{parts['options']} {options}" if parts.get("options") else options
    return "postgresql+psycopg:///?" + urlencode({k: str(v) for k, v in parts.items()})


@contextmanager
def _only_upgrader(target: str | Path) -> Iterator[None]:
    """Hold the lock that lets one process at a time upgrade `target`, trying it every
    0.25 s for at most `LOCK_WAIT` seconds."""
    if isinstance(target, Path):
        # Private like the store beside it (made with these bits, never the umask's).
        descriptor = os.open(f"{target}.upgrade-lock", os.O_CREAT | os.O_RDWR, 0o600)
        with os.fdopen(descriptor, "r+") as file:

            def locked() -> bool:
                try:
                    fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    return False
                return True

            _wait_for(locked)
            yield  # the lock ends with the file
        return
    import psycopg

    with psycopg.connect(target, connect_timeout=CONNECT_WAIT, autocommit=True) as db:

        def locked() -> bool:
            row = db.execute("SELECT pg_try_advisory_lock(%s)", (ADVISORY_KEY,)).fetchone()
            return row is not None and bool(row[0])

        _wait_for(locked)
        yield  # the lock ends with the connection


def _wait_for(locked: Callable[[], bool]) -> None:
    deadline = time.monotonic() + LOCK_WAIT
    while not locked():
        if time.monotonic() > deadline:
            raise UpgradeError(
                f"Another process has been bringing the database up to date for"
                f" {LOCK_WAIT:.0f} s; start this one again once it is done (or stop it if it"
                " is stuck)."
            )
        time.sleep(0.25)


def upgrade(target: str | Path) -> list[str]:
    """Apply the steps `target` lacks; the ids of those applied."""
    from yoyo import get_backend, read_migrations

    migrations = read_migrations(str(SCHEMA))
    if isinstance(target, Path):
        with suppress(UpgradeError):  # yoyo's own path says what is wrong, or mends it
            done, upgrading = _sqlite_steps(target)
            if not upgrading and {m.hash for m in migrations} <= done.keys():
                return []
    with _only_upgrader(target):
        backend: Any = get_backend(yoyo_uri(target))
        try:
            if "yoyo_lock" in backend.list_tables():
                backend.break_lock()  # left by a process killed mid-upgrade: see above
            with backend.lock():
                pending = backend.to_apply(migrations)
                backend.apply_migrations(pending)
            return [migration.id for migration in pending]
        except Exception:
            if not isinstance(target, Path):
                _cannot_create(target)  # says so if that is why (yoyo's words do not)
            raise
        finally:
            connection = getattr(backend, "_connection", None)
            if connection is not None:
                connection.close()


def _cannot_create(url: str) -> None:
    """Raise `UpgradeError` saying what the role lacks and how to give it, if the role of
    `url` may not create tables in its schema. Since PostgreSQL 15 a role granted ALL on a
    database it does not own may not create in its schema public; yoyo then failed with
    `relation "yoyo_lock" does not exist`, said as a URL that was not right."""
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=CONNECT_WAIT, autocommit=True) as db:
            row = db.execute(
                "SELECT current_user, current_database(), coalesce(current_schema(), 'public'),"
                " has_schema_privilege(coalesce(current_schema(), 'public'), 'CREATE')"
            ).fetchone()
    except psycopg.Error:
        return  # not this, then: the first error says what it was
    if row is None or row[3]:
        return
    role, database, schema = (_sql_name(str(name)) for name in row[:3])
    raise UpgradeError(
        f"The role {role} cannot create tables in schema {schema} of the database"
        f" {database}: make it the database's owner (ALTER DATABASE {database} OWNER TO"
        f" {role}) or grant it (GRANT CREATE ON SCHEMA {schema} TO {role}), then try again."
    )


def _sql_name(name: str) -> str:
    """`name` as SQL writes it: bare when it may be, else in double quotes.

    >>> _sql_name("hearts"), _sql_name("Hearts-1")
    ('hearts', '"Hearts-1"')
    """
    if re.fullmatch(r"[a-z_][a-z0-9_$]*", name):
        return name
    return '"' + name.replace('"', '""') + '"'


class Steps(NamedTuple):
    """A database's schema against this version's: the steps it lacks, in order, and those
    it has that this version does not know (applied by a newer release)."""

    missing: list[str]
    unknown: list[str]


def steps(target: str | Path) -> Steps:
    """What `target` lacks and has beyond this version, found by reading alone: nothing is
    created or written (a SQLite file not there yet lacks every step). `UpgradeError` says
    in one sentence why the database cannot be read."""
    from yoyo import read_migrations

    done = _sqlite_steps(target)[0] if isinstance(target, Path) else _pg_steps(target)
    known = read_migrations(str(SCHEMA))
    hashes = {m.hash for m in known}
    return Steps(
        [m.id for m in known if m.hash not in done],
        sorted(step for hash_, step in done.items() if hash_ not in hashes),
    )


def named(target: str | Path) -> str:
    """The database, as a sentence names it (never with its password)."""
    if isinstance(target, Path):
        return f"The SQLite database {target}"
    from .store_pg import where

    return f"The PostgreSQL database {where(target)}"


def counted_steps(ids: list[str]) -> str:
    return "1 step" if len(ids) == 1 else f"{len(ids)} steps"


def newer_said(target: str | Path, unknown: list[str]) -> str:
    """What is said of a database with steps this version does not know (`Steps.unknown`),
    by `hearts migrate` and at the start of `hearts serve` alike."""
    return (
        f"{named(target)} has {counted_steps(unknown)} this version does not know"
        f" ({', '.join(unknown)}): a newer release brought it up to date."
    )


#: A database's applied steps, as yoyo records them: hash to id.
Applied = dict[str, str]
APPLIED = "SELECT migration_hash, migration_id FROM _yoyo_migration"


def _sqlite_steps(path: Path) -> tuple[Applied, bool]:
    """The steps the SQLite file at `path` has, and whether an upgrade is under way in it (a
    row in yoyo's lock table), found by reading alone: a file not there yet has no steps and
    is not made. Waits up to 10 s for a writer, as the store does. `UpgradeError` says in one
    sentence why the file cannot be read."""
    try:
        if not path.exists():
            return {}, False
        uri = f"{path.resolve().as_uri()}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True, timeout=10)) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            if "_yoyo_migration" not in tables:
                return {}, False
            upgrading = "yoyo_lock" in tables and bool(
                db.execute("SELECT 1 FROM yoyo_lock").fetchone()
            )
            return dict(db.execute(APPLIED).fetchall()), upgrading
    except OSError as error:
        raise UpgradeError(f"{path} cannot be read: {error.strerror or error}.") from None
    except sqlite3.Error as error:
        raise UpgradeError(f"{path} cannot be read: {' '.join(str(error).split())}.") from None


def _pg_steps(url: str) -> Applied:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=CONNECT_WAIT, autocommit=True) as db:
            db.read_only = True
            found = db.execute("SELECT to_regclass('_yoyo_migration') IS NOT NULL").fetchone()
            if not found or not found[0]:
                return {}
            return {row[0]: row[1] for row in db.execute(APPLIED).fetchall()}
    except psycopg.OperationalError as error:
        from .stores import refused

        words = refused(error)
        if words is not None:  # it answered: a password, a name, a limit to mend
            said = without_password(words, url)
            raise UpgradeError(f"PostgreSQL refused the connection: {said}.") from None
        # libpq's own words: the first line ("connection failed: ... Connection refused").
        lines = str(error).strip().splitlines() or ["no answer"]
        first = without_password(lines[0].rstrip("."), url)
        raise UpgradeError(f"PostgreSQL cannot be reached: {first}.") from None
    except (psycopg.Error, ValueError) as error:
        # libpq quotes a URL it cannot read, password and all: never said.
        text = without_password(" ".join(str(error).split()).rstrip("."), url)
        raise UpgradeError(f"PostgreSQL cannot be read: {text}.") from None


def applied(target: str | Path) -> list[str]:
    """The ids of the steps `target` has, in order."""
    from yoyo import get_backend, read_migrations

    backend = get_backend(yoyo_uri(target))
    try:
        migrations = read_migrations(str(SCHEMA))
        return [
            m.id for m in migrations if m.id not in {p.id for p in backend.to_apply(migrations)}
        ]
    finally:
        connection = getattr(backend, "_connection", None)
        if connection is not None:
            connection.close()
