"""The tests' throwaway PostgreSQL (tests/pg_support.py) starts even when another process
binds its port between the port's lookup and the server's start (initdb comes between)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

import pg_support
from pg_support import HOST, Cluster, start_cluster


@pytest.fixture
def taken_first(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every port the cluster is first given is bound by someone else by the time it
    starts; the ports it tries after are left free. Yields the ports taken."""
    taken: list[int] = []
    holders: list[socket.socket] = []
    looked_up = pg_support.free_port

    def a_port_someone_takes() -> int:
        port = looked_up()
        if not taken:
            holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            holder.bind((HOST, port))
            holder.listen()
            holders.append(holder)
            taken.append(port)
        return port

    monkeypatch.setattr(pg_support, "free_port", a_port_someone_takes)
    yield taken
    for holder in holders:
        holder.close()


def test_a_port_taken_before_the_first_start_is_traded_for_a_free_one(
    taken_first: list[int],
) -> None:
    clusters: Iterator[Cluster] = start_cluster()
    cluster = next(clusters)
    try:
        assert taken_first and cluster.port != taken_first[0]
        with psycopg.connect(cluster.url(), connect_timeout=10) as db:
            assert db.execute("SELECT 1").fetchone() == (1,)
        # The first try's log is kept beside the server's, for whoever wonders why.
        kept = list(Path(cluster.directory).glob(f"postgres.port-{taken_first[0]}.log"))
        assert kept and "Address already in use" in kept[0].read_text()
    finally:
        next(clusters, None)
    assert not Path(cluster.directory).exists()
