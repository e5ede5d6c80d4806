"""Memory: the caches are bounded by what they hold (actions), not by a count of games, and
the PDF cache holds every valid score sheet; a real server loading many long games stays
within its cache's budget."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from hearts import Game, Rules, sheets
from hearts.record import actions_of
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS
from hearts.web import bots
from hearts.web.app import create_app
from hearts.web.settings import Settings
from hearts.web.sheets_routes import SCORE_SHEETS, cached_score
from hearts.web.store import Store, owner_key
from hearts.web.tokens import COOKIE, Tokens

from .server import Server


def long_game(seed: int, stop_at: int) -> Game:
    """A game to 1,000 points played at random, stopped on the person's turn to play."""
    rng = random.Random(seed)
    game = Game(Rules(target_score=1000), seed)
    while not (len(game.moves) >= stop_at and game.phase == "playing" and game.round.turn == 0):
        if game.phase == "passing":
            seat = game.round.waiting_to_pass()[-1]
            game.give(seat, rng.sample(game.round.hand(seat), game.round.cards_to_pass()))
        elif game.phase == "playing":
            game.play(rng.choice(game.round.legal_cards()))
        elif game.phase == "moon-choice":
            game.choose_moon("add")
        else:
            game.next_round()
    return game


def plant_long_games(data_dir: Path, count: int, actions: int) -> tuple[str, list[str]]:
    """`count` long games in the store, owned by one browser; its cookie and the ids."""
    store = Store(data_dir)
    cookie = Tokens.in_directory(data_dir).issue()
    ids = []
    for i in range(count):
        game = long_game(500 + i, actions)
        game_id = f"long-{i}"
        settings = {"levels": ["easy"] * 3}
        rules = game.rules.to_dict()
        store.create(
            game_id, owner_key(cookie), rules, 500 + i, settings, actions_of(game), "active"
        )
        ids.append(game_id)
    return cookie, ids


def test_the_game_cache_is_bounded_by_actions(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    cookie, ids = plant_long_games(data_dir, 6, 2000)
    settings = Settings(data_dir=data_dir, cache_actions=5000)
    app = create_app(bot_workers=0, settings=settings)
    with TestClient(app, cookies={COOKIE: cookie}) as browser:
        weights = []
        for game_id in ids:
            assert browser.get(f"/api/games/{game_id}").status_code == 200
            weights.append(app.state.service._cache.weight)
    assert max(weights) <= 5000
    assert len(app.state.service._cache) == 2  # two games of ~2,000 actions fit, not six


def test_the_workers_cache_is_bounded_by_actions() -> None:
    bots._RECENT.clear()
    games = [long_game(900 + i, 3000) for i in range(40)]  # 120,000 actions in all
    for i, game in enumerate(games):
        bots._replay(game.rules.to_dict(), 900 + i, game.moves)
    held = sum(len(game.moves) for game in bots._RECENT.values())
    assert held <= bots.RECENT_ACTIONS and len(bots._RECENT) < len(games)
    bots._RECENT.clear()


def test_every_score_sheet_fits_in_the_pdf_cache() -> None:
    combinations = [
        (players, paper, rounds)
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        for paper in sheets.PAPERS
        for rounds in range(sheets.MIN_ROUNDS, sheets.MAX_ROUNDS + 1)
    ]
    assert len(combinations) == SCORE_SHEETS == 336
    cached_score.cache_clear()
    for combination in combinations:
        cached_score(*combination, None)
    for combination in combinations:  # a client asking for them in turn: all hits
        cached_score(*combination, None)
    info = cached_score.cache_info()
    assert (info.misses, info.hits, info.currsize) == (336, 336, 336)
    assert sum(len(cached_score(*c, None)) for c in combinations) < 4 * 1024 * 1024


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_a_real_server_keeps_long_games_within_its_cache_budget(tmp_path: Path) -> None:
    """40 games of 3,000 actions loaded one after another: with a budget of 20,000 actions
    the server holds about seven at a time, and its memory grows by far less than all 40
    would take (about 1.5 MB each)."""
    data_dir = tmp_path / "data"
    cookie, ids = plant_long_games(data_dir, 40, 3000)
    env = {"HEARTS_CACHE_ACTIONS": "20000"}
    with Server(data_dir, env=env) as server:
        assert server.process is not None
        with httpx.Client(base_url=server.url, cookies={COOKIE: cookie}, timeout=30) as browser:
            assert browser.get(f"/api/games/{ids[0]}").status_code == 200
            before = rss(server.process.pid)
            for game_id in ids:
                assert browser.get(f"/api/games/{game_id}").status_code == 200
            grown = rss(server.process.pid) - before
    print(f"\nRSS grew {grown / 2**20:.1f} MB loading 40 long games")
    assert grown < 30 * 2**20
