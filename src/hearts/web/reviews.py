"""The coach's round reviews, worked out in the background while the round is played.

A decision's review depends only on the person's view when they made it (and their move,
the seats' names, the round's seed and the depth), so each pass and card of a person is
reviewed as soon as it is stored, in one low-priority worker process (nice 19: it gets a
core only when play leaves one idle, so it never delays a computer player or a request).
When the round ends only its last card or two are still to do, and the round's review is
ready about a second after its end instead of 2.5 s of CPU after it is asked for.

Reviews are kept by decision in a bounded LRU, keyed by the game, the seat, the move number
and a SHA-256 of every move up to and including the decision (with the names, seed and
depth): a history that changed (a move taken back and another made) gives other keys, so a
stale review is never served. A request for a review that is being worked out waits for
that work; decisions not reviewed yet (the background fell behind, a restart, a job
dropped from a long queue) go first, to a second worker of normal priority, started when
first needed: a person is waiting for them. Reviews live in memory only: after a restart a
round is reviewed again when asked for (2.5 s of CPU, once; reviews are asked for at the
round's end, which rarely straddles a restart), which costs less than a table, a migration
and a write per card would.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import inspect
import json
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Collection, Coroutine, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import Game, NextRound, Pass, Play, PlayerView, Rules
from ..ai.review import REVIEW_BUDGET, review_decision
from ..ai.rollout import GAME_END_WEIGHT
from ..record import move_to_action
from .bots import decision_seed, round_start
from .deals import Seed, replayed
from .metrics import Metrics
from .store import StoreUnavailable
from .workers import a_worker, ended_workers, main_importable, process_pool

if TYPE_CHECKING:
    from .service import GameService, LoadedGame

log = logging.getLogger("hearts.web")

#: Decisions' reviews kept (a few hundred bytes each: about 1,400 rounds).
KEPT = 20_000
#: Background reviews waiting at most; past it the oldest are dropped (they are worked out
#: if asked for). One worker reviews about five decisions a second.
QUEUE = 2_000
#: Games whose seats' names are kept (read from the store once a game).
NAMES_KEPT = 2_000
#: The worker's niceness: it runs when play leaves a core idle.
NICE = 19

Key = tuple[str, int, int, str]
"""Game id, seat, move number of the decision, digest of the moves up to it and the inputs."""


@dataclass(frozen=True)
class Job:
    """One decision to review."""

    key: Key
    view: PlayerView
    move: Pass | Play
    names: tuple[str, ...]
    seed: int
    budget: int
    hint_seed: int
    """The seed of the person's hint for this decision (`coach.ask_hint`'s)."""


def review_job(
    view: PlayerView,
    move: Pass | Play,
    names: Sequence[str],
    seed: int,
    budget: int,
    hint_seed: int,
) -> dict[str, object]:
    """A worker's task: one decision's review, as the API gives it."""
    return review_decision(view, move, names, seed, budget, hint_seed).to_dict()


def _digests(moves: Sequence[Any], wanted: Sequence[tuple[int, tuple[Any, ...]]]) -> list[str]:
    """For each (n, extra): SHA-256 of the moves 0..n (as saved) and `extra`, in one pass
    over the moves."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i][0])
    found = [""] * len(wanted)
    hasher = hashlib.sha256()
    done = 0
    for i in order:
        n, extra = wanted[i]
        for move in moves[done : n + 1]:
            hasher.update(json.dumps(move_to_action(move), sort_keys=True).encode() + b"\n")
        done = max(done, n + 1)
        each = hasher.copy()
        each.update(json.dumps(extra, sort_keys=True).encode())
        found[i] = each.hexdigest()
    return found


def decision_jobs(
    game_id: str,
    secret: Seed,
    start: Game,
    moves: Sequence[Any],
    seats: Sequence[int],
    names: dict[int, tuple[str, ...]],
    budget: int = REVIEW_BUDGET,
    stood_in: Collection[int] = (),
) -> list[Job]:
    """The jobs for the passes and cards `seats` made among `moves` (the moves after
    `start`, which is changed: played through), leaving out those numbered in `stood_in`
    (a computer player's, made for a person away). Each is seeded as the round's review
    always is (by the game, the round's first move and the seat), so the same decision
    reviewed in the background or on request comes out the same."""
    done = len(start.moves)
    everything = [*start.moves, *moves]
    first = round_start(everything, done)
    found: list[tuple[int, PlayerView, Pass | Play, int]] = []
    for offset, move in enumerate(moves):
        n = done + offset
        if isinstance(move, NextRound):
            first = n + 1
        elif isinstance(move, Pass | Play) and move.seat in seats and n not in stood_in:
            found.append((n, start.view(move.seat), move, first))
        start.apply(move)
    digests = []
    inputs = []
    for n, _, move, first in found:
        seed = decision_seed(secret, first, move.seat)
        hint_seed = decision_seed(secret, n, move.seat)  # as the hint of a card is seeded
        inputs.append((names[move.seat], seed, hint_seed))
        digests.append((n, (list(names[move.seat]), seed, budget, hint_seed)))
    keys = _digests(everything, digests)
    return [
        Job((game_id, move.seat, n, digest), view, move, seat_names, seed, budget, hint_seed)
        for (n, view, move, _), (seat_names, seed, hint_seed), digest in zip(
            found, inputs, keys, strict=True
        )
    ]


def round_jobs(
    game_id: str,
    rules: Rules,
    secret: Seed,
    moves: Sequence[Any],
    seat: int,
    names: tuple[str, ...],
    number: int,
    budget: int = REVIEW_BUDGET,
    stood_in: Collection[int] = (),
) -> list[Job]:
    """The jobs for every pass and card of `seat` in round `number` (from 0) of a game whose
    moves are `moves`, but those numbered in `stood_in` (made for the person while away)."""
    first, end = round_bounds(moves, number)
    game = replayed(rules, secret, [move_to_action(m) for m in moves[:first]])
    return decision_jobs(
        game_id, secret, game, moves[first:end], [seat], {seat: names}, budget, stood_in
    )


def round_bounds(moves: Sequence[Any], number: int) -> tuple[int, int]:
    """The numbers of round `number`'s first move and of the move after its last."""
    starts = [0] + [n + 1 for n, move in enumerate(moves) if isinstance(move, NextRound)]
    first = starts[number]
    return first, starts[number + 1] - 1 if number + 1 < len(starts) else len(moves)


def stood_in_for(moves: Sequence[Any], seat: int, number: int, stood_in: Collection[int]) -> int:
    """How many of `seat`'s passes and cards in round `number` a computer player made for
    them while they were away."""
    first, end = round_bounds(moves, number)
    return sum(
        1
        for n in range(first, end)
        if n in stood_in and isinstance(moves[n], Pass | Play) and moves[n].seat == seat
    )


def summary(number: int, decisions: list[dict[str, Any]], stood_in: int = 0) -> dict[str, Any]:
    """The review's answer: the decisions, their total cost and the costliest three; and
    how many of the round's moves were made for the person while away (not reviewed)."""
    costs = [d["cost"] for d in decisions if isinstance(d["cost"], float)]
    costliest = sorted(
        (i for i, d in enumerate(decisions) if isinstance(d["cost"], float) and d["cost"] > 0),
        key=lambda i: -float(decisions[i]["cost"]),
    )
    return {
        "round": number + 1,
        "decisions": decisions,
        "total_cost": round(sum(costs), 2),
        "costliest": costliest[:3],
        "game_end": GAME_END_WEIGHT if any(d.get("game_at_stake") for d in decisions) else None,
        "stood_in": stood_in,
    }


class Reviews:
    """Reviews of people's decisions, worked out one at a time in a low-priority worker;
    those a request waits for go first, to a worker of normal priority.

    `workers=0` makes none in the background (each is made when a review is asked for);
    `processes=False` uses a thread instead of a process (tests)."""

    def __init__(
        self,
        workers: int = 1,
        processes: bool = True,
        budget: int = REVIEW_BUDGET,
        kept: int = KEPT,
        queue: int = QUEUE,
        metrics: Metrics | None = None,
    ) -> None:
        self.metrics = metrics or Metrics()
        self.background = workers > 0
        self.workers = max(1, workers)
        #: Workers for decisions a person waits for: a round's backlog in parallel.
        self.asked_workers = max(1, min(2, os.cpu_count() or 1))
        self.processes = processes
        self.budget = budget
        self.kept = kept
        self.queue = queue
        self._results: OrderedDict[Key, asyncio.Future[dict[str, Any]]] = OrderedDict()
        self._waiting: OrderedDict[Key, Job] = OrderedDict()
        """Background jobs not started yet, oldest first."""
        self._urgent: OrderedDict[Key, Job] = OrderedDict()
        """Jobs a request waits for: they go first."""
        self._running = {True: 0, False: 0}
        """Decisions being reviewed, by worker: True for the one a person waits on."""
        self._queuing = 0
        self._busy: dict[Key, Job] = {}
        self._closed = False
        self._names: OrderedDict[str, dict[int, tuple[str, ...]]] = OrderedDict()
        """The seats' names by game, as each person sees them."""
        """Decisions being reviewed in the background."""
        """Batches of new moves being turned into jobs."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._pools: dict[str, concurrent.futures.Executor] = {}
        self.made = {"background": 0, "asked": 0}
        """Decisions reviewed, by whether a request was waiting for them."""
        self.dropped = 0

    # --- the workers ---------------------------------------------------------------------

    def _executor(self, asked: bool) -> concurrent.futures.Executor:
        """The low-priority workers for the background, or the one worker (normal priority,
        started when first needed) for decisions a person waits for."""
        kind = "asked" if asked else "background"
        pool = self._pools.get(kind)
        if pool is None:
            count = self.asked_workers if asked else self.workers
            if self.processes and not main_importable():
                log.warning("__main__ cannot be loaded by worker processes; reviewing in threads")
                self.processes = False
            if self.processes:
                pool = process_pool(count, 0 if asked else NICE)
            else:
                pool = concurrent.futures.ThreadPoolExecutor(count)
            self._pools[kind] = pool
        return pool

    def _drop_pool(self, asked: bool, wait: bool = False) -> None:
        pool = self._pools.pop("asked" if asked else "background", None)
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers. Waiting lets each finish its decision and exit: a process pool
        shut down without waiting can leave its workers behind the server."""
        self._closed = True  # the cancelled jobs start no others (and no new pool)
        self._waiting.clear()
        self._urgent.clear()
        for task in self._tasks:
            task.cancel()
        for asked in (True, False):
            self._drop_pool(asked, wait=True)

    async def settled(self) -> None:
        """After `close`: wait for the cancelled tasks to end. A task cancelled before it
        ever ran must still be stepped once to end, or its coroutine is left never awaited."""
        loop = asyncio.get_running_loop()
        # Only this loop's: a request served outside the app's lifespan (a test client used
        # without its context) ran on a loop of its own, and its tasks cannot be awaited here.
        # One such task that its loop ended before it ever ran is closed unstarted, or its
        # coroutine is reported never awaited.
        for task in [t for t in self._tasks if t.get_loop() is not loop]:
            coro = task.get_coro()
            unstarted = inspect.iscoroutine(coro) and (
                inspect.getcoroutinestate(coro) == inspect.CORO_CREATED
            )
            if unstarted and task.get_loop().is_closed():
                coro.close()
                self._tasks.discard(task)
        while mine := [task for task in self._tasks if task.get_loop() is loop]:
            await asyncio.gather(*mine, return_exceptions=True)

    @property
    def pending(self) -> int:
        """Decisions waiting or being reviewed, and batches of moves being queued."""
        running = sum(self._running.values())
        return len(self._waiting) + len(self._urgent) + running + self._queuing

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        if self._closed:  # nothing starts once closed: a task made now might never be stepped
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _kick(self) -> None:
        """Start what the workers have room for: a decision a person waits for goes to the
        normal-priority worker first, and to a background worker that would idle."""
        if self._closed:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # a task closed after its loop stopped (a killed server)
            return
        while self._running[True] < self.asked_workers and self._urgent:
            self._start(self._urgent, pool=True)
        while self._running[False] < self.workers and (self._urgent or self._waiting):
            self._start(self._urgent or self._waiting, pool=False)

    def _start(self, queue: OrderedDict[Key, Job], pool: bool) -> None:
        _, job = queue.popitem(last=False)
        self._running[pool] += 1
        if not pool:
            self._busy[job.key] = job
        self._spawn(self._run(job, asked=queue is self._urgent, pool=pool))

    async def _run(self, job: Job, asked: bool, pool: bool) -> None:
        future = self._results.get(job.key)
        cancelled = False
        try:
            if future is None or future.done():
                return  # dropped from the kept reviews meanwhile
            args = (job.view, job.move, job.names, job.seed, job.budget, job.hint_seed)
            loop = asyncio.get_running_loop()
            began = time.perf_counter()
            executor = self._executor(pool)
            try:
                result = await loop.run_in_executor(executor, review_job, *args)
            except BrokenProcessPool:
                # Every review in the broken pool lands here: the first replaces it, once.
                if self._pools.get("asked" if pool else "background") is executor:
                    ended = ended_workers(executor)
                    self._drop_pool(pool)
                    log.warning(
                        "the coach's review %s ended; a new one was started for its reviews",
                        a_worker(ended),
                    )
                result = await loop.run_in_executor(self._executor(pool), review_job, *args)
            self.metrics.coached("review", time.perf_counter() - began)
            if not future.done():  # the first of two workers on it gives the answer
                self.made["asked" if asked else "background"] += 1
                future.set_result(result)
        except asyncio.CancelledError:
            cancelled = True
            if future is not None and not future.done():
                future.cancel()
            raise
        except Exception as error:
            log.exception("reviewing move %d of game %s failed", job.key[2], job.key[0])
            if future is not None and not future.done():
                future.set_exception(error)
        finally:
            self._running[pool] -= 1
            if not pool:
                self._busy.pop(job.key, None)
            # Only `close` and the end of the loop cancel a review's task (a request waits on
            # its result, not on the task): at a loop's end (`asyncio.run`, or uvicorn
            # stopping a server whose app never closed the reviews) the next job's task, made
            # here, was left on the stopped loop, pending or never started ("never awaited").
            if not cancelled:
                self._kick()

    def _want(self, job: Job, asked: bool) -> asyncio.Future[dict[str, Any]]:
        """The review of `job`'s decision: kept, being made, or queued now."""
        future = self._results.get(job.key)
        if future is not None and not (future.done() and future.exception() is not None):
            self._results.move_to_end(job.key)
            if asked and job.key in self._waiting:  # promoted: a person waits for it
                self._urgent[job.key] = self._waiting.pop(job.key)
            elif asked and job.key in self._busy and not future.done():
                # Being reviewed at nice 19, which a busy machine may starve: a worker of
                # normal priority takes it too, and the first answer counts.
                self._urgent[job.key] = job
            return future
        future = asyncio.get_running_loop().create_future()
        self._results[job.key] = future
        (self._urgent if asked else self._waiting)[job.key] = job
        self._trim()
        return future

    def _trim(self) -> None:
        while len(self._waiting) > self.queue:
            key, _ = self._waiting.popitem(last=False)
            found = self._results.pop(key, None)
            if found is not None:
                found.cancel()
            self.dropped += 1
        if len(self._results) > self.kept:
            for key in [k for k, f in self._results.items() if f.done()]:
                del self._results[key]
                if len(self._results) <= self.kept:
                    break

    # --- what the referee and the coach call ---------------------------------------------

    def attach(self, service: GameService) -> None:
        """Review the decisions `service` stores from now on."""
        service.watchers.append(lambda before, after: self.decided(before, after, service))

    def decided(self, before: LoadedGame, after: LoadedGame, service: GameService) -> None:
        """Moves were stored (`before` -> `after`): queue reviews of the people's passes and
        cards among them. Called on the event loop; the work is done off it."""
        if not self.background or self._closed:
            return
        done = len(before.game.moves)
        new = after.game.moves[done:]
        people = list(after.table.people)
        if not any(isinstance(m, Pass | Play) and m.seat in people for m in new):
            return
        self._queuing += 1
        self._spawn(self._queue_decisions(before, after, service, people))

    async def _queue_decisions(
        self, before: LoadedGame, after: LoadedGame, service: GameService, people: list[int]
    ) -> None:
        try:
            game_id = after.stored.id
            names = self._names.get(game_id)
            if names is None:
                # Read once a game: names are settled once it has started (and were they
                # ever to change, the key holds them, so a review would be made again).
                seating = await asyncio.to_thread(service.store.seating, game_id)
                if seating is None:
                    return
                names = {}
                for seat in people:
                    players = service.state(after, seat, seating, [])["players"]
                    names[seat] = tuple(p["name"] for p in players)
                self._names[game_id] = names
                while len(self._names) > NAMES_KEPT:
                    self._names.popitem(last=False)
            done = len(before.game.moves)
            jobs = await asyncio.to_thread(
                decision_jobs,
                game_id,
                after.stored.seed,
                before.game.copy(),
                after.game.moves[done:],
                people,
                names,
                self.budget,
                after.stand_ins,
            )
        except StoreUnavailable as error:
            # Nothing is lost: a decision not reviewed in the background is reviewed when
            # the review is asked for. The absence itself is the requests' to report.
            log.warning(
                "the reviews of game %s are left for when they are asked (database away: %s)",
                before.stored.id,
                error,
            )
            return
        except Exception:
            log.exception("could not queue the reviews of game %s", before.stored.id)
            return
        finally:
            self._queuing -= 1
        for job in jobs:
            self._want(job, asked=False)
        self._kick()

    async def round_review(
        self,
        game_id: str,
        rules: Rules,
        secret: Seed,
        moves: Sequence[Any],
        seat: int,
        names: Sequence[str],
        number: int,
        stood_in: Collection[int] = (),
    ) -> dict[str, Any]:
        """The review of round `number` (from 0, over) for `seat`: each decision kept,
        awaited or worked out now, ahead of the background work; the moves numbered in
        `stood_in` (a computer player's, made for the person while away) left out."""
        jobs = await asyncio.to_thread(
            round_jobs,
            game_id,
            rules,
            secret,
            moves,
            seat,
            tuple(names),
            number,
            self.budget,
            stood_in,
        )
        futures = [self._want(job, asked=True) for job in jobs]
        self._kick()
        decisions = await asyncio.gather(*(asyncio.shield(f) for f in futures))
        return summary(number, list(decisions), stood_in_for(moves, seat, number, stood_in))
