"""The shipped nginx site (deploy/nginx-hearts.conf) agrees with the app, nginx takes it, and
nginx run with it says its own refusals in the app's words."""

from __future__ import annotations

import http.server
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from hearts.web.limits import MAX_BODY_BYTES
from nginx_support import SITE, Nginx, free_port, main_conf, nginx_path, site


def test_nginx_refuses_a_large_body_with_the_apps_limit_and_sentence() -> None:
    # At 64k, a body between the app's limit and nginx's got the app's JSON, and a larger
    # one nginx's HTML 413 page: now nginx has the app's limit and answers in its words.
    site = SITE.read_text()
    size = re.search(r"^\s*client_max_body_size (\d+)k;", site, re.MULTILINE)
    assert size is not None and int(size[1]) * 1024 == MAX_BODY_BYTES
    answer = re.search(r'^\s*413 "(.*)";', site, re.MULTILINE)
    assert answer is not None
    limit_kb = MAX_BODY_BYTES // 1024
    assert answer[1] == f"The request body is too large; the limit is {limit_kb} KB."


def test_the_tls_lines_work_on_debian_12s_nginx() -> None:
    # `http2 on;` is unknown before nginx 1.25.1 (Debian 12 ships 1.22.1).
    site = SITE.read_text()
    assert "#   listen 443 ssl http2;" in site


def test_nginx_accepts_the_site(tmp_path: Path) -> None:
    command = nginx_path()
    (tmp_path / "site.conf").write_text(site([9], 9))
    (tmp_path / "nginx.conf").write_text(main_conf(tmp_path))
    checked = subprocess.run(
        [command, "-t", "-q", "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr


class Upstream(http.server.BaseHTTPRequestHandler):
    """A stand-in for the processes: /api/busy answers the app's own 503 (its database away),
    /api/slow answers after nginx has stopped waiting."""

    BUSY = b'{"detail":"The database is not answering; try again in a moment."}'

    def do_GET(self) -> None:
        if self.path == "/api/slow":
            time.sleep(3)  # nginx has hung up by then: nothing to answer
            return
        self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Retry-After", "7")
        self.send_header("Content-Length", str(len(self.BUSY)))
        self.end_headers()
        self.wfile.write(self.BUSY)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def upstream() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


#: Waiting 60 s for a process that does not answer would be a slow test: 1 s shows the same.
QUICK = {"proxy_read_timeout 60s;": "proxy_read_timeout 1s;"}
NOT_ANSWERING = "The game server is not answering; try again in a moment."
#: A site that adds a limit on requests (nginx's own 503): one a minute passes.
LIMITED = {
    "upstream hearts {": "limit_req_zone $binary_remote_addr zone=hearts_test:1m rate=1r/m;\n"
    "upstream hearts {",
    "    location / {\n": "    location / {\n        limit_req zone=hearts_test;\n",
}


def refusal(answer: httpx.Response, status: int) -> str:
    """The sentence of an API refusal answered in the app's shape, its status checked."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/json", answer.text
    assert answer.headers["cache-control"] == "no-store"
    body = answer.json()
    assert list(body) == ["detail"] and isinstance(body["detail"], str)
    sentence: str = body["detail"]
    return sentence


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory, upstream: int) -> Iterator[dict[str, str]]:
    """nginx's addresses in front of processes that are down (nothing listens on their
    port) and in front of the stand-in (`Upstream`), by name."""
    folder = tmp_path_factory.mktemp("nginx")
    with (
        Nginx(folder / "down", [free_port()]) as down,
        Nginx(folder / "up", [upstream], QUICK) as up,
        Nginx(folder / "limited", [free_port()], LIMITED) as limited,
    ):
        httpx.get(f"{limited.url}/api/options", timeout=30)  # the minute's one request
        yield {"down": down.url, "up": up.url, "limited": limited.url}


#: nginx's own refusals, one a status: (site, method, address, headers, body), its sentence.
REFUSALS = {
    400: (
        ("down", "GET", "/api/games", {"X-Filler": "x" * 9000}, None),  # a header over 8 KB
        "The request could not be read: its first line or its headers are malformed or too large.",
    ),
    405: (("down", "TRACE", "/api/games", {}, None), "The server does not take TRACE requests."),
    413: (
        ("down", "POST", "/api/games", {}, b"x" * (MAX_BODY_BYTES + 1)),
        "The request body is too large; the limit is 16 KB.",
    ),
    414: (
        ("down", "GET", "/api/games?" + "a" * 9000, {}, None),
        "The address is too long; the limit is 8 KB.",
    ),
    502: (("down", "POST", "/api/games", {}, b"{}"), NOT_ANSWERING),
    503: (
        ("limited", "GET", "/api/options", {}, None),
        "The server is busy; try again in a moment.",
    ),
    504: (
        ("up", "GET", "/api/slow", {}, None),
        "The game server took too long to answer; try again in a moment.",
    ),
}


# nginx's own refusals were its HTML pages ("<h1>502 Bad Gateway</h1>"), which the page
# could only say as a bare status; now each is the app's JSON with a sentence.
@pytest.mark.parametrize("status", sorted(REFUSALS))
def test_nginx_says_its_own_refusals_of_api_requests_in_the_apps_json(
    sites: dict[str, str], status: int
) -> None:
    (where, method, path, headers, body), sentence = REFUSALS[status]
    with httpx.Client(timeout=30) as client:
        answer = client.request(method, sites[where] + path, headers=headers, content=body)
    assert refusal(answer, status) == sentence
    # Waiting helps only when the processes are down or slow.
    assert answer.headers.get("retry-after") == ("2" if status >= 500 else None)


def test_the_processes_own_refusals_pass_through_nginx_untouched(sites: dict[str, str]) -> None:
    # A 503 while the database is away is the processes' answer, with its sentence and its
    # Retry-After: not replaced by nginx's. A HEAD refused by nginx has no body.
    with httpx.Client(timeout=30) as client:
        busy = client.get(f"{sites['up']}/api/busy")
        head = client.head(f"{sites['down']}/api/games")
    assert busy.status_code == 503 and busy.content == Upstream.BUSY
    assert busy.headers["retry-after"] == "7"
    assert head.status_code == 502 and head.content == b""


def test_nginx_says_its_own_refusals_of_pages_in_a_short_page(tmp_path: Path) -> None:
    with Nginx(tmp_path, [free_port()]) as nginx, httpx.Client(timeout=30) as client:
        for path in ("/", "/stats", "/game/js/main.js"):
            answer = client.get(f"{nginx.url}{path}")
            assert answer.status_code == 502
            assert answer.headers["content-type"] == "text/html; charset=utf-8"
            assert f"<p>{NOT_ANSWERING}</p>" in answer.text
        answer = client.request("TRACE", f"{nginx.url}/rules")
        assert answer.status_code == 405
        assert "<p>The server does not take TRACE requests.</p>" in answer.text
        # The refusals' own addresses are nginx's alone.
        assert client.get(f"{nginx.url}/.hearts-refused.json").status_code == 404


def systemd_unit() -> str:
    """The unit docs/deploy.md gives for `hearts@.service`."""
    text = (SITE.parent.parent / "docs" / "deploy.md").read_text()
    block = text.split("# /etc/systemd/system/hearts@.service\n", 1)[1]
    return block.split("```", 1)[0]


def test_the_systemd_unit_waits_for_the_network_it_orders_itself_after() -> None:
    # After=network-online.target alone orders but does not pull the target in: without
    # Wants= it may never be started, and hearts may start before the network is up.
    import configparser

    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string(systemd_unit())
    assert "network-online.target" in unit["Unit"]["After"].split()
    assert "network-online.target" in unit["Unit"]["Wants"].split()


def test_the_systemd_unit_does_not_restart_a_setting_to_mend(tmp_path: Path) -> None:
    # Restart=on-failure restarts on exit 2 too: a typo in HEARTS_DATABASE_URL was started
    # again every 2 s for ever. Exit 2 (a setting) stays stopped; exit 1 (the database
    # away) is restarted.
    import configparser

    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(systemd_unit())
    service = unit["Service"]
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"].split() == ["2"]
    if shutil.which("systemd-analyze"):  # systemd's own reading: every key known and valid
        path = tmp_path / "hearts@.service"
        path.write_text(systemd_unit().replace("/srv/hearts/venv/bin/hearts", "/bin/true"))
        done = subprocess.run(
            ["systemd-analyze", "verify", str(tmp_path / "hearts@8001.service")],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        complaints = [line for line in done.stderr.splitlines() if str(path) in line]
        assert not complaints, done.stderr
