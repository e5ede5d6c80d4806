"""A cap on request bodies, so a client cannot make the server hold megabytes in memory.

Every body the API takes is a few hundred bytes (a card, a pass, a choice of rules), so
anything past `MAX_BODY_BYTES` is refused with a 413 before the app parses it. The cap is
checked against Content-Length when it is sent and counted while reading when it is not
(a chunked upload), so a missing or lying header does not get around it.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The largest request body accepted, in bytes.
MAX_BODY_BYTES = 16 * 1024


class BodyLimit:
    """ASGI middleware: a 413 with one sentence for a body over `max_bytes`."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send)
            return
        # Read the whole (small) body first, counting as it comes, then hand it on.
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending its body
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        handed_on = False

        async def replay() -> Message:
            nonlocal handed_on
            if not handed_on:
                handed_on = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        limit_kb = self.max_bytes // 1024
        payload = json.dumps(
            {"detail": f"The request body is too large; the limit is {limit_kb} KB."}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
