"""`hearts demo`: a game between random players, printed trick by trick from its events.

The seats are named and the cards ordered as `hearts play` and `hearts replay` have them:
seat 0 is "You" (here a random player too).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..rules import MAX_TARGET, MIN_TARGET
from ..words import counted, listed
from .rule_options import check_target
from .terminal import cards_text, seat_names, verb


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="print a game of random players, trick by trick",
        description="Print a whole game played by four random players, trick by trick, to see "
        "how a game runs. The same seed prints the same game.",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed for the deal and the players (1)")
    parser.add_argument(
        "--target",
        type=int,
        default=100,
        help=f"score that ends the game, {MIN_TARGET} to {MAX_TARGET} (100)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import events as ev
    from ..ai import make_player
    from ..driver import play_out
    from ..game import Game
    from ..rules import Rules

    try:
        check_target(args.target)
        rules = Rules(target_score=args.target)
    except ValueError as error:
        print(f"hearts demo: {error}", file=sys.stderr)
        return 2
    game = Game(rules, seed=args.seed)
    n = game.rules.players
    names = seat_names(n)
    print(f"Random players in all {n} seats, yours (You) too.")
    players = [make_player("random", seed=f"{args.seed}:{seat}") for seat in range(n)]
    for event in [*game.start_events(), *play_out(game, players)]:
        if isinstance(event, ev.Dealt):
            how = "keep (nobody passes)" if event.pass_direction == "hold" else "pass"
            direction = "" if event.pass_direction == "hold" else f" {event.pass_direction}"
            print(f"\nRound {event.hand_number + 1}: {how}{direction}")
        elif isinstance(event, ev.Passed) and event.cards is not None:
            name = names[event.seat]
            print(f"  {name:>5} {verb(name, 'passes', 'pass')} {cards_text(event.cards)}")
        elif isinstance(event, ev.TrickWon):
            plays = ", ".join(f"{names[s]} {c.symbol}" for s, c in event.plays)
            print(f"  trick {event.number + 1:>2}: {plays} -> {names[event.winner]}")
        elif isinstance(event, ev.RoundScored):
            result = event.result
            taken = ", ".join(f"{names[s]} {p}" for s, p in enumerate(result.points_taken))
            print(f"  points taken: {taken}")
            if result.shooter is not None:
                print(f"  {names[result.shooter]} shot the moon!")
            print("  totals: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(result.totals)))
    winners = listed(names[s] for s in game.winners)
    wins = verb(winners, "wins", "win") if len(game.winners) == 1 else "win"
    print(f"\nGame over after {counted(len(game.results), 'round')}. {winners} {wins}.")
    return 0
