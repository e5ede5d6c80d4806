"""Event streams: `GET /api/games/{id}/events` sends a seat everything it may see of its
game as it happens, as Server-Sent Events.

Each message is the game as the caller's seat sees it (the same JSON as every answer), with
the events since the last message; its id is the game's move count, so a browser that
reconnects with `Last-Event-ID` gets exactly the moves it missed. Moves reach the stream
through the process's `Hub` (fed by this process's own moves and, on PostgreSQL, by every
other process's through LISTEN/NOTIFY); table news (people joining, going away, coming back,
reacting) comes as a message of kind `table` with the same id.

A message of kind `ping` every `PING` seconds (data: `{"every": seconds}`) keeps proxies
from closing a quiet stream and asks the page to say it is still here: it answers each with
`POST /api/games/{id}/here`. The stream's own pings prove nothing of the person (a phone gone
offline leaves the socket open, and pings go into it unread for many minutes), so a person
whose page has not answered for `service.QUIET_BEATS` pings is shown to the others as
reconnecting; a page that has heard nothing for two pings and a little more says it is
reconnecting and opens its stream again. After each ping the stream reads the table (the
others' marks), which is also when it checks that its browser still holds the seat.

While the store does not answer (PostgreSQL restarting), a stream stays open and says so
once with a message of kind `reconnecting` (data: the sentence a 503 carries); when the
store answers again it sends the whole state (kind `state`, with the events since the last
message), which also says the game is live again. A stream opened while the store is away
gets that `reconnecting` message and ends: a 503 would make a browser's EventSource give up
for good, where an ended stream is reopened by it after `retry` with its Last-Event-ID.

A stream is for the browser that holds its seat: when the seat stops being that browser's
(it left the table before it started, in another tab or by the API, and the seat went back
to the invitation), the stream says so once with a message of kind `left` (data: a sentence)
and ends, and sends nothing more: the next holder's hand is theirs alone, and neither this
stream's end counts as theirs. Each time the stream reads the table it checks who holds the
seat, and the table is read before anything is sent after a ping or news. Between reads the
holder cannot change unseen: every change of who sits where is table news (the `Hub`, and
NOTIFY from other processes), which makes the stream read the table before it sends
anything, so a ping reads the table once (not once for the seat and once for the news).

A message's id never passes a move whose events the stream has not sent: moves go out
before table news, so a reconnect's Last-Event-ID loses nothing.

The news a stream hears is the number of actions stored (the `Hub`'s and NOTIFY's counts):
the moves, and in a game against computer players its take-backs too. A take-back makes the
move count smaller while the stored count grows, so the stream sends the whole state whenever
the stored count moved, even when the move count is the same as shown (a take-back and a
different card since). Its id is the move count as ever; after a take-back a browser
reconnecting with an older id gets the whole state (events only of moves it has not seen).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import StreamingResponse

from .api import REFUSALS, BrowserCookie, Service, _owner, refused
from .notify import STOPPING, Follower
from .service import HEARTBEAT, GameService, Refusal
from .store import Seating
from .stores import UNAVAILABLE, StoreUnavailable

router = APIRouter(prefix="/api")
#: Seconds between keep-alive comments on a quiet stream (each notes the person as here).
PING = HEARTBEAT
#: Milliseconds a browser waits before reconnecting a dropped stream.
RETRY_MS = 2000
#: What a stream says as it ends because its browser no longer holds the seat.
SEAT_LEFT = (
    "You left this table on another page, so your seat is open again: the invitation's link"
    " can bring someone else to it."
)


def message(state: dict[str, Any], kind: str = "state") -> bytes:
    data = json.dumps(state, separators=(",", ":"))
    return f"id: {state['move']}\nevent: {kind}\ndata: {data}\n\n".encode()


def ping_message(every: float) -> bytes:
    """The ping: the page answers it with `POST .../here`, and expects the next within
    `every` seconds."""
    return f"event: ping\ndata: {json.dumps({'every': every})}\n\n".encode()


def notice(kind: str, detail: str) -> bytes:
    """A message with a sentence and no state: `reconnecting` or `gone`."""
    return f"event: {kind}\ndata: {json.dumps({'detail': detail})}\n\n".encode()


def last_event_id(header: str | None, since: int | None) -> int | None:
    """The move count a reconnecting browser has seen (the header wins over `since`)."""
    if header is not None:
        header = header.strip()
        return int(header) if header.isdigit() and len(header) < 10 else None
    return since


def ping_seconds(request: Request) -> float:
    settings = getattr(request.app.state, "settings", None)
    return float(getattr(settings, "stream_ping", PING))


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
            iter([f"retry: {RETRY_MS}\n\n".encode(), notice("reconnecting", UNAVAILABLE)]),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store"},
        )
    except BaseException:
        hub.unfollow(follower)
        raise
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    table, stored, seat = seated.loaded.table, seated.loaded.stored, seated.seat

    def holds(seating: Seating) -> bool:
        return table.seat_of(stored, seating, owner) == seat

    stream = _stream(
        games,
        seat,
        state,
        seated.seating,
        follower,
        ping_seconds(request),
        seated.loaded.recorded,
        holds,
    )
    return StreamingResponse(stream, media_type="text/event-stream", headers=headers)


async def _stream(
    games: GameService,
    seat: int,
    state: dict[str, Any],
    seating: Seating,
    follower: Follower,
    ping: float,
    recorded: int | None = None,
    holds: Callable[[Seating], bool] = lambda seating: True,
) -> AsyncIterator[bytes]:
    game_id = state["id"]
    shown = state["move"]
    # Stored actions (moves and take-backs): heard of, and in the state last sent.
    told = heard = shown if recorded is None else recorded
    behind = False  # moves or table news came that could not be read yet
    table_behind = False
    # When the table was last read: who is here and the turn clock's deadline are worked out
    # from the others' heartbeats, so a message never uses a table older than a ping.
    table_read = time.monotonic()
    away = False  # the database did not answer: said once, until it does again
    kept = True  # the seat is still this stream's browser's (see the module's note)
    games.stream_opened(game_id, seat)
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        yield message(state)
        while True:
            try:
                news = await asyncio.wait_for(follower.next(), RETRY_MS / 1000 if away else ping)
            except TimeoutError:
                news = -1  # nothing new: a ping, or (while away) another try
            if news == STOPPING:
                return  # the server is stopping: the browser reconnects to another
            try:
                if away:
                    # Back only once the store answers: a state made from this process's
                    # memory meanwhile told the browser all was well while it was not.
                    if not holds(await games.seating(game_id)):
                        kept = False
                        break
                    await games.seen(game_id, seat)
                if news == -1 and not away:
                    yield ping_message(ping)
                    table_behind = True  # the others' heartbeats, for the next message
                if news is not None and news > told:
                    told = news
                behind = behind or told > heard or away
                table_behind = table_behind or news is None or away
                if behind and time.monotonic() - table_read >= ping:
                    # Who is here, and when the turn clock runs out, are worked out from the
                    # others' heartbeats, which are not news: moves come quicker than pings,
                    # so before sending some, a table read a ping ago takes the latest ones.
                    seating = await games.heartbeats(game_id, seating)
                    table_read = time.monotonic()
                # Moves and a change at the table both unread: who holds the seat is checked
                # before the moves go out, not only after.
                if (
                    behind
                    and table_behind
                    and news is None
                    and not holds(await games.seating(game_id))
                ):
                    kept = False
                    break
                if behind:  # moves first: see the module's note on ids
                    seated, update = await games.moved(game_id, seat, shown, told, seating)
                    seating, behind = seated.seating, False
                    if not holds(seating):
                        kept = False
                        break
                    moved_on = seated.loaded.recorded != heard
                    if update["move"] != shown or moved_on or away:
                        shown, heard = update["move"], seated.loaded.recorded
                        yield message(update)
                if table_behind:
                    seating, news_state = await games.table_news(game_id, seat, seating)
                    table_read, table_behind = time.monotonic(), False
                    if news_state is not None and news_state["move"] > shown:
                        # Moves were stored while the news was read: their events first.
                        seated, update = await games.moved(game_id, seat, shown, told, seating)
                        if not holds(seating) or not holds(seated.seating):
                            kept = False
                            break
                        seating, shown = seated.seating, update["move"]
                        heard = seated.loaded.recorded
                        yield message(update)
                        notices = [{**event, "n": shown} for event in news_state["events"]]
                        news_state = {**update, "events": notices}
                    if not holds(seating):
                        kept = False
                        break
                    if news_state is not None:
                        yield message(news_state, "table")
                away = False
            except StoreUnavailable:
                if not away:
                    away = True
                    yield notice("reconnecting", UNAVAILABLE)
        if not kept:
            yield notice("left", SEAT_LEFT)
    except Refusal as refusal:
        # The game is gone (expired or closed): say so once and end the stream.
        yield notice("gone", refusal.reason)
    finally:
        games.hub.unfollow(follower)
        games.stream_closed(game_id, seat, kept)
