import sys
from pathlib import Path

# Test helpers live beside the tests; make them importable as a plain module.
sys.path.insert(0, str(Path(__file__).parent))

from collections.abc import Iterator

import pytest

from pg_support import Cluster, start_cluster

#: The stores a store-backed test runs against: SQLite (the default) and PostgreSQL.
STORES = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One throwaway PostgreSQL server for the whole run (tests/pg_support.py)."""
    yield from start_cluster()


@pytest.fixture(params=STORES)
def database(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which store the test's app and its `hearts serve` processes use: for PostgreSQL a
    fresh database, named by HEARTS_DATABASE_URL (which Settings.from_env reads and server
    processes inherit); for SQLite the variable is unset. Returns the store's name."""
    kind: str = request.param
    if kind == "postgresql":
        cluster: Cluster = request.getfixturevalue("pg_cluster")
        monkeypatch.setenv("HEARTS_DATABASE_URL", cluster.new_database())
    else:
        monkeypatch.delenv("HEARTS_DATABASE_URL", raising=False)
    return kind
