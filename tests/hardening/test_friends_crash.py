"""A live table survives its server: `hearts serve` is SIGKILLed mid-trick while every
person's event stream is open (and often with a move in flight), then started again over the
same store. Every person reopens the stream with Last-Event-ID and the table plays on to the
end of the round. The stored record holds each move once, and each person's stream (the
union of its messages across the restarts) showed every card played exactly once, in order.

Also on PostgreSQL, and (issue 13) two `hearts serve` processes over one PostgreSQL, a
person on each, each seeing the other's cards through its own process's stream.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx
import pytest

from hearts.web.live import PING
from pg_support import Cluster

from .driver import stored_actions, stored_game
from .people import Person, State, plays_in, round_over, seat_table, streamed_plays
from .server import Server
from .test_friends_live import check_in_order

SEATS = ["you", "friend", "easy", "easy"]
#: Kills in one round (each mid-trick, a moment after a card is shown).
KILLS = 3
#: The most seconds a person thinks before a card. Without it a round of people who answer
#: at once and computer players at the easy level is over in a tenth of a second on a fast
#: machine, before three kills a moment apart could fall in it.
THINKING = 0.08


def mid_trick(state: State | None, moves: int) -> bool:
    return (
        state is not None
        and state["phase"] == "playing"
        and bool(state["view"]["trick"])
        and state["move"] > moves
    )


async def reopen(person: Person, timeout: float = 60) -> None:
    """Reopen a person's stream from the last id it saw, retrying while the server starts."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            await person.open_stream(since=person.last_id, timeout=20)
            return
        except (httpx.TransportError, ConnectionError, AssertionError):
            await person.close_stream()
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.2)


async def crash_mid_trick(server: Server, people: list[Person], rng: random.Random) -> int:
    """Kill the server `KILLS` times, each a moment after a card of an unfinished trick is
    shown, and start it again; every person reopens its stream. The kills made."""
    kills = 0
    moves = 0
    watcher = people[0]
    while kills < KILLS:
        while not mid_trick(watcher.state, moves):
            if watcher.state is not None and round_over(watcher.state):
                return kills
            await asyncio.sleep(0.005)
        await asyncio.sleep(rng.uniform(0, 0.15))
        await asyncio.to_thread(server.kill)
        kills += 1
        for person in people:  # the streams see the connection end
            while person.streaming:
                await asyncio.sleep(0.01)
        await asyncio.to_thread(server.start)
        for person in people:
            await reopen(person)
        assert watcher.state is not None
        moves = watcher.state["move"] + 2
    return kills


async def play_through_crashes(server: Server) -> tuple[list[Person], int]:
    people = await seat_table(server.url, SEATS, {})
    for person in people:
        person.reconnects = True
    try:
        crashes = asyncio.create_task(crash_mid_trick(server, people, random.Random(9)))
        playing = (
            p.play(random.Random(i), round_over, pause=THINKING) for i, p in enumerate(people)
        )
        await asyncio.wait_for(asyncio.gather(*playing, crashes), 300)
        return people, crashes.result()
    finally:
        for person in people:
            await person.aclose()


def check_round(data_dir: Path, people: list[Person]) -> None:
    """The record holds a whole round, each move once; every person saw every card once."""
    game_id = people[0].game_id
    game = stored_game(data_dir, game_id)
    assert game.phase == "round-over", game.phase
    actions = stored_actions(data_dir, game_id)
    record = plays_in(actions)
    assert len(record) == game.rules.hand_size * game.rules.players
    for seat in range(game.rules.players):
        assert len([p for p in record if p[1] == seat]) == game.rules.hand_size
    for person in people:
        assert streamed_plays(person) == record, person.name
        check_in_order(person)
        # Each acknowledged move is in the record where it was sent.
        for url, body, status in person.sent:
            if status == 200 and url.endswith("/play"):
                made = {"type": "play", "seat": person.seat, "card": body["card"]}
                assert actions[body["move"]] == made, (url, body)
            if status == 200 and url.endswith("/pass"):
                # People pass at once: a pass sent at move M is stored after any other
                # seats' passes that got in first, once.
                made = {"type": "pass", "seat": person.seat, "cards": body["cards"]}
                later = actions[body["move"] :]
                assert later.count(made) == 1, (url, body)
                between = later[: later.index(made)]
                assert all(a["type"] == "pass" and a["seat"] != person.seat for a in between)


@pytest.mark.usefixtures("database")
def test_sigkill_mid_trick_with_streams_open_loses_and_doubles_nothing(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    server = Server(data_dir)
    try:
        server.start()
        people, kills = asyncio.run(play_through_crashes(server))
    finally:
        server.kill()
    assert kills == KILLS
    # Every person's stream was reopened after each kill, and each time from where it was.
    for person in people:
        reopenings = [o for o in person.openings if o.since is not None][1:]
        assert len(reopenings) == KILLS, person.name
    check_round(data_dir, people)
    print(f"moves in flight when killed: {[p.lost for p in people]}")


def test_two_processes_on_one_postgresql_a_person_on_each(
    pg_cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13: the host plays through process A, the friend through process B; each
    sees every card (the other person's and the computer players') on its own stream."""
    monkeypatch.setenv("HEARTS_DATABASE_URL", pg_cluster.new_database())
    data_dir = tmp_path / "data"

    async def scenario(a: Server, b: Server) -> list[Person]:
        people = await seat_table(a.url, SEATS, {}, others=[b.url])
        try:
            playing = (p.play(random.Random(i), round_over) for i, p in enumerate(people))
            await asyncio.wait_for(asyncio.gather(*playing), 300)
            return people
        finally:
            for person in people:
                await person.aclose()

    with Server(data_dir) as a, Server(data_dir) as b:
        people = asyncio.run(scenario(a, b))
    assert [p.base_url for p in people] == [a.url, b.url]
    check_round(data_dir, people)
    # Each saw the other's cards through its own process.
    record = plays_in(stored_actions(data_dir, people[0].game_id))
    for me, other in ((people[0], people[1]), (people[1], people[0])):
        theirs = [p for p in streamed_plays(me) if p[1] == other.seat]
        assert theirs == [p for p in record if p[1] == other.seat] and theirs


def test_streams_stay_open_across_a_postgresql_restart_and_say_so(
    pg_cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL stopped mid-game for longer than a keep-alive: every open stream stays
    open and says `reconnecting` once; a stream opened meanwhile gets the same message and
    ends (for the browser to reopen it, where a 503 would stop it for good); once PostgreSQL
    is back each stream sends the whole state and the round plays on to its end over the
    same streams, nothing lost or doubled."""
    monkeypatch.setenv("HEARTS_DATABASE_URL", pg_cluster.new_database())
    data_dir = tmp_path / "data"

    def said(person: Person, kind: str) -> list[int]:
        return [i for i, m in enumerate(person.messages) if m.kind == kind]

    async def scenario(server: Server) -> list[Person]:
        people = await seat_table(server.url, SEATS, {})
        try:
            await asyncio.gather(
                *(p.play(random.Random(i), lambda s: s["move"] >= 8) for i, p in enumerate(people))
            )
            await asyncio.to_thread(pg_cluster.stop)
            try:
                # Past a keep-alive: each stream has tried the store and said it is away.
                deadline = asyncio.get_running_loop().time() + PING + 10
                while not all(said(p, "reconnecting") for p in people):
                    assert asyncio.get_running_loop().time() < deadline, "no stream said so"
                    await asyncio.sleep(0.2)
                cookies = people[1].client.cookies
                async with httpx.AsyncClient(base_url=server.url, cookies=cookies) as late:
                    url = f"/api/games/{people[1].game_id}/events"
                    opened = await late.get(url, headers={"Last-Event-ID": "3"}, timeout=30)
                assert opened.status_code == 200, opened.text
                assert "event: reconnecting" in opened.text and "retry: " in opened.text
            finally:
                await asyncio.to_thread(pg_cluster.start)
            for person in people:
                assert person.streaming, f"{person.name}'s stream ended: {person.ended!r}"
                assert len(said(person, "reconnecting")) == 1
            # Back: each stream sends the whole state, then the round goes on.
            deadline = asyncio.get_running_loop().time() + 30
            while not all(said(p, "state")[-1] > said(p, "reconnecting")[0] for p in people):
                assert asyncio.get_running_loop().time() < deadline, "no stream came back"
                await asyncio.sleep(0.2)
            playing = (p.play(random.Random(i), round_over) for i, p in enumerate(people))
            await asyncio.wait_for(asyncio.gather(*playing), 300)
            return people
        finally:
            for person in people:
                await person.aclose()

    with Server(data_dir) as server:
        people = asyncio.run(scenario(server))
    check_round(data_dir, people)
