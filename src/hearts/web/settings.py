"""Every setting of the web server in one place: defaults, then the environment, then flags.

`Settings.from_env()` reads `HEARTS_*` variables (see `ENVIRONMENT`); `hearts serve` lays
its command-line flags over that. Nothing else in the web game reads the environment.

>>> s = Settings.from_env({"HEARTS_HEADER_TIMEOUT": "5", "HEARTS_TRUSTED_HOSTS": "a.example b"})
>>> s.header_timeout, s.trusted_hosts
(5.0, ('a.example', 'b'))
>>> Settings.from_env({"HEARTS_GAMES_PER_HOUR": "many"})
Traceback (most recent call last):
...
ValueError: HEARTS_GAMES_PER_HOUR must be a whole number, not 'many'.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Host names a server on the loopback interface answers to when no list is given.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
WILDCARD_ADDRESSES = ("0.0.0.0", "::", "")


@dataclass(frozen=True)
class Settings:
    data_dir: Path = Path("data")
    host: str = "127.0.0.1"
    port: int = 8000
    #: A postgresql:// URL: games in PostgreSQL (several processes may share it); empty:
    #: SQLite in the data directory.
    database_url: str = ""
    #: Connections each process keeps to PostgreSQL at most.
    database_pool: int = 10

    # --- slow and idle clients (hearts serve) -------------------------------------------
    #: Seconds a connection may take to send a request's line and headers, from when it
    #: opens (or its previous answer went out and it starts a new request).
    header_timeout: float = 10.0
    #: Seconds a request may take to send its body once its headers are in.
    body_timeout: float = 10.0
    #: Seconds an idle keep-alive connection is kept between requests.
    idle_timeout: float = 30.0
    #: Connections open at once; past it a new one gets a 503 and is closed. 0: derived
    #: from the file-descriptor limit at start (see `hearts.web.server`).
    max_connections: int = 0
    #: Seconds between keep-alive comments on a quiet event stream (they also note the
    #: person as present, and find out soonest that the database has gone away).
    stream_ping: float = 15.0

    # --- what is served -------------------------------------------------------------------
    #: /docs and /openapi.json (off unless asked for).
    api_docs: bool = False
    #: A line for each request on standard output (uvicorn's access log; off: nginx in
    #: front keeps one).
    access_log: bool = False
    #: Host header values answered; empty means no check (an app embedded elsewhere).
    #: `hearts serve` fills in the loopback names and its --host.
    trusted_hosts: tuple[str, ...] = ()
    #: Served over HTTPS (by a proxy in front): Secure `__Host-` cookie and HSTS on every
    #: answer. A request a trusted proxy marks `X-Forwarded-Proto: https` counts as HTTPS too.
    https: bool = False
    #: Addresses whose X-Forwarded-Proto/-For are believed (uvicorn's forwarded_allow_ips).
    trusted_proxies: tuple[str, ...] = ("127.0.0.1",)

    # --- quotas ---------------------------------------------------------------------------
    games_per_hour: int = 60  # new games per browser in any hour
    games_per_hour_per_address: int = 600  # per client address (new cookies are free)
    unfinished_per_browser: int = 5  # past it the longest-untouched one is closed
    expire_days: float = 30.0  # unfinished games untouched this long are removed
    min_free_bytes: int = 64 * 1024 * 1024  # new games refused below this free space

    # --- memory ---------------------------------------------------------------------------
    #: Games kept replayed in memory, counted in actions (a long game is ~5,000).
    cache_actions: int = 100_000
    #: Low-priority processes that review people's decisions as they are made (the coach's
    #: round review); 0: a round is reviewed only when asked for.
    review_workers: int = 1

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then `HEARTS_*` variables, then `overrides` (flags given on purpose)."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name, variable in ENVIRONMENT.items():
            text = env.get(variable)
            if text is None or text == "":
                continue
            values[name] = _parse(name, variable, text)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)

    def problems(self) -> list[str]:
        """What is wrong with these settings, one sentence each."""
        found = []
        for name in ("header_timeout", "body_timeout", "idle_timeout", "stream_ping"):
            if not 0 < getattr(self, name) <= 300:
                found.append(f"{name.replace('_', ' ')} must be above 0 and at most 300 s.")
        if self.max_connections < 0:
            found.append("max connections must be at least 1 (0 for the automatic cap).")
        for name in ("games_per_hour", "games_per_hour_per_address", "unfinished_per_browser"):
            if getattr(self, name) < 1:
                found.append(f"{name.replace('_', ' ')} must be at least 1.")
        # Written so that NaN fails too (every comparison with it is false): an expiry of
        # NaN days once matched every unfinished game in PostgreSQL and removed them all.
        if not 0 < self.expire_days <= MAX_EXPIRE_DAYS:
            found.append(f"expire days must be above 0 and at most {MAX_EXPIRE_DAYS}.")
        if not self.cache_actions >= 0:
            found.append("cache actions must be 0 or more (0: no games kept in memory).")
        if not self.min_free_bytes >= 0:
            found.append("min free bytes must be 0 or more.")
        if self.database_url and not self.database_url.startswith(("postgresql://", "postgres://")):
            found.append("The database must be a postgresql:// URL.")
        if not 0 <= self.review_workers <= 8:
            found.append("review workers must be between 0 and 8.")
        if self.database_pool < 1:
            found.append("database pool must be at least 1.")
        if not 0 < self.port < 65536:
            found.append(f"The port must be between 1 and 65535, not {self.port}.")
        return found


#: The longest an unfinished game may be kept untouched (ten years).
MAX_EXPIRE_DAYS = 3650

#: Setting -> environment variable.
ENVIRONMENT = {
    "data_dir": "HEARTS_DATA_DIR",
    "database_url": "HEARTS_DATABASE_URL",
    "database_pool": "HEARTS_DATABASE_POOL",
    "header_timeout": "HEARTS_HEADER_TIMEOUT",
    "body_timeout": "HEARTS_BODY_TIMEOUT",
    "idle_timeout": "HEARTS_IDLE_TIMEOUT",
    "max_connections": "HEARTS_MAX_CONNECTIONS",
    "stream_ping": "HEARTS_STREAM_PING",
    "api_docs": "HEARTS_API_DOCS",
    "access_log": "HEARTS_ACCESS_LOG",
    "trusted_hosts": "HEARTS_TRUSTED_HOSTS",
    "https": "HEARTS_HTTPS",
    "trusted_proxies": "HEARTS_TRUSTED_PROXIES",
    "games_per_hour": "HEARTS_GAMES_PER_HOUR",
    "games_per_hour_per_address": "HEARTS_GAMES_PER_HOUR_PER_ADDRESS",
    "unfinished_per_browser": "HEARTS_UNFINISHED_PER_BROWSER",
    "expire_days": "HEARTS_EXPIRE_DAYS",
    "min_free_bytes": "HEARTS_MIN_FREE_BYTES",
    "cache_actions": "HEARTS_CACHE_ACTIONS",
    "review_workers": "HEARTS_REVIEW_WORKERS",
}


def _parse(name: str, variable: str, text: str) -> Any:
    default = getattr(Settings(), name)
    if isinstance(default, bool):
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{variable} must be 1 or 0, not {text[:20]!r}.")
    if isinstance(default, Path):
        return Path(text)
    if isinstance(default, str):
        return text
    if isinstance(default, tuple):
        return tuple(part for part in text.replace(",", " ").split() if part)
    if isinstance(default, float):
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):  # "nan" and "inf" parse, and compare as no number does
            raise ValueError(f"{variable} must be a number, not {text[:20]!r}.")
        return number
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{variable} must be a whole number, not {text[:20]!r}.") from None


def default_trusted_hosts(host: str) -> tuple[str, ...]:
    """The loopback names plus what --host gives; a wildcard address adds this machine's
    name (set --trusted-host for the names people type)."""
    names = list(LOOPBACK_HOSTS)
    if host in WILDCARD_ADDRESSES:
        import socket

        names.append(socket.gethostname())
    elif host not in names:
        names.append(host)
    return tuple(names)
