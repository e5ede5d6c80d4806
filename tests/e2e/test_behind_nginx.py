"""The game behind the shipped nginx site: what the page shows when nginx answers itself
because the game server is down (deploy/nginx-hearts.conf, docs/deploy.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nginx_support import Nginx

from browser_support import PHONE, AppServer, shoot

NOT_ANSWERING = "The game server is not answering; try again in a moment."


def test_the_page_says_nginxs_sentence_when_the_server_is_down(
    browser: Any, tmp_path: Path
) -> None:
    # nginx answered its HTML page, and the page could only say a bare status in words of
    # its own; now it says nginx's sentence, as it says the app's.
    server = AppServer(tmp_path / "data").start()
    try:
        with Nginx(tmp_path / "nginx", [server.port]) as nginx:
            context = browser.new_context(viewport=PHONE)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{nginx.url}/?speed=instant")
            page.wait_for_selector("body[data-ready=true]")
            server.stop()  # the game server goes down with the page open
            page.click("[data-action=new-game]")
            note = page.locator("[data-region=setup-error]")
            note.wait_for()
            assert note.inner_text() == NOT_ANSWERING
            # A page asked for meanwhile is nginx's short page, in the same words.
            page.goto(f"{nginx.url}/stats")
            assert page.inner_text("p") == NOT_ANSWERING
            assert page.title() == "Hearts"
            shoot(page, "nginx-server-down-phone")
            assert not errors
            context.close()
    finally:
        server.stop()
