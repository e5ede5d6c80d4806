"""The service's log lines (`hearts.web.logs`): libpq's several lines joined as sentences,
and no line carrying a memory address."""

from __future__ import annotations

import logging

import psycopg

from hearts.web.logs import OneLine, one_line
from hearts.web.stores import reason

REFUSED = (
    'connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection'
    " refused\n\tIs the server running on that host and accepting TCP/IP connections?"
)
CLOSED = (
    "consuming input failed: server closed the connection unexpectedly\n\tThis probably means"
    " the server terminated abnormally\n\tbefore or while processing the request."
)


def line(message: str, *args: object) -> str:
    record = logging.LogRecord("hearts", logging.WARNING, __file__, 1, message, args, None)
    return OneLine("%(message)s").format(record)


def test_libpqs_lines_are_joined_as_sentences() -> None:
    # They were joined with a space alone: "... Connection refused Is the server running".
    assert line("pool: %s", REFUSED).endswith(
        "failed: Connection refused. Is the server running on that host and accepting TCP/IP"
        " connections?"
    )
    assert line("live updates: reconnecting (%s)", CLOSED) == (
        "live updates: reconnecting (consuming input failed: server closed the connection"
        " unexpectedly. This probably means the server terminated abnormally before or while"
        " processing the request.)"
    )
    # The sentences the service writes itself, through `reason`, and an error's one line.
    assert reason(psycopg.OperationalError(CLOSED)).startswith(
        "consuming input failed: server closed the connection unexpectedly. This probably"
    )
    assert "Connection refused. Is the server" in one_line(psycopg.OperationalError(REFUSED))
    assert line("FATAL:  database  \n  gone") == "FATAL: database gone"


def test_no_line_carries_a_memory_address() -> None:
    said = line("discarding closed connection: %s", "<psycopg.Connection [BAD] at 0x7f4ac033ca50>")
    assert said == "discarding closed connection: <psycopg.Connection [BAD]>"
    assert line("%s", "<psycopg.Pipeline [BAD] at 0x7F4AC033CA50>") == "<psycopg.Pipeline [BAD]>"
    # Words that merely look alike are left as they are.
    assert line("seat at 0x1 of the table") == "seat at 0x1 of the table"
