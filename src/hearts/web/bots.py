"""Computer players for the web game, thinking in a process pool off the event loop.

Each decision is one task: the worker rebuilds the player from (level, seed, budget) and
answers for a `PlayerView`, so a slow search never blocks other requests. A decision that
takes too long, or a pool that breaks, falls back to an easy player run in a thread, so a
game never gets stuck on a computer player.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import logging
import multiprocessing
import os
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .. import PlayerView
from ..ai import Player, make_player

log = logging.getLogger("hearts.web")

#: Seconds a decision may take before the fallback player answers instead.
DECISION_TIMEOUT = 20.0
#: Thinking allowance per decision for each level (None: the player's own default; for
#: "hard" an int is a number of playouts, which keeps a seeded game reproducible).
BUDGETS: dict[str, int | float | None] = {"easy": None, "medium": None, "hard": None}


def decide(kind: str, level: str, seed: int, budget: int | float | None, view: PlayerView) -> Any:
    """One decision, run in a worker: "pass" -> card strings, "play" -> a card string,
    "moon" -> "add" or "subtract"."""
    player: Player = make_player(level, seed=seed, budget=budget)  # type: ignore[assignment]
    if kind == "pass":
        return [str(card) for card in player.choose_pass(view)]
    if kind == "play":
        return str(player.choose_play(view))
    return player.choose_moon(view)


def _ready() -> bool:
    return True


def decision_seed(game_seed: int, move: int, seat: int) -> int:
    """A seed for one decision, fixed by the game, the move and the seat (so reproducible)."""
    digest = hashlib.sha256(f"{game_seed}:{move}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class BotPool:
    """A process pool for computer players; `workers=0` thinks in threads instead (tests)."""

    def __init__(self, workers: int | None = None) -> None:
        if workers is None:
            workers = max(1, min(2, os.cpu_count() or 1))
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
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

    async def decide(self, kind: str, level: str, seed: int, view: PlayerView) -> Any:
        budget = BUDGETS.get(level)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._executor(), decide, kind, level, seed, budget, view)
            return await asyncio.wait_for(future, DECISION_TIMEOUT)
        except (TimeoutError, BrokenProcessPool) as error:
            log.warning("computer player fell back to easy after %r", error)
            if isinstance(error, BrokenProcessPool):
                self.close(wait=False)
            return await asyncio.to_thread(decide, kind, "easy", seed, None, view)

    def close(self, wait: bool = True) -> None:
        """Stop the workers (waiting lets each exit cleanly rather than linger)."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None
