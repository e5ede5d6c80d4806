"""Shared helpers for the hardening tests: play games through the HTTP API, rebuild the
truth from the store, and find hidden cards in what a browser was sent.

The tests read the store directly (a test may): the referee's record is the truth a response
is checked against. `store_at` opens whichever store the server uses (SQLite in the data
directory, or the PostgreSQL named by HEARTS_DATABASE_URL).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

from hearts import CARDS, Game, Rules
from hearts.record import action_to_move, actions_of
from hearts.web.deals import new_game, replayed
from hearts.web.settings import Settings
from hearts.web.stores import GameStore, open_store

PERSON = 0

#: A card as the API writes it ("QS", "TD") or as a person reads it ("Q♠", "10♦").
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])(?:10|[2-9TJQKA])[CDHS♣♦♥♠](?![A-Za-z0-9_-])")
SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class Response(Protocol):
    status_code: int
    text: str

    def json(self) -> Any: ...


class Client(Protocol):
    def post(self, url: str, *, json: Any = ...) -> Any: ...

    def get(self, url: str) -> Any: ...


_OPEN: dict[tuple[Path, str], GameStore] = {}


def store_at(directory: Path) -> GameStore:
    """The store a server over `directory` uses (opened once per test run)."""
    settings = Settings.from_env(data_dir=directory)
    key = (directory, settings.database_url)
    if key not in _OPEN:
        _OPEN[key] = open_store(settings)
    return _OPEN[key]


def game_ids(directory: Path) -> list[str]:
    """Every game id in the store a server over `directory` uses."""
    store = store_at(directory)
    url = getattr(store, "url", None)
    if url is None:
        import sqlite3

        with sqlite3.connect(directory / "hearts.sqlite3") as db:
            return [row[0] for row in db.execute("SELECT id FROM games")]
    import psycopg

    with psycopg.connect(url) as pg:
        return [row[0] for row in pg.execute("SELECT id FROM games")]


def stored_game(directory: Path, game_id: str) -> Game:
    """The game exactly as the store holds it, replayed by the engine."""
    stored = store_at(directory).load(game_id)
    assert stored is not None, f"game {game_id} is not in the store"
    return replayed(Rules.from_dict(stored.rules), stored.seed, stored.actions)


def stored_actions(directory: Path, game_id: str) -> list[dict[str, Any]]:
    stored = store_at(directory).load(game_id)
    assert stored is not None, f"game {game_id} is not in the store"
    return stored.actions


def replay_to(directory: Path, game_id: str, move: int) -> Game:
    """The stored game as it stood after `move` actions."""
    stored = store_at(directory).load(game_id)
    assert stored is not None
    assert move <= len(stored.actions), f"move {move} is beyond the store's record"
    return replayed(Rules.from_dict(stored.rules), stored.seed, stored.actions[:move])


class Replayer:
    """Stored games replayed by the engine, kept between calls so that following one game
    move by move costs one action per step, not a whole replay."""

    def __init__(self, directory: Path) -> None:
        self.store = store_at(directory)
        self._games: dict[str, Game] = {}

    def at(self, game_id: str, move: int) -> Game:
        """The stored game as it stood after `move` actions."""
        stored = self.store.load(game_id)
        assert stored is not None, f"game {game_id} is not in the store"
        assert move <= len(stored.actions), f"move {move} is beyond the store's record"
        game = self._games.get(game_id)
        if (
            game is None
            or len(actions_of(game)) > move
            or actions_of(game) != stored.actions[: len(actions_of(game))]
        ):
            game = new_game(Rules.from_dict(stored.rules), stored.seed)
        else:
            game = game.copy()
        for action in stored.actions[len(game.moves) : move]:
            game.apply(action_to_move(action))
        self._games[game_id] = game
        return game


def _visible_mask(game: Game, seat: int) -> int:
    """Cards `seat` has seen this round: its hand, its own pass, the table, a taken kitty."""
    rnd = game.round
    visible = rnd.hand_mask(seat) | (rnd.given[seat] or 0) | rnd.played_mask
    if rnd.kitty_taker is not None:
        visible |= rnd.kitty
    return visible


def _hidden_mask(game: Game, seat: int) -> int:
    rnd = game.round
    hidden = 0
    for other in range(rnd.players):
        if other != seat:
            hidden |= rnd.hand_mask(other)
            given = rnd.given[other]
            if rnd.phase == "passing" and given is not None:
                hidden |= given
    if rnd.kitty_taker is None:
        hidden |= rnd.kitty
    return hidden & ~_visible_mask(game, seat)


def _faces(mask: int) -> list[str]:
    return [str(CARDS[i]) for i in range(len(CARDS)) if mask >> i & 1]


def hidden_from(game: Game, seat: int = PERSON) -> set[str]:
    """Cards `seat` may not know the place of: other seats' hands (and passes not yet
    exchanged) and an untaken kitty, minus the cards `seat` itself passed to them and
    anything it sees for itself (its hand, cards on the table). With two decks both copies
    print alike, so a face is hidden only while no copy of it is in the seat's sight; the
    copies one of which is in sight are counted by `overcounted`."""
    return set(_faces(_hidden_mask(game, seat))) - set(_faces(_visible_mask(game, seat)))


def overcounted(body: Any, game: Game, seat: int = PERSON) -> list[str]:
    """Two decks: a list in a response naming more copies of a face than `seat` has in
    sight, while the other copy is hidden (an unseen second-deck copy), as "path: QS x2"."""
    hidden = set(_faces(_hidden_mask(game, seat)))
    seen: dict[str, int] = {}
    for face in _faces(_visible_mask(game, seat)):
        seen[face] = seen.get(face, 0) + 1
    found = []

    def walk(data: Any, path: tuple[str, ...]) -> None:
        if path in RULE_PATHS:
            return
        if isinstance(data, dict):
            for key, value in data.items():
                walk(value, (*path, str(key)))
        elif isinstance(data, list):
            counts: dict[str, int] = {}
            for item in data:
                if isinstance(item, str):
                    for card in card_tokens(item):
                        counts[card] = counts.get(card, 0) + 1
                else:
                    walk(item, path)
            for card, count in counts.items():
                if card in hidden and count > seen.get(card, 0):
                    found.append(f"{'.'.join(path)}: {card} x{count}")

    walk(body, ())
    return found


def card_tokens(text: str) -> set[str]:
    """Every card named in `text`, in the API's spelling ("Q♠" and "QS" both give "QS")."""
    found = set()
    for token in CARD_TOKEN.findall(text):
        rank, suit = token[:-1], token[-1]
        found.add(("T" if rank == "10" else rank) + SUIT_LETTER.get(suit, suit))
    return found


#: Places in a game response that describe rules, not cards: the rules dict may name the
#: bonus card ("JD") whoever holds it. Only these exact paths are skipped.
RULE_PATHS: frozenset[tuple[str, ...]] = frozenset({("view", "rules")})


def strings_in(
    data: Any, skip: frozenset[tuple[str, ...]] = RULE_PATHS, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every string in a JSON value (keys too), with its path; list indexes drop out of the
    path so that a skipped path matches at any index."""
    if path in skip:
        return
    if isinstance(data, str):
        yield path, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield path, str(key)
            yield from strings_in(value, skip, (*path, str(key)))
    elif isinstance(data, list):
        for item in data:
            yield from strings_in(item, skip, path)


def leaked_cards(
    body: Any, hidden: set[str], skip: frozenset[tuple[str, ...]] = RULE_PATHS
) -> list[str]:
    """Descriptions of every hidden card found in a JSON body ("view.hand: QS")."""
    leaks = []
    for path, text in strings_in(body, skip):
        for card in card_tokens(text) & hidden:
            leaks.append(f"{'.'.join(path) or '(top)'}: {card}")
    return leaks


def choose_action(state: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A random legal request for the person in `state`: (route, body)."""
    view = state["view"]
    move = state["move"]
    phase = state["phase"]
    if phase == "passing":
        cards = rng.sample(view["hand"], view["cards_to_pass"])
        return "pass", {"move": move, "cards": cards}
    if phase == "playing":
        return "play", {"move": move, "card": rng.choice(view["legal"])}
    if phase == "moon-choice":
        return "moon", {"move": move, "choice": rng.choice(["add", "subtract"])}
    if phase == "round-over":
        return "next", {"move": move}
    raise AssertionError(f"no move for the person in phase {phase}")


def play_game(
    client: Client,
    seed: int,
    *,
    levels: list[str] | None = None,
    rules: dict[str, Any] | None = None,
    on_response: Callable[[str, Any], None] | None = None,
    max_requests: int = 2000,
) -> dict[str, Any]:
    """Start a game and play random legal moves until it is over; `on_response(url, resp)`
    sees every response. Returns the last state."""
    rng = random.Random(seed)
    body = {"levels": levels or ["easy"] * 3, "rules": rules or {}}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    if on_response:
        on_response("/api/games", response)
    state: dict[str, Any] = response.json()
    for _ in range(max_requests):
        if state["phase"] == "game-over":
            return state
        route, request = choose_action(state, rng)
        url = f"/api/games/{state['id']}/{route}"
        response = client.post(url, json=request)
        if on_response:
            on_response(url, response)
        assert response.status_code == 200, f"{url} {request}: {response.text}"
        state = response.json()
    raise AssertionError(f"the game did not end within {max_requests} requests")
