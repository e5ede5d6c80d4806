"""What a take-back costs, against the card it takes back, as a game grows long.

One app in this process (SQLite in a temporary directory, easy computer players in threads,
so the CPU time measured is all of it): a person plays a game to `--target` points; every
`--every`th card is taken back (`POST /api/games/{id}/undo`) and played again. Each undo and
each play request is timed (wall clock and this process's CPU time), grouped by how many
moves the game had; a take-back replays the moves left standing, so it grows with the game.

    .venv/bin/python benchmarks/undo_latency.py --target 1000 --every 5
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from hearts.web.app import create_app

BUCKETS = (0, 500, 1500, 3000, 10**9)


def timed(client: TestClient, url: str, body: dict[str, Any]) -> tuple[Any, float, float]:
    """The answer to a POST, and its wall-clock and CPU milliseconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    answer = client.post(url, json=body)
    return answer, (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def bucket(moves: int) -> str:
    for low, high in itertools.pairwise(BUCKETS):
        if low <= moves < high:
            return f"{low}-{high - 1}" if high < 10**9 else f"{low}+"
    raise ValueError(moves)


def play(target: int, every: int) -> dict[str, dict[str, list[float]]]:
    found: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Path(folder) / "data", bot_workers=0)
        with TestClient(app) as client:
            body = {"levels": ["easy"], "rules": {"target_score": target}}
            state = client.post("/api/games", json=body).json()
            game = f"/api/games/{state['id']}"
            cards = 0
            undone: set[int] = set()
            while state["phase"] != "game-over":
                phase, view = state["phase"], state["view"]
                if phase == "passing":
                    cards_to_pass = view["hand"][: view["cards_to_pass"]]
                    payload = {"move": state["move"], "cards": cards_to_pass}
                    state = client.post(f"{game}/pass", json=payload).json()
                    continue
                if phase != "playing":
                    path = "moon" if phase == "moon-choice" else "next"
                    extra = {"choice": "add"} if phase == "moon-choice" else {}
                    state = client.post(f"{game}/{path}", json={"move": state["move"], **extra})
                    state = state.json()
                    continue
                card = {"move": state["move"], "card": view["legal"][0]}
                answer, wall, cpu = timed(client, f"{game}/play", card)
                after = answer.json()
                cards += 1
                times = found.setdefault(bucket(state["move"]), {})
                times.setdefault("play ms", []).append(wall)
                times.setdefault("play cpu ms", []).append(cpu)
                if cards % every == 0 and after["undo"]["to"] is not None:
                    undo = {"move": after["move"]}
                    back, wall, cpu = timed(client, f"{game}/undo", undo)
                    assert back.status_code == 200, back.text
                    # The first take-back of a round replays the game to the round's start;
                    # the others start from there.
                    kind = "again" if view["hand_number"] in undone else "first"
                    undone.add(view["hand_number"])
                    times.setdefault(f"undo {kind} ms", []).append(wall)
                    times.setdefault(f"undo {kind} cpu ms", []).append(cpu)
                    after = client.post(f"{game}/play", json=card).json()
                state = after
    return found


def summary(values: list[float]) -> str:
    if len(values) < 4:
        return f"{statistics.median(values):.1f} (n={len(values)})"
    quarters = statistics.quantiles(values, n=4)
    return f"{quarters[1]:.1f} [{quarters[0]:.1f}, {quarters[2]:.1f}] (n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", type=int, default=1000)
    parser.add_argument("--every", type=int, default=5)
    args = parser.parse_args()
    found = play(args.target, args.every)
    columns = ("undo first", "undo again", "play")
    print("| moves in the game | " + " | ".join(f"{c} ms | {c} CPU ms" for c in columns) + " |")
    print("|---" * (1 + 2 * len(columns)) + "|")
    for name in sorted(found, key=lambda b: int(b.split("-")[0].rstrip("+"))):
        times = found[name]
        cells = [summary(times.get(f"{c}{k}", [0.0])) for c in columns for k in (" ms", " cpu ms")]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
