"""The service's log lines: one warning of a run, not a flood.

While the database is away every request is a 503 and the connection pool retries on its
own: each says so, which under steady requests is thousands of like lines a minute.
`Repeats` lets the first of a kind through (a kind is the logger and the message before its
arguments are put in), holds back the like ones for `window` seconds, and then lets the next
one through with how many were held back. Other lines (the news, errors) always pass.

>>> import logging
>>> now = [0.0]
>>> said = []
>>> log = logging.getLogger("hearts.doctest.repeats")
>>> log.propagate = False
>>> handler = logging.Handler()
>>> handler.emit = lambda record: said.append(record.getMessage())
>>> handler.addFilter(Repeats(window=30, clock=lambda: now[0]))
>>> log.addHandler(handler)
>>> for second in range(60):
...     now[0] = float(second)
...     log.warning("database unavailable on %s: %s", "/api/games", "refused")
>>> for line in said:
...     print(line)
database unavailable on /api/games: refused
database unavailable on /api/games: refused (and 29 like it in the 30 s before)
>>> log.error("failed: %s", "one"); log.error("failed: %s", "two")
>>> said[-2:]
['failed: one', 'failed: two']
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

#: Kinds of warning remembered at once; the oldest is forgotten first.
KINDS = 256


class Repeats(logging.Filter):
    """At most one warning of a kind every `window` seconds, the next one counting those
    held back."""

    def __init__(self, window: float = 30.0, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.window = window
        self.clock = clock
        self._seen: OrderedDict[tuple[str, str], tuple[float, int]] = OrderedDict()
        """By kind: when one last went through, and how many were held back since."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING:
            return True
        kind = (record.name, str(record.msg))
        now = self.clock()
        seen = self._seen.get(kind)
        if seen is not None and now - seen[0] < self.window:
            self._seen[kind] = (seen[0], seen[1] + 1)
            return False
        self._seen[kind] = (now, 0)
        self._seen.move_to_end(kind)
        while len(self._seen) > KINDS:
            self._seen.popitem(last=False)
        if seen is not None and seen[1]:
            record.msg = f"{record.msg} (and {seen[1]} like it in the {now - seen[0]:.0f} s before)"
        return True
