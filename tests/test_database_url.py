"""The database URL as an operator gives it: its password is never said back (a message,
a log line, an error's text: under a service manager each lands in the journal), and a
URL that cannot be right is a setting to mend, refused before any connection."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from hearts.cli import main
from hearts.web.logs import OneLine
from hearts.web.settings import Settings, passwords, without_password
from hearts.web.store import StoreError
from hearts.web.stores import open_store
from pg_support import HOST, Cluster, free_port

SECRET = "s3cr3t-hearts-pw"
HEARTS = Path(sys.executable).with_name("hearts")

#: URLs libpq cannot read, each of whose errors quoted the password (or the URL whole).
UNREADABLE = [
    f"postgresql://hearts:{SECRET}@[::1:5499/hearts",  # the IPv6 address's "]" missing
    f"postgresql://hearts:{SECRET}%ZZ@127.0.0.1/hearts",  # a bad percent-escape
    f"postgresql://hearts@127.0.0.1/hearts?password={SECRET}%ZZ",
]


def serve(tmp_path: Path, url: str) -> subprocess.CompletedProcess[str]:
    command = [str(HEARTS), "serve", "--port", str(free_port()), "--database", url]
    command += ["--data-dir", str(tmp_path / "data")]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def migrate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["migrate", *args])
    said = capsys.readouterr()
    return code, said.out + said.err


@pytest.mark.parametrize("url", UNREADABLE)
def test_an_unreadable_url_is_refused_without_its_password(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    done = serve(tmp_path, url)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(
        "hearts serve: --database is not a database URL that can be read: "
    )
    assert SECRET not in done.stderr and "…" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    for check in ([], ["--check"]):
        code, said = migrate(capsys, "--database", url, *check)
        assert code == 2 and SECRET not in said and "…" in said, said
    monkeypatch.setenv("HEARTS_DATABASE_URL", url)
    code, said = migrate(capsys, "--check")
    assert code == 2 and said.startswith("hearts migrate: HEARTS_DATABASE_URL is not a")
    assert SECRET not in said, said
    # The store opened directly (no settings checked first) says it the same way.
    with pytest.raises(StoreError) as caught:
        open_store(Settings(data_dir=tmp_path / "data", database_url=url))
    assert SECRET not in str(caught.value) and "…" in str(caught.value), caught.value


def test_every_form_of_password_is_found_and_hidden() -> None:
    forms = {
        f"postgresql://me:{SECRET}@h/db": SECRET,
        "postgresql://me:s3cr3t-hearts-pw%21@h/db": "s3cr3t-hearts-pw!",
        f"postgresql://me@h/db?sslmode=require&password={SECRET}": SECRET,
        f"host=h password={SECRET} user=me": SECRET,
        f"host=h password = '{SECRET}' user=me": SECRET,
    }
    for url, secret in forms.items():
        assert secret in passwords(url), url
        said = f'bad: "{secret}" in "host=h"'  # libpq quoting the token it cannot read
        assert without_password(said, url) == 'bad: "…" in "host=h"', url
    assert passwords("postgresql://me@h/db") == passwords("host=h user=me") == []


def test_a_log_line_never_holds_the_password() -> None:
    url = f"postgresql://hearts:{SECRET}@db.internal/hearts"
    record = logging.LogRecord(
        "psycopg.pool", logging.WARNING, __file__, 1, "error connecting in %r: %s",
        ("pool-1", f'could not read "{url}"\nmore'), None,
    )  # fmt: skip
    line = OneLine("%(message)s", hidden=passwords(url)).format(record)
    assert SECRET not in line and "hearts:…@db.internal" in line, line


@pytest.mark.parametrize("secret", ["hearts", "secret"])
def test_a_password_that_is_also_a_word_is_hidden_only_where_it_is_a_password(
    secret: str,
) -> None:
    # Every "hearts" (or "secret") in a line was put as "…": the log's own `hearts[pid]`,
    # the database's name, any word a message held.
    url = f"postgresql://hearts:{secret}@db.internal/hearts"
    record = logging.LogRecord(
        "hearts.web", logging.WARNING, __file__, 1, "the secret store hearts says %s; %s",
        (f"could not read {url}?password={secret}", f'bad token: "{secret}"'), None,
    )  # fmt: skip
    line = OneLine("hearts[7] %(message)s", hidden=passwords(url)).format(record)
    assert line == (
        "hearts[7] the secret store hearts says could not read"
        ' postgresql://hearts:…@db.internal/hearts?password=…; bad token: "…"'
    )
    said = without_password(f"PostgreSQL refused hearts at db.internal: {url}.", url)
    assert (
        said
        == "PostgreSQL refused hearts at db.internal: postgresql://hearts:…@db.internal/hearts."
    )


@pytest.fixture
def password_role(pg_cluster: Cluster) -> Iterator[str]:
    """A role that must give its password (the test cluster trusts everyone else); the
    URL of the cluster's database for it, without a password."""
    role, rule = "pwtester", "host all pwtester 127.0.0.1/32 scram-sha-256\n"
    with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
            admin.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'the-right-one'")
        hba = pg_cluster.data / "pg_hba.conf"
        if rule not in hba.read_text():
            hba.write_text(rule + hba.read_text())  # before the rules that trust all
        admin.execute("SELECT pg_reload_conf()")
    yield f"{HOST}:{pg_cluster.port}/postgres"


def test_a_wrong_password_is_said_without_it(
    password_role: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"postgresql://pwtester:{SECRET}@{password_role}"
    done = serve(tmp_path, url)
    assert done.returncode == 1, done.stderr
    assert "password authentication failed" in done.stderr, done.stderr
    assert SECRET not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    for check in ([], ["--check"]):
        code, said = migrate(capsys, "--database", url, *check)
        assert code == 1 and "password authentication failed" in said, said
        assert SECRET not in said, said
    kv = f"host={HOST} port={password_role.split(':')[1].split('/')[0]} user=pwtester"
    with pytest.raises(StoreError) as caught:
        open_store(Settings(data_dir=tmp_path / "data", database_url=f"{kv} password={SECRET}"))
    assert "password authentication failed" in str(caught.value)
    assert SECRET not in str(caught.value)


#: Parameters libpq knows, with values it refuses only when it connects.
IMPOSSIBLE = {
    "connect_timeout=abc": "gives connect_timeout 'abc'; it must be a whole number, 0 or more.",
    "sslmode=bogus": "gives sslmode 'bogus'; it must be one of disable, allow, prefer,",
    "target_session_attrs=writable": "gives target_session_attrs 'writable'; it must be one of",
    "keepalives=2": "gives keepalives '2'; it must be one of 0, 1.",
    "keepalives_idle=-5": "gives keepalives_idle '-5'; it must be a whole number",
    "gssencmode=yes": "gives gssencmode 'yes'; it must be one of disable, prefer, require.",
}


@pytest.mark.parametrize("query", IMPOSSIBLE)
def test_a_url_setting_that_cannot_be_right_is_refused_before_any_connection(
    query: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Each was exit 1 ("Cannot reach PostgreSQL ... invalid sslmode value", "The database
    # URL is not right: bad value for connect_timeout"), which a service manager restarts
    # for ever, and `migrate --check` said a database was up to date with connect_timeout=abc.
    # Nobody listens at the port: a connection tried would be "Cannot reach", exit 1.
    url = f"postgresql://hearts@127.0.0.1:{free_port()}/hearts?{query}"
    problems = Settings.from_env({"HEARTS_DATABASE_URL": url}).problems()
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"HEARTS_DATABASE_URL {IMPOSSIBLE[query]}"), problems
    for check in ([], ["--check"]):
        code, said = migrate(capsys, "--database", url, *check)
        assert code == 2 and said.startswith(f"hearts migrate: --database {IMPOSSIBLE[query]}")
        assert len(said.splitlines()) == 1, said
    done = serve(tmp_path, url)
    assert done.returncode == 2 and done.stderr.startswith("hearts serve: --database gives "), (
        done.stderr
    )
    assert len(done.stderr.strip().splitlines()) == 1


def test_good_url_settings_pass_the_check() -> None:
    for query in (
        "sslmode=verify-full&target_session_attrs=read-write",
        "connect_timeout=10&keepalives=1&keepalives_idle=30&tcp_user_timeout=0",
        "application_name=x&options=-c%20search_path%3Dhearts",
    ):
        url = f"postgresql://hearts@db.internal/hearts?{query}"
        assert Settings.from_env({}, database_url=url).problems() == [], query


def test_the_pool_is_capped_in_one_sentence() -> None:
    # 100000 was taken: every process may then try to hold more connections than
    # PostgreSQL allows all of them together (max_connections, 100 by default).
    problems = Settings.from_env({"HEARTS_DATABASE_POOL": "100000"}).problems()
    assert problems == [
        "HEARTS_DATABASE_POOL must be at most 100: PostgreSQL allows 100 connections by"
        " default, for every process together (see max_connections in docs/deploy.md)."
    ]
    assert Settings.from_env({"HEARTS_DATABASE_POOL": "100"}).problems() == []


def test_a_database_that_refuses_is_said_apart_from_one_that_does_not_answer(
    pg_cluster: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = pg_cluster.url("no_such_database")
    done = serve(tmp_path, url)
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == (
        "hearts serve: PostgreSQL refused the connection (no_such_database at"
        f' {HOST}:{pg_cluster.port}): database "no_such_database" does not exist.'
    )
    code, said = migrate(capsys, "--database", url, "--check")
    assert (code, said.strip()) == (
        1,
        'hearts migrate: PostgreSQL refused the connection: database "no_such_database" does'
        " not exist.",
    )
    # Nobody at the address: it cannot be reached, as before.
    code, said = migrate(capsys, "--database", f"postgresql://a@{HOST}:{free_port()}/b")
    assert code == 1 and said.startswith("hearts migrate: PostgreSQL cannot be reached: ")


def test_a_data_directory_that_is_a_file_is_said_so(tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("not a folder")
    command = [str(HEARTS), "serve", "--port", str(free_port()), "--data-dir", str(file)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == f"hearts serve: --data-dir {file} is a file, not a folder."
