"""Computer players for the web game, thinking in a process pool off the event loop.

Searching players (hard) think in the pool; the quick heuristic levels think in a thread,
which costs no round trip and never waits behind a search.

One task per request: the worker rebuilds the game from its record (rules, seed, actions),
lets the computer players act until the person must (each player rebuilt from its level
and a seed fixed by the game, the move and the seat), and sends back the new actions. So a
slow search never blocks other requests, and a request costs one round trip to the pool
however many computer moves it holds. A task that takes too long, or a pool that breaks,
falls back to easy players in a thread, so a game never gets stuck on a computer player.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import json
import logging
import multiprocessing
import os
import sys
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .. import Game, IllegalMoveError, PlayerView, Rules
from ..ai import Player, make_player
from ..game import Action, score_round
from .characters import STYLE_BY_SEAT

log = logging.getLogger("hearts.web")

PERSON = 0
#: Levels that decide by heuristics alone, with no search: they think in a thread.
QUICK_LEVELS = frozenset({"random", "easy", "medium"})
#: Seconds the computer players of one request may take before easy players answer instead.
TURN_TIMEOUT = 30.0
#: Thinking allowance per decision for each level (None: the player's own default; for
#: "hard" an int is a number of playouts, which keeps a seeded game reproducible).
BUDGETS: dict[str, int | float | None] = {
    "easy": None,
    "medium": None,
    "hard": None,
    "expert": None,
}
#: What a searching level plays while the pool is busy: expert thinks like hard (a tenth of
#: the time), hard like medium.
WHEN_BUSY: dict[str, str] = {"expert": "hard", "hard": "medium"}
#: Under load, hard players think like medium ones: once this many requests per worker are
#: already waiting on the pool, a new request's hard players play medium for that request.
#: A hard move costs tens of milliseconds and a medium one about one, so this keeps every
#: game's wait short when many are in progress, at the price of weaker play (and, for a
#: seeded game, of reproducibility) while the server is busy.
BUSY_PER_WORKER = 2


def decide(
    kind: str,
    level: str,
    seed: int,
    budget: int | float | None,
    view: PlayerView,
    style: str | None = None,
) -> Any:
    """One decision: "pass" -> card strings, "play" -> a card string, "moon" -> a choice.
    `style` is the character's taste (`hearts.ai.STYLES`), for the searching levels."""
    player: Player = make_player(level, seed=seed, budget=budget, style=style)
    if kind == "pass":
        return [str(card) for card in player.choose_pass(view)]
    if kind == "play":
        return str(player.choose_play(view))
    return player.choose_moon(view)


def decision_seed(game_seed: int, move: int, seat: int) -> int:
    """A seed for one decision, fixed by the game, the move and the seat (so reproducible)."""
    digest = hashlib.sha256(f"{game_seed}:{move}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def advance(game: Game, levels: Sequence[str], game_seed: int) -> None:
    """Computer players (seats 1..3, at `levels`) act until the person must, or the round
    is over. Changes `game` in place."""

    def ask(kind: str, seat: int) -> Any:
        level = levels[seat - 1]
        seed = decision_seed(game_seed, len(game.actions), seat)
        style = STYLE_BY_SEAT.get(seat)
        return decide(kind, level, seed, BUDGETS.get(level), game.view(seat), style)

    while True:
        phase = game.phase
        if phase == "passing":
            waiting = game.round.waiting_to_pass()
            if PERSON in waiting or not waiting:
                return
            for seat in waiting:
                _apply_or_fallback(game, {"type": "pass", "seat": seat, "cards": ask("pass", seat)})
        elif phase == "playing":
            seat = game.round.turn
            if seat == PERSON:
                return
            _apply_or_fallback(game, {"type": "play", "seat": seat, "card": ask("play", seat)})
        elif phase == "moon-choice":
            shooter = game.moon_pending
            if shooter is None or shooter == PERSON:
                return
            choice = ask("moon", shooter)
            if choice not in ("add", "subtract"):
                choice = score_round(game.rules, game.round, game.scores, None).moon_choice
            game.apply({"type": "moon", "seat": shooter, "choice": choice or "add"})
        else:
            return


def advance_record(
    rules: dict[str, Any], seed: int, actions: list[Action], levels: list[str]
) -> list[Action]:
    """`advance` for a pool worker: from a record to the new actions."""
    game = _replay(rules, seed, actions)
    advance(game, levels, seed)
    return game.actions[len(actions) :]


#: Games this worker advanced lately, by seed and rules. A game's next request then applies
#: only the actions since (the person's move) instead of replaying the whole record, which
#: was most of a request's cost late in a game (found by the load benchmark).
_RECENT: OrderedDict[tuple[int, str], Game] = OrderedDict()
RECENT_GAMES = 256


def _replay(rules: dict[str, Any], seed: int, actions: list[Action]) -> Game:
    """The game after `actions`, exact: a kept game is used only when its actions are a
    prefix of these (same rules, same seed), else the record is replayed in full."""
    key = (seed, json.dumps(rules, sort_keys=True))
    game = _RECENT.pop(key, None)  # taken out while in use, so no two threads share it
    done = len(game.actions) if game is not None else 0
    if game is None or done > len(actions) or game.actions != actions[:done]:
        game = Game.replay(Rules.from_dict(rules), seed, actions)
    else:
        for action in actions[done:]:
            game.apply(action)
    _RECENT[key] = game
    while len(_RECENT) > RECENT_GAMES:
        _RECENT.popitem(last=False)
    return game


def _apply_or_fallback(game: Game, action: Action) -> None:
    """Apply a computer player's move; if the engine refuses it (a player's bug), make a
    plain legal one instead, so the game never stalls."""
    try:
        game.apply(action)
        return
    except IllegalMoveError:
        log.exception("computer player made an illegal move: %r", action)
    seat = action["seat"]
    if action["type"] == "pass":
        count = game.round.cards_to_pass()
        cards = [str(c) for c in game.round.hand(seat)[-count:]]
        game.apply({"type": "pass", "seat": seat, "cards": cards})
    else:
        game.apply({"type": "play", "seat": seat, "card": str(game.round.legal_cards()[0])})


def _ready() -> bool:
    return True


def _main_importable() -> bool:
    """Whether a forkserver or spawn worker can load `__main__` as it starts (it cannot when
    the program came from stdin or `python -c`)."""
    main = sys.modules.get("__main__")
    if main is None or getattr(getattr(main, "__spec__", None), "name", None):
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)


class BotPool:
    """A process pool for computer players; `workers=0` thinks in threads instead (tests)."""

    def __init__(self, workers: int | None = None) -> None:
        if workers is None:
            workers = max(1, min(2, os.cpu_count() or 1))
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None
        self.waiting = 0
        """Requests whose computer players are queued or thinking in the pool now."""

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.workers and not _main_importable():
                log.warning("__main__ cannot be loaded by worker processes; using threads")
                self.workers = 0
            if self.workers == 0:
                self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
            else:
                # Not fork: the server has threads by then, and forking a threaded process
                # can copy a held lock into the child.
                methods = multiprocessing.get_all_start_methods()
                context = multiprocessing.get_context(
                    "forkserver" if "forkserver" in methods else "spawn"
                )
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=context
                )
        return self._pool

    def warm_up(self) -> None:
        """Start the workers now, so the first computer move does not wait for them."""
        executor = self._executor()
        for _ in range(max(1, self.workers)):
            executor.submit(_ready)

    def levels_now(self, levels: Sequence[str]) -> list[str]:
        """The levels to play at now: expert becomes hard, and hard medium, while the pool
        is busy."""
        if self.waiting >= BUSY_PER_WORKER * max(1, self.workers):
            return [WHEN_BUSY.get(level, level) for level in levels]
        return list(levels)

    async def advance(self, game: Game, levels: list[str], seed: int) -> None:
        """Let the computer players act on `game` (in place) until the person must."""
        if set(levels) <= QUICK_LEVELS:
            # Heuristic players answer in microseconds: a thread keeps them off the event
            # loop without a trip to the pool, and never queues them behind a search.
            await asyncio.to_thread(advance, game, levels, seed)
            return
        loop = asyncio.get_running_loop()
        record = (game.rules.to_dict(), seed, list(game.actions), self.levels_now(levels))
        self.waiting += 1
        try:
            future = loop.run_in_executor(self._executor(), advance_record, *record)
            new_actions = await asyncio.wait_for(future, TURN_TIMEOUT)
        except (TimeoutError, BrokenProcessPool) as error:
            log.warning("computer players fell back to easy after %r", error)
            if isinstance(error, BrokenProcessPool):
                self.close(wait=False)
            await asyncio.to_thread(advance, game, ["easy"] * len(levels), seed)
            return
        finally:
            self.waiting -= 1
        try:
            for action in new_actions:
                game.apply(action)
        except IllegalMoveError:
            log.exception("a worker's computer moves were refused; playing them here")
            await asyncio.to_thread(advance, game, levels, seed)

    def close(self, wait: bool = True) -> None:
        """Stop the workers (waiting lets each exit cleanly rather than linger)."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None
