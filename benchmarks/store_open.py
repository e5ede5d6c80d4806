"""Opening a SQLite store beside a writer that never pauses: how many opens succeed, and how
many give up ("database is locked"), in a fixed time.

Usage: python benchmarks/store_open.py [--seconds 20]

A thread writes to the store without pause (an insert a transaction, a checkpoint now and
then), as a busy server does; the main thread opens `Store` on the same folder again and
again, as a second process, a tool or a test does. Run it with PYTHONPATH naming another
checkout's `src` to measure that one (docs/benchmarks.md, "Opening a store beside a writer").
"""

from __future__ import annotations

import argparse
import platform
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

from hearts.web.store import Store, StoreError


def writer(path: Path, stop: threading.Event) -> None:
    db = sqlite3.connect(path, timeout=10, isolation_level=None)
    db.execute("CREATE TABLE IF NOT EXISTS filler (x TEXT)")
    count = 0
    while not stop.is_set():
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO filler VALUES (?)", ("x" * 1000,))
        db.execute("COMMIT")
        count += 1
        if count % 200 == 0:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        Store(folder).ping()  # made, brought up to date, and in WAL mode, as a server's is
        stop = threading.Event()
        thread = threading.Thread(target=writer, args=(folder / "hearts.sqlite3", stop))
        thread.start()
        opened = failed = 0
        slowest = 0.0
        end = time.monotonic() + args.seconds
        try:
            while time.monotonic() < end:
                began = time.monotonic()
                try:
                    Store(folder)
                    opened += 1
                except (sqlite3.OperationalError, StoreError):
                    failed += 1
                slowest = max(slowest, time.monotonic() - began)
        finally:
            stop.set()
            thread.join()
    print(f"{platform.machine()}, Python {platform.python_version()}, {args.seconds:g} s")
    print(f"opened {opened}, gave up {failed}, slowest open {slowest:.2f} s")


if __name__ == "__main__":
    main()
