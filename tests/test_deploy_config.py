"""The shipped nginx site (deploy/nginx-hearts.conf) agrees with the app, and nginx takes it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hearts.web.limits import MAX_BODY_BYTES

SITE = Path(__file__).parent.parent / "deploy" / "nginx-hearts.conf"


def test_nginx_refuses_a_large_body_with_the_apps_limit_and_sentence() -> None:
    # At 64k, a body between the app's limit and nginx's got the app's JSON, and a larger
    # one nginx's HTML 413 page: now nginx has the app's limit and answers in its words.
    site = SITE.read_text()
    size = re.search(r"^\s*client_max_body_size (\d+)k;", site, re.MULTILINE)
    assert size is not None and int(size[1]) * 1024 == MAX_BODY_BYTES
    assert re.search(r"^\s*error_page 413 @too_large;", site, re.MULTILINE)
    answer = re.search(r"return 413 '(.*)\\n';", site)
    assert answer is not None
    limit_kb = MAX_BODY_BYTES // 1024
    assert json.loads(answer[1]) == {
        "detail": f"The request body is too large; the limit is {limit_kb} KB."
    }


def test_the_tls_lines_work_on_debian_12s_nginx() -> None:
    # `http2 on;` is unknown before nginx 1.25.1 (Debian 12 ships 1.22.1).
    site = SITE.read_text()
    assert "#   listen 443 ssl http2;" in site


def nginx() -> str:
    """Debian's nginx (/usr/sbin is not on every user's PATH); a skip when it is missing,
    or a failure under HEARTS_REQUIRE_NGINX=1 (CI: `make test` installs it when root)."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
    if found:
        return found
    if os.environ.get("HEARTS_REQUIRE_NGINX") == "1":
        pytest.fail("nginx required (HEARTS_REQUIRE_NGINX=1) but not installed")
    pytest.skip("nginx is not installed")


def test_nginx_accepts_the_site(tmp_path: Path) -> None:
    command = nginx()
    site = SITE.read_text().replace("@UPSTREAMS@", "server 127.0.0.1:9;")
    (tmp_path / "site.conf").write_text(site.replace("@PORT@", "9"))
    temp = tmp_path / "temp"
    temp.mkdir()
    paths = " ".join(
        f"{kind}_temp_path {temp};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log;\n"
        "events { worker_connections 16; }\n"
        f"http {{ access_log off; {paths} include {tmp_path}/site.conf; }}\n"
    )
    checked = subprocess.run(
        [command, "-t", "-q", "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr


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
