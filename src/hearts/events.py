"""Events: what happened because of a move, and what one seat may see of it.

`Game.apply` returns the events of a move with everything filled in (a referee's record);
`for_seat` gives the part one seat may see: a deal shows a seat only its own hand, a pass
shows its cards only to the seat that gave them, and the cards a seat receives only to
that seat. Everything else happens face up at the table.

>>> from hearts import Game, Pass, Rules
>>> game = Game(Rules(), seed=2)
>>> events = []
>>> for seat in range(4):
...     events += game.apply(Pass(seat, game.round.hand(seat)[:3]))
>>> [type(e).__name__ for e in for_seat(events, 1)]
['Passed', 'Passed', 'Passed', 'Passed', 'Received', 'PlayStarted']
>>> [e.cards is None for e in for_seat(events, 1) if isinstance(e, Passed)]
[True, False, True, True]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

from .cards import Card
from .rules import PassDirection
from .scoring import MoonChoice, RoundResult


@dataclass(frozen=True, slots=True)
class Dealt:
    """A round was dealt. `hands` holds each seat's cards; a seat sees only its own (the
    others are None). The kitty, if any, stays face down."""

    hand_number: int
    dealer: int
    pass_direction: PassDirection
    hands: tuple[tuple[Card, ...] | None, ...]
    kitty_size: int = 0


@dataclass(frozen=True, slots=True)
class Passed:
    """A seat passed; `cards` only for the seat that gave them (None for the others): for a
    scatter in the order given, each to the seat at the same place in `to`; else lowest
    first."""

    seat: int
    to: tuple[int, ...]
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class Received:
    """The passes changed hands: `seat` received `cards` (seen by that seat alone), each from
    the seat at the same place in `givers`."""

    seat: int
    cards: tuple[Card, ...]
    givers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayStarted:
    """The pass is over (or there was none): `leader` leads the first trick."""

    leader: int


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class HeartsBroken:
    """A heart (or, by house rule, the Q♠) was played for the first time this round."""


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A trick ended. `plays` in playing order; `cancelled` the cards that cancelled (two
    decks); `held_over` when every card of the suit led cancelled, so nobody took it and its
    cards wait for the next winner (who takes them as `carried`)."""

    number: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int
    points: int
    """Points the winner took with this trick (carried cards and bonus card included)."""
    points_taken: tuple[int, ...] = ()
    """Each seat's points so far this round, after this trick (and any kitty it won)."""
    cancelled: tuple[Card, ...] = ()
    carried: tuple[Card, ...] = ()
    held_over: bool = False


@dataclass(frozen=True, slots=True)
class KittyTaken:
    """The first winner of a point card took the kitty; now everyone may see it."""

    seat: int
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class MoonAwaitingChoice:
    """`seat` shot the moon and must choose how it scores ("the shooter chooses")."""

    seat: int


@dataclass(frozen=True, slots=True)
class MoonChosen:
    seat: int
    choice: MoonChoice


@dataclass(frozen=True, slots=True)
class RoundScored:
    result: RoundResult


@dataclass(frozen=True, slots=True)
class GameOver:
    winners: tuple[int, ...]
    totals: tuple[int, ...]


Event: TypeAlias = (
    Dealt
    | Passed
    | Received
    | PlayStarted
    | Played
    | HeartsBroken
    | TrickWon
    | KittyTaken
    | MoonAwaitingChoice
    | MoonChosen
    | RoundScored
    | GameOver
)


def for_seat(events: Iterable[Event], seat: int) -> list[Event]:
    """The events as `seat` may see them (hidden cards removed, others' receipts left out).

    >>> for_seat([Received(2, ()), Played(2, Card(0))], 1)
    [Played(seat=2, card=Card('2C'))]
    """
    seen: list[Event] = []
    for event in events:
        if isinstance(event, Dealt):
            hands = tuple(h if s == seat else None for s, h in enumerate(event.hands))
            seen.append(dataclasses.replace(event, hands=hands))
        elif isinstance(event, Passed):
            seen.append(event if event.seat == seat else dataclasses.replace(event, cards=None))
        elif isinstance(event, Received):
            if event.seat == seat:
                seen.append(event)
        else:
            seen.append(event)
    return seen


def to_dict(event: Event) -> dict[str, Any]:
    """Plain JSON-ready data: `type` is the event's name in kebab case, cards are strings.

    >>> to_dict(Played(1, Card(49)))
    {'type': 'played', 'seat': 1, 'card': 'QS'}
    """
    data: dict[str, Any] = {"type": _KINDS[type(event)]}
    for field in dataclasses.fields(event):
        data[field.name] = _plain(getattr(event, field.name))
    return data


def _plain(value: object) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, RoundResult):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


_KINDS: dict[type, str] = {
    Dealt: "dealt",
    Passed: "passed",
    Received: "received",
    PlayStarted: "play-started",
    Played: "played",
    HeartsBroken: "hearts-broken",
    TrickWon: "trick-won",
    KittyTaken: "kitty-taken",
    MoonAwaitingChoice: "moon-awaiting-choice",
    MoonChosen: "moon-chosen",
    RoundScored: "round-scored",
    GameOver: "game-over",
}
