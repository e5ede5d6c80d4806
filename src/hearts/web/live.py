"""Event streams: `GET /api/games/{id}/events` sends a seat everything it may see of its
game as it happens, as Server-Sent Events.

Each message is the game as the caller's seat sees it (the same JSON as every answer), with
the events since the last message; its id is the game's move count, so a browser that
reconnects with `Last-Event-ID` gets exactly the moves it missed. Moves reach the stream
through the process's `Hub` (fed by this process's own moves and, on PostgreSQL, by every
other process's through LISTEN/NOTIFY); table news (people joining, going away, coming back,
reacting) comes as a message of kind `table` with the same id.

A comment line every `PING` seconds keeps proxies from closing a quiet stream and tells the
table the person is still here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import StreamingResponse

from .api import REFUSALS, BrowserCookie, Service, _owner, refused
from .service import GameService, Refusal

router = APIRouter(prefix="/api")
#: Seconds between keep-alive comments on a quiet stream.
PING = 15.0
#: Milliseconds a browser waits before reconnecting a dropped stream.
RETRY_MS = 2000


def message(state: dict[str, Any], kind: str = "state") -> bytes:
    data = json.dumps(state, separators=(",", ":"))
    return f"id: {state['move']}\nevent: {kind}\ndata: {data}\n\n".encode()


def last_event_id(header: str | None, since: int | None) -> int | None:
    """The move count a reconnecting browser has seen (the header wins over `since`)."""
    if header is not None:
        header = header.strip()
        return int(header) if header.isdigit() and len(header) < 10 else None
    return since


def ping_seconds(request: Request) -> float:
    value = getattr(request.app.state, "stream_ping", PING)
    return float(value)


@router.get(
    "/games/{game_id}/events",
    responses={**REFUSALS, 200: {"content": {"text/event-stream": {}}}},
    response_class=StreamingResponse,
)
async def events(
    game_id: str,
    request: Request,
    games: Service,
    cookie: BrowserCookie = None,
    last_event: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
    since: int | None = None,
) -> Any:
    """Everything the caller's seat may see of the game, live, as Server-Sent Events."""
    owner = _owner(cookie)
    hub = games.hub
    follower = hub.follow(game_id)
    try:
        seated, state = await games.opening(game_id, owner, last_event_id(last_event, since))
    except Refusal as refusal:
        hub.unfollow(follower)
        return refused(refusal)
    except BaseException:
        hub.unfollow(follower)
        raise
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    stream = _stream(games, seated.seat, state, seated.seating, follower, ping_seconds(request))
    return StreamingResponse(stream, media_type="text/event-stream", headers=headers)


async def _stream(
    games: GameService,
    seat: int,
    state: dict[str, Any],
    seating: Any,
    follower: Any,
    ping: float,
) -> AsyncIterator[bytes]:
    game_id = state["id"]
    shown = state["move"]
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        yield message(state)
        while True:
            try:
                news = await asyncio.wait_for(follower.next(), ping)
            except TimeoutError:
                yield b": ping\n\n"
                await games.seen(game_id, seat)
                continue
            if news is None:
                seating, update = await games.table_news(game_id, seat, seating)
                if update is not None:
                    yield message(update, "table")
            elif news > shown:
                seated, update = await games.moved(game_id, seat, shown)
                seating = seated.seating
                shown = update["move"]
                yield message(update)
    except Refusal as refusal:
        # The game is gone (expired or closed): say so once and end the stream.
        yield f"event: gone\ndata: {json.dumps({'detail': refusal.reason})}\n\n".encode()
    finally:
        games.hub.unfollow(follower)
