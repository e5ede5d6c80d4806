"""Owner cookies against a real `hearts serve`: only tokens the server issued are owners,
anything else is replaced; over HTTPS the cookie is `__Host-` and Secure, with HSTS."""

from __future__ import annotations

import stat
from pathlib import Path

import httpx

from hearts.web.tokens import COOKIE, SECURE_COOKIE, Tokens

from .server import Server


def set_cookie(response: httpx.Response) -> str:
    return str(response.headers.get("set-cookie", ""))


def issued(response: httpx.Response) -> str:
    """The token the server set in this answer."""
    return set_cookie(response).split(";")[0].split("=", 1)[1]


def test_a_planted_cookie_owns_nothing_and_is_replaced(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    planted = {COOKIE: "planted-by-a-sibling-site"}
    with Server(data_dir) as server:
        with httpx.Client(base_url=server.url, cookies=planted) as victim:
            created = victim.post("/api/games", json={})
            assert created.status_code == 201
            token = issued(created)
            assert token != planted[COOKIE] and token.startswith("v1.")
            assert set_cookie(created).startswith(f"{COOKIE}=")
            game_id = created.json()["id"]
        # The one who planted the value still holds only that value: it reads nothing.
        with httpx.Client(base_url=server.url, cookies=planted) as planter:
            assert planter.get("/api/games/current").json() == {"id": None}
            assert planter.get(f"/api/games/{game_id}").status_code == 404
        with httpx.Client(base_url=server.url, cookies={COOKIE: token}) as owner:
            assert owner.get("/api/games/current").json() == {"id": game_id}


def test_forged_and_foreign_tokens_are_refused(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with Server(data_dir) as server:
        with httpx.Client(base_url=server.url) as owner:
            created = owner.post("/api/games", json={})
            game_id, real = created.json()["id"], issued(created)
        body, _, mac = real.rpartition(".")
        forged = f"{body}.{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}"
        foreign = Tokens.in_directory(tmp_path).issue()  # another server's secret
        for value in (forged, foreign, real + "x", "v1..", "v1"):
            with httpx.Client(base_url=server.url, cookies={COOKIE: value}) as other:
                assert other.get(f"/api/games/{game_id}").status_code == 404, value
                assert other.get("/api/games/current").json() == {"id": None}
                made = other.post("/api/games", json={})
                assert made.status_code == 201
                assert issued(made) not in (value, real)
    secret = data_dir / "cookie-secret"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600


def test_over_https_the_cookie_is_host_prefixed_with_hsts(tmp_path: Path) -> None:
    with (
        Server(tmp_path / "data", args=("--https",)) as server,
        httpx.Client(base_url=server.url) as browser,
    ):
        created = browser.post("/api/games", json={})
        cookie = set_cookie(created)
        assert cookie.startswith(f"{SECURE_COOKIE}=v1.")
        assert "Secure" in cookie and "Path=/" in cookie and "Domain" not in cookie
        assert created.headers["strict-transport-security"].startswith("max-age=")
        assert "strict-transport-security" in browser.get("/").headers
        # The plain name is not read over HTTPS, even with a valid token in it.
        token = issued(created)
        game_id = created.json()["id"]
        browser.cookies.clear()
        browser.cookies.set(COOKIE, token)
        assert browser.get(f"/api/games/{game_id}").status_code == 404
        browser.cookies.clear()
        browser.cookies.set(SECURE_COOKIE, token)
        assert browser.get(f"/api/games/{game_id}").status_code == 200


def test_https_is_believed_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    https = {"X-Forwarded-Proto": "https"}
    with Server(tmp_path / "data") as server:
        # 127.0.0.1 is the trusted proxy by default: its word makes the request HTTPS.
        answer = httpx.post(f"{server.url}/api/games", json={}, headers=https)
        assert set_cookie(answer).startswith(SECURE_COOKIE)
        assert "strict-transport-security" in answer.headers
        plain = httpx.post(f"{server.url}/api/games", json={})
        assert set_cookie(plain).startswith(f"{COOKIE}=")
        assert "strict-transport-security" not in plain.headers
    with Server(tmp_path / "data2", args=("--trusted-proxy", "10.9.9.9")) as server:
        answer = httpx.post(f"{server.url}/api/games", json={}, headers=https)
        assert set_cookie(answer).startswith(f"{COOKIE}=")
        assert "strict-transport-security" not in answer.headers
