"""The worker processes of a server killed outright end themselves (`hearts.web.workers`)."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import httpx

from hearts.web.workers import WATCH_EVERY

from .server import Server


def session_of(leader: int) -> set[int]:
    """The live processes of the session `leader` started (its process group)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue  # gone meanwhile
        state, _parent, group = stat.rsplit(")", 1)[1].split()[:3]
        if int(group) == leader and state != "Z":
            found.add(int(entry))
    return found


def test_the_workers_of_a_killed_server_do_not_outlive_it(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    assert server.process is not None
    pid = server.process.pid
    try:
        # The computer players' pool starts with the server: its workers and the forkserver.
        for _ in range(200):
            helpers = session_of(pid) - {pid}
            if len(helpers) >= 2:
                break
            time.sleep(0.1)
        assert len(helpers) >= 2, helpers
        os.kill(pid, signal.SIGKILL)  # the server alone, as the OOM killer would
        server.process.wait(timeout=10)
        # Each worker looks every WATCH_EVERY seconds; allow several looks on a loaded machine.
        deadline = time.monotonic() + 10 * WATCH_EVERY
        while session_of(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert session_of(pid) == set(), "workers still running after the server was killed"
        # The workers removed the semaphores of their pool's queues: multiprocessing's
        # resource tracker, the last to end, removed them with a two-line warning in the log
        # ("UserWarning: resource_tracker: There appear to be 5 leaked semaphore objects").
        said = server.log_path.read_text().splitlines()
        assert len(said) == 1 and " Hearts is at " in said[0], said
    finally:
        server.kill()  # the rest of the group, if the test failed


def workers_of(server: int) -> set[int]:
    """The pool workers of `server`: the forkserver's children."""
    found = set()
    for pid in session_of(server) - {server}:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if "forkserver" in command and parent != server:
            found.add(pid)
    return found


def kill_settled(victim: int) -> None:
    """SIGKILL `victim`, a worker, once it has run a moment. Killed in the instant after its
    fork, before CPython's forkserver has noted its pid, its exit status is lost: the pool
    reads end of file and reports "exited with status 255", not the kill (one CI run in
    many, on a loaded machine)."""
    time.sleep(0.5)
    os.kill(victim, signal.SIGKILL)


def test_a_killed_worker_is_said_in_one_line_and_replaced(tmp_path: Path) -> None:
    # The request that met the broken pool logged "computer players fell back to easy after
    # BrokenProcessPool('A child process terminated abruptly, the process pool is not
    # usable anymore')", which said neither which worker nor that one took its place.
    server = Server(tmp_path / "data").start()
    assert server.process is not None
    pid = server.process.pid
    try:
        for _ in range(200):  # the computer players' pool starts with the server
            workers = workers_of(pid)
            if len(workers) >= 1:
                break
            time.sleep(0.1)
        victim = min(workers)
        kill_settled(victim)  # as the OOM killer would
        with httpx.Client(base_url=server.url, timeout=60) as client:
            state = client.post("/api/games", json={"levels": ["hard"] * 3}).json()
            cards = state["view"]["hand"][:3]
            passed = client.post(
                f"/api/games/{state['id']}/pass",
                json={"move": state["move"], "undos": 0, "cards": cards},
            )
        assert passed.status_code == 200, passed.text
        server.stop()
        said = server.log_path.read_text().splitlines()
        assert len(said) == 3, said
        assert re.fullmatch(
            r"\S+ \S+ WARNING hearts\[\d+\] a computer players' worker process "
            rf"{victim} \(killed by SIGKILL\) ended; easy players made this request's moves,"
            r" and a new worker was started",
            said[1],
        ), said[1]
        assert " Hearts stopped " in said[2]
    finally:
        server.kill()


def test_the_killed_workers_pool_is_replaced_at_once(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    assert server.process is not None
    pid = server.process.pid
    try:
        for _ in range(200):
            workers = workers_of(pid)
            if workers:
                break
            time.sleep(0.1)
        kill_settled(min(workers))
        with httpx.Client(base_url=server.url, timeout=60) as client:
            assert client.post("/api/games", json={"levels": ["hard"] * 3}).status_code == 201
        # Started as the break is noticed, not at the next request that needs it.
        for _ in range(200):
            fresh = workers_of(pid) - workers
            if fresh:
                break
            time.sleep(0.1)
        assert fresh, "no new worker after one was killed"
    finally:
        server.kill()


def test_a_killed_review_worker_is_said_in_one_line_and_replaced(tmp_path: Path) -> None:
    # "a review worker stopped; starting another" for every review in the broken pool, and
    # each dropped the pool the one before had just started.
    server = Server(tmp_path / "data").start()
    assert server.process is not None
    pid = server.process.pid
    try:
        for _ in range(200):
            computers = workers_of(pid)
            if computers:
                break
            time.sleep(0.1)
        with httpx.Client(base_url=server.url, timeout=60) as client:
            state = client.post("/api/games", json={"levels": ["easy"] * 3}).json()
            cards = state["view"]["hand"][:3]
            state = client.post(
                f"/api/games/{state['id']}/pass",
                json={"move": state["move"], "undos": 0, "cards": cards},
            ).json()
            for _ in range(200):  # the pass is reviewed in the background: its worker starts
                reviewers = workers_of(pid) - computers
                if reviewers:
                    break
                time.sleep(0.1)
            victim = min(reviewers)
            kill_settled(victim)
            while state["phase"] == "playing":
                card = state["view"]["legal"][0]
                state = client.post(
                    f"/api/games/{state['id']}/play",
                    json={"move": state["move"], "undos": 0, "card": card},
                ).json()
            review = client.get(f"/api/games/{state['id']}/review?round=1")
        assert review.status_code == 200, review.text
        server.stop()
        said = server.log_path.read_text().splitlines()
        assert len(said) == 3, said
        assert re.fullmatch(
            r"\S+ \S+ WARNING hearts\[\d+\] the coach's review worker process "
            rf"{victim} \(killed by SIGKILL\) ended; a new one was started for its reviews",
            said[1],
        ), said[1]
    finally:
        server.kill()
