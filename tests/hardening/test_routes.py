"""Routes and headers of a real `hearts serve`: API docs only when asked for, only trusted
Host names answered (DNS rebinding), redirects that never carry the request's Host."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from .server import Server


def test_api_docs_are_off_unless_asked_for(tmp_path: Path) -> None:
    with Server(tmp_path / "data") as server:
        for path in ("/docs", "/openapi.json", "/redoc"):
            assert httpx.get(server.url + path).status_code == 404, path
    with Server(tmp_path / "data", args=("--api-docs",)) as server:
        spec = httpx.get(server.url + "/openapi.json").json()
        assert "/api/games/{game_id}/play" in spec["paths"]
        assert httpx.get(server.url + "/docs").status_code == 200


def test_an_access_log_only_when_asked_for(tmp_path: Path) -> None:
    quiet = Server(tmp_path / "data", log=tmp_path / "quiet.log")
    with quiet as server:
        assert httpx.get(server.url + "/api/options").status_code == 200
    assert '"GET /api/options' not in quiet.log_path.read_text()
    told = Server(tmp_path / "data", log=tmp_path / "told.log", env={"HEARTS_ACCESS_LOG": "1"})
    with told as server:
        assert httpx.get(server.url + "/api/nope").status_code == 404
    text = told.log_path.read_text()
    assert '"GET /api/options HTTP/1.1" 200' in text and '"GET /api/nope HTTP/1.1" 404' in text
    flag = Server(tmp_path / "data", log=tmp_path / "flag.log", args=("--access-log",))
    with flag as server:
        assert httpx.get(server.url + "/api/options").status_code == 200
    assert '"GET /api/options HTTP/1.1" 200' in flag.log_path.read_text()
    # Each line as the service's own: time, level and process (it was uvicorn's bare
    # `INFO:     127.0.0.1:40372 - "GET /api/options HTTP/1.1" 200 OK`).
    line = next(x for x in text.splitlines() if '"GET /api/options' in x)
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO hearts\[\d+\] 127\.0\.0\.1:\d+ - "
        r'"GET /api/options HTTP/1\.1" 200',
        line,
    ), line


def test_only_trusted_host_names_are_answered(tmp_path: Path) -> None:
    with Server(tmp_path / "data") as server:
        for host in ("127.0.0.1", f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
            answer = httpx.get(server.url + "/api/options", headers={"Host": host})
            assert answer.status_code == 200, host
        # A page on the attacker's name, rebound to 127.0.0.1, sends its own name as Host.
        for host in ("rebind.attacker.example", f"rebind.attacker.example:{server.port}"):
            answer = httpx.post(server.url + "/api/games", json={}, headers={"Host": host})
            assert answer.status_code == 400, host
            assert answer.json() == {
                "detail": "This server does not answer to the name 'rebind.attacker.example'."
            }
            assert "set-cookie" not in answer.headers
    flags = ("--trusted-host", "hearts.example", "--trusted-host", "127.0.0.1")
    with Server(tmp_path / "data", args=flags) as server:
        named = httpx.get(server.url + "/", headers={"Host": "hearts.example"})
        assert named.status_code == 200
        assert httpx.get(server.url + "/", headers={"Host": "other.example"}).status_code == 400


def test_redirects_are_relative(tmp_path: Path) -> None:
    with Server(tmp_path / "data", args=("--trusted-host", "*")) as server:
        for host in ("evil.example", f"127.0.0.1:{server.port}"):
            answer = httpx.get(
                server.url + "/api/options/?x=1", headers={"Host": host}, follow_redirects=False
            )
            assert answer.status_code in (301, 307, 308), answer.text
            assert answer.headers["location"] == "/api/options?x=1"
        slash = httpx.get(server.url + "/scorekeeper/", follow_redirects=False)
        assert slash.headers["location"] == "/scorekeeper"
        assert httpx.get(server.url + "/api/options/", follow_redirects=True).status_code == 200
