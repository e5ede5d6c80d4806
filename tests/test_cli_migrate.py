"""`hearts migrate`: the schema brought up to date without serving, or what it lacks said
(`--check`), on SQLite and PostgreSQL alike (the `database` fixture: a fresh one each)."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from yoyo import read_migrations

from hearts.cli import main
from hearts.web.migrations import SCHEMA, applied
from pg_support import Cluster, free_port

from helpers import run_serve

STEPS = [m.id for m in read_migrations(str(SCHEMA))]


def migrate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["migrate", *args])
    said = capsys.readouterr()
    return code, said.out.strip(), said.err.strip()


def target(data_dir: Path) -> str | Path:
    return os.environ.get("HEARTS_DATABASE_URL") or data_dir / "hearts.sqlite3"


def test_check_lists_the_missing_steps_and_migrate_applies_them_once(
    database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "data"
    where = ["--data-dir", str(data_dir)]
    # A new database lacks every step; --check says which, and creates nothing. A SQLite
    # file not made yet is not there to lack them (a mistyped --data-dir): said so.
    code, out, err = migrate(capsys, *where, "--check")
    if database == "sqlite":
        assert (code, out) == (1, "")
        assert err == (
            f"hearts migrate: There is no database in {data_dir} yet (hearts.sqlite3 is made"
            " by the first hearts serve or hearts migrate there)."
        )
        assert not data_dir.exists()
    else:
        assert code == 1 and not err
        assert out.endswith(f"lacks {len(STEPS)} steps: {', '.join(STEPS)}."), out
        assert migrate(capsys, *where, "--check")[1] == out  # nothing was written either
    # Applied, in order, and recorded.
    code, out, err = migrate(capsys, *where)
    assert code == 0 and not err
    assert out.endswith(f"applied {len(STEPS)} steps: {', '.join(STEPS)}."), out
    assert applied(target(data_dir)) == STEPS
    # Then there is nothing to do, and --check says so with status 0.
    code, out, _ = migrate(capsys, *where)
    assert code == 0 and out.endswith("is up to date; nothing to apply."), out
    code, out, _ = migrate(capsys, *where, "--check")
    assert code == 0 and out.endswith("is up to date."), out


def test_a_database_that_cannot_be_used_is_one_sentence_and_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HEARTS_DATABASE_URL", raising=False)
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "hearts.sqlite3").write_bytes(b"not a database at all, but long enough" * 4)
    for check in ([], ["--check"]):
        code, out, err = migrate(capsys, "--data-dir", str(data_dir), *check)
        assert code == 1 and not out
        assert err.startswith("hearts migrate: ") and len(err.splitlines()) == 1, err
        assert "hearts.sqlite3" in err
    # Nobody answering at a PostgreSQL address: said, not a traceback.
    url = "postgresql://nobody@127.0.0.1:1/games"
    code, out, err = migrate(capsys, "--database", url, "--check")
    assert code == 1 and not out, err
    assert err.startswith("hearts migrate: PostgreSQL cannot be reached: connection failed")
    assert len(err.splitlines()) == 1 and "?." not in err, err
    # A setting that cannot be right: status 2, as serve's.
    code, _, err = migrate(capsys, "--database", "postgresql://me@host:99999/games")
    assert code == 2 and "port" in err


def test_another_programs_tables_and_a_newer_releases_steps_are_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HEARTS_DATABASE_URL", raising=False)
    # A SQLite file with a games table of its own: yoyo's step failed with a traceback.
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    with closing(sqlite3.connect(foreign / "hearts.sqlite3")) as db:
        db.execute("CREATE TABLE games (x INTEGER)")
        db.commit()
    code, out, err = migrate(capsys, "--data-dir", str(foreign))
    assert code == 1 and not out and len(err.splitlines()) == 1, err
    assert "could not be brought up to date (no such column: owner)" in err
    # A database a newer release brought up to date: not said to be up to date.
    newer = tmp_path / "newer"
    assert migrate(capsys, "--data-dir", str(newer))[0] == 0
    with closing(sqlite3.connect(newer / "hearts.sqlite3")) as db:
        db.execute(
            "INSERT INTO _yoyo_migration (migration_hash, migration_id, applied_at_utc)"
            " VALUES ('f0', '0099_future', '2027-01-01 00:00:00')"
        )
        db.commit()
    code, out, err = migrate(capsys, "--data-dir", str(newer), "--check")
    assert code == 1 and not out
    assert err.endswith(
        "has 1 step this version does not know (0099_future): a newer release "
        "brought it up to date."
    ), err


def test_a_data_directory_that_is_a_file_is_said_as_serve_says_it_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Status 1 (as a database away is) and the path alone, where serve names the setting
    # and says 2: a setting to mend.
    monkeypatch.delenv("HEARTS_DATABASE_URL", raising=False)
    file = tmp_path / "file"
    file.write_text("not a folder")
    served = run_serve("--data-dir", str(file))
    assert (served.returncode, served.stderr) == (
        2,
        f"hearts serve: --data-dir {file} is a file, not a folder.\n",
    )
    for check in ([], ["--check"]):
        code, out, err = migrate(capsys, "--data-dir", str(file), *check)
        said = served.stderr.strip().removeprefix("hearts serve: ")
        assert (code, out, err) == (2, "", f"hearts migrate: {said}")
    monkeypatch.setenv("HEARTS_DATA_DIR", str(file))
    code, _, err = migrate(capsys)
    assert (code, err) == (2, f"hearts migrate: HEARTS_DATA_DIR {file} is a file, not a folder.")
    # One under a file cannot be made: said as serve says it, status 2 too. With --check it
    # was "The SQLite database .../data/hearts.sqlite3 lacks 10 steps", status 1, as if it
    # could be made; without, "Cannot use the data directory ...: Not a directory."
    for under in (file / "data", file / "data" / "deeper"):
        said = f"--data-dir {under} cannot be made: {file} is a file, not a folder."
        for check in ([], ["--check"]):
            code, out, err = migrate(capsys, "--data-dir", str(under), *check)
            assert (code, out, err) == (2, "", f"hearts migrate: {said}")
    served = run_serve("--data-dir", str(file / "data"), "--port", str(free_port()))
    said = f"--data-dir {file / 'data'} cannot be made: {file} is a file, not a folder."
    assert (served.returncode, served.stderr.strip()) == (2, f"hearts serve: {said}")


def test_a_start_on_a_database_with_a_newer_releases_steps_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An older release started on a database a newer one had brought up to date without a
    # word; `hearts migrate --check` said so, and now the start does too, in its words.
    import logging

    from fastapi.testclient import TestClient

    from hearts.web.app import create_app
    from hearts.web.settings import Settings

    monkeypatch.delenv("HEARTS_DATABASE_URL", raising=False)
    data_dir = tmp_path / "data"
    assert migrate(capsys, "--data-dir", str(data_dir))[0] == 0
    said: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: said.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("hearts.web")
    logger.addHandler(handler)
    try:
        with TestClient(create_app(settings=Settings(data_dir=data_dir), bot_workers=0)):
            pass
        assert not [line for line in said if "does not know" in line], said
        with closing(sqlite3.connect(data_dir / "hearts.sqlite3")) as db:
            db.execute(
                "INSERT INTO _yoyo_migration (migration_hash, migration_id, applied_at_utc)"
                " VALUES ('f0', '0099_future', '2027-01-01 00:00:00')"
            )
            db.commit()
        with TestClient(create_app(settings=Settings(data_dir=data_dir), bot_workers=0)):
            pass
    finally:
        logger.removeHandler(handler)
    newer = [line for line in said if "does not know" in line]
    assert newer == [
        f"The SQLite database {data_dir / 'hearts.sqlite3'} has 1 step this version does not"
        " know (0099_future): a newer release brought it up to date. This version serves it"
        " all the same (steps only add)."
    ]
    code, _, err = migrate(capsys, "--data-dir", str(data_dir), "--check")
    assert code == 1 and newer[0].startswith(err), err


def test_a_start_on_postgresql_says_the_sqlite_games_beside_it_are_not_served(
    pg_cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A site moved to PostgreSQL with its SQLite games still in the data directory: every
    # player's games were gone from "Your games" without a word in the log.
    import logging

    from fastapi.testclient import TestClient

    from hearts.web.app import create_app
    from hearts.web.settings import Settings

    monkeypatch.delenv("HEARTS_DATABASE_URL", raising=False)
    data_dir = tmp_path / "data"
    with TestClient(create_app(settings=Settings(data_dir=data_dir), bot_workers=0)) as app:
        for _ in range(2):
            app.cookies.clear()
            assert app.post("/api/games", json={}).status_code == 201
    said: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: said.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("hearts.web")
    logger.addHandler(handler)
    url = pg_cluster.new_database()
    try:
        settings = Settings(data_dir=data_dir, database_url=url)
        with TestClient(create_app(settings=settings, bot_workers=0)):
            pass
    finally:
        logger.removeHandler(handler)
    name = url.rsplit("/", 1)[1]
    assert [line for line in said if "SQLite" in line] == [
        f"{data_dir / 'hearts.sqlite3'} holds 2 games that this process does not serve: it"
        f" keeps games in PostgreSQL ({name} at 127.0.0.1:{pg_cluster.port}). There is no tool"
        " to move them; to play them, serve that data directory without a database URL"
        " (docs/deploy.md, 'Games kept in SQLite')."
    ]
