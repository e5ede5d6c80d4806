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

While the store does not answer (PostgreSQL restarting), a stream stays open and says so
once with a message of kind `reconnecting` (data: the sentence a 503 carries); when the
store answers again it sends the whole state (kind `state`, with the events since the last
message), which also says the game is live again. A stream opened while the store is away
gets that `reconnecting` message and ends: a 503 would make a browser's EventSource give up
for good, where an ended stream is reopened by it after `retry` with its Last-Event-ID.
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
from .stores import UNAVAILABLE, StoreUnavailable

router = APIRouter(prefix="/api")
#: Seconds between keep-alive comments on a quiet stream.
PING = 15.0
#: Milliseconds a browser waits before reconnecting a dropped stream.
RETRY_MS = 2000
#: Seconds between tries of a stream whose store does not answer.
RETRY_STORE = 1.0


def message(state: dict[str, Any], kind: str = "state") -> bytes:
    data = json.dumps(state, separators=(",", ":"))
    return f"id: {state['move']}\nevent: {kind}\ndata: {data}\n\n".encode()


#: What a stream says while the store does not answer.
RECONNECTING = f"event: reconnecting\ndata: {json.dumps({'detail': UNAVAILABLE})}\n\n".encode()


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
    except StoreUnavailable:
        hub.unfollow(follower)
        return StreamingResponse(
            iter([f"retry: {RETRY_MS}\n\n".encode(), RECONNECTING]),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store"},
        )
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
    away = False  # the store stopped answering; the stream said so
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        yield message(state)
        while True:
            try:
                if away:  # try again until the store answers; then the whole state
                    await asyncio.sleep(RETRY_STORE)
                    seated, update = await games.moved(game_id, seat, shown)
                    seating, shown, away = seated.seating, update["move"], False
                    yield message(update)
                    continue
                try:
                    news = await asyncio.wait_for(follower.next(), ping)
                except TimeoutError:
                    yield b": ping\n\n"
                    await games.seen(game_id, seat)
                    continue
                if news is None:
                    seating, notice = await games.table_news(game_id, seat, seating)
                    if notice is not None and notice["move"] > shown:
                        # Moves were stored while the news was read: their events first,
                        # so no id (a reconnect's Last-Event-ID) passes an unsent move.
                        seated, update = await games.moved(game_id, seat, shown)
                        seating, shown = seated.seating, update["move"]
                        yield message(update)
                        events = [{**event, "n": shown} for event in notice["events"]]
                        notice = {**update, "events": events}
                    if notice is not None:
                        yield message(notice, "table")
                elif news > shown:
                    seated, update = await games.moved(game_id, seat, shown)
                    seating = seated.seating
                    shown = update["move"]
                    yield message(update)
            except StoreUnavailable:
                if not away:
                    away = True
                    yield RECONNECTING
    except Refusal as refusal:
        # The game is gone (expired or closed): say so once and end the stream.
        yield f"event: gone\ndata: {json.dumps({'detail': refusal.reason})}\n\n".encode()
    finally:
        games.hub.unfollow(follower)
