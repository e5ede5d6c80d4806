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
import os
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from types import MappingProxyType
from typing import Any, TypeVar

from .. import Game, IllegalMoveError, Move, NextRound, PlayerView, Rules
from ..ai import Player, make_player
from ..cards import Card
from ..driver import move_for, plain_move, play_out
from ..events import Event
from ..scoring import MoonChoice
from .deals import Seed, is_keyed
from .events import Journal, journal
from .metrics import Decisions, Metrics
from .workers import a_worker, ended_workers, main_importable, process_pool

log = logging.getLogger("hearts.web")
T = TypeVar("T")

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
#: A hard move costs up to about 30 ms of CPU (its 95th percentile, compiled; expert up to
#: about 100; a searched pass more, hard's about 50 and expert's about 230, and a request
#: after a person's pass holds every computer player's pass, which this demotes with the
#: rest of the request) and a medium one under a tenth of one, so this keeps every
#: game's wait short when many are in progress, at the price of weaker play (and, for a
#: seeded game, of reproducibility) while the server is busy.
BUSY_PER_WORKER = 2

Computers = dict[int, str]
"""The computer players of a table: seat -> level."""
Styles = Mapping[int, str | None]
"""The characters' tastes (`hearts.ai.STYLES`) by seat; a seat not in it plays plain."""
PLAIN: Styles = MappingProxyType({})


def round_start(moves: Sequence[object], before: int) -> int:
    """The move number the round holding move `before` starts at. A person's pass is
    hinted and reviewed with `decision_seed(game, round_start(...), seat)`, so that the hint
    and the review weigh it against the same pass whenever the hint was asked."""
    for n in range(before - 1, -1, -1):
        if isinstance(moves[n], NextRound):
            return n + 1
    return 0


def decision_seed(game_seed: Seed, move: int, seat: int) -> int:
    """A seed for one decision, fixed by the game, the move and the seat (so reproducible)."""
    digest = hashlib.sha256(f"{game_seed}:{move}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class ComputerSeat:
    """A seat's computer player, rebuilt for each decision from its level and a seed fixed by
    the game, the move number and the seat: a worker process decides as any other would.
    Each decision's level and CPU time go to `spent`, when given (the metrics)."""

    def __init__(
        self,
        game: Game,
        seat: int,
        level: str,
        game_seed: Seed,
        style: str | None = None,
        spent: Decisions | None = None,
    ) -> None:
        self.game = game
        self.seat = seat
        self.level = level
        self.game_seed = game_seed
        #: The character's taste (`hearts.ai.STYLES`), for the searching levels.
        self.style = style
        self.spent = spent

    def _player(self) -> Player:
        seed = decision_seed(self.game_seed, len(self.game.moves), self.seat)
        return make_player(self.level, seed=seed, budget=BUDGETS.get(self.level), style=self.style)

    # CPU time of this thread, not wall time: a decision in a thread of the server shares
    # the interpreter with the requests, and its wall time would count their turns too.
    def _timed(self, decide: Callable[[PlayerView], T], view: PlayerView) -> T:
        began = time.thread_time()
        decided = decide(view)
        if self.spent is not None:
            self.spent.append((self.level, time.thread_time() - began))
        return decided

    def choose_pass(self, view: PlayerView) -> list[Card]:
        return self._timed(self._player().choose_pass, view)

    def choose_play(self, view: PlayerView) -> Card:
        return self._timed(self._player().choose_play, view)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self._timed(self._player().choose_moon, view)


def advance(
    game: Game,
    computers: Computers,
    game_seed: Seed,
    styles: Styles = PLAIN,
    spent: Decisions | None = None,
) -> Journal:
    """Computer players act until a person must, or the round is over; changes `game` in
    place and returns the events by move (each decision's level and CPU time added to
    `spent`). A computer player's refused move (a bug) is replaced by a plain legal one, so
    a table never stalls."""
    seats = {
        seat: ComputerSeat(game, seat, level, game_seed, styles.get(seat), spent)
        for seat, level in computers.items()
    }
    return journal(game, play_out(game, seats, next_round=False, fallback=plain_move))


def stand_in(
    game: Game,
    seats: Computers,
    game_seed: Seed,
    styles: Styles = PLAIN,
    spent: Decisions | None = None,
) -> Journal:
    """One move each for `seats` awaited now (people whose time for a move ran out while
    they are still at the table), made by a computer player at the seat's level; changes
    `game` in place and returns the events by move (`spent` as for `advance`). Their next
    move is theirs again."""

    def moves() -> Iterator[Event]:
        for seat, level in seats.items():
            if seat in game.to_act:
                player = ComputerSeat(game, seat, level, game_seed, styles.get(seat), spent)
                yield from move_for(game, seat, player, plain_move)

    return journal(game, moves())


def advance_record(
    rules: dict[str, Any], seed: Seed, moves: list[Move], computers: Computers, styles: Styles
) -> tuple[list[Move], Decisions]:
    """`advance` for a pool worker: from a record to the new moves, and the decisions'
    levels and CPU times (the worker's metrics go back to the server with its moves)."""
    game = _replay(rules, seed, moves)
    spent: Decisions = []
    advance(game, computers, seed, styles, spent)
    return game.moves[len(moves) :], spent


#: Games this worker advanced lately, by seed and rules. A game's next request then applies
#: only the moves since (the person's move) instead of replaying the whole record, which
#: was most of a request's cost late in a game (found by the load benchmark).
#: Bounded by the actions the games hold, not by count: a game to 1,000 points has 5,000.
_RECENT: OrderedDict[tuple[Seed, str], Game] = OrderedDict()
RECENT_ACTIONS = 50_000


def _replay(rules: dict[str, Any], seed: Seed, moves: list[Move]) -> Game:
    """The game after `moves`, exact: a kept game is used only when its moves are a
    prefix of these (same rules, same seed), else the record is replayed in full."""
    key = (seed, json.dumps(rules, sort_keys=True))
    game = _RECENT.pop(key, None)  # taken out while in use, so no two threads share it
    done = len(game.moves) if game is not None else 0
    if game is None or done > len(moves) or game.moves != moves[:done]:
        game = Game.replay(Rules.from_dict(rules), seed, moves, keyed=is_keyed(seed))
    else:
        for move in moves[done:]:
            game.apply(move)
    _RECENT[key] = game
    while len(_RECENT) > 1 and sum(len(g.moves) for g in _RECENT.values()) > RECENT_ACTIONS:
        _RECENT.popitem(last=False)
    return game


def _apply_all(
    game: Game,
    moves: list[Move],
    computers: Computers,
    seed: Seed,
    styles: Styles,
    spent: Decisions,
) -> Journal:
    """Apply a worker's moves; if the engine refuses one, the players think here instead."""
    entries: Journal = []
    try:
        for move in moves:
            events = game.apply(move)
            entries.append((len(game.moves), events))
    except IllegalMoveError:
        log.exception("a worker's computer moves were refused; playing them here")
        entries += advance(game, computers, seed, styles, spent)
    return entries


def _ready() -> bool:
    return True


class BotPool:
    """A process pool for computer players; `workers=0` thinks in threads instead (tests)."""

    def __init__(self, workers: int | None = None, metrics: Metrics | None = None) -> None:
        if workers is None:
            workers = max(1, min(2, os.cpu_count() or 1))
        self.workers = workers
        self.metrics = metrics or Metrics()
        self._pool: concurrent.futures.Executor | None = None
        self.waiting = 0
        """Requests whose computer players are queued or thinking in the pool now."""

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.workers and not main_importable():
                log.warning("__main__ cannot be loaded by worker processes; using threads")
                self.workers = 0
            if self.workers == 0:
                self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
            else:
                self._pool = process_pool(self.workers)
        return self._pool

    def warm_up(self) -> None:
        """Start the workers now, so the first computer move does not wait for them."""
        executor = self._executor()
        for _ in range(max(1, self.workers)):
            executor.submit(_ready)

    def levels_now(self, computers: Computers) -> Computers:
        """The levels to play at now: expert becomes hard, and hard medium, while the pool
        is busy."""
        if self.waiting >= BUSY_PER_WORKER * max(1, self.workers):
            return {s: WHEN_BUSY.get(level, level) for s, level in computers.items()}
        return dict(computers)

    async def advance(
        self,
        game: Game,
        computers: Computers,
        seed: Seed,
        styles: Styles = PLAIN,
    ) -> Journal:
        """Let the computer players act on `game` (in place) until a person must; the events
        by move. `styles`: the characters' tastes by seat.

        Searching players think in the pool, which sends back their moves; they are applied
        here once, and that application gives the events."""
        spent: Decisions = []
        if set(computers.values()) <= QUICK_LEVELS:
            # Heuristic players answer in microseconds: a thread keeps them off the event
            # loop without a trip to the pool, and never queues them behind a search.
            entries = await asyncio.to_thread(advance, game, computers, seed, styles, spent)
            self.metrics.decided(spent)
            return entries
        loop = asyncio.get_running_loop()
        levels = self.levels_now(computers)
        record = (game.rules.to_dict(), seed, list(game.moves), levels, dict(styles))
        self.waiting += 1
        executor = self._executor()
        try:
            future = loop.run_in_executor(executor, advance_record, *record)
            new_moves, spent = await asyncio.wait_for(future, TURN_TIMEOUT)
        except (TimeoutError, BrokenProcessPool) as error:
            if isinstance(error, TimeoutError):
                log.warning("computer players fell back to easy after %r", error)
            elif executor is self._pool:  # the first request to meet the broken pool
                self._replace(executor)
            self.metrics.fell_back("timeout" if isinstance(error, TimeoutError) else "broken")
            easy = dict.fromkeys(computers, "easy")
            entries = await asyncio.to_thread(advance, game, easy, seed, PLAIN, spent)
            self.metrics.decided(spent)
            return entries
        finally:
            self.waiting -= 1
        entries = await asyncio.to_thread(
            _apply_all, game, new_moves, computers, seed, styles, spent
        )
        self.metrics.decided(spent)
        return entries

    def _replace(self, broken: concurrent.futures.Executor) -> None:
        """A worker ended under the server (killed, or out of memory): its pool is broken.
        Said in one line, which worker and how, and a new pool started in its place. The
        requests that were in the broken pool are played by easy players."""
        ended = ended_workers(broken)
        self.close(wait=False)
        self.warm_up()
        log.warning(
            "a computer players' %s ended; easy players made this request's moves, and a new"
            " worker was started",
            a_worker(ended),
        )

    def close(self, wait: bool = True) -> None:
        """Stop the workers (waiting lets each exit cleanly rather than linger)."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None
