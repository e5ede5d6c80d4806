"""Shared builders for engine tests: hands from text, scripted play, and the games the
browser tests and benchmarks open at a chosen moment."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hearts import Card, Game, Pass, Play, PlayerView, Round, Rules, play_out
from hearts.record import from_record
from hearts.scoring import MoonChoice

#: A deal built for the first-trick example of the rule texts. North (seat 0) holds the 2♣,
#: East (1) the K♣, South (2) no clubs but the Q♠, hearts and the A♦, West (3) the 9♣.
FIRST_TRICK_DEAL = [
    "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2S 3S 4S",
    "KC 7C 8C TC 7D 8D 9D TD 5S 6S 7S 8S 9S",
    "QS AD AH KH QH JH TH 9H 8H 7H 6H KD QD",
    "9C JC QC AC JD TS JS KS AS 2H 3H 4H 5H",
]

#: Seat 0 holds every club, so it wins every trick whatever anyone plays: a sure moon (and sun).
SUN_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]


def run_serve(*flags: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`hearts serve` with these flags (and environment added), run to its end: for the
    refusals that stop it before it listens."""
    hearts = Path(sys.executable).with_name("hearts")
    return subprocess.run(
        [str(hearts), "serve", *flags],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def hands(deal: list[str]) -> list[list[str]]:
    return [text.split() for text in deal]


def round_from(
    deal: list[str], rules: Rules | None = None, direction: str = "hold", **kwargs: object
) -> Round:
    return Round.from_hands(rules or Rules(), hands(deal), direction, **kwargs)  # type: ignore[arg-type]


def play_all(rnd: Round, cards: str) -> None:
    for card in cards.split():
        rnd.play(card)


def play_lowest_until_over(rnd: Round) -> None:
    while rnd.phase == "playing":
        rnd.play(rnd.legal_cards()[0])


#: South (2) wins the first trick with the A♣ and then holds nothing but hearts.
ONLY_HEARTS_DEAL = [
    "2C 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S 5S",
    "6C 7C 8C 7D 8D 9D TD JD 6S 7S 8S 9S TS",
    "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "9C TC JC QC KC QD KD AD AH JS QS KS AS",
]

#: As above, but South's other card is the Q♠: the strict rule makes her lead it.
QUEEN_AND_HEARTS_DEAL = [
    "2C 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S 5S",
    "6C 7C 8C 7D 8D 9D TD JD 6S 7S 8S 9S TS",
    "AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
    "9C TC JC QC KC QD KD AD AH KH JS KS AS",
]

#: East (1) wins the first trick and leads the A♠; South (2) holds the Q♠ and low spades.
QUEEN_CHANCE_DEAL = [
    "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2H 3H 4H",
    "KC 7C 8C TC 7D 8D 9D TD AS 6S 7S 8S 9S",
    "QS 2S 3S 4S 5S AD KD QD JD 5H 6H 7H 8H",
    "9C JC QC AC TS JS KS 9H TH JH QH KH AH",
]


class Picks:
    """A seat for the driver that decides by three plain functions."""

    def __init__(
        self,
        pick_card: Callable[[list[Card]], Card],
        pick_pass: Callable[[list[Card], int], list[Card]],
        pick_moon: Callable[[], MoonChoice],
    ) -> None:
        self.pick_card, self.pick_pass, self.pick_moon = pick_card, pick_pass, pick_moon

    def choose_pass(self, view: PlayerView) -> list[Card]:
        return self.pick_pass(view.hand, view.cards_to_pass)

    def choose_play(self, view: PlayerView) -> Card:
        return self.pick_card(view.legal)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self.pick_moon()


def play_game(
    game: Game,
    pick_card: Callable[[list[Card]], Card] = lambda legal: legal[0],
    pick_pass: Callable[[list[Card], int], list[Card]] = lambda hand, count: hand[:count],
    pick_moon: Callable[[], MoonChoice] = lambda: "add",
    *,
    on_round_over: Callable[[Game], None] | None = None,
    on_step: Callable[[Game], None] | None = None,
) -> Game:
    """Play a game to its end through the driver, asking the picks at each decision;
    `on_step` sees the game after every move, `on_round_over` each scored round."""
    seats = [Picks(pick_card, pick_pass, pick_moon)] * game.rules.players
    while True:
        seen = len(game.moves)
        for _ in play_out(game, seats, next_round=False):
            if on_step is not None and len(game.moves) != seen:
                seen = len(game.moves)
                on_step(game)
        if game.is_over:
            return game
        if on_round_over is not None:
            on_round_over(game)
        game.next_round()
        if on_step is not None:
            on_step(game)


def play_random_game(game: Game, rng: random.Random, **hooks: Any) -> Game:
    """`play_game` with every decision a seeded random one."""
    return play_game(
        game,
        pick_card=rng.choice,
        pick_pass=rng.sample,
        pick_moon=lambda: rng.choice(["add", "subtract"]),
        **hooks,
    )


def first_round_played(rules: Rules, seed: int) -> Game:
    """A game whose first round is over: each seat passes and plays its first cards."""
    game = Game(rules, seed)
    while game.phase in ("passing", "playing"):
        seat = game.to_act[0]
        view = game.view(seat)
        if game.phase == "passing":
            game.apply(Pass(seat, view.hand[: view.cards_to_pass]))
        else:
            game.apply(Play(seat, view.legal[0]))
    return game


def position(players: int, stop: Callable[[Game], object]) -> Game:
    """A game of `players` (no passing) played at random until `stop(game)` holds at the
    person's (seat 0's) turn."""
    rules = Rules(players=players, pass_cycle=("hold",))
    for seed in range(400):
        game, rng = Game(rules, seed), random.Random(seed)
        while game.phase == "playing":
            if game.round.turn == 0 and stop(game):
                return game
            game.play(rng.choice(game.round.legal_cards()))
    raise AssertionError("no game reached the wanted position")


def check_golden(path: Path, fresh: dict[str, Any]) -> None:
    """Compare a fresh transcript with the stored one (HEARTS_UPDATE_GOLDEN=1 rewrites it),
    and check that the stored record replays to the stored results."""
    if os.environ.get("HEARTS_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(fresh, indent=1) + "\n")
    stored = json.loads(path.read_text())
    assert fresh == stored
    replayed = from_record(stored["record"])
    assert [r.to_dict() for r in replayed.results] == stored["results"]
    assert replayed.scores == stored["scores"] and replayed.winners == stored["winners"]
