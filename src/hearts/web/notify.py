"""Live updates across processes: a move stored by any `hearts serve` process is announced in
every other one, through PostgreSQL's own LISTEN/NOTIFY (no extra broker).

The PostgreSQL store sends `NOTIFY hearts_moves, '<game id> <move count>'` in the same
transaction that stores the moves (and `'<game id> table'` when the people at a table
change: someone joined, went away, came back or reacted), so an announcement goes out only
for moves that are stored, and in the order they were committed. In each process one
`Listener` holds a connection that LISTENs on that channel and feeds a `Hub`; whatever in
the process follows a game (the event streams, `hearts.web.live`) calls `hub.follow` and
gets move counts, each larger than the last: none doubled, none skipped over (a follower
that falls behind gets the latest count, from which it reads the moves), and None for
table news (coalesced: a follower is told once until it looks).

When the listening connection is lost (PostgreSQL restarted), the listener reconnects and
catches up from the stored moves: each followed game's count is read from the store and
announced if it moved on while no notification could arrive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from .logs import Outage
from .stores import reason

CHANNEL = "hearts_moves"
log = logging.getLogger("hearts.web")


@dataclass(eq=False)
class Follower:
    """One follower of one game: `await follower.next()` gives what is new."""

    game_id: str
    last: int = -1
    queue: asyncio.Queue[int | None] = field(default_factory=asyncio.Queue)
    poked: bool = False

    async def next(self) -> int | None:
        """The next move count, None when the table changed, or `STOPPING`."""
        news = await self.queue.get()
        if news is None:
            self.poked = False
        return news


#: What a follower hears when the server is stopping: its stream ends (the browser
#: reconnects, with its Last-Event-ID, to whichever process is up).
STOPPING = -2


class Hub:
    """In-process fan-out of move counts and table news to the followers of each game."""

    def __init__(self) -> None:
        self._followers: dict[str, set[Follower]] = {}
        self.stopping = False

    def stop(self) -> None:
        """The server is stopping: every follower, and any that follows from now on, hears
        `STOPPING`. An open event stream never ends by itself, and once held every stop
        for the whole graceful wait, then was cancelled with an error and a traceback."""
        self.stopping = True
        for followers in self._followers.values():
            for follower in followers:
                follower.queue.put_nowait(STOPPING)

    def games(self) -> list[str]:
        """The games someone in this process follows."""
        return list(self._followers)

    def followers(self, game_id: str) -> int:
        return len(self._followers.get(game_id, ()))

    def publish(self, game_id: str, moves: int) -> None:
        """Announce that `game_id` now has `moves` moves (repeats and older counts are
        dropped per follower, so a catch-up after a reconnect never doubles one)."""
        for follower in self._followers.get(game_id, ()):
            if moves > follower.last:
                follower.last = moves
                follower.queue.put_nowait(moves)

    def poke(self, game_id: str) -> None:
        """Announce that the people at `game_id`'s table changed."""
        for follower in self._followers.get(game_id, ()):
            if not follower.poked:
                follower.poked = True
                follower.queue.put_nowait(None)

    def follow(self, game_id: str, since: int = -1) -> Follower:
        """Start following `game_id` from move count `since`; `unfollow` when done."""
        follower = Follower(game_id, last=since)
        self._followers.setdefault(game_id, set()).add(follower)
        if self.stopping:
            follower.queue.put_nowait(STOPPING)
        return follower

    def unfollow(self, follower: Follower) -> None:
        followers = self._followers.get(follower.game_id)
        if followers is not None:
            followers.discard(follower)
            if not followers:
                del self._followers[follower.game_id]

    async def subscribe(self, game_id: str, since: int = -1) -> AsyncIterator[int]:
        """Move counts of `game_id` above `since`, as they are stored, until closed."""
        follower = self.follow(game_id, since)
        try:
            while True:
                news = await follower.next()
                if news == STOPPING:
                    return
                if news is not None:
                    yield news
        finally:
            self.unfollow(follower)


def parse(payload: str) -> tuple[str, int | None] | None:
    """'<game id> <moves>' -> (game id, moves); '<game id> table' -> (game id, None); None
    for anything else."""
    game_id, _, news = payload.rpartition(" ")
    if not game_id or not (news.isdigit() or news == "table"):
        return None
    return game_id, None if news == "table" else int(news)


class Listener:
    """LISTENs on `CHANNEL` at `url` and feeds `hub`, reconnecting after a lost connection
    and catching up with `moves_of(game_id)` (the store's count, or None)."""

    def __init__(
        self,
        url: str,
        hub: Hub,
        moves_of: Callable[[str], int | None],
        retry: float = 1.0,
        outage: Outage | None = None,
    ) -> None:
        self.url = url
        self.outage = outage
        self.hub = hub
        self.moves_of = moves_of
        self.retry = retry
        #: Set while the connection is listening (tests and health checks wait on it).
        self.listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=3, application_name="hearts listen"
                ) as db:
                    await db.execute(f"LISTEN {CHANNEL}")
                    if self.outage is not None:
                        self.outage.answered()
                    if not first:
                        await self._catch_up()
                    first = False
                    self.listening.set()
                    async for note in db.notifies():
                        parsed = parse(note.payload)
                        if parsed is None:
                            continue
                        game_id, moves = parsed
                        if moves is None:
                            self.hub.poke(game_id)
                        else:
                            self.hub.publish(game_id, moves)
            except psycopg.OperationalError as error:
                if self.listening.is_set():
                    # A connection that was listening, ended (PostgreSQL's
                    # idle_session_timeout, a firewall, an administrator): another at once,
                    # and no absence of the database unless that one fails too.
                    self.listening.clear()
                    log.info(
                        "live updates: PostgreSQL closed the listening connection (%s);"
                        " listening on a new one",
                        reason(error),
                    )
                    continue
                if self.outage is not None:
                    self.outage.failed()
                log.warning("live updates: reconnecting to PostgreSQL (%s)", reason(error))
            self.listening.clear()
            await asyncio.sleep(self.retry)

    async def _catch_up(self) -> None:
        """What was stored while nobody listened: each followed game's count from the store."""
        for game_id in self.hub.games():
            moves = await asyncio.to_thread(self.moves_of, game_id)
            if moves is not None:
                self.hub.publish(game_id, moves)
            self.hub.poke(game_id)


def live_updates(store: object) -> tuple[Hub, Listener | None]:
    """The process's hub, and for a PostgreSQL store the listener that feeds it (started
    and stopped with the app). With SQLite there is one process and no listener."""
    hub = Hub()
    url = getattr(store, "url", None)
    moves_of = getattr(store, "moves", None)
    if not isinstance(url, str) or moves_of is None:
        return hub, None
    return hub, Listener(url, hub, moves_of, outage=getattr(store, "outage", None))
