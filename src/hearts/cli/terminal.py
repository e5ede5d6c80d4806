"""What the terminal commands share: the seats' names and the order of a hand (`hearts play`,
`hearts demo` and `hearts replay` alike), text from outside (a record, a file name) made safe
to print, and a file to write checked before the work that fills it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..cards import CLUBS, DIAMONDS, HEARTS, SPADES, Card

#: Seat 0 is the person's, as in the browser game; round a table of four, the compass.
FOUR_NAMES = ("You", "West", "North", "East")
#: A hand's suits in order, as the browser game shows them: black and red alternate.
SUIT_ORDER = (CLUBS, DIAMONDS, SPADES, HEARTS)


def seat_names(players: int) -> list[str]:
    """What the terminal calls each seat: "You" for seat 0, then the compass at four, else
    "Player 2" and on (counted from 1, "You" being the first).

    >>> seat_names(4), seat_names(3)
    (['You', 'West', 'North', 'East'], ['You', 'Player 2', 'Player 3'])
    """
    if players == len(FOUR_NAMES):
        return list(FOUR_NAMES)
    return ["You"] + [f"Player {seat + 1}" for seat in range(1, players)]


def where(offset: int, players: int) -> str:
    """Where the seat `offset` places clockwise from the person sits, as the browser game
    says it in a sentence ("on your left", "2nd on your right", "across from you").

    >>> where(1, 5), where(3, 5), where(2, 4)
    ('on your left', '2nd on your right', 'across from you')
    >>> where(2, 6), where(4, 6)
    ('2nd on your left', '2nd on your right')
    """
    turn = offset * 2 / players  # in half turns: 1 is straight across
    if turn == 1:
        return "across from you"
    if turn < 1:
        return "on your left" if offset == 1 else f"{_ordinal(offset)} on your left"
    back = players - offset
    return "on your right" if back == 1 else f"{_ordinal(back)} on your right"


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


def verb(name: str, one: str, you: str) -> str:
    """The verb for a seat's name: "You pass", "West passes"."""
    return you if name == "You" else one


def in_hand_order(cards: Iterable[Card]) -> list[Card]:
    """Cards as a hand is shown: by suit in `SUIT_ORDER`, low to high, a card's two copies
    (two decks) side by side.

    >>> from hearts import parse_card
    >>> " ".join(c.symbol for c in in_hand_order(map(parse_card, "QS 2H AC 3D 10S".split())))
    'A♣ 3♦ 10♠ Q♠ 2♥'
    """
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), c.rank, c))


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in hand order, as their symbols: "A♣ 3♦ Q♠"."""
    return " ".join(c.symbol for c in in_hand_order(cards))


def check_writable(path: Path, what: str) -> None:
    """`ValueError` with a sentence unless `path` can be written (found out before the work,
    not after it); a file this made to find out is removed again."""
    if not path.parent.is_dir():
        raise ValueError(f"There is no folder {str(path.parent)!r} to write {str(path)!r} in.")
    if path.is_dir():
        raise ValueError(f"{str(path)!r} is a folder: give a file name to write in it.")
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        why = error.strerror or "the system refused"
        raise ValueError(f"Cannot write {what} to {str(path)!r}: {why}.") from None
    if not existed:
        path.unlink(missing_ok=True)


def printable(text: str) -> str:
    r"""`text` with every character a terminal would act on or hide written as its escape:
    control codes (an escape sequence clears the screen, a newline fakes a line), format
    characters (a right-to-left override turns text round) and lone surrogates.

    >>> printable("Ann\x1b[2J\nBea\u202e")
    'Ann\\x1b[2J\\nBea\\u202e'
    >>> printable("Zoë ♠")
    'Zoë ♠'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escaped(c) for c in text)


def _escaped(char: str) -> str:
    return char.encode("unicode_escape").decode("ascii")
