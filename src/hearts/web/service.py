"""The referee: loads a game from its record, applies the person's move, lets the computer
players answer, stores the new actions in one transaction and says what the person sees.

Seat 0 is the person. After every request that changes a game it is the person's move again
(or the round or the game is over), so a stored game never waits on a computer player.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from dataclasses import dataclass
from typing import Any

from .. import Game, IllegalMoveError, Rules, parse_card
from ..game import Action
from .bots import BotPool
from .cache import SizedCache
from .characters import LEVELS, OPPONENTS
from .events import PERSON, events_between
from .store import Store, StoredGame

#: Games kept replayed in memory, weighed by their actions (a long game is ~5,000).
CACHE_ACTIONS = 100_000
#: What the person is told about a stored game that cannot be replayed. The engine's own
#: reason goes to the log only: it can name cards the person may not see.
DAMAGED = "This saved game is damaged and cannot be played on; please start a new game."
NO_SUCH_GAME = "This browser has no game with that id."
log = logging.getLogger("hearts.web")


class Refusal(Exception):
    """A request the referee turns down: an HTTP status and one sentence for the person."""

    def __init__(self, status: int, reason: str, state: dict[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        #: The game as it now stands, for a conflict: the browser catches up from it.
        self.state = state


@dataclass
class LoadedGame:
    stored: StoredGame
    game: Game

    @property
    def levels(self) -> list[str]:
        return list(self.stored.settings["levels"])


class GameService:
    def __init__(self, store: Store, bots: BotPool, cache_actions: int = CACHE_ACTIONS) -> None:
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

    async def _load(self, game_id: str, owner: str, fresh: bool = False) -> LoadedGame:
        loaded = None if fresh else self._cache.get(game_id)
        if loaded is None:
            try:
                stored = await asyncio.to_thread(self.store.load, game_id)
            except Exception:
                log.exception("stored game %s cannot be read", game_id)
                raise Refusal(500, DAMAGED) from None
            # Another browser's game answers exactly as a missing one: a stranger cannot
            # even learn that an id exists.
            if stored is None or stored.owner != owner:
                raise Refusal(404, NO_SUCH_GAME)
            loaded = _replayed(stored)
            self._remember(game_id, loaded)
        if loaded.stored.owner != owner:
            raise Refusal(404, NO_SUCH_GAME)
        return loaded

    def _remember(self, game_id: str, loaded: LoadedGame) -> None:
        self._cache.put(game_id, loaded, weight=len(loaded.game.actions))

    def forget(self, game_ids: list[str]) -> None:
        """Drop games the store no longer holds (closed by a quota, or expired)."""
        for game_id in game_ids:
            self._cache.discard(game_id)

    # --- requests ----------------------------------------------------------------------

    async def create(self, owner: str, rules: Rules, levels: list[str]) -> dict[str, Any]:
        game_id = secrets.token_urlsafe(18)
        seed = secrets.randbits(62)
        settings = {"levels": levels}
        game = Game(rules, seed)
        stored = StoredGame(game_id, owner, rules.to_dict(), seed, settings, "active", [])
        loaded = LoadedGame(stored, game)
        await self._run_bots(loaded)
        await asyncio.to_thread(
            self.store.create,
            game_id,
            owner,
            rules.to_dict(),
            seed,
            settings,
            game.actions,
            _status(game),
        )
        self._remember(game_id, loaded)
        return self.state(loaded, events_between(Game(rules, seed), game.actions))

    async def state_of(self, game_id: str, owner: str) -> dict[str, Any]:
        async with self._lock(game_id):
            loaded = await self._load(game_id, owner)
            stored_moves = await asyncio.to_thread(self.store.moves, game_id)
            if stored_moves is not None and stored_moves != len(loaded.game.actions):
                loaded = await self._load(game_id, owner, fresh=True)
            return self.state(loaded, [])

    async def current(self, owner: str) -> str | None:
        return await asyncio.to_thread(self.store.latest_unfinished, owner)

    async def act(self, game_id: str, owner: str, move: int, action: Action) -> dict[str, Any]:
        """Apply the person's action at move number `move`, then the computer players'."""
        async with self._lock(game_id):
            loaded = await self._load(game_id, owner)
            if move != len(loaded.game.actions):
                # Another process may have moved the game on: trust the store, not the cache.
                loaded = await self._load(game_id, owner, fresh=True)
            done = len(loaded.game.actions)
            if move < done:
                return self._answer_retry(loaded, move, action)
            if move > done:
                raise Refusal(
                    409,
                    f"Move {move} has not been reached; the game is at move {done}.",
                    self.state(loaded, []),
                )
            game = loaded.game.copy()
            status = 422 if _expected_now(game, action) else 409
            try:
                game.apply(action)
            except IllegalMoveError as error:
                now = self.state(loaded, []) if status == 409 else None
                raise Refusal(status, str(error), now) from None
            work = LoadedGame(loaded.stored, game)
            await self._run_bots(work)
            new_actions = game.actions[done:]
            stored = await asyncio.to_thread(
                self.store.append, game_id, done, new_actions, _status(game)
            )
            if not stored:
                # Another request stored this move first; answer from what it stored.
                loaded = await self._load(game_id, owner, fresh=True)
                return self._answer_retry(loaded, move, action)
            self._remember(game_id, work)
            return self.state(work, events_between(loaded.game, new_actions))

    def _answer_retry(self, loaded: LoadedGame, move: int, action: Action) -> dict[str, Any]:
        recorded = loaded.game.actions[move]
        if not _same_action(recorded, action):
            raise Refusal(
                409,
                f"Move {move} was already made; the game is at move {len(loaded.game.actions)}.",
                self.state(loaded, []),
            )
        stored = loaded.stored
        before = Game.replay(Rules.from_dict(stored.rules), stored.seed, stored.actions[:move])
        return self.state(loaded, events_between(before, loaded.game.actions[move:]))

    # --- computer players --------------------------------------------------------------

    async def _run_bots(self, loaded: LoadedGame) -> None:
        """Computer players act until the person must (or the round is over)."""
        await self.bots.advance(loaded.game, loaded.levels, loaded.stored.seed)

    # --- what the person sees ----------------------------------------------------------

    def state(self, loaded: LoadedGame, events: list[dict[str, Any]]) -> dict[str, Any]:
        game = loaded.game
        view = game.view(PERSON)
        reasons: dict[str, str] = {}
        if view.is_my_turn:
            legal = set(view.legal)
            for card in view.hand:
                if card not in legal:
                    reasons[str(card)] = game.round.why_illegal(card) or ""
        players = [{"seat": 0, "name": "You", "level": None}]
        for opponent, level in zip(OPPONENTS, loaded.levels, strict=True):
            players.append({"seat": opponent["seat"], "name": opponent["name"], "level": level})
        return {
            "id": loaded.stored.id,
            "move": len(game.actions),
            "phase": game.phase,
            "view": view.to_dict(),
            "reasons": reasons,
            "events": events,
            "results": [result.to_dict() for result in game.results],
            "scores": list(game.scores),
            "winners": list(game.winners),
            "moon_pending": game.moon_pending,
            "players": players,
        }


def _replayed(stored: StoredGame) -> LoadedGame:
    """The stored game replayed; a record the engine refuses, or settings the web game
    cannot seat, is reported as damaged rather than served half-loaded."""
    try:
        rules = Rules.from_dict(stored.rules)
        levels = stored.settings["levels"]
        if rules.players != 1 + len(OPPONENTS) or len(levels) != len(OPPONENTS):
            raise ValueError(f"{rules.players} players with levels {levels!r}")
        if any(level not in LEVELS for level in levels):
            raise ValueError(f"unknown levels {levels!r}")
        game = Game.replay(rules, stored.seed, stored.actions)
    except Exception:
        log.exception("stored game %s cannot be replayed", stored.id)
        raise Refusal(500, DAMAGED) from None
    return LoadedGame(stored, game)


def _status(game: Game) -> str:
    return "over" if game.is_over else "active"


def _expected_now(game: Game, action: Action) -> bool:
    """Whether this kind of action is the person's to make now. A refusal of one that is
    not is a 409 (wrong time); of one that is, a 422 (wrong move)."""
    kind = action.get("type")
    phase = game.phase
    if kind == "play":
        return phase == "playing" and game.round.turn == PERSON
    if kind == "pass":
        return phase == "passing" and PERSON in game.round.waiting_to_pass()
    if kind == "moon":
        return phase == "moon-choice" and game.moon_pending == PERSON
    return phase == "round-over"


def _same_action(recorded: Action, wanted: Action) -> bool:
    if recorded.get("type") != wanted.get("type") or recorded.get("seat") != wanted.get("seat"):
        return False
    kind = recorded.get("type")
    if kind == "play":
        return bool(recorded.get("card") == wanted.get("card"))
    if kind == "pass":
        return sorted(recorded.get("cards", [])) == sorted(wanted.get("cards", []))
    if kind == "moon":
        return bool(recorded.get("choice") == wanted.get("choice"))
    return True


def canonical_card(text: str) -> str:
    """ "qs" -> "QS"; ValueError with the engine's sentence for text that is not a card."""
    return str(parse_card(text))
