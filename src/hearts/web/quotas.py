"""Quotas on new games, so one browser (or one address minting fresh cookies) cannot fill
the disk: a number of new games per hour, a few unfinished games kept per browser, old
unfinished games removed, and no new game while the disk is nearly full.

The per-browser count comes from the store (games started in the last hour), so it holds
across restarts and across processes sharing the store; the per-address count is kept in
memory, as a second line against a client that drops its cookie for each game.
"""

from __future__ import annotations

import math
import shutil
import time
from collections import deque
from collections.abc import Callable

from .metrics import Metrics
from .settings import Settings
from .stores import GameStore

HOUR = 3600.0
DAY = 86400.0
#: Addresses remembered at most; past it the ones idle longest are forgotten.
MOST_ADDRESSES = 50_000


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
        clock: Callable[[], float] = time.time,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.metrics = metrics or Metrics()
        self._by_address: dict[str, deque[float]] = {}

    def admit(self, owner: str, address: str | None) -> None:
        """Raise OverQuota if this browser (or address) may not start a game now."""
        try:
            self._admit(owner, address)
        except OverQuota as over:
            self.metrics.refused(over.kind)
            raise

    def _admit(self, owner: str, address: str | None) -> None:
        now = self.clock()
        free = shutil.disk_usage(self.store.directory).free
        if free < self.settings.min_free_bytes:
            raise OverQuota(
                "disk", 507, "The server is short of disk space, so no new game can start just now."
            )
        count, first = self.store.created_since(owner, now - HOUR)
        if count >= self.settings.games_per_hour and first is not None:
            # Games started count, finished or not: finishing one does not help, waiting does.
            wait = _seconds(first + HOUR - now)
            raise OverQuota(
                "browser",
                429,
                f"This browser has started {count} games in the last hour: a new one can "
                f"start in {_minutes(wait)}. Your unfinished games can be continued meanwhile.",
                wait,
            )
        if address is not None:
            self._admit_address(address, now)

    def _admit_address(self, address: str, now: float) -> None:
        times = self._by_address.pop(address, None) or deque()
        while times and times[0] <= now - HOUR:
            times.popleft()
        self._by_address[address] = times  # re-inserted: the dict is oldest-used first
        if len(times) >= self.settings.games_per_hour_per_address:
            raise OverQuota(
                "address",
                429,
                "Too many new games from this address in the last hour; please wait a while.",
                _seconds(times[0] + HOUR - now),
            )
        times.append(now)
        while len(self._by_address) > MOST_ADDRESSES:
            del self._by_address[next(iter(self._by_address))]

    def after_create(self, owner: str) -> list[str]:
        """Close (remove) the browser's unfinished games past the allowed few."""
        return self.store.trim_unfinished(owner, self.settings.unfinished_per_browser)

    def expire(self) -> list[str]:
        """Remove unfinished games nobody has touched for `expire_days`."""
        return self.store.expire(self.clock() - self.settings.expire_days * DAY)


def _seconds(delay: float) -> int:
    return max(1, math.ceil(delay))


def _minutes(seconds: int) -> str:
    """
    >>> _minutes(3600), _minutes(61), _minutes(5)
    ('60 minutes', '2 minutes', 'a minute')
    """
    minutes = math.ceil(seconds / 60)
    return "a minute" if minutes <= 1 else f"{minutes} minutes"
