"""The service's log lines: one line per event, and one warning of a run, not a flood.

`OneLine` writes every record on one line with its time, level and process: a message of
several lines (PostgreSQL's "Connection refused" and its hint on the next line) is joined,
and an error's traceback is cut down to its exception and the frames in this package,
innermost first. Several processes write to one place, and a reader (or grep) takes a line
for an event.

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

When the database answers again, `Outage` says so once with how long it was away, and the
filter adds how many warnings it held back meanwhile (and forgets them, so the next outage's
first warning is said at once):

>>> log.setLevel(logging.INFO)
>>> outage = Outage(log, clock=lambda: now[0])
>>> now[0] = 75.0; outage.failed()
>>> for second in range(75, 90):
...     now[0] = float(second)
...     log.warning("database unavailable on %s: %s", "/api/games", "refused")
>>> now[0] = 91.0; outage.answered(); outage.answered()
>>> said[-1]
'the database answers again after 16 s away (14 warnings were held back)'

A request that began waiting before the database came back, and failed after, failed for
the outage that is over: it starts no other (one stop was logged as two outages).

>>> began = now[0] = 92.0; outage.failed(); now[0] = 96.0
>>> outage.answered(); now[0] = 97.0; outage.failed(began=began)
>>> outage.away, outage.outages, said[-1]
(False, 2, 'the database answers again after 4 s away')
>>> now[0] = 98.0; outage.failed(began=now[0])
>>> outage.away, outage.outages
(True, 3)
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Sequence

from .settings import redacted

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
        if getattr(record, "outage_over", False):
            held = sum(count for _, count in self._seen.values())
            self._seen.clear()
            if held:
                said = "1 warning was" if held == 1 else f"{held} warnings were"
                record.msg = f"{record.msg} ({said} held back)"
            return True
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


class Outage:
    """The database away and back: `failed()` on each request it did not answer,
    `answered()` on each it did; the first answer after a failure is logged once (INFO),
    with how long the database was away. Safe from several threads. The metrics read how
    often and how long (`hearts.web.metrics`).

    >>> now = [0.0]
    >>> outage = Outage(logging.getLogger("hearts.doctest.outage"), clock=lambda: now[0])
    >>> outage.failed(); now[0] = 5.0; outage.failed()
    >>> outage.away, outage.outages, outage.seconds_away()
    (True, 1, 5.0)
    >>> outage.answered(); now[0] = 9.0
    >>> outage.away, outage.outages, outage.seconds_away()
    (False, 1, 5.0)
    """

    def __init__(self, log: logging.Logger, clock: Callable[[], float] = time.monotonic):
        self.log = log
        self.clock = clock
        self._since: float | None = None
        self._lock = threading.Lock()
        #: Times the database stopped answering (a failure after an answer, or the first).
        self.outages = 0
        self._over = 0.0
        """Seconds away in the absences that are over."""
        self._back: float | None = None
        """When the database last answered again after an absence."""

    @property
    def away(self) -> bool:
        """Whether the database has failed and not answered since."""
        return self._since is not None

    def seconds_away(self) -> float:
        """Seconds the database has been away in all, the current absence included."""
        with self._lock:
            since = self._since
            return self._over + (self.clock() - since if since is not None else 0.0)

    def failed(self, began: float | None = None) -> None:
        """A request the database did not answer; `began` (by this clock) is when it began
        to wait, if that is known: one that began before the database came back failed for
        the absence that is over, and starts no new one."""
        with self._lock:
            if began is not None and self._back is not None and began <= self._back:
                return
            if self._since is None:
                self._since = self.clock()
                self.outages += 1

    def answered(self) -> None:
        if self._since is None:  # the usual case, without the lock
            return
        with self._lock:
            since, self._since = self._since, None
            now = self.clock()
            away = now - since if since is not None else 0.0
            self._over += away
            self._back = now
        if since is not None:
            self.log.info(
                "the database answers again after %.0f s away", away, extra={"outage_over": True}
            )


def joined(text: str) -> str:
    r"""`text` on one line, its runs of spaces as one. A line that begins with a capital
    starts a sentence (libpq's hint below its error), so the line before it ends with a
    stop; any other is the same sentence wrapped, and goes on after a space.

    >>> joined("Connection refused\n\tIs the server running on that host?")
    'Connection refused. Is the server running on that host?'
    >>> joined("closed unexpectedly\n\tThis probably means\n\tbefore or while  processing.")
    'closed unexpectedly. This probably means before or while processing.'
    """
    said = ""
    for line in text.splitlines():
        words = " ".join(line.split())
        if not words:
            continue
        if said and words[0].isupper() and said[-1] not in ".:;,!?-(":
            said += "."
        said = f"{said} {words}" if said else words
    return said


#: Python's name for an object with no words of its own ends with where it is in memory
#: (`<psycopg.Connection [BAD] at 0x7f4ac033ca50>`): a different number in every line, of use
#: to nobody reading the log, and it stops grep and the repeats' count from seeing one kind.
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+(?=>)")

#: The frames of an error's traceback shown at most (this package's, innermost first).
FRAMES = 8
PACKAGE = os.sep + "hearts" + os.sep


class OneLine(logging.Formatter):
    r"""`time LEVEL hearts[pid] message`, on one line whatever the message holds.

    >>> record = logging.LogRecord("hearts", logging.WARNING, __file__, 1,
    ...     "pool: %s", ("connection refused\n\tIs the server running on that host?",), None)
    >>> OneLine("%(levelname)s %(message)s").format(record)
    'WARNING pool: connection refused. Is the server running on that host?'
    >>> try:
    ...     {}["seat"]
    ... except KeyError as error:
    ...     failed = error
    >>> record = logging.LogRecord("hearts", logging.ERROR, __file__, 1, "on GET /x", (),
    ...                            (KeyError, failed, failed.__traceback__))
    >>> OneLine("%(message)s").format(record)
    "on GET /x: KeyError: 'seat' (at <doctest hearts.web.logs.OneLine[2]>:2 in <module>)"
    """

    def __init__(
        self,
        fmt: str = "%(asctime)s %(levelname)s hearts[%(process)d] %(message)s",
        hidden: Sequence[str] = (),
    ):
        super().__init__(fmt)
        #: Secrets (the database URL's password) put as "…" where a line holds one as a
        #: password (in a URL, after `password=`, quoted alone), never in other words.
        self.hidden = tuple(hidden)

    def format(self, record: logging.LogRecord) -> str:
        record.message = ADDRESS.sub("", joined(record.getMessage()))
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        line = self.formatMessage(record)
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            line = f"{line}: {one_line(error)}"
        return redacted(line, self.hidden)


def one_line(error: BaseException) -> str:
    """An error as one line: its type, its text, and where it was raised (this package's
    frames, innermost first, and the innermost one wherever it is), then what caused it."""
    text = joined(str(error))
    said = f"{type(error).__name__}: {text}" if text else type(error).__name__
    frames = traceback.extract_tb(error.__traceback__)
    shown = [frame for frame in frames if PACKAGE in frame.filename]
    if frames and (not shown or shown[-1] is not frames[-1]):
        shown.append(frames[-1])
    places = [_place(frame) for frame in reversed(shown)][:FRAMES]
    if places:
        said += f" (at {' < '.join(places)})"
    cause = error.__cause__ or (None if error.__suppress_context__ else error.__context__)
    if cause is not None:
        said += f"; from {type(cause).__name__}: {joined(str(cause))}"
    return said


def _place(frame: traceback.FrameSummary) -> str:
    """'hearts/web/api.py:120 in play', or a library's file by its name alone."""
    name = frame.filename
    if PACKAGE in name:
        name = "hearts" + os.sep + name.rsplit(PACKAGE, 1)[1]
    else:
        name = os.path.basename(name)
    return f"{name}:{frame.lineno} in {frame.name}"
