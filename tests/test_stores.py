"""Both game stores, SQLite and PostgreSQL, through the one interface: the same tests for each,
races decided by the database, and schema migrations that upgrade in place."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hearts.web.migrations import SCHEMA, applied, upgrade
from hearts.web.settings import Settings
from hearts.web.store import Person, Start, Starts, Store, StoreError
from hearts.web.stores import GameStore, open_store
from pg_support import SUPERUSER, Cluster

STEPS = sorted(path.stem for path in SCHEMA.glob("*.sql"))


def in_order(ids: list[str]) -> list[str]:
    """`ids` sorted, once checked to list every step after the step it depends on (steps
    that depend on the same one may come in either order, so no single order is assumed)."""
    for index, step in enumerate(ids):
        text = (SCHEMA / f"{step}.sql").read_text()
        needs = [line.split(":", 1)[1].strip() for line in text.splitlines() if "depends:" in line]
        assert all(need in ids[:index] for need in needs), (step, needs)
    return sorted(ids)


@pytest.fixture
def store(database: str, tmp_path: Path) -> Iterator[GameStore]:
    opened = open_store(Settings.from_env(data_dir=tmp_path / "data"))
    assert type(opened).__name__ == ("Store" if database == "sqlite" else "PgStore")
    yield opened
    opened.close()


def action(n: int) -> dict[str, Any]:
    return {"type": "play", "seat": n % 4, "card": f"{n % 9 + 2}C"}


def make(store: GameStore, game_id: str, owner: str = "o", moves: int = 3) -> None:
    actions = [action(i) for i in range(moves)]
    store.create(game_id, owner, {"players": 4}, 2**61 + 5, {"seats": [None]}, actions, "active")


def test_a_game_is_stored_and_loaded_whole(store: GameStore) -> None:
    make(store, "g1", moves=3)
    stored = store.load("g1")
    assert stored is not None
    assert (stored.owner, stored.seed, stored.rules, stored.settings, stored.status) == (
        "o", 2**61 + 5, {"players": 4}, {"seats": [None]}, "active",
    )  # fmt: skip
    assert stored.actions == [action(i) for i in range(3)]
    assert store.moves("g1") == 3
    assert store.load("nope") is None and store.moves("nope") is None


def test_a_secret_is_kept_as_text_and_an_old_seed_as_an_integer(store: GameStore) -> None:
    secret = "9f" * 32
    store.create("keyed", "o", {"players": 4}, secret, {"seats": [None]}, [], "active")
    store.create("old", "o", {"players": 4}, 12, {"seats": [None]}, [], "active")
    keyed, old = store.load("keyed"), store.load("old")
    assert keyed is not None and keyed.seed == secret
    assert old is not None and old.seed == 12 and isinstance(old.seed, int)


def test_append_numbers_moves_and_refuses_a_taken_number(store: GameStore) -> None:
    make(store, "g1", moves=2)
    assert store.append("g1", 2, [action(2), action(3)], "active")
    # A second request that started at move 2 lost the race: nothing of it is written.
    assert not store.append("g1", 2, [action(9)], "over")
    assert not store.append("g1", 3, [action(9), action(10)], "over")
    stored = store.load("g1")
    assert stored is not None and stored.status == "active"
    assert stored.actions == [action(i) for i in range(4)]
    assert store.moves("g1") == 4


def test_append_to_a_game_removed_meanwhile_is_refused(store: GameStore) -> None:
    """A game trimmed or expired while a request played on: that request lost, as to a
    taken move number (its caller then finds no such game), in either store."""
    make(store, "g1", moves=1)
    assert store.expire(time.time() + 1) == ["g1"]
    assert not store.append("g1", 1, [action(1)], "active")
    assert store.load("g1") is None and store.moves("g1") is None


def test_racing_threads_store_each_move_number_once(store: GameStore) -> None:
    make(store, "g1", moves=1)
    results: list[bool] = []
    start = threading.Barrier(6)

    def race(n: int) -> None:
        start.wait()
        results.append(store.append("g1", 1, [action(100 + n), action(200 + n)], "active"))

    threads = [threading.Thread(target=race, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False] * 5 + [True]
    stored = store.load("g1")
    assert stored is not None and len(stored.actions) == 3
    # Both moves are from the one request that won, none from a loser.
    winners = [n for n in range(6) if stored.actions[1:] == [action(100 + n), action(200 + n)]]
    assert len(winners) == 1
    assert store.moves("g1") == 3


def test_unfinished_games_newest_first_trimmed_and_expired(store: GameStore) -> None:
    made = time.time()
    for n in range(4):
        make(store, f"g{n}", owner="a")
    make(store, "other", owner="b")
    store.append("g1", 3, [action(3)], "active")  # g1 played last
    store.append("g2", 3, [action(3)], "over")  # g2 is over
    listed = store.unfinished("a", 10)
    assert listed[0].id == "g1" and {game.id for game in listed} == {"g0", "g1", "g3"}
    # Each comes with when it was last played: g1 at its move, the others when made.
    assert made <= min(game.played for game in listed) <= listed[0].played <= time.time()
    assert store.latest_unfinished("a") == "g1"
    assert store.latest_unfinished("nobody") is None
    removed = store.trim_unfinished("a", keep=1)
    assert set(removed) == {"g0", "g3"} and [g.id for g in store.unfinished("a", 10)] == ["g1"]
    assert store.load("g0") is None and store.load("g2") is not None
    assert sorted(store.expire(before=made + 3600)) == ["g1", "other"]
    assert store.unfinished("a", 10) == [] and store.unfinished("b", 10) == []
    assert store.load("g2") is not None  # a finished game is never expired


def test_a_table_with_anyone_else_seated_is_never_trimmed(store: GameStore) -> None:
    # A host starting games of their own deleted, as the oldest past five, the table of
    # friends they had made: the friend's game was gone (404) and their stream said "gone".
    # An invitation not yet taken up (an open seat) is kept too.
    host = [Person(0, "a", "Host")]
    rules: dict[str, Any] = {"players": 4}
    settings: dict[str, Any] = {"seats": []}
    friend, invited = Person(1, "b", "Friend"), Person(1, None, "Open")
    store.create("friends", "a", rules, 5, settings, [], "active", [*host, friend])
    store.create("lobby", "a", rules, 5, settings, [], "active", [*host, invited], started=False)
    store.create("alone", "a", rules, 5, settings, [], "active", host)
    for n in range(3):
        make(store, f"g{n}", owner="a")
    # What a new game would close, said before it is started (the start screen warns).
    closing = store.closed_by_next("a", keep=2)
    assert store.closed_by_next("a", keep=6) == [] and store.closed_by_next("b", keep=1) == []
    removed = store.trim_unfinished("a", keep=1)
    assert removed == closing
    # The newest game of the browser's own stays; the older ones of its own go, a table it
    # sits at alone among them; the tables with a seat for someone else stay whole.
    assert sorted(removed) == ["alone", "g0", "g1"], removed
    assert store.load("friends") is not None and store.load("lobby") is not None
    seating = store.seating("friends")
    assert seating is not None and [p.owner for p in seating.people.values()] == ["a", "b"]
    assert {game.id for game in store.unfinished("b", 10)} == {"friends"}


def counted(store: GameStore, owner: str, address: str | None) -> tuple[Starts, Starts | None]:
    """The starts the store holds for `owner` and `address`, however old: seen by a check
    that refuses, so nothing is added."""
    seen = []

    def look(mine: Starts, here: Starts | None) -> None:
        seen.append((mine, here))
        raise LookupError

    with pytest.raises(LookupError):
        store.add_start(Start("look", owner, address, 0.0), -1.0, look)
    return seen[0]


def test_starts_are_counted_in_their_hour_and_then_forgotten(store: GameStore) -> None:
    seen: list[tuple[Starts, Starts | None]] = []

    def note(mine: Starts, here: Starts | None) -> None:
        seen.append((mine, here))

    store.add_start(Start("s1", "a", "x", 1000.0), 0.0, note)
    store.add_start(Start("s2", "a", "y", 2000.0), 0.0, note)
    store.add_start(Start("s3", "b", "x", 3000.0), 0.0, note)
    store.add_start(Start("s4", "b", None, 3100.0), 0.0, note)  # no address: none counted
    none = Starts(0, None)
    assert seen == [
        (none, none),
        (Starts(1, 1000.0), none),
        (none, Starts(1, 1000.0)),
        (Starts(1, 3000.0), None),
    ]
    assert counted(store, "a", "x") == (Starts(2, 1000.0), Starts(2, 1000.0))
    # The start `counted` looked with was refused by its check, so it was not added.
    assert counted(store, "a", "x") == (Starts(2, 1000.0), Starts(2, 1000.0))
    # Each start removes those from before its hour, for good.
    store.add_start(Start("s5", "c", None, 4000.0), 1500.0, note)
    assert counted(store, "a", "x") == (Starts(1, 2000.0), Starts(1, 3000.0))
    store.drop_start("s3")  # its game was not made after all
    assert counted(store, "b", "x") == (Starts(1, 3100.0), none)
    store.forget_starts(3100.0)  # the hourly expiry
    assert counted(store, "a", "y") == (none, none)
    assert counted(store, "c", None) == (Starts(1, 4000.0), None)


def test_every_schema_step_is_applied_once(database: str, tmp_path: Path) -> None:
    import os

    target: str | Path = (
        os.environ["HEARTS_DATABASE_URL"] if database == "postgresql" else tmp_path / "s.db"
    )
    assert in_order(upgrade(target)) == STEPS
    assert upgrade(target) == []
    assert in_order(applied(target)) == STEPS


def test_a_database_from_before_migrations_upgrades_and_keeps_its_games(tmp_path: Path) -> None:
    # The schema and a game exactly as the store wrote them before migrations existed.
    data = tmp_path / "data"
    data.mkdir()
    with sqlite3.connect(data / "hearts.sqlite3") as db:
        db.executescript((SCHEMA / "0001_games.sql").read_text())
        db.execute(
            "INSERT INTO games VALUES ('old', 'o', '{\"players\": 4}', 7, '{}', 'active', 1, 1, 1)"
        )
        db.execute("INSERT INTO actions VALUES ('old', 0, '{\"type\": \"next\"}')")
    store = Store(data)
    stored = store.load("old")
    assert stored is not None and stored.actions == [{"type": "next"}]
    assert stored.seed == 7  # an integer seed: dealt as it always was, not from keys
    assert in_order(applied(data / "hearts.sqlite3")) == STEPS
    with sqlite3.connect(data / "hearts.sqlite3") as db:
        indexes = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert "games_by_age" in indexes


def test_an_unreachable_postgresql_is_one_sentence(tmp_path: Path) -> None:
    from pg_support import free_port

    url = f"postgresql://hearts@127.0.0.1:{free_port()}/hearts"
    with pytest.raises(StoreError) as caught:
        open_store(Settings(data_dir=tmp_path, database_url=url))
    message = str(caught.value)
    assert message.startswith("Cannot reach PostgreSQL (hearts at 127.0.0.1:")
    assert "\n" not in message and message.endswith(".")


def test_the_cluster_fixture_gives_fresh_databases(pg_cluster: Cluster) -> None:
    first, second = pg_cluster.new_database(), pg_cluster.new_database()
    assert first != second
    assert in_order(upgrade(first)) == STEPS and in_order(upgrade(second)) == STEPS


def test_the_database_setting_is_checked(tmp_path: Path) -> None:
    settings = Settings.from_env({"HEARTS_DATABASE_URL": "mysql://somewhere/hearts"})
    assert settings.problems() == ["HEARTS_DATABASE_URL must be a postgresql:// URL."]
    pool = Settings.from_env({"HEARTS_DATABASE_POOL": "0"})
    assert pool.problems() == ["HEARTS_DATABASE_POOL must be at least 1."]
    assert Settings.from_env({}, database_url="postgresql://h/db").problems() == []
    # A typo in the URL is a setting to mend, said before any connection is tried (it was
    # "Cannot reach PostgreSQL", exit 1, and a service manager tried again for ever).
    typos = {
        "postgresql://a@127.0.0.1:99999/h": "names port '99999': a port is a number from 1",
        "postgresql://a@127.0.0.1:abc/h": "names port 'abc'",
        "postgresql://a@h:5432,g:x/db": "names port 'x'",
        "postgresql://a@h/db?foo=bar": 'can be read: invalid URI query parameter: "foo".',
    }
    for url, said in typos.items():
        problems = Settings.from_env({"HEARTS_DATABASE_URL": url}).problems()
        assert len(problems) == 1 and said in problems[0], (url, problems)
        assert problems[0].startswith("HEARTS_DATABASE_URL ")
    for url in ["postgresql://a@h1:5432,h2:5433/db", "postgres://a@[::1]:5432/db?sslmode=require"]:
        assert Settings.from_env({}, database_url=url).problems() == [], url


def test_serve_with_an_unreachable_database_stops_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    from pg_support import free_port

    hearts = Path(sys.executable).with_name("hearts")
    url = f"postgresql://hearts@127.0.0.1:{free_port()}/hearts"
    command = [str(hearts), "serve", "--port", str(free_port()), "--database", url]
    command += ["--data-dir", str(tmp_path / "data")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hearts serve: Cannot reach PostgreSQL"), (
        done.stderr
    )


def test_a_lock_left_by_a_process_killed_mid_upgrade_does_not_stop_the_next_start(
    database: str, tmp_path: Path
) -> None:
    # yoyo's lock is a row in a table: a process killed while it held it left the row, and
    # every later start waited 10 s and stopped with a traceback ("Process 30777 has locked
    # this database"). Whoever holds the upgrade lock now knows the row is stale.
    import os

    from yoyo import get_backend

    from hearts.web.migrations import yoyo_uri

    target: str | Path = (
        os.environ["HEARTS_DATABASE_URL"] if database == "postgresql" else tmp_path / "s.db"
    )
    upgrade(target)
    backend: Any = get_backend(yoyo_uri(target))
    with backend.transaction():
        backend.execute(
            "INSERT INTO yoyo_lock (locked, ctime, pid) VALUES (1, :when, 30777)",
            {"when": "2026-12-01 00:00:00"},
        )
    backend.connection.close()
    assert upgrade(target) == []  # at once, not after the lock's wait
    assert in_order(applied(target)) == STEPS


def test_a_store_opens_while_another_process_holds_the_write_lock(tmp_path: Path) -> None:
    # yoyo wrote on every open (its lock row, a trial table): beside a server that wrote
    # without pause, a second process's start waited for the write lock and now and then
    # gave up with "database is locked". An up-to-date file is now opened by reading alone.
    Store(tmp_path).ping()  # its first connection puts the file in WAL mode, as a server's does
    writer = sqlite3.connect(tmp_path / "hearts.sqlite3", timeout=0, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM games")
    try:
        opened = Store(tmp_path)
        assert opened.load("none") is None
        opened.close()
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_a_start_waits_for_another_upgrade_and_then_says_why_it_gave_up(
    pg_cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    from hearts.web import migrations

    url = pg_cluster.new_database()
    monkeypatch.setattr(migrations, "LOCK_WAIT", 1.0)
    with psycopg.connect(url, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", (migrations.ADVISORY_KEY,))
        with pytest.raises(StoreError) as caught:
            open_store(Settings(data_dir=tmp_path, database_url=url))
    assert str(caught.value) == (
        "Another process has been bringing the database up to date for 1 s; start this one"
        " again once it is done (or stop it if it is stuck)."
    )
    # The other session gone, its lock went with it.
    open_store(Settings(data_dir=tmp_path, database_url=url)).close()


def test_a_wrong_database_url_is_one_sentence(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = pg_cluster.new_database() + "?foo=bar"
    with pytest.raises(StoreError) as caught:
        open_store(Settings(data_dir=tmp_path, database_url=url))
    assert str(caught.value) == 'The database URL is not right: invalid URI query parameter: "foo".'


def test_a_role_that_cannot_create_tables_is_told_what_it_needs(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    # PostgreSQL 15: ALL on a database it does not own is no CREATE in its schema public.
    # That was "The database URL is not right: relation "yoyo_lock" does not exist".
    import psycopg

    url = pg_cluster.new_database()
    name = url.rsplit("/", 1)[1]
    role = "r_" + name
    with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"GRANT ALL ON DATABASE {name} TO {role}")
    limited = url.replace("://" + url.split("://")[1].split("@")[0] + "@", f"://{role}@")
    with pytest.raises(StoreError) as caught:
        open_store(Settings(data_dir=tmp_path, database_url=limited))
    assert str(caught.value) == (
        f"The role {role} cannot create tables in schema public of the database {name}:"
        f" make it the database's owner (ALTER DATABASE {name} OWNER TO {role}) or grant"
        f" it (GRANT CREATE ON SCHEMA public TO {role}), then try again."
    )
    with psycopg.connect(url, autocommit=True) as owner:
        owner.execute(f"GRANT CREATE ON SCHEMA public TO {role}")
    open_store(Settings(data_dir=tmp_path, database_url=limited)).close()


def test_a_server_that_never_answers_is_given_up_on(tmp_path: Path) -> None:
    # A port that takes the connection and says nothing: the start hung, silent, for ever.
    import socket

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        url = f"postgresql://hearts@127.0.0.1:{silent.getsockname()[1]}/hearts"
        started = time.monotonic()
        with pytest.raises(StoreError) as caught:
            open_store(Settings(data_dir=tmp_path, database_url=url))
    # Given up after the connection's wait (3 s), not psycopg's own (130 s): a hang check
    # with a busy machine's slack, not a measure of speed.
    assert time.monotonic() - started < 30
    message = str(caught.value)
    assert message.startswith("Cannot reach PostgreSQL (hearts at 127.0.0.1:"), message
    assert "timeout" in message and "\n" not in message and message.endswith("."), message


def test_a_database_reached_by_its_unix_socket(pg_cluster: Cluster, tmp_path: Path) -> None:
    # Both ways libpq names a socket's folder in a URL: the percent-encoded host failed in
    # the schema's upgrade (yoyo read "%2F" as the host's name).
    from urllib.parse import quote

    name = pg_cluster.new_database().rsplit("/", 1)[1]
    folder = str(pg_cluster.directory)
    for url in (
        f"postgresql://{SUPERUSER}@{quote(folder, safe='')}:{pg_cluster.port}/{name}",
        f"postgresql://{SUPERUSER}@/{name}?host={folder}&port={pg_cluster.port}",
    ):
        opened = open_store(Settings(data_dir=tmp_path / "data", database_url=url))
        try:
            make(opened, f"socket-{len(url)}")
            assert opened.load(f"socket-{len(url)}") is not None
        finally:
            opened.close()


def test_a_start_with_another_cookie_secret_is_refused(database: str, tmp_path: Path) -> None:
    # A process given another data directory on the same PostgreSQL (or a SQLite directory
    # whose secret was deleted, and quietly made anew) signed its own cookies: every player's
    # games became nobody's, and behind a balancer each request landed on one or the other.
    from fastapi.testclient import TestClient

    from hearts.web.app import create_app

    first = tmp_path / "first"
    with TestClient(create_app(first, bot_workers=0)) as player:
        game = player.post("/api/games", json={}).json()["id"]
        cookies = dict(player.cookies)
    secret = (first / "cookie-secret").read_bytes()
    if database == "postgresql":
        other = tmp_path / "second"  # another machine's data directory, the same database
    else:
        other = first
        (first / "cookie-secret").unlink()  # lost: the next start makes another
    with pytest.raises(StoreError) as caught:
        create_app(other, bot_workers=0)
    assert str(caught.value).startswith(
        f"{other / 'cookie-secret'} is not the cookie secret this database's games were made"
        " with: every process must share one, or players lose their games."
    )
    # With the first process's secret it starts, and the player's game is still theirs.
    (other / "cookie-secret").write_bytes(secret)
    with TestClient(create_app(other, bot_workers=0), cookies=cookies) as player:
        assert player.get(f"/api/games/{game}").status_code == 200


def test_the_health_check_fails_on_a_store_that_can_be_read_but_not_written(
    database: str, tmp_path: Path
) -> None:
    # An operator made the store read-only: every move failed with 500 while the health
    # check, one read, said ok.
    import os

    if database == "postgresql":
        from hearts.web.store_pg import PgStore

        pg = PgStore(os.environ["HEARTS_DATABASE_URL"], tmp_path, pool_size=1)
        pg.ping()
        with pg.pool.connection() as db:  # the pool's one connection
            db.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        store: GameStore = pg
    else:
        store = Store(tmp_path)
        store.ping()
        store = Store(tmp_path)  # a connection that opens the file read-only, as a server's
        store._local.db = sqlite3.connect(  # would on a file it may no longer write
            f"file:{tmp_path / 'hearts.sqlite3'}?mode=ro", uri=True, isolation_level=None
        )
    with pytest.raises(Exception, match=r"read-only|readonly"):
        store.ping()
    store.close()


@pytest.mark.parametrize("read", ["fetchall", "fetchmany", "iteration"])
def test_a_sqlite_file_that_fails_while_rows_are_read_is_the_database_away(
    read: str, tmp_path: Path
) -> None:
    # SQLite reads a statement's first row when it runs and the others as they are fetched:
    # a disk failing in between raised "disk I/O error" while the metrics said the database
    # answered (only a statement that could not run was counted as the database away).
    import os

    store = Store(tmp_path)
    make(store, "long", moves=3000)  # rows on many pages: most are read after the first
    # Every page in the file itself, none in the WAL, and a connection that has read none.
    store._connection().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store._connection().close()
    store._local = threading.local()
    rows = store._connection().execute(
        "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", ("long",)
    )
    assert not store.outage.away
    # The file's descriptor made a folder's, which cannot be read: the disk failing, for SQLite.
    (held,) = [
        int(fd)
        for fd in os.listdir("/proc/self/fd")
        if os.path.realpath(f"/proc/self/fd/{fd}") == str(store.path.resolve())
    ]
    kept, folder = os.dup(held), os.open(tmp_path, os.O_RDONLY)
    try:
        os.dup2(folder, held)
        with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
            if read == "fetchall":
                rows.fetchall()
            elif read == "fetchmany":
                while rows.fetchmany(100):
                    pass
            else:
                list(rows)
        assert (store.outage.away, store.outage.outages) == (True, 1)
    finally:
        os.dup2(kept, held)
        os.close(kept)
        os.close(folder)
    assert store.moves("long") == 3000  # the disk back: it answers, and is no longer away
    assert not store.outage.away and store.outage.outages == 1
    store.close()
