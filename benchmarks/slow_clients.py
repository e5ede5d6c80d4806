"""Slow clients against the web server: how long they are kept, and how the site answers
meanwhile. On 127.0.0.1 only.

Starts a server over a temporary store with --files open files allowed (soft and hard),
opens --slow connections that each send half a request and then one more header byte every
--trickle seconds, and meanwhile times --probes plain requests (GET /api/options, 5 s
timeout). Then it reports how many slow connections the server still holds after
--hold seconds.

--server picks what serves the app:
  hearts     `hearts serve` (uvicorn's h11 with the deadlines and cap of hearts.web.server)
  uvicorn    plain uvicorn as `hearts serve` ran it before (timeout_keep_alive=75)
  hypercorn  hypercorn with --read-timeout (needs hypercorn installed; not a dependency)

    .venv/bin/python benchmarks/slow_clients.py --server hearts --slow 1000 --files 1024
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HOST = "127.0.0.1"
HEAD = b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def command(server: str, port: int, timeout: float) -> list[str]:
    bin_dir = Path(sys.executable).parent
    if server == "hearts":
        return [
            str(bin_dir / "hearts"),
            "serve",
            "--port",
            str(port),
            "--header-timeout",
            str(timeout),
        ]
    if server == "uvicorn":
        code = (
            "import uvicorn; from hearts.web.app import create_app; "
            f"uvicorn.run(create_app(), host='{HOST}', port={port}, log_level='warning', "
            "timeout_keep_alive=75)"
        )
        return [sys.executable, "-c", code]
    return [
        str(bin_dir / "hypercorn"),
        "--workers",
        "0",  # in this process: its worker processes are daemons, which cannot have a pool
        "--bind",
        f"{HOST}:{port}",
        "--read-timeout",
        str(int(timeout)),
        "hearts.web.app:create_app()",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", choices=["hearts", "uvicorn", "hypercorn"], default="hearts")
    parser.add_argument("--slow", type=int, default=1000)
    parser.add_argument("--files", type=int, default=1024)
    parser.add_argument("--timeout", type=float, default=10.0, help="the server's deadline")
    parser.add_argument("--trickle", type=float, default=2.0)
    parser.add_argument("--probes", type=int, default=30)
    parser.add_argument("--hold", type=float, default=20.0)
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.slow + 500), hard))
    port = free_port()
    files = args.files

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    with tempfile.TemporaryDirectory() as directory:
        env = {"HEARTS_DATA_DIR": str(Path(directory) / "data"), "PATH": "/usr/bin:/bin"}
        server = subprocess.Popen(
            command(args.server, port, args.timeout),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=limit,
        )
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    httpx.get(f"http://{HOST}:{port}/api/options", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.2)
            slow: list[socket.socket] = []
            refused = 0
            for _ in range(args.slow):
                try:
                    sock = socket.create_connection((HOST, port), timeout=2)
                    sock.sendall(HEAD)
                    sock.setblocking(False)
                    slow.append(sock)
                except OSError:
                    refused += 1
            started = time.monotonic()
            times, failures = [], 0
            for _ in range(args.probes):
                begun = time.perf_counter()
                try:
                    ok = httpx.get(f"http://{HOST}:{port}/api/options", timeout=5).status_code
                    failures += ok != 200
                except httpx.HTTPError:
                    failures += 1
                times.append(time.perf_counter() - begun)
                _trickle(slow, args.trickle)
            while time.monotonic() - started < args.hold:
                _trickle(slow, args.trickle)
            still_open = sum(1 for sock in slow if _is_open(sock))
        finally:
            server.kill()
            server.wait()
            for sock in slow:
                sock.close()
    print(
        json.dumps(
            {
                "server": args.server,
                "slow_connections": args.slow,
                "files": args.files,
                "connect_failures": refused,
                "probe_failures": failures,
                "probe_median_ms": round(1000 * statistics.median(times), 1),
                "probe_max_ms": round(1000 * max(times), 1),
                f"still_open_after_{args.hold:g}_s": still_open,
            }
        )
    )
    return 0


_last = [0.0]


def _trickle(socks: list[socket.socket], every: float) -> None:
    """One more header byte on every open slow connection, every `every` seconds."""
    now = time.monotonic()
    if now - _last[0] < every:
        time.sleep(0.05)
        return
    _last[0] = now
    for sock in socks:
        with contextlib.suppress(OSError):
            sock.send(b"x")


def _is_open(sock: socket.socket) -> bool:
    try:
        data = sock.recv(4096)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return bool(data) and not data.startswith(b"HTTP/1.1 408")


if __name__ == "__main__":
    sys.exit(main())
