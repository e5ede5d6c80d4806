"""More browsers on an app a test client serves: each with its own cookie jar, all served on
the app's own event loop.

A `TestClient` entered (`with TestClient(app) as first`) runs the app's lifespan on an event
loop in a thread of its own, and serves its requests there; the app's turn clocks, its
background tasks and the asyncio.Lock of each game live on that loop. A `TestClient` not
entered serves each request on a new loop, in a new thread, ended with the request: the
service then met two loops at once. A game's lock that two tasks of the app's loop had
waited on (which binds it there) refused a request from another loop with a 500, "... is
bound to a different event loop", once in a run of the friends' tests; a turn clock wound
by such a request was set on a loop that had ended, and never rang. A real server has one
loop (`hearts serve`); only the tests met two.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def another_browser(first: TestClient, **options: Any) -> TestClient:
    """A browser (a cookie jar of its own; `options` as for `TestClient`) on the app `first`
    serves, its requests served on that app's loop: `first` must be entered."""
    if first.portal is None:
        raise RuntimeError("enter the first test client (with TestClient(app) as first)")
    other = TestClient(first.app, **options)
    other.portal = first.portal  # its requests go to the app's loop, not a loop of their own
    return other
