"""`GET /api/stats`: sums over the browser's finished games, checked against the same games
worked out here with the engine alone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import hearts
from client_support import another_browser
from hardening.driver import store_at
from hearts.ai import make_player
from hearts.record import actions_of
from hearts.web.store import owner_key
from hearts.web.tokens import COOKIE

from .support import play_to_end, start, step


def moon_game(seed: int, target: int, shooter: int = 0) -> tuple[hearts.Game, int]:
    """One seat goes for the moon against random players; also the queens seat 0 took."""
    rules = hearts.Rules(target_score=target)
    game = hearts.Game(rules, seed)
    players = [make_player("random", seed=f"{seed}:{s}") for s in range(4)]
    players[shooter] = make_player("moon", seed=seed)
    queens = 0
    while True:
        for _ in hearts.play_out(game, players, next_round=False):
            pass
        queens += sum(
            any(str(card) == "QS" for _, card in trick.plays)
            for trick in game.view(0).tricks
            if trick.winner == 0
        )
        if game.is_over:
            return game, queens
        game.next_round()


def expected(games: list[tuple[hearts.Game, int, str]]) -> dict[str, Any]:
    """The statistics of `games` (oldest first), worked out directly."""
    rounds = [r for game, _, _ in games for r in game.results]
    won = [0 in game.winners for game, _, _ in games]
    by_level: dict[str, dict[str, Any]] = {}
    for (_, _, level), win in zip(games, won, strict=True):
        entry = by_level.setdefault(level, {"games": 0, "wins": 0})
        entry["games"] += 1
        entry["wins"] += win
    for entry in by_level.values():
        entry["win_rate"] = round(entry["wins"] / entry["games"], 3)
    margins = [g.scores[0] - min(g.scores[1:]) for g, _, _ in games]
    run = 1
    while run < len(won) and won[-run - 1] == won[-1]:
        run += 1
    return {
        "games": len(games),
        "wins": sum(won),
        "by_level": by_level,
        "rounds": len(rounds),
        "points_per_round": round(sum(r.scores[0] for r in rounds) / len(rounds), 2),
        "moons_shot": sum(r.shooter == 0 for r in rounds),
        "moons_suffered": sum(r.shooter not in (None, 0) for r in rounds),
        "queens_taken": sum(q for _, q, _ in games),
        "best_margin": min(margins),
        "worst_margin": max(margins),
        "current": {"kind": "wins" if won[-1] else "losses", "length": run},
    }


def test_the_statistics_sum_the_browsers_finished_games(client: TestClient, data_dir: Path) -> None:
    step(client, start(client))  # an unfinished game: not counted
    owner = owner_key(client.cookies[COOKIE])
    store = store_at(data_dir)
    tables = [["easy"] * 3, ["hard"] * 3, ["easy"] * 3, ["easy", "hard", "easy"], ["hard"] * 3]
    games = []
    # Seat 0 shoots for the moon, except in the fourth game: there seat 2 (seed 16 has one).
    seeds = [1, 8, 15, 16, 29]
    for number, (levels, seed) in enumerate(zip(tables, seeds, strict=True)):
        game, queens = moon_game(seed, target=60, shooter=2 if seed == 16 else 0)
        store.create(
            f"g{number}", owner, game.rules.to_dict(), seed,
            {"seats": [None, *levels]}, actions_of(game), "over",
        )  # fmt: skip
        level = levels[0] if len(set(levels)) == 1 else "mixed"
        games.append((game, queens, level))
        time.sleep(0.01)  # each finished after the one before
    # Another browser's finished game is not counted.
    stranger = another_browser(client)
    play_to_end(stranger, start(stranger, target_score=10))

    stats = client.get("/api/stats").json()
    want = expected(games)
    assert want["moons_shot"] >= 1 and want["moons_suffered"] >= 1  # chosen to have both
    assert stats["games"] == want["games"] and stats["wins"] == want["wins"]
    assert stats["win_rate"] == round(want["wins"] / want["games"], 3)
    assert stats["by_level"] == want["by_level"]
    assert stats["rounds"] == want["rounds"]
    assert stats["points_per_round"] == want["points_per_round"]
    assert stats["moons_shot"] == want["moons_shot"]
    assert stats["moons_suffered"] == want["moons_suffered"]
    assert stats["queens_taken"] == want["queens_taken"]
    assert stats["best_game"]["margin"] == want["best_margin"]
    assert stats["worst_game"]["margin"] == want["worst_margin"]
    assert stats["streaks"]["current"] == want["current"]
    longest = max(
        (
            len(run)
            for run in "".join("W" if 0 in g.winners else "." for g, _, _ in games).split(".")
        ),
        default=0,
    )
    assert stats["streaks"]["longest_wins"] == longest


def test_a_browser_without_finished_games_has_empty_statistics(client: TestClient) -> None:
    empty = client.get("/api/stats").json()
    assert empty["games"] == 0 and empty["win_rate"] is None
    assert empty["best_game"] is None and empty["streaks"]["current"] is None
    step(client, start(client))
    assert client.get("/api/stats").json() == empty


def test_a_game_played_through_the_api_is_counted(client: TestClient) -> None:
    state = play_to_end(client, start(client, target_score=15))
    stats = client.get("/api/stats").json()
    won = 0 in state["winners"]
    assert stats["games"] == 1 and stats["wins"] == won
    assert stats["by_level"] == {"easy": {"games": 1, "wins": int(won), "win_rate": float(won)}}
    assert stats["rounds"] == len(state["results"])
    points = sum(r["scores"][0] for r in state["results"])
    assert stats["points_per_round"] == round(points / len(state["results"]), 2)
    assert stats["best_game"]["id"] == stats["worst_game"]["id"] == state["id"]
    assert stats["streaks"]["current"] == {"kind": "wins" if won else "losses", "length": 1}


def test_a_damaged_finished_game_is_left_out_not_fatal(client: TestClient, data_dir: Path) -> None:
    play_to_end(client, start(client, target_score=10))
    owner = owner_key(client.cookies[COOKIE])
    bad = [{"type": "play", "seat": 0, "card": "QS"}]
    store_at(data_dir).create(
        "bad", owner, {}, 1, {"seats": [None, "easy", "easy", "easy"]}, bad, "over"
    )
    stats = client.get("/api/stats").json()
    assert stats["games"] == 1 and stats["unreadable"] == 1
    history = client.get("/api/history").json()
    assert [line.get("damaged", False) for line in history] == [True, False]
    assert history[0]["id"] == "bad" and "result" not in history[0]
