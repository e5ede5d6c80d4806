"""The game's pages and files, served so that a browser on a slow network waits for them once.

Measured on an emulated slow phone line (400 ms a round trip, 50 KB/s): the start screen
took 9.6 s to come on a first visit and 4.7 s on every visit after, although nothing had
changed: 27 files asked again, six at a time, each answered "not modified". Now:

- **A version in every file's address.** A page names its files under the hash of every
  file of the game (`/game/v/3f9a2c1b7d0e/js/main.js`), and a file asked for under the
  version being served is kept by the browser for a year (`immutable`): a visit after the
  first asks for the page alone. A new release has a new hash, so new addresses. A file asked
  for under another version (a page from before a release, or from another process in the
  middle of one) is still served, today's, but not to be kept. The modules import each other
  by relative address, so they stay under the version of the page that loaded them.
- **The pages are asked for each time** (`no-cache`) and answered 304 while unchanged.
- **The start page preloads every module** its script imports (`modulepreload`), so the
  browser asks for all of them at once instead of level by level.
- **Compressed** (gzip, `Compress`) when the browser takes it: 309 KB became 111 KB. Only
  the public files and pages are: an API answer can hold a secret (an invitation's token)
  beside words a stranger chose (a name), the mix a compression side channel needs. A
  compressed answer's ETag is made weak (`W/"…"`), as nginx does: the same strong tag on two
  different bodies (plain and gzip) would let a cache or a range request mix their bytes.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

STATIC = Path(__file__).parent / "static" / "game"
IMMUTABLE = "public, max-age=31536000, immutable"
# A page's own files: href="/game/…" and src="/game/…".
_FILE_REFERENCE = re.compile(r'(href|src)="/game/')
# A module's imports of its neighbours: import … from "./x.js", import "./x.js".
_IMPORT = re.compile(r'^\s*(?:import|export)\b[^"\']*?["\']\./([\w.-]+\.js)["\']', re.MULTILINE)
_SCRIPT = '<script type="module" src="/game/js/'


def version_of(folder: Path) -> str:
    """The hash of every file under `folder`, names and contents: 12 hexadecimal digits."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:12]


def imported(scripts: Path, entry: str) -> list[str]:
    """Every module `entry` imports, directly or not, in the order first met."""
    found: list[str] = []
    waiting = [entry]
    while waiting:
        text = (scripts / waiting.pop(0)).read_text(encoding="utf-8")
        for name in _IMPORT.findall(text):
            if name != entry and name not in found:
                found.append(name)
                waiting.append(name)
    return found


class Assets:
    """The game's folder, its version, and its pages with their files' addresses versioned."""

    def __init__(self, folder: Path = STATIC) -> None:
        self.folder = folder
        self.version = version_of(folder)
        self.prefix = f"/game/v/{self.version}/"
        self.files = StaticFiles(directory=folder)
        self._pages: dict[str, tuple[str, str]] = {}

    def html(self, name: str) -> str:
        """The page `name` (a file of the folder) as served: its files under the version, and
        a preload for each module its script imports."""
        return self._page(name)[0]

    def _page(self, name: str) -> tuple[str, str]:
        if name not in self._pages:
            text = (self.folder / name).read_text(encoding="utf-8")
            start = text.find(_SCRIPT)
            if start >= 0:
                entry = text[start + len(_SCRIPT) : text.index('"', start + len(_SCRIPT))]
                preloads = "".join(
                    f'<link rel="modulepreload" href="/game/js/{module}">\n  '
                    for module in imported(self.folder / "js", entry)
                )
                text = text[:start] + preloads + text[start:]
            text = _FILE_REFERENCE.sub(rf'\1="{self.prefix}', text)
            etag = '"' + hashlib.sha256(text.encode()).hexdigest()[:20] + '"'
            self._pages[name] = (text, etag)
        return self._pages[name]

    def page(self, name: str, request: Request) -> Response:
        """The page `name`, or 304 when the browser holds this very one."""
        text, etag = self._page(name)
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers={"ETag": etag})
        return HTMLResponse(text, headers={"ETag": etag})

    async def versioned(self, version: str, path: str, request: Request) -> Response:
        """A file of the folder asked for under a version: to be kept for a year when the
        version is the one served, else (another release's) served but not kept."""
        response = await self.files.get_response(path, request.scope)
        if version == self.version:
            response.headers["Cache-Control"] = IMMUTABLE
        return response


def compressible(path: str) -> bool:
    """The public files and pages (no API answer but the options, which hold no secret)."""
    return not path.startswith("/api/") or path == "/api/options"


class Compress:
    """ASGI middleware: gzip (Starlette's) for `compressible` paths; the rest pass as they
    are. The event stream is under /api/, so never compressed (nor held back to be)."""

    def __init__(self, app: ASGIApp, minimum_size: int = 1024) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=minimum_size)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and compressible(scope.get("path", "")):
            await self.gzip(scope, receive, _weak_tag_when_compressed(scope, send))
        else:
            await self.app(scope, receive, send)


def _weak_tag_when_compressed(scope: Scope, send: Send) -> Send:
    """`send`, with a gzip answer's strong ETag made weak (the plain body keeps the strong one).
    A browser's If-None-Match with the weak tag still matches (comparisons for 304 are weak),
    and the 304 names the tag as the browser holds it."""
    asked = b",".join(value for name, value in scope["headers"] if name == b"if-none-match")

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            compressed = (b"content-encoding", b"gzip") in headers
            if compressed or message["status"] == 304:
                headers = [
                    (
                        name,
                        _weak(value)
                        if name == b"etag" and _weakens(value, compressed, asked)
                        else value,
                    )
                    for name, value in headers
                ]
                message = {**message, "headers": headers}
        await send(message)

    return sending


def _weak(tag: bytes) -> bytes:
    return tag if tag.startswith(b"W/") else b"W/" + tag


def _weakens(tag: bytes, compressed: bool, asked: bytes) -> bool:
    """Whether `tag` goes out weak: on a compressed body, or on a 304 to a browser that holds
    it only as the weak tag (its copy was the compressed one).

    >>> _weakens(b'"a"', False, b'W/"a"'), _weakens(b'"a"', False, b'"a", W/"b"')
    (True, False)
    """
    if compressed:
        return True
    held = [held.strip() for held in asked.split(b",")]
    return _weak(tag) in held and tag not in held
