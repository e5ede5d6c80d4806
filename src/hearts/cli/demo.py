"""`hearts demo`: a game between random players, printed trick by trick."""

from __future__ import annotations

import argparse
import random
from typing import Any

from ..cards import Card


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("demo", help="print a game of random players, trick by trick")
    parser.add_argument("--seed", type=int, default=1, help="seed for the deal and the players")
    parser.add_argument("--target", type=int, default=100, help="score that ends the game")
    parser.set_defaults(func=run)


def _cards(cards: list[Card]) -> str:
    return " ".join(c.symbol for c in cards)


def run(args: argparse.Namespace) -> int:
    from ..game import Game
    from ..rules import Rules

    rng = random.Random(args.seed)
    game = Game(Rules(target_score=args.target), seed=args.seed)
    names = ["South", "West", "North", "East"]
    while not game.is_over:
        rnd = game.round
        if game.phase == "passing":
            print(f"\nRound {rnd.hand_number + 1}: pass {rnd.pass_direction}")
            for seat in range(rnd.players):
                cards = rng.sample(rnd.hand(seat), rnd.cards_to_pass())
                print(f"  {names[seat]:>5} passes {_cards(sorted(cards))}")
                game.give(seat, cards)
        elif game.phase == "playing":
            if not rnd.tricks and not rnd.trick and rnd.pass_direction == "hold":
                print(f"\nRound {rnd.hand_number + 1}: no pass (hold)")
            before = len(rnd.tricks)
            game.play(rng.choice(rnd.legal_cards()))
            if len(rnd.tricks) > before:
                trick = rnd.tricks[-1]
                plays = ", ".join(
                    f"{names[s]} {c.symbol}"
                    for s, c in zip(trick.seats(rnd.players), trick.cards, strict=True)
                )
                print(f"  trick {before + 1:>2}: {plays} -> {names[trick.winner]}")
        elif game.phase == "moon-choice":
            game.choose_moon("add")
        else:
            result = game.last_result
            assert result is not None
            taken = ", ".join(f"{names[s]} {p}" for s, p in enumerate(result.points_taken))
            print(f"  points taken: {taken}")
            if result.shooter is not None:
                print(f"  {names[result.shooter]} shot the moon!")
            print("  totals: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(game.scores)))
            game.next_round()
    winners = " and ".join(names[s] for s in game.winners)
    print(f"\nGame over after {len(game.results)} rounds. {winners} wins.")
    return 0
