"""`hearts play`: a game in the terminal against computer players.

You are seat 0. Cards are typed like "QS", "10h" or "Q♠"; anything the rules refuse is
answered with the engine's reason and you try again. "help" lists the commands, "quit" ends.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cards import SUIT_SYMBOLS, parse_card

if TYPE_CHECKING:
    from ..ai import Player
    from ..game import Game
    from ..view import PlayerView

FOUR_NAMES = ("You", "West", "North", "East")
HELP = (
    'Type a card like "QS", "10H" or "2♣" (several, separated by spaces, for a pass). '
    '"hand" shows your cards again, "score" the totals, "quit" ends the game.'
)


class Quit(Exception):
    """The player asked to stop (or the input ended)."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against computer players",
        description="Play Hearts in the terminal against computer players. You are seat 0.",
    )
    parser.add_argument(
        "--level", default="medium", help="the computer players: easy, medium or hard"
    )
    parser.add_argument("--rules", default="standard", help="a preset such as omnibus")
    parser.add_argument("--players", type=int, help="seats at the table (3 to 10)")
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one house rule, like target_score=50 (repeatable)",
    )
    parser.add_argument("--seed", default=None, help="seed for the deal and the players")
    parser.set_defaults(func=run)


def seat_names(players: int) -> list[str]:
    if players == 4:
        return list(FOUR_NAMES)
    return ["You"] + [f"Player {s + 1}" for s in range(1, players)]


def format_hand(view: PlayerView, mark_legal: bool) -> str:
    """The hand grouped by suit, highest first; legal cards marked with a star."""
    lines = []
    legal = view.legal_mask if mark_legal else 0
    for suit in (3, 2, 1, 0):
        cards = sorted((c for c in view.hand if c.suit == suit), key=lambda c: -c.rank)
        if not cards:
            continue
        words = [c.symbol[:-1] + ("*" if legal >> c & 1 else "") for c in cards]
        lines.append(f"  {SUIT_SYMBOLS[suit]} " + " ".join(words))
    if mark_legal:
        lines.append("  (* marks the cards you may play)")
    return "\n".join(lines)


class TerminalGame:
    """One game, with the person's input and the output given as functions (for tests)."""

    def __init__(
        self,
        game: Game,
        bots: dict[int, Player],
        ask: Callable[[str], str],
        say: Callable[[str], None],
    ) -> None:
        self.game = game
        self.bots = bots
        self.ask = ask
        self.say = say
        self.names = seat_names(game.rules.players)

    def run(self) -> int:
        try:
            while True:
                phase = self.game.phase
                if phase == "passing":
                    self._passing()
                elif phase == "playing":
                    self._playing()
                elif phase == "moon-choice":
                    self._moon()
                elif phase == "round-over":
                    self._round_over()
                    self.game.next_round()
                else:
                    self._round_over()
                    self._game_over()
                    return 0
        except Quit:
            self.say("Game left unfinished.")
            return 0

    def _read(self, prompt: str) -> str:
        try:
            text = self.ask(prompt).strip()
        except EOFError:
            raise Quit from None
        word = text.lower()
        if word in ("quit", "exit", "q"):
            raise Quit
        return text

    def _passing(self) -> None:
        rnd = self.game.round
        view = rnd.view(0)
        if view.passed_mask is None:
            to = ", ".join(self.names[s] for s in view.pass_to)
            self.say(f"\nRound {rnd.hand_number + 1}: pass {view.cards_to_pass} cards to {to}.")
            self.say(format_hand(view, mark_legal=False))
            while True:
                text = self._read(f"Cards to pass ({view.cards_to_pass}): ")
                if self._command(text, view):
                    continue
                cards = text.replace(",", " ").split()
                reason = rnd.why_pass_illegal(0, cards)
                if reason is None:
                    self.game.give(0, cards)
                    break
                self.say(reason)
        for seat in rnd.waiting_to_pass():
            self.game.give(seat, self.bots[seat].choose_pass(rnd.view(seat)))
        received = self.game.round.view(0).received
        if received:
            self.say("You received: " + " ".join(c.symbol for c in received))

    def _playing(self) -> None:
        rnd = self.game.round
        if not rnd.tricks and not rnd.trick and rnd.cards_to_pass() == 0:
            self.say(f"\nRound {rnd.hand_number + 1}: no pass this round.")
        seat = rnd.turn
        tricks_before = len(rnd.tricks)
        points_before = list(rnd.points_taken)
        if seat == 0:
            self._human_play()
        else:
            card = self.bots[seat].choose_play(rnd.view(seat))
            self.game.play(card)
            self.say(f"{self.names[seat]} plays {card.symbol}")
        rnd = self.game.round
        if len(rnd.tricks) > tricks_before:
            trick = rnd.tricks[-1]
            if trick.held_over:
                self.say("Every card of the suit led cancelled: the cards wait for the next trick.")
            else:
                gained = rnd.points_taken[trick.winner] - points_before[trick.winner]
                unit = "point" if abs(gained) == 1 else "points"
                worth = f" ({gained} {unit})" if gained else ""
                self.say(f"{self.names[trick.winner]} takes the trick{worth}.")

    def _human_play(self) -> None:
        rnd = self.game.round
        view = rnd.view(0)
        if view.trick:
            table = ", ".join(f"{self.names[s]} {c.symbol}" for s, c in view.trick)
            self.say(f"\nOn the table: {table}")
        else:
            self.say("\nYour lead.")
        self.say(format_hand(view, mark_legal=True))
        while True:
            text = self._read("Your card: ")
            if self._command(text, view):
                continue
            reason = rnd.why_illegal(text, seat=0)
            if reason is None:
                self.game.play(text)
                self.say(f"You play {parse_card(text).symbol}")
                return
            self.say(reason)

    def _command(self, text: str, view: PlayerView) -> bool:
        word = text.lower()
        if not word:
            return True
        if word in ("help", "?"):
            self.say(HELP)
            return True
        if word == "hand":
            self.say(format_hand(view, mark_legal=view.phase == "playing"))
            return True
        if word == "score":
            self._totals()
            return True
        return False

    def _moon(self) -> None:
        shooter = self.game.moon_pending
        assert shooter is not None
        if shooter != 0:
            choice = self.bots[shooter].choose_moon(self.game.view(shooter))
            self.game.choose_moon(choice)
            return
        self.say("\nYou shot the moon! Add 26 to everyone else, or take 26 off your score?")
        while True:
            text = self._read("add or subtract: ").lower()
            if text in ("add", "subtract"):
                self.game.choose_moon(text)
                return
            self.say("Type add (26 to everyone else) or subtract (26 off your own score).")

    def _round_over(self) -> None:
        result = self.game.last_result
        assert result is not None
        taken = ", ".join(f"{self.names[s]} {p}" for s, p in enumerate(result.points_taken))
        self.say(f"\nRound {result.hand_number + 1} over. Points taken: {taken}.")
        if result.shooter is not None:
            who = self.names[result.shooter]
            self.say(f"{who} shot the moon{' and the sun' if result.sun else ''}!")
        self._totals()

    def _totals(self) -> None:
        totals = ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(self.game.scores))
        self.say(f"Score: {totals} (game to {self.game.rules.target_score}).")

    def _game_over(self) -> None:
        winners = self.game.winners
        if 0 in winners:
            others = [self.names[s] for s in winners if s != 0]
            tie = f" (shared with {', '.join(others)})" if others else ""
            self.say(f"\nGame over: you win{tie}!")
        else:
            self.say("\nGame over: " + " and ".join(self.names[s] for s in winners) + " wins.")


def run(args: argparse.Namespace) -> int:
    from ..ai import make_player
    from ..game import Game
    from ..rules import Rules

    try:
        changes: dict[str, Any] = {}
        for item in args.rule:
            name, equals, text = item.partition("=")
            if not equals:
                raise ValueError(f"{item!r}: write a rule change as NAME=VALUE.")
            try:
                changes[name] = json.loads(text)
            except json.JSONDecodeError:
                changes[name] = text
        if args.players is not None:
            changes["players"] = args.players
        rules = Rules.preset(args.rules, **changes)
        seed: int | str = args.seed if args.seed is not None else _fresh_seed()
        bots = {s: make_player(args.level, seed=f"{seed}:{s}") for s in range(1, rules.players)}
    except ValueError as error:
        print(f"hearts play: {error}", file=sys.stderr)
        return 2
    game = Game(rules, seed)
    print(f"Hearts against {rules.players - 1} {args.level} players. Seed {seed}. {HELP}")
    return TerminalGame(game, bots, input, print).run()


def _fresh_seed() -> str:
    import secrets

    return secrets.token_hex(4)
