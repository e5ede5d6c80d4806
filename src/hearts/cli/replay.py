"""`hearts replay RECORD.json`: a saved game shown in the terminal, round by round and trick by
trick, with every hand as it was dealt (the browser game exports records from its history).

    hearts replay hearts-game.json
    hearts replay hearts-game.json --round 3
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from typing import Any

from ..cards import Card
from ..words import counted, listed
from .terminal import cards_text, printable, seat_names, verb


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="show a saved game (a JSON record) trick by trick, every hand shown",
        description="Show a saved game round by round: every hand as dealt, the passes, each "
        "trick and who took it, and the scores. Reads the record hearts play --record or the "
        "browser game writes.",
    )
    parser.add_argument("record", help="the game's JSON record ('-' reads standard input)")
    parser.add_argument(
        "--round",
        type=int,
        default=None,
        metavar="N",
        help="show only round N, from 1 (default: every round)",
    )
    parser.set_defaults(func=run)


def _names(data: dict[str, Any], players: int) -> list[str]:
    """The seats' names from the record's "players" (the browser game and `hearts play` write
    them), else those `hearts play` gives: "You", "West"... (`seat_names`)."""
    names = seat_names(players)
    listed = data.get("players")
    if isinstance(listed, list):
        for entry in listed:
            if not isinstance(entry, dict):
                continue
            seat, name = entry.get("seat"), entry.get("name")
            if isinstance(seat, int) and 0 <= seat < players and isinstance(name, str):
                names[seat] = printable(name.strip()[:20]) or names[seat]
    return names


#: The largest record read, in bytes. The largest real record found is 0.86 MB: ten seats
#: playing to the highest target (`MAX_TARGET`, 1000; some 160 rounds), passing nine cards
#: left every round, as `hearts play` writes it (2.1 MB indented by four spaces). 8 MiB is some
#: ten times that. Reading a 43 MB record whole took 3.8 s and 516 MB before it was refused.
RECORD_LIMIT = 8 * 1024 * 1024


def run(args: argparse.Namespace) -> int:
    source = "Standard input" if args.record == "-" else printable(args.record)
    try:
        data = _read(args.record)
    except OSError as error:
        print(f"hearts replay: cannot read {source}: {error.strerror}.", file=sys.stderr)
        return 2
    if data is None:
        mb = RECORD_LIMIT // 2**20
        print(
            f"hearts replay: {source} is over {mb} MB, too large to be a game record (the "
            "longest game's is under 1 MB).",
            file=sys.stderr,
        )
        return 2
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        print(f"hearts replay: {source} is not a text file.", file=sys.stderr)
        return 2
    try:
        lines = _replay(text, source, args.round)
    except Refused as refusal:
        print(f"hearts replay: {printable(str(refusal))}", file=sys.stderr)
        return 2
    except Exception:  # whatever else a damaged record trips: a sentence, not a traceback
        print(f"hearts replay: {source} is damaged: it cannot be replayed.", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def _read(record: str) -> bytes | None:
    """The record's bytes, or None when it holds more than `RECORD_LIMIT`: a file's size is
    checked first, and at most one byte past the limit is read (a pipe, a growing file)."""
    if record == "-":
        if sys.stdin is None:  # started with standard input closed (`<&-`)
            raise OSError(errno.EBADF, "it is closed")
        data = sys.stdin.buffer.read(RECORD_LIMIT + 1)
    else:
        with open(record, "rb") as file:
            if os.fstat(file.fileno()).st_size > RECORD_LIMIT:
                return None
            data = file.read(RECORD_LIMIT + 1)
    return None if len(data) > RECORD_LIMIT else data


class Refused(Exception):
    """A record `hearts replay` will not show; the message says why, in one sentence."""


def _replay(text: str, source: str, only: int | None) -> list[str]:
    """The lines that show the record, once it is checked whole; `Refused` says why not."""
    from ..record import RecordError, from_record, undos

    try:
        data = json.loads(text.removeprefix("\ufeff"))  # a byte order mark is no damage
    except json.JSONDecodeError:
        raise Refused(f"{source} is not JSON.") from None
    except RecursionError:
        raise Refused(f"{source} nests too deep to be a game record.") from None
    except ValueError:  # Python refuses to read an integer of thousands of digits
        raise Refused(f"{source} holds a number too long to read.") from None
    try:
        game = from_record(data)  # checks every move before anything is shown
    except RecordError as error:
        raise Refused(str(error)) from None
    rounds = len(game.results) + (0 if game.is_over or game.phase == "round-over" else 1)
    if only is not None and not 1 <= only <= rounds:
        held = "only round 1" if rounds == 1 else f"rounds 1 to {rounds}"
        raise Refused(f"the game has {held}, not {only}.")
    fresh = from_record({**data, "actions": []})
    names = _names(data, game.rules.players)
    lines = _show(fresh, list(game.moves), names, only)
    taken = undos(data["actions"])
    if taken:  # the moves shown are those left standing
        lines.insert(0, f"{taken} take-back{'s' if taken != 1 else ''} during play (not shown).")
    return lines


def _show(game: Any, moves: list[Any], names: list[str], only: int | None) -> list[str]:
    from .. import events as ev
    from ..scoring import team_of

    width = max(len(name) for name in names)
    lines: list[str] = []
    current = 0
    events = list(game.start_events())
    for move in moves:
        events += game.apply(move)
    on_table: list[tuple[int, Card]] = []  # the cards of the trick being played
    tricks = 0  # the round's tricks finished
    chosen = ""  # a moon's choice, said after the moon
    for event in events:
        if isinstance(event, ev.Dealt):
            current = event.hand_number + 1
            tricks = 0
        if isinstance(event, ev.Played):
            on_table.append((event.seat, event.card))
        elif isinstance(event, ev.TrickWon):
            on_table.clear()
            tricks = event.number + 1
        if only is not None and (current != only or isinstance(event, ev.GameOver)):
            continue
        if isinstance(event, ev.Dealt):
            how = "keep" if event.pass_direction == "hold" else f"pass {event.pass_direction}"
            lines.append(f"\nRound {current} ({how})")
            if game.keyed:
                lines.append(f"  dealt from key {game.deal_key(event.hand_number)}")
            for seat, hand in enumerate(event.hands):
                if hand is not None:
                    lines.append(f"  {names[seat]:>{width}}: {cards_text(hand)}")
        elif isinstance(event, ev.Passed) and event.cards is not None:
            passes = verb(names[event.seat], "passes", "pass")
            if len(event.to) > 1:  # a scatter: each card to its own seat (sorted, they lied)
                each = zip(event.cards, event.to, strict=True)
                given = listed(f"{card.symbol} to {names[seat]}" for card, seat in each)
            else:
                given = f"{cards_text(event.cards)} to {names[event.to[0]]}"
            lines.append(f"  {names[event.seat]:>{width}} {passes} {given}")
        elif isinstance(event, ev.TrickWon):
            plays = ", ".join(f"{names[s]} {c.symbol}" for s, c in event.plays)
            if event.cancelled:  # two decks: the twins on a trick count for nothing
                plays += f" (cancelled: {cards_text(event.cancelled)})"
            if event.held_over:
                outcome = "held over"
            else:
                plural = "s" if event.points != 1 else ""
                points = f", {event.points} point{plural}" if event.points else ""
                # The points may be the held-over cards', not this trick's: say they came too.
                held = f", with the {counted(len(event.carried), 'card')} held over"
                outcome = f"{names[event.winner]}{held if event.carried else ''}{points}"
            lines.append(f"  trick {event.number + 1:>2}: {plays} -> {outcome}")
        elif isinstance(event, ev.KittyTaken):
            takes = verb(names[event.seat], "takes", "take")
            unit = "point" if abs(event.points) == 1 else "points"
            worth = f" ({event.points} {unit})" if event.points else ""
            cards = cards_text(event.cards)
            lines.append(f"  {names[event.seat]} {takes} the kitty: {cards}{worth}")
        elif isinstance(event, ev.MoonChosen):
            name = names[event.seat]
            own = verb(name, "their", "your")
            partners = len(team_of(game.rules, event.seat)) > 1  # the team shot it
            if event.choice == "add":  # said under the moon, which the round's score shows
                others = "the other team" if partners else "everyone else"
                chosen = f"  {name} chose to add the points to {others}"
            else:
                whose = f"{own} team's totals" if partners else f"{own} own total"
                chosen = f"  {name} chose to take the points off {whose}"
        elif isinstance(event, ev.RoundScored):
            result = event.result
            if result.shooter is not None:  # with partners, the team shot it
                team = listed(names[s] for s in team_of(game.rules, result.shooter))
                lines.append(f"  {team} shot the moon{' and the sun' if result.sun else ''}!")
                if chosen:
                    lines.append(chosen)
            chosen = ""
            scored = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(result.scores))
            lines.append(f"  scored: {scored}")
            totals = ", ".join(f"{names[s]} {t}" for s, t in enumerate(result.totals))
            lines.append(f"  totals: {totals}")
        elif isinstance(event, ev.GameOver):
            winners = listed(names[s] for s in event.winners)
            wins = "win" if len(event.winners) > 1 else verb(winners, "wins", "win")
            rounds = counted(len(game.results), "round")
            lines.append(f"\nGame over after {rounds}: {winners} {wins}.")
    if not game.is_over and only in (None, current):
        if on_table:
            plays = ", ".join(f"{names[s]} {c.symbol}" for s, c in on_table)
            lines.append(f"  trick {tricks + 1:>2}: {plays} (unfinished)")
        when = "after" if game.phase == "round-over" else "during"
        lines.append(f"\nThe game is unfinished: the record ends {when} round {current}.")
    return lines
