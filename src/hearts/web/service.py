"""The referee: loads a game from its record, applies a seat's move, lets the computer
players answer, stores the new moves in one transaction and says what that seat sees.

After every request that changes a game it is a person's move again (or the round or the
game is over), so a stored game never waits on a computer player. The engine's events of
the request are what the answer shows, filtered for the caller's seat.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import ChooseMoon, Game, IllegalMoveError, Move, Pass, Play, Rules
from ..events import Event
from ..record import move_to_action
from .bots import BotPool, Computers
from .cache import SizedCache
from .characters import LEVELS, OPPONENTS
from .deals import commitment, new_game, new_secret, replayed, results
from .events import for_browser
from .finish import finish_settled_round
from .store import StoredGame
from .stores import GameStore, StoreUnavailable

#: Games kept replayed in memory, weighed by their moves (a long game is ~5,000).
CACHE_ACTIONS = 100_000
#: What a person is told about a stored game that cannot be replayed. The engine's own
#: reason goes to the log only: it can name cards the person may not see.
DAMAGED = "This saved game is damaged and cannot be played on; please start a new game."
NO_SUCH_GAME = "This browser has no game with that id."
log = logging.getLogger("hearts.web")

MoveFor = Callable[[int], Move]
"""A move still to be given its seat: the caller's, known once the game is loaded."""


class Refusal(Exception):
    """A request the referee turns down: an HTTP status and one sentence for the person."""

    def __init__(self, status: int, reason: str, state: dict[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        #: The game as it now stands, for a conflict: the browser catches up from it.
        self.state = state


@dataclass(frozen=True)
class Table:
    """Who sits where: a level for each computer seat, None for a person's seat."""

    seats: tuple[str | None, ...]

    @classmethod
    def from_settings(cls, settings: dict[str, Any], players: int) -> Table:
        seats = settings.get("seats")
        if seats is None:
            # Records from before tables of any size: the person first, then the levels.
            seats = [None, *settings["levels"]]
        table = cls(tuple(seats))
        if len(table.seats) != players or not table.people:
            raise ValueError(f"{players} players seated as {seats!r}")
        if any(level not in LEVELS for level in table.computers.values()):
            raise ValueError(f"unknown levels in {seats!r}")
        return table

    def to_settings(self) -> dict[str, Any]:
        return {"seats": list(self.seats)}

    @property
    def computers(self) -> Computers:
        return {seat: level for seat, level in enumerate(self.seats) if level is not None}

    @property
    def people(self) -> list[int]:
        return [seat for seat, level in enumerate(self.seats) if level is None]

    def seat_of(self, stored: StoredGame, owner: str) -> int | None:
        """The seat a browser plays at this table, or None if it has none."""
        return self.people[0] if owner == stored.owner else None


@dataclass
class LoadedGame:
    stored: StoredGame
    game: Game
    table: Table
    answer: tuple[int, list[Event]] | None = field(default=None)
    """The move number of the latest move a person made and the events from it on, so a
    retry of that move is answered without replaying anything."""


class GameService:
    def __init__(self, store: GameStore, bots: BotPool, cache_actions: int = CACHE_ACTIONS) -> None:
        self.store = store
        self.bots = bots
        self._cache: SizedCache[str, LoadedGame] = SizedCache(cache_actions)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    # --- loading -----------------------------------------------------------------------

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def _load(self, game_id: str, owner: str, fresh: bool = False) -> tuple[LoadedGame, int]:
        """The game and the caller's seat; a game the caller has no seat at is missing."""
        loaded = None if fresh else self._cache.get(game_id)
        if loaded is None:
            try:
                stored = await asyncio.to_thread(self.store.load, game_id)
            except StoreUnavailable:
                raise  # the database is away, not the game damaged: a 503
            except Exception:
                log.exception("stored game %s cannot be read", game_id)
                raise Refusal(500, DAMAGED) from None
            # Another browser's game answers exactly as a missing one: a stranger cannot
            # even learn that an id exists.
            if stored is None or stored.owner != owner:
                raise Refusal(404, NO_SUCH_GAME)
            # A replay costs as much as the game is long: never on the event loop.
            loaded = await asyncio.to_thread(_replayed, stored)
            self._remember(game_id, loaded)
        seat = loaded.table.seat_of(loaded.stored, owner)
        if seat is None:
            raise Refusal(404, NO_SUCH_GAME)
        return loaded, seat

    def _remember(self, game_id: str, loaded: LoadedGame) -> None:
        self._cache.put(game_id, loaded, weight=len(loaded.game.moves))

    def forget(self, game_ids: list[str]) -> None:
        """Drop games the store no longer holds (closed by a quota, or expired)."""
        for game_id in game_ids:
            self._cache.discard(game_id)

    # --- requests ----------------------------------------------------------------------

    async def create(self, owner: str, rules: Rules, levels: Sequence[str]) -> dict[str, Any]:
        """A new game: the creator in the first seat, computer players at `levels` after."""
        if len(levels) != rules.players - 1:
            raise Refusal(
                422,
                f"A table of {rules.players} needs {rules.players - 1} computer levels, "
                f"not {len(levels)}.",
            )
        game_id = secrets.token_urlsafe(18)
        seed = new_secret()
        table = Table((None, *levels))
        game = new_game(rules, seed)
        stored = StoredGame(
            game_id, owner, rules.to_dict(), seed, table.to_settings(), "active", []
        )
        loaded = LoadedGame(stored, game, table)
        events = await self.bots.advance(game, table.computers, seed)
        await asyncio.to_thread(
            self.store.create,
            game_id,
            owner,
            rules.to_dict(),
            seed,
            table.to_settings(),
            [move_to_action(m) for m in game.moves],
            _status(game),
        )
        self._remember(game_id, loaded)
        return self.state(loaded, table.people[0], events)

    async def state_of(self, game_id: str, owner: str) -> dict[str, Any]:
        loaded, seat = await self.loaded(game_id, owner)
        return self.state(loaded, seat, [])

    async def loaded(self, game_id: str, owner: str) -> tuple[LoadedGame, int]:
        """The game as the store holds it now and the caller's seat, for a request that only
        reads it (a 404 Refusal for another browser's game)."""
        async with self._lock(game_id):
            loaded, seat = await self._load(game_id, owner)
            stored_moves = await asyncio.to_thread(self.store.moves, game_id)
            if stored_moves is not None and stored_moves != len(loaded.game.moves):
                loaded, seat = await self._load(game_id, owner, fresh=True)
            return loaded, seat

    async def current(self, owner: str) -> str | None:
        return await asyncio.to_thread(self.store.latest_unfinished, owner)

    async def act(
        self, game_id: str, owner: str, number: int, move_for: MoveFor, *, finish: bool = False
    ) -> dict[str, Any]:
        """Make the caller's move at move number `number`, then the computer players'
        (and with `finish`, the rest of a round in which no point can change hands)."""
        async with self._lock(game_id):
            cached = game_id in self._cache
            loaded, seat = await self._load(game_id, owner)
            if cached and number != len(loaded.game.moves):
                # Another process may have moved the game on: trust the store, not the cache.
                loaded, seat = await self._load(game_id, owner, fresh=True)
            move = move_for(seat)
            done = len(loaded.game.moves)
            if number < done:
                return await self._answer_retry(loaded, seat, number, move)
            if number > done:
                raise Refusal(
                    409,
                    f"Move {number} has not been reached; the game is at move {done}.",
                    self.state(loaded, seat, []),
                )
            game = loaded.game.copy()
            try:
                events = game.apply(move)
            except IllegalMoveError as error:
                # A move of a kind the seat may make now but wrong (a card it may not play)
                # is a 422; one it may not make at all now (not its turn) is a 409.
                if _expected(move, game, seat):
                    raise Refusal(422, str(error)) from None
                raise Refusal(409, str(error), self.state(loaded, seat, [])) from None
            events += await self.bots.advance(game, loaded.table.computers, loaded.stored.seed)
            if finish:  # a settled round ends at once, when the person asks for it
                events += await asyncio.to_thread(finish_settled_round, game, seat)
            new_moves = [move_to_action(m) for m in game.moves[done:]]
            stored = await asyncio.to_thread(
                self.store.append, game_id, done, new_moves, _status(game)
            )
            if not stored:
                # Another request stored this move first; answer from what it stored.
                loaded, seat = await self._load(game_id, owner, fresh=True)
                return await self._answer_retry(loaded, seat, number, move)
            work = LoadedGame(loaded.stored, game, loaded.table, (done, events))
            self._remember(game_id, work)
            return self.state(work, seat, events)

    async def _answer_retry(
        self, loaded: LoadedGame, seat: int, number: int, move: Move
    ) -> dict[str, Any]:
        """A move sent again (a lost answer): only the latest move a person made is answered
        as it was; an older one is a conflict, answered with the game as it stands."""
        game = loaded.game
        latest = _latest_person_move(game, loaded.table)
        if number != latest or game.moves[number] != move:
            raise Refusal(
                409,
                f"Move {number} was already made; the game is at move {len(game.moves)}.",
                self.state(loaded, seat, []),
            )
        if loaded.answer is not None and loaded.answer[0] == number:
            return self.state(loaded, seat, loaded.answer[1])
        events = await asyncio.to_thread(_events_since, loaded, number)
        return self.state(loaded, seat, events)

    # --- what a seat sees --------------------------------------------------------------

    def state(self, loaded: LoadedGame, seat: int, events: list[Event]) -> dict[str, Any]:
        game = loaded.game
        view = game.view(seat)
        reasons: dict[str, str] = {}
        if view.is_my_turn:
            legal = view.legal_mask
            for card in view.hand:
                if not legal >> card & 1:
                    reasons[str(card)] = game.why_not(Play(seat, card)) or ""
        return {
            "id": loaded.stored.id,
            "move": len(game.moves),
            "phase": game.phase,
            "view": view.to_dict(),
            "reasons": reasons,
            "events": for_browser(events, seat),
            "results": results(game),
            **commitment(game),
            "scores": list(game.scores),
            "winners": list(game.winners),
            "moon_pending": game.moon_pending,
            "players": _players(loaded.table, seat),
        }


def _players(table: Table, me: int) -> list[dict[str, Any]]:
    """Names for the seats: the caller is "You", computer players take the characters'
    names in seat order."""
    characters = iter(OPPONENTS)
    players = []
    for seat, level in enumerate(table.seats):
        name = "You" if seat == me else next(characters)["name"] if level else "Guest"
        players.append({"seat": seat, "name": name, "level": level})
    return players


def _replayed(stored: StoredGame) -> LoadedGame:
    """The stored game replayed; a record the engine refuses, or settings the web game
    cannot seat, is reported as damaged rather than served half-loaded."""
    try:
        rules = Rules.from_dict(stored.rules)
        table = Table.from_settings(stored.settings, rules.players)
        game = replayed(rules, stored.seed, stored.actions)
    except Exception:
        log.exception("stored game %s cannot be replayed", stored.id)
        raise Refusal(500, DAMAGED) from None
    return LoadedGame(stored, game, table)


def _latest_person_move(game: Game, table: Table) -> int:
    """The number of the latest move not made by a computer player (-1 if none): looking
    back passes only the computer players' replies, at most a round's worth."""
    computers = table.computers
    for number in range(len(game.moves) - 1, -1, -1):
        seat = getattr(game.moves[number], "seat", None)
        if seat is None or seat not in computers:
            return number
    return -1


def _events_since(loaded: LoadedGame, number: int) -> list[Event]:
    """The events of moves `number` onwards, by replaying the record up to there (off the
    event loop: it costs as much as the game is long)."""
    stored = loaded.stored
    game = replayed(Rules.from_dict(stored.rules), stored.seed, stored.actions[:number])
    events: list[Event] = []
    for move in loaded.game.moves[number:]:
        events += game.apply(move)
    return events


def _expected(move: Move, game: Game, seat: int) -> bool:
    """Whether a move of this kind is the seat's to make now. A refusal of one that is not
    is a 409 (wrong time); of one that is, a 422 (wrong move)."""
    phase = game.phase
    if isinstance(move, Play):
        return phase == "playing" and game.round.turn == seat
    if isinstance(move, Pass):
        return phase == "passing" and seat in game.to_act
    if isinstance(move, ChooseMoon):
        return phase == "moon-choice" and game.moon_pending == seat
    return phase == "round-over"


def _status(game: Game) -> str:
    return "over" if game.is_over else "active"
