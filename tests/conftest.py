import sys
from pathlib import Path

# Test helpers live beside the tests; make them importable as a plain module.
sys.path.insert(0, str(Path(__file__).parent))

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from client_support import another_browser
from pg_support import Cluster, start_cluster

from browser_support import AppServer, chromium

#: The stores a store-backed test runs against: SQLite (the default) and PostgreSQL.
STORES = ["sqlite", "postgresql"]


@pytest.fixture
def app_dir(tmp_path: Path, database: str) -> Path:
    """A data directory for an app over each store (`database`)."""
    return tmp_path / "data"


@pytest.fixture
def browsers(app_dir: Path) -> Iterator[list[TestClient]]:
    """Three browsers (three cookie jars) on one server (tables of friends)."""
    from hearts.web.app import create_app

    app = create_app(app_dir, bot_workers=0)
    with TestClient(app, raise_server_exceptions=False) as first:
        # On the app's loop, as a real server's requests are (client_support.py says why).
        others = [another_browser(first, raise_server_exceptions=False) for _ in range(2)]
        yield [first, *others]


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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium for a browser test module (tests/browser_support.py)."""
    yield from chromium()


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[AppServer]:
    """The app for a browser test module, over its own data directory, with the module's
    `APP_OPTIONS` for `create_app` when it has them."""
    name = request.module.__name__.rpartition(".")[2]
    running = AppServer(tmp_path_factory.mktemp(name), **getattr(request.module, "APP_OPTIONS", {}))
    running.start()
    yield running
    running.stop()
