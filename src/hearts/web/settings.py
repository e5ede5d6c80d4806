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

A problem names the setting as it was given (the flag or the variable), or both:

>>> Settings.from_env({"HEARTS_DATABASE_POOL": "0"}).problems()
['HEARTS_DATABASE_POOL must be at least 1.']
>>> Settings(header_timeout=0).problems()
['--header-timeout (HEARTS_HEADER_TIMEOUT) must be above 0 and at most 300 s.']
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..words import listed

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
    #: Seconds between pings on a quiet event stream (each page answers them, which notes the
    #: person as present; a person quiet for 2.5 of them is shown as reconnecting), and how
    #: soon a stream finds out that the database has gone away.
    stream_ping: float = 15.0

    # --- metrics (hearts serve) -----------------------------------------------------------
    #: The port of this process's Prometheus metrics, on a listener of its own (never the
    #: game's port, which nginx passes on); 0: no metrics and no listener.
    metrics_port: int = 0
    #: The address that listener is bound to: one IP address of this machine, loopback
    #: unless Prometheus scrapes from another machine (never every address).
    metrics_host: str = "127.0.0.1"

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
    #: Printable sheets drawn anew for one client address in any minute (a sheet served
    #: from the cache is free); past it a 429. Some 100 ms of CPU each.
    sheets_per_minute_per_address: int = 20

    # --- memory ---------------------------------------------------------------------------
    #: Games kept replayed in memory, counted in actions (a long game is ~5,000).
    cache_actions: int = 100_000
    #: Low-priority processes that review people's decisions as they are made (the coach's
    #: round review); 0: a round is reviewed only when asked for.
    review_workers: int = 1

    #: Where each value given came from, by setting: its flag or its variable (a problem
    #: names the setting as the person gave it).
    given: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then `HEARTS_*` variables, then `overrides` (flags given on purpose).

        A variable set but empty is refused: an empty `HEARTS_DATABASE_URL` once quietly
        kept a process's games in SQLite, apart from the others' in PostgreSQL.
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        given: dict[str, str] = {}
        for name, variable in ENVIRONMENT.items():
            text = env.get(variable)
            if text is None:
                continue
            if not text.strip():
                raise ValueError(EMPTY.get(name, EMPTY_VALUE).format(variable))
            values[name] = _parse(name, variable, text)
            given[name] = variable
        for name, value in overrides.items():
            if value is None:
                continue
            if isinstance(value, str) and not value.strip() and name in EMPTY_FLAG:
                raise ValueError(EMPTY_FLAG[name])
            values[name] = value
            given[name] = FLAGS.get(name, name)
        return cls(**values, given=tuple(given.items()))

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)

    def named(self, name: str) -> str:
        """The setting `name` as the person gave it (its flag or variable), else both.

        >>> Settings.from_env({}, port=0).named("port"), Settings().named("database_pool")
        ('--port', 'HEARTS_DATABASE_POOL')
        """
        given = dict(self.given)
        if name in given:
            return given[name]
        flag, variable = FLAGS.get(name), ENVIRONMENT.get(name)
        if flag and variable:
            return f"{flag} ({variable})"
        return flag or variable or name.replace("_", " ")

    def data_dir_problem(self) -> str | None:
        """Why the data directory cannot be one, in a sentence naming the setting: it is a
        file, or it would be made under one (which no folder can be), else None. Asked of
        the disk, so not among `problems`.

        >>> import tempfile
        >>> with tempfile.NamedTemporaryFile() as file:
        ...     under = Path(file.name) / "data"
        ...     said = Settings.from_env({}, data_dir=under).data_dir_problem()
        ...     said == f"--data-dir {under} cannot be made: {file.name} is a file, not a folder."
        True
        """
        named = f"{self.named('data_dir')} {self.data_dir}"
        for place in (self.data_dir, *self.data_dir.parents):
            if place.is_dir():
                return None
            if place.exists():
                if place == self.data_dir:
                    return f"{named} is a file, not a folder."
                return f"{named} cannot be made: {place} is a file, not a folder."
        return None

    def problems(self) -> list[str]:
        """What is wrong with these settings, one sentence each, naming the setting."""
        found = []
        for name in ("header_timeout", "body_timeout", "idle_timeout", "stream_ping"):
            if not 0 < getattr(self, name) <= 300:
                found.append(f"{self.named(name)} must be above 0 and at most 300 s.")
        if self.max_connections < 0:
            found.append(
                f"{self.named('max_connections')} must be at least 1 (0 for the automatic cap)."
            )
        for name in (
            "games_per_hour",
            "games_per_hour_per_address",
            "unfinished_per_browser",
            "sheets_per_minute_per_address",
        ):
            if getattr(self, name) < 1:
                found.append(f"{self.named(name)} must be at least 1.")
        # Written so that NaN fails too (every comparison with it is false): an expiry of
        # NaN days once matched every unfinished game in PostgreSQL and removed them all.
        if not 0 < self.expire_days <= MAX_EXPIRE_DAYS:
            found.append(
                f"{self.named('expire_days')} must be above 0 and at most {MAX_EXPIRE_DAYS}."
            )
        if not self.cache_actions >= 0:
            found.append(
                f"{self.named('cache_actions')} must be 0 or more (0: no games kept in memory)."
            )
        if not self.min_free_bytes >= 0:
            found.append(f"{self.named('min_free_bytes')} must be 0 or more.")
        found.extend(self._database_problems())
        if not 0 <= self.review_workers <= 8:
            found.append(f"{self.named('review_workers')} must be between 0 and 8.")
        if self.database_pool < 1:
            found.append(f"{self.named('database_pool')} must be at least 1.")
        elif self.database_pool > MAX_DATABASE_POOL:
            found.append(
                f"{self.named('database_pool')} must be at most {MAX_DATABASE_POOL}: PostgreSQL"
                " allows 100 connections by default, for every process together (see"
                " max_connections in docs/deploy.md)."
            )
        if not 0 < self.port < 65536:
            found.append(f"{self.named('port')} must be between 1 and 65535, not {self.port}.")
        found.extend(self._proxy_problems())
        found.extend(self._metrics_problems())
        return found

    def _database_problems(self) -> list[str]:
        """A database URL that cannot be right, caught before any connection is tried: a
        typo is a setting to mend (exit 2), not a database that is away (exit 1, tried again
        for ever by a service manager)."""
        url, name = self.database_url, self.named("database_url")
        if not url:
            return []
        if not url.startswith(("postgresql://", "postgres://")):
            return [f"{name} must be a postgresql:// URL."]
        import psycopg

        from .stores import reason  # here: that module reads these settings

        try:
            info = psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.Error as error:
            # libpq quotes the URL, or the part it stumbled on, password and all.
            said = without_password(reason(error), url)
            return [f"{name} is not a database URL that can be read: {said}."]
        ports = [port for port in str(info.get("port") or "").split(",") if port]
        wrong = [port for port in ports if not (port.isdigit() and 0 < int(port) < 65536)]
        if wrong:
            return [f"{name} names port {wrong[0]!r}: a port is a number from 1 to 65535."]
        for key, (allowed, said) in URL_VALUES.items():
            value = info.get(key)
            if value is None:
                continue
            text = str(value)
            if not (text.isdigit() if allowed is None else text in allowed):
                return [f"{name} gives {key} {text[:40]!r}; it must be {said}."]
        return []

    def _metrics_problems(self) -> list[str]:
        """The metrics are off (port 0), or on a port of their own at one address: never
        every address, where any machine that reaches this one could read them."""
        port, name, host = self.metrics_port, self.named("metrics_port"), self.metrics_host
        if not 0 <= port < 65536:
            return [f"{name} must be between 1 and 65535 (0: no metrics), not {port}."]
        if port == 0:
            if "metrics_host" in dict(self.given):
                return [
                    f"{self.named('metrics_host')} is set but the metrics are off: give"
                    f" {name} too, or leave the address out."
                ]
            return []
        if port == self.port:
            return [f"{name} must be a port of its own, not the game's ({port})."]
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return [
                f"{self.named('metrics_host')} must be an IP address of this machine (such as"
                f" 127.0.0.1), not {host[:40]!r}."
            ]
        if address.is_unspecified:
            return [
                f"{self.named('metrics_host')} must be one address of this machine, never every"
                f" address ({host}): the metrics are for Prometheus alone."
            ]
        return []

    def _proxy_problems(self) -> list[str]:
        """Trusted proxies are addresses: a wildcard would let any client claim HTTPS and
        any address (for the per-address quota)."""
        name = self.named("trusted_proxies")
        for proxy in self.trusted_proxies:
            try:
                network = ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                if "*" in proxy:
                    return [f"{name} must list the proxies' addresses, never a wildcard ('*')."]
                return [f"{name} must list IP addresses, not {proxy[:40]!r}."]
            if network.prefixlen == 0:
                return [f"{name} must list the proxies' addresses, never every address ({proxy})."]
        return []


#: The database URL's parameters whose values libpq knows in advance, by name: the values
#: allowed (None: a whole number, 0 or more), and what is said of another. libpq found
#: these only when it connected, so a typo was "Cannot reach PostgreSQL", exit 1, tried
#: again for ever by a service manager (or, in `hearts migrate --check`, not found at all).
#: A short table of libpq's documented values, not a second libpq: the rest it reads itself.
WHOLE_NUMBER = (None, "a whole number, 0 or more")
URL_VALUES: dict[str, tuple[tuple[str, ...] | None, str]] = {
    key: (values, "one of " + ", ".join(values)) if values else WHOLE_NUMBER
    for key, values in {
        "sslmode": ("disable", "allow", "prefer", "require", "verify-ca", "verify-full"),
        "target_session_attrs": (
            "any", "read-write", "read-only", "primary", "standby", "prefer-standby",
        ),
        "gssencmode": ("disable", "prefer", "require"),
        "channel_binding": ("disable", "prefer", "require"),
        "sslnegotiation": ("postgres", "direct"),
        "load_balance_hosts": ("disable", "random"),
        "keepalives": ("0", "1"),
        "sslcompression": ("0", "1"),
        "connect_timeout": (),
        "keepalives_idle": (),
        "keepalives_interval": (),
        "keepalives_count": (),
        "tcp_user_timeout": (),
    }.items()
}  # fmt: skip

#: The most connections one process may keep: PostgreSQL's default `max_connections`, which
#: every process shares (10 each serve a busy site; more only wait on one another).
MAX_DATABASE_POOL = 100

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
    "sheets_per_minute_per_address": "HEARTS_SHEETS_PER_MINUTE_PER_ADDRESS",
    "expire_days": "HEARTS_EXPIRE_DAYS",
    "min_free_bytes": "HEARTS_MIN_FREE_BYTES",
    "cache_actions": "HEARTS_CACHE_ACTIONS",
    "review_workers": "HEARTS_REVIEW_WORKERS",
    "metrics_port": "HEARTS_METRICS_PORT",
    "metrics_host": "HEARTS_METRICS_HOST",
}


#: Setting -> its `hearts serve` flag, for those that have one.
FLAGS = {
    "data_dir": "--data-dir",
    "database_url": "--database",
    "host": "--host",
    "port": "--port",
    "header_timeout": "--header-timeout",
    "body_timeout": "--body-timeout",
    "idle_timeout": "--idle-timeout",
    "max_connections": "--max-connections",
    "api_docs": "--api-docs",
    "access_log": "--access-log",
    "trusted_hosts": "--trusted-host",
    "https": "--https",
    "trusted_proxies": "--trusted-proxy",
    "metrics_port": "--metrics-port",
    "metrics_host": "--metrics-host",
}

#: What is said of a setting given but empty ({} is its variable or flag).
EMPTY_VALUE = "{} is set but empty; give it a value, or unset it for the default."
EMPTY = {
    "database_url": "{} is set but empty; give a postgresql:// URL, or unset it to keep games"
    " in SQLite in the data directory.",
}
EMPTY_FLAG = {
    "database_url": "--database is empty; give a postgresql:// URL, or leave it out to keep"
    " games in SQLite in the data directory.",
    "metrics_host": "--metrics-host is empty; give an IP address of this machine, or leave it"
    " out for 127.0.0.1.",
}


#: What a switch's variable (HEARTS_HTTPS, say) takes, in any case; the refusal names them all.
SWITCH_ON = ("1", "true", "yes", "on")
SWITCH_OFF = ("0", "false", "no", "off")


def _parse(name: str, variable: str, text: str) -> Any:
    default = getattr(Settings(), name)
    if isinstance(default, bool):
        if text.lower() in SWITCH_ON:
            return True
        if text.lower() in SWITCH_OFF:
            return False
        raise ValueError(
            f"{variable} must be {listed(SWITCH_ON, 'or')} to turn it on, or"
            f" {listed(SWITCH_OFF, 'or')} to turn it off; not {text[:20]!r}."
        )
    if isinstance(default, Path):
        return Path(text)
    if isinstance(default, str):
        return text
    if isinstance(default, tuple):
        parts = tuple(part for part in text.replace(",", " ").split() if part)
        if not parts:
            raise ValueError(EMPTY_VALUE.format(variable))
        return parts
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


#: What a database URL's password is replaced by in anything said.
HIDDEN = "…"
_KEYWORD_PASSWORD = re.compile(r"\bpassword\s*=\s*('(?:\\.|[^'\\])*'?|\S*)")


def passwords(url: str) -> list[str]:
    """The secrets in database URL `url` as they may be quoted back (as written, and
    percent-decoded), longest first: the URL's user information, `?password=` in its query,
    `password=` in libpq's key=value form. Read by hand, not by libpq, so that a URL libpq
    cannot read (whose error quotes it whole) gives its password up too.

    >>> passwords("postgresql://me:s3cr%21t@[::1:5499/db?password=other")
    ['s3cr%21t', 's3cr!t', 'other']
    >>> passwords("host=db password='a b' user=me")
    ["'a b'", 'a b']
    """
    from urllib.parse import unquote

    found: list[str] = []
    scheme, sep, rest = url.partition("://")
    if sep and scheme.startswith("postgres"):
        # libpq's user information ends at the first "@"; a password with a "/", "?" or "@"
        # in it (not percent-encoded) may reach to the last one: both are taken.
        for end in (rest.find("@"), rest.rfind("@")):
            user_info = rest[:end] if end >= 0 else ""
            if ":" in user_info:
                found.append(user_info.partition(":")[2])
        for part in rest.partition("?")[2].split("&"):
            key, _, value = part.partition("=")
            if key == "password":
                found.append(value)
    else:
        for match in _KEYWORD_PASSWORD.finditer(url):
            value = match.group(1)
            found.append(value)
            if value.startswith("'"):
                found.append(value.strip("'").replace("\\'", "'").replace("\\\\", "\\"))
    # Each as written, then percent-decoded; no repeats; longest first, so that a password
    # inside another is not put as "…" in part.
    secrets = list(dict.fromkeys(s for f in found for s in (f, unquote(f)) if s))
    return sorted(secrets, key=len, reverse=True)


def without_password(text: str, url: str) -> str:
    """`text` (a message, libpq's words) with every password in `url` put as "…": libpq
    quotes a URL it cannot read whole, and under a service manager the message lands in
    the journal.

    >>> url = "postgresql://me:pw-123@[::1:5499/db"
    >>> without_password(f'matching "]" in URI: "{url}"', url)
    'matching "]" in URI: "postgresql://me:…@[::1:5499/db"'
    """
    return redacted(text, passwords(url))


def redacted(text: str, secrets: Sequence[str]) -> str:
    """`text` with each of `secrets` (longest first, from `passwords`) put as "…" where a
    password stands: in a URL's user information (`:pw@`), after `password=` (a URL's query,
    libpq's key=value form) and quoted alone (libpq quoting the token it could not read).
    Never elsewhere: with a password such as "hearts", the words and the log's
    `hearts[pid]` were blanked too.

    >>> redacted('hearts[7] at postgresql://hearts:hearts@db/hearts?password=hearts', ["hearts"])
    'hearts[7] at postgresql://hearts:…@db/hearts?password=…'
    >>> redacted('invalid percent-encoded token: "hearts%ZZ"; hearts', ["hearts%ZZ"])
    'invalid percent-encoded token: "…"; hearts'
    """
    for secret in secrets:
        bare = re.escape(secret)
        where = re.compile(rf"(:){bare}(?=@)|(\bpassword\s*=\s*){bare}(?![\w%])|(\"){bare}(?=\")")
        text = where.sub(lambda match: f"{match.group(match.lastindex or 0)}{HIDDEN}", text)
    return text


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
