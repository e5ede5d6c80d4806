"""The worker processes of a server killed outright end themselves (`hearts.web.workers`)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

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
    finally:
        server.kill()  # the rest of the group, if the test failed
