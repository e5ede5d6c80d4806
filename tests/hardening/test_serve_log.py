"""`hearts serve`'s log, as an operator reads it: one line an event, each with its time and
process, from the start to the stop; a stop that ends the event streams at once; a port
taken is one sentence."""

from __future__ import annotations

import concurrent.futures
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from .server import HOST, Server, free_port

#: A line of the service's log: time, level, process, and the event.
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (INFO|WARNING|ERROR) hearts\[\d+\] \S")

#: `hearts serve` with one route broken, as a bug would break it.
BROKEN_SERVER = """
import sys
from hearts.cli import main
from hearts.web.service import GameService

async def broken(*args, **kwargs):
    raise RuntimeError("a bug with a long message\\nand a second line")

GameService.state_of = broken
sys.exit(main(sys.argv[1:]))
"""


def test_an_unexpected_error_is_one_line_in_the_log(tmp_path: Path) -> None:
    # It was two: the service's line, then uvicorn's "Exception in ASGI application" with
    # an 88-line traceback and no time or process (Starlette raises it again after the 500).
    port = free_port()
    command = [sys.executable, "-c", BROKEN_SERVER, "serve", "--host", HOST, "--port", str(port)]
    command += ["--data-dir", str(tmp_path / "data")]
    with subprocess.Popen(command, stderr=subprocess.PIPE, text=True) as server:
        try:
            answer = wait_for(f"http://{HOST}:{port}/api/games/anything")
            assert answer.status_code == 500
            assert answer.json() == {
                "detail": "Something went wrong on the server; please try again."
            }
        finally:
            server.send_signal(signal.SIGTERM)
            _, log = server.communicate(timeout=30)
    lines = log.splitlines()
    for line in lines:
        assert LOG_LINE.match(line), log
    errors = [line for line in lines if " ERROR " in line]
    assert len(errors) == 1, log
    assert (
        "unexpected error on GET /api/games/anything: RuntimeError: a bug with a long" in errors[0]
    )
    # Where it was raised, from the innermost frame out: enough to find the bug.
    assert "message and a second line (at <string>:" in errors[0]
    assert "hearts/web/api.py:" in errors[0]


def test_a_stop_ends_the_event_streams_at_once_and_quietly(tmp_path: Path) -> None:
    # A stream never ends by itself: every stop waited out the 5 s of grace, then logged
    # "Cancel 1 running task(s), timeout graceful shutdown exceeded" and a 60-line traceback.
    server = Server(tmp_path / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as browser:
            game = browser.post("/api/games", json={}).json()["id"]
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                opened = threading.Event()
                stream = pool.submit(read_stream, browser, game, opened)
                # The stream is open and has sent the game (a second's sleep was not always
                # enough on a loaded machine: the stop then came before the stream).
                assert opened.wait(timeout=30), "the stream never sent the game"
                assert not stream.done()
                assert server.process is not None
                stopping = time.monotonic()
                server.process.terminate()
                assert server.process.wait(timeout=30) == 0
                exited = time.monotonic() - stopping
                sent, ended = stream.result(timeout=10)
        # The stream ended as the stop began (the browser reconnects with Last-Event-ID), in
        # whole: one cut at the end of the grace breaks off mid-message. Timed to the
        # stream's own end: the process's exit after it (its workers, the interpreter) took
        # 3.3 s on a loaded machine though the stream had ended at once.
        assert sent.startswith("retry: ") and "event: state" in sent
        took = ended - stopping
        assert took < 3.0, f"the stream ended {took:.1f} s into the stop (exit: {exited:.1f} s)"
    finally:
        server.kill()
    lines = server.log_path.read_text().splitlines()
    assert all(LOG_LINE.match(line) for line in lines), lines
    assert not [line for line in lines if " INFO " not in line], lines
    # A line for the start (the address and where games are kept) and one for the stop.
    assert re.search(rf"INFO hearts\[\d+\] Hearts is at {server.url} \(games saved in /", lines[0])
    assert re.search(r"INFO hearts\[\d+\] Hearts stopped \(the stop took \d", lines[-1]), lines


def test_a_taken_port_is_one_sentence(tmp_path: Path) -> None:
    # It was the start banner, then uvicorn's "[Errno 98] address already in use", exit 3.
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        hearts = str(Path(sys.executable).with_name("hearts"))
        done = subprocess.run(
            [hearts, "serve", "--port", str(port), "--data-dir", str(tmp_path / "data")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr == (
        f"hearts serve: Port {port} on 127.0.0.1 is taken by another program; stop it or"
        " choose another --port.\n"
    )
    assert done.stdout == "" and not (tmp_path / "data").exists()


def wait_for(url: str, seconds: float = 30) -> httpx.Response:
    deadline = time.monotonic() + seconds
    while True:
        try:
            return httpx.get(url, timeout=5)
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def read_stream(browser: httpx.Client, game: str, opened: threading.Event) -> tuple[str, float]:
    """Everything an event stream sends until it ends, and when it ended (`time.monotonic`);
    `opened` is set once it has sent the game's state."""
    sent = ""
    with browser.stream("GET", f"/api/games/{game}/events", timeout=None) as answer:
        assert answer.status_code == 200
        for text in answer.iter_text():
            sent += text
            if "event: state" in sent:
                opened.set()
    return sent, time.monotonic()
