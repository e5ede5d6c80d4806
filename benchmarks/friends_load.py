"""Tables of friends under load: many tables of four people, every person with an open event
stream, playing at a person's pace against a real `hearts serve`.

Starts `hearts serve` on a free 127.0.0.1 port over a temporary data directory (SQLite, as
`make run`), seats --tables tables of four people (each person its own client and cookie:
one creates the table, three join it by its invitation, so it starts), then measures:

- memory per open stream: the server's RSS with every person's stream open, minus its RSS
  with the same tables and no stream, divided by the number of streams;
- for --seconds, every person plays from what its own stream shows: when the stream says it
  is this seat's move, it thinks (uniformly --think-min to --think-max seconds) and sends a
  move. The tables start spread over --ramp seconds. The time from sending a move's
  request to that move's event arriving on each of the other three people's streams is
  the delivery time (p50, p99, max, over every move and every other stream; "steady": only
  those after the ramp and a first think);
- errors: any answer that is not a success or a 409 (a move that lost a race with another
  person's move at the same move number: two people passing at once; the person sends it
  again from the state the 409 carries, as a browser does; counted apart), any stream that
  ends, any move whose event never reaches another stream within --grace seconds of the
  end, and any event a stream shows twice;
- the server's CPU seconds (user + system, from /proc) per move over the play.

Each run starts a fresh server (with --postgres: two processes over a throwaway
PostgreSQL, the people of each table split between them, so a card reaches most streams by
NOTIFY). The simulated people are spread over --clients processes (a table's four people
in one, so a move's send and its arrivals are timed on one clock); each reads its streams
over plain sockets, and the client's own loop delay is reported beside the times (it is
part of them). Bounded: --seconds of play, --tables, --grace.

    .venv/bin/python benchmarks/friends_load.py --tables 100 --seconds 60 --runs 3

Prints each run as JSON, then the median of the runs and their range.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx

HOST = "127.0.0.1"
SEATS = ["you", "friend", "friend", "friend"]
MOVING = frozenset({"passing", "playing", "moon-choice", "round-over"})


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(port: int, data_dir: Path, database: str | None) -> subprocess.Popen[bytes]:
    command = [
        str(Path(sys.executable).with_name("hearts")),
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
    ]
    env = {k: v for k, v in os.environ.items() if k != "HEARTS_DATABASE_URL"}
    if database is not None:
        env["HEARTS_DATABASE_URL"] = database
    # Every person here comes from 127.0.0.1, and both processes count its new tables in one
    # hourly quota: a large run would meet it.
    env["HEARTS_GAMES_PER_HOUR_PER_ADDRESS"] = "1000000"
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://{HOST}:{port}/api/options", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not start within 60 s")


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Tally:
    delivery: list[float] = field(default_factory=list)
    """Seconds from a move's request to its event on another person's stream."""
    delivered_at: list[float] = field(default_factory=list)
    """When each of those arrived (monotonic clock)."""
    started: float = 0.0
    moves: int = 0
    conflicts: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    sent: dict[tuple[str, int, int], float] = field(default_factory=dict)
    """(game, move count after the move, seat) -> when its request was sent."""
    expected: dict[tuple[str, int, int], int] = field(default_factory=dict)
    """Moves acknowledged -> deliveries to other streams still awaited."""
    arrived: dict[tuple[str, int, int], list[float]] = field(default_factory=dict)
    """(game, move count, seat) -> when its event reached each other person's stream. Kept
    apart from `sent` and matched at the end: a pass may be stored after passes that got in
    first (passes cross), so its move count is known only from its answer, which can
    arrive after the other streams have shown it."""
    loop_lag: list[float] = field(default_factory=list)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


@dataclass
class Person:
    base: str
    name: str
    tally: Tally
    client: httpx.AsyncClient = field(init=False)
    game_id: str = ""
    seat: int = -1
    state: dict[str, Any] | None = None
    seen: set[tuple[int, int]] = field(default_factory=set)
    news: asyncio.Event = field(default_factory=asyncio.Event)
    opened: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.client = httpx.AsyncClient(base_url=self.base, timeout=30)

    async def stream(self, since: int) -> None:
        """Read the seat's event stream over a plain socket (HTTP/1.1, chunked): cheaper for
        the client than an HTTP library, so its own delay weighs less in the times."""
        url = f"/api/games/{self.game_id}/events?since={since}"
        cookie = "; ".join(f"{name}={value}" for name, value in self.client.cookies.items())
        host = self.base.removeprefix("http://")
        writer = None
        try:
            reader, writer = await asyncio.open_connection(*host.split(":"))
            writer.write(
                f"GET {url} HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            status = await reader.readline()
            if b" 200 " not in status:
                self.tally.error(f"stream {status.decode().strip()}")
                return
            while (await reader.readline()) not in (b"\r\n", b""):
                pass  # the headers: uvicorn streams with chunked transfer encoding
            buffer = b""
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break
                buffer += (await reader.readexactly(size + 2))[:-2]
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    for line in block.split(b"\n"):
                        if line.startswith(b"data:"):
                            self.receive(json.loads(line[5:]), time.monotonic())
            self.tally.error("stream ended")
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self.tally.error(f"stream {type(error).__name__}")
        finally:
            self.opened.set()
            if writer is not None:
                writer.close()

    def receive(self, state: dict[str, Any], now: float) -> None:
        tally = self.tally
        if "move" not in state:  # a stream's notice (gone, reconnecting): not a state
            tally.error(f"stream said {state.get('detail', '?')}")
            return
        for event in state.get("events", ()):
            n = event["n"]
            mover = event.get("seat")
            if event["type"] in ("play", "pass") and mover is not None:
                if (n, mover) in self.seen:
                    tally.error("event shown twice")
                self.seen.add((n, mover))
                if mover != self.seat:
                    tally.arrived.setdefault((self.game_id, n, mover), []).append(now)
        if self.state is None or state["move"] >= self.state["move"]:
            self.state = state
        self.news.set()
        self.opened.set()

    async def play(
        self, rng: random.Random, until: float, think: tuple[float, float], start: float
    ) -> None:
        """Play from the stream until `until`, from `start` (tables start spread out, as
        people sit down at different moments, not all on one deal)."""
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        acted = -1
        while time.monotonic() < until:
            try:
                await asyncio.wait_for(self.news.wait(), max(0.01, until - time.monotonic()))
            except TimeoutError:
                return
            self.news.clear()
            state = self.state
            if state is None or not self.mine(state) or state["move"] <= acted:
                continue
            await asyncio.sleep(rng.uniform(*think))
            while time.monotonic() < until and self.state is not None and self.mine(self.state):
                state = self.state
                acted = state["move"]
                answer = await self.move(state, rng)
                if answer is None or answer.status_code != 409:
                    break
                self.tally.conflicts += 1
                refused = answer.json().get("state")
                if refused is not None and refused["move"] >= self.state["move"]:
                    self.state = refused

    def mine(self, state: dict[str, Any]) -> bool:
        # At a round's end each person asks for the next round; the last ask deals it.
        return state["phase"] in MOVING and self.seat in state["table"]["waiting_on"]

    async def move(self, state: dict[str, Any], rng: random.Random) -> httpx.Response | None:
        view, number = state["view"], state["move"]
        body: dict[str, Any]
        if state["phase"] == "passing":
            route, body = "pass", {"cards": rng.sample(view["hand"], view["cards_to_pass"])}
        elif state["phase"] == "playing":
            route, body = "play", {"card": rng.choice(view["legal"])}
        elif state["phase"] == "moon-choice":
            route, body = "moon", {"choice": "add"}
        else:
            route, body = "next", {}
        key = (self.game_id, number + 1, self.seat)
        tracked = route in ("pass", "play")
        if tracked:
            self.tally.sent[key] = time.monotonic()
        try:
            answer = await self.client.post(
                f"/api/games/{self.game_id}/{route}", json={"move": number, **body}
            )
        except httpx.HTTPError as error:
            self.tally.error(f"request {type(error).__name__}")
            self.tally.sent.pop(key, None)
            return None
        if answer.status_code == 200:
            self.tally.moves += 1
            if tracked:
                stored = [
                    event["n"]
                    for event in answer.json()["events"]
                    if event["type"] == route and event.get("seat") == self.seat
                ]
                if stored and stored[0] != key[1]:  # a pass stored after others' passes
                    moved = (self.game_id, stored[0], self.seat)
                    self.tally.sent[moved] = self.tally.sent.pop(key)
                    key = moved
                self.tally.expected.setdefault(key, 3)
        else:
            self.tally.sent.pop(key, None)
            if answer.status_code != 409:
                self.tally.error(f"HTTP {answer.status_code}")
        return answer


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def seat(bases: list[str], number: int, tally: Tally) -> list[Person]:
    """Table `number`: its host and three friends, each on the servers in turn."""
    host = Person(bases[number % len(bases)], f"Host {number}", tally)
    body = {"seats": SEATS, "name": host.name, "turn_time": 0, "hold_time": 3600}
    made = (await host.client.post("/api/games", json=body)).json()
    host.game_id, host.seat, host.state = made["id"], made["table"]["seat"], made
    people = [host]
    token = made["table"]["invite"].split("#invite=", 1)[1]
    for friend in range(len(SEATS) - 1):
        where = bases[(number + friend + 1) % len(bases)]
        person = Person(where, f"Friend {number}.{friend}", tally)
        answer = await person.client.post(
            f"/api/games/{made['id']}/join", json={"invite": token, "name": person.name}
        )
        joined = answer.json()
        person.game_id, person.seat, person.state = joined["id"], joined["table"]["seat"], joined
        people.append(person)
    return people


async def clients(
    bases: list[str], tables: range, args: argparse.Namespace, seed: int, step: Any
) -> dict[str, Any]:
    """One client process: its share of the tables, through the run's steps (`step()`
    waits for every client process and the conductor)."""
    tally = Tally()
    seated: list[list[Person]] = []
    streams: list[asyncio.Task[None]] = []
    try:
        for number in tables:
            seated.append(await seat(bases, number, tally))
        people = [p for table in seated for p in table]
        await asyncio.to_thread(step)  # 1: seated; the conductor weighs the server
        await asyncio.to_thread(step)  # 2: open the streams
        for person in people:
            assert person.state is not None
            streams.append(asyncio.create_task(person.stream(person.state["move"])))
        await asyncio.wait_for(asyncio.gather(*(p.opened.wait() for p in people)), 120)
        open_streams = sum(1 for task in streams if not task.done())
        await asyncio.to_thread(step)  # 3: open; the conductor weighs the server again
        await asyncio.to_thread(step)  # 4: play
        cpu = time.process_time()
        started = time.monotonic()
        tally.started = started
        until = started + args.seconds
        rng = random.Random(seed)
        think = (args.think_min, args.think_max)
        starts = {table[0].game_id: started + rng.uniform(0, args.ramp) for table in seated}
        players = [
            asyncio.create_task(
                p.play(random.Random(rng.random()), until, think, starts[p.game_id])
            )
            for p in people
        ]

        async def watch_the_client() -> None:
            # How late this client's own loop runs (its lag adds to the delivery times).
            while time.monotonic() < until:
                before = time.monotonic()
                await asyncio.sleep(0.1)
                tally.loop_lag.append(time.monotonic() - before - 0.1)

        await asyncio.gather(*players, watch_the_client())
        played = time.monotonic() - started
        cpu = time.process_time() - cpu
        await asyncio.to_thread(step)  # 5: played
        await asyncio.sleep(args.grace)
        for key, left in tally.expected.items():
            arrivals = tally.arrived.get(key, [])
            for now in arrivals:
                tally.delivery.append(now - tally.sent[key])
                tally.delivered_at.append(now - tally.started)
            tally.expected[key] = left - len(arrivals)
        missing = sum(max(0, left) for left in tally.expected.values())
        if missing:
            tally.errors["deliveries missing"] = missing
        ended = sum(1 for task in streams if task.done())
    finally:
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
        for table in seated:
            for person in table:
                await person.client.aclose()
    return {
        "delivery": tally.delivery,
        "delivered_at": tally.delivered_at,
        "loop_lag": tally.loop_lag,
        "moves": tally.moves,
        "conflicts": tally.conflicts,
        "errors": tally.errors,
        "streams": open_streams,
        "ended": ended,
        "played": played,
        "client_cpu": cpu,
    }


def client_process(
    bases: list[str], tables: range, args: argparse.Namespace, seed: int, barrier: Any, out: Any
) -> None:
    def step() -> None:
        barrier.wait(timeout=600)

    try:
        out.put(asyncio.run(clients(bases, tables, args, seed, step)))
    except BaseException as error:
        barrier.abort()
        out.put({"failed": repr(error)})


def one_run(args: argparse.Namespace, run: int, database: str | None) -> dict[str, Any]:
    """A fresh server (two over `database`, PostgreSQL); --clients processes play its
    tables; the conductor (this process) weighs the servers between the steps."""
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="hearts-friends-") as directory:
        servers = []
        try:
            for _ in range(1 if database is None else 2):
                port = free_port()
                servers.append((port, start_server(port, Path(directory) / "data", database)))
        except BaseException:
            for _, server in servers:
                os.killpg(server.pid, signal.SIGTERM)
            raise
        pids = [server.pid for _, server in servers]
        bases = [f"http://{HOST}:{port}" for port, _ in servers]
        barrier = context.Barrier(args.clients + 1)
        out = context.Queue()
        shares = [range(i, args.tables, args.clients) for i in range(args.clients)]
        workers = [
            context.Process(
                target=client_process, args=(bases, share, args, run * 100 + i, barrier, out)
            )
            for i, share in enumerate(shares)
        ]
        try:
            for worker in workers:
                worker.start()
            barrier.wait(timeout=600)  # 1: every table seated
            time.sleep(2)
            without = sum(median_rss(pid) for pid in pids)
            barrier.wait(timeout=600)  # 2: open the streams
            barrier.wait(timeout=600)  # 3: every stream open
            time.sleep(2)
            with_streams = sum(median_rss(pid) for pid in pids)
            cpu_before = sum(cpu_seconds(pid) for pid in pids)
            barrier.wait(timeout=600)  # 4: play
            barrier.wait(timeout=args.seconds + 600)  # 5: played
            cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
            parts = [out.get(timeout=args.grace + 120) for _ in workers]
            for worker in workers:
                worker.join(timeout=60)
        finally:
            for worker in workers:
                if worker.is_alive():
                    worker.kill()
            for _, server in servers:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=30)
    failed = [part["failed"] for part in parts if "failed" in part]
    if failed:
        raise RuntimeError(f"a client process failed: {failed}")
    delivery = [t for part in parts for t in part["delivery"]]
    # Once every table has started (after the ramp and a first think): the steady state.
    steady = [
        t
        for part in parts
        for t, at in zip(part["delivery"], part["delivered_at"], strict=True)
        if at > args.ramp + args.think_max
    ]
    lag = [t for part in parts for t in part["loop_lag"]]
    moves = sum(part["moves"] for part in parts)
    streams = sum(part["streams"] for part in parts)
    played = max(part["played"] for part in parts)
    errors: dict[str, int] = {}
    for part in parts:
        for kind, count in part["errors"].items():
            errors[kind] = errors.get(kind, 0) + count
    mb = 1024 * 1024
    return {
        "tables": args.tables,
        "streams": streams,
        "client_processes": args.clients,
        "servers": "2 on PostgreSQL" if database else "1 on SQLite",
        "seconds": round(played, 1),
        "moves": moves,
        "moves_per_s": round(moves / played, 1),
        "deliveries": len(delivery),
        "delivery_p50_ms": round(1000 * percentile(delivery, 0.50), 1),
        "delivery_p99_ms": round(1000 * percentile(delivery, 0.99), 1),
        "delivery_max_ms": round(1000 * max(delivery, default=float("nan")), 1),
        "steady_p50_ms": round(1000 * percentile(steady, 0.50), 1),
        "steady_p99_ms": round(1000 * percentile(steady, 0.99), 1),
        "conflicts_409": sum(part["conflicts"] for part in parts),
        "errors": errors,
        "streams_ended": sum(part["ended"] for part in parts),
        "rss_without_streams_mb": round(without / mb, 1),
        "rss_with_streams_mb": round(with_streams / mb, 1),
        "kib_per_stream": round((with_streams - without) / streams / 1024, 1),
        "server_cpu_ms_per_move": round(1000 * cpu / moves, 2) if moves else None,
        "server_cpu_share": round(cpu / played, 2),
        "client_cpu_share": round(sum(part["client_cpu"] for part in parts) / played, 2),
        "client_lag_p99_ms": round(1000 * percentile(lag, 0.99), 1),
    }


def median_rss(pid: int) -> float:
    """The median of five samples of the server's RSS, 0.2 s apart."""
    samples = []
    for _ in range(5):
        samples.append(rss_bytes(pid))
        time.sleep(0.2)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--think-min", type=float, default=1.0)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument("--grace", type=float, default=5.0)
    parser.add_argument(
        "--ramp", type=float, default=10.0, help="seconds over which the tables start playing"
    )
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="two server processes over a throwaway PostgreSQL (tests/pg_support.py), each"
        " table's people split between them, so most cards reach a stream by NOTIFY",
    )
    args = parser.parse_args()
    if not 1 <= args.tables <= 500 or not 1 <= args.seconds <= 600 or not 1 <= args.runs <= 10:
        parser.error("--tables 1..500, --seconds 1..600 and --runs 1..10 keep a run bounded.")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")  # fmt: skip
    results = []
    clusters: Generator[Any, None, None] | None = None
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
        from pg_support import start_cluster

        clusters = cast(Generator[Any, None, None], start_cluster())
    try:
        cluster = next(clusters) if clusters is not None else None
        for run in range(args.runs):
            database = cluster.new_database() if cluster is not None else None
            result = one_run(args, run, database)
            print(json.dumps(result), flush=True)
            results.append(result)
    finally:
        if clusters is not None:
            clusters.close()
    keys = [
        "delivery_p50_ms", "delivery_p99_ms", "delivery_max_ms", "steady_p50_ms",
        "steady_p99_ms", "moves_per_s",
        "kib_per_stream", "server_cpu_ms_per_move", "server_cpu_share", "client_cpu_share",
        "conflicts_409", "client_lag_p99_ms",
    ]  # fmt: skip
    summary = {
        key: {
            "median": statistics.median(r[key] for r in results),
            "range": [min(r[key] for r in results), max(r[key] for r in results)],
        }
        for key in keys
    }
    summary["errors"] = [r["errors"] for r in results]  # type: ignore[assignment]
    print(json.dumps({"median_of_runs": summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
