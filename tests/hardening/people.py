"""People at a live table over real HTTP: each person is an `httpx.AsyncClient` (its own
cookie jar) holding its seat's event stream (`GET /api/games/{id}/events`), and plays only
from what that stream shows it.

Every message a stream delivers is kept (across reconnects), and every answer the person
got, so a test can hold them against the stored record afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from .driver import choose_action

State = dict[str, Any]
#: Phases in which a seat named in `table.waiting_on` has a move to make.
#: Phases in which a person waited on acts (at a round's end each person asks for the next).
MOVING = frozenset({"passing", "playing", "moon-choice", "round-over"})


@dataclass
class Message:
    """One Server-Sent Event: its id (the move count), kind and data."""

    id: int | None
    kind: str
    data: dict[str, Any]


@dataclass
class Opening:
    """A stream opened: the Last-Event-ID it sent and the first message it got."""

    since: int | None
    first: Message


@dataclass
class Person:
    base_url: str
    name: str
    client: httpx.AsyncClient = field(init=False)
    game_id: str = ""
    seat: int = -1
    messages: list[Message] = field(default_factory=list)
    openings: list[Opening] = field(default_factory=list)
    answers: list[tuple[str, int, Any]] = field(default_factory=list)
    """(url, status, body) of every request the person made."""
    sent: list[tuple[str, dict[str, Any], int]] = field(default_factory=list)
    """(url, body, status) of every POST answered."""
    state: State | None = None
    """The newest state the stream showed."""
    seated: State | None = None
    """The answer that seated the person (creating or joining): its events are what the
    person saw before the stream opened (which it opens from that answer's move)."""
    last_id: int | None = None
    reconnects: bool = False
    """Whether the stream ending is expected (a test kills the server and reopens it)."""
    lost: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """Moves sent whose answers never came (the server died)."""
    ended: BaseException | None = None
    """Why the stream ended, if it did by itself (the server killed, say)."""
    _news: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None
    _first: asyncio.Future[Message] | None = None

    def __post_init__(self) -> None:
        self.client = httpx.AsyncClient(base_url=self.base_url, timeout=60)

    # --- requests ----------------------------------------------------------------------

    async def post(self, url: str, body: dict[str, Any]) -> httpx.Response:
        answer = await self.client.post(url, json=body)
        self.answers.append((url, answer.status_code, _body(answer)))
        self.sent.append((url, body, answer.status_code))
        return answer

    async def get(self, url: str) -> httpx.Response:
        answer = await self.client.get(url)
        self.answers.append((url, answer.status_code, _body(answer)))
        return answer

    async def create(self, seats: list[str], rules: dict[str, Any]) -> State:
        body = {"seats": seats, "rules": rules, "name": self.name, "turn_time": 0}
        answer = await self.post("/api/games", {**body, "hold_time": 3600})
        assert answer.status_code == 201, answer.text
        state: State = answer.json()
        self.game_id, self.seat = state["id"], state["table"]["seat"]
        self.seated = state
        return state

    async def join(self, made: State) -> State:
        token = made["table"]["invite"].split("#invite=", 1)[1]
        body = {"invite": token, "name": self.name}
        answer = await self.post(f"/api/games/{made['id']}/join", body)
        assert answer.status_code == 200, answer.text
        state: State = answer.json()
        self.game_id, self.seat = state["id"], state["table"]["seat"]
        self.seated = state
        return state

    # --- the stream --------------------------------------------------------------------

    async def open_stream(
        self, since: int | None = None, timeout: float = 30, header: bool = True
    ) -> Message:
        """Open the seat's stream (with `Last-Event-ID: since` when given, or `?since=`
        without `header`, as a page opens its first stream); the first message, once it
        has come."""
        assert self._task is None, "the stream is open already"
        self._first = asyncio.get_running_loop().create_future()
        self.ended = None
        self._task = asyncio.create_task(self._read(since, header))
        first = await asyncio.wait_for(asyncio.shield(self._first), timeout)
        self.openings.append(Opening(since, first))
        return first

    async def close_stream(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _read(self, since: int | None, header: bool) -> None:
        headers = {"Accept": "text/event-stream"}
        url = f"/api/games/{self.game_id}/events"
        if since is not None and header:
            headers["Last-Event-ID"] = str(since)
        elif since is not None:
            url += f"?since={since}"
        timeout = httpx.Timeout(60, read=None)
        try:
            async with self.client.stream("GET", url, headers=headers, timeout=timeout) as got:
                if got.status_code != 200:
                    await got.aread()
                    raise AssertionError(f"stream {got.status_code}: {got.text}")
                fields: dict[str, str] = {}
                async for line in got.aiter_lines():
                    if line:
                        if not line.startswith(":"):
                            key, _, value = line.partition(":")
                            fields[key] = value.removeprefix(" ")
                        continue
                    if "data" in fields:
                        self._receive(fields)
                    fields = {}
            raise ConnectionError("the stream ended")
        except asyncio.CancelledError:
            raise
        except BaseException as error:
            self.ended = error
            if self._first is not None and not self._first.done():
                self._first.set_exception(error)
            self._news.set()
        finally:
            self._task = None if self._task is asyncio.current_task() else self._task

    def _receive(self, fields: dict[str, str]) -> None:
        ident = fields.get("id")
        data = json.loads(fields["data"])
        message = Message(int(ident) if ident else None, fields.get("event", "message"), data)
        self.messages.append(message)
        if self._first is not None and not self._first.done():
            self._first.set_result(message)
        if message.id is not None:
            self.last_id = message.id
        if message.kind in ("state", "table"):
            self.state = message.data
            self._news.set()

    @property
    def streaming(self) -> bool:
        return self._task is not None and not self._task.done()

    async def news(self, timeout: float) -> State:
        """Wait for a state newer than the last one looked at."""
        await asyncio.wait_for(self._news.wait(), timeout)
        self._news.clear()
        if self.ended is not None and not self.streaming:
            raise ConnectionError(f"{self.name}'s stream ended: {self.ended!r}")
        assert self.state is not None
        return self.state

    # --- playing -----------------------------------------------------------------------

    async def play(
        self,
        rng: random.Random,
        done: Callable[[State], bool],
        timeout: float = 60,
        on_answer: Callable[[str, httpx.Response], None] | None = None,
        pause: float = 0.0,
    ) -> State:
        """Play the seat from the stream alone: a move whenever the newest streamed state
        waits on this seat, until `done(state)`. Each state is acted on at most once; a
        move that lost a race (409) waits for the stream to show the state that won.
        `pause`: the most seconds it thinks before a move (drawn from a generator of its
        own, so that `rng` chooses the same moves), as a person does; 0 moves at once."""
        acted = -1
        state = self.state
        thinking = random.Random(self.name)
        while True:
            if state is not None:
                if done(state):
                    return state
                if (
                    state["phase"] in MOVING
                    and self.seat in state["table"]["waiting_on"]
                    and state["move"] > acted
                ):
                    acted = state["move"]
                    if pause:
                        await asyncio.sleep(thinking.uniform(0, pause))
                    route, body = choose_action(state, rng)
                    url = f"/api/games/{self.game_id}/{route}"
                    try:
                        answer = await self.post(url, body)
                    except httpx.TransportError:
                        # The server died with the move in flight: whether it was stored
                        # shows on the stream once it is back; act on what it shows.
                        self.lost.append((url, body))
                        acted = -1
                    else:
                        if on_answer is not None:
                            on_answer(url, answer)
                        assert answer.status_code in (200, 409), answer.text
            try:
                state = await self.news(timeout)
            except ConnectionError:
                if not self.reconnects:
                    raise
                # Somebody (the test) reopens the stream; play on from what it shows.
                state = None
                acted = -1
                await self.reopened(timeout)
                state = self.state

    async def reopened(self, timeout: float) -> None:
        """Wait until the stream is open again after it ended."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not self.streaming or self.ended is not None:
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"{self.name}'s stream was not reopened")
            await asyncio.sleep(0.05)

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        """Every event the person was shown (of `kind`), in order: those of the answer that
        seated it, then every stream message's, across reconnects."""
        seated = [self.seated] if self.seated is not None else []
        return [
            event
            for message in [*seated, *(m.data for m in self.messages)]
            for event in message.get("events", ())
            if kind is None or event["type"] == kind
        ]

    async def aclose(self) -> None:
        await self.close_stream()
        await self.client.aclose()


def _body(answer: httpx.Response) -> Any:
    try:
        return answer.json()
    except ValueError:
        return answer.text


async def seat_table(
    base_url: str, seats: list[str], rules: dict[str, Any], others: list[str] | None = None
) -> list[Person]:
    """A table made by its first person ("you") and joined by the rest ("friend"s), every
    person's stream open before the last one joins (so each sees the table start). With
    `others`, the friends talk to those servers in turn (the host to `base_url`)."""
    urls = others or [base_url]
    people = [Person(base_url, "Host")]
    made = await people[0].create(seats, rules)
    await people[0].open_stream(since=made["move"], header=False)
    for number in range(seats.count("friend")):
        person = Person(urls[number % len(urls)], f"Friend {number + 1}")
        joined = await person.join(made)
        # From the answer's move: what happened since (the table starting, the computer
        # players' first cards) comes on the stream; a browser opens with `?since=`.
        await person.open_stream(since=joined["move"], header=False)
        people.append(person)
    return people


def plays_in(actions: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    """(move count after it, seat, card) of each card played in a stored record."""
    return [
        (number + 1, action["seat"], action["card"])
        for number, action in enumerate(actions)
        if action["type"] == "play"
    ]


def streamed_plays(person: Person) -> list[tuple[int, int, str]]:
    return [(e["n"], e["seat"], e["card"]) for e in person.events("play")]


def round_over(state: State) -> bool:
    return state["phase"] in ("round-over", "game-over")
