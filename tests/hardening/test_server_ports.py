"""The tests' `hearts serve` process (`hardening.server.Server`) on a port of its own
choosing: a port looked up as free can be taken by another program before the server binds
it (a test run beside this one on the machine), and that start then failed the test."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest

from . import server as support
from .server import HOST, Server


def test_a_port_taken_before_the_server_binds_it_is_traded_for_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        ports = iter([taken.getsockname()[1]])
        real = support.free_port
        # The first port looked up is the one another program holds by the time of the start.
        monkeypatch.setattr(support, "free_port", lambda: next(ports, None) or real())
        with Server(tmp_path / "data") as server:
            assert server.port != taken.getsockname()[1]
            assert httpx.get(f"{server.url}/api/options", timeout=10).status_code == 200


def test_a_port_asked_for_and_taken_is_still_said(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        with pytest.raises(RuntimeError, match="is taken by another program"):
            Server(tmp_path / "data", port=taken.getsockname()[1]).start()
