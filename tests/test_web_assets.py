"""The game's files for a slow network: versioned and kept, preloaded, compressed.

An emulated slow phone line took 4.7 s to show the start screen on every visit after the
first, asking again for 27 unchanged files (hearts.web.assets says how it is served now).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hearts.web.app import create_app
from hearts.web.assets import IMMUTABLE, STATIC, Assets, compressible, imported, version_of

PAGES = ["/", "/rules", "/stats", "/replay"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "data", bot_workers=0)) as test_client:
        yield test_client


def files_named(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/game/[^"]+)"', html)


@pytest.mark.parametrize("page", PAGES)
def test_a_page_names_its_files_under_the_version_and_they_are_kept(
    client: TestClient, page: str
) -> None:
    response = client.get(page)
    assert response.status_code == 200 and response.headers["cache-control"] == "no-cache"
    version = version_of(STATIC)
    named = files_named(response.text)
    assert named and all(name.startswith(f"/game/v/{version}/") for name in named), named
    for name in named:
        file = client.get(name)
        assert file.status_code == 200, name
        assert file.headers["cache-control"] == IMMUTABLE
        assert file.content == (STATIC / name.removeprefix(f"/game/v/{version}/")).read_bytes()
    # The page itself is asked for each time, and answered 304 while it is unchanged.
    again = client.get(page, headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304 and not again.content
    assert client.head(page).status_code == 200


def test_a_file_under_another_version_is_served_but_not_kept(client: TestClient) -> None:
    # A page from before a release, or from another process in the middle of one.
    old = client.get("/game/v/000000000000/js/main.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
    assert old.content == (STATIC / "js" / "main.js").read_bytes()
    plain = client.get("/game/js/main.js")  # the address without a version, as before
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
    # Nothing outside the folder, whatever the version or the path says.
    for path in ("/game/v/x/../../app.py", "/game/v/x/%2e%2e/%2e%2e/app.py", "/game/v/x/"):
        assert client.get(path).status_code == 404, path


def test_the_version_changes_with_any_file(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    (folder / "js").mkdir(parents=True)
    (folder / "js" / "a.js").write_text('import { b } from "./b.js";\n')
    (folder / "js" / "b.js").write_text("export const b = 1;\n")
    before = version_of(folder)
    (folder / "js" / "b.js").write_text("export const b = 2;\n")
    assert version_of(folder) != before
    (folder / "js" / "b.js").write_text("export const b = 1;\n")
    assert version_of(folder) == before


def test_the_start_page_preloads_every_module_its_script_imports(client: TestClient) -> None:
    html = client.get("/").text
    preloaded = re.findall(r'<link rel="modulepreload" href="/game/v/\w+/js/([\w.-]+)">', html)
    wanted = imported(STATIC / "js", "main.js")
    assert preloaded == wanted
    # Every module of the game is reached: none is missed by the reading of the imports
    # (the side pages' own scripts and what only they import aside).
    pages = ["rules-page.js", "stats-page.js", "replay-page.js"]
    reached = {"main.js", *wanted, *pages}
    for page in pages:
        reached |= set(imported(STATIC / "js", page))
    every = {path.name for path in (STATIC / "js").glob("*.js")}
    assert every == reached, every ^ reached
    assert "menu.js" in wanted and "words.js" in wanted  # one imported over lines, one deep


def test_imports_over_several_lines_are_read(tmp_path: Path) -> None:
    (tmp_path / "main.js").write_text(
        'import {\n  a,\n  b,\n} from "./a.js";\nimport "./c.js";\nconst x = import("/d.js");\n'
    )
    (tmp_path / "a.js").write_text('export { b } from "./b.js";\n')
    (tmp_path / "b.js").write_text("export const b = 1;\n")
    (tmp_path / "c.js").write_text("")
    assert imported(tmp_path, "main.js") == ["a.js", "c.js", "b.js"]


def test_the_public_files_are_compressed_and_the_api_is_not(client: TestClient) -> None:
    name = files_named(client.get("/").text)[-1]  # the start page's script
    raw = client.get(name, headers={"Accept-Encoding": "gzip"})
    assert raw.headers["content-encoding"] == "gzip"
    # The bytes that came, against the script decoded by the client. Not the Content-Length:
    # a file past one read (64 KB) is compressed as it streams, and sent without one.
    assert raw.num_bytes_downloaded < len(raw.content) / 2
    assert client.get("/api/options").headers.get("content-encoding") == "gzip"
    # An API answer can hold a secret beside words a stranger chose: never compressed.
    state = client.post("/api/games", json={}).json()
    answer = client.get(f"/api/games/{state['id']}", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and "content-encoding" not in answer.headers
    assert not compressible(f"/api/games/{state['id']}/events")


@pytest.mark.parametrize("which", ["page", "file"])
def test_a_compressed_answer_has_a_weak_tag_and_is_still_not_modified(
    client: TestClient, which: str
) -> None:
    name = "/" if which == "page" else files_named(client.get("/").text)[-1]
    plain = client.get(name, headers={"Accept-Encoding": "identity"})
    packed = client.get(name, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    # Two bodies, so not one strong tag: the compressed one is weak, the plain one strong.
    strong = plain.headers["etag"]
    assert not strong.startswith("W/") and packed.headers["etag"] == "W/" + strong
    for tag in (strong, packed.headers["etag"]):
        again = client.get(name, headers={"Accept-Encoding": "gzip", "If-None-Match": tag})
        assert again.status_code == 304 and again.headers["etag"] == tag  # as the browser holds it


def test_a_page_file_is_read_once(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    (folder / "js").mkdir(parents=True)
    (folder / "js" / "main.js").write_text("")
    (folder / "index.html").write_text('<script type="module" src="/game/js/main.js"></script>')
    assets = Assets(folder)
    first = assets.html("index.html")
    assert first == f'<script type="module" src="/game/v/{assets.version}/js/main.js"></script>'
    (folder / "index.html").write_text("changed")
    assert assets.html("index.html") == first  # kept: a release restarts the server
