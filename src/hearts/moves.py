"""Moves: what a seat does, as small frozen values.

A move names its seat and what it does; `Game.why_not(move)` says whether the rules allow
it now, and `Game.apply(move)` makes it and returns the events. Cards are stored as faces
(the first deck's number), so the same move made twice compares equal.

>>> Play(2, "qs")
Play(seat=2, card=Card('QS'))
>>> Pass(0, ["2C", "AS", "KH"]) == Pass(0, ("2C", "AS", "KH"))
True
>>> Play(0, "ZZ")
Traceback (most recent call last):
...
ValueError: 'ZZ' is not a card; write a rank and a suit, like "QS" or "10H".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

from .cards import CARDS, DECK_SIZE, Card, parse_card
from .round import IllegalMoveError
from .scoring import MOON_CHOICES, MoonChoice

CardLike: TypeAlias = Card | str | int


def as_face(card: CardLike) -> Card:
    """A card as its face: "qs", 49, 101 and Card('QS') all give Card('QS')."""
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 2 * DECK_SIZE:
        raise ValueError(f"{card!r} is not a card.")
    return CARDS[card % DECK_SIZE]


@dataclass(frozen=True, slots=True)
class Pass:
    """A seat passes cards (in order: with a scatter, one to each seat from the left)."""

    seat: int
    cards: tuple[Card, ...]

    def __init__(self, seat: int, cards: Iterable[CardLike]) -> None:
        if isinstance(cards, str | bytes):
            raise ValueError("A pass lists its cards one by one.")
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", tuple(as_face(c) for c in cards))


@dataclass(frozen=True, slots=True)
class Play:
    """A seat plays a card."""

    seat: int
    card: Card

    def __init__(self, seat: int, card: CardLike) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", as_face(card))


@dataclass(frozen=True, slots=True)
class ChooseMoon:
    """The seat that shot the moon, under "the shooter chooses", picks how it scores."""

    seat: int
    choice: MoonChoice

    def __post_init__(self) -> None:
        if self.choice not in MOON_CHOICES:
            raise IllegalMoveError(
                "Choose add (the moon's points to everyone else) or subtract (them off your"
                " own score)."
            )


@dataclass(frozen=True, slots=True)
class NextRound:
    """Deal the next round (any seat may ask once a round is scored)."""


Move: TypeAlias = Pass | Play | ChooseMoon | NextRound
