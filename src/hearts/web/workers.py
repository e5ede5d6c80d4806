"""Worker processes for the computer players and the coach's reviews.

Both pools start their workers the same way: by forkserver where there is one (never fork:
the server has threads by then, and forking a threaded process can copy a held lock into the
child), at a given priority, and each worker watching the server that started it. A server
killed outright (SIGKILL, the OOM killer) never shuts its pools down, and their workers,
children of the forkserver and holding the pool's pipes themselves, would wait for work
forever; the watch ends them within `WATCH_EVERY` seconds of the server's end, and they
remove the semaphores of the pool's queues, which the server would have removed.

A worker killed under a running server (SIGKILL, the OOM killer) breaks its pool: every task
in it fails with `BrokenProcessPool`. The server says so in one line, naming the worker and
how it ended (`ended_workers`), and starts a new pool in its place.
"""

from __future__ import annotations

import concurrent.futures
import gc
import multiprocessing
import os
import signal
import sys
import threading
import time

WATCH_EVERY = 2.0
"""Seconds between a worker's looks at the server."""


def main_importable() -> bool:
    """Whether a forkserver or spawn worker can load `__main__` as it starts (it cannot when
    the program came from stdin or `python -c`)."""
    main = sys.modules.get("__main__")
    if main is None or getattr(getattr(main, "__spec__", None), "name", None):
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)


def process_pool(workers: int, nice: int = 0) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of `workers` processes at niceness `nice` (at least the server's), each ending
    itself once the server is gone."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start, initargs=(nice, os.getpid())
    )


def ended_workers(pool: concurrent.futures.Executor) -> str:
    """Which workers of a broken `pool` ended by themselves, and how, before the pool is shut
    down: "process 4242 (killed by SIGKILL)", several joined by "and"; "" when the pool
    does not tell (its table of processes is CPython's own). The others, which the broken
    pool ends itself with SIGTERM, are not named."""
    processes = getattr(pool, "_processes", None) or {}
    said = []
    for pid, process in sorted(dict(processes).items()):
        code = process.exitcode
        if code is None or code == -signal.SIGTERM:
            continue
        if code < 0:
            try:
                how = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exited with status {code}"
        said.append(f"process {pid} ({how})")
    return " and ".join(said)


def a_worker(ended: str) -> str:
    """ "worker process 4242 (killed by SIGKILL)", or "worker" when it is not known."""
    return f"worker {ended}" if ended else "worker"


def _start(nice: int, server: int) -> None:
    """A worker's start: its priority, Ctrl-C left to the server (which stops its pools; a
    worker that took it printed a KeyboardInterrupt traceback, each one, before the server's
    "Hearts stopped"), and a watch on the server that started it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(max(0, nice - os.nice(0)))
    threading.Thread(target=_watch, args=(server,), daemon=True, name="server-watch").start()


def _watch(server: int) -> None:
    while True:
        time.sleep(WATCH_EVERY)
        if os.getppid() == server:
            continue  # still the server's child (spawn): it is alive
        try:
            os.kill(server, 0)
        except (ProcessLookupError, PermissionError):  # gone (or its pid another user's)
            _remove_semaphores()
            os._exit(0)


def _remove_semaphores() -> None:
    """Remove the named semaphores of the pool's queues, which the server, killed, could not.
    Left to multiprocessing's resource tracker, they were removed as the last of the
    server's processes ended, with its two-line warning in the log ("resource_tracker: There
    appear to be 5 leaked semaphore objects to clean up at shutdown"). Each is removed once:
    the worker whose unlink succeeds tells the tracker, the others find it gone."""
    from multiprocessing import resource_tracker, synchronize

    for held in gc.get_objects():
        if not isinstance(held, synchronize.SemLock):
            continue
        name = getattr(getattr(held, "_semlock", None), "name", None)
        if not name:  # a semaphore without a name (fork) is no file to remove
            continue
        try:
            synchronize.sem_unlink(name)  # type: ignore[attr-defined]
        except OSError:  # removed by another worker of the pool
            continue
        resource_tracker.unregister(name, "semaphore")


__all__ = ["WATCH_EVERY", "a_worker", "ended_workers", "main_importable", "process_pool"]
