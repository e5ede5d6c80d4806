"""Fixtures of the coach's API tests: a client on a fresh store, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hearts.web.app import create_app


@pytest.fixture
def data_dir(tmp_path: Path, database: str) -> Path:
    # Every test with a store runs on SQLite and on PostgreSQL (`database`, tests/conftest.py).
    return tmp_path / "data"


@pytest.fixture
def client(data_dir: Path) -> Iterator[TestClient]:
    # Computer players in threads: the same decisions, without starting processes; the
    # coach's reviews in the background, in a thread too.
    with TestClient(create_app(data_dir, bot_workers=0, review_workers=1)) as test_client:
        yield test_client
