"""The event stream's own order (`hearts.web.live._stream`), against a stand-in referee: a
message's id is the move count a browser sends back as Last-Event-ID when it reconnects, so
no message may carry an id before every move up to it has been sent as events."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from hearts.web import live
from hearts.web.notify import Hub
from hearts.web.stores import StoreUnavailable


@dataclass
class Seated:
    seating: str
    #: The game as the referee holds it: five actions stored.
    loaded: Any = field(default_factory=lambda: SimpleNamespace(recorded=5))


class Streams:
    """What every stand-in does as the service does: count the streams open per seat."""

    def stream_opened(self, game_id: str, seat: int) -> None:
        self.open = getattr(self, "open", 0) + 1

    def stream_closed(self, game_id: str, seat: int, kept: bool = True) -> None:
        self.open -= 1
        self.kept = kept

    async def seating(self, game_id: str) -> Any:
        """The table as stored now: only who holds the seat is asked of it (`holds`)."""
        return "held"


class Referee(Streams):
    """Two moves (4 and 5) are stored while a reaction's table news is being read, so the
    table news is made from the game at move 5 though the stream has shown only 3."""

    def __init__(self) -> None:
        self.hub = Hub()

    async def table_news(self, game_id: str, seat: int, before: Any) -> tuple[str, Any]:
        notice = {"type": "reaction", "seat": 1, "reaction": "nice", "n": 5}
        return "after", {"id": game_id, "move": 5, "events": [notice]}

    async def moved(
        self, game_id: str, seat: int, shown: int, told: int, seating: Any
    ) -> tuple[Seated, Any]:
        plays: list[dict[str, Any]] = [
            {"type": "play", "seat": 2, "card": "2C", "n": 4},
            {"type": "play", "seat": 3, "card": "3C", "n": 5},
        ]
        return Seated("after"), {
            "id": game_id,
            "move": 5,
            "events": [e for e in plays if e["n"] > shown],
        }

    async def seen(self, game_id: str, seat: int) -> None:
        return None


def messages(chunks: list[bytes]) -> list[tuple[int, str, dict[str, Any]]]:
    found = []
    for chunk in chunks:
        fields = dict(line.split(": ", 1) for line in chunk.decode().splitlines() if ": " in line)
        if "id" in fields:
            found.append((int(fields["id"]), fields["event"], json.loads(fields["data"])))
    return found


async def read_until(stream: Any, last: int, most: int) -> list[bytes]:
    """The stream's chunks until a message numbered `last` (or `most` chunks), then closed."""
    chunks: list[bytes] = []
    async for chunk in stream:
        chunks.append(chunk)
        if any(ident == last for ident, _, _ in messages(chunks)) or len(chunks) > most:
            break
    await stream.aclose()
    return chunks


def test_no_message_is_numbered_past_the_moves_it_has_sent() -> None:
    async def run() -> list[bytes]:
        games = Referee()
        follower = games.hub.follow("g", since=3)
        games.hub.poke("g")  # the reaction first, then the moves' announcement
        games.hub.publish("g", 5)
        start = {"id": "g", "move": 3, "events": []}
        stream: Any = live._stream(games, 0, start, "before", follower, ping=5.0)  # type: ignore[arg-type]
        chunks = []
        async for chunk in stream:
            assert games.open == 1  # the service knows the person's page is open
            chunks.append(chunk)
            if len(messages(chunks)) == 3 or len(chunks) > 6:
                break
        await stream.aclose()
        assert games.open == 0  # and that it closed
        return chunks

    sent = messages(asyncio.run(run()))
    delivered: set[int] = set()
    for ident, kind, data in sent:
        delivered |= {e["n"] for e in data["events"] if e["type"] == "play"}
        # A browser cut off here reconnects with `ident`: every move up to it is delivered.
        assert {4, 5} & set(range(ident + 1)) <= delivered, (ident, kind, sent)
    kinds = [kind for _, kind, _ in sent]
    assert kinds == ["state", "state", "table"], kinds
    assert sent[2][2]["events"][0]["type"] == "reaction"


class TakenBack(Streams):
    """A game at move 5 (5 actions stored) in which a card was taken back and another played:
    7 actions stored, and the game at move 5 again, in another position."""

    def __init__(self) -> None:
        self.hub = Hub()

    async def moved(
        self, game_id: str, seat: int, shown: int, told: int, seating: Any
    ) -> tuple[Seated, Any]:
        state = {"id": game_id, "move": 5, "events": [], "view": {"hand": ["2C"]}}
        return Seated("after", SimpleNamespace(recorded=7)), state

    async def seen(self, game_id: str, seat: int) -> None:
        return None


def test_a_take_back_and_another_card_reach_the_stream_at_the_same_move_count() -> None:
    async def run() -> list[bytes]:
        games = TakenBack()
        follower = games.hub.follow("g", since=5)
        games.hub.publish("g", 7)
        start = {"id": "g", "move": 5, "events": [], "view": {"hand": ["2C", "QS"]}}
        stream: Any = live._stream(games, 0, start, "before", follower, 5.0, 5)  # type: ignore[arg-type]
        chunks = []
        async for chunk in stream:
            chunks.append(chunk)
            if len(messages(chunks)) == 2 or len(chunks) > 4:
                break
        await stream.aclose()
        return chunks

    sent = messages(asyncio.run(run()))
    assert [(ident, data["view"]["hand"]) for ident, _, data in sent] == [
        (5, ["2C", "QS"]),
        (5, ["2C"]),
    ]


class Heartbeats(Streams):
    """A table where nothing happens for a while (the others' pages only send heartbeats,
    which are not news), then a card is played."""

    def __init__(self) -> None:
        self.hub = Hub()
        self.reads = 0
        self.moved_with: list[Any] = []

    async def table_news(self, game_id: str, seat: int, before: Any) -> tuple[str, Any]:
        self.reads += 1
        if self.reads == 1:
            self.hub.publish(game_id, 4)  # the card comes after the first quiet spell
        return f"read {self.reads}", None

    async def moved(
        self, game_id: str, seat: int, shown: int, told: int, seating: Any
    ) -> tuple[Seated, Any]:
        self.moved_with.append(seating)
        play = {"type": "play", "seat": 2, "card": "2C", "n": 4}
        return Seated(seating), {"id": game_id, "move": 4, "events": [play]}

    async def heartbeats(self, game_id: str, seating: Any) -> Any:
        return seating


def test_a_quiet_stream_reads_the_table_again_before_its_next_message() -> None:
    # Who is here, and the turn clock's deadline, are worked out from the others'
    # heartbeats: a message made from the table as it was when the stream opened said that
    # everyone had gone once 40 seconds had passed, and counted the clock down from then.
    async def run() -> Heartbeats:
        games = Heartbeats()
        follower = games.hub.follow("g", since=3)
        start = {"id": "g", "move": 3, "events": []}
        stream: Any = live._stream(games, 0, start, "opened", follower, ping=0.01)  # type: ignore[arg-type]
        await read_until(stream, 4, 20)
        return games

    games = asyncio.run(run())
    assert games.moved_with and games.moved_with[0] != "opened", games.moved_with
    assert str(games.moved_with[0]).startswith("read "), games.moved_with


class Outage(Streams):
    """The database goes away after the stream opens and is back after a few tries; the
    game itself is in this process's memory, so a state can be made without it."""

    def __init__(self, tries: int) -> None:
        self.hub = Hub()
        self.down = tries  # store calls that fail before it is back

    def _store(self) -> None:
        if self.down > 0:
            self.down -= 1
            raise StoreUnavailable()

    async def table_news(self, game_id: str, seat: int, before: Any) -> tuple[str, Any]:
        self._store()
        return "after", None

    async def moved(
        self, game_id: str, seat: int, shown: int, told: int, seating: Any
    ) -> tuple[Seated, Any]:
        return Seated(seating, SimpleNamespace(recorded=3)), {
            "id": game_id,
            "move": 3,
            "events": [],
        }

    async def seen(self, game_id: str, seat: int) -> None:
        self._store()

    async def seating(self, game_id: str) -> Any:
        self._store()
        return "held"

    async def heartbeats(self, game_id: str, seating: Any) -> Any:
        self._store()
        return seating


def test_a_stream_stays_reconnecting_until_the_store_answers() -> None:
    # Every retry while the database was away sent a state made from memory, and the
    # browser took it for the connection back ("Reconnecting…" went after 2 s of 40).
    async def run() -> tuple[list[str], Outage]:
        games = Outage(tries=4)
        follower = games.hub.follow("g", since=3)
        games.hub.poke("g")  # table news: read, and the database is away
        start = {"id": "g", "move": 3, "events": []}
        stream: Any = live._stream(games, 0, start, "opened", follower, ping=0.01)  # type: ignore[arg-type]
        kinds: list[str] = []
        async for chunk in stream:
            for line in chunk.decode().splitlines():
                if line.startswith("event: "):
                    kinds.append(line.removeprefix("event: "))
            if (games.down == 0 and kinds[-1:] == ["state"]) or len(kinds) > 8:
                break
        await stream.aclose()
        return kinds, games

    with_retry = live.RETRY_MS
    live.RETRY_MS = 10
    try:
        kinds, games = asyncio.run(run())
    finally:
        live.RETRY_MS = with_retry
    assert games.down == 0, "the stream gave up before the store was back"
    # The first state, then "reconnecting" once, then nothing until the store answers.
    assert kinds == ["state", "reconnecting", "state"], kinds


class BusyTable(Streams):
    """Cards played one after another, quicker than the stream's pings; the table as read
    from the store is numbered, to tell which one a message was made from."""

    def __init__(self) -> None:
        self.hub = Hub()
        self.reads = 0
        self.moved_with: list[Any] = []

    async def heartbeats(self, game_id: str, seating: Any) -> str:
        self.reads += 1
        return f"beats {self.reads}"

    async def table_news(self, game_id: str, seat: int, before: Any) -> tuple[Any, Any]:
        return before, None

    async def moved(
        self, game_id: str, seat: int, shown: int, told: int, seating: Any
    ) -> tuple[Seated, Any]:
        self.moved_with.append(seating)
        return Seated(seating, SimpleNamespace(recorded=told)), {
            "id": game_id,
            "move": told,
            "events": [{"type": "play", "seat": told % 4, "card": "2C", "n": told}],
        }

    async def seen(self, game_id: str, seat: int) -> None:
        return None


def test_a_busy_table_is_read_again_between_moves_at_least_once_a_ping() -> None:
    # Moves came quicker than the pings, so the table was only read at a quiet moment:
    # after 40 s of brisk play every page showed the others as gone, and the turn clock
    # counted down from heartbeats a minute old.
    async def run() -> BusyTable:
        games = BusyTable()
        follower = games.hub.follow("g", since=3)

        async def play() -> None:
            for move in range(4, 40):
                games.hub.publish("g", move)
                await asyncio.sleep(0.01)

        player = asyncio.create_task(play())
        start = {"id": "g", "move": 3, "events": []}
        stream: Any = live._stream(games, 0, start, "opened", follower, ping=0.1)  # type: ignore[arg-type]
        await read_until(stream, 39, 60)
        await player
        return games

    games = asyncio.run(run())
    assert games.moved_with, "no move was sent"
    read = [seating for seating in games.moved_with if str(seating).startswith("beats ")]
    assert read, games.moved_with  # about one read in every ten moves
    assert games.reads < len(games.moved_with), (games.reads, len(games.moved_with))


class SeatTaken(Streams):
    """The stream's browser left the table before it started, and someone else took the
    seat: the table as stored now has another holder."""

    def __init__(self) -> None:
        self.hub = Hub()
        self.heartbeats_written = 0

    async def seating(self, game_id: str) -> Any:
        return "taken"

    async def table_news(self, game_id: str, seat: int, before: Any) -> tuple[str, Any]:
        hand = {"id": game_id, "move": 0, "events": [], "view": {"hand": ["theirs"]}}
        return "taken", hand

    async def seen(self, game_id: str, seat: int) -> None:
        self.heartbeats_written += 1


def left_notices(chunks: list[bytes]) -> list[str]:
    return [
        json.loads(chunk.decode().split("data: ", 1)[1])["detail"]
        for chunk in chunks
        if chunk.startswith(b"event: left\n")
    ]


def test_a_stream_whose_seat_went_to_someone_else_ends_without_their_hand() -> None:
    # A friend who left the lobby in one tab kept the seat's stream in another: it went on
    # sending the seat's own view, the next holder's hand, and its pings and its end counted
    # as the new holder's being here and going.
    def holds(seating: str) -> bool:
        return seating != "taken"

    async def run(news: bool) -> tuple[SeatTaken, list[bytes]]:
        games = SeatTaken()
        follower = games.hub.follow("g", since=0)
        if news:
            games.hub.poke("g")  # the seat given back: table news
        start = {"id": "g", "move": 0, "events": []}
        stream: Any = live._stream(games, 1, start, "opened", follower, 0.01, None, holds)  # type: ignore[arg-type]
        chunks = [chunk async for chunk in stream]  # it ends by itself
        return games, chunks

    for news in (True, False):  # told by table news, or found at a ping
        games, chunks = asyncio.run(run(news))
        assert not any(b"theirs" in chunk for chunk in chunks), chunks
        assert left_notices(chunks) == [live.SEAT_LEFT], chunks
        assert chunks[-1].startswith(b"event: left\n")
        assert games.heartbeats_written == 0
        assert games.open == 0 and games.kept is False
