"""Headers every response gets, and the Host check, by plain ASGI middleware.

Starlette's `@app.middleware("http")` wraps each request in extra tasks and streams; on a
busy 2-core server that cost showed in the tail latency of play requests, so the headers
are added here by rewriting the response's start message instead.

Over HTTPS every answer carries HSTS. A redirect's Location never carries the request's
Host: Starlette builds the trailing-slash redirect from it, so an absolute Location on this
request's own host is cut to its path. `TrustedHosts` answers only the Host names it is
given, so a page on another name (DNS rebinding) cannot reach the API.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The game's own pages load only their own files; no outside fonts, images or scripts.
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)

#: The pages (and, under /game/ and /scorekeeper/, their files) that get the page policy.
PAGES = frozenset({"/", "/rules", "/stats", "/replay", "/scorekeeper"})

_ALWAYS = ((b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"))
_PAGE = ((b"content-security-policy", PAGE_POLICY.encode()), (b"cache-control", b"no-cache"))
_API = ((b"cache-control", b"no-store"),)
HSTS = (b"strict-transport-security", b"max-age=31536000")


def headers_for(path: str) -> tuple[tuple[bytes, bytes], ...]:
    """The headers a response to `path` gets unless it set them itself."""
    if path in PAGES or path.startswith(("/game/", "/scorekeeper/")):
        return _ALWAYS + _PAGE
    if path.startswith("/api/"):
        return _ALWAYS + _API
    return _ALWAYS


def is_https(scope: Scope, always: bool) -> bool:
    """Whether this request came over HTTPS: `--https`, or the scheme uvicorn took from a
    trusted proxy's X-Forwarded-Proto."""
    return always or scope.get("scheme") == "https"


def request_host(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"host":
            return str(value.decode("latin-1"))
    return ""


def host_name(host: str) -> str:
    """ "example.org:8000" -> "example.org"; "[::1]:8000" -> "::1"."""
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def relative_location(location: bytes, host: str) -> bytes:
    """An absolute Location on the request's own host, cut to its path and query."""
    parts = urlsplit(location.decode("latin-1"))
    if not parts.netloc or parts.netloc.lower() != host.lower():
        return location
    relative = parts.path or "/"
    if parts.query:
        relative += "?" + parts.query
    return relative.encode("latin-1")


class SecurityHeaders:
    """ASGI middleware: adds `headers_for(path)` to each HTTP response that lacks them, HSTS
    over HTTPS, and makes a redirect to this host relative."""

    def __init__(self, app: ASGIApp, https: bool = False) -> None:
        self.app = app
        self.https = https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = headers_for(scope.get("path", ""))
        if is_https(scope, self.https):
            extra = (*extra, HSTS)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                if b"location" in present:
                    host = request_host(scope)
                    headers = [
                        (name, relative_location(value, host) if name == b"location" else value)
                        for name, value in headers
                    ]
                headers.extend((name, value) for name, value in extra if name not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class TrustedHosts:
    """ASGI middleware: a 400 with one sentence for a Host not in `names` ("*": any)."""

    def __init__(self, app: ASGIApp, names: tuple[str, ...]) -> None:
        self.app = app
        self.names = frozenset(name.lower() for name in names)
        self.any = "*" in self.names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.any:
            await self.app(scope, receive, send)
            return
        host = host_name(request_host(scope)).lower()
        if host in self.names:
            await self.app(scope, receive, send)
            return
        payload = json.dumps({"detail": f"This server does not answer to the name {host[:40]!r}."})
        body = payload.encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
