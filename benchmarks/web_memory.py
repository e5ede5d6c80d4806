"""The web server's memory under load plus a flood of long games, against a stated ceiling.

Starts `hearts serve` on 127.0.0.1 over a temporary store, puts --long-games unfinished
games to 1,000 points (about 4,000 actions each, every one different) straight into the
store, owned by one browser, then for --seconds at once:

- runs benchmarks/web_load.py against it (--games browsers playing as people do), and
- floods the long games: in turn, loads each one (a replay in the server) and makes the
  person's next move in it (a replay in a computer players' worker), so both caches fill
  with the largest games there are.

Samples the resident memory (RSS) of the server and its worker processes every 0.5 s and
prints the peak of the sum, the peak of each process, and whether it stayed under
--ceiling-mb.

    .venv/bin/python benchmarks/web_memory.py --long-games 120 --games 200 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from hearts import Game, Rules
from hearts.record import actions_of
from hearts.web.store import Store, owner_key
from hearts.web.tokens import COOKIE, Tokens

HOST = "127.0.0.1"
HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from web_load import free_port, next_request  # noqa: E402


def start_server(port: int, data_dir: Path) -> subprocess.Popen[bytes]:
    """`hearts serve` in a session of its own, so its process group is exactly it and its
    workers."""
    hearts = str(Path(sys.executable).with_name("hearts"))
    command = [hearts, "serve", "--port", str(port), "--data-dir", str(data_dir)]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
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


def long_game(seed: int, stop_at: int) -> Game:
    """A game to 1,000 points played at random by every seat, stopped on the person's move
    once it has `stop_at` actions."""
    rng = random.Random(seed)
    game = Game(Rules(target_score=1000), seed)
    while True:
        phase = game.phase
        if len(game.moves) >= stop_at and _persons_move(game):
            return game
        if phase == "passing":
            seat = game.round.waiting_to_pass()[-1]
            game.give(seat, rng.sample(game.round.hand(seat), game.round.cards_to_pass()))
        elif phase == "playing":
            game.play(rng.choice(game.round.legal_cards()))
        elif phase == "moon-choice":
            game.choose_moon("add")
        elif phase == "round-over":
            game.next_round()
        else:
            raise RuntimeError("the game ended before it was long enough; raise the target")


def _persons_move(game: Game) -> bool:
    if game.phase == "passing":
        return game.round.waiting_to_pass() == [0]
    if game.phase == "playing":
        return game.round.turn == 0
    return game.phase == "round-over"


def group_rss(pgid: int) -> dict[int, int]:
    """RSS in bytes of every process in the process group."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[2]) != pgid:
                continue
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    found[int(entry.name)] = int(line.split()[1]) * 1024
        except (OSError, ValueError):
            continue
    return found


class Sampler(threading.Thread):
    def __init__(self, pgid: int) -> None:
        super().__init__(daemon=True)
        self.pgid = pgid
        self.stop = threading.Event()
        self.peak_total = 0
        self.peak_each: dict[int, int] = {}
        self.samples: list[int] = []

    def run(self) -> None:
        while not self.stop.is_set():
            sizes = group_rss(self.pgid)
            total = sum(sizes.values())
            self.samples.append(total)
            self.peak_total = max(self.peak_total, total)
            for pid, size in sizes.items():
                self.peak_each[pid] = max(self.peak_each.get(pid, 0), size)
            self.stop.wait(0.5)


async def flood(base: str, cookie: str, ids: list[str], until: float) -> dict[str, int]:
    tally = {"loads": 0, "moves": 0, "errors": 0}
    rng = random.Random(3)
    async with httpx.AsyncClient(base_url=base, cookies={COOKIE: cookie}, timeout=60) as client:
        while time.monotonic() < until:
            for game_id in ids:
                if time.monotonic() >= until:
                    break
                state = await client.get(f"/api/games/{game_id}")
                tally["loads"] += 1
                if state.status_code != 200:
                    tally["errors"] += 1
                    continue
                route, body = next_request(state.json(), rng)
                moved = await client.post(f"/api/games/{game_id}/{route}", json=body)
                tally["moves" if moved.status_code == 200 else "errors"] += 1
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--long-games", type=int, default=120)
    parser.add_argument("--long-actions", type=int, default=4000)
    parser.add_argument("--games", type=int, default=200, help="web_load.py browsers")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--floods", type=int, default=2, help="clients flooding at once")
    parser.add_argument("--ceiling-mb", type=float, default=400.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        data_dir = Path(directory) / "data"
        made = time.perf_counter()
        games = [long_game(1000 + i, args.long_actions) for i in range(args.long_games)]
        store = Store(data_dir)
        cookie = Tokens.in_directory(data_dir).issue()
        ids = []
        for i, game in enumerate(games):
            game_id = f"long-{i:04d}"
            store.create(
                game_id,
                owner_key(cookie),
                game.rules.to_dict(),
                1000 + i,
                {"levels": ["easy"] * 3},
                actions_of(game),
                "active",
            )
            ids.append(game_id)
        actions = sum(len(g.moves) for g in games)
        print(
            f"{len(games)} long games, {actions} actions, made in "
            f"{time.perf_counter() - made:.0f} s",
            flush=True,
        )
        del games
        port = free_port()
        # Only unfinished games this browser keeps are limited at a new game; these are
        # loaded, not created, so the quota does not touch them.
        process = start_server(port, data_dir)
        base = f"http://{HOST}:{port}"
        sampler = Sampler(os.getpgid(process.pid))
        idle = sum(group_rss(os.getpgid(process.pid)).values())
        sampler.start()
        try:
            load = subprocess.Popen(
                [
                    sys.executable,
                    str(HERE / "web_load.py"),
                    "--url",
                    base,
                    "--games",
                    str(args.games),
                    "--seconds",
                    str(args.seconds),
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            until = time.monotonic() + args.seconds
            chunks = [ids[i :: args.floods] for i in range(args.floods)]

            async def floods() -> list[dict[str, int]]:
                return await asyncio.gather(*(flood(base, cookie, c, until) for c in chunks))

            tallies = asyncio.run(floods())
            load_out, _ = load.communicate(timeout=args.seconds + 120)
        finally:
            sampler.stop.set()
            sampler.join()
            process.terminate()
            process.wait(timeout=30)
    load_result: dict[str, Any] = json.loads(load_out.strip().splitlines()[-1])
    mb = 1024 * 1024
    result = {
        "idle_rss_mb": round(idle / mb, 1),
        "peak_rss_mb": round(sampler.peak_total / mb, 1),
        "peak_rss_mb_each": sorted(round(v / mb, 1) for v in sampler.peak_each.values()),
        "end_rss_mb": round(sampler.samples[-1] / mb, 1) if sampler.samples else None,
        "ceiling_mb": args.ceiling_mb,
        "under_ceiling": sampler.peak_total / mb < args.ceiling_mb,
        "flood": {k: sum(t[k] for t in tallies) for k in ("loads", "moves", "errors")},
        "load": {
            k: load_result.get(k)
            for k in ("play_p50_ms", "play_p99_ms", "requests_per_s", "errors")
        },
    }
    print(json.dumps(result), flush=True)
    return 0 if result["under_ceiling"] else 1


if __name__ == "__main__":
    sys.exit(main())
