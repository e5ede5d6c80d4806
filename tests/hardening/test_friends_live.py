"""Tables of several people, live, through real `hearts serve` processes: each person is its
own HTTP client (its own cookie) with its seat's event stream open, and plays only from what
that stream shows. A table of four (two people, two computer players) and a table of six
(three people, three computer players, two decks) play a whole round.

Held against the stored record afterwards: every person's stream showed every card played,
each exactly once and in the order played, every message's events after the message before
it; a stream closed mid-trick and reopened with Last-Event-ID got exactly the moves it
missed. Nothing here measures speed (benchmarks/friends_load.py does).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from .driver import replay_to, stored_actions, stored_game
from .people import Message, Person, State, plays_in, round_over, seat_table, streamed_plays
from .server import Server

# Every test here runs on SQLite and on PostgreSQL (`database`, tests/conftest.py).
pytestmark = pytest.mark.usefixtures("database")

TABLES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("four", ["you", "friend", "easy", "easy"], {}),
    ("six", ["easy", "you", "friend", "easy", "friend", "easy"], {"players": 6}),
]


def check_in_order(person: Person) -> None:
    """Each message's events are of moves after the message before it (its id, the move
    count it showed), and none beyond its own id: nothing shown twice, nothing ahead."""
    assert person.seated is not None
    before: int | None = person.seated["move"]
    for message in person.messages:
        if message.id is None:
            continue
        numbers = [event["n"] for event in message.data["events"]]
        assert all(n <= message.id for n in numbers), (person.name, message.id, numbers)
        if before is not None and message.kind == "state":
            assert all(n > before for n in numbers), (person.name, before, numbers)
        assert before is None or message.id >= before, (person.name, before, message.id)
        before = message.id


async def watched(watcher: Person) -> State:
    """The watcher's newest streamed state, a moment later (its own play loop waits on its
    news; this only looks)."""
    await asyncio.sleep(0.005)
    assert watcher.state is not None
    return watcher.state


async def drop_mid_trick(person: Person, watcher: Person) -> tuple[int, Message]:
    """Close `person`'s stream while a trick is on the table and the next card is not
    theirs; reopen it with Last-Event-ID once others have played on. The id sent and the
    first message got."""
    while True:
        state = await watched(watcher)
        trick = state["view"]["trick"]
        if state["phase"] == "playing" and trick and state["table"]["waiting_on"] != [person.seat]:
            break
    await person.close_stream()
    seen = person.last_id
    assert seen is not None
    # Others play on: at least one move, until the table waits on the person (or the round
    # is over), as the watcher's own stream shows.
    while True:
        state = await watched(watcher)
        if state["move"] > seen and (
            state["table"]["waiting_on"] == [person.seat] or round_over(state)
        ):
            break
    first = await person.open_stream(since=seen)
    return seen, first


async def play_a_round(
    url: str, seats: list[str], rules: dict[str, Any]
) -> tuple[list[Person], tuple[int, Message]]:
    people = await seat_table(url, seats, rules)
    try:
        dropped = asyncio.create_task(drop_mid_trick(people[1], people[0]))
        await asyncio.wait_for(
            asyncio.gather(
                *(p.play(random.Random(i), round_over) for i, p in enumerate(people)), dropped
            ),
            300,
        )
        return people, dropped.result()
    finally:
        for person in people:
            await person.aclose()


@pytest.mark.parametrize(("name", "seats", "rules"), TABLES, ids=[t[0] for t in TABLES])
def test_every_person_sees_every_card_once_in_order(
    name: str, seats: list[str], rules: dict[str, Any], tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    with Server(data_dir) as server:
        people, (seen, reopened) = asyncio.run(play_a_round(server.url, seats, rules))
    game_id = people[0].game_id
    assert len({p.seat for p in people}) == seats.count("you") + seats.count("friend")
    game = stored_game(data_dir, game_id)
    assert game.phase == "round-over", game.phase
    record = plays_in(stored_actions(data_dir, game_id))
    # A whole round: every card dealt was played.
    assert len(record) == game.rules.hand_size * game.rules.players
    for person in people:
        assert streamed_plays(person) == record, person.name
        check_in_order(person)
        assert person.state is not None and person.state["move"] == len(game.moves)
    # The reopened stream's first message: the whole state at the moves it missed, with
    # exactly their cards.
    assert reopened.kind == "state" and reopened.id is not None and reopened.id > seen
    missed = [(n, s, c) for n, s, c in record if seen < n <= reopened.id]
    got = [(e["n"], e["seat"], e["card"]) for e in reopened.data["events"] if e["type"] == "play"]
    assert missed and got == missed
    assert reopened.data["view"] == game_at(data_dir, game_id, reopened.id, people[1].seat)


def game_at(data_dir: Path, game_id: str, move: int, seat: int) -> dict[str, Any]:
    view: dict[str, Any] = replay_to(data_dir, game_id, move).view(seat).to_dict()
    return view
