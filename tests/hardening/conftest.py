"""Fixtures for the hardening tests: a fresh app over a temporary store per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hearts.web.app import create_app


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def client(data_dir: Path) -> Iterator[TestClient]:
    # Threads instead of a process pool: the same players, quicker to start in tests.
    # Server errors come back as 500 answers, as a browser would see them.
    with TestClient(
        create_app(data_dir, bot_workers=0), raise_server_exceptions=False
    ) as test_client:
        yield test_client
