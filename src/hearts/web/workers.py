"""Worker processes for the computer players and the coach's reviews.

Both pools start their workers the same way: by forkserver where there is one (never fork:
the server has threads by then, and forking a threaded process can copy a held lock into the
child), at a given priority, and each worker watching the server that started it. A server
killed outright (SIGKILL, the OOM killer) never shuts its pools down, and their workers,
children of the forkserver and holding the pool's pipes themselves, would wait for work
forever; the watch ends them within `WATCH_EVERY` seconds of the server's end.
"""

from __future__ import annotations

import concurrent.futures
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
            os._exit(0)


__all__ = ["WATCH_EVERY", "main_importable", "process_pool"]
