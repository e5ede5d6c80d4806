"""`hearts serve`'s HTTP server: uvicorn's h11 protocol with deadlines and a connection cap.

uvicorn (0.54) closes an idle keep-alive connection, but it sets no deadline on a request
still arriving: a connection that opens and sends nothing, or sends a header line every few
seconds, or a body a byte at a time, is kept for ever, and a thousand of them take every
file descriptor (measured in docs/hardening.md). hypercorn's `read_timeout` is per read, so
a byte every few seconds keeps it waiting too. So the protocol here adds, per request:

- a header deadline (`header_timeout`) from the moment the server waits for a request line
  (the connection opened, or its first byte after an idle keep-alive) until the headers are
  in: past it the client gets a 408 and the connection is closed;
- a body deadline (`body_timeout`) from the headers until the body is in: past it the
  connection is closed (the app sees the client leave);
- a cap on open connections: at the cap, a new connection makes room by closing the one
  that has waited longest for a request to arrive (still sending its headers or body, or
  idle between requests); only when every connection has a request being answered does the
  new one get a 503. Slow clients then cannot crowd out a quick one, and the descriptors
  the cap leaves are never used up.

`raise_fd_limit()` lifts the soft RLIMIT_NOFILE to the hard one at start, and
`connection_cap()` derives the cap from what is left after the store and the pool, and after
a burst of accepts: asyncio accepts up to the listen backlog at a time before any of those
connections is seen here, and one accept that fails for want of a descriptor stops all
accepting for a second. So the backlog is kept small when descriptors are few
(`listen_backlog()`), and the cap leaves room for three such bursts.

`HeartsServer` is uvicorn's server with a line in the log when it starts and stops, and a
stop that first ends the event streams (`Hub.stop`): they never end by themselves, so
every stop waited out the graceful time and then cancelled them with an error. A stop that
went well ends the process with status 0, on SIGTERM as on Ctrl-C (uvicorn raises the
signal again once stopped, so a SIGTERM gave 143 where Ctrl-C gave 0). It listens
on sockets bound before anything else (`listen_sockets`), so a port taken is one sentence
and no start at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import resource
import socket
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .settings import Settings

#: Descriptors kept back from the cap for the store, the worker pool, logs and files.
RESERVED_DESCRIPTORS = 128
#: The automatic cap never goes above this: past a few thousand waiting connections the
#: memory they hold matters more than the descriptors.
MOST_CONNECTIONS = 4096

_TIMEOUT_BODY = json.dumps({"detail": "The request took too long to arrive."}).encode()
_FULL_BODY = json.dumps({"detail": "The server is busy; please try again shortly."}).encode()


def _raw_answer(status: str, body: bytes, extra: str = "") -> bytes:
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n{extra}\r\n"
    )
    return head.encode() + body


REQUEST_TIMEOUT = _raw_answer("408 Request Timeout", _TIMEOUT_BODY)
SERVER_FULL = _raw_answer("503 Service Unavailable", _FULL_BODY, "retry-after: 5\r\n")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline, a body deadline and a connection cap."""

    header_timeout: ClassVar[float] = 10.0
    body_timeout: ClassVar[float] = 10.0
    max_connections: ClassVar[int] = MOST_CONNECTIONS
    #: This server's connections waiting on their client, longest-waiting first.
    waiting: ClassVar[OrderedDict[GuardedH11Protocol, None]] = OrderedDict()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_for: str | None = None  # "headers", "body" or "idle"

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        if len(self.connections) > self.max_connections and not self._make_room():
            self.transport.write(SERVER_FULL)
            self.transport.close()
            return
        self._expect("headers")

    def _make_room(self) -> bool:
        """Close the connection that has waited longest on its client; False if none is."""
        while self.waiting:
            oldest, _ = self.waiting.popitem(last=False)
            if not oldest.transport.is_closing():
                oldest._too_slow()
                return True
        return False

    def on_response_complete(self) -> None:
        super().on_response_complete()
        idle = self.conn.our_state is h11.IDLE and self.conn.their_state is h11.IDLE
        if idle and not self.transport.is_closing() and self._waiting_for is None:
            self._expect("idle")  # uvicorn's keep-alive timer closes it in time

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            # Bytes of a request line after an idle keep-alive: its deadline starts now
            # (uvicorn has just stopped its idle timer), and never moves on a trickle.
            if self._waiting_for != "headers":
                self._expect("headers")
        elif state is h11.SEND_BODY:
            if self._waiting_for != "body":
                self._expect("body")
        else:
            self._expect(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self._expect(None)
        super().connection_lost(exc)

    def _expect(self, what: str | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.waiting.pop(self, None)
        self._waiting_for = what
        if what is None:
            return
        self.waiting[self] = None
        if what != "idle":
            seconds = self.header_timeout if what == "headers" else self.body_timeout
            self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _too_slow(self) -> None:
        waited_for = self._waiting_for
        self._expect(None)
        if self.transport.is_closing():
            return
        if waited_for == "headers":
            self.transport.write(REQUEST_TIMEOUT)
        self.transport.close()


def protocol_for(settings: Settings, cap: int) -> type[GuardedH11Protocol]:
    """The protocol class with these settings' deadlines and `cap` connections."""
    return type(
        "HeartsH11Protocol",
        (GuardedH11Protocol,),
        {
            "header_timeout": settings.header_timeout,
            "body_timeout": settings.body_timeout,
            "max_connections": cap,
            "waiting": OrderedDict(),
        },
    )


def raise_fd_limit() -> int:
    """Lift the soft limit on open files to the hard limit (where allowed); the new soft."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def listen_backlog(fd_limit: int) -> int:
    """The listen backlog: 2,048 (uvicorn's default) when descriptors are plenty, less when
    they are few."""
    return max(16, min(2048, fd_limit // 16))


def connection_cap(settings: Settings, fd_limit: int) -> int:
    """The cap on open connections: the one set, but never more than the descriptors allow."""
    room = max(16, fd_limit - RESERVED_DESCRIPTORS - 3 * listen_backlog(fd_limit))
    if settings.max_connections:
        return min(settings.max_connections, room)
    return min(MOST_CONNECTIONS, room)


log = logging.getLogger("hearts.web")


class HeartsServer(uvicorn.Server):
    """uvicorn's server, saying when it has started (`started_line`) and stopped, and
    calling `stopping()` before it waits for open connections (the app ends its streams)."""

    def __init__(
        self, config: uvicorn.Config, started_line: str, stopping: Callable[[], None]
    ) -> None:
        super().__init__(config)
        self.started_line = started_line
        self.stopping = stopping

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            log.info("%s", self.started_line)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        began = time.monotonic()
        self.stopping()
        await super().shutdown(sockets)
        log.info("Hearts stopped (the stop took %.1f s)", time.monotonic() - began)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        with super().capture_signals():
            yield
            # Stopped as asked: forget the signals, so uvicorn does not raise them again
            # and the exit status is 0. A stop that failed raises before this line.
            self._captured_signals.clear()


def listen_sockets(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to every address of `host` at `port`, as asyncio would bind them; an
    `OSError` when one cannot be (see `why_not_listening`)."""
    found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    bound: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(found):
            sock = socket.socket(family, kind, proto)
            bound.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
    except OSError:
        for sock in bound:
            sock.close()
        raise
    return bound


def why_not_listening(
    host: str, port: int, error: OSError, port_flag: str = "--port", host_flag: str = "--host"
) -> str:
    """One sentence for a socket that could not be bound, naming the settings to change
    (the game's `--port` and `--host`, or the metrics' as they were given).

    >>> why_not_listening("127.0.0.1", 8000, OSError(errno.EADDRINUSE, "in use"))
    'Port 8000 on 127.0.0.1 is taken by another program; stop it or choose another --port.'
    >>> why_not_listening("10.9.9.9", 9101, OSError(errno.EADDRNOTAVAIL, "no"), host_flag="X")
    '10.9.9.9 is not an address of this machine; choose another X.'
    """
    if error.errno == errno.EADDRINUSE:
        return (
            f"Port {port} on {host} is taken by another program; stop it or choose another"
            f" {port_flag}."
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{host} is not an address of this machine; choose another {host_flag}."
    if error.errno == errno.EACCES:
        return f"Port {port} needs rights this user does not have; choose one above 1023."
    if isinstance(error, socket.gaierror):
        return f"Cannot find the address {host!r} to listen on; choose another {host_flag}."
    reason = error.strerror or str(error)
    return f"Cannot listen on port {port} of {host}: {reason}."


class LoggedOnce:
    """The app, for uvicorn: an error the app has logged and answered (marked under
    `logged` in its scope) is not raised again, where uvicorn logged it a second time with
    its whole traceback and no time or process."""

    def __init__(self, app: Any, logged: str) -> None:
        self.app = app
        self.logged = logged

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception as error:
            if scope.get(self.logged) is not error:
                raise
