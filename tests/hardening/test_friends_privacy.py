"""Privacy at tables of several people: no answer and no stream message ever shows one seat
another seat's hand, cards passed before they arrive, or a kitty nobody has taken.

Every seat is a person (its own client, its own cookie, its own stream), so every seat's
view is checked, at tables of 3 (with a kitty), 4 (with passing; and with a kitty) and 6
(two decks, with passing). Each table plays a whole round, the next deal and its pass.
Afterwards everything each person was sent is held against the stored record: the state
of an answer or a message against the game at its move (and its view must be the record's
view for that seat), each event against the game at the move that made it.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from hearts import Game, Rules
from hearts.record import action_to_move
from hearts.web.deals import new_game

from .driver import card_tokens, hidden_from, leaked_cards, overcounted, store_at
from .people import Person, State, seat_table
from .server import Server

TABLES: list[tuple[str, dict[str, Any]]] = [
    ("three-kitty", {"players": 3, "kitty": True, "pass_cycle": ["left"]}),
    ("four-passing", {"pass_cycle": ["left", "across"]}),
    ("four-kitty", {"kitty": True, "pass_cycle": ["right"]}),
    ("six-two-decks", {"players": 6, "pass_cycle": ["left"]}),
]


def snapshots(data_dir: Path, game_id: str) -> list[Game]:
    """The stored game after each of its moves (index = move count)."""
    stored = store_at(data_dir).load(game_id)
    assert stored is not None
    game = new_game(Rules.from_dict(stored.rules), stored.seed)  # keyed, as the server deals
    games = [game.copy()]
    for action in stored.actions:
        game.apply(action_to_move(action))
        games.append(game.copy())
    return games


class Scan:
    """Everything one seat was sent, checked against the record."""

    def __init__(self, games: list[Game]) -> None:
        self.games = games
        self.leaks: list[str] = []
        self.checked = 0
        self.hidden_seen = 0

    def state(self, where: str, seat: int, body: State) -> None:
        game = self.games[body["move"]]
        assert body["table"]["seat"] == seat, where
        assert body["view"] == game.view(seat).to_dict(), f"{where}: not the record's view"
        rest = {key: value for key, value in body.items() if key != "events"}
        hidden = hidden_from(game, seat)
        self.hidden_seen += bool(hidden)
        self.leaks += [f"{where}: {leak}" for leak in leaked_cards(rest, hidden)]
        self.leaks += [f"{where}: {leak}" for leak in overcounted(rest, game, seat)]
        for event in body["events"]:
            at = self.games[event["n"]]
            said = f"{where} event {event['type']}@{event['n']}"
            self.leaks += [f"{said}: {leak}" for leak in leaked_cards(event, hidden_from(at, seat))]
            self.leaks += [f"{said}: {leak}" for leak in overcounted(event, at, seat)]
        self.checked += 1


def scan_person(person: Person, games: list[Game]) -> Scan:
    scan = Scan(games)
    for url, status, body in person.answers:
        if status in (200, 201):
            scan.state(f"{person.name} {url}", person.seat, body)
        elif isinstance(body, dict) and "state" in body:
            scan.state(f"{person.name} {url} ({status})", person.seat, body["state"])
        else:  # a refusal without a state is one sentence, and names no card
            assert not card_tokens(str(body)), (url, status, body)
    for message in person.messages:
        where = f"{person.name} stream id {message.id} ({message.kind})"
        if message.kind in ("state", "table"):
            scan.state(where, person.seat, message.data)
        else:
            assert not card_tokens(str(message.data)), where
    return scan


async def play(url: str, rules: dict[str, Any]) -> list[Person]:
    seats = ["you"] + ["friend"] * (Rules.from_dict(rules).players - 1)
    people = await seat_table(url, seats, rules)
    try:
        first = people[0].state
        assert first is not None
        round_two = first["view"]["hand_number"] + 1

        def done(state: State) -> bool:
            return bool(state["view"]["hand_number"] >= round_two and state["phase"] == "playing")

        async def host() -> State:
            # The host asks for the next round too (the others ask as they play), until it
            # is dealt (no turn clock runs at these tables).
            while True:
                state = await people[0].play(
                    random.Random(0), lambda s: done(s) or s["phase"] == "round-over"
                )
                if done(state):
                    return state
                body = {"move": state["move"]}
                answer = await people[0].post(f"/api/games/{state['id']}/next", body)
                assert answer.status_code in (200, 409), answer.text
                await people[0].news(60)

        async def also_get(person: Person) -> None:
            # A fresh read now and then, as a reloaded page makes.
            while person.state is None or not done(person.state):
                await person.get(f"/api/games/{person.game_id}")
                await asyncio.sleep(0.2)

        players = [p.play(random.Random(i), done) for i, p in enumerate(people[1:], 1)]
        readers = [also_get(p) for p in people]
        await asyncio.wait_for(asyncio.gather(host(), *players, *readers), 300)
        return people
    finally:
        for person in people:
            await person.aclose()


@pytest.mark.parametrize(("name", "rules"), TABLES, ids=[name for name, _ in TABLES])
def test_no_seat_is_shown_another_seats_cards(
    name: str, rules: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HEARTS_DATABASE_URL", raising=False)
    data_dir = tmp_path / "data"
    with Server(data_dir) as server:
        people = asyncio.run(play(server.url, rules))
        # A stranger cannot open the table's stream, nor learn that it exists.
        stranger = httpx.get(f"{server.url}/api/games/{people[0].game_id}/events", timeout=10)
        assert stranger.status_code == 404 and not card_tokens(stranger.text)
    games = snapshots(data_dir, people[0].game_id)
    assert {p.seat for p in people} == set(range(games[0].rules.players))
    phases = {g.phase for g in games}
    assert {"passing", "playing", "round-over"} <= phases
    if games[0].rules.kitty:  # the kitty was taken in the first round, and hidden until then
        assert any(g.round.kitty_taker is not None for g in games)
    for person in people:
        scan = scan_person(person, games)
        assert scan.leaks == [], scan.leaks[:10]
        # Each seat was sent many states, and most of them while others held cards.
        assert scan.checked > 20 and scan.hidden_seen > 10, (person.name, scan.checked)
        assert len([m for m in person.messages if m.kind == "state"]) > 10


def test_the_scan_finds_another_seats_card_in_a_stream_message(tmp_path: Path) -> None:
    """The check can fail: a card of seat 1 planted in what seat 0 was streamed is found,
    in the state and in an event."""
    rules = Rules.from_dict({"pass_cycle": ["left"]})
    game = Game(rules, seed=7)
    games = [game]
    body: State = {
        "move": 0,
        "table": {"seat": 0},
        "view": game.view(0).to_dict(),
        "events": [],
    }
    scan = Scan(games)
    scan.state("clean", 0, body)
    assert scan.leaks == []
    theirs = str(game.round.hand(1)[0])
    scan.state("planted", 0, {**body, "reasons": {"x": f"keep {theirs}"}})
    scan.state("event", 0, {**body, "events": [{"type": "play", "card": theirs, "n": 0}]})
    assert scan.leaks == [f"planted: reasons.x: {theirs}", f"event event play@0: card: {theirs}"]
