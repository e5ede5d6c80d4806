"""`hearts play`: a game in the terminal against computer players.

You are seat 0. Cards are typed like "QS", "10h", "TH" or "Q♠", and an ace as A or 1 ("1H"
is the ace of hearts), in full-width forms too ("２Ｃ"); anything the rules refuse is
answered with the engine's reason and you try again. "hint" asks the coach (the hard
player, as the browser game's Hint button does), "undo" takes back your latest pass or card
of the round (as the browser game's Undo does), "help" lists the commands, "quit" leaves the
game once you say yes.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import events as ev
from ..cards import SUIT_SYMBOLS, Card, parse_card
from ..moves import Pass, Play
from ..record import Action, is_text, move_to_action, take_back_point, undo_action
from ..scoring import MOON_CHOICES, MoonChoice, PlayOn, RoundResult, play_on, team_of
from ..words import counted, listed
from .parser import same_size, seed_text, typed
from .rule_options import (
    PRESETS_HELP,
    PRESETS_LIST,
    SEATS_HELP,
    add_rule_option,
    rule_changes,
    rules_line,
)
from .terminal import (
    SUIT_ORDER,
    cards_text,
    check_writable,
    in_hand_order,
    seat_names,
    where,
)

if TYPE_CHECKING:
    from ..ai import Player
    from ..driver import Seat
    from ..game import Game
    from ..rules import Rules
    from ..view import PlayerView

COMMANDS_HELP = (
    '"hand" shows your cards again, "score" the totals (and the points taken so far in the '
    'round), "hint" asks the coach for a card, '
    '"undo" takes back your latest pass or card of this round, "help" this help, and "quit" '
    "leaves the game (you are asked first)."
)
#: Asked at "quit": the game is lost unless --record keeps it, so leaving is said twice.
LEAVE = "Leave this game unfinished? (y/n): "
#: Words that ended the game at once, and now say how to leave instead.
NEAR_QUIT = {
    "q": 'A queen needs its suit too, like QS or QH. To leave the game, type "quit".',
    "exit": 'To leave the game, type "quit".',
}
NOTHING_TO_TAKE_BACK = (
    "You have not passed or played a card in this round yet, so there is nothing to take back."
)
TRICKS_PLAYED = "Every trick of this round is played, so its cards can no longer be taken back."
NO_HINT_AT_MOON = "The coach hints passes and cards; how your moon scores is yours to choose."
HELP = (
    'Type a card like "QS", "10H" (or "TH") or "2♣", an ace as "AH" or "1H" (several cards, '
    f"separated by spaces, for a pass). {COMMANDS_HELP}"
)


class TakeBack(Exception):
    """The player asked to take back their move that left `to` moves standing."""

    def __init__(self, to: int) -> None:
        super().__init__(to)
        self.to = to


class Quit(Exception):
    """The player asked to stop, or the input ended (the message says which)."""


#: The longest line of input taken: a pass is a few words. `input()` holds a whole line, so
#: input with no line end (`< /dev/zero`) grew without bound, past Ctrl-C's reach.
LINE_LIMIT = 1000
TOO_LONG = f"That line is over {LINE_LIMIT:,} characters, too long to be a move; try again."
#: Input that runs this far with no line end ends the game. A line over `LINE_LIMIT` is
#: refused and the prompt asked again, as a pasted paragraph deserves; but a hundred times
#: that with no line end is no script of moves, and reading it a piece at a time went on for
#: as long as the text did (`tr '\0' x < /dev/zero`: until Ctrl-C).
ENDLESS = 100 * LINE_LIMIT
#: A NUL byte ends the game at once: no text a person types or a script writes holds one,
#: while `/dev/zero` is nothing else and a binary file (a program, an image, an archive) has
#: some early on. Answering such input a line at a time went on for as long as it did, and
#: forever from `/dev/zero` (no line end) or `/dev/urandom` (a refusal a line).
NOT_TEXT = "The input is not text (it holds a NUL byte)"
NO_LINE_END = f"The input ran past {ENDLESS:,} characters with no line end"


class Unreadable(EOFError):
    """Input that is not lines of text (the message says how): nothing more can be read from
    it as moves, so it ends the game as the end of the input does."""


def _line_editing() -> None:
    """At a terminal, the arrow keys move along the line and up brings back earlier lines
    (the standard library's readline, where the system has it): without it, a typo meant
    typing the whole pass again, and an arrow key typed "^[[D" into the line."""
    with contextlib.suppress(ImportError):  # a Python built without it (Windows)
        import readline  # noqa: F401 - importing it is what turns line editing on


def read_line(prompt: str) -> str:
    """`input()`, but from a file or a pipe no more than `LINE_LIMIT + 1` characters of a line
    are kept: the rest of a longer one is read and dropped, and `TerminalGame.read` refuses
    it. EOFError at the end of the input, or when there is none (`hearts play <&-`), and
    `Unreadable` at a NUL byte or past `ENDLESS` characters with no line end."""
    if sys.stdin is None:
        raise EOFError
    if sys.stdin.isatty():
        _line_editing()
        return input(prompt)
    print(prompt, end="", flush=True)
    line = sys.stdin.readline(LINE_LIMIT + 1)
    if not line:
        raise EOFError
    piece, length = line, len(line)
    while True:  # a long line's rest, a piece at a time
        if "\0" in piece:
            raise Unreadable(NOT_TEXT)
        if not piece or piece.endswith("\n"):
            return line.removesuffix("\n")
        if length > ENDLESS:
            raise Unreadable(NO_LINE_END)
        piece = sys.stdin.readline(LINE_LIMIT + 1)
        length += len(piece)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against computer players",
        description="Play Hearts in the terminal against computer players. You are seat 0.",
        epilog=PRESETS_LIST,
    )
    parser.add_argument(
        "--level",
        type=typed,
        default="medium",
        help="the computer players: random, easy, medium, hard, expert or moon (medium); hard "
        'and expert take a budget too, as in hearts sim: "hard:2000" (playouts a decision) or '
        '"hard:0.1s" (seconds)',
        metavar="LEVEL",
    )
    parser.add_argument(
        "--rules", type=typed, default="standard", metavar="PRESET", help=PRESETS_HELP
    )
    parser.add_argument("--players", type=int, help=SEATS_HELP)
    add_rule_option(parser)
    parser.add_argument(
        "--seed",
        type=seed_text,
        default=None,
        help="seed for the deal and the players (default: a new one each game)",
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="write the game's record here when it ends or you quit (hearts replay reads it;"
        " default: none written)",
    )
    parser.set_defaults(func=run)


def format_hand(view: PlayerView, mark_legal: bool) -> str:
    """The hand a suit a line, in hand order (`in_hand_order`); legal cards marked with a star."""
    lines = []
    legal = view.legal_mask if mark_legal else 0
    hand = in_hand_order(view.hand)
    for suit in SUIT_ORDER:
        cards = [c for c in hand if c.suit == suit]
        if not cards:
            continue
        words = [c.symbol[:-1] + ("*" if legal >> c & 1 else "") for c in cards]
        lines.append(f"  {SUIT_SYMBOLS[suit]} " + " ".join(words))
    if mark_legal:
        lines.append("  (* marks the cards you may play)")
    return "\n".join(lines)


class TerminalGame:
    """One game, with the person's input and the output given as functions (for tests).

    The one driver plays it: the computer players are seats of their own, and the person is
    the seat below, whose decisions are read from the input."""

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
        self.me = next(s for s in range(game.rules.players) if s not in bots)
        self.kitty_note = ""  # the round's kitty, said under the round's heading
        self.moon_note = ""  # how another seat's moon was scored, said after the moon itself
        self.round_base = game.copy()  # the game as the round was dealt, to take back to
        # The record's actions up to the latest take-back, and the moves standing then.
        self.saved: list[Action] = []
        self.standing = 0

    def _say_kitty(self) -> None:
        if self.kitty_note:
            self.say(self.kitty_note)
            self.kitty_note = ""

    def run(self) -> int:
        from ..driver import play_out

        rules = self.game.rules
        team = [s for s in team_of(rules, self.me) if s != self.me]
        if team:
            self.say(
                f"You and {listed(self.names[s] for s in team)} are partners: each of you "
                "is scored your team's points."
            )
        seats: dict[int, Seat] = {**self.bots, self.me: _Person(self)}
        events = self.game.start_events()
        while True:
            try:
                # Each event shown as it happens: the moves are made while this loop runs.
                for event in itertools.chain(events, play_out(self.game, seats)):
                    self._show(event)
                break
            except TakeBack as back:
                self._take_back(back.to)
                events = []
            except Quit as quit:
                self.say(f"\n{quit}")
                return 0
        self._game_over()
        return 0

    def actions(self) -> list[Action]:
        """The game's record's actions: its moves, with each take-back where it was made
        (`hearts.record.undo_action`), as the browser game keeps them."""
        return self.saved + [move_to_action(m) for m in self.game.moves[self.standing :]]

    def _take_back(self, to: int) -> None:
        """The game as it stood before the move that leaves `to` moves standing: the person's
        pass or card, and the computer players' moves after it (all of this round)."""
        game, base = self.game, self.round_base
        taken = game.moves[to:]
        self.saved = [*self.actions(), undo_action(to)]
        self.standing = to
        back = base.copy()
        for move in game.moves[len(base.moves) : to]:
            back.apply(move)
        self.game = back
        cards = sum(1 for move in taken[1:] if isinstance(move, Play))
        after = {0: "", 1: " and the card played after it"}.get(
            cards, f" and the {cards} cards played after it"
        )
        first = taken[0]
        what = first.card.symbol if isinstance(first, Play) else "pass"
        self.say(f"\nYou take back your {what}{after}.")

    def hint(self, view: PlayerView) -> str:
        """The coach's hint, as the browser game gives it: what the hard player would do in
        the person's place, and why. Seeded by the game and the decision (a pass by its
        round, however many passed before it was asked), so the same every time."""
        from ..ai.hint import hint as coach

        if self.game.phase == "moon-choice":
            return NO_HINT_AT_MOON
        moves = len(self.game.moves)
        decision = len(self.round_base.moves) if self.game.phase == "passing" else moves
        try:
            advice = coach(view, self.names, seed=f"{self.game.seed}:{decision}:{self.me}")
        except ValueError as error:  # nothing to decide: never at a prompt, but said if so
            return str(error)
        return f"Hint: {advice.reason}"

    def _show(self, event: ev.Event) -> None:
        names = self.names
        if isinstance(event, ev.Dealt):
            self.round_base = self.game.copy()  # the round just dealt, nothing played
            self.kitty_note = ""
            if event.kitty_size:
                one = event.kitty_size == 1
                cards = "1 card lies" if one else f"{event.kitty_size} cards lie"
                them = "it" if one else "them"
                self.kitty_note = (
                    f"{cards} face down: the first to take a point card takes {them} too."
                )
            if self.game.rules.cards_to_pass(event.pass_direction) == 0:
                self.say(f"\nRound {event.hand_number + 1}: a keep round, so nobody passes.")
                self._say_kitty()  # else under the pass's heading
        elif isinstance(event, ev.KittyTaken):
            who = "You take" if event.seat == self.me else f"{names[event.seat]} takes"
            unit = "point" if abs(event.points) == 1 else "points"
            worth = f" ({event.points} {unit})" if event.points else ""
            self.say(f"{who} the kitty: {cards_text(event.cards)}{worth}.")
        elif isinstance(event, ev.MoonChosen) and event.seat != self.me:
            who = names[event.seat]
            team = team_of(self.game.rules, event.seat)
            if len(team) == 1:
                others, own = "everyone else", "their own total"
            else:  # partners: the team shot it, and its choice moves both partners' totals
                others = "the other team" if self.me in team else "your team"
                own = "their team's totals"
            self.moon_note = (
                f"{who} adds the points to {others}."
                if event.choice == "add"
                else f"{who} takes the points off {own}."
            )
        elif isinstance(event, ev.Received) and event.seat == self.me and event.cards:
            if len(set(event.givers)) > 1:  # a scatter: who gave which card (the Q♠ above all)
                each = zip(event.cards, event.givers, strict=True)
                self.say("You received: " + listed(f"{c.symbol} from {names[s]}" for c, s in each))
            else:
                self.say("You received: " + cards_text(event.cards))
        elif isinstance(event, ev.Played):
            who = "You play" if event.seat == self.me else f"{names[event.seat]} plays"
            self.say(f"{who} {event.card.symbol}")
        elif isinstance(event, ev.TrickWon):
            if event.cancelled:  # two decks: a card's two copies on one trick count for nothing
                faces = dict.fromkeys(c.symbol for c in in_hand_order(event.cancelled))
                twins = listed(f"the two {face}" for face in faces)
                self.say(f"{twins[0].upper()}{twins[1:]} cancel each other.")
            if event.held_over:
                self.say("Every card of the suit led cancelled: the cards wait for the next trick.")
            else:
                unit = "point" if abs(event.points) == 1 else "points"
                worth = f" ({event.points} {unit})" if event.points else ""
                who = "You take" if event.winner == self.me else f"{names[event.winner]} takes"
                held = f" and the {counted(len(event.carried), 'card')} held over"
                self.say(f"{who} the trick{held if event.carried else ''}{worth}.")
        elif isinstance(event, ev.RoundScored):
            self._round_over(event.result)

    def read(self, prompt: str) -> str:
        """A line typed at `prompt`. "quit" leaves the game once the person says yes to
        `LEAVE`: a lone "q" (half of "QS") or "exit" ended it at once, with no word."""
        while True:
            text = self._line(prompt)
            word = text.lower()
            if word == "quit":
                self._leave()
            elif word in NEAR_QUIT:
                self.say(NEAR_QUIT[word])
            else:
                return text

    def _leave(self) -> None:
        """Ask whether to leave; `Quit` on yes, and back to the prompt on no."""
        while True:
            word = self._line(LEAVE).lower()
            if word in ("y", "yes", "quit"):
                raise Quit("Game left unfinished.")
            if word in ("n", "no"):
                self.say("Then the game goes on.")
                return
            self.say('Type "y" to leave the game, or "n" to play on.')

    def _line(self, prompt: str) -> str:
        while True:
            try:
                text = self.ask(prompt).strip()
            except Unreadable as error:
                raise Quit(f"{error}: game left unfinished.") from None
            except EOFError:
                raise Quit("The input ended: game left unfinished.") from None
            if len(text) > LINE_LIMIT:
                self.say(TOO_LONG)
            elif text.isascii():
                return text
            elif is_text(text):
                return typed(text).strip()  # "２Ｃ" from a CJK keyboard is 2C
            else:  # bytes that are not UTF-8 arrive as lone surrogates: never echoed back
                self.say("That is not text this game can read; type a card like QS.")

    def command(self, text: str, view: PlayerView, help_text: str = HELP) -> bool:
        """Answer a command word ("help", "hand", "score", "hint", "undo"); False for anything
        else. "undo" raises `TakeBack` when there is a move to take back."""
        word = text.lower()
        if not word:
            return True
        if word in ("help", "?"):
            self.say(help_text)
            return True
        if word == "hand":
            if view.hand:
                self.say(format_hand(view, mark_legal=view.phase == "playing"))
            else:
                self.say("You hold no cards: every trick of the round is played.")
            return True
        if word == "score":
            self._totals()
            if view.phase == "playing" and view.tricks:  # what a moon is watched by
                taken = ", ".join(f"{self.names[s]} {p}" for s, p in enumerate(view.points_taken))
                self.say(f"Points taken this round so far: {taken}.")
            return True
        if word == "hint":
            self.say(self.hint(view))
            return True
        if word == "undo":
            to = take_back_point(self.game, self.me)
            if to is not None:
                raise TakeBack(to)
            over = self.game.phase == "moon-choice"  # every trick played, none to take back
            self.say(TRICKS_PLAYED if over else NOTHING_TO_TAKE_BACK)
            return True
        return False

    def _round_over(self, result: RoundResult) -> None:
        names = self.names
        taken = ", ".join(f"{names[s]} {p}" for s, p in enumerate(result.points_taken))
        self.say(f"\nRound {result.hand_number + 1} over. Points taken: {taken}.")
        if result.shooter is not None:
            shooters = team_of(self.game.rules, result.shooter)
            who = "You" if self.me in shooters else listed(names[s] for s in shooters)
            if self.me in shooters and len(shooters) > 1:
                who = "You and " + listed(names[s] for s in shooters if s != self.me)
            self.say(f"{who} shot the moon{' and the sun' if result.sun else ''}!")
            if self.moon_note:
                self.say(self.moon_note)
        self.moon_note = ""
        # What each seat scored, where it differs from the points taken (a moon, partners).
        if result.scores != result.points_taken:
            scored = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(result.scores))
            self.say(f"Scored this round: {scored}.")
        target = self.game.rules.target_score
        for seat in result.reset:
            who = "You" if seat == self.me else names[seat]
            self.say(f"{who} landed on {target} exactly and dropped back to {result.totals[seat]}.")
        self._totals()
        going_on = play_on(self.game.rules, result.totals)
        if going_on is not None:
            self.say(self._play_on_words(going_on, result.totals))

    def _play_on_words(self, going_on: PlayOn, totals: tuple[int, ...]) -> str:
        """Why the game goes on past its target: "Player 5 has reached the target of 10, but
        ... are tied for the lowest total (0)"."""
        rules = self.game.rules
        reached = self._who(going_on.reached)
        has = "has" if reached != "You" and len(going_on.reached) == 1 else "have"
        tied = self._who(going_on.tied)
        one = "one team" if rules.partnership else "one player"
        return (
            f"{reached} {has} reached the target of {rules.target_score}, but {tied} are tied "
            f"for the lowest total ({totals[going_on.tied[0]]}). With ties played on, the "
            f"game goes on until {one} alone has the lowest."
        )

    def _who(self, seats: tuple[int, ...]) -> str:
        """Seats by name, the person first: "You and Player 2"."""
        return listed(self.names[s] for s in sorted(seats, key=lambda s: s != self.me))

    def _totals(self) -> None:
        totals = ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(self.game.scores))
        self.say(f"Score: {totals} (game to {self.game.rules.target_score}).")

    def _game_over(self) -> None:
        winners = self.game.winners
        if self.me in winners:
            others = [self.names[s] for s in winners if s != self.me]
            tie = f" (shared with {', '.join(others)})" if others else ""
            self.say(f"\nGame over: you win{tie}!")
        else:
            verb = "wins" if len(winners) == 1 else "win"
            self.say(f"\nGame over: {listed(self.names[s] for s in winners)} {verb}.")


class _Person:
    """The person's seat: each decision is typed, and refused until the rules allow it."""

    def __init__(self, terminal: TerminalGame) -> None:
        self.terminal = terminal

    def choose_pass(self, view: PlayerView) -> list[Card]:
        term = self.terminal
        names = [term.names[s] for s in view.pass_to]
        if len(names) > 1:  # a scatter: the order typed says who gets which card
            first, *rest = names
            to = f"one to each player: the first you type goes to {first}, then {listed(rest)}"
        else:  # where they sit too: "Player 2" says nothing of it
            players = view.rules.players
            to = f"to {names[0]}, {where((view.pass_to[0] - view.seat) % players, players)}"
        term.say(
            f"\nRound {view.hand_number + 1}: pass {counted(view.cards_to_pass, 'card')} {to}."
        )
        term._say_kitty()
        term.say(format_hand(view, mark_legal=False))
        while True:
            text = term.read(f"Cards to pass ({view.cards_to_pass}): ")
            if term.command(text, view):
                continue
            words = text.replace(",", " ").split()
            try:
                move = Pass(view.seat, words)
            except ValueError as error:
                term.say(str(error))
                continue
            reason = term.game.why_not(move)
            if reason is None:
                return list(move.cards)
            if len(words) != view.cards_to_pass and reason.startswith("Pass exactly"):
                reason = f"{reason.removesuffix('.')}: you gave {len(words)}."  # how many
            term.say(reason)

    def choose_play(self, view: PlayerView) -> Card:
        term = self.terminal
        if view.trick:
            table = ", ".join(f"{term.names[s]} {c.symbol}" for s, c in view.trick)
            term.say(f"\nOn the table: {table}")
        else:
            term.say("\nYour lead.")
        term.say(format_hand(view, mark_legal=True))
        while True:
            text = term.read("Your card: ")
            if term.command(text, view):
                continue
            if len(text.replace(",", " ").split()) > 1:
                term.say("Play one card: type just that one, like QS.")
                continue
            try:
                move = Play(view.seat, text)
            except ValueError as error:
                term.say(str(error))
                continue
            reason = term.game.why_not(move)
            if reason is None:
                return move.card
            term.say(reason)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        term = self.terminal
        game = term.game
        stake = game.moon_stake or view.rules.round_points
        team = team_of(view.rules, view.seat)
        if len(team) > 1:  # partners: the team shot it, and the partner is not "everyone else"
            question = f"Your team shot the moon! Add {stake} to the other team's score, or "
            question += f"take {stake} off your team's?"
            how = f"Type add ({stake} to the other team) or subtract ({stake} off your team)"
        else:
            question = f"You shot the moon! Add {stake} to everyone else, or take {stake} off "
            question += "your score?"
            how = f"Type add ({stake} to everyone else) or subtract ({stake} off your score)"
        term.say(f"\n{question}")
        scores = game.moon_scores()
        if scores is not None:  # the bonus card counts either way: the round's scores as they fall
            plain = {
                "add": tuple(0 if s in team else stake for s in range(view.rules.players)),
                "subtract": tuple(-stake if s in team else 0 for s in range(view.rules.players)),
            }
            if scores != plain:
                either = "; ".join(
                    f"{choice}: "
                    + ", ".join(f"{term.names[s]} {p:+d}" for s, p in enumerate(scores[choice]))
                    for choice in MOON_CHOICES
                )
                bonus = view.rules.bonus_card
                card = f" (the {parse_card(bonus).symbol} counts too)" if bonus else ""
                term.say(f"This round either way{card}: {either}.")
        help_text = f'{how}, or just "a" or "s". {COMMANDS_HELP}'
        while True:
            text = term.read("add or subtract: ")
            if term.command(text, view, help_text):
                continue
            for choice in MOON_CHOICES:
                if choice.startswith(text.lower()):  # "a", "sub"
                    return choice
            term.say(f"{how}.")


def run(args: argparse.Namespace) -> int:
    from ..game import Game
    from ..rules import Rules
    from ..sim import PlayerSpec, as_medium_note

    try:
        changes = rule_changes(args.rule)
        if args.players is not None:
            same_size(f"--players {args.players}", args.players, changes)
            changes["players"] = args.players
        rules = Rules.preset(args.rules, **changes)
        seed: int | str = args.seed if args.seed is not None else _fresh_seed()
        spec = PlayerSpec.parse(args.level)  # a level, with a budget as `hearts sim` takes
        bots = {s: spec.make(f"{seed}:{s}") for s in range(1, rules.players)}
        if args.record is not None:
            if not args.record.strip():
                raise ValueError("Give --record a file to write.")
            check_writable(Path(args.record), "the record")  # now, not after the game
    except ValueError as error:
        print(f"hearts play: {error}", file=sys.stderr)
        return 2
    game = Game(rules, seed)
    print(f"{_table_line(rules, spec.name)} Seed {seed}. {HELP}")
    note = as_medium_note([spec.level], rules)
    if note is not None:
        print(note)
    print(rules_line(rules))
    if isinstance(sys.stdin, io.TextIOWrapper):
        # Bytes that are not UTF-8 read as lone surrogates, which `TerminalGame.read` refuses
        # in a sentence, in every locale: a locale's strict decoding (en_US.UTF-8, unlike
        # C.UTF-8) raised UnicodeDecodeError at such input, a traceback.
        sys.stdin.reconfigure(errors="surrogateescape")
    terminal = TerminalGame(game, bots, read_line, print)
    try:
        return terminal.run()
    except KeyboardInterrupt:
        # Ctrl-C stops at a prompt, with the cursor after it ("Your card: ^C"): the record's
        # line starts a line of its own (`hearts.cli.main` says "Stopped." on one too).
        if args.record is not None:
            print()
        raise
    finally:  # at the end, at "quit", and at Ctrl-C alike
        if args.record is not None:
            _write_record(terminal, Path(args.record))


def _table_line(rules: Rules, level: str) -> str:
    """Who plays: "Hearts against 3 medium players.", or with partners, the partner first
    ("against 3" counted the partner among the opponents)."""
    names = seat_names(rules.players)
    partners = [s for s in team_of(rules, 0) if s != 0]
    if not partners:
        return f"Hearts against {rules.players - 1} {level} players."
    others = rules.players - 1 - len(partners)
    partner = listed(names[s] for s in partners)
    return (
        f"Hearts with {partner} ({'an' if level[0] in 'aeiou' else 'a'} {level} player) as "
        f"your partner, against {others} {level} players."
    )


def _write_record(terminal: TerminalGame, path: Path) -> None:
    import json

    from ..record import to_record

    # The names the game used, which `hearts replay` shows (the browser game writes them too),
    # and the take-backs among the moves, as the browser game keeps them.
    game = terminal.game
    names = [{"seat": s, "name": name} for s, name in enumerate(terminal.names)]
    record = {**to_record(game, terminal.actions()), "players": names}
    try:
        path.write_text(json.dumps(record) + "\n", "utf-8")
    except OSError as error:
        why = error.strerror or "the system refused"
        print(f"hearts play: cannot write the record to {str(path)!r}: {why}.", file=sys.stderr)
        return
    print(f"The game's record is in {path}: hearts replay {path}")


def _fresh_seed() -> str:
    import secrets

    return secrets.token_hex(4)
