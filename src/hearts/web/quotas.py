"""Quotas on new games, so one browser (or one address minting fresh cookies) cannot fill
the disk: a number of new games per hour by browser and by address, a few unfinished games
kept per browser, old unfinished games removed, and no new game while the disk is nearly full.

Both hourly counts are of the starts the store keeps (its `starts` table) apart from the
games, so a game closed by the unfinished quota, or expired, still counts for its hour; and
they hold across restarts and across processes sharing the store. A start is counted and
added in one transaction, so two processes at the limit's edge cannot both pass. A start
keeps the browser as a hash of its cookie and the address as a keyed hash under the cookie
secret, never the address itself, and is removed once over an hour old. An IPv6 client is
counted by its /64, the network one customer is given, in which it may take any address.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import secrets
import shutil
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable

from ..words import counted
from .metrics import Metrics
from .settings import Settings
from .store import Start, Starts, is_away
from .stores import GameStore, StoreUnavailable

HOUR = 3600.0
DAY = 86400.0
#: How soon old games are expired again after the database did not answer: an hour's wait
#: (the usual gap) would leave them all that time after a database that was away at start.
EXPIRY_RETRY = 60.0

log = logging.getLogger("hearts.web")


class OverQuota(Exception):
    """A new game refused: the quota (`kind`: "browser", "address" or "disk"), the HTTP
    status, one sentence, and seconds to wait (429)."""

    def __init__(self, kind: str, status: int, reason: str, retry_after: int | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.status = status
        self.reason = reason
        self.retry_after = retry_after


class Quotas:
    def __init__(
        self,
        store: GameStore,
        settings: Settings,
        address_key: Callable[[str], str],
        clock: Callable[[], float] = time.time,
        metrics: Metrics | None = None,
    ) -> None:
        """`address_key` turns a client address into what the store keeps of it."""
        self.store = store
        self.settings = settings
        self.address_key = address_key
        self.clock = clock
        self.metrics = metrics or Metrics()

    def admit(self, owner: str, address: str | None) -> str:
        """Count a new game of this browser (and address): the id of its start. Raise
        OverQuota, and count nothing, if it may not start now."""
        try:
            return self._admit(owner, address)
        except OverQuota as over:
            self.metrics.refused(over.kind)
            raise

    def _admit(self, owner: str, address: str | None) -> str:
        now = self.clock()
        free = shutil.disk_usage(self.store.directory).free
        if free < self.settings.min_free_bytes:
            raise OverQuota(
                "disk", 507, "The server is short of disk space, so no new game can start just now."
            )
        hidden = None if address is None else self.address_key(counted_as(address))
        start = Start(secrets.token_urlsafe(12), owner, hidden, now)
        self.store.add_start(start, now - HOUR, lambda mine, here: self._check(mine, here, now))
        return start.id

    def _check(self, by_browser: Starts, by_address: Starts | None, now: float) -> None:
        count, first = by_browser
        if count >= self.settings.games_per_hour and first is not None:
            # Games started count, finished or not: finishing one does not help, waiting does.
            wait = _seconds(first + HOUR - now)
            raise OverQuota(
                "browser",
                429,
                f"This browser has started {count} game{'' if count == 1 else 's'} in the last "
                f"hour: a new one can start in {_minutes(wait)}. Your unfinished games can be "
                "continued meanwhile.",
                wait,
            )
        if by_address is None:
            return
        count, first = by_address
        if count >= self.settings.games_per_hour_per_address and first is not None:
            wait = _seconds(first + HOUR - now)
            raise OverQuota(
                "address",
                429,
                "Too many new games have started from this address in the last hour: a new"
                f" one can start in about {_minutes(wait)}.",
                wait,
            )

    def withdraw(self, start_id: str) -> None:
        """Stop counting a start whose game was not made after all."""
        self.store.drop_start(start_id)

    def after_create(self, owner: str) -> list[str]:
        """Close (remove) the browser's unfinished games past the allowed few."""
        return self.store.trim_unfinished(owner, self.settings.unfinished_per_browser)

    def closed_by_next(self, owner: str) -> list[str]:
        """The browser's games its next new game would close (`after_create`)."""
        return self.store.closed_by_next(owner, self.settings.unfinished_per_browser)

    def expire(self) -> list[str]:
        """Remove unfinished games nobody has touched for `expire_days` (the ids), and the
        starts over an hour old (on a quiet site no new game comes to remove them)."""
        now = self.clock()
        self.store.forget_starts(now - HOUR)
        return self.store.expire(now - self.settings.expire_days * DAY)


async def expire_while_serving(
    quotas: Quotas,
    forget: Callable[[list[str]], None],
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """Expire old games at once and then hourly, until cancelled, telling `forget` which
    games went. A database that does not answer is one line of the log and another try in
    `EXPIRY_RETRY` seconds (its absence is the requests' to report, with their 503s); any
    other failure is logged in full and tried again in an hour."""
    while True:
        wait = HOUR
        try:
            removed = await asyncio.to_thread(quotas.expire)
            forget(removed)
            if removed:
                count = len(removed)
                games = "game" if count == 1 else "games"
                log.info("removed %d unfinished %s untouched too long", count, games)
        except (sqlite3.Error, StoreUnavailable) as error:
            if isinstance(error, StoreUnavailable) or is_away(error):
                log.warning(
                    "expiring old games waits for the database (%s): trying again in %d s",
                    error,
                    EXPIRY_RETRY,
                )
                wait = EXPIRY_RETRY
            else:
                log.exception("expiring old games failed")
        await sleep(wait)


#: The window in which `SheetRenders` counts a client's new sheets, in seconds.
MINUTE = 60.0
#: Clients whose renders are remembered at once: past it the longest-quiet are forgotten
#: (each keeps at most a limit's worth of times, under a kilobyte).
MAX_SHEET_CLIENTS = 10_000


class SheetRenders:
    """A limit on the printable sheets drawn anew for one client address, in any minute: each
    costs some 100 ms of CPU, and a sheet for a new set of rules or names is always new. A
    sheet served from the cache costs nothing and is not counted. Kept in memory, by process
    (a sheet is made in the process that serves it), by the same keyed hash of the address as
    the new-games quota, an IPv6 client by its /64 (`counted_as`)."""

    def __init__(
        self,
        settings: Settings,
        address_key: Callable[[str], str],
        clock: Callable[[], float] = time.monotonic,
        metrics: Metrics | None = None,
    ) -> None:
        self.limit = settings.sheets_per_minute_per_address
        self.address_key = address_key
        self.clock = clock
        self.metrics = metrics or Metrics()
        self._times: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def admit(self, address: str | None) -> None:
        """Count a sheet about to be drawn for this address; raise OverQuota (429, with the
        seconds to wait) and count nothing if it has had its minute's share."""
        key = self.address_key(counted_as(address or "unknown"))
        with self._lock:
            now = self.clock()
            times = self._times.pop(key, None) or deque(maxlen=self.limit)
            while times and times[0] <= now - MINUTE:
                times.popleft()
            self._times[key] = times  # last in the dict: the most recently heard from
            if len(times) >= self.limit:
                self.metrics.refused("sheets")
                wait = _seconds(times[0] + MINUTE - now)
                raise OverQuota(
                    "sheets",
                    429,
                    f"Too many new sheets have been asked for from this address in the last "
                    f"minute: try again in {counted(wait, 'second')}.",
                    wait,
                )
            times.append(now)
            self._forget(now)

    def _forget(self, now: float) -> None:
        """Drop the clients quiet for a minute once too many are remembered, and past that
        the longest-quiet ones."""
        if len(self._times) <= MAX_SHEET_CLIENTS:
            return
        for key in [k for k, t in self._times.items() if not t or t[-1] <= now - MINUTE]:
            del self._times[key]
        while len(self._times) > MAX_SHEET_CLIENTS:
            del self._times[next(iter(self._times))]


def counted_as(address: str) -> str:
    """The part of a client's address that the per-address quota counts: an IPv4 address
    whole (also when it comes as an IPv4-mapped IPv6 one), an IPv6 address by its /64.

    >>> counted_as("203.0.113.9"), counted_as("::ffff:203.0.113.9")
    ('203.0.113.9', '203.0.113.9')
    >>> counted_as("2001:db8:1:2:aaaa::1"), counted_as("fe80::1%eth0")
    ('2001:db8:1:2::/64', 'fe80::/64')
    >>> counted_as("testclient")
    'testclient'
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address  # not an IP address: a test client's name, a Unix socket
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def _seconds(delay: float) -> int:
    return max(1, math.ceil(delay))


def _minutes(seconds: int) -> str:
    """
    >>> _minutes(3600), _minutes(61), _minutes(5)
    ('60 minutes', '2 minutes', 'a minute')
    """
    minutes = math.ceil(seconds / 60)
    return "a minute" if minutes <= 1 else f"{minutes} minutes"
